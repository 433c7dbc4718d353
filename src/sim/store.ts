/**
 * The API server and etcd: objects by kind and name, the writes components make, admission
 * defaults, and change notifications. Components never call each other; they meet here
 * (STYLE.md). The trace and the serving metrics are watchers like any controller.
 */
import type { Toleration } from '../manifest/model/types';
import type { Clock } from './engine';
import { isActive, type ConditionStatus, type EndpointState, type Host, type NodeTaint, type PodTemplateSim, type SimNode, type SimPod, type SimService, type SimVolume, type SimWorkload } from './objects';
import { withDefaultTolerations } from './tolerations';
import type { ObjectRef, TraceEventType } from './trace';

/** `existing`: the pod ran before the simulation started. */
export type PodChange = 'existing' | 'created' | 'bound' | 'status' | 'ready' | 'condition' | 'deleting' | 'removed';
export type NodeChange = 'added' | 'ready' | 'taints' | 'deleted' | 'lease';

type PodListener = (pod: SimPod, change: PodChange) => void;
type NodeListener = (node: SimNode, change: NodeChange) => void;
type Listener<T> = (item: T) => void;
export type EventListener = (object: ObjectRef, type: TraceEventType, reason: string, detail: Record<string, unknown> | undefined) => void;

export interface PodStatusPatch {
  phase?: SimPod['phase'];
  reason?: string | undefined;
  containerState?: SimPod['containerState'];
  containerReason?: string | undefined;
  containersReady?: boolean;
  ready?: boolean;
  ip?: string | undefined;
  restartCount?: number;
  /** The app containers' exit code once terminated, where the kubelet reports one. */
  exitCode?: number;
}

/** Who deleted a pod or a node, and why a container stopped: the trace words them. */
export type PodStopCause = 'deleted' | 'housekeeping' | 'shutdown' | 'liveness';
export type DetachCause = 'unmounted' | 'out-of-service' | 'force-detach-timeout';

export interface AdmissionConfig {
  notReadyTolerationSeconds: number;
  unreachableTolerationSeconds: number;
}

const NO_PODS: readonly SimPod[] = [];

export class Store {
  readonly nodes: SimNode[] = [];
  readonly nodeByName = new Map<string, SimNode>();
  readonly workloads: SimWorkload[] = [];
  readonly services: SimService[] = [];
  readonly volumes: SimVolume[] = [];
  /** Workloads with a pod on a failed node or a pod created after the failure (the summary reads only these). */
  readonly touchedWorkloads = new Set<SimWorkload>();
  /** Pods with a deletionTimestamp that still exist (pod GC looks at these). */
  readonly terminatingPods = new Set<SimPod>();
  /** Pods the scheduler deleted to make room for pods of a higher priority: for whom, on which node, when. */
  readonly preemptions: { victim: SimPod; by: SimPod; node: SimNode; atMs: number }[] = [];
  /** Pending pods by their status.nominatedNodeName: each holds room on its node (the scheduler's nominator). */
  private readonly nominated = new Map<SimNode, Set<SimPod>>();
  private nextUid = 1;
  private readonly podListeners: PodListener[] = [];
  private readonly nodeListeners: NodeListener[] = [];
  private readonly workloadListeners: Listener<SimWorkload>[] = [];
  private readonly endpointListeners: Listener<SimService>[] = [];
  private readonly podEndpointListeners: ((pod: SimPod) => void)[] = [];
  private readonly runtimeListeners: Listener<SimPod>[] = [];
  private readonly hostListeners: Listener<SimNode>[] = [];
  private readonly volumeListeners: Listener<SimVolume>[] = [];
  private readonly eventListeners: EventListener[] = [];
  /** Identical toleration lists are shared, so that caches keyed on them serve many workloads. */
  private readonly interned = new Map<string, Toleration[]>();

  constructor(readonly clock: Clock, private readonly admission: AdmissionConfig) {}

