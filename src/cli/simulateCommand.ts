import * as path from 'node:path';
import type { ReadFile } from '../analysis/analyseText';
import { buildScenario, clusterConfigSettings, defaultSimulationOptions, mergeModels, ScenarioInputError, type SimulationOptions } from '../analysis/buildScenario';
import { clusterFromNodes, ZONE_LABEL } from '../cluster/clusterSpec';
import { KNOB_BY_NAME } from '../cluster/knobs';
import { TimingError, type TimingSetting } from '../cluster/timing';
import { formatDuration, parseDuration } from '../manifest/duration';
import { renderText, scenarioHeader } from '../sim/renderText';
import { FAILURES, isFailureKind, type Intervention, type Scenario } from '../sim/scenario';
import { ScenarioError, simulate, type SimulationResult } from '../sim/simulate';
import type { WorkloadSummary } from '../sim/summary';
import { UsageError, parseArgs, single, type ParsedArgs } from './args';
import { InputError, readManifestFiles } from './files';
import type { Output } from './output';

export const SIMULATE_USAGE = `Usage: kube-failure-sim simulate PATH... [options]

Simulates what the control plane does to the workloads in PATH when nodes fail.
  --failure power-off|kubelet-stop|partition   what happens to the node (default power-off)
  --target T[,T...]     node/NAME, or Kind/name for the node of that workload's first pod
                        (default: the node of the first pod of the first workload)
  --at D                normal operation shown before the failure (default 0s)
  --recover-after D     the node (kubelet) is back D after the failure
  --force-delete POD@D  kubectl delete --force --grace-period=0 at D (POD: a pod name or Kind/name); repeatable
  --out-of-service-after D   taint the failed nodes node.kubernetes.io/out-of-service at D
  --delete-node-after D      delete the failed Node objects at D
  --duration D          simulated time after the failure (default 20m)
  --profile NAME        timing preset: default, fast, medium, slow
  --k8s-version V       Kubernetes version for the defaults (default 1.36, or a kubeadm ClusterConfiguration's)
  --set KNOB=VALUE      override a timing knob (kubelet.*, kcm.*, apiserver.*, sim.*); repeatable
  --cluster FILE        Node objects to simulate on (kubectl get nodes -o yaml); default 3 zones x 2 workers
  --seed N              random seed (default 1); the same inputs and seed give the same trace
  --runs N              repeat with seeds 1..N and report each summary time as {min, median, max}
  --format text|json    (default text)
Durations use Kubernetes syntax: 40s, 1m30s, 2h. Cluster configuration files among the inputs
(KubeletConfiguration, controller-manager and apiserver manifests) set the timing.`;

const OPTIONS = {
  failure: { value: true }, target: { value: true }, at: { value: true }, 'recover-after': { value: true },
  'force-delete': { value: true, repeatable: true }, 'out-of-service-after': { value: true }, 'delete-node-after': { value: true },
  duration: { value: true }, profile: { value: true }, 'k8s-version': { value: true }, set: { value: true, repeatable: true },
  cluster: { value: true }, seed: { value: true }, runs: { value: true }, format: { value: true }, help: { value: false },
};

const MAX_DURATION_MS = 7 * 24 * 3600_000;

