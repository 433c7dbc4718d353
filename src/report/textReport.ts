/**
 * The trace as text, in the style of `kubectl get pods,nodes --watch`: a header saying what was
 * simulated, one line per state change with the time since the failure, discrete events as `#`
 * lines, then the summary (and, over several runs, the statistics).
 */
import { isUnsetSource } from '../cluster/timing';
import type { ScenarioJson, TimingJson } from './contract';
import { scenarioJson, timingJson } from './jsonReport';
import type { InitialPlacement, Scenario } from '../sim/scenario';
import type { Summary } from '../sim/summary';
import type { StateInterval, TraceEvent } from '../sim/trace';
import { deletionTarget } from '../manifest/deletionTarget';
import { workloadLabeler } from './workloadLabel';
import { compareText, formatDuration, formatTime, nodeNames } from './format';
import { TIME_FIELDS, type RunStatistics, type Stat } from './runStatistics';
import { outcomeReason } from './summaryText';
import { watchRows } from './watchRows';

const PLACEMENT_WORDS: Record<string, string> = {
  scheduler: "kube-scheduler's default scoring",
  // The simulator's shortcut for large clusters (InitialPlacement): say it, do not claim scoring.
  'scheduler/first-feasible': "kube-scheduler's filters; the pods running before the failure went to the first feasible node in a rotating order, unscored (100 nodes or more); replacements use the default scoring",
  worst: "each workload's pods packed onto as few nodes as its constraints allow",
  spread: "each workload's pods spread over as many nodes and zones as possible",
};

/** The settings that decide when a failed node's pods go: the ones a header shows. */
export const KEY_KNOBS = ['kcm.node-monitor-grace-period', 'kcm.node-monitor-period', 'kubelet.nodeLeaseDurationSeconds', 'kubelet.nodeStatusReportFrequency', 'apiserver.default-unreachable-toleration-seconds'];

export function keyTimingText(timing: Record<string, TimingJson>): string {
  // Knobs one after another from one source share it: "a=1, b=2 (Kubernetes 1.36 defaults)", not the source five times.
  const groups: { source: string; settings: string[] }[] = [];
  // Besides the key knobs, every other one the run sets: a --set, a preset, a cluster file.
  const set = Object.keys(timing).filter((name) => !KEY_KNOBS.includes(name) && !isUnsetSource(timing[name].source));
  for (const name of [...KEY_KNOBS, ...set]) {
    const knob = timing[name];
    const value = typeof knob.value === 'number' && knob.unit === 'ms' ? formatDuration(knob.value) : String(knob.value);
    const setting = `${name.replace(/^[a-z]+\./, '')}=${value}`;
    const last = groups[groups.length - 1];
    if (last?.source === knob.source) last.settings.push(setting);
    else groups.push({ source: knob.source, settings: [setting] });
  }
  return groups.map(({ source, settings }) => `${settings.join(', ')} (${settings.length > 1 && source.endsWith(' default') ? `${source}s` : source})`).join('; ');
}

/** What was simulated, in a few lines: the failure, the version, the seed, the cluster and the timing that decides the outcome. */
export function reportHeader(scenario: ScenarioJson, timing: Record<string, TimingJson>): string[] {
  const recovery = (ms: number | null) => (ms !== null ? `, back after ${formatDuration(ms)}` : ', never recovers');
  const faults = scenario.faults ?? [];
  const what = faults.length > 1
    ? faults.map((f) => `${nodeNames(f.failedNodes) || f.targets.join(', ')} at ${formatDuration(f.atMs)}${recovery(f.recoverAfterMs)}`).join('; ')
    : `${nodeNames(scenario.failedNodes)} at 0s${recovery(scenario.recoverAfterMs)}`;
  return [
    `Failure: ${scenario.failure} of ${what}; Kubernetes ${scenario.k8sVersion}; seed ${scenario.seed}${scenario.runs > 1 ? ` (first of ${scenario.runs} runs)` : ''}; ${formatDuration(scenario.durationMs)} simulated.`,
    `Cluster: ${scenario.cluster.source}; placement ${scenario.placement ?? 'scheduler'} (${placementWords(scenario.placement ?? 'scheduler', scenario.initialPlacement)}).`,
    // A trace saved by an earlier version has no interventions.
    ...(scenario.interventions?.length ? [`Meanwhile: ${scenario.interventions.map((i) => interventionText(i)).join('; ')}.`] : []),
    `Timing: ${keyTimingText(timing)}.`,
    ...scenario.notes.map((n) => `Note: ${n}`),
  ];
}

/** `kubectl delete pod NAME`, or for the pods a deletion names: every pod of a node or zone, or a workload's pods on the failed nodes. */
function deletionCommand(target: string, flags: string): string {
  const { kind, name } = deletionTarget(target);
  const command = `kubectl delete pod${flags}`;
  if (kind === 'pod') return `${command} ${name}`;
  if (kind === 'node') return `${command} for every pod on node ${name}`;
  if (kind === 'zone') return `${command} for every pod in zone ${name}`;
  return `${command} for the pods of ${name} on the failed nodes`;
}

type InterventionRef = { kind: string; atMs: number; target?: string };

/** What people do during the run: as the header lists it, or briefly for a run's title (two runs may differ there alone). */
export function interventionText(intervention: InterventionRef, brief = false): string {
  const target = intervention.target ?? '';
  const words: Record<string, [string, string]> = {
    // The command as given, not its effect: a deletion can find nothing to delete (skippedDeletions.ts).
    'force-delete': [`force delete ${target}`, deletionCommand(target, ' --force --grace-period=0')],
    delete: [`delete ${target}`, deletionCommand(target, '')],
    'out-of-service': ['out-of-service', 'out-of-service taint on the failed nodes'],
    'delete-node': ['delete node', 'the failed Node objects deleted'],
    'restart-controller-manager': ['controller-manager restart', 'kube-controller-manager restarted'],
  };
  const [short, long] = words[intervention.kind] ?? [intervention.kind, intervention.kind];
  return `${brief ? short : long} at ${formatDuration(intervention.atMs)}`;
}

