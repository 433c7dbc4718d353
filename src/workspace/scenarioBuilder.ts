/** From the workspace's objects, its timing and a user's choices to a simulation scenario, checking the choices against the input. */
import { zoneName, type ClusterSpec } from '../cluster/clusterSpec';
import type { TimingConfiguration } from '../cluster/timing';
import { formatDuration } from '../manifest/duration';
import { formatCount } from '../manifest/formatCount';
import { CLUSTER_ENVELOPE, MAX_DURATION_MS, MAX_POD_HOURS } from '../manifest/limits';
import type { ManifestModel } from '../manifest/model';
import { desiredPods, podCountPath } from '../manifest/model/workloads';
import type { Sourced, Workload } from '../manifest/model/types';
import type { ManifestObject } from '../manifest/objects';
import type { SourceLocation } from '../manifest/range';
import { describeSuggestions } from '../manifest/suggest';
import { supportingObjects, type Fault, type Scenario } from '../sim/scenario';
import { workloadsNamed } from '../sim/workloadTarget';
import { workloadLabeler } from '../report/workloadLabel';
import { InputError } from './inputError';
import type { SimulationChoices } from './simulationChoices';

export interface ScenarioInputs {
  /** The workloads to simulate. */
  workloads: Sourced<Workload>[];
  /** Every object of the workspace: Services, volumes, Node objects. */
  objects: ManifestModel;
  timing: TimingConfiguration;
  /** The nodes the scenario runs on. */
  cluster: ClusterSpec;
  /** Where an object is written, for errors that point at it. */
  locate: (object: { source: ManifestObject }) => SourceLocation | undefined;
}

export const NO_WORKLOADS = 'The input has no workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod) to simulate.';

export function buildScenario({ workloads, objects, timing, cluster, locate }: ScenarioInputs, choices: SimulationChoices): Scenario {
  const seen = new Map<string, Sourced<Workload>>();
  for (const w of workloads) {
    const key = `${w.kind}/${w.namespace}/${w.name}`;
    const first = seen.get(key);
    if (first) {
      const at = locate(first);
      const where = at ? ` (first at ${at.uri}:${at.range.start.line + 1})` : '';
      throw new InputError('workloads', undefined, `${w.kind} ${w.namespace}/${w.name} appears twice in the input${where}.`, locate(w));
    }
    seen.set(key, w);
  }
  if (workloads.length === 0) throw new InputError('workloads', undefined, NO_WORKLOADS);
  // Within one file the model reports it; across files only the merged input shows it.
  const [firstDefault, secondDefault] = objects.priorityClasses.filter((c) => c.globalDefault);
  if (secondDefault) {
    const at = locate(firstDefault);
    throw new InputError('workloads', undefined, `The API server refuses a second global default PriorityClass: ${secondDefault.name}, when ${firstDefault.name}${at ? ` (${at.uri}:${at.range.start.line + 1})` : ''} already is one.`, locate(secondDefault));
  }
  for (const target of choices.targets) checkTarget(target, cluster, workloads);
  for (const intervention of choices.interventions) if ('target' in intervention) checkPodTarget(intervention.kind, intervention.target, cluster, workloads);
  checkEnvelope(workloads, cluster, choices.durationMs, choices.preFailureMs ?? 0, locate);
  return {
    workloads,
    ...supportingObjects(objects),
    cluster,
    timing,
    faults: faultsOf(choices),
    interventions: choices.interventions,
    placement: choices.placement ?? 'scheduler',
    durationMs: choices.durationMs,
    preFailureMs: choices.preFailureMs,
    seed: choices.seed,
  };
}

/**
 * What one cluster runs at most (limits.ts), checked before anything is allocated: a count
 * beyond it is refused at the value that crosses it, never simulated as another number.
 */
function checkEnvelope(workloads: readonly Sourced<Workload>[], cluster: ClusterSpec, durationMs: number, preFailureMs: number, locate: ScenarioInputs['locate']): void {
  const { maxPods, maxNodes } = CLUSTER_ENVELOPE;
  // The run covers the time before the failure (--at) too.
  const spanMs = preFailureMs + durationMs;
  const span = preFailureMs > 0 ? `${formatDuration(preFailureMs)} before the failure and ${formatDuration(durationMs)} after it` : undefined;
  if (spanMs > MAX_DURATION_MS) throw new InputError('duration', undefined, `the run spans ${span ?? formatDuration(spanMs)}: longer than the ${MAX_DURATION_MS / 86_400_000} days the simulator accepts; simulate a shorter time.`);
  if (cluster.nodes.length > maxNodes) {
    throw new InputError('cluster', undefined, `${cluster.source} has ${formatCount(cluster.nodes.length)} nodes; a Kubernetes cluster has ${formatCount(maxNodes)} at most, and so does the simulator.`);
  }
  let total = 0;
  for (const workload of workloads) {
    const pods = desiredPods(workload, cluster.nodes.length);
    total += pods;
    if (total <= maxPods) continue;
    const at = locate(workload);
    const where = at && { uri: at.uri, range: workload.source.sourceMap.closestRange(podCountPath(workload)) };
    const problem = pods > maxPods
      ? `${workload.kind}/${workload.name} asks for ${formatCount(pods)} pods: more than one Kubernetes cluster runs (${formatCount(maxPods)} at most); nothing was simulated.`
      : `${workload.kind}/${workload.name} brings the input to ${formatCount(total)} pods: more than one Kubernetes cluster runs (${formatCount(maxPods)} at most); nothing was simulated.`;
    throw new InputError('workloads', undefined, problem, where);
  }
  const podHours = (total * spanMs) / 3600_000;
  if (podHours > MAX_POD_HOURS) {
    throw new InputError('duration', undefined, `${formatCount(total)} pods for ${formatCount(spanMs / 3600_000)} hours${span ? ` (${span})` : ''} is more than the simulator runs at once (${formatCount(MAX_POD_HOURS)} pod-hours, such as ${formatCount(CLUSTER_ENVELOPE.maxPods)} pods for ${MAX_POD_HOURS / CLUSTER_ENVELOPE.maxPods} hours); simulate a shorter time.`);
  }
}

