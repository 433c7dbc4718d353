/**
 * The lanes of pods, workloads and Services' endpoints. Each keeps its object's share of the
 * trace and works out what drawing it takes (pod bars, node-down spans, READY and endpoint steps,
 * event markers, replacement links) the first time that is read: the first frame of a 1,000-pod
 * trace shows a few dozen of its 1,400 lanes, and working out every lane before that frame took
 * 10-15 ms of it (npm run bench:timeline).
 */
import type { EventJson, ObjectRef, StateInterval, WorkloadSummaryJson } from '../contract';
import type { PackedTrace } from '../packedTrace';
import type { CountStep, EndpointsLane, Marker, NodeLane, PodBar, PodLane, Span, WorkloadLane } from './model';
import { podStatusCategory } from './statusCategory';

export const NONE = '<none>';

function count(text: string | undefined): { ready: number; total: number } | null {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? '');
  return match ? { ready: Number(match[1]), total: Number(match[2]) } : null;
}

/**
 * A pod's Ready condition as 0/1 steps: its bars that are Running and ready, cut where its events
 * turn the condition False (the node lifecycle controller's NodeNotReady, the kubelet's NotReady)
 * until it turns True again; kubectl's READY column keeps counting containers meanwhile.
 */
function readyConditionSteps(pod: PodLane): CountStep[] {
  const flips = pod.events.filter((e) => e.type === 'PodReady' || (e.type === 'PodCondition' && (e.reason === 'NodeNotReady' || e.reason === 'NotReady')));
  return pod.bars.flatMap((bar) => {
    const end = bar.toMs ?? Infinity;
    const cuts = [bar.fromMs, ...flips.map((e) => e.t).filter((t) => t > bar.fromMs && t < end)];
    return cuts.map((from, i) => {
      const last = flips.filter((e) => e.t <= from).at(-1);
      const conditionReady = last === undefined || last.type === 'PodReady';
      return { fromMs: from, toMs: i + 1 < cuts.length ? cuts[i + 1] : bar.toMs, ready: bar.category === 'ready' && conditionReady ? 1 : 0, total: 1 };
    });
  });
}

function countSteps(states: readonly StateInterval[]): CountStep[] {
  return states.flatMap((s) => {
    const value = count(s.ready);
    return value ? [{ fromMs: s.from, toMs: s.to, ...value }] : [];
  });
}

/**
 * The events of each object, by the packed trace's object index; made into event objects the first
 * time a lane asks.
 */
export class EventsByObject {
  private readonly indices: number[][] = [];
  private readonly made: EventJson[][] = [];

  constructor(private readonly trace: PackedTrace) {}

  add(event: number, object: number): void {
    const list = this.indices[object];
    if (list) list.push(event);
    else this.indices[object] = [event];
  }

  of(object: number): readonly EventJson[] {
    return (this.made[object] ??= (this.indices[object] ?? []).map((i) => this.trace.event(i)));
  }
}

/** What the lanes of a trace are drawn from. */
export interface LaneSources {
  trace: PackedTrace;
  nodes: ReadonlyMap<string, NodeLane>;
  events: EventsByObject;
}

function podBar(state: StateInterval): PodBar {
  return {
    fromMs: state.from, toMs: state.to, status: state.status, ready: state.ready ?? '', restarts: state.restarts ?? 0,
    node: state.node ?? NONE, ip: state.ip ?? NONE, category: podStatusCategory(state.status, state.ready),
  };
}

/**
 * The parts of a pod's life its node spent down: with Ready other than True, or broken by the
 * failure before the API says so. A Node object deleted while not Ready stays down for its pods:
 * the machine did not come back.
 */
function nodeDownSpans(bars: readonly PodBar[], nodes: ReadonlyMap<string, NodeLane>): Span[] {
  const spans: Span[] = [];
  for (const bar of bars) {
    const node = nodes.get(bar.node);
    if (!node) continue;
    const barEnd = bar.toMs ?? Infinity;
    for (const down of downIntervals(node)) {
      const downEnd = down.toMs ?? Infinity;
      if (downEnd <= bar.fromMs || down.fromMs >= barEnd) continue;
      const fromMs = Math.max(bar.fromMs, down.fromMs);
      const end = Math.min(barEnd, downEnd);
      const toMs = end === Infinity ? null : end;
      const last = spans[spans.length - 1];
      if (last && last.toMs === fromMs) last.toMs = toMs;
      else spans.push({ fromMs, toMs });
    }
  }
  return spans;
}

/** A node's down times in order, overlapping ones merged. */
function downIntervals(node: NodeLane): Span[] {
  const final = node.bands[node.bands.length - 1];
  const bands = final && final.toMs !== null && final.condition !== 'True' ? [...node.bands, { ...final, fromMs: final.toMs, toMs: null }] : node.bands;
  const all = [...bands.filter((b) => b.condition !== 'True'), ...node.broken].sort((a, b) => a.fromMs - b.fromMs);
  const merged: Span[] = [];
  for (const { fromMs, toMs } of all) {
    const last = merged[merged.length - 1];
    if (last && (last.toMs === null || last.toMs >= fromMs)) last.toMs = last.toMs === null || toMs === null ? null : Math.max(last.toMs, toMs);
    else merged.push({ fromMs, toMs });
  }
  return merged;
}

