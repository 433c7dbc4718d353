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

function sameState(a: ObjectState, b: ObjectState): boolean {
  return a.status === b.status && a.ready === b.ready && a.restarts === b.restarts && a.node === b.node && a.ip === b.ip
    && (a.taints ?? []).join() === (b.taints ?? []).join();
}

export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  private readonly closed: StateInterval[] = [];
  private readonly open = new Map<string, StateInterval>();

  constructor(private readonly now: () => number) {}

  event(object: ObjectRef, type: TraceEventType, reason: string, message: string, detail?: Record<string, unknown>): void {
    const event: TraceEvent = { t: this.now(), object, type, reason, message };
    if (detail) event.detail = detail;
    this.events.push(event);
  }

  /** Records an object's state; a change closes the previous interval. */
  state(object: ObjectRef, state: ObjectState): void {
    const key = `${object.kind}/${object.namespace}/${object.name}`;
    const current = this.open.get(key);
    if (current && sameState(current, state)) return;
    const now = this.now();
    if (current) {
      if (current.from === now) {
        this.open.set(key, { ...current, ...state, object: current.object, from: now, to: null });
        return;
      }
      current.to = now;
      this.closed.push(current);
    }
    this.open.set(key, { object, from: now, to: null, ...state });
  }

  /** Ends an object's last interval (the object is gone). */
  end(object: ObjectRef): void {
    const key = `${object.kind}/${object.namespace}/${object.name}`;
    const current = this.open.get(key);
    if (!current) return;
    current.to = this.now();
    this.closed.push(current);
    this.open.delete(key);
  }

  /** All intervals, ordered by start time, then object. */
  states(): StateInterval[] {
    const all = [...this.closed, ...this.open.values()];
    return all.sort((a, b) => a.from - b.from || compareText(a.object.kind, b.object.kind) || compareText(a.object.name, b.object.name));
  }
}

/** Code-unit order: the same on every machine (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
