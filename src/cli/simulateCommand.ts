import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Path } from '../manifest/path';
import { decodeUtf8 } from '../manifest/decode';
import { parseDuration } from '../manifest/duration';
import { MAX_DURATION_MS, MAX_RUNS } from '../manifest/limits';
import { FAILURE_KINDS, PLACEMENTS, isFailureKind, sameIntervention, type Intervention, type Placement, type Scenario } from '../sim/scenario';
import { ScenarioError, simulate, type SimulationResult } from '../sim/simulate';
import { afterTheEnd } from '../report/afterTheEnd';
import { unrealisticTiming } from '../report/unrealisticTiming';
import { htmlReportPieces, type ReportFinding } from '../report/htmlReport';
import { multiRunReport, timingJson, traceReport } from '../report/jsonReport';
import { RunStatistics } from '../report/runStatistics';
import { renderRunStatistics, renderText, scenarioHeader } from '../report/textReport';
import { nodeNames } from '../report/format';
import { jsonChunks } from '../report/jsonChunks';
import { skippedDeletionNotes } from '../report/skippedDeletions';
import { InputError } from '../workspace/inputError';
import { NO_WORKLOADS } from '../workspace/scenarioBuilder';
import { readScenarioFile, scenarioArguments, scenarioFieldOf, scenarioRun, splitTarget, type ReadScenarioFile, type ScenarioFile } from '../workspace/scenarioFile';
import { defaultChoices, type ClusterText, type SimulationChoices } from '../workspace/simulationChoices';
import type { WorkspaceSettings } from '../workspace/workspace';
import { UsageError, parseArgs, single, type ParsedArgs } from './args';
import { SYNTAX_ERROR, TEMPLATE_DETECTED } from '../manifest/problem';
import { RejectedInput, reportRejected, warnSkippedDocuments, type Warn } from './refusedInput';
import { collectFiles, FileError, loadWorkspace, makeParentDirectories, readText, type StdinReader } from './files';
import { SETTINGS_OPTIONS, SETTINGS_USAGE, settingsFromArgs } from './settingsOptions';
import { describeInputError } from './inputErrors';
import { terminalSafe, type Output } from './output';
import { reportAssets } from './reportAssets';

export const SIMULATE_USAGE = `Usage: kube-failure-sim simulate PATH... [options]
       kube-failure-sim simulate --scenario FILE [--format F] [-o FILE] [--runs N]

Simulates what the control plane does to the workloads in PATH when nodes fail.
  --failure F           what happens to the node (default power-off): power-off, kubelet-stop,
                        partition, kubelet-not-ready (runtime down, lease renewed), disk-failure
                        (Ready but broken), graceful-shutdown (kubelet.shutdownGracePeriod),
                        zone-outage
  --target T[@D][,...]  node/NAME, zone/NAME (all its nodes), or Kind/name (Kind/namespace/name
                        where namespaces share it) for the node of that workload's first pod
                        (default: the node of the first running pod of the first workload that
                        has one; zone-outage: that node's whole zone); T@D fails that target D
                        after the others; times count from the first failure (when every target
                        has a D, the earliest fails at 0s and the rest keep their distance)
  --at D                normal operation shown before the failure (default 0s); the heartbeats'
                        phases at the failure then come from that time, so its times can differ
                        within their jitter from a run without --at
  --recover-after D     the nodes are back D after their failure; T@D[,...] per target
  --force-delete POD@D  kubectl delete --force --grace-period=0 at D (POD: a pod name, Kind/name,
                        or node/NAME or zone/NAME for every pod there); repeatable
  --delete POD@D        kubectl delete pod (graceful, the pod's own grace period) at D; repeatable
  --out-of-service-after D   taint the failed nodes node.kubernetes.io/out-of-service at D
  --delete-node-after D      delete the failed Node objects at D
  --restart-controller-manager-at D   kube-controller-manager restarts at D (leader election,
                                      state rebuilt)
  --placement P         where pods go: scheduler (kube-scheduler's default scoring, the default),
                        worst (packed onto as few nodes as allowed) or spread
  --duration D          simulated time after the failure (default 20m)
${SETTINGS_USAGE}
  --cluster FILE        Node objects to simulate on (kubectl get nodes -o yaml); default 3 zones
                        x 2 workers
  --seed N              random seed (default 1); the same inputs and seed give the same trace
  --runs N              repeat with seeds S..S+N-1 (S: --seed) and report each summary time as
                        {min, median, max}
  --format text|json|html   (default text); html: one self-contained page with the timeline
  -o, --output FILE     write the report to FILE instead of standard output
  --scenario FILE       the manifests and choices of a FailureScenario file (paths relative to it)
Durations use Kubernetes syntax: 40s, 1m30s, 2h. Cluster configuration files among the inputs
(KubeletConfiguration, controller-manager and apiserver manifests) set the timing.
Exit code: 0 when it simulated (a document it could not read is skipped, with a message), 1 when
the API server would reject objects of the input (nothing simulated; check shows why), 2 for usage,
input or I/O errors.`;