  get now(): number {
    return this.clock.now;
  }

  onPod(listener: PodListener): void {
    this.podListeners.push(listener);
  }

  onNode(listener: NodeListener): void {
    this.nodeListeners.push(listener);
  }

  /** A workload's ready count changed. */
  onWorkload(listener: Listener<SimWorkload>): void {
    this.workloadListeners.push(listener);
  }

  /** A Service's EndpointSlice changed. */
  /** A pod's endpoint in some Service's slice was written (what kube-proxy routes by). */
  onPodEndpoint(listener: (pod: SimPod) => void): void {
    this.podEndpointListeners.push(listener);
  }

  onEndpoints(listener: Listener<SimService>): void {
    this.endpointListeners.push(listener);
  }

  /** Containers started or stopped on a host, or the host changed: not API changes, but they decide who can answer. */
  onRuntime(listener: Listener<SimPod>): void {
    this.runtimeListeners.push(listener);
  }

  onHost(listener: Listener<SimNode>): void {
    this.hostListeners.push(listener);
  }

  onVolume(listener: Listener<SimVolume>): void {
    this.volumeListeners.push(listener);
  }

  /** Kubernetes Events and the simulator's notes. */
  onEvent(listener: EventListener): void {
    this.eventListeners.push(listener);
  }

  uid(): number {
    return this.nextUid++;
  }

  /** Pods that exist in the API (every pod belongs to a workload, bare pods to their own). */
  *livePods(): Generator<SimPod> {
    for (const workload of this.workloads) for (const pod of workload.pods) if (!pod.removed) yield pod;
  }

  addNode(node: SimNode): void {
    this.nodes.push(node);
    this.nodeByName.set(node.name, node);
    this.nodeChanged(node, 'added');
  }

  /** DefaultTolerationSeconds admission, applied once to a workload's pod template (every pod of it gets the same). */
  admit(template: PodTemplateSim): PodTemplateSim {
    const { notReadyTolerationSeconds, unreachableTolerationSeconds } = this.admission;
    const tolerations = withDefaultTolerations(template.tolerations, notReadyTolerationSeconds, unreachableTolerationSeconds);
    const key = JSON.stringify(tolerations);
    let shared = this.interned.get(key);
    if (!shared) this.interned.set(key, (shared = tolerations));
    return { ...template, tolerations: shared };
  }

  /** A workload whose template has been admitted. */
  addWorkload(workload: SimWorkload): void {
    this.workloads.push(workload);
    this.workloadChanged(workload);
  }

  addService(service: SimService): void {
    this.services.push(service);
  }

  /** A pod that already runs when the simulation starts: no events, one initial state. */
  addRunningPod(pod: SimPod, node: SimNode): void {
    pod.owner?.pods.push(pod);
    this.assign(pod, node);
    this.podChanged(pod, 'existing');
  }

  /**
   * A pod whose template names its node (spec.nodeName) is bound as it is created: no scheduler
   * looks at it, whether that node is Ready, tainted or deleted (pod GC deletes pods of a
   * deleted node). One naming a node the cluster never had is not bound (its pending message says so, scheduler.ts).
   */
  createPod(pod: SimPod, creator: string): void {
    pod.owner?.pods.push(pod);
    if (pod.replacement && pod.owner) this.touchedWorkloads.add(pod.owner);
    const pinned = pod.template.nodeName === undefined ? undefined : this.nodeNamed(pod.template.nodeName);
    if (pinned) this.assign(pod, pinned);
    this.event(pod.ref, 'PodCreated', 'SuccessfulCreate', { owner: pod.owner ? `${pod.owner.kind}/${pod.owner.name}` : null, by: creator });
    this.podChanged(pod, 'created');
    if (pinned) this.podChanged(pod, 'bound');
  }

  /** The node of that name, deleted ones included (a deleted node keeps its object here). */
  nodeNamed(name: string): SimNode | undefined {
    return this.nodeByName.get(name) ?? this.nodes.find((n) => n.name === name);
  }