/** When a pod stopped counting for its workload: deletion started, or the object went away. */
function leftAt(pod: PodLane): number | null {
  const terminating = pod.bars.find((b) => b.category === 'terminating' || b.category === 'unknown' || b.category === 'failed');
  return terminating ? terminating.fromMs : pod.removedMs;
}

/**
 * Each pod created during the run replaces an earlier one of its workload: the previous object
 * of the same name (StatefulSet), else the earliest pod that had left by then and is not yet
 * replaced, preferring pods on the failed nodes. Pod lane id -> the id of the one it replaces.
 */
function linkReplacements(pods: readonly PodLane[], startMs: number): Map<string, string> {
  const links = new Map<string, string>();
  const replaced = new Set<string>();
  const lastOfName = new Map<string, PodLane>();
  for (const pod of [...pods].sort((a, b) => a.createdMs - b.createdMs)) {
    const sameName = lastOfName.get(pod.ref.name);
    lastOfName.set(pod.ref.name, pod);
    if (pod.createdMs <= startMs) continue;
    if (sameName) {
      links.set(pod.id, sameName.id);
      replaced.add(sameName.id);
      continue;
    }
    const candidates = pods
      .filter((p) => p !== pod && !replaced.has(p.id) && p.createdMs < pod.createdMs)
      .map((p) => ({ p, left: leftAt(p) }))
      .filter((c): c is { p: PodLane; left: number } => c.left !== null && c.left <= pod.createdMs)
      .sort((a, b) => Number(b.p.onFailedNode) - Number(a.p.onFailedNode) || a.left - b.left);
    if (candidates.length > 0) {
      links.set(pod.id, candidates[0].p.id);
      replaced.add(candidates[0].p.id);
    }
  }
  return links;
}

/** A pod object's lane. */
export class PodObjectLane implements PodLane {
  private drawnBars: PodBar[] | undefined;
  private drawnNodeDown: Span[] | undefined;
  private drawnEvents: Marker[] | undefined;

  constructor(
    readonly id: string, readonly ref: ObjectRef, private readonly object: number, readonly onFailedNode: boolean,
    /** Its states' indices in the packed trace, and when the first begins. */
    private readonly states: readonly number[], readonly createdMs: number,
    /** Its events are those of its name from this time on, up to the next object's creation. */
    private readonly eventsFromMs: number, private readonly eventsToMs: number,
    private readonly sources: LaneSources, private readonly workload: WorkloadObjectLane | null,
  ) {}

  get removedMs(): number | null {
    return this.sources.trace.stateTo(this.states[this.states.length - 1]);
  }

  get bars(): PodBar[] {
    return (this.drawnBars ??= this.states.map((i) => podBar(this.sources.trace.state(i))));
  }

  get nodeDown(): Span[] {
    return (this.drawnNodeDown ??= nodeDownSpans(this.bars, this.sources.nodes));
  }

  get events(): Marker[] {
    return (this.drawnEvents ??= this.sources.events.of(this.object).filter((e) => e.t >= this.eventsFromMs && e.t < this.eventsToMs));
  }

  get replaces(): string | null {
    return this.workload?.replacements().get(this.id) ?? null;
  }
}

/** A workload's lane: its pods' replacement links are worked out for all of them at once. */
export class WorkloadObjectLane implements WorkloadLane {
  affected = false;
  readonly pods: PodObjectLane[] = [];
  readonly endpoints: EndpointsLane[] = [];
  private drawnSteps: CountStep[] | undefined;
  private drawnEvents: Marker[] | undefined;
  private links: Map<string, string> | undefined;

  constructor(
    readonly id: string, readonly ref: ObjectRef, readonly summary: WorkloadSummaryJson | null,
    /** Its object in the packed trace (none: no state or event names it) and its states' indices. */
    private readonly object: number | undefined, private readonly states: readonly number[],
    /** False for a bare pod's workload: the pod's lane has the events. */
    private readonly hasEvents: boolean, private readonly startMs: number, private readonly sources: LaneSources,
  ) {}

  get readySteps(): CountStep[] {
    if (!this.drawnSteps) {
      const steps = countSteps(this.states.map((i) => this.sources.trace.state(i)));
      // A bare pod has no READY count of its own in the trace: its pod's Ready condition is the count.
      this.drawnSteps = steps.length > 0 ? steps : this.pods.flatMap(readyConditionSteps);
    }
    return this.drawnSteps;
  }

  get events(): Marker[] {
    return (this.drawnEvents ??= this.hasEvents && this.object !== undefined ? [...this.sources.events.of(this.object)] : []);
  }

  /** Pod lane id -> the id of the pod lane it replaces. */
  replacements(): ReadonlyMap<string, string> {
    return (this.links ??= linkReplacements(this.pods, this.startMs));
  }
}

export class EndpointsObjectLane implements EndpointsLane {
  private drawnSteps: CountStep[] | undefined;
  private drawnEvents: Marker[] | undefined;

  constructor(readonly ref: ObjectRef, private readonly object: number, private readonly states: readonly number[], private readonly sources: LaneSources) {}

  get steps(): CountStep[] {
    return (this.drawnSteps ??= countSteps(this.states.map((i) => this.sources.trace.state(i))));
  }

  get events(): Marker[] {
    return (this.drawnEvents ??= [...this.sources.events.of(this.object)]);
  }
}