export function runSimulate(argv: string[], out: Output): number {
  const args = parseArgs(argv, OPTIONS);
  if (args.options.has('help')) {
    out.stdout(`${SIMULATE_USAGE}\n`);
    return 0;
  }
  const format = single(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  if (args.positionals.length === 0) throw new UsageError('simulate needs at least one file or directory');

  const { read, errors } = readManifestFiles(args.positionals);
  if (errors.length > 0) {
    for (const error of errors) out.stderr(`kube-failure-sim: ${error}\n`);
    return 2;
  }
  for (const { path: p, file } of read) {
    for (const problem of file.parsed.problems.filter((f) => f.severity === 'error')) {
      out.stderr(`kube-failure-sim: ${p}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message} (document skipped)\n`);
    }
  }

  let options: SimulationOptions;
  let scenario: Scenario;
  try {
    options = simulationOptions(args, read);
    scenario = buildScenario(mergeModels(read.map((r) => r.file.model)), options);
  } catch (error) {
    if (error instanceof ScenarioInputError || error instanceof TimingError || error instanceof InputError) {
      out.stderr(`kube-failure-sim: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  const runs = Number(single(args, 'runs') ?? '1');
  if (!Number.isInteger(runs) || runs < 1 || runs > 1000) throw new UsageError('--runs must be a whole number from 1 to 1000');
  let results: SimulationResult[];
  try {
    results = runs === 1 ? [simulate(scenario)] : Array.from({ length: runs }, (_, i) => simulate({ ...scenario, seed: i + 1 }));
  } catch (error) {
    if (error instanceof ScenarioError) {
      out.stderr(`kube-failure-sim: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const [first] = results;
  if (format === 'json') {
    out.stdout(`${JSON.stringify(jsonReport(scenario, read.map((r) => r.path), results))}\n`);
  } else {
    out.stdout(renderText({ header: scenarioHeader(scenario, first.summary.failedNodes, runs), events: first.events, states: first.states, summary: first.summary }));
    if (runs > 1) out.stdout(renderRunStatistics(results));
  }
  return 0;
}

function duration(args: ParsedArgs, name: string): number | undefined {
  const text = single(args, name);
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms < 0) throw new UsageError(`--${name} must be a duration such as 90s or 5m, not "${text}"`);
  if (ms > MAX_DURATION_MS) throw new UsageError(`--${name} ${text} is longer than the 7 days the simulator accepts`);
  return Math.round(ms);
}

function simulationOptions(args: ParsedArgs, read: { path: string; file: ReadFile }[]): SimulationOptions {
  const failure = single(args, 'failure') ?? 'power-off';
  if (!isFailureKind(failure)) {
    const kinds = Object.keys(FAILURES);
    throw new UsageError(`--failure must be ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}, not "${failure}"`);
  }
  const interventions: Intervention[] = [];
  for (const spec of args.options.get('force-delete') ?? []) {
    const at = spec.lastIndexOf('@');
    const ms = at > 0 ? parseDuration(spec.slice(at + 1)) : undefined;
    if (at <= 0 || ms === undefined || ms < 0) throw new UsageError(`--force-delete needs POD@DURATION, such as db-0@6m or StatefulSet/db@6m; got "${spec}"`);
    interventions.push({ kind: 'force-delete', target: spec.slice(0, at), atMs: Math.round(ms) });
  }
  const outOfService = duration(args, 'out-of-service-after');
  if (outOfService !== undefined) interventions.push({ kind: 'out-of-service', atMs: outOfService });
  const deleteNode = duration(args, 'delete-node-after');
  if (deleteNode !== undefined) interventions.push({ kind: 'delete-node', atMs: deleteNode });

  const overrides: TimingSetting[] = (args.options.get('set') ?? []).map((assignment) => {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set needs KNOB=VALUE, such as kcm.node-monitor-grace-period=20s; got "${assignment}"`);
    const name = assignment.slice(0, eq);
    if (!KNOB_BY_NAME.has(name)) throw new TimingError(`Unknown setting "${name}" (--set); settings: ${[...KNOB_BY_NAME.keys()].join(', ')}.`);
    return { name, value: assignment.slice(eq + 1), source: '--set' };
  });
  const seed = Number(single(args, 'seed') ?? '1');
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31) throw new UsageError('--seed must be a whole number ≥ 0');

  const clusterFile = single(args, 'cluster');
  let clusterSource;
  if (clusterFile !== undefined) {
    const { read: clusterFiles, errors } = readManifestFiles([clusterFile]);
    if (errors.length > 0) throw new InputError(errors[0]);
    const nodes = clusterFiles.flatMap(({ file }) => file.model.nodes);
    if (nodes.length === 0) throw new InputError(`${clusterFile} has no Node objects (expected the output of kubectl get nodes -o yaml)`);
    clusterSource = clusterFromNodes(nodes, clusterFile);
  }

  return {
    failure,
    targets: (single(args, 'target') ?? '').split(',').map((t) => t.trim()).filter(Boolean),
    preFailureMs: duration(args, 'at') ?? 0,
    recoverAfterMs: duration(args, 'recover-after'),
    interventions,
    durationMs: duration(args, 'duration') ?? defaultSimulationOptions().durationMs,
    profile: single(args, 'profile'),
    version: single(args, 'k8s-version'),
    fileSettings: read.flatMap(({ path: p, file }) => clusterConfigSettings(file.model.clusterConfig, (range) => `${p}:${range.start.line + 1}`)),
    overrides,
    clusterSource,
    seed,
  };
}

type TimeField = (typeof TIME_FIELDS)[number];

const TIME_FIELDS = ['nodeNotReadyMs', 'podsNotReadyMs', 'noExecuteTaintMs', 'podDeletionMs', 'replacementCreatedMs', 'replacementReadyMs', 'unavailableMs', 'degradedMs', 'blackholeMs', 'duplicateMs'] as const;

interface Stat {
  min: number | null;
  median: number | null;
  max: number | null;
}

function stat(values: (number | null)[]): Stat {
  const present = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (present.length === 0) return { min: null, median: null, max: null };
  const mid = present.length >> 1;
  const median = present.length % 2 ? present[mid] : Math.round((present[mid - 1] + present[mid]) / 2);
  return { min: present[0], median, max: present[present.length - 1] };
}

/** Each workload's summary over several runs: times as {min, median, max}, the most frequent outcome. */
function summaryOverRuns(results: SimulationResult[]) {
  return {
    failedNodes: results[0].summary.failedNodes,
    workloads: results[0].summary.workloads.map((w, i) => {
      const all = results.map((r) => r.summary.workloads[i]);
      const outcomes: Record<string, number> = {};
      for (const s of all) outcomes[s.outcome] = (outcomes[s.outcome] ?? 0) + 1;
      const outcome = Object.entries(outcomes).sort((a, b) => b[1] - a[1])[0][0] as WorkloadSummary['outcome'];
      const times = Object.fromEntries(TIME_FIELDS.map((f) => [f, stat(all.map((s) => s[f]))])) as Record<TimeField, Stat>;
      return { object: w.object, desiredReplicas: w.desiredReplicas, ...times, outcome, outcomes, reason: all.find((s) => s.outcome === outcome)!.reason };
    }),
  };
}

function renderRunStatistics(results: SimulationResult[]): string {
  const summary = summaryOverRuns(results);
  const lines = ['', `OVER ${results.length} RUNS (seeds 1..${results.length}): min / median / max`];
  const show = (s: Stat) => (s.min === null ? '-' : `${formatDuration(s.min!)} / ${formatDuration(s.median!)} / ${formatDuration(s.max!)}`);
  for (const w of summary.workloads) {
    const outcomes = Object.entries(w.outcomes).map(([o, n]) => `${o} ${n}`).join(', ');
    lines.push(`${w.object.kind}/${w.object.name}: ${outcomes}`);
    for (const field of ['nodeNotReadyMs', 'noExecuteTaintMs', 'podDeletionMs', 'replacementReadyMs', 'unavailableMs'] as const) {
      lines.push(`    ${field.padEnd(22)} ${show(w[field])}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The JSON contract of `simulate --format json` (version 1). */
function jsonReport(scenario: Scenario, inputs: string[], results: SimulationResult[]) {
  const [first] = results;
  const fault = scenario.faults[0];
  const timing = Object.fromEntries(Object.entries(scenario.timing.knobs).map(([name, knob]) => {
    const definition = KNOB_BY_NAME.get(name);
    const unit = definition?.type === 'duration' ? 'ms' : definition?.unit;
    return [name, { value: knob.value, ...(unit ? { unit } : {}), source: knob.source }];
  }));
  return {
    version: 1,
    scenario: {
      inputs: inputs.map((p) => p.split(path.sep).join('/')),
      failure: fault.kind,
      targets: fault.targets,
      failedNodes: first.summary.failedNodes,
      atMs: 0,
      preFailureMs: scenario.preFailureMs,
      recoverAfterMs: fault.recoverAfterMs ?? null,
      interventions: scenario.interventions,
      durationMs: scenario.durationMs,
      profile: scenario.timing.profile ?? null,
      k8sVersion: scenario.timing.version.label,
      seed: scenario.seed,
      runs: results.length,
      cluster: { source: scenario.cluster.source, nodes: scenario.cluster.nodes.map((n) => ({ name: n.name, zone: n.labels[ZONE_LABEL] ?? null })) },
      notes: scenario.timing.notes,
    },
    timing,
    events: first.events,
    states: first.states,
    summary: results.length === 1 ? first.summary : summaryOverRuns(results),
  };
}
