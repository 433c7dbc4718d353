/**
 * One size of the large benchmark in a process of its own, so that its peak RSS is the
 * simulation's (with its input) and nothing else's: `node --expose-gc out/bench/largeRun.js NODES RUNS`
 * prints one JSON line. The heap is collected between runs, outside the timed part.
 */
import { simulate } from '../src/sim/simulate';
import { largeInput, largeScenario } from './largeCluster';
import { median, timeMs } from './measure';

export interface LargeRunResult {
  nodes: number;
  pods: number;
  podsWithClaims: number;
  services: number;
  failedNodes: number;
  runsMs: number[];
  medianMs: number;
  tasks: number;
  events: number;
  states: number;
  /** Peak RSS of the whole process, over every run. */
  peakRssBytes: number;
  /** Peak RSS when the first run ended: the input and one simulation, what a single `simulate` needs. */
  firstRunPeakRssBytes: number;
}

function main(): void {
  const nodes = Number(process.argv[2] ?? 5000);
  const runs = Number(process.argv[3] ?? 5);
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const input = largeInput(nodes);
  const { scenario, failedNodes } = largeScenario(input);
  const runsMs: number[] = [];
  let tasks = 0;
  let events = 0;
  let states = 0;
  let firstRunPeakRssBytes = 0;
  for (let i = 0; i < runs; i++) {
    gc();
    runsMs.push(timeMs(() => {
      const result = simulate(scenario);
      tasks = result.executedTasks;
      events = result.events.length;
      states = result.states.length;
    }));
    if (i === 0) firstRunPeakRssBytes = process.resourceUsage().maxRSS * 1024;
  }
  const result: LargeRunResult = {
    nodes, pods: input.pods, podsWithClaims: input.podsWithClaims, services: scenario.services.length, failedNodes,
    runsMs, medianMs: median(runsMs), tasks, events, states, peakRssBytes: process.resourceUsage().maxRSS * 1024, firstRunPeakRssBytes,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) main();