/** A run's interventions for its title: " + force delete node/worker-a1 at 6m". */
export function interventionsTitle(interventions: readonly InterventionRef[] | undefined): string {
  return (interventions ?? []).map((i) => ` + ${interventionText(i, true)}`).join('');
}

function placementWords(placement: string, initial: InitialPlacement | undefined): string {
  return PLACEMENT_WORDS[initial === 'first-feasible' ? `${placement}/first-feasible` : placement] ?? '';
}

/** `notes`: what the run found beside the scenario's own notes (a deletion that deleted nothing). */
export function scenarioHeader(scenario: Scenario, failedNodes: string[], runs = 1, failedNodesByFault?: string[][], initialPlacement?: InitialPlacement, notes: string[] = []): string[] {
  const described = scenarioJson(scenario, [], failedNodes, runs, failedNodesByFault, initialPlacement);
  return reportHeader({ ...described, notes: [...described.notes, ...notes] }, timingJson(scenario.timing));
}

export interface TextRenderInput {
  header: string[];
  events: readonly TraceEvent[];
  states: readonly StateInterval[];
  summary: Summary;
}

/** The text report a line at a time, each with its newline (a large cluster's is tens of MB). */
export function* renderText(input: TextRenderInput): Generator<string> {
  for (const line of [...input.header, '']) yield `${line}\n`;
  yield `${'TIME'.padEnd(10)} ${'NAME'.padEnd(42)} ${'STATUS'.padEnd(18)} ${'READY'.padEnd(5)} ${'RESTARTS'.padEnd(8)} ${'NODE'.padEnd(14)} IP / DETAIL\n`;
  for (const row of watchRows(input.events, input.states)) {
    const text = row.event
      ? `${row.name} ${row.status}: ${row.detail}`
      : `${row.name.padEnd(42)} ${row.status.padEnd(18)} ${row.ready.padEnd(5)} ${row.restarts.padEnd(8)} ${row.node.padEnd(14)} ${row.detail}`;
    yield `${`${formatTime(row.t).padEnd(10)} ${text}`.trimEnd()}\n`;
  }
  for (const line of ['', ...renderSummary(input.summary)]) yield `${line}\n`;
}

const ms = (value: number | null) => (value === null ? '-' : formatDuration(value));

/** Every number of a workload's JSON summary has its column (times since the failure; PENDING0: pods Pending before it). */
export function renderSummary(summary: Summary): string[] {
  const placement = summary.initialPlacement === 'first-feasible' ? `${summary.placement}, unscored first feasible node before the failure` : summary.placement;
  const lines = [`SUMMARY (failed: ${nodeNames(summary.failedNodes)}; placement ${placement}; times since the failure)`];
  const columns = ['WORKLOAD', 'DESIRED', 'OUTCOME', 'NOTREADY', 'PODS-NR', 'NOEXEC', 'DELETED', 'REPL-NEW', 'REPL-READY', 'UNAVAIL', 'DEGRADED', 'BLACKHOLE', 'DUPLICATE', 'PENDING0'];
  const label = workloadLabeler(summary.workloads.map((w) => w.object));
  // A long name widens its column rather than pushing the rest of its row out of line.
  const widths = [Math.max(36, ...summary.workloads.map((w) => label(w.object).length)), 7, 17, 10, 10, 10, 10, 10, 11, 10, 10, 10, 10, 8];
  lines.push(columns.map((c, i) => c.padEnd(widths[i])).join(' ').trimEnd());
  const sorted = [...summary.workloads].sort((a, b) => compareText(label(a.object), label(b.object)));
  for (const w of sorted) {
    const cells = [label(w.object), String(w.desiredReplicas), w.outcome, ms(w.nodeNotReadyMs), ms(w.podsNotReadyMs), ms(w.noExecuteTaintMs), ms(w.podDeletionMs),
      ms(w.replacementCreatedMs), ms(w.replacementReadyMs), ms(w.unavailableMs), ms(w.degradedMs), ms(w.blackholeMs), ms(w.duplicateMs), String(w.pendingBeforeFailure?.pods ?? 0)];
    lines.push(cells.map((c, i) => c.padEnd(widths[i])).join(' ').trimEnd());
    lines.push(`    ${outcomeReason(w)}`);
  }
  return lines;
}

export function renderRunStatistics(statistics: RunStatistics, firstSeed: number): string {
  const lines = ['', `OVER ${statistics.runs} RUNS (seeds ${firstSeed}..${firstSeed + statistics.runs - 1}): min / median / max`];
  const show = (s: Stat) => (s.min === null ? '-' : `${formatDuration(s.min)} / ${formatDuration(s.median!)} / ${formatDuration(s.max!)}`);
  const results = statistics.result();
  const label = workloadLabeler(results.map((w) => w.object));
  for (const w of results) {
    const outcomes = Object.entries(w.outcomes).map(([o, n]) => `${o} ${n}`).join(', ');
    lines.push(`${label(w.object)}: ${outcomes}`);
    lines.push(`    ${'desiredReplicas'.padEnd(22)} ${w.desiredReplicas}`);
    for (const field of TIME_FIELDS) {
      lines.push(`    ${field.padEnd(22)} ${show(w.times[field])}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
