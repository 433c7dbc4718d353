/**
 * Plain data for the fields the simulator and the rules need, with the API server's defaults
 * applied. No source ranges here: `Sourced<T>` adds the object a value was read from.
 */
import type { ManifestObject } from '../objects';

export type Sourced<T> = T & { source: ManifestObject };

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Toleration {
  /** Empty with operator Exists: tolerates every taint. */
  key: string;
  operator: 'Exists' | 'Equal';
  value: string;
  /** Empty: every effect. */
  effect: TaintEffect | '';
  /** Only meaningful for NoExecute; undefined tolerates forever. */
  tolerationSeconds?: number;
  /** Its index in the list as written (the reader drops items the API server rejects, so the model's index can differ); none for one added by admission. */
  at?: number;
}

export interface Taint {
  key: string;
  value: string;
  effect: TaintEffect;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

export interface LabelSelector {
  matchLabels: Record<string, string>;
  matchExpressions: LabelSelectorRequirement[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values: string[];
}

/** Requirements of one term are ANDed; terms are ORed. */
export interface NodeSelectorTerm {
  matchExpressions: NodeSelectorRequirement[];
  matchFields: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  topologyKey: string;
  namespaces: string[];
  /** Namespaces by their labels ({} : all of them); with `namespaces`, the term looks in both. */
  namespaceSelector?: LabelSelector;
}

export interface WeightedPodAffinityTerm {
  weight: number;
  term: PodAffinityTerm;
}

export interface Affinity {
  /** requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms; empty: no requirement. */
  nodeRequired: NodeSelectorTerm[];
  podAffinityRequired: PodAffinityTerm[];
  podAntiAffinityRequired: PodAffinityTerm[];
  podAntiAffinityPreferred: WeightedPodAffinityTerm[];
  podAffinityPreferred: WeightedPodAffinityTerm[];
  /** preferredDuringSchedulingIgnoredDuringExecution of nodeAffinity: the scheduler's NodeAffinity score. */
  nodePreferred: { weight: number; preference: NodeSelectorTerm }[];
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeTaintsPolicy: 'Honor' | 'Ignore';
}

export interface Resources {
  cpuMillis?: number;
  memoryBytes?: number;
  ephemeralStorageBytes?: number;
  /** Extended resources (nvidia.com/gpu: 1), by name. */
  extended?: Readonly<Record<string, number>>;
}

export type ProbeHandler = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc' | 'none';

export interface Probe {
  handler: ProbeHandler;
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  terminationGracePeriodSeconds?: number;
  command: string[];
  host?: string;
}

export interface LifecycleHandler {
  handler: 'exec' | 'httpGet' | 'tcpSocket' | 'sleep' | 'none';
  command: string[];
  sleepSeconds?: number;
}

export interface ContainerPort {
  containerPort: number;
  name?: string;
  protocol: string;
  /** The node's port it is bound to, if any (with hostNetwork the API server sets it to containerPort). */
  hostPort?: number;
}

export interface Container {
  name: string;
  image: string;
  command: string[];
  args: string[];
  ports: ContainerPort[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  requests: Resources;
  limits: Resources;
  preStop?: LifecycleHandler;
  volumeMounts: { name: string; mountPath: string }[];
  /** An init container's `restartPolicy: Always`: a native sidecar, running beside the app containers (SidecarContainers, beta-on 1.29). */
  restartPolicy?: 'Always';
  /** Its index in the list as written (the reader drops items the API server rejects, so the model's index can differ); none for one added by admission. */
  at?: number;
}

export type VolumeSource =
  | 'persistentVolumeClaim' | 'emptyDir' | 'hostPath' | 'configMap' | 'secret' | 'projected'
  | 'downwardAPI' | 'ephemeral' | 'csi' | 'nfs' | 'local' | 'disk' | 'other';

/** A cloud disk written in the pod spec itself (gcePersistentDisk, awsElasticBlockStore ...). */
export interface InlineDisk {
  /** The volume source's field: gcePersistentDisk. */
  type: string;
  /** The disk as its source names it (pdName, volumeID ...). */
  id: string;
  /** Attached to one node at a time: every such disk but a read-only GCE persistent disk. */
  exclusive: boolean;
}

export interface Volume {
  name: string;
  source: VolumeSource;
  claimName?: string;
  emptyDirSizeLimitBytes?: number;
  emptyDirMedium?: string;
  hostPath?: string;
  disk?: InlineDisk;
  /** Its index in the list as written (the reader drops items the API server rejects, so the model's index can differ); none for one added by admission. */
  at?: number;
}

export interface PodSpec {
  containers: Container[];
  initContainers: Container[];
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  nodeName?: string;
  affinity: Affinity;
  topologySpreadConstraints: TopologySpreadConstraint[];
  terminationGracePeriodSeconds: number;
  volumes: Volume[];
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  priority?: number;
  priorityClassName?: string;
  hostNetwork: boolean;
  readinessGates: string[];
}

export interface PodTemplate {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  spec: PodSpec;
}

export interface PersistentVolumeClaimSpec {
  name: string;
  namespace: string;
  accessModes: string[];
  /** undefined: the default class; "" : no class (static binding only). */
  storageClassName?: string;
  volumeName?: string;
  requestsBytes?: number;
}

export interface ObjectMeta {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

interface WorkloadBase extends ObjectMeta {
  template: PodTemplate;
}

export interface RollingUpdate {
  maxSurge: number | string;
  maxUnavailable: number | string;
}

export interface Deployment extends WorkloadBase {
  kind: 'Deployment';
  replicas: number;
  selector: LabelSelector;
  strategy: { type: 'RollingUpdate' | 'Recreate'; rollingUpdate?: RollingUpdate };
  minReadySeconds: number;
  progressDeadlineSeconds: number;
}

export interface ReplicaSet extends WorkloadBase {
  kind: 'ReplicaSet' | 'ReplicationController';
  replicas: number;
  selector: LabelSelector;
  minReadySeconds: number;
}

export interface StatefulSet extends WorkloadBase {
  kind: 'StatefulSet';
  replicas: number;
  selector: LabelSelector;
  serviceName?: string;
  podManagementPolicy: 'OrderedReady' | 'Parallel';
  updateStrategy: 'RollingUpdate' | 'OnDelete';
  volumeClaimTemplates: PersistentVolumeClaimSpec[];
  minReadySeconds: number;
}

export interface DaemonSet extends WorkloadBase {
  kind: 'DaemonSet';
  selector: LabelSelector;
  updateStrategy: 'RollingUpdate' | 'OnDelete';
  minReadySeconds: number;
}

export interface Job extends WorkloadBase {
  kind: 'Job' | 'CronJob';
  parallelism: number;
  completions?: number;
  backoffLimit: number;
  podReplacementPolicy?: 'TerminatingOrFailed' | 'Failed';
  hasPodFailurePolicy: boolean;
  /** spec.podFailurePolicy.rules, in order. */
  podFailureRules: PodFailurePolicyRule[];
  activeDeadlineSeconds?: number;
  /** CronJob only. */
  schedule?: string;
}

export interface BarePod extends WorkloadBase {
  kind: 'Pod';
  /** Owner references present: the Pod is managed by something else. */
  ownerKinds: string[];
}

export type Workload = Deployment | ReplicaSet | StatefulSet | DaemonSet | Job | BarePod;
export type WorkloadKind = Workload['kind'];

export interface PersistentVolume {
  name: string;
  accessModes: string[];
  storageClassName?: string;
  capacityBytes?: number;
  nodeAffinity: NodeSelectorTerm[];
  local: boolean;
  hostPath?: string;
  claimRef?: { namespace: string; name: string };
}

/** A PriorityClass (scheduling.k8s.io): the priority admission gives its value and preemptionPolicy to the pods that name it. */
export interface PriorityClass {
  name: string;
  value: number;
  globalDefault: boolean;
  preemptionPolicy: 'PreemptLowerPriority' | 'Never';
}

/** A Namespace object: its labels are what a pod affinity term's namespaceSelector matches. */
export interface Namespace {
  name: string;
  labels: Record<string, string>;
}

export interface StorageClass {
  name: string;
  provisioner: string;
  volumeBindingMode: 'Immediate' | 'WaitForFirstConsumer';
  reclaimPolicy: 'Delete' | 'Retain' | 'Recycle';
  isDefault: boolean;
}

/** A HorizontalPodAutoscaler (autoscaling/v1 or v2): it owns its target's replica count. */
export interface HorizontalPodAutoscaler extends ObjectMeta {
  target: { kind: string; name: string };
  /** At least this many replicas (default 1). */
  minReplicas: number;
}

/** A LimitRange's defaults for containers: the LimitRanger admission plugin writes them into pods of its namespace that set none. */
export interface LimitRange extends ObjectMeta {
  /** `default`: limits given to a container that sets none. */
  defaultLimits: Resources;
  /** `defaultRequest` (or, when absent, `default`): requests given to a container that sets none. */
  defaultRequests: Resources;
}

export interface PodDisruptionBudget extends ObjectMeta {
  selector: LabelSelector;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

export interface ServicePort {
  port: number;
  targetPort?: number | string;
  name?: string;
  /** TCP unless written (UDP, SCTP). */
  protocol?: string;
}

export interface Service extends ObjectMeta {
  selector: Record<string, string>;
  type: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  headless: boolean;
  ports: ServicePort[];
  publishNotReadyAddresses: boolean;
}

export interface Node {
  name: string;
  labels: Record<string, string>;
  taints: Taint[];
  allocatable: { cpuMillis?: number; memoryBytes?: number; pods?: number; extended?: Readonly<Record<string, number>> };
  unschedulable: boolean;
  /** The Ready condition's status where the object has one (kubectl get nodes -o yaml). */
  ready?: string;
}

/** A Job's podFailurePolicy rule: what a failed pod matching it does to the Job. */
export interface PodFailurePolicyRule {
  action: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
  /** Condition types and statuses (default True) the failed pod must have one of. */
  onPodConditions: { type: string; status: string }[];
  /**
   * The rule matches on exit codes instead: a container (the named one, if any) that ended with a
   * non-zero code In or NotIn the values. Never for a pod whose node failed: the codes are lost.
   */
  onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] };
}
