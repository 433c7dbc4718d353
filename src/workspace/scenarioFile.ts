/**
 * Scenario files: a simulation's choices saved as YAML so that a run can be repeated, reviewed and
 * kept next to the manifests. The spec mirrors every flag of `simulate`; manifests and the cluster
 * file are paths relative to the scenario file. Reading reports each problem at its YAML range;
 * scenarioRun turns a file into the workspace's choices, the same in the CLI and the editor.
 *
 *   apiVersion: kube-failure-sim.dev/v1alpha1
 *   kind: FailureScenario
 *   metadata: {name: web-partition}
 *   spec:
 *     manifests: [web-deployment.yaml, cluster/]   # PATH...
 *     failure: partition                           # --failure
 *     targets: [Deployment/web, node/worker-b1@60s] # --target (T@D: fails D after the first)
 *     recoverAfter: 8m                             # --recover-after; per target: {Deployment/web: 2m, node/worker-b1: 10m}
 *     interventions:                               # --force-delete, --delete, --out-of-service-after,
 *       - forceDelete: {pod: web-0, at: 6m}        # --delete-node-after, --restart-controller-manager-at
 *       - delete: {pod: Deployment/web, at: 4m}
 *       - outOfService: {at: 5m}
 *       - deleteNode: {at: 10m}
 *       - restartControllerManager: {at: 2m}
 *     placement: spread                            # --placement
 *     duration: 12m                                # also at, profile, kubernetesVersion, set, cluster, seed, runs
 */
import { MAX_DURATION_MS, MAX_RUNS } from '../manifest/limits';
import { parseDuration } from '../manifest/duration';
import type { Path } from '../manifest/path';
import type { Range } from '../manifest/range';
import { readManifestText, type ReadManifest } from '../manifest/readManifest';
import { FAILURE_KINDS, INTERVENTION_ORDER, PLACEMENTS, isFailureKind, sameIntervention, type FailureKind, type Intervention, type Placement } from '../sim/scenario';
import type { InputError } from './inputError';
import { defaultChoices, type ClusterText, type SimulationChoices } from './simulationChoices';

export const SCENARIO_API_VERSION = 'kube-failure-sim.dev/v1alpha1';
export const SCENARIO_KIND = 'FailureScenario';
/** The name a scenario file is saved under (any other name works when its kind says so). */
export const SCENARIO_FILE_SUFFIX = '.failure-scenario.yaml';

export type ScenarioIntervention =
  | { forceDelete: { pod: string; at: string } }
  | { delete: { pod: string; at: string } }
  | { outOfService: { at: string } }
  | { deleteNode: { at: string } }
  | { restartControllerManager: { at: string } };

/** Each intervention key of a scenario file: the simulator's kind, the `simulate` flag it stands for, and whether it names a pod. */
const INTERVENTIONS = {
  forceDelete: { kind: 'force-delete', flag: 'force-delete', pod: true },
  delete: { kind: 'delete', flag: 'delete', pod: true },
  outOfService: { kind: 'out-of-service', flag: 'out-of-service-after', pod: false },
  deleteNode: { kind: 'delete-node', flag: 'delete-node-after', pod: false },
  restartControllerManager: { kind: 'restart-controller-manager', flag: 'restart-controller-manager-at', pod: false },
} as const;
type InterventionKey = keyof typeof INTERVENTIONS;

/** The key of a file's intervention and what it holds. */
function entryOf(intervention: ScenarioIntervention): { key: InterventionKey; pod?: string; at: string } {
  const [[key, value]] = Object.entries(intervention) as [InterventionKey, { pod?: string; at: string }][];
  return { key, ...value };
}

/** A run's intervention as a scenario file writes it, with `at` formatting its time. */
export function toScenarioIntervention(intervention: Intervention, at: (ms: number) => string): ScenarioIntervention {
  const key = (Object.keys(INTERVENTIONS) as InterventionKey[]).find((k) => INTERVENTIONS[k].kind === intervention.kind)!;
  const pod = 'target' in intervention ? { pod: intervention.target } : {};
  return { [key]: { ...pod, at: at(intervention.atMs) } } as ScenarioIntervention;
}

