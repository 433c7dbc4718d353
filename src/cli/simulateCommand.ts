import * as path from 'node:path';
import { readManifestText } from '../manifest/readManifest';
import { parseDuration } from '../manifest/duration';
import { FAILURE_KINDS, PLACEMENTS, isFailureKind, type Intervention, type Placement, type Scenario } from '../sim/scenario';
import { ScenarioError, simulate, type SimulationResult } from '../sim/simulate';
import { multiRunReport, traceReport } from '../report/jsonReport';
import { RunStatistics } from '../report/runStatistics';
import { renderRunStatistics, renderText, scenarioHeader } from '../report/textReport';
import { InputError } from '../workspace/inputError';
import { defaultChoices, type SimulationChoices } from '../workspace/simulationChoices';
import type { WorkspaceSettings } from '../workspace/workspace';
import { UsageError, parseArgs, single, type ParsedArgs } from './args';
import { collectFiles, FileError, loadWorkspace, readText } from './files';
import { describeInputError } from './inputErrors';
import type { Output } from './output';

export const SIMULATE_USAGE = `Usage: kube-failure-sim simulate PATH... [options]

Simulates what the control plane does to the workloads in PATH when nodes fail.
  --failure F           what happens to the node (default power-off): power-off, kubelet-stop,
                        partition, kubelet-not-ready (runtime down, lease renewed), disk-failure
                        (Ready but broken), graceful-shutdown (kubelet.shutdownGracePeriod), zone-outage
  --target T[@D][,...]  node/NAME, zone/NAME (all its nodes), or Kind/name for the node of that
                        workload's first pod (default: the node of the first pod of the first
                        workload; zone-outage: its zone); T@D fails that target D after the first
  --at D                normal operation shown before the failure (default 0s)
  --recover-after D     the nodes are back D after their failure; T@D[,...] per target
  --force-delete POD@D  kubectl delete --force --grace-period=0 at D (POD: a pod name or Kind/name); repeatable
  --delete POD@D        kubectl delete pod (graceful, the pod's own grace period) at D; repeatable
  --out-of-service-after D   taint the failed nodes node.kubernetes.io/out-of-service at D
  --delete-node-after D      delete the failed Node objects at D
  --restart-controller-manager-at D   kube-controller-manager restarts at D (leader election, state rebuilt)
  --placement P         where pods go: scheduler (kube-scheduler's default scoring, the default),
                        worst (packed onto as few nodes as allowed) or spread
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
  'force-delete': { value: true, repeatable: true }, delete: { value: true, repeatable: true }, 'out-of-service-after': { value: true }, 'delete-node-after': { value: true },
  'restart-controller-manager-at': { value: true, repeatable: true },
  placement: { value: true }, duration: { value: true }, profile: { value: true }, 'k8s-version': { value: true }, set: { value: true, repeatable: true },
  cluster: { value: true }, seed: { value: true }, runs: { value: true }, format: { value: true }, help: { value: false },
};

const MAX_DURATION_MS = 7 * 24 * 3600_000;
const MAX_RUNS = 1000;

/** What a simulate command line asks for, checked against its input. */
export interface PreparedSimulation {
  scenario: Scenario;
  /** The files read, as the user named them (forward slashes). */
  inputs: string[];
  /** Parser errors that made documents be skipped, as stderr lines. */
  warnings: string[];
}

/** Reads the files and builds the scenario (no simulation). Throws UsageError, FileError or InputError. */
export function prepareSimulation(args: ParsedArgs, cwd = process.cwd()): PreparedSimulation {
  if (args.positionals.length === 0) throw new UsageError('simulate needs at least one file or directory');
  const { workspace, files, errors } = loadWorkspace(args.positionals, workspaceSettings(args), cwd);
  if (errors.length > 0) throw new FileError(errors.join('\nkube-failure-sim: '));
  const warnings: string[] = [];
  for (const { displayPath } of files) {
    for (const problem of workspace.read(displayPath).parsed.problems.filter((f) => f.severity === 'error')) {
      warnings.push(`${displayPath}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message} (document skipped)`);
    }
  }
  const scenario = workspace.scenario(simulationChoices(args, cwd));
  return { scenario, inputs: files.map((f) => f.displayPath.split(path.sep).join('/')), warnings };
}

export function runSimulate(argv: string[], out: Output): number {
  const args = parseArgs(argv, OPTIONS);
  if (args.options.has('help')) {
    out.stdout(`${SIMULATE_USAGE}\n`);
    return 0;
  }
  const format = single(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  const runs = Number(single(args, 'runs') ?? '1');
  if (!Number.isInteger(runs) || runs < 1 || runs > MAX_RUNS) throw new UsageError(`--runs must be a whole number from 1 to ${MAX_RUNS}`);

  let prepared: PreparedSimulation;
  try {
    prepared = prepareSimulation(args);
  } catch (error) {
    if (error instanceof InputError || error instanceof FileError) {
      out.stderr(`kube-failure-sim: ${error instanceof InputError ? describeInputError(error) : error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { scenario, inputs, warnings } = prepared;
  for (const warning of warnings) out.stderr(`kube-failure-sim: ${warning}\n`);

  // Only the first run's trace is kept; the others add their summaries to the statistics and are dropped.
  let first: SimulationResult;
  const statistics = new RunStatistics();
  try {
    first = simulate(scenario);
    statistics.add(first.summary.workloads);
    for (let seed = 2; seed <= runs; seed++) statistics.add(simulate({ ...scenario, seed }).summary.workloads);
  } catch (error) {
    if (error instanceof ScenarioError) {
      out.stderr(`kube-failure-sim: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (format === 'json') {
    const report = runs === 1 ? traceReport(scenario, inputs, first) : multiRunReport(scenario, inputs, first, statistics);
    out.stdout(`${JSON.stringify(report)}\n`);
  } else {
    out.stdout(renderText({ header: scenarioHeader(scenario, first.summary.failedNodes, runs, first.summary.failedNodesByFault), events: first.events, states: first.states, summary: first.summary }));
    if (runs > 1) out.stdout(renderRunStatistics(statistics));
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

/** --k8s-version, --profile and --set: they apply to the whole run. */
export function workspaceSettings(args: ParsedArgs): WorkspaceSettings {
  const version = single(args, 'k8s-version');
  return {
    version: version === undefined ? undefined : { value: version, source: '--k8s-version' },
    profile: single(args, 'profile'),
    overrides: (args.options.get('set') ?? []).map((assignment) => {
      const eq = assignment.indexOf('=');
      if (eq <= 0) throw new UsageError(`--set needs KNOB=VALUE, such as kcm.node-monitor-grace-period=20s; got "${assignment}"`);
      return { name: assignment.slice(0, eq), value: assignment.slice(eq + 1), source: '--set' };
    }),
  };
}

function simulationChoices(args: ParsedArgs, cwd: string): SimulationChoices {
  const failure = single(args, 'failure') ?? 'power-off';
  if (!isFailureKind(failure)) {
    throw new UsageError(`--failure must be ${FAILURE_KINDS.slice(0, -1).join(', ')} or ${FAILURE_KINDS.at(-1)}, not "${failure}"`);
  }
  const interventions: Intervention[] = [];
  for (const kind of ['force-delete', 'delete'] as const) {
    for (const spec of args.options.get(kind) ?? []) {
      const at = spec.lastIndexOf('@');
      const ms = at > 0 ? parseDuration(spec.slice(at + 1)) : undefined;
      if (at <= 0 || ms === undefined || ms < 0) throw new UsageError(`--${kind} needs POD@DURATION, such as db-0@6m or StatefulSet/db@6m; got "${spec}"`);
      interventions.push({ kind, target: spec.slice(0, at), atMs: Math.round(ms) });
    }
  }
  const outOfService = duration(args, 'out-of-service-after');
  if (outOfService !== undefined) interventions.push({ kind: 'out-of-service', atMs: outOfService });
  const deleteNode = duration(args, 'delete-node-after');
  if (deleteNode !== undefined) interventions.push({ kind: 'delete-node', atMs: deleteNode });
  for (const text of args.options.get('restart-controller-manager-at') ?? []) {
    const ms = parseDuration(text);
    if (ms === undefined || ms < 0) throw new UsageError(`--restart-controller-manager-at must be a duration such as 2m, not "${text}"`);
    interventions.push({ kind: 'restart-controller-manager', atMs: Math.round(ms) });
  }
  const placement = single(args, 'placement') ?? 'scheduler';
  if (!(PLACEMENTS as readonly string[]).includes(placement)) throw new UsageError(`--placement must be ${PLACEMENTS.join(', ')}, not "${placement}"`);
  const seed = Number(single(args, 'seed') ?? '1');
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31) throw new UsageError('--seed must be a whole number ≥ 0');
  const targets = timedList(args, 'target', 'node/a@0s,node/b@60s');
  const recoverAfter = single(args, 'recover-after');
  const perTargetRecovery = recoverAfter !== undefined && recoverAfter.includes('@') ? timedList(args, 'recover-after', 'node/a@5m,node/b@2m') : undefined;
  return {
    ...defaultChoices(),
    failure,
    targets: targets.map((t) => t.name),
    failAtMs: Object.fromEntries(targets.filter((t) => t.ms !== undefined).map((t) => [t.name, t.ms!])),
    recoverAfterMs: perTargetRecovery ? undefined : duration(args, 'recover-after'),
    recoverAfterMsByTarget: perTargetRecovery && Object.fromEntries(perTargetRecovery.map((t) => {
      if (t.ms === undefined) throw new UsageError(`--recover-after: give every target a time (TARGET@D), or one duration for all; got "${t.name}"`);
      return [t.name, t.ms];
    })),
    preFailureMs: duration(args, 'at') ?? 0,
    placement: placement as Placement,
    interventions,
    durationMs: duration(args, 'duration') ?? defaultChoices().durationMs,
    seed,
    cluster: clusterNodes(single(args, 'cluster'), cwd),
  };
}

/** A comma-separated list of NAME or NAME@DURATION (--target node/a@0s,node/b@60s). */
function timedList(args: ParsedArgs, option: string, example: string): { name: string; ms?: number }[] {
  return (single(args, option) ?? '').split(',').map((t) => t.trim()).filter(Boolean).map((item) => {
    const at = item.lastIndexOf('@');
    if (at < 0) return { name: item };
    const ms = at > 0 ? parseDuration(item.slice(at + 1)) : undefined;
    if (ms === undefined || ms < 0 || ms > MAX_DURATION_MS) throw new UsageError(`--${option} needs NAME or NAME@DURATION items, such as ${example}; got "${item}"`);
    return { name: item.slice(0, at), ms: Math.round(ms) };
  });
}

/** --cluster FILE: the Node objects of a `kubectl get nodes -o yaml`. */
function clusterNodes(clusterFile: string | undefined, cwd: string): SimulationChoices['cluster'] {
  if (clusterFile === undefined) return undefined;
  const { files, errors } = collectFiles([clusterFile], cwd);
  if (errors.length > 0) throw new FileError(errors[0]);
  const nodes = files.flatMap((file) => readManifestText(readText(file)).model.nodes);
  if (nodes.length === 0) throw new InputError('cluster', clusterFile, 'it has no Node objects (expected the output of kubectl get nodes -o yaml).');
  return { nodes, source: clusterFile };
}

export { OPTIONS as SIMULATE_OPTIONS };
