/** What to simulate: the objects, the cluster, the timing, the failure and what people do about it. */
import type { ClusterSpec } from '../cluster/clusterSpec';
import type { TimingConfiguration } from '../cluster/timing';
import type { HorizontalPodAutoscaler, Namespace, PersistentVolume, PodDisruptionBudget, PriorityClass, PersistentVolumeClaimSpec, Service, StorageClass, Workload } from '../manifest/model/types';

/** What can happen to a node (src/report says what each means). */
export const FAILURE_KINDS = ['power-off', 'kubelet-stop', 'partition', 'kubelet-not-ready', 'disk-failure', 'graceful-shutdown', 'zone-outage'] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];

export function isFailureKind(text: string): text is FailureKind {
  return (FAILURE_KINDS as readonly string[]).includes(text);
}

/** Where pods go: as kube-scheduler scores nodes, packed onto as few nodes as allowed (worst case), or spread as widely as possible. */
export const PLACEMENTS = ['scheduler', 'worst', 'spread'] as const;

/** Interventions at one instant happen in this order, which is also the order the command line lists them in. */
export const INTERVENTION_ORDER = ['force-delete', 'delete', 'out-of-service', 'delete-node', 'restart-controller-manager'] as const;

export type Placement = (typeof PLACEMENTS)[number];

export interface Fault {
  kind: FailureKind;
  /**
   * What fails, all at the same instant: `node/NAME` (or a bare node name), `zone/NAME` for every
   * node of that zone, or `Kind/name` for the node that runs that workload's first pod. Empty: the
   * node of the first running pod of the first workload that has one. zone-outage fails the whole zone of a node or workload target.
   */
  targets: string[];
  /** ms since the failure instant (0 for the first failure; later for staggered targets). */
  atMs: number;
  /** The kubelet is back (host powered on and kubelet running, or network healed) this long after `atMs`. */
  recoverAfterMs?: number;
}

export type Intervention =
  /** `kubectl delete pod --force --grace-period=0`: a pod name, Kind/name for that workload's pods on failed nodes, or node/NAME or zone/NAME for every pod there. */
  | { kind: 'force-delete'; target: string; atMs: number }
  /** `kubectl delete pod` with the pod's own grace period: a pod name, or Kind/name as above. */
  | { kind: 'delete'; target: string; atMs: number }
  /** `kubectl taint node ... node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` on the failed nodes. */
  | { kind: 'out-of-service'; atMs: number }
  /** `kubectl delete node` of the failed nodes. */
  | { kind: 'delete-node'; atMs: number }
  /** kube-controller-manager restarts (or its leader fails over): the lease is lost, a new leader takes over later. */
  | { kind: 'restart-controller-manager'; atMs: number };

/** The same intervention given twice (the same kind, pods and time): the second would find its pods gone, or restart again. */
export function sameIntervention(a: Intervention, b: Intervention): boolean {
  const target = (x: Intervention) => ('target' in x ? x.target : undefined);
  return a.kind === b.kind && target(a) === target(b) && a.atMs === b.atMs;
}

export const INTERVENTION_KINDS = ['force-delete', 'delete', 'out-of-service', 'delete-node', 'restart-controller-manager'] as const satisfies readonly Intervention['kind'][];

export function isInterventionKind(text: string): text is Intervention['kind'] {
  return (INTERVENTION_KINDS as readonly string[]).includes(text);
}

/** Simulated time after the failure when nobody chooses: the editor's findings and the CLI's default. */
export const DEFAULT_DURATION_MS = 20 * 60_000;

export interface Scenario {
  workloads: Workload[];
  services: Service[];
  persistentVolumeClaims: PersistentVolumeClaimSpec[];
  persistentVolumes: PersistentVolume[];
  storageClasses: StorageClass[];
  /** Autoscalers own their targets' replica counts: a target runs its autoscaler's minReplicas. */
  horizontalPodAutoscalers?: HorizontalPodAutoscaler[];
  /** Namespace objects: their labels are what affinity terms' namespaceSelectors match. */
  namespaces?: Namespace[];
  /** The pods' priorities and preemption policies come from these (and the two system classes). */
  priorityClasses?: PriorityClass[];
  /** Preemption spares the pods these protect when it can. */
  podDisruptionBudgets?: PodDisruptionBudget[];
  cluster: ClusterSpec;
  timing: TimingConfiguration;
  /** Empty targets resolve to the node of the first running pod of the first workload that has one. */
  faults: Fault[];
  interventions: Intervention[];
  /** How the scheduler picks among feasible nodes (default scheduler). */
  placement?: Placement;
  /** Simulated time after the failure. */
  durationMs: number;
  /** Time the cluster runs normally before the failure (shown as negative times). */
  preFailureMs: number;
  seed: number;
}

/**
 * How the pods running before the failure were placed: scored like kube-scheduler (or by the
 * worst/spread policy), or, with `scheduler` placement in a cluster of 100 nodes or more, on the
 * first feasible node from a rotating start, unscored (for speed). Replacements are always scored.
 */
export type InitialPlacement = 'scored' | 'first-feasible';

/** What a scenario reads of the manifests besides its workloads: Services, volumes, storage classes, autoscalers, namespaces, priority classes, disruption budgets. */
type SupportingObjects = Pick<Scenario, 'services' | 'persistentVolumeClaims' | 'persistentVolumes' | 'storageClasses' | 'horizontalPodAutoscalers' | 'namespaces' | 'priorityClasses' | 'podDisruptionBudgets'>;

export function supportingObjects(model: Required<SupportingObjects>): SupportingObjects {
  const { services, persistentVolumeClaims, persistentVolumes, storageClasses, horizontalPodAutoscalers, namespaces, priorityClasses, podDisruptionBudgets } = model;
  return { services, persistentVolumeClaims, persistentVolumes, storageClasses, horizontalPodAutoscalers, namespaces, priorityClasses, podDisruptionBudgets };
}