  bindPod(pod: SimPod, node: SimNode): void {
    if (pod.removed || pod.nodeName) return;
    this.nominate(pod, undefined);
    this.assign(pod, node);
    pod.pendingMessage = undefined;
    this.event(pod.ref, 'PodScheduled', 'Scheduled', { node: node.name });
    this.podChanged(pod, 'bound');
  }

  private assign(pod: SimPod, node: SimNode): void {
    pod.nodeName = node.name;
    pod.node = node;
    pod.nodeSlot = node.pods.length;
    node.pods.push(pod);
  }

  /** The scheduler's FailedScheduling (the PodScheduled condition's message), recorded when it changes; with the node it nominated, if any. */
  podUnschedulable(pod: SimPod, message: string): void {
    if (pod.pendingMessage === message) return;
    pod.pendingMessage = message;
    this.event(pod.ref, 'PodPending', 'FailedScheduling', pod.nominatedNode ? { message, nominatedNode: pod.nominatedNode.name } : { message });
  }

  /** status.nominatedNodeName: set where the scheduler preempted pods for this one, cleared when it is bound or gone. */
  nominate(pod: SimPod, node: SimNode | undefined): void {
    const before = pod.nominatedNode;
    if (before === node) return;
    if (before) {
      const pods = this.nominated.get(before)!;
      pods.delete(pod);
      if (pods.size === 0) this.nominated.delete(before);
    }
    pod.nominatedNode = node;
    if (!node) return;
    let pods = this.nominated.get(node);
    if (!pods) this.nominated.set(node, (pods = new Set()));
    pods.add(pod);
  }

  /** The pods nominated to the node; none at all in most runs. */
  nominatedTo(node: SimNode): readonly SimPod[] {
    const pods = this.nominated.size > 0 ? this.nominated.get(node) : undefined;
    return pods ? [...pods] : NO_PODS;
  }

  /** The scheduler chose the pod as a victim for `by` (its deletion follows). */
  preempted(pod: SimPod, by: SimPod, node: SimNode): void {
    this.preemptions.push({ victim: pod, by, node, atMs: this.now });
    if (pod.owner) this.touchedWorkloads.add(pod.owner);
  }

  patchPodStatus(pod: SimPod, patch: PodStatusPatch): void {
    if (pod.removed) return;
    const wasRunning = pod.phase === 'Running' && pod.containerState === 'running';
    const wasReady = pod.readyCondition;
    const wasPhase = pod.phase;
    if (patch.phase !== undefined) pod.phase = patch.phase;
    if ('reason' in patch) pod.reason = patch.reason;
    if (patch.containerState !== undefined) pod.containerState = patch.containerState;
    if ('containerReason' in patch) pod.containerReason = patch.containerReason;
    if ('exitCode' in patch) pod.exitCode = patch.exitCode;
    if (patch.containersReady !== undefined) pod.containersReady = patch.containersReady;
    if (patch.ready !== undefined) pod.readyCondition = patch.ready;
    if (wasReady && !pod.readyCondition) pod.notReadySince = this.now;
    if ('ip' in patch) pod.ip = patch.ip;
    if (patch.restartCount !== undefined && patch.restartCount !== pod.restartCount) {
      pod.restartCount = patch.restartCount;
      this.event(pod.ref, 'PodRestarted', 'Started', { restartCount: pod.restartCount, ip: pod.ip ?? null });
    }
    const isRunning = pod.phase === 'Running' && pod.containerState === 'running';
    if (isRunning && !wasRunning) this.event(pod.ref, 'PodRunning', 'Started', { node: pod.nodeName, ip: pod.ip ?? null });
    if (pod.phase === 'Failed' && wasPhase !== 'Failed') this.event(pod.ref, 'PodFailed', pod.reason ?? 'Failed', { reason: pod.reason ?? null, containerReason: pod.containerReason ?? null });
    if (pod.readyCondition !== wasReady) {
      if (pod.readyCondition) this.event(pod.ref, 'PodReady', 'Ready', { node: pod.nodeName });
      else this.event(pod.ref, 'PodCondition', 'NotReady', { type: 'Ready', status: 'False', node: pod.nodeName });
    }
    // A phase change is what workload controllers act on, even when Ready changed with it.
    this.podChanged(pod, pod.readyCondition !== wasReady && pod.phase === wasPhase ? 'ready' : 'status');
  }

