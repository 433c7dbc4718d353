/**
 * The simulation's record: discrete events (with kubectl-like reasons) and state intervals
 * per object, as `kubectl get --watch` would show them, with times in ms since the failure.
 */
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
  message: string;
  detail?: Record<string, unknown>;
}

export interface StateInterval {
  object: ObjectRef;
  from: number;
  to: number | null;
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
    && (a.taints ?? []).join() === (b.taints ?? []).join();
}

export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  /** Every interval in the order it began, which is also the order of start times. */
  private readonly intervals: StateInterval[] = [];

  constructor(private readonly now: () => number) {}

  event(object: ObjectRef, type: TraceEventType, reason: string, message: string, detail?: Record<string, unknown>): void {
    // One literal with every field keeps events (and intervals below) small, fixed-shape objects.
    this.events.push({ t: this.now(), object, type, reason, message, detail });
  }

  /** Records an object's state; a change closes the previous interval. */
  state(object: Traced, state: ObjectState): void {
    const current = object.interval;
    if (current && sameState(current, state)) return;
    const now = this.now();
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
  end(object: Traced): void {
    const current = object.interval;
    if (!current) return;
    current.to = this.now();
    object.interval = undefined;
  }

  /** All intervals, ordered by start time, then by the order they began. */
  states(): StateInterval[] {
    return this.intervals;
  }
}

/** Code-unit order: the same on every machine (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
