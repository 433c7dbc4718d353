/**
 * The simulated cluster's objects: what the API server stores (conditions, taints,
 * deletionTimestamp) and, kept apart, what is really happening on the hosts.
 */
import type { ObjectRef, StateInterval } from './trace';

export type { ObjectRef };
import type { Affinity, Container, NodeSelectorTerm, Probe, Taint, Toleration, TopologySpreadConstraint, Workload } from '../manifest/model/types';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface NodeTaint extends Taint {
  /** Milliseconds; the API stores whole seconds. */
  timeAdded?: number;
}

/** The host behind a Node object: none of this is visible through the API. */
export interface Host {
  powered: boolean;
  kubeletRunning: boolean;
  /** Network path between the node and the control plane. */
  apiReachable: boolean;
  /** Clients can reach the node's pods. */
  dataPlaneReachable: boolean;
  /** The container runtime answers the kubelet (kubelet-not-ready: it does not, SEMANTICS.md 13.5). */
  runtimeUp: boolean;
  /** The node's disk works (disk-failure: it does not, yet the lease is renewed, SEMANTICS.md 11). */
  diskHealthy: boolean;
  /** The OS announced a shutdown that the kubelet delays with its inhibitor lock (SEMANTICS.md 2.4). */
  shuttingDown: boolean;
}

/**
 * The node's Lease and the Ready heartbeat as the API shows them. While the kubelet renews,
 * `live` is true and renewals are not simulated one by one (SEMANTICS.md 13: only the last
 * renewal before a failure matters); when it stops, the last renewal time is kept.
 */
export interface NodeLease {
  live: boolean;
  /** Since when the kubelet has been renewing (live), or its last renewal (not live). */
  renewTime: number;
  /** Last node status post (Ready lastHeartbeatTime) before heartbeats stopped. */
  lastStatusPost: number;
}

export interface SimNode {
  name: string;
  /** The object's reference, made once (events and intervals share it). */
  ref: ObjectRef;
  /** Its open state interval in the trace. */
  interval?: StateInterval;
  index: number;
  zone: string;
  labels: Record<string, string>;
  taints: NodeTaint[];
  allocatable: { cpuMillis: number; memoryBytes: number; pods: number; extended?: Readonly<Record<string, number>> };
  unschedulable: boolean;
  /** API Ready condition. */
  ready: ConditionStatus;
  readyReason: string;
  readyTransition: number;
  lease: NodeLease;
  deleted: boolean;
  host: Host;
  /** Pods bound to the node (API view); a removed pod's slot takes the last pod. */
  pods: SimPod[];
  nextIp: number;
  podCidr: string;
}