  /** The node lifecycle controller's MarkPodsNotReady: only the Ready condition changes. */
  markPodNotReady(pod: SimPod, reason: string): boolean {
    if (pod.removed || !pod.readyCondition) return false;
    pod.readyCondition = false;
    pod.notReadySince = this.now;
    this.event(pod.ref, 'PodCondition', reason, this.notReadyDetail(pod.nodeName));
    this.podChanged(pod, 'ready');
    return true;
  }

  addDisruptionTarget(pod: SimPod, reason: string, message: string): void {
    if (pod.removed) return;
    pod.disruptionTarget = reason;
    this.event(pod.ref, 'PodCondition', reason, { type: 'DisruptionTarget', status: 'True', message });
    this.podChanged(pod, 'condition');
  }

  /**
   * DELETE with a grace period: sets deletionTimestamp (grace > 0) or removes the object (grace 0).
   * As the API server's CheckGracefulDelete, an unscheduled pod or one in a terminal phase gets
   * grace 0 whatever was asked (pkg/registry/core/pod/strategy.go).
   */
  deletePod(pod: SimPod, graceSeconds: number, by: string): void {
    if (pod.removed) return;
    if (graceSeconds <= 0 || pod.nodeName === undefined || pod.phase === 'Failed' || pod.phase === 'Succeeded') {
      this.removePod(pod, by);
      return;
    }
    if (pod.deletionTimestamp !== undefined) return;
    pod.deletionTimestamp = this.now + graceSeconds * 1000;
    pod.deletionGracePeriodSeconds = graceSeconds;
    this.terminatingPods.add(pod);
    this.event(pod.ref, 'PodDeletionStarted', 'Terminating', { gracePeriodSeconds: graceSeconds, by, node: pod.nodeName ?? null });
    this.podChanged(pod, 'deleting');
  }

  removePod(pod: SimPod, by: string): void {
    if (pod.removed) return;
    pod.removed = true;
    this.nominate(pod, undefined);
    this.terminatingPods.delete(pod);
    const node = pod.node;
    if (node && node.pods[pod.nodeSlot] === pod) {
      const last = node.pods.pop()!;
      if (last !== pod) {
        node.pods[pod.nodeSlot] = last;
        last.nodeSlot = pod.nodeSlot;
      }
    }
    this.event(pod.ref, 'PodRemoved', 'Deleted', { by });
    this.podChanged(pod, 'removed');
  }

  setNodeReady(node: SimNode, status: ConditionStatus, reason: string, message: string): void {
    if (node.ready === status || node.deleted) return;
    node.ready = status;
    node.readyReason = reason;
    node.readyTransition = this.now;
    this.event(node.ref, 'NodeCondition', reason, { type: 'Ready', status, reason, message });
    this.nodeChanged(node, 'ready');
  }

  addTaint(node: SimNode, taint: NodeTaint, by: string): void {
    if (node.deleted || node.taints.some((t) => t.key === taint.key && t.effect === taint.effect)) return;
    node.taints = [...node.taints, { ...taint, timeAdded: this.now }];
    this.event(node.ref, 'TaintAdded', 'TaintAdded', { key: taint.key, effect: taint.effect, value: taint.value, by });
    this.nodeChanged(node, 'taints');
  }

