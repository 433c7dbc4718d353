/**
 * The default scenario of one workload, simulated: the node of its first pod powered off and
 * never back (or a variant), on the workspace's nodes (or the default cluster), with the
 * workspace's timing. Findings, hovers, lenses and fix titles read their numbers from here.
 * A run is cached by the workload's text, the objects it can depend on and the timing, so
 * typing in another document simulates nothing again.
 */
import { clusterOf, defaultClusterFitting, HOSTNAME_LABEL, type ClusterSpec, type NodeNeeds } from '../cluster/clusterSpec';
import { knobsOf, type TimingConfiguration } from '../cluster/timing';
import type { ManifestModel } from '../manifest/model';
import type { NodeSelectorTerm, Sourced, Workload } from '../manifest/model/types';
import { podRequests } from '../manifest/model/workloads';
import { DEFAULT_DURATION_MS, supportingObjects, type FailureKind, type Placement, type Scenario } from '../sim/scenario';
import { nodeFailureTolerations, servicesInFront } from './facts';
import { fewestPods } from '../manifest/model/autoscaling';
import { matchesMap, matchesNodeSelectorTerms } from '../sim/selectors';
import { ScenarioError, simulate } from '../sim/simulate';
import type { WorkloadSummary } from '../sim/summary';


/** `worst-placement` / `spread-placement`: the node-lost scenario with the pods packed onto as few nodes as the filters allow, or spread as widely as possible (KFS010). */
export type Variant = 'node-lost' | 'node-returns-2m' | 'partition' | 'kubelet-not-ready' | 'worst-placement' | 'spread-placement';

/** `packed`: on an invented cluster, nodes with room for every replica, as the user's nodes may well have. */
const VARIANTS: Record<Variant, { failure: FailureKind; recoverAfterMs?: number; placement?: Placement; packed?: true }> = {
  'node-lost': { failure: 'power-off' },
  'node-returns-2m': { failure: 'power-off', recoverAfterMs: 2 * 60_000 },
  partition: { failure: 'partition' },
  'kubelet-not-ready': { failure: 'kubelet-not-ready' },
  'worst-placement': { failure: 'power-off', placement: 'worst', packed: true },
  'spread-placement': { failure: 'power-off', placement: 'spread', packed: true },
};

export interface WorkloadOutcome {
  summary: WorkloadSummary;
  /** How many nodes ran its pods before the failure. */
  nodesBefore: number;
  failedNode: string;
  variant: Variant;
  durationMs: number;
}

const MAX_ENTRIES = 5000;

export class WorkloadSimulations {
  private readonly cache = new Map<string, WorkloadOutcome | null>();
  /**
   * Keys are computed once per object: an unchanged document keeps its parsed value across
   * edits (the parser's cache), and the workspace's objects and timing are short ids, so a
   * keystroke costs no re-serialisation of the other workloads.
   */
  private readonly objectKeys = new WeakMap<ManifestModel, string>();
  private readonly timingKeys = new WeakMap<TimingConfiguration, string>();
  private readonly valueKeys = new WeakMap<object, string>();
  private readonly interned = new Map<string, string>();
  private nextId = 0;
  /** Simulations run (not served from the cache), for tests and benchmarks. */
  runs = 0;

  /** undefined when the workload has no pod to fail (it cannot be scheduled at all). */
  outcome(workload: Sourced<Workload>, objects: ManifestModel, timing: TimingConfiguration, variant: Variant = 'node-lost'): WorkloadOutcome | undefined {
    // The simulator runs an autoscaled workload with its autoscaler's minReplicas.
    const replicas = fewestPods(workload, objects);
    const key = `${variant}\n${this.timingKey(timing)}\n${this.objectKey(objects)}\n${workload.kind}\n${replicas}\n${this.valueKey(workload.source.value)}`;
    let outcome = this.cache.get(key);
    if (outcome === undefined) {
      outcome = this.run(workload, objects, timing, variant);
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    } else {
      this.cache.delete(key);
    }
    this.cache.set(key, outcome);
    return outcome ?? undefined;
  }

  private run(workload: Sourced<Workload>, objects: ManifestModel, timing: TimingConfiguration, variant: Variant): WorkloadOutcome | null {
    this.runs++;
    const { failure, recoverAfterMs, placement, packed } = VARIANTS[variant];
    const scenario: Scenario = {
      workloads: [workload],
      ...supportingObjects(objects),
      services: servicesInFront(workload, objects.services),
      cluster: clusterFor(workload, objects, undefined, packed ? fewestPods(workload, objects) : 1),
      timing,
      faults: [{ kind: failure, targets: [], atMs: 0, recoverAfterMs }],
      interventions: [],
      ...(placement ? { placement } : {}),
      durationMs: durationFor(workload),
      preFailureMs: 0,
      seed: 1,
    };
    try {
      const { summary, states } = simulate(scenario);
      const nodesBefore = new Set(states.filter((s) => s.object.kind === 'Pod' && s.from === 0 && s.node !== '<none>').map((s) => s.node)).size;
      return { summary: summary.workloads[0], nodesBefore, failedNode: summary.failedNodes[0], variant, durationMs: scenario.durationMs };
    } catch (error) {
      if (error instanceof ScenarioError) return null;
      throw error;
    }
  }