function fromScenarioIntervention(intervention: ScenarioIntervention, ms: (text: string) => number): Intervention {
  const { key, pod, at } = entryOf(intervention);
  const { kind } = INTERVENTIONS[key];
  return (kind === 'force-delete' || kind === 'delete' ? { kind, target: pod!, atMs: ms(at) } : { kind, atMs: ms(at) }) as Intervention;
}

export interface ScenarioFile {
  name: string;
  /** Files or folders, relative to the scenario file. */
  manifests: string[];
  failure?: FailureKind;
  /** As on the command line: node/NAME, zone/NAME or Kind/name, each optionally @D (fails D after the first failure). */
  targets?: string[];
  /** Durations in Kubernetes syntax ("90s", "5m"), as on the command line. */
  at?: string;
  /** One duration for every target, or one per target (keyed by the target without its @D; a target left out never returns). */
  recoverAfter?: string | Record<string, string>;
  interventions?: ScenarioIntervention[];
  placement?: Placement;
  duration?: string;
  profile?: string;
  kubernetesVersion?: string;
  set?: Record<string, string>;
  /** Node objects (`kubectl get nodes -o yaml`), relative to the scenario file. */
  cluster?: string;
  seed?: number;
  /** Repeat with seeds seed..seed+runs-1 and report each summary time as {min, median, max}. */
  runs?: number;
}

export interface ScenarioProblem {
  message: string;
  range: Range;
}

/** The spec's fields and what each must be (the JSON schema in media/ says the same for editors). */
/** "/x", "\\x", "C:\\x" or "C:/x": a path that would not travel with the file (both front ends join paths to the file's folder). */
const isAbsolute = (p: string) => /^([\\/]|[A-Za-z]:[\\/])/.test(p);
const absoluteProblem = (p: string) => `${p} is an absolute path; paths in a scenario file are relative to it, so that it works wherever it is checked out`;

const SPEC_FIELDS = ['manifests', 'failure', 'targets', 'at', 'recoverAfter', 'interventions', 'placement', 'duration', 'profile', 'kubernetesVersion', 'set', 'cluster', 'seed', 'runs'] as const;
export const SCENARIO_SPEC_FIELDS: readonly string[] = SPEC_FIELDS;

const isString = (v: unknown): v is string => typeof v === 'string';
/** An empty path would be this file's folder, every manifest in it read. */
const EMPTY_PATH = 'an empty path names no file or folder (write . for this file\'s folder)';
const isDuration = (v: unknown): v is string => isString(v) && (parseDuration(v) ?? -1) >= 0 && parseDuration(v)! <= MAX_DURATION_MS;
/** What is wrong with a field that must hold a duration, in the words of the command line's flags. */
function durationProblem(field: string, value: unknown): string {
  const ms = isString(value) ? parseDuration(value) : undefined;
  if (ms !== undefined && ms > MAX_DURATION_MS) return `${field} is ${value}, longer than the ${MAX_DURATION_MS / 86_400_000} days the simulator accepts`;
  return `${field} must be a duration such as 90s or 5m${value === undefined ? '' : `; got ${JSON.stringify(value)}`}`;
}
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A target as written: NAME or NAME@DURATION. */
export function splitTarget(target: string): { name: string; atMs?: number } | undefined {
  const at = target.lastIndexOf('@');
  if (at < 0) return target ? { name: target } : undefined;
  const text = target.slice(at + 1);
  if (at === 0 || !isDuration(text)) return undefined;
  return { name: target.slice(0, at), atMs: Math.round(parseDuration(text)!) };
}

/** A scenario file read: the scenario or its problems, and where each field is written (for errors found later). */
export interface ReadScenarioFile {
  scenario?: ScenarioFile;
  problems: ScenarioProblem[];
  locate: (path: Path) => Range;
}

const TOP_LEVEL_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec'];

export function readScenarioFile(text: string): ReadScenarioFile {
  return scenarioOfRead(readManifestText(text));
}