  removeTaint(node: SimNode, key: string, effect: string, by: string): void {
    const taint = node.taints.find((t) => t.key === key && t.effect === effect);
    if (!taint || node.deleted) return;
    node.taints = node.taints.filter((t) => t !== taint);
    this.event(node.ref, 'TaintRemoved', 'TaintRemoved', { key, effect, value: taint.value, by });
    this.nodeChanged(node, 'taints');
  }

  deleteNode(node: SimNode, by: string): void {
    if (node.deleted) return;
    node.deleted = true;
    this.nodeByName.delete(node.name);
    this.event(node.ref, 'NodeDeleted', 'RemovingNode', { by });
    this.nodeChanged(node, 'deleted');
  }

  /**
   * A kubelet registers its deleted Node again: the object as the kubelet writes it, with its
   * labels and any taints it registers with (not the node lifecycle controller's, nor a cordon).
   */
  registerNode(node: SimNode): void {
    if (!node.deleted) return;
    node.deleted = false;
    this.nodeByName.set(node.name, node);
    node.taints = node.taints.filter((t) => !t.key.startsWith('node.kubernetes.io/')).map((t) => ({ ...t, timeAdded: this.now }));
    node.unschedulable = false;
    node.ready = 'True';
    node.readyReason = 'KubeletReady';
    node.readyTransition = this.now;
    this.event(node.ref, 'KubernetesEvent', 'RegisteredNode', { message: `Node ${node.name} event: Registered Node ${node.name} in Controller` });
    this.nodeChanged(node, 'added');
  }

  /** The kubelet's lease stops being renewed (its last renewal is kept) or is renewed again. */
  setLease(node: SimNode, live: boolean, renewTime: number, lastStatusPost: number): void {
    node.lease = { live, renewTime, lastStatusPost };
    this.nodeChanged(node, 'lease');
  }

  /** A fault hits the node a pod runs on: the pod counts as affected in the summary. */
  markAffected(pod: SimPod): void {
    pod.affected = true;
    if (pod.owner) this.touchedWorkloads.add(pod.owner);
  }

  /** The outside world changes a host (faults); only the node's kubelet and the watchers of runtime state notice. */
  setHost(node: SimNode, patch: Partial<Host>): void {
    Object.assign(node.host, patch);
    for (const listener of this.hostListeners) listener(node);
    for (const pod of node.pods) this.runtimeChanged(pod);
  }

  /** A container started or stopped on a host. */
  setPodRuntime(pod: SimPod, running: boolean, appReady: boolean, stopCause?: PodStopCause): void {
    if (pod.running === running && pod.appReady === appReady) return;
    const stopped = pod.running && !running;
    pod.running = running;
    pod.appReady = appReady;
    if (stopped && stopCause) this.event(pod.ref, 'PodStopped', 'Killing', { cause: stopCause, node: pod.nodeName ?? null });
    this.runtimeChanged(pod);
  }

  /** The EndpointSlice controller's initial list: the endpoints of pods running before the simulation starts. */
  initEndpoints(service: SimService, endpoints: Map<SimPod, EndpointState>): void {
    service.endpoints = endpoints;
    service.readyEndpoints = 0;
    for (const endpoint of endpoints.values()) if (endpoint.ready) service.readyEndpoints++;
    for (const pod of endpoints.keys()) for (const listener of this.podEndpointListeners) listener(pod);
    for (const listener of this.endpointListeners) listener(service);
  }

  /** The EndpointSlice controller's write: one endpoint added, changed or removed. */
  setEndpoint(service: SimService, pod: SimPod, endpoint: EndpointState | undefined): void {
    const before = service.endpoints.get(pod);
    if (before?.ready) service.readyEndpoints--;
    if (endpoint) service.endpoints.set(pod, endpoint);
    else service.endpoints.delete(pod);
    if (endpoint?.ready) service.readyEndpoints++;
    const reason = endpoint ? (endpoint.ready ? 'EndpointReady' : 'EndpointNotReady') : 'EndpointRemoved';
    this.event(service.ref, 'EndpointChanged', reason, { pod: pod.name, ip: pod.ip ?? null, ...(endpoint ? { ...endpoint, added: before === undefined } : { removed: true }) });
    for (const listener of this.podEndpointListeners) listener(pod);
    for (const listener of this.endpointListeners) listener(service);
  }