const OPTIONS = {
  failure: { value: true }, target: { value: true }, at: { value: true }, 'recover-after': { value: true },
  'force-delete': { value: true, repeatable: true }, delete: { value: true, repeatable: true }, 'out-of-service-after': { value: true }, 'delete-node-after': { value: true },
  'restart-controller-manager-at': { value: true, repeatable: true },
  placement: { value: true }, duration: { value: true }, ...SETTINGS_OPTIONS,
  cluster: { value: true }, seed: { value: true }, runs: { value: true }, format: { value: true }, output: { value: true, short: 'o' }, scenario: { value: true },
};


/** What a simulate command line asks for, checked against its input. */
export interface PreparedSimulation {
  scenario: Scenario;
  /** The files read, as the user named them (forward slashes). */
  inputs: string[];
  /** The checks' findings about workloads (the HTML report's "What would shorten it"), computed on demand. */
  findings: () => ReportFinding[];
  /** Every file read (manifests, cluster configuration, the Node list), absolute: -o must not be one of them. */
  readFiles: string[];
  /** SHA-256 of every text read (standard input too): what the HTML report's nonce is made from. */
  inputDigest: string;
}

/** Reads the files and builds the scenario (no simulation). Throws UsageError, FileError, InputError or RejectedInput. */
export function prepareSimulation(args: ParsedArgs, cwd = process.cwd(), readStdin?: StdinReader, warn: Warn = () => {}): PreparedSimulation {
  if (args.positionals.length === 0) throw new UsageError('simulate needs at least one file or directory');
  return prepareRun(args.positionals, settingsFromArgs(args), () => simulationChoices(args, cwd), cwd, warn, readStdin);
}

/** A scenario file read once (bounded like any input): the scenario, or its problems at their lines. */
type ScenarioRead = { scenario: ScenarioFile; locate: ReadScenarioFile['locate'] };
type ReadScenario = ScenarioRead | { problems: string[] };

function readScenario(file: string, cwd: string): ReadScenario {
  const { text, invalidAt } = decodeUtf8(Buffer.from(readText({ displayPath: file, absolutePath: path.resolve(cwd, file) })));
  if (invalidAt !== undefined) throw new FileError(`${file} is not UTF-8 text`);
  const { scenario, problems, locate } = readScenarioFile(text);
  return scenario ? { scenario, locate } : { problems: problems.map((p) => `${file}:${p.range.start.line + 1}:${p.range.start.character + 1} ${p.message}`) };
}

/**
 * --scenario FILE: its manifests and cluster file (relative to it) read from disk, its choices
 * and timing settings as src/workspace reads them (scenarioRun, which the editor uses too).
 */