/** The scenario of a file already read (the workspace's documents: `check` reports a scenario file's problems too). */
export function scenarioOfRead(read: ReadManifest): ReadScenarioFile {
  const nowhere = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  const problems: ScenarioProblem[] = read.parsed.problems.filter((p) => p.severity === 'error').map((p) => ({ message: p.message, range: p.range }));
  const [object, ...more] = read.objects.filter((o) => o.kind === SCENARIO_KIND);
  for (const other of more) problems.push({ message: `a second ${SCENARIO_KIND} in this file: one file holds one scenario (this one would be ignored); move it to a file of its own`, range: other.sourceMap.closestRange(['kind']) });
  if (!object) {
    // A document the parser did not read whole (nested past its limit) says why it was not found.
    if (problems.length === 0) problems.push(...read.parsed.problems.map((p) => ({ message: p.message, range: p.range })));
    // kind: FailureScenario without a string apiVersion is no object at all: say what it lacks, where it is.
    const unversioned = read.parsed.documents.find((d) => isRecord(d.value) && d.value.kind === SCENARIO_KIND);
    if (problems.length === 0 && unversioned) problems.push({ message: `this ${SCENARIO_KIND} has no apiVersion: write apiVersion: ${SCENARIO_API_VERSION} (as a string) above its kind`, range: unversioned.sourceMap.closestRange(['kind']) });
    if (problems.length === 0) problems.push({ message: `no ${SCENARIO_KIND} document (apiVersion: ${SCENARIO_API_VERSION}, kind: ${SCENARIO_KIND})`, range: nowhere() });
    return { problems, locate: nowhere };
  }
  const at = (path: string | Path) => object.sourceMap.closestRange(path);
  // A number both YAML versions read alike: not 017 (octal in 1.1), 1_7 or 1:30 (1.1 only), 0b11 or +0x11 (1.1 only).
  const writtenDecimal = (path: string) => {
    const { start, end } = at(path);
    const written = read.parsed.text.slice(read.parsed.lines.offset(start), read.parsed.lines.offset(end));
    // An anchor or a tag before the number is not part of it.
    return !/^[+-]?(0[0-9]|0b)|^[+-]0x|[_:]/.test(written.replace(/^(?:[&!]\S*\s+)+/, ''));
  };
  const problem = (path: string | Path, message: string) => problems.push({ message, range: at(path) });
  // A misspelt field is underlined where it is misspelt: its key.
  const unknownField = (path: Path, message: string) => problems.push({ message, range: object.sourceMap.keyOrClosestRange(path) });
  for (const key of Object.keys(object.value)) {
    if (!TOP_LEVEL_FIELDS.includes(key)) unknownField([key], `unknown field ${key}; a ${SCENARIO_KIND} has ${TOP_LEVEL_FIELDS.join(', ')}`);
  }
  if (object.apiVersion !== SCENARIO_API_VERSION) problem('apiVersion', `apiVersion must be ${SCENARIO_API_VERSION}`);
  const spec = object.value.spec;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    problem('spec', 'spec must be a mapping with at least manifests');
    return { problems, locate: at };
  }
  const s = spec as Record<string, unknown>;
  for (const key of Object.keys(s)) if (!SCENARIO_SPEC_FIELDS.includes(key)) unknownField(['spec', key], `unknown field ${key}; known: ${SPEC_FIELDS.join(', ')}`);
  const scenario: ScenarioFile = { name: object.name, manifests: [] };
  const metadata = object.value.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) problem('metadata', 'metadata must be a mapping, such as {name: web-partition}');
  const metadataName = (metadata as Record<string, unknown> | null | undefined)?.name;
  if (metadataName !== undefined && !isString(metadataName)) problem('metadata.name', 'metadata.name must be a string; quote it');
  if (Array.isArray(s.manifests) && s.manifests.length === 0) problem('spec.manifests', 'manifests lists nothing; name at least one file or folder, relative to this file');
  else if (!Array.isArray(s.manifests) || !s.manifests.every(isString)) problem('spec.manifests', 'manifests must be a list of files or folders, relative to this file');
  else {
    scenario.manifests = s.manifests;
    s.manifests.forEach((m, i) => {
      if (isAbsolute(m)) problem(['spec', 'manifests', i], absoluteProblem(m));
      // On the command line "-" is standard input, which a file cannot name.
      if (m === '-') problem(['spec', 'manifests', i], '"-" (standard input) cannot be listed in a scenario file: name the files');
      if (m === '') problem(['spec', 'manifests', i], EMPTY_PATH);
    });
  }
  if (s.failure !== undefined) {
    if (isString(s.failure) && isFailureKind(s.failure)) scenario.failure = s.failure;
    else problem('spec.failure', `failure must be one of ${FAILURE_KINDS.join(', ')}`);
  }
  if (s.targets !== undefined) {
    const bad = Array.isArray(s.targets) ? s.targets.findIndex((t) => !(isString(t) && splitTarget(t))) : -1;
    if (!Array.isArray(s.targets)) problem('spec.targets', 'targets must be a list such as [Deployment/web] or [node/worker-a1, node/worker-b1@60s]');
    else if (bad >= 0) problem(['spec', 'targets', bad], targetProblem(s.targets[bad]));
    else scenario.targets = s.targets;
  }
  if (isRecord(s.recoverAfter)) {
    const names = (scenario.targets ?? []).map((t) => splitTarget(t)!.name);
    const entries = Object.entries(s.recoverAfter);
    // With a target already refused, which names are targets is not known.
    const stray = s.targets !== undefined && scenario.targets === undefined ? undefined : entries.find(([target]) => !names.includes(target));
    const notDuration = entries.find(([, d]) => !isDuration(d));
    if (entries.length === 0) problem('spec.recoverAfter', 'recoverAfter per target maps each target to a duration, such as {node/worker-a1: 2m, node/worker-b1: 10m}');
    else if (notDuration) problem(['spec', 'recoverAfter', notDuration[0]], durationProblem(`recoverAfter of ${notDuration[0]}`, notDuration[1]));
    else if (stray) {
      problem(['spec', 'recoverAfter', stray[0]], names.length > 0 ? `recoverAfter names ${stray[0]}, which is not among the targets (${names.join(', ')})`
        : `recoverAfter names ${stray[0]}, but the file lists no targets: name them in targets, or give one duration for the default target (recoverAfter: 2m)`);
    }
    else scenario.recoverAfter = Object.fromEntries(entries) as Record<string, string>;
  } else if (s.recoverAfter !== undefined) {
    if (isDuration(s.recoverAfter)) scenario.recoverAfter = s.recoverAfter;
    else problem('spec.recoverAfter', `${durationProblem('recoverAfter', s.recoverAfter)}, or one per target such as {node/worker-a1: 2m}`);
  }
  if (s.placement !== undefined) {
    if (isString(s.placement) && (PLACEMENTS as readonly string[]).includes(s.placement)) scenario.placement = s.placement as Placement;
    else problem('spec.placement', `placement must be one of ${PLACEMENTS.join(', ')}`);
  }
  if (s.runs !== undefined) {
    if (!(Number.isInteger(s.runs) && (s.runs as number) >= 1 && (s.runs as number) <= MAX_RUNS)) problem('spec.runs', `runs must be a whole number from 1 to ${MAX_RUNS}`);
    else if (!writtenDecimal('spec.runs')) problem('spec.runs', `write runs as a plain decimal number: this file reads it as ${s.runs as number} (YAML 1.1), the editor's YAML 1.2 check otherwise`);
    else scenario.runs = s.runs as number;
  }
  for (const key of ['at', 'duration'] as const) {
    if (s[key] === undefined) continue;
    // Whole milliseconds, as --duration: 0.4ms is no time.
    if (key === 'duration' && isDuration(s[key]) && Math.round(parseDuration(s[key] as string)!) === 0) problem('spec.duration', 'duration must be at least 1ms: it is the simulated time after the failure');
    else if (isDuration(s[key])) scenario[key] = s[key];
    else problem(`spec.${key}`, durationProblem(key, s[key]));
  }
  for (const key of ['profile', 'kubernetesVersion', 'cluster'] as const) {
    if (s[key] === undefined) continue;
    if (isString(s[key])) {
      scenario[key] = s[key];
      if (key === 'cluster' && isAbsolute(s[key])) problem('spec.cluster', absoluteProblem(s[key]));
      if (key === 'cluster' && s[key] === '') problem('spec.cluster', EMPTY_PATH);
    }
    // YAML reads 1.30 as the number 1.3: only a quoted version is what was meant.
    else problem(`spec.${key}`, key === 'kubernetesVersion' ? 'kubernetesVersion must be a quoted string, such as "1.30"' : `${key} must be a string`);
  }
  if (s.seed !== undefined) {
    // The bound --seed has, so a file and its command line run the same seed.
    if (!(Number.isInteger(s.seed) && (s.seed as number) >= 0 && (s.seed as number) <= 2 ** 31)) problem('spec.seed', `seed must be a whole number from 0 to ${2 ** 31}`);
    else if (!writtenDecimal('spec.seed')) problem('spec.seed', `write seed as a plain decimal number: this file reads it as ${s.seed as number} (YAML 1.1, as Kubernetes reads manifests), the editor's YAML 1.2 check otherwise (017 is 15 here, 17 there)`);
    else scenario.seed = s.seed as number;
  }
  if (s.set !== undefined) {
    const set = s.set;
    const notScalar = isRecord(set) ? Object.keys(set).find((k) => !['string', 'number', 'boolean'].includes(typeof set[k])) : undefined;
    if (!isRecord(set)) problem('spec.set', 'set must map knobs to values, such as {kcm.node-monitor-grace-period: 20s}');
    else if (notScalar !== undefined) problem(['spec', 'set', notScalar], `set: ${notScalar} must have one value (a duration, number or true/false), not a list or mapping`);
    else scenario.set = Object.fromEntries(Object.entries(set).map(([k, v]) => [k, String(v)]));
  }
  if (s.interventions !== undefined) {
    if (!Array.isArray(s.interventions)) problem('spec.interventions', 'interventions must be a list');
    else {
      const once = new Set<string>();
      const given: Intervention[] = [];
      scenario.interventions = s.interventions.flatMap((item, i) => {
        const read = readIntervention(item);
        if ('problem' in read) problem(['spec', 'interventions', i, ...read.path], read.problem);
        const intervention = 'intervention' in read ? read.intervention : undefined;
        const kind = intervention && Object.keys(intervention)[0];
        // As on the command line: the failed nodes are tainted, or deleted, once; any other intervention is given once.
        if (kind === 'outOfService' || kind === 'deleteNode') {
          if (once.has(kind)) problem(`spec.interventions[${i}]`, `${kind} is given twice; the failed nodes are ${kind === 'deleteNode' ? 'deleted' : 'tainted'} once`);
          once.add(kind);
        } else if (intervention) {
          const run = fromScenarioIntervention(intervention, (text) => Math.round(parseDuration(text)!));
          if (given.some((g) => sameIntervention(g, run))) problem(`spec.interventions[${i}]`, `${kind} is given twice (the same ${'target' in run ? 'pods at the same time' : 'time'}); give it once`);
          given.push(run);
        }
        return intervention ? [intervention] : [];
      });
    }
  }
  return problems.length === 0 ? { scenario, problems, locate: at } : { problems, locate: at };
}

