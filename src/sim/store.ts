/**
 * The API server and etcd: objects by kind and name, the writes components make, and change
 * notifications. Every write is recorded in the trace. Components never call each other;
 * they meet here (STYLE.md).
 */
import type { Clock } from './engine';
import { formatTaint, nodeStatus, podReady, podStatus } from './kubectl';
import { isActive, type ConditionStatus, type Host, type NodeTaint, type SimNode, type SimPod, type SimService, type SimVolume, type SimWorkload } from './objects';
import type { TraceEventType, TraceRecorder } from './trace';

export type PodChange = 'created' | 'bound' | 'status' | 'ready' | 'condition' | 'deleting' | 'removed';
export type NodeChange = 'ready' | 'taints' | 'deleted' | 'lease';

type PodListener = (pod: SimPod, change: PodChange) => void;
type NodeListener = (node: SimNode, change: NodeChange) => void;
type HostListener = (node: SimNode) => void;
type VolumeListener = (volume: SimVolume) => void;

export interface PodStatusPatch {
  phase?: SimPod['phase'];
  reason?: string | undefined;
  containerState?: SimPod['containerState'];
  containerReason?: string | undefined;
  containersReady?: boolean;
  ready?: boolean;
  ip?: string | undefined;
  restartCount?: number;
}

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
  private nextUid = 1;
  private readonly podListeners: PodListener[] = [];
  private readonly nodeListeners: NodeListener[] = [];
  private readonly hostListeners: HostListener[] = [];
  private readonly volumeListeners: VolumeListener[] = [];
  /** Called on every pod change before the listeners, for serving metrics. */
  onPodObserved: (pod: SimPod) => void = () => {};

  constructor(readonly clock: Clock, readonly trace: TraceRecorder) {}

  get now(): number {
    return this.clock.now;
  }

  onPod(listener: PodListener): void {
    this.podListeners.push(listener);
  }

  onNode(listener: NodeListener): void {
    this.nodeListeners.push(listener);
  }

  onHost(listener: HostListener): void {
    this.hostListeners.push(listener);
  }

  onVolume(listener: VolumeListener): void {
    this.volumeListeners.push(listener);
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
    this.recordNode(node);
  }

  /** A pod that already runs when the simulation starts: no events, one initial state. */
  addRunningPod(pod: SimPod, node: SimNode): void {
    pod.owner?.pods.push(pod);
    if (pod.owner && pod.readyCondition) {
      pod.countedReady = true;
      pod.owner.readyPods++;
    }
    this.assign(pod, node);
    this.recordPod(pod);
    this.onPodObserved(pod);
  }

  createPod(pod: SimPod, creator: string): void {
    pod.owner?.pods.push(pod);
    if (pod.replacement && pod.owner) this.touchedWorkloads.add(pod.owner);
    this.event(pod.ref, 'PodCreated', 'SuccessfulCreate', `Created pod: ${pod.name}`, { owner: pod.owner ? `${pod.owner.kind}/${pod.owner.name}` : null, by: creator });
    this.podChanged(pod, 'created');
  }

  bindPod(pod: SimPod, node: SimNode): void {
    if (pod.removed || pod.nodeName) return;
    this.assign(pod, node);
    pod.pendingMessage = undefined;
    this.event(pod.ref, 'PodScheduled', 'Scheduled', `Successfully assigned ${pod.namespace}/${pod.name} to ${node.name}`, { node: node.name });
    this.podChanged(pod, 'bound');
  }

  private assign(pod: SimPod, node: SimNode): void {
    pod.nodeName = node.name;
    pod.node = node;
    pod.nodeSlot = node.pods.length;
    node.pods.push(pod);
  }

  /** The scheduler's FailedScheduling, recorded when the message changes. */
  podUnschedulable(pod: SimPod, message: string): void {
    if (pod.pendingMessage === message) return;
    pod.pendingMessage = message;
    this.event(pod.ref, 'PodPending', 'FailedScheduling', message);
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
    if (patch.containersReady !== undefined) pod.containersReady = patch.containersReady;
    if (patch.ready !== undefined) pod.readyCondition = patch.ready;
    if ('ip' in patch) pod.ip = patch.ip;
    if (patch.restartCount !== undefined && patch.restartCount !== pod.restartCount) {
      pod.restartCount = patch.restartCount;
      this.event(pod.ref, 'PodRestarted', 'Started', `Container restarted in place (restart ${pod.restartCount}) with IP ${pod.ip ?? '<none>'}`, { restartCount: pod.restartCount });
    }
    const isRunning = pod.phase === 'Running' && pod.containerState === 'running';
    if (isRunning && !wasRunning) this.event(pod.ref, 'PodRunning', 'Started', `Container running on ${pod.nodeName} with IP ${pod.ip ?? '<none>'}`, { node: pod.nodeName, ip: pod.ip ?? null });
    if (pod.phase === 'Failed' && wasPhase !== 'Failed') this.event(pod.ref, 'PodFailed', pod.reason ?? 'Failed', `Pod phase Failed${pod.reason ? ` (${pod.reason})` : ''}`);
    if (pod.readyCondition !== wasReady) {
      if (pod.readyCondition) this.event(pod.ref, 'PodReady', 'Ready', 'Pod is Ready', { node: pod.nodeName });
      else this.event(pod.ref, 'PodCondition', 'NotReady', 'Ready=False', { type: 'Ready', status: 'False', node: pod.nodeName });
    }
    this.podChanged(pod, pod.readyCondition !== wasReady ? 'ready' : 'status');
  }

  /** The node lifecycle controller's MarkPodsNotReady: only the Ready condition changes. */
  markPodNotReady(pod: SimPod, reason: string): boolean {
    if (pod.removed || !pod.readyCondition) return false;
    pod.readyCondition = false;
    this.event(pod.ref, 'PodCondition', reason, 'Ready=False (Node is not ready)', this.notReadyDetail(pod.nodeName));
    this.podChanged(pod, 'ready');
    return true;
  }

  addDisruptionTarget(pod: SimPod, reason: string, message: string): void {
    if (pod.removed) return;
    pod.disruptionTarget = reason;
    this.event(pod.ref, 'PodCondition', reason, message, { type: 'DisruptionTarget', status: 'True' });
    this.podChanged(pod, 'condition');
  }

  /** DELETE with a grace period: sets deletionTimestamp (grace > 0) or removes the object (grace 0). */
  deletePod(pod: SimPod, graceSeconds: number, by: string): void {
    if (pod.removed) return;
    if (graceSeconds <= 0) {
      this.removePod(pod, by);
      return;
    }
    if (pod.deletionTimestamp !== undefined) return;
    pod.deletionTimestamp = this.now + graceSeconds * 1000;
    pod.deletionGracePeriodSeconds = graceSeconds;
    this.terminatingPods.add(pod);
    this.event(pod.ref, 'PodDeletionStarted', 'Terminating', `Deletion requested by ${by} with grace period ${graceSeconds}s; the object stays until the kubelet confirms`, { gracePeriodSeconds: graceSeconds, by, node: pod.nodeName ?? null });
    this.podChanged(pod, 'deleting');
  }

  removePod(pod: SimPod, by: string): void {
    if (pod.removed) return;
    pod.removed = true;
    this.terminatingPods.delete(pod);
    const node = pod.node;
    if (node && node.pods[pod.nodeSlot] === pod) {
      const last = node.pods.pop()!;
      if (last !== pod) {
        node.pods[pod.nodeSlot] = last;
        last.nodeSlot = pod.nodeSlot;
      }
    }
    this.event(pod.ref, 'PodRemoved', 'Deleted', `Pod object removed (${by})`, { by });
    this.podChanged(pod, 'removed');
    this.trace.end(pod);
  }

  setNodeReady(node: SimNode, status: ConditionStatus, reason: string, message: string): void {
    if (node.ready === status || node.deleted) return;
    node.ready = status;
    node.readyReason = reason;
    node.readyTransition = this.now;
    this.event(node.ref, 'NodeCondition', reason, message, { type: 'Ready', status, reason });
    this.nodeChanged(node, 'ready');
  }

  addTaint(node: SimNode, taint: NodeTaint, by: string): void {
    if (node.deleted || node.taints.some((t) => t.key === taint.key && t.effect === taint.effect)) return;
    node.taints = [...node.taints, { ...taint, timeAdded: this.now }];
    this.event(node.ref, 'TaintAdded', 'TaintAdded', `Taint ${formatTaint(taint)} added by ${by}`, { key: taint.key, effect: taint.effect, value: taint.value, by });
    this.nodeChanged(node, 'taints');
  }

  removeTaint(node: SimNode, key: string, effect: string, by: string): void {
    const taint = node.taints.find((t) => t.key === key && t.effect === effect);
    if (!taint || node.deleted) return;
    node.taints = node.taints.filter((t) => t !== taint);
    this.event(node.ref, 'TaintRemoved', 'TaintRemoved', `Taint ${formatTaint(taint)} removed by ${by}`, { key, effect, by });
    this.nodeChanged(node, 'taints');
  }

  deleteNode(node: SimNode, by: string): void {
    if (node.deleted) return;
    node.deleted = true;
    this.nodeByName.delete(node.name);
    this.event(node.ref, 'NodeDeleted', 'RemovingNode', `Node ${node.name} deleted by ${by}`, { by });
    this.nodeChanged(node, 'deleted');
    this.trace.end(node);
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

  /** The outside world changes a host (faults); only the node's kubelet and the metrics notice. */
  setHost(node: SimNode, patch: Partial<Host>): void {
    Object.assign(node.host, patch);
    for (const listener of this.hostListeners) listener(node);
    for (const pod of node.pods) this.onPodObserved(pod);
  }

  /** A container started or stopped on a host: not an API change, but it decides who can answer. */
  setPodRuntime(pod: SimPod, running: boolean, appReady: boolean, why?: string): void {
    if (pod.running === running && pod.appReady === appReady) return;
    const stopped = pod.running && !running;
    pod.running = running;
    pod.appReady = appReady;
    if (stopped && why) this.event(pod.ref, 'PodStopped', 'Killing', why);
    this.onPodObserved(pod);
  }

  /** VolumeAttachment: the attach-detach controller attaches or detaches a volume. */
  setVolumeAttachment(volume: SimVolume, node: string | undefined, how: string): void {
    const previous = volume.attachedTo;
    if (previous === node) return;
    const requestedAt = volume.detachRequestedAt;
    volume.attachedTo = node;
    volume.detachRequestedAt = undefined;
    const ref = { kind: 'PersistentVolume', name: volume.name, namespace: '' };
    if (node === undefined) this.event(ref, 'VolumeDetached', 'Detached', `Volume ${volume.name} detached from ${previous} (${how})`, { node: previous ?? null, how, detachRequestedMs: requestedAt ?? null });
    else this.event(ref, 'VolumeAttached', 'Attached', `Volume ${volume.name} attached to ${node}`, { node });
    for (const listener of this.volumeListeners) listener(volume);
  }

  /** A Kubernetes Event (kubectl get events) or a note of the simulator. */
  event(object: { kind: string; name: string; namespace: string }, type: TraceEventType, reason: string, message: string, detail?: Record<string, unknown>): void {
    this.trace.event(object, type, reason, message, detail);
  }

  /** One shared detail per node: a failed node marks many pods NotReady at once. */
  private readonly notReadyDetails = new Map<string | undefined, Record<string, unknown>>();

  private notReadyDetail(node: string | undefined): Record<string, unknown> {
    let detail = this.notReadyDetails.get(node);
    if (!detail) this.notReadyDetails.set(node, (detail = Object.freeze({ type: 'Ready', status: 'False', node })));
    return detail;
  }

  private podChanged(pod: SimPod, change: PodChange): void {
    if (!pod.removed) this.recordPod(pod);
    this.onPodObserved(pod);
    const owner = pod.owner;
    const countsReady = isActive(pod) && pod.readyCondition;
    if (owner && countsReady !== pod.countedReady) {
      pod.countedReady = countsReady;
      owner.readyPods += countsReady ? 1 : -1;
      this.recordWorkload(owner);
    }
    for (const listener of this.podListeners) listener(pod, change);
  }

  private nodeChanged(node: SimNode, change: NodeChange): void {
    if (!node.deleted) this.recordNode(node);
    for (const listener of this.nodeListeners) listener(node, change);
  }

  recordPod(pod: SimPod): void {
    this.trace.state(pod, {
      status: podStatus(pod), ready: podReady(pod), restarts: pod.restartCount, node: pod.nodeName ?? '<none>', ip: pod.ip ?? '<none>',
    });
  }

  recordNode(node: SimNode): void {
    this.trace.state(node, { status: nodeStatus(node), ready: node.ready, taints: node.taints.map(formatTaint) });
  }

  recordWorkload(workload: SimWorkload): void {
    if (workload.kind === 'Pod') return; // a bare pod's own state says it all
    const ready = workload.readyPods;
    this.trace.state(workload, { status: `${ready}/${workload.desired} ready`, ready: `${ready}/${workload.desired}` });
  }
}
