/**
 * The simulation's record, taken by watching the store like `kubectl get --watch` and
 * `kubectl get events --watch`: discrete events (reason and structured detail, no wording)
 * and state intervals per object, with times in ms since the failure.
 */
import { formatTaint, nodeStatus, podReady, podStatus } from './kubectl';
import type { Store } from './store';

export interface ObjectRef {
  kind: string;
  name: string;
  namespace: string;
}

export type TraceEventType =
  | 'Fault' | 'Recovery' | 'Intervention' | 'Note'
  | 'NodeCondition' | 'TaintAdded' | 'TaintRemoved' | 'NodeDeleted'
  | 'PodCreated' | 'PodScheduled' | 'PodPending' | 'PodRunning' | 'PodReady' | 'PodCondition'
  | 'PodDeletionStarted' | 'PodRemoved' | 'PodFailed' | 'PodRestarted' | 'PodStopped'
  | 'EndpointChanged' | 'VolumeDetached' | 'VolumeAttached' | 'KubernetesEvent';

export interface TraceEvent {
  t: number;
  object: ObjectRef;
  type: TraceEventType;
  reason: string;
  /** Structured facts; `message` where Kubernetes itself writes one (an Event's or a condition's). */
  detail?: Record<string, unknown>;
}

export interface StateInterval {
  object: ObjectRef;
  from: number;
  to: number | null;
  /** kubectl's STATUS column. */
  status: string;
  ready?: string;
  restarts?: number;
  node?: string;
  ip?: string;
  taints?: string[];
}

export type ObjectState = Omit<StateInterval, 'object' | 'from' | 'to'>;

/** An object whose states the trace records; it holds its open interval. */
export interface Traced {
  ref: ObjectRef;
  interval?: StateInterval;
}

function sameState(a: ObjectState, b: ObjectState): boolean {
  return a.status === b.status && a.ready === b.ready && a.restarts === b.restarts && a.node === b.node && a.ip === b.ip
    && sameList(a.taints ?? NONE, b.taints ?? NONE);
}

const NONE: readonly string[] = [];

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  /** Every interval in the order it began, which is also the order of start times. */
  private readonly intervals: StateInterval[] = [];

  /** Watches the store from before the first object is added. */
  constructor(store: Store) {
    const now = () => store.now;
    store.onEvent((object, type, reason, detail) => {
      // One literal with every field keeps events (and intervals below) small, fixed-shape objects.
      this.events.push({ t: now(), object, type, reason, detail });
    });
    store.onPod((pod, change) => {
      if (change === 'removed') this.end(pod, now());
      else this.state(pod, now(), { status: podStatus(pod), ready: podReady(pod), restarts: pod.restartCount, node: pod.nodeName ?? '<none>', ip: pod.ip ?? '<none>' });
    });
    store.onNode((node, change) => {
      if (change === 'deleted') this.end(node, now());
      else if (change !== 'lease') this.state(node, now(), { status: nodeStatus(node), ready: node.ready, taints: node.taints.map(formatTaint) });
    });
    store.onWorkload((workload) => {
      // A bare pod's own state says it all.
      const desired = workload.desiredNumberScheduled ?? workload.desired;
      if (workload.kind !== 'Pod') this.state(workload, now(), { status: `${workload.readyPods}/${desired} ready`, ready: `${workload.readyPods}/${desired}` });
    });
    store.onEndpoints((service) => {
      const total = service.endpoints.size;
      this.state(service, now(), { status: `${service.readyEndpoints}/${total} ready`, ready: `${service.readyEndpoints}/${total}` });
    });
  }

  /** Records an object's state; a change closes the previous interval. */
  state(object: Traced, now: number, state: ObjectState): void {
    const current = object.interval;
    if (current && sameState(current, state)) return;
    if (current) {
      if (current.from === now) {
        Object.assign(current, state);
        return;
      }
      current.to = now;
    }
    const interval: StateInterval = {
      object: object.ref, from: now, to: null,
      status: state.status, ready: state.ready, restarts: state.restarts, node: state.node, ip: state.ip, taints: state.taints,
    };
    object.interval = interval;
    this.intervals.push(interval);
  }

  /** Ends an object's last interval (the object is gone). */
  private end(object: Traced, now: number): void {
    const current = object.interval;
    if (!current) return;
    current.to = now;
    object.interval = undefined;
  }

  /** All intervals, ordered by start time, then by the order they began. */
  states(): StateInterval[] {
    return this.intervals;
  }
}