/**
 * The spec field an input error found while building the run is about (an unknown target, a
 * manifest folder with no workload, a setting), to report it where the file writes it.
 */
export function scenarioFieldOf(scenario: ScenarioFile, error: Pick<InputError, 'choice' | 'value' | 'item'>): Path {
  const item = (field: string, index: number) => (index >= 0 ? ['spec', field, index] : ['spec', field]);
  switch (error.choice) {
    case 'target':
      // The last of a name given twice is the one refused.
      return item('targets', (scenario.targets ?? []).map((t) => t === error.value || splitTarget(t)?.name === error.value).lastIndexOf(true));
    case 'recovery':
      return error.value === undefined || isString(scenario.recoverAfter) ? ['spec', 'recoverAfter'] : ['spec', 'recoverAfter', error.value];
    case 'force-delete': case 'delete':
      return item('interventions', (scenario.interventions ?? []).findIndex((i) => INTERVENTIONS[entryOf(i).key].kind === error.choice && entryOf(i).pod === error.value));
    case 'version': return ['spec', 'kubernetesVersion'];
    case 'setting': return error.item !== undefined && scenario.set && Object.hasOwn(scenario.set, error.item) ? ['spec', 'set', error.item] : ['spec', 'set'];
    case 'workloads': return ['spec', 'manifests'];
    default: return ['spec', error.choice];
  }
}