/** What pods of one workload share: the template after admission and controller defaults. */
export interface PodTemplateSim {
  labels: Record<string, string>;
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  /** Any nodeSelector, required node affinity, spread, inter-pod (anti-)affinity or host port to check. */
  placementConstraints: boolean;
  nodeRequired: NodeSelectorTerm[];
  affinity: Affinity;
  topologySpread: TopologySpreadConstraint[];
  cpuMillis: number;
  memoryBytes: number;
  /** Extended resources (nvidia.com/gpu) the pod asks for, if any. */
  extended?: Readonly<Record<string, number>>;
  terminationGracePeriodSeconds: number;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  /** An app container's: until it succeeds, the readiness and liveness probes do not run and the pod is not Ready. */
  startupProbe?: Probe;
  /** From its PriorityClass (priority admission); undefined: a class the input does not declare, whose value is unknown. */
  priority: number | undefined;
  preemptionPolicy: 'PreemptLowerPriority' | 'Never';
  /** IsCriticalPod: a static or mirror pod, or a system priority (class or value): killed last in a graceful shutdown. */
  critical: boolean;
  containerCount: number;
  /** The app containers and native sidecars as written: how each stops (preStop, a shell as PID 1) when the kubelet kills the pod. */
  containers: readonly Container[];
  /** Init containers, run one after another before the app containers of a new sandbox. */
  initContainerCount: number;
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  hostNetwork: boolean;
  /** "TCP/80": ports taken on the node (hostPort, or every port with hostNetwork); two pods cannot share one. */
  hostPorts: readonly string[];
  /** spec.nodeName: every pod of the template is bound to that node as it is created, without the scheduler. */
  nodeName?: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type ContainerState = 'waiting' | 'running' | 'terminated';

export interface SimPod {
  uid: number;
  name: string;
  ref: ObjectRef;
  interval?: StateInterval;
  namespace: string;
  owner?: SimWorkload;
  ordinal?: number;
  template: PodTemplateSim;
  /** PersistentVolumeClaims the pod mounts. */
  claims: readonly SimClaim[];
  createdAt: number;
  // API state
  nodeName?: string;
  /** The node object behind nodeName (kept after the node is deleted) and the pod's slot in its pod list. */
  node?: SimNode;
  nodeSlot: number;
  phase: PodPhase;
  reason?: string;
  readyCondition: boolean;
  /** When the Ready condition last turned False (its lastTransitionTime). */
  notReadySince?: number;
  disruptionTarget?: string;
  containerState: ContainerState;
  containerReason?: string;
  /** The exit code the kubelet reported for the app containers (kubelet.ts exitCode: each takes the pod's). */
  exitCode?: number;
  containersReady: boolean;
  restartCount: number;
  ip?: string;
  deletionTimestamp?: number;
  deletionGracePeriodSeconds?: number;
  removed: boolean;
  /** Scheduler's last message while Pending. */
  pendingMessage?: string;
  /** status.nominatedNodeName: where the scheduler preempted pods to make room for this one. */
  nominatedNode?: SimNode;
  /** Where the scheduler's cache counts the pod (from its choice, before the binding lands: assumed), and whether spreading still counts it. */
  cachedOn?: SimNode;
  spreadCounted: boolean;
  /** Its last failed scheduling cycle found nodes where only resolvable filters failed: preemption could have helped. */
  preemptionMightHelp: boolean;
  // Host state: containers really running and the app answering.
  running: boolean;
  appReady: boolean;
  /** Was on a failed node at the instant of a fault. */
  affected: boolean;
  /** Created after the failure to replace an affected pod. */
  replacement: boolean;
  /** Given a new sandbox, and with it a new IP, after it first ran (a reboot; a container restart keeps the IP). */
  ipChanged: boolean;
  /** Counted in its workload's ready count (active and Ready). */
  countedReady: boolean;
  /** What the serving metrics last counted for the pod. */
  countedServing: boolean;
  countedBlackholed: boolean;
  countedRunning: boolean;
}

export type WorkloadKind = Workload['kind'];

export interface SimWorkload {
  kind: WorkloadKind;
  name: string;
  ref: ObjectRef;
  interval?: StateInterval;
  /** Active pods with Ready=True (kubectl's READY). */
  readyPods: number;
  namespace: string;
  spec: Workload;
  template: PodTemplateSim;
  /** Desired pod count (DaemonSet: nodes it should run on at the start). */
  desired: number;
  /** DaemonSet: the nodes it should run on now (status desiredNumberScheduled, kubectl's DESIRED); a tainted dead node drops out. */
  desiredNumberScheduled?: number;
  /** DaemonSet: nodes it should not run on now; their daemon pods are not counted ready (numberReady, kubectl's READY). */
  notScheduledOn?: Set<SimNode>;
  /** Every pod it ever had, removed ones included, in creation order. */
  pods: SimPod[];
  /** Pod names created so far (replacement naming). */
  created: number;
  /** Services selecting the workload's pods. */
  services: SimService[];
  podTemplateHash: string;
  /** Job: pods that failed (counting towards backoffLimit). */
  failures: number;
  /** Job: its Failed condition, once set (backoffLimit exceeded, a FailJob rule). */
  jobFailed?: { reason: string; message: string; atMs: number };
}

export interface EndpointState {
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

export interface SimService {
  name: string;
  /** Its EndpointSlice's reference. */
  ref: ObjectRef;
  interval?: StateInterval;
  namespace: string;
  selector: Record<string, string>;
  publishNotReadyAddresses: boolean;
  /** clusterIP: None: DNS answers with its ready endpoints, and no kube-proxy falls back to terminating ones. */
  headless: boolean;
  endpoints: Map<SimPod, EndpointState>;
  /** Endpoints with ready=true, kept with every change (a Service may have thousands). */
  readyEndpoints: number;
}

export interface SimVolume {
  name: string;
  /** ReadWriteOnce volumes attach to one node at a time. */
  exclusive: boolean;
  /** A node-local volume (local PV, hostPath-backed): usable on these nodes only. */
  nodeAffinity: NodeSelectorTerm[];
  local: boolean;
  /** A disk written in the pod spec (gcePersistentDisk ...), not a claim's volume. */
  inline?: true;
  /** Node the volume is attached to (attach-detach controller). */
  attachedTo?: string;
  detachRequestedAt?: number;
  /** The force detach after maxWaitForUnmountDuration: its time, or 'disabled' (kube-controller-manager --disable-force-detach-on-timeout). */
  forceDetach?: { atMs: number } | 'disabled';
}

export interface SimClaim {
  name: string;
  namespace: string;
  volume?: SimVolume;
  /** Local PVs of the claim's class still free to bind (WaitForFirstConsumer). */
  candidateVolumes?: SimVolume[];
}

/** The pod's node while its Node object exists. */
export function liveNodeOf(pod: SimPod): SimNode | undefined {
  return pod.node && !pod.node.deleted ? pod.node : undefined;
}

/** A network volume that attaches to one node at a time: the attach-detach controller moves it. */
export function needsAttach(volume: SimVolume): boolean {
  return volume.exclusive && !volume.local;
}

/** The next IP of the node's pod CIDR (a restarted sandbox gets a new one). */
/** The node's InternalIP, invented in node order (10.0.0.0/16, apart from the pod network). */
export function nodeIp(node: SimNode): string {
  return `10.0.${Math.floor(node.index / 250)}.${(node.index % 250) + 4}`;
}

/** A new sandbox's IP from the node's pod CIDR; a hostNetwork pod has its node's (generateAPIPodStatus). */
export function nextPodIp(node: SimNode, pod: SimPod): string {
  if (pod.template.hostNetwork) return nodeIp(node);
  return `10.244.${node.index}.${(node.nextIp++ % 253) + 2}`;
}

export function isActive(pod: SimPod): boolean {
  return !pod.removed && pod.deletionTimestamp === undefined && pod.phase !== 'Succeeded' && pod.phase !== 'Failed';
}
