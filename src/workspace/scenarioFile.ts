/**
 * Scenario files: a simulation's choices saved as YAML so that a run can be repeated, reviewed and
 * kept next to the manifests. The spec mirrors the CLI's flags; manifests and the cluster file are
 * paths relative to the scenario file. Reading reports each problem at its YAML range.
 *
 *   apiVersion: kube-failure-sim.dev/v1alpha1
 *   kind: FailureScenario
 *   metadata: {name: web-partition}
 *   spec:
 *     manifests: [web-deployment.yaml, cluster/]
 *     failure: partition            # --failure
 *     targets: [Deployment/web]     # --target
 *     recoverAfter: 8m              # --recover-after
 *     interventions: [{forceDelete: {pod: web-0, at: 6m}}, {outOfService: {at: 5m}}, {deleteNode: {at: 10m}}]
 *     duration: 12m                 # also at, profile, kubernetesVersion, set, cluster, seed
 */
import { parseDuration } from '../manifest/duration';
import type { Range } from '../manifest/range';
import { readManifestText } from '../manifest/readManifest';
import { FAILURE_KINDS, isFailureKind, type FailureKind } from '../sim/scenario';

export const SCENARIO_API_VERSION = 'kube-failure-sim.dev/v1alpha1';
export const SCENARIO_KIND = 'FailureScenario';

export type ScenarioIntervention =
  | { forceDelete: { pod: string; at: string } }
  | { outOfService: { at: string } }
  | { deleteNode: { at: string } };

export interface ScenarioFile {
  name: string;
  /** Files or folders, relative to the scenario file. */
  manifests: string[];
  failure?: FailureKind;
  targets?: string[];
  /** Durations in Kubernetes syntax ("90s", "5m"), as on the command line. */
  at?: string;
  recoverAfter?: string;
  interventions?: ScenarioIntervention[];
  duration?: string;
  profile?: string;
  kubernetesVersion?: string;
  set?: Record<string, string>;
  /** Node objects (`kubectl get nodes -o yaml`), relative to the scenario file. */
  cluster?: string;
  seed?: number;
}

export interface ScenarioProblem {
  message: string;
  range: Range;
}

/** The spec's fields and what each must be (the JSON schema in media/ says the same for editors). */
const SPEC_FIELDS = ['manifests', 'failure', 'targets', 'at', 'recoverAfter', 'interventions', 'duration', 'profile', 'kubernetesVersion', 'set', 'cluster', 'seed'] as const;
export const SCENARIO_SPEC_FIELDS: readonly string[] = SPEC_FIELDS;

const isString = (v: unknown): v is string => typeof v === 'string';
const isDuration = (v: unknown): v is string => isString(v) && (parseDuration(v) ?? -1) >= 0;