const INTERVENTION_FORMS = '{forceDelete: {pod: NAME, Kind/name, node/NAME or zone/NAME, at: D}}, {delete: {pod: …, at: D}}, {outOfService: {at: D}}, {deleteNode: {at: D}} or {restartControllerManager: {at: D}}';

/** One item of spec.interventions, or what is wrong with it and where in the item (a path below it). */
function readIntervention(item: unknown): { intervention: ScenarioIntervention } | { problem: string; path: Path } {
  if (!isRecord(item) || Object.keys(item).length !== 1) return { problem: `an intervention is one of ${INTERVENTION_FORMS}`, path: [] };
  const [[kind, value]] = Object.entries(item);
  if (!Object.hasOwn(INTERVENTIONS, kind)) return { problem: `unknown intervention ${kind}; an intervention is one of ${INTERVENTION_FORMS}`, path: [] };
  const { pod } = INTERVENTIONS[kind as InterventionKey];
  const fields = pod ? '{pod: NAME, Kind/name, node/NAME or zone/NAME, at: D}' : '{at: D}';
  if (!isRecord(value)) return { problem: `${kind} must be a mapping ${fields}`, path: [kind] };
  const extra = Object.keys(value).find((key) => key !== 'at' && !(pod && key === 'pod'));
  if (extra !== undefined) return { problem: `${kind} has no field ${extra}; it is ${fields}`, path: [kind, extra] };
  if (pod && !(isString(value.pod) && value.pod)) return { problem: `${kind} needs the pods: a pod name, a workload or a node or zone, as in ${fields}`, path: value.pod === undefined ? [kind] : [kind, 'pod'] };
  if (!isDuration(value.at)) return { problem: durationProblem(`${kind}.at`, value.at), path: value.at === undefined ? [kind] : [kind, 'at'] };
  return { intervention: { [kind]: pod ? { pod: value.pod, at: value.at } : { at: value.at } } as ScenarioIntervention };
}