  /** VolumeAttachment: the attach-detach controller attaches or detaches a volume. */
  setVolumeAttachment(volume: SimVolume, node: string | undefined, cause?: DetachCause): void {
    const previous = volume.attachedTo;
    if (previous === node) return;
    const requestedAt = volume.detachRequestedAt;
    volume.attachedTo = node;
    volume.detachRequestedAt = undefined;
    volume.forceDetach = undefined;
    const ref = { kind: 'PersistentVolume', name: volume.name, namespace: '' };
    if (node === undefined) this.event(ref, 'VolumeDetached', 'Detached', { node: previous ?? null, cause: cause ?? null, detachRequestedMs: requestedAt ?? null });
    else this.event(ref, 'VolumeAttached', 'Attached', { node });
    for (const listener of this.volumeListeners) listener(volume);
  }

  /** A Kubernetes Event (its message, where Kubernetes writes one, in detail.message) or a note of the simulator. */
  event(object: ObjectRef, type: TraceEventType, reason: string, detail?: Record<string, unknown>): void {
    for (const listener of this.eventListeners) listener(object, type, reason, detail);
  }

  /** One shared detail per node: a failed node marks many pods NotReady at once. */
  private readonly notReadyDetails = new Map<string | undefined, Record<string, unknown>>();

  private notReadyDetail(node: string | undefined): Record<string, unknown> {
    let detail = this.notReadyDetails.get(node);
    if (!detail) this.notReadyDetails.set(node, (detail = Object.freeze({ type: 'Ready', status: 'False', node })));
    return detail;
  }

  private podChanged(pod: SimPod, change: PodChange): void {
    const readyCountChanged = this.countReady(pod);
    for (const listener of this.podListeners) listener(pod, change);
    if (readyCountChanged) this.workloadChanged(pod.owner!);
  }

  /** Keeps the owner's ready count; true when it changed. */
  private countReady(pod: SimPod): boolean {
    const owner = pod.owner;
    const countsReady = isActive(pod) && pod.readyCondition && !(pod.node && owner?.notScheduledOn?.has(pod.node));
    if (owner === undefined || countsReady === pod.countedReady) return false;
    pod.countedReady = countsReady;
    owner.readyPods += countsReady ? 1 : -1;
    return true;
  }

  /**
   * The DaemonSet controller's status (updateDaemonSetStatus) after it looked at `nodes`: the
   * nodes it should run on (desiredNumberScheduled), and numberReady, which counts only their
   * pods: a Ready daemon pod on a tainted node is not counted.
   */
  setDaemonSetStatus(workload: SimWorkload, shouldRunOn: ReadonlySet<SimNode>, nodes: Iterable<SimNode>): void {
    const excluded = (workload.notScheduledOn ??= new Set());
    let changed = workload.desiredNumberScheduled !== shouldRunOn.size;
    workload.desiredNumberScheduled = shouldRunOn.size;
    for (const node of nodes) {
      const shouldRun = shouldRunOn.has(node);
      if (excluded.has(node) !== shouldRun) continue;
      if (shouldRun) excluded.delete(node);
      else excluded.add(node);
      for (const pod of node.pods) if (pod.owner === workload && this.countReady(pod)) changed = true;
    }
    if (changed) this.workloadChanged(workload);
  }

  private workloadChanged(workload: SimWorkload): void {
    for (const listener of this.workloadListeners) listener(workload);
  }

  private runtimeChanged(pod: SimPod): void {
    for (const listener of this.runtimeListeners) listener(pod);
  }

  private nodeChanged(node: SimNode, change: NodeChange): void {
    for (const listener of this.nodeListeners) listener(node, change);
  }
}
