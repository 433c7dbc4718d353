import * as path from 'node:path';
import { readManifestText } from '../manifest/readManifest';
import { parseDuration } from '../manifest/duration';
import { FAILURE_KINDS, isFailureKind, type Intervention, type Scenario } from '../sim/scenario';
import { ScenarioError, simulate, type SimulationResult } from '../sim/simulate';
import { multiRunReport, traceReport } from '../report/jsonReport';
import { RunStatistics } from '../report/runStatistics';
import { renderRunStatistics, renderText, scenarioHeader } from '../report/textReport';
import { InputError } from '../workspace/inputError';
import { defaultChoices, type SimulationChoices } from '../workspace/simulationChoices';
import { UsageError, parseArgs, single, type ParsedArgs } from './args';
import { API_REJECTION_RULES } from '../analysis/rules';
import { TEMPLATE_DETECTED } from '../manifest/problem';
import { findingLine } from './checkCommand';
import { collectFiles, FileError, loadWorkspace, readText, type StdinReader } from './files';
import { SETTINGS_OPTIONS, SETTINGS_USAGE, settingsFromArgs } from './settingsOptions';
import { describeInputError } from './inputErrors';
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
${SETTINGS_USAGE}
  --cluster FILE        Node objects to simulate on (kubectl get nodes -o yaml); default 3 zones x 2 workers
  --seed N              random seed (default 1); the same inputs and seed give the same trace
  --runs N              repeat with seeds 1..N and report each summary time as {min, median, max}
  --format text|json    (default text)
Durations use Kubernetes syntax: 40s, 1m30s, 2h. Cluster configuration files among the inputs
(KubeletConfiguration, controller-manager and apiserver manifests) set the timing.`;

const OPTIONS = {
  failure: { value: true }, target: { value: true }, at: { value: true }, 'recover-after': { value: true },
  'force-delete': { value: true, repeatable: true }, 'out-of-service-after': { value: true }, 'delete-node-after': { value: true },
  duration: { value: true }, ...SETTINGS_OPTIONS,
  cluster: { value: true }, seed: { value: true }, runs: { value: true }, format: { value: true },
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
export function prepareSimulation(args: ParsedArgs, cwd = process.cwd(), readStdin?: StdinReader): PreparedSimulation {
  if (args.positionals.length === 0) throw new UsageError('simulate needs at least one file or directory');
  const { workspace, files, errors } = loadWorkspace(args.positionals, settingsFromArgs(args), cwd, readStdin);
  if (errors.length > 0) throw new FileError(errors.join('\nkube-failure-sim: '));
  const warnings: string[] = [];
  for (const { displayPath } of files) {
    for (const problem of workspace.read(displayPath).parsed.problems.filter((f) => f.severity === 'error')) {
      warnings.push(`${displayPath}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message} (document skipped)`);
    }
  }
  const rejected = files.flatMap(({ displayPath }) => workspace.analyse(displayPath).findings
    .filter((f) => f.severity === 'error' && API_REJECTION_RULES.includes(f.ruleId))
    .map((f) => findingLine(displayPath, f)));
  if (rejected.length > 0) throw new RejectedInput(rejected);
  let scenario: Scenario;
  try {
    scenario = workspace.scenario(simulationChoices(args, cwd));
  } catch (error) {
    const templates = files.filter((f) => workspace.read(f.displayPath).parsed.problems.some((p) => p.ruleId === TEMPLATE_DETECTED));
    if (error instanceof InputError && error.choice === 'workloads' && error.value === undefined && templates.length > 0) {
      throw new InputError('workloads', undefined, `${error.problem} Skipped ${templates.length === 1 ? 'a template' : `${templates.length} templates`} (${templates.map((t) => t.displayPath).join(', ')}): render ${templates.length === 1 ? 'it' : 'them'} first, such as helm template . | kube-failure-sim simulate -`);
    }
    throw error;
  }
  return { scenario, inputs: files.map((f) => f.displayPath.split(path.sep).join('/')), warnings };
}

export function runSimulate(argv: string[], out: Output): number {
  const args = parseArgs(argv, OPTIONS);
  const format = single(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  const runs = Number(single(args, 'runs') ?? '1');
  if (!Number.isInteger(runs) || runs < 1 || runs > MAX_RUNS) throw new UsageError(`--runs must be a whole number from 1 to ${MAX_RUNS}`);

  let prepared: PreparedSimulation;
  try {
    prepared = prepareSimulation(args, process.cwd(), out.readStdin);
  } catch (error) {
    if (error instanceof RejectedInput) {
      for (const line of error.findings) out.stdout(`${line}\n`);
      out.stderr('kube-failure-sim: the API server would reject these objects; fix them first (nothing simulated).\n');
      return 1;
    }
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
    out.stdout(renderText({ header: scenarioHeader(scenario, first.summary.failedNodes, runs), events: first.events, states: first.states, summary: first.summary }));
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

function simulationChoices(args: ParsedArgs, cwd: string): SimulationChoices {
  const failure = single(args, 'failure') ?? 'power-off';
  if (!isFailureKind(failure)) {
    throw new UsageError(`--failure must be ${FAILURE_KINDS.slice(0, -1).join(', ')} or ${FAILURE_KINDS.at(-1)}, not "${failure}"`);
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
  const seed = Number(single(args, 'seed') ?? '1');
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31) throw new UsageError('--seed must be a whole number ≥ 0');
  return {
    ...defaultChoices(),
    failure,
    targets: (single(args, 'target') ?? '').split(',').map((t) => t.trim()).filter(Boolean),
    preFailureMs: duration(args, 'at') ?? 0,
    recoverAfterMs: duration(args, 'recover-after'),
    interventions,
    durationMs: duration(args, 'duration') ?? defaultChoices().durationMs,
    seed,
    cluster: clusterNodes(single(args, 'cluster'), cwd),
  };
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

/** Objects the API server would reject: simulate refuses them, with the findings `check` prints. */
class RejectedInput extends Error {
  constructor(readonly findings: string[]) {
    super('the API server would reject the input');
  }
}

export { OPTIONS as SIMULATE_OPTIONS };