/** What is wrong with one item of spec.targets. */
function targetProblem(target: unknown): string {
  const form = 'a target is node/NAME, zone/NAME or Kind/name, optionally with @D (it fails D after the first), such as node/worker-b1@60s';
  if (!isString(target) || target === '') return `${form}; got ${JSON.stringify(target ?? null)}`;
  const at = target.lastIndexOf('@');
  if (at === 0) return `${target} names no target before its @; ${form}`;
  return durationProblem(`the time after @ in ${target}`, target.slice(at + 1));
}

/** The command line the scenario stands for: its paths (relative to the file) and the flags. */
export function scenarioArguments(scenario: ScenarioFile): { paths: string[]; cluster?: string; flags: string[] } {
  const flags: string[] = [];
  const flag = (name: string, value: string | number | undefined) => {
    if (value !== undefined) flags.push(`--${name}`, String(value));
  };
  flag('failure', scenario.failure);
  if (scenario.targets && scenario.targets.length > 0) flag('target', scenario.targets.join(','));
  flag('at', scenario.at);
  const recovery = scenario.recoverAfter;
  flag('recover-after', isString(recovery) || recovery === undefined ? recovery : Object.entries(recovery).map(([t, d]) => `${t}@${d}`).join(','));
  for (const i of scenario.interventions ?? []) {
    const { key, pod, at } = entryOf(i);
    flag(INTERVENTIONS[key].flag, pod === undefined ? at : `${pod}@${at}`);
  }
  flag('placement', scenario.placement);
  flag('duration', scenario.duration);
  flag('profile', scenario.profile);
  flag('k8s-version', scenario.kubernetesVersion);
  for (const [knob, value] of Object.entries(scenario.set ?? {})) flag('set', `${knob}=${value}`);
  flag('seed', scenario.seed);
  flag('runs', scenario.runs);
  return { paths: scenario.manifests, cluster: scenario.cluster, flags };
}

/** JSON strings are valid YAML double-quoted scalars: any name survives the round trip. */
const q = (text: string) => JSON.stringify(text);