export function readScenarioFile(text: string): { scenario?: ScenarioFile; problems: ScenarioProblem[] } {
  const read = readManifestText(text);
  const problems: ScenarioProblem[] = read.parsed.problems.filter((p) => p.severity === 'error').map((p) => ({ message: p.message, range: p.range }));
  const object = read.objects.find((o) => o.kind === SCENARIO_KIND);
  if (!object) {
    if (problems.length === 0) problems.push({ message: `no ${SCENARIO_KIND} document (apiVersion: ${SCENARIO_API_VERSION}, kind: ${SCENARIO_KIND})`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } });
    return { problems };
  }
  const at = (path: string) => object.sourceMap.closestRange(path);
  const problem = (path: string, message: string) => problems.push({ message, range: at(path) });
  if (object.apiVersion !== SCENARIO_API_VERSION) problem('apiVersion', `apiVersion must be ${SCENARIO_API_VERSION}`);
  const spec = object.value.spec;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    problem('spec', 'spec must be a mapping with at least manifests');
    return { problems };
  }
  const s = spec as Record<string, unknown>;
  for (const key of Object.keys(s)) if (!SCENARIO_SPEC_FIELDS.includes(key)) problem(`spec.${key}`, `unknown field ${key}; known: ${SPEC_FIELDS.join(', ')}`);
  const scenario: ScenarioFile = { name: object.name, manifests: [] };
  if (!Array.isArray(s.manifests) || s.manifests.length === 0 || !s.manifests.every(isString)) problem('spec.manifests', 'manifests must be a list of files or folders, relative to this file');
  else scenario.manifests = s.manifests;
  if (s.failure !== undefined) {
    if (isString(s.failure) && isFailureKind(s.failure)) scenario.failure = s.failure;
    else problem('spec.failure', `failure must be one of ${FAILURE_KINDS.join(', ')}`);
  }
  if (s.targets !== undefined) {
    if (Array.isArray(s.targets) && s.targets.every(isString)) scenario.targets = s.targets;
    else problem('spec.targets', 'targets must be a list such as [Deployment/web] or [node/worker-a1]');
  }
  for (const key of ['at', 'recoverAfter', 'duration'] as const) {
    if (s[key] === undefined) continue;
    if (isDuration(s[key])) scenario[key] = s[key];
    else problem(`spec.${key}`, `${key} must be a duration such as 90s or 5m`);
  }
  for (const key of ['profile', 'kubernetesVersion', 'cluster'] as const) {
    if (s[key] === undefined) continue;
    if (isString(s[key])) scenario[key] = s[key];
    // YAML reads 1.30 as the number 1.3: only a quoted version is what was meant.
    else problem(`spec.${key}`, key === 'kubernetesVersion' ? 'kubernetesVersion must be a quoted string, such as "1.30"' : `${key} must be a string`);
  }
  if (s.seed !== undefined) {
    if (Number.isInteger(s.seed) && (s.seed as number) >= 0) scenario.seed = s.seed as number;
    else problem('spec.seed', 'seed must be a whole number ≥ 0');
  }
  if (s.set !== undefined) {
    const set = s.set;
    if (typeof set === 'object' && set !== null && !Array.isArray(set) && Object.values(set).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
      scenario.set = Object.fromEntries(Object.entries(set).map(([k, v]) => [k, String(v)]));
    } else problem('spec.set', 'set must map knobs to values, such as {kcm.node-monitor-grace-period: 20s}');
  }
  if (s.interventions !== undefined) {
    if (!Array.isArray(s.interventions)) problem('spec.interventions', 'interventions must be a list');
    else scenario.interventions = s.interventions.flatMap((item, i) => {
      const intervention = readIntervention(item);
      if (!intervention) problem(`spec.interventions[${i}]`, 'an intervention is {forceDelete: {pod: NAME or Kind/name, at: D}}, {outOfService: {at: D}} or {deleteNode: {at: D}}');
      return intervention ? [intervention] : [];
    });
  }
  return problems.length === 0 ? { scenario, problems } : { problems };
}

function readIntervention(item: unknown): ScenarioIntervention | undefined {
  if (typeof item !== 'object' || item === null || Object.keys(item).length !== 1) return undefined;
  const [[kind, value]] = Object.entries(item);
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isDuration(v.at)) return undefined;
  if (kind === 'forceDelete' && isString(v.pod) && v.pod) return { forceDelete: { pod: v.pod, at: v.at } };
  if (kind === 'outOfService') return { outOfService: { at: v.at } };
  if (kind === 'deleteNode') return { deleteNode: { at: v.at } };
  return undefined;
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
  flag('recover-after', scenario.recoverAfter);
  for (const i of scenario.interventions ?? []) {
    if ('forceDelete' in i) flag('force-delete', `${i.forceDelete.pod}@${i.forceDelete.at}`);
    else if ('outOfService' in i) flag('out-of-service-after', i.outOfService.at);
    else flag('delete-node-after', i.deleteNode.at);
  }
  flag('duration', scenario.duration);
  flag('profile', scenario.profile);
  flag('k8s-version', scenario.kubernetesVersion);
  for (const [knob, value] of Object.entries(scenario.set ?? {})) flag('set', `${knob}=${value}`);
  flag('seed', scenario.seed);
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
  field('recoverAfter', scenario.recoverAfter);
  if (scenario.interventions && scenario.interventions.length > 0) {
    lines.push('  interventions:');
    for (const i of scenario.interventions) {
      if ('forceDelete' in i) lines.push(`    - forceDelete: {pod: ${q(i.forceDelete.pod)}, at: ${q(i.forceDelete.at)}}`);
      else if ('outOfService' in i) lines.push(`    - outOfService: {at: ${q(i.outOfService.at)}}`);
      else lines.push(`    - deleteNode: {at: ${q(i.deleteNode.at)}}`);
    }
  }
  field('duration', scenario.duration);
  field('profile', scenario.profile);
  field('kubernetesVersion', scenario.kubernetesVersion);
  if (scenario.set && Object.keys(scenario.set).length > 0) {
    lines.push('  set:');
    for (const [knob, value] of Object.entries(scenario.set)) lines.push(`    ${q(knob)}: ${q(value)}`);
  }
  field('cluster', scenario.cluster);
  field('seed', scenario.seed);
  return `${lines.join('\n')}\n`;
}