/**
 * One fault for all targets, or one per target when targets fail or return at their own times.
 * Times count from the first failure: when every target is delayed, the earliest fails at 0 and
 * the others keep their distance from it (the help of --target says so).
 */
function faultsOf(choices: SimulationChoices): Fault[] {
  const { failure: kind, targets, failAtMs = {}, recoverAfterMsByTarget = {}, recoverAfterMs } = choices;
  const seen = new Map<string, string>();
  for (const target of targets) {
    const key = targetKey(target);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new InputError('target', target, earlier === target ? 'this target is given twice; give each target once.' : `this is the same target as ${earlier}; give each target once.`);
    seen.set(key, target);
  }
  // A time for something that is not a target is a mistake, never silently ignored.
  for (const [choice, times] of [['target', failAtMs], ['recovery', recoverAfterMsByTarget]] as const) {
    for (const target of Object.keys(times)) {
      if (!targets.includes(target)) throw new InputError(choice, target, `has a time but is not among the targets${targets.length > 0 ? ` (${targets.join(', ')})` : ' (none is given)'}.`);
    }
  }
  // Back the instant it fails, a node has not failed: nothing would happen, and the run would say "recovered".
  const zero = recoverAfterMs === 0 ? [formatDuration(0)] : Object.entries(recoverAfterMsByTarget).filter(([, ms]) => ms === 0).map(([t]) => `${t}@0s`);
  if (zero.length > 0) throw new InputError('recovery', zero[0], 'the node would be back the instant it fails, so nothing would happen; give a time after the failure, such as 2m.');
  const staggered = targets.some((t) => failAtMs[t] !== undefined || recoverAfterMsByTarget[t] !== undefined);
  if (!staggered) return [{ kind, targets, atMs: 0, recoverAfterMs }];
  const firstMs = Math.min(...targets.map((t) => failAtMs[t] ?? 0));
  return targets.map((target) => ({ kind, targets: [target], atMs: (failAtMs[target] ?? 0) - firstMs, recoverAfterMs: recoverAfterMsByTarget[target] ?? recoverAfterMs }));
}

/** A target as written: a bare NAME is a node; the kind is case-insensitive (lower-cased here). */
function parseTarget(target: string): { kind: string; name: string } {
  const slash = target.indexOf('/');
  return slash < 0 ? { kind: 'node', name: target } : { kind: target.slice(0, slash).toLowerCase(), name: target.slice(slash + 1) };
}

/** node/NAME and a bare NAME name the same node. */
function targetKey(target: string): string {
  const { kind, name } = parseTarget(target);
  return `${kind}/${name}`;
}

/**
 * A deletion's Kind/name must be a workload of the input, its node/NAME or zone/NAME (every pod
 * there) a node or zone of the cluster; a pod name (or pod/NAME) may name a pod that exists only
 * at that time, so the trace notes it when none does.
 */
function checkPodTarget(kind: 'force-delete' | 'delete', target: string, cluster: ClusterSpec, workloads: readonly Workload[]): void {
  if (target.includes('/') && parseTarget(target).kind !== 'pod') checkTarget(target, cluster, workloads, kind);
}

/** node/NAME (or a bare node name) must be a node of the cluster, zone/NAME a zone of it, Kind/name a workload of the input. */
function checkTarget(target: string, cluster: ClusterSpec, workloads: readonly Workload[], choice: 'target' | 'force-delete' | 'delete' = 'target'): void {
  const { kind, name } = parseTarget(target);
  if (kind === 'zone') {
    const zones = [...new Set(cluster.nodes.filter((n) => n.zone !== '').map((n) => zoneName(n.zone)))];
    if (zones.includes(name)) return;
    if (zones.length === 0) throw new InputError(choice, target, `the cluster (${cluster.source}) has no zones: no node has a topology.kubernetes.io/zone label. Name the nodes instead (node/NAME,...).`);
    throw new InputError(choice, target, `no such zone in the cluster (${cluster.source}); ${describeSuggestions(name, zones, 'zones')}.`);
  }
  if (kind === 'node') {
    if (cluster.nodes.some((n) => n.name === name)) return;
    throw new InputError(choice, target, `no such node in the cluster (${cluster.source}); ${describeSuggestions(name, cluster.nodes.map((n) => n.name), 'nodes')}.`);
  }
  checkWorkload(choice, target, workloads);
}

function checkWorkload(choice: 'target' | 'force-delete' | 'delete', target: string, workloads: readonly Workload[]): void {
  const named = workloadsNamed(workloads, target);
  if (named.length === 1) return;
  if (named.length > 1) {
    const { kind, name } = named[0];
    throw new InputError(choice, target, `${kind} ${name} is in ${named.length} namespaces (${named.map((w) => w.namespace).join(', ')}): name one, such as ${kind}/${named[0].namespace}/${name}.`);
  }
  const label = workloadLabeler(workloads);
  throw new InputError(choice, target, `no such workload in the input; ${describeSuggestions(target, [...new Set(workloads.map(label))], 'workloads') || 'it has none'}.`);
}