export function writeScenarioFile(scenario: ScenarioFile): string {
  const lines = [
    `apiVersion: ${SCENARIO_API_VERSION}`,
    `kind: ${SCENARIO_KIND}`,
    'metadata:',
    `  name: ${q(scenario.name)}`,
    'spec:',
    `  manifests: [${scenario.manifests.map(q).join(', ')}]`,
  ];
  const field = (key: string, value: string | number | undefined) => {
    if (value !== undefined) lines.push(`  ${key}: ${typeof value === 'number' ? value : q(value)}`);
  };
  field('failure', scenario.failure);
  if (scenario.targets && scenario.targets.length > 0) lines.push(`  targets: [${scenario.targets.map(q).join(', ')}]`);
  field('at', scenario.at);
  const recovery = scenario.recoverAfter;
  if (recovery === undefined || isString(recovery)) field('recoverAfter', recovery);
  else lines.push(`  recoverAfter: {${Object.entries(recovery).map(([t, d]) => `${q(t)}: ${q(d)}`).join(', ')}}`);
  if (scenario.interventions && scenario.interventions.length > 0) {
    lines.push('  interventions:');
    for (const i of scenario.interventions) {
      const { key, pod, at } = entryOf(i);
      lines.push(`    - ${key}: {${pod === undefined ? '' : `pod: ${q(pod)}, `}at: ${q(at)}}`);
    }
  }
  field('placement', scenario.placement);
  field('duration', scenario.duration);
  field('profile', scenario.profile);
  field('kubernetesVersion', scenario.kubernetesVersion);
  if (scenario.set && Object.keys(scenario.set).length > 0) {
    lines.push('  set:');
    for (const [knob, value] of Object.entries(scenario.set)) lines.push(`    ${q(knob)}: ${q(value)}`);
  }
  field('cluster', scenario.cluster);
  field('seed', scenario.seed);
  field('runs', scenario.runs);
  return `${lines.join('\n')}\n`;
}

/**
 * A scenario file as the workspace's choices: the same in the CLI and the editor. `source` names
 * the file as the user sees it; its version, preset and knobs are the run's own timing settings,
 * which replace the front end's (so the file gives the same run everywhere); `cluster` is the
 * text of the file its `cluster` names, read by the front end.
 */
export function scenarioRun(scenario: ScenarioFile, source: string, cluster?: ClusterText): { choices: SimulationChoices; runs: number } {
  const ms = (text: string) => Math.round(parseDuration(text)!);
  const targets = (scenario.targets ?? []).map((t) => splitTarget(t)!);
  const recovery = scenario.recoverAfter;
  // In the command line's order, so that the file and its flags give the same report.
  const order = (i: Intervention) => INTERVENTION_ORDER.indexOf(i.kind);
  const interventions = (scenario.interventions ?? []).map((i) => fromScenarioIntervention(i, ms)).sort((a, b) => order(a) - order(b));
  const defaults = defaultChoices();
  const choices: SimulationChoices = {
    ...defaults,
    failure: scenario.failure ?? defaults.failure,
    targets: targets.map((t) => t.name),
    failAtMs: Object.fromEntries(targets.filter((t) => t.atMs !== undefined).map((t) => [t.name, t.atMs!])),
    recoverAfterMs: isString(recovery) ? ms(recovery) : undefined,
    recoverAfterMsByTarget: recovery !== undefined && !isString(recovery) ? Object.fromEntries(Object.entries(recovery).map(([t, d]) => [t, ms(d)])) : undefined,
    preFailureMs: scenario.at === undefined ? 0 : ms(scenario.at),
    interventions,
    placement: scenario.placement ?? 'scheduler',
    durationMs: scenario.duration === undefined ? defaults.durationMs : ms(scenario.duration),
    seed: scenario.seed ?? defaults.seed,
    timing: {
      replacesSettings: true,
      version: scenario.kubernetesVersion === undefined ? undefined : { value: scenario.kubernetesVersion, source: source },
      // none, as --profile none: the version's own defaults.
      profile: scenario.profile === 'none' ? undefined : scenario.profile,
      overrides: Object.entries(scenario.set ?? {}).map(([name, value]) => ({ name, value, source })),
    },
    clusterText: cluster,
  };
  return { choices, runs: scenario.runs ?? 1 };
}