  private objectKey(objects: ManifestModel): string {
    let key = this.objectKeys.get(objects);
    if (key === undefined) {
      // Budgets play no part: a workload simulated alone has no pods of a lower priority to preempt.
      const { services, persistentVolumeClaims, persistentVolumes, storageClasses, nodes, namespaces, priorityClasses } = objects;
      key = this.intern(JSON.stringify([services, persistentVolumeClaims, persistentVolumes, storageClasses, nodes, namespaces, priorityClasses].map((list) => list.map((o) => o.source.value))));
      this.objectKeys.set(objects, key);
    }
    return key;
  }

  private timingKey(timing: TimingConfiguration): string {
    let key = this.timingKeys.get(timing);
    if (key === undefined) {
      key = this.intern(JSON.stringify([timing.version.minor, knobsOf(timing).map(({ knob }) => knob.value)]));
      this.timingKeys.set(timing, key);
    }
    return key;
  }

  private valueKey(value: object): string {
    let key = this.valueKeys.get(value);
    if (key === undefined) this.valueKeys.set(value, (key = JSON.stringify(value)));
    return key;
  }

  /** A short stand-in for a long key; ids are never reused, so a key cached in a WeakMap cannot come to mean another. */
  private intern(long: string): string {
    let short = this.interned.get(long);
    if (short === undefined) {
      if (this.interned.size >= MAX_ENTRIES) this.interned.clear();
      this.interned.set(long, (short = `#${this.nextId++}`));
    }
    return short;
  }
}

/** The longest run for a workload: the editor simulates every workload on every edit. */
const MAX_SIMULATED_MS = 2 * 3600_000;

/**
 * Long enough to see the workloads' tolerations of a dead node run out and their replacements
 * start (the taint comes within about a minute of the failure), up to MAX_SIMULATED_MS: a longer
 * toleration is said with the time it runs out (outageText.ts). The CodeLens's run and the timeline
 * a click on it opens last as long.
 */
export function durationFor(...workloads: Workload[]): number {
  const seconds = workloads.flatMap((workload) => nodeFailureTolerations(workload).map(({ toleration }) => toleration.tolerationSeconds ?? 0));
  return Math.min(MAX_SIMULATED_MS, Math.max(DEFAULT_DURATION_MS, Math.max(0, ...seconds) * 1000 + 10 * 60_000));
}

/** The workspace's nodes, or the default cluster given what the workload's pods ask of a node. */
export function clusterFor(workload: Workload, objects: ManifestModel, asker?: string, copies = 1): ClusterSpec {
  return objects.nodes.length > 0 ? clusterOf(objects.nodes) : defaultClusterFitting(nodeNeeds(workload), asker, copies);
}

/** The nodes the workload's nodeSelector and required node affinity allow, on the cluster it is simulated on. */
export function selectedNodes(workload: Workload, objects: ManifestModel): { cluster: ClusterSpec; nodes: ClusterSpec['nodes'] } {
  const cluster = clusterFor(workload, objects);
  const { nodeSelector, affinity } = workload.template.spec;
  return { cluster, nodes: cluster.nodes.filter((n) => matchesMap(nodeSelector, n.labels) && matchesNodeSelectorTerms(affinity.nodeRequired, n.name, n.labels)) };
}

/**
 * The labels a pod requires of its node (nodeSelector, the first required node affinity term, its
 * nodeName as the hostname; every hostname an In of that term allows), the labels each further ORed
 * term asks, and its requests.
 */
function nodeNeeds(workload: Workload): NodeNeeds {
  const spec = workload.template.spec;
  const labels: Record<string, string> = { ...spec.nodeSelector };
  // A node named by spec.nodeName is one machine the user has: the default cluster gets it.
  if (spec.nodeName !== undefined) labels[HOSTNAME_LABEL] ??= spec.nodeName;
  const [first, ...others] = spec.affinity.nodeRequired;
  let hostnames: string[] | undefined;
  for (const { key, operator, values } of first?.matchExpressions ?? []) {
    if (operator === 'In' && key === HOSTNAME_LABEL && values.length > 1 && (labels[key] ?? values[0]) === values[0]) hostnames = values;
  }
  Object.assign(labels, { ...termLabels(first), ...labels });
  // Only where nodeName leaves a choice: a pod bound by name goes to that node whatever its affinity says.
  const otherTerms = spec.nodeName === undefined ? others.map((term) => ({ ...termLabels(term), ...spec.nodeSelector })) : [];
  return { labels, ...(hostnames ? { hostnames } : {}), ...(otherTerms.length > 0 ? { otherTerms } : {}), ...podRequests(spec) };
}

/** A node selector term's requirements as labels that satisfy them: In its first value, Exists "true" (every node has a hostname). */
function termLabels(term: NodeSelectorTerm | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const { key, operator, values } of term?.matchExpressions ?? []) {
    if (operator === 'In' && values.length > 0) labels[key] ??= values[0];
    if (operator === 'Exists' && key !== HOSTNAME_LABEL) labels[key] ??= 'true';
  }
  return labels;
}