function prepareScenarioRun({ scenario, locate }: ScenarioRead, file: string, cwd: string, warn: Warn): PreparedSimulation {
  // Paths in the file are relative to it; shown relative to where the command runs.
  const shown = (p: string) => (path.relative(cwd, path.resolve(cwd, p)) || '.').split(path.sep).join('/');
  // A file named "-" beside the scenario is that file, not standard input.
  const here = (p: string) => {
    const name = shown(path.join(path.dirname(file), p));
    return name === '-' ? './-' : name;
  };
  // What only reading the files and building the run finds is reported where the scenario file writes it.
  const where = (fieldPath: Path) => {
    const { start } = locate(fieldPath);
    return `${shown(file)}:${start.line + 1}:${start.character + 1}`;
  };
  try {
    const cluster = scenario.cluster === undefined ? undefined : clusterText(here(scenario.cluster), cwd);
    const { choices } = scenarioRun(scenario, shown(file), cluster);
    return prepareRun(scenario.manifests.map(here), { overrides: [] }, () => choices, cwd, warn);
  } catch (error) {
    if (error instanceof InputError && !error.at) throw new InputError(error.choice, error.value, error.problem, { uri: shown(file), range: locate(scenarioFieldOf(scenario, error)) });
    if (error instanceof FileError) {
      const lines = error.message.split('\nkube-failure-sim: ').map((line) => {
        // The path as a whole word of the message: web.yaml is not old/web.yaml.
        const names = (path: string) => line.endsWith(` ${path}`) || line.startsWith(`${path} `) || line.includes(` ${path} `) || line.includes(` ${path}:`);
        const index = scenario.manifests.findIndex((m) => names(here(m)));
        const field = index >= 0 ? ['spec', 'manifests', index] : scenario.cluster !== undefined && names(here(scenario.cluster)) ? ['spec', 'cluster'] : undefined;
        return field ? `${where(field)}: ${line}` : line;
      });
      throw new FileError(lines.join('\nkube-failure-sim: '));
    }
    throw error;
  }
}

/** What a scenario file asks for: its problems at their lines, or the prepared run and the number of runs. */
export function prepareScenario(file: string, cwd = process.cwd(), warn: Warn = () => {}): { problems: string[] } | { prepared: PreparedSimulation; runs: number } {
  const read = readScenario(file, cwd);
  return 'problems' in read ? read : { prepared: prepareScenarioRun(read, file, cwd, warn), runs: read.scenario.runs ?? 1 };
}

function prepareRun(paths: string[], settings: WorkspaceSettings, choicesOf: () => SimulationChoices, cwd: string, warn: Warn, readStdin?: StdinReader): PreparedSimulation {
  const { workspace, files, errors } = loadWorkspace(paths, settings, cwd, readStdin);
  if (errors.length > 0) throw new FileError(errors.join('\nkube-failure-sim: '));
  warnSkippedDocuments(workspace, files, warn);
  const rejections = workspace.rejections(files.map((f) => f.displayPath));
  if (rejections.length > 0) throw new RejectedInput(rejections);
  let scenario: Scenario;
  let nodeFiles: string[] = [];
  let clusterTexts: readonly (string | Uint8Array)[] = [];
  try {
    const choices = choicesOf();
    nodeFiles = choices.clusterText?.files ?? [];
    clusterTexts = choices.clusterText?.texts ?? [];
    scenario = workspace.scenario(choices);
  } catch (error) {
    const templates = files.filter((f) => workspace.read(f.displayPath).parsed.problems.some((p) => p.ruleId === TEMPLATE_DETECTED));
    if (error instanceof InputError && error.problem === NO_WORKLOADS && templates.length > 0) {
      throw new InputError('workloads', undefined, `${error.problem} Skipped ${templates.length === 1 ? 'a template' : `${templates.length} templates`} (${templates.map((t) => t.displayPath).join(', ')}): render ${templates.length === 1 ? 'it' : 'them'} first, such as helm template . | kube-failure-sim simulate -`);
    }
    // A YAML error that hides every workload was just told, at its place, as a skipped document: not again.
    const at = error instanceof InputError && error.choice === 'workloads' ? error.at : undefined;
    if (at && workspace.read(at.uri).parsed.problems.some((p) => p.ruleId === SYNTAX_ERROR && p.range.start.line === at.range.start.line && p.range.start.character === at.range.start.character)) {
      throw new InputError('workloads', undefined, `no workload was found: ${at.uri} cannot be read past the error above. Fix it first.`);
    }
    throw error;
  }
  for (const line of [...afterTheEnd(scenario), ...unrealisticTiming(timingJson(scenario.timing))]) warn(line);
  const findings = () => files.flatMap(({ displayPath }) => workspace.analyse(displayPath).findings.flatMap((f) => (f.object ? [{
    ruleId: f.ruleId, severity: f.severity, message: f.message, object: f.object, fixes: (f.fixes ?? []).map((fix) => fix.title),
    uri: displayPath.split(path.sep).join('/'), range: f.range,
  }] : []))).map((f, index) => ({ index, ...f }));
  const readFiles = [...files.flatMap((f) => (f.absolutePath ? [f.absolutePath] : [])), ...nodeFiles.map((f) => path.resolve(cwd, f))];
  const digest = createHash('sha256');
  for (const uri of workspace.uris()) digest.update(`${uri}\n${workspace.read(uri).parsed.text}\n`);
  for (const text of clusterTexts) digest.update(text).update('\n');
  return { scenario, inputs: files.map((f) => f.displayPath.split(path.sep).join('/')), findings, readFiles, inputDigest: digest.digest('hex') };
}

/**
 * The HTML report's CSP nonce, made from the inputs and the choices, so that the same run writes the
 * same file byte for byte. A manifest cannot carry it: it is a hash of that manifest's own text.
 */
function reportNonce(inputDigest: string, title: string, scenario: unknown): string {
  return createHash('sha256').update(`${inputDigest}\n${title}\n${JSON.stringify(scenario)}`).digest('hex').slice(0, 32);
}

export function runSimulate(argv: string[], out: Output, cwd = process.cwd()): number {
  const args = parseArgs(argv, OPTIONS);
  const scenarioFile = single(args, 'scenario');
  let fromFile: ScenarioRead | undefined;
  if (scenarioFile !== undefined) {
    if (args.positionals.length > 0) throw new UsageError('--scenario names the manifests itself; give no PATH with it');
    let read: ReadScenario;
    try {
      read = readScenario(scenarioFile, cwd);
    } catch (error) {
      return failureCode(error, out);
    }
    if ('problems' in read) {
      for (const line of read.problems) out.stderr(`${line}\n`);
      return 2;
    }
    fromFile = read;
    checkScenarioOptions(read.scenario, args, scenarioFile);
  }
  const format = single(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'html') throw new UsageError(`--format must be text, json or html, not "${format}"`);
  const runsText = String(single(args, 'runs') ?? fromFile?.scenario.runs ?? '1');
  let runs = Number(runsText);
  if (!/^[0-9]+$/.test(runsText) || runs < 1 || runs > MAX_RUNS) throw new UsageError(`--runs must be a whole number from 1 to ${MAX_RUNS}`);
  if (format === 'html' && runs > 1) {
    if (single(args, 'runs') !== undefined) throw new UsageError('--format html draws one run; leave out --runs');
    // As in the editor: the page shows the file's first run.
    out.stderr(`kube-failure-sim: ${scenarioFile} asks for ${runs} runs; --format html draws the first (seed ${fromFile?.scenario.seed ?? 1})\n`);
    runs = 1;
  }
  // -o - is standard output, as for most tools.
  const outputFile = single(args, 'output') === '-' ? undefined : single(args, 'output');
  if (outputFile === '') throw new UsageError('-o needs a file name (or - for standard output)');

  const warn: Warn = (line) => out.stderr(`kube-failure-sim: ${line}\n`);
  let prepared: PreparedSimulation;
  try {
    prepared = fromFile ? prepareScenarioRun(fromFile, scenarioFile!, cwd, warn) : prepareSimulation(args, cwd, out.readStdin, warn);
  } catch (error) {
    return failureCode(error, out);
  }
  const { scenario, inputs, findings, inputDigest } = prepared;
  const target = outputFile === undefined ? undefined : path.resolve(cwd, outputFile);
  if (target !== undefined) {
    const input = [...prepared.readFiles, ...(scenarioFile ? [path.resolve(cwd, scenarioFile)] : [])].find((file) => sameFile(file, target));
    if (input) {
      out.stderr(`kube-failure-sim: the output file ${outputFile} is ${input === target ? 'an input' : `${path.relative(cwd, input) || input}, an input`} of this run; the report would overwrite it. Write it elsewhere.\n`);
      return 2;
    }
  }

  // Only the first run's trace is kept; the others add their summaries to the statistics and are dropped.
  let first: SimulationResult;
  const statistics = new RunStatistics();
  try {
    first = simulate(scenario);
    statistics.add(first.summary.workloads);
    for (let seed = scenario.seed + 1; seed < scenario.seed + runs; seed++) statistics.add(simulate({ ...scenario, seed }).summary.workloads);
  } catch (error) {
    if (error instanceof ScenarioError) {
      out.stderr(`kube-failure-sim: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const skipped = skippedDeletionNotes(first);
  // The report's header says it too; on standard error only where that header is not on the terminal.
  if (format !== 'text' || target !== undefined) for (const note of skipped) out.stderr(`kube-failure-sim: note: ${note}\n`);
  let chunks: Iterable<string>;
  if (format === 'html') {
    const report = traceReport(scenario, inputs, first);
    const title = `${scenario.faults[0].kind} of ${nodeNames(report.summary.failedNodes)}: ${fromFile ? scenarioFile : args.positionals.join(' ')}`;
    chunks = htmlReportPieces({ title, report, findings: findings() }, reportAssets(), reportNonce(inputDigest, title, report.scenario));
  } else if (format === 'json') {
    const report = runs === 1 ? traceReport(scenario, inputs, first) : multiRunReport(scenario, inputs, first, statistics);
    chunks = followedBy(jsonChunks(report), '\n');
  } else {
    chunks = renderText({ header: scenarioHeader(scenario, first.summary.failedNodes, runs, first.summary.failedNodesByFault, first.summary.initialPlacement, skipped), events: first.events, states: first.states, summary: first.summary });
    if (runs > 1) chunks = followedBy(chunks, renderRunStatistics(statistics, scenario.seed));
  }
  if (target === undefined) {
    writeInPieces(chunks, (piece) => out.stdout(piece));
    return 0;
  }
  let bytes = 0;
  try {
    makeParentDirectories(target);
    const fd = fs.openSync(target, 'w');
    try {
      writeInPieces(chunks, (piece) => (bytes += fs.writeSync(fd, terminalSafe(piece))));
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    // A file system error is the user's to fix; anything else is a bug.
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    out.stderr(`kube-failure-sim: cannot write ${outputFile}: ${(error as Error).message}\n`);
    return 2;
  }
  out.stderr(`Wrote ${target} (${Math.round(bytes / 1024)} KiB)${format === 'html' ? '; open it in a browser' : ''}\n`);
  return 0;
}

/** One file, whatever the path (a symbolic or hard link to it): the same device and inode. */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function* followedBy(chunks: Iterable<string>, tail: string): Generator<string> {
  yield* chunks;
  yield tail;
}

/** Writes the report in pieces of about 1 MiB: never the whole text of a large cluster's report at once, nor a write per line. */
function writeInPieces(chunks: Iterable<string>, write: (piece: string) => void): void {
  let pending: string[] = [];
  let length = 0;
  for (const chunk of chunks) {
    pending.push(chunk);
    length += chunk.length;
    if (length >= 1 << 20) {
      write(pending.join(''));
      pending = [];
      length = 0;
    }
  }
  if (length > 0) write(pending.join(''));
}

/** The exit code for a failure to prepare a run, told to the user; anything else is a bug, thrown on. */
function failureCode(error: unknown, out: Output): number {
  if (error instanceof RejectedInput) return reportRejected(error, out, 'nothing simulated');
  if (error instanceof InputError || error instanceof FileError) {
    out.stderr(`kube-failure-sim: ${error instanceof InputError ? describeInputError(error) : error.message}\n`);
    return 2;
  }
  throw error;
}

/**
 * Beside --scenario FILE only the output options (and --runs, when the file has none): every
 * choice is the file's, so that it gives the same run wherever it runs.
 */
function checkScenarioOptions(scenario: ScenarioFile, given: ParsedArgs, file: string): void {
  const { flags, cluster } = scenarioArguments(scenario);
  const setByFile = [...flags.filter((f) => f.startsWith('--')).map((f) => f.slice(2)), ...(cluster ? ['cluster'] : [])];
  for (const name of given.options.keys()) {
    if (name === 'scenario' || name === 'format' || name === 'output') continue;
    if (setByFile.includes(name)) throw new UsageError(`--${name} is set by ${file}; change it there`);
    if (name !== 'runs') throw new UsageError(`--${name} cannot be given with --scenario; write it in ${file} (the file holds every choice of the run)`);
  }
}

function duration(args: ParsedArgs, name: string): number | undefined {
  const text = single(args, name);
  return text === undefined ? undefined : durationOf(text, name);
}

/** A duration given to --NAME: ≥ 0 and at most the simulated time the simulator accepts. */
function durationOf(text: string, name: string): number {
  const ms = parseDuration(text);
  if (ms === undefined && DURATION_SHAPE.test(text)) throw new UsageError(`--${name} ${text} is longer than the ${MAX_DURATION_MS / 86_400_000} days the simulator accepts`);
  if (ms === undefined || ms < 0) throw new UsageError(`--${name} must be a duration such as 90s or 5m, not "${text}"`);
  if (ms > MAX_DURATION_MS) throw new UsageError(`--${name} ${text} is longer than the ${MAX_DURATION_MS / 86_400_000} days the simulator accepts`);
  return Math.round(ms);
}

/** --duration: a run of no time shows nothing. */
function runDuration(args: ParsedArgs): number {
  const ms = duration(args, 'duration') ?? defaultChoices().durationMs;
  if (ms === 0) throw new UsageError('--duration must be at least 1ms: it is the simulated time after the failure');
  return ms;
}

function simulationChoices(args: ParsedArgs, cwd: string): SimulationChoices {
  const failure = single(args, 'failure') ?? 'power-off';
  if (!isFailureKind(failure)) {
    throw new UsageError(`--failure must be ${FAILURE_KINDS.slice(0, -1).join(', ')} or ${FAILURE_KINDS.at(-1)}, not "${failure}"`);
  }
  const interventions: Intervention[] = [];
  for (const kind of ['force-delete', 'delete'] as const) {
    for (const spec of args.options.get(kind) ?? []) {
      const timed = splitTarget(spec);
      if (timed?.atMs === undefined) throw new UsageError(timeProblem(kind, spec) ?? `--${kind} needs POD@DURATION, such as db-0@6m or StatefulSet/db@6m; got "${spec}"`);
      // The same deletion twice would find its pod gone the second time and say so, confusingly.
      const intervention = { kind, target: timed.name, atMs: timed.atMs };
      if (interventions.some((i) => sameIntervention(i, intervention))) throw new UsageError(`--${kind} ${spec} is given twice; give it once`);
      interventions.push(intervention);
    }
  }
  const outOfService = duration(args, 'out-of-service-after');
  if (outOfService !== undefined) interventions.push({ kind: 'out-of-service', atMs: outOfService });
  const deleteNode = duration(args, 'delete-node-after');
  if (deleteNode !== undefined) interventions.push({ kind: 'delete-node', atMs: deleteNode });
  for (const text of args.options.get('restart-controller-manager-at') ?? []) {
    const atMs = durationOf(text, 'restart-controller-manager-at');
    const restart = { kind: 'restart-controller-manager' as const, atMs };
    if (interventions.some((i) => sameIntervention(i, restart))) throw new UsageError(`--restart-controller-manager-at ${text} is given twice; give each restart once`);
    interventions.push(restart);
  }
  const placement = single(args, 'placement') ?? 'scheduler';
  if (!(PLACEMENTS as readonly string[]).includes(placement)) throw new UsageError(`--placement must be ${PLACEMENTS.join(', ')}, not "${placement}"`);
  const seedText = single(args, 'seed') ?? '1';
  const seed = Number(seedText);
  // Number('') is 0: an empty --seed= is a mistake, not seed 0.
  if (!/^[0-9]+$/.test(seedText) || seed > 2 ** 31) throw new UsageError(`--seed must be a whole number from 0 to ${2 ** 31}`);
  // Standard input is read once: the manifests or the cluster, not both.
  if (single(args, 'cluster') === '-' && args.positionals.includes('-')) throw new UsageError('standard input (-) is given for the manifests and for --cluster; it can be read once: give one of them as a file');
  const targets = timedList(args, 'target', 'node/a@0s,node/b@60s');
  const recoverAfter = single(args, 'recover-after');
  const perTargetRecovery = recoverAfter !== undefined && recoverAfter.includes('@') ? timedList(args, 'recover-after', 'node/a@5m,node/b@2m') : undefined;
  return {
    ...defaultChoices(),
    failure,
    targets: targets.map((t) => t.name),
    failAtMs: Object.fromEntries(targets.filter((t) => t.ms !== undefined).map((t) => [t.name, t.ms!])),
    recoverAfterMs: perTargetRecovery ? undefined : duration(args, 'recover-after'),
    recoverAfterMsByTarget: perTargetRecovery && Object.fromEntries(perTargetRecovery.map((t, i) => {
      if (t.ms === undefined) throw new UsageError(`--recover-after: give every target a time (TARGET@D), or one duration for all; got "${t.name}"`);
      if (perTargetRecovery.findIndex((other) => other.name === t.name) < i) throw new UsageError(`--recover-after: ${t.name} is given twice; give each target one time`);
      return [t.name, t.ms];
    })),
    preFailureMs: duration(args, 'at') ?? 0,
    placement: placement as Placement,
    interventions,
    durationMs: runDuration(args),
    seed,
    clusterText: single(args, 'cluster') === undefined ? undefined : clusterText(single(args, 'cluster')!, cwd),
  };
}

/** A comma-separated list of NAME or NAME@DURATION (--target node/a@0s,node/b@60s), read as a scenario file's targets are. */
function timedList(args: ParsedArgs, option: string, example: string): { name: string; ms?: number }[] {
  const text = single(args, option);
  // Given but empty (--target , or --target=): a mistake, not the default target.
  if (text !== undefined && text.split(',').every((t) => t.trim() === '')) throw new UsageError(`--${option} names nothing; give NAME or NAME@DURATION items, such as ${example}`);
  return (text ?? '').split(',').map((t) => t.trim()).filter(Boolean).map((item) => {
    const timed = splitTarget(item);
    if (!timed) throw new UsageError(timeProblem(option, item) ?? `--${option} needs NAME or NAME@DURATION items, such as ${example}; got "${item}"`);
    // The time is bounded as any duration option is (durationOf throws past 7 days or below 0).
    if (timed.atMs !== undefined) durationOf(item.slice(item.lastIndexOf('@') + 1), option);
    return { name: timed.name, ms: timed.atMs };
  });
}

/** Written as a Go duration, whatever its size: one that does not parse is too long for time.Duration. */
const DURATION_SHAPE = /^[-+]?([0-9]*\.?[0-9]*(ns|us|µs|μs|ms|s|m|h))+$/;

/** What is wrong with the time of a NAME@TIME that has the shape of a duration: negative, or longer than the simulator runs. */
function timeProblem(option: string, item: string): string | undefined {
  const at = item.lastIndexOf('@');
  const text = item.slice(at + 1);
  if (at <= 0 || !DURATION_SHAPE.test(text)) return undefined;
  if (text.startsWith('-')) return `--${option} ${item}: the time ${text} is negative; times count from the failure, 0s or later`;
  const ms = parseDuration(text);
  if (ms === undefined || ms > MAX_DURATION_MS) return `--${option} ${item}: ${text} is longer than the ${MAX_DURATION_MS / 86_400_000} days the simulator accepts`;
  return undefined;
}

/** --cluster FILE (or a scenario's cluster): the text of a `kubectl get nodes -o yaml`, which the workspace parses. */
function clusterText(clusterFile: string, cwd: string): ClusterText {
  const { files, errors } = collectFiles([clusterFile], cwd);
  if (errors.length > 0) throw new FileError(errors[0]);
  return { texts: files.map((file) => readText(file)), source: clusterFile, files: files.map((file) => file.displayPath) };
}


export { OPTIONS as SIMULATE_OPTIONS };
