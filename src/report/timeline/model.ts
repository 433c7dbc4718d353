/**
 * A trace (the JSON contract) as the timeline draws it: a lane per node (Ready condition, taints),
 * a group per workload (a bar per pod coloured by its kubectl STATUS, replacements linked to the
 * pods they replace, the READY count as steps, its Service's endpoints), event markers and the
 * key moments of the failure. Pure data, built once per trace; the webview only draws it.
 * Every lane is in place when buildTimeline returns; what drawing one takes is worked out the
 * first time it is read (objectLanes.ts).
 */
import type { EventJson, ObjectRef, WorkloadSummaryJson } from '../contract';
import { PackedTrace, STATE_FIELDS, type PackedReport } from '../packedTrace';
import { EndpointsObjectLane, EventsByObject, NONE, PodObjectLane, WorkloadObjectLane, type LaneSources } from './objectLanes';
import { PodOwners, refKey } from './podOwners';
import type { StatusCategory } from './statusCategory';

/** `toMs` null: the state lasts past the end of the run. */
export interface Span {
  fromMs: number;
  toMs: number | null;
}

export interface PodBar extends Span {
  status: string;
  ready: string;
  restarts: number;
  node: string;
  ip: string;
  category: StatusCategory;
}

/** An event on its lane: the trace's own event object (no copy: a large trace has thousands, built before the first paint). */
export type Marker = Readonly<Pick<EventJson, 't' | 'type' | 'reason' | 'message'>>;

export interface PodLane {
  /** Unique per pod object: a StatefulSet's new `db-0` is a second lane with the same name. */
  id: string;
  ref: ObjectRef;
  bars: PodBar[];
  createdMs: number;
  /** When the object left the API (null: it still exists at the end). */
  removedMs: number | null;
  /** It ran on a node that failed. */
  onFailedNode: boolean;
  /** The lane id of the pod this one replaces. */
  replaces: string | null;
  /** Times its node was not Ready: the API may still say Running 1/1, but nothing answers. */
  nodeDown: Span[];
  events: Marker[];
}

export interface CountStep extends Span {
  ready: number;
  total: number;
}

export interface EndpointsLane {
  ref: ObjectRef;
  steps: CountStep[];
  events: Marker[];
}

export interface WorkloadLane {
  id: string;
  ref: ObjectRef;
  summary: WorkloadSummaryJson | null;
  affected: boolean;
  pods: PodLane[];
  readySteps: CountStep[];
  endpoints: EndpointsLane[];
  events: Marker[];
}

export interface NodeBand extends Span {
  status: string;
  /** The Ready condition: True, False or Unknown. */
  condition: string;
  taints: string[];
}

export interface TaintMarker {
  t: number;
  taint: string;
  added: boolean;
}

export interface NodeLane {
  name: string;
  zone: string | null;
  failed: boolean;
  bands: NodeBand[];
  /** Times its pods answer no one whatever the API says: from a failure that stops them (a power-off, a partition, a dead disk) to the node's return. */
  broken: Span[];
  taints: TaintMarker[];
  events: Marker[];
}

export type KeyMomentKind = 'failure' | 'not-ready' | 'taint' | 'deletion' | 'replacement-ready' | 'recovery' | 'intervention' | 'node-deleted';

export interface KeyMoment {
  t: number;
  kind: KeyMomentKind;
  label: string;
}

export interface Timeline {
  startMs: number;
  endMs: number;
  failedNodes: string[];
  nodes: NodeLane[];
  workloads: WorkloadLane[];
  /** Pods no workload of the trace claims. */
  otherPods: PodLane[];
  /** Services whose pods belong to no workload of the trace. */
  otherEndpoints: EndpointsLane[];
  keyMoments: KeyMoment[];
  /** Events of no drawn object (zone states, cluster notes, the controller-manager's lease), with the object they are about. */
  otherEvents: (Marker & Readonly<Pick<EventJson, 'object'>>)[];
  /** Each event's place in the trace (markers are the trace's own event objects): the order within one millisecond. */
  readonly traceOrder: ReadonlyMap<Marker, number>;
}

const NON_WORKLOAD_KINDS = new Set(['Pod', 'Node', 'EndpointSlice', 'Cluster']);

/** The event types that can make a key moment. */
const MOMENT_TYPES = new Set(['Fault', 'NodeCondition', 'TaintAdded', 'Recovery', 'Intervention', 'NodeDeleted']);

function taintText(detail: Record<string, unknown> | undefined): string {
  const value = typeof detail?.value === 'string' && detail.value ? `=${detail.value}` : '';
  return `${String(detail?.key ?? '?')}${value}:${String(detail?.effect ?? '?')}`;
}

/** Failures after which a node's pods answer no one at once; a stopped kubelet or container runtime leaves the containers serving. */
const SERVING_STOPS = new Set(['power-off', 'zone-outage', 'partition', 'disk-failure', 'graceful-shutdown']);

function brokenSpans(markers: readonly Marker[]): Span[] {
  const spans: Span[] = [];
  for (const e of markers) {
    const open = spans.length > 0 && spans[spans.length - 1].toMs === null;
    if (e.type === 'Fault' && SERVING_STOPS.has(e.reason) && !open) spans.push({ fromMs: e.t, toMs: null });
    else if (e.type === 'Recovery' && open) spans[spans.length - 1].toMs = e.t;
  }
  return spans;
}

/**
 * The states of each object (packed trace indices), in the order the trace lists them (start time
 * order); the objects in the order of their first state; the time they span.
 */
function statesByObject(trace: PackedTrace, durationMs: number) {
  const byObject: number[][] = [];
  const order: number[] = [];
  let startMs = 0;
  let endMs = durationMs;
  const flat = trace.flatStates;
  for (let i = 0, at = 0; i < trace.stateCount; i++, at += STATE_FIELDS) {
    const object = flat[at] as number;
    const states = byObject[object];
    if (states) states.push(i);
    else {
      byObject[object] = [i];
      order.push(object);
    }
    const from = flat[at + 1] as number;
    const to = flat[at + 2];
    if (from < startMs) startMs = from;
    if (to !== null && to > endMs) endMs = to;
  }
  return { byObject, order, startMs, endMs };
}

/** The events in one pass: those the lanes are built from, the key moments' candidates, and each object's. */
function sortEvents(trace: PackedTrace, endMs: number) {
  const sorted = { endMs, podCreations: [] as EventJson[], endpointChanges: [] as number[], momentEvents: [] as EventJson[], byObject: new EventsByObject(trace) };
  // Types and reasons compared as string indices.
  const created = trace.stringIndex('PodCreated');
  const endpoint = trace.stringIndex('EndpointChanged');
  const noEffect = trace.stringIndex('NoEffect');
  const moments = new Set([...MOMENT_TYPES].map((type) => trace.stringIndex(type)));
  const events = trace.packedEvents;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = e[0] as number;
    const type = e[2] as number;
    if (t > sorted.endMs) sorted.endMs = t;
    if (type === created) sorted.podCreations.push(trace.event(i));
    else if (type === endpoint) sorted.endpointChanges.push(i);
    else if (moments.has(type)) sorted.momentEvents.push(trace.event(i));
    // NoEffect events (an intervention that changed nothing) are on no lane.
    if (e[3] !== noEffect) sorted.byObject.add(i, e[1] as number);
  }
  return sorted;
}

/**
 * One pod name can be several objects (a StatefulSet's replacement keeps the name): a new object
 * starts where the trace says it was created, or after a gap in its states. Each object has the
 * events of the name from its creation until the next object's (the first also those before).
 */
function podObjects(key: string, object: number, states: readonly number[], createdAt: readonly number[] | undefined, failedNodes: ReadonlySet<string>,
  sources: LaneSources, workload: WorkloadObjectLane | null): PodObjectLane[] {
  const { trace } = sources;
  const flat = trace.flatStates;
  const from = (state: number) => flat[state * STATE_FIELDS + 1] as number;
  const starts = [0];
  for (let i = 1; i < states.length; i++) {
    const start = from(states[i]);
    if (flat[states[i - 1] * STATE_FIELDS + 2] !== start || (createdAt?.includes(start) && from(states[starts[starts.length - 1]]) !== start)) starts.push(i);
  }
  const ref = trace.ref(object);
  const onFailed = (state: number) => {
    const node = flat[state * STATE_FIELDS + 6];
    return failedNodes.has(node === null ? NONE : trace.strings[node]);
  };
  return starts.map((start, n) => {
    const end = n + 1 < starts.length ? starts[n + 1] : states.length;
    const own = starts.length === 1 ? states : states.slice(start, end);
    const eventsToMs = end < states.length ? from(states[end]) : Infinity;
    const createdMs = from(own[0]);
    return new PodObjectLane(`${key}#${n}`, ref, object, own.some(onFailed), own, createdMs, n === 0 ? -Infinity : createdMs, eventsToMs, sources, workload);
  });
}

function keyMoments(events: readonly EventJson[], workloads: readonly WorkloadSummaryJson[], failed: ReadonlySet<string>): KeyMoment[] {
  const moments: KeyMoment[] = [];
  const once = new Set<KeyMomentKind>();
  const first = (kind: KeyMomentKind, t: number, label: string) => {
    if (once.has(kind)) return;
    once.add(kind);
    moments.push({ t, kind, label });
  };
  for (const e of events) {
    const onFailedNode = e.object.kind === 'Node' && failed.has(e.object.name);
    if (e.type === 'Fault') moments.push({ t: e.t, kind: 'failure', label: `${e.reason} ${e.object.name}` });
    else if (e.type === 'NodeCondition' && onFailedNode && e.detail?.status !== 'True') first('not-ready', e.t, 'NotReady');
    else if (e.type === 'TaintAdded' && onFailedNode && e.detail?.effect === 'NoExecute') first('taint', e.t, 'NoExecute taint');
    else if (e.type === 'Recovery') moments.push({ t: e.t, kind: 'recovery', label: `${e.object.name} back` });
    else if (e.type === 'Intervention') moments.push({ t: e.t, kind: 'intervention', label: e.reason });
    else if (e.type === 'NodeDeleted') first('node-deleted', e.t, 'Node deleted');
  }
  // The first deletion as the summary counts it: graceful, or a removal (a graceful shutdown's, pod GC's).
  const deletionTimes = workloads.map((w) => w.podDeletionMs).filter((t): t is number => t !== null);
  if (deletionTimes.length > 0) moments.push({ t: Math.min(...deletionTimes), kind: 'deletion', label: 'Deletion' });
  const readyTimes = workloads.map((w) => w.replacementReadyMs).filter((t): t is number => t !== null);
  if (readyTimes.length > 0) moments.push({ t: Math.min(...readyTimes), kind: 'replacement-ready', label: 'Replacement Ready' });
  return mergeSimultaneous(moments.sort((a, b) => a.t - b.t));
}

/**
 * Nodes that fail or return together, or pods deleted together, are one moment ("zone-outage of 5
 * nodes"): the axis has room for a few labels, and one per node hid NotReady and the taint behind them.
 */
function mergeSimultaneous(moments: readonly KeyMoment[]): KeyMoment[] {
  // Grouped whatever lies between them at that instant (two nodes' DeleteNode around a Node deleted).
  const groups = new Map<string, KeyMoment[]>();
  for (const moment of moments) {
    const what = moment.kind === 'recovery' ? '' : moment.label.split(' ')[0];
    const key = `${moment.t} ${moment.kind} ${what}`;
    const group = groups.get(key);
    if (group) group.push(moment);
    else groups.set(key, [moment]);
  }
  return [...groups.values()].flatMap((group) => {
    const [{ t, kind, label }] = group;
    if (group.length === 1 || (kind !== 'failure' && kind !== 'recovery' && kind !== 'intervention')) return group;
    const what = label.split(' ')[0];
    return [{ t, kind, label: kind === 'failure' ? `${what} of ${group.length} nodes` : kind === 'recovery' ? `${group.length} nodes back` : `${what} ×${group.length}` }];
  });
}

/** The packed trace's object of a workload's key; pods' keys are made only when a bare Pod is looked up (a large trace has thousands). */
function objectsByKey(trace: PackedTrace): (key: string, pod: boolean) => number | undefined {
  const workloads = new Map<string, number>();
  let pods: Map<string, number> | undefined;
  for (let object = 0; object < trace.objectCount; object++) if (!NON_WORKLOAD_KINDS.has(trace.kind(object))) workloads.set(refKey(trace.ref(object)), object);
  return (key, pod) => {
    if (!pod) return workloads.get(key);
    if (!pods) {
      pods = new Map();
      for (let object = 0; object < trace.objectCount; object++) if (trace.kind(object) === 'Pod') pods.set(refKey(trace.ref(object)), object);
    }
    return pods.get(key);
  };
}

/** The timeline of a trace as the page gets it (packReport): grouped by the packing's indices, each lane's objects made when it is drawn. */
export function buildTimeline(packed: PackedReport): Timeline {
  const trace = new PackedTrace(packed);
  const report = packed.rest;
  const failed = new Set(report.scenario.failedNodes);
  const { byObject, order, startMs, endMs: statesEndMs } = statesByObject(trace, report.scenario.durationMs);
  const events = sortEvents(trace, statesEndMs);

  const zones = new Map(report.scenario.cluster.nodes.map((n) => [n.name, n.zone]));
  const nodeLanes = new Map<string, NodeLane>();
  for (const object of order) {
    if (trace.kind(object) !== 'Node') continue;
    const ref = trace.ref(object);
    const markers = [...events.byObject.of(object)];
    nodeLanes.set(ref.name, {
      name: ref.name, zone: zones.get(ref.name) ?? null, failed: failed.has(ref.name), events: markers,
      taints: markers.filter((e) => e.type === 'TaintAdded' || e.type === 'TaintRemoved').map((e) => ({ t: e.t, taint: taintText(e.detail), added: e.type === 'TaintAdded' })),
      bands: byObject[object].map((i) => {
        const s = trace.state(i);
        return { fromMs: s.from, toMs: s.to, status: s.status, condition: s.ready ?? 'Unknown', taints: s.taints ?? [] };
      }),
      broken: brokenSpans(markers),
    });
  }
  const sources: LaneSources = { trace, nodes: nodeLanes, events: events.byObject };

  // Workloads: the summary's order, then any other workload the trace has states for.
  const objectOf = objectsByKey(trace);
  const workloadById = new Map<string, WorkloadObjectLane>();
  const addWorkload = (key: string, ref: ObjectRef, summary: WorkloadSummaryJson | null) => {
    const object = objectOf(key, ref.kind === 'Pod');
    const states = object === undefined ? undefined : byObject[object];
    const podOrSlice = ref.kind === 'Pod' || ref.kind === 'EndpointSlice';
    // A bare Pod's states are its pod's: its count comes from the pod's Ready condition (objectLanes.ts).
    workloadById.set(key, new WorkloadObjectLane(key, ref, summary, object, ref.kind === 'Pod' ? [] : states ?? [], !(podOrSlice && states), startMs, sources));
  };
  for (const w of report.summary.workloads) addWorkload(refKey(w.object), w.object, w);
  for (const object of order) {
    if (NON_WORKLOAD_KINDS.has(trace.kind(object))) continue;
    const ref = trace.ref(object);
    const key = refKey(ref);
    if (!workloadById.has(key)) addWorkload(key, ref, null);
  }
  const workloads = [...workloadById.values()];
  const owners = new PodOwners(workloads.map((w) => w.ref), events.podCreations);

  const createdAt = new Map<ObjectRef, number[]>();
  for (const e of events.podCreations) {
    const times = createdAt.get(e.object);
    if (times) times.push(e.t);
    else createdAt.set(e.object, [e.t]);
  }
  const otherPods: PodLane[] = [];
  for (const object of order) {
    if (trace.kind(object) !== 'Pod') continue;
    const ref = trace.ref(object);
    const key = refKey(ref);
    const owner = owners.ownerOf(ref);
    const workload = owner === null ? undefined : workloadById.get(owner);
    const lanes = podObjects(key, object, byObject[object], createdAt.get(ref), failed, sources, workload ?? null);
    (workload ? workload.pods : otherPods).push(...lanes);
  }

  // Services: attached to the workload whose pods their endpoints name, else the one of the same name.
  const endpointOwner = new Map<number, string>();
  for (const i of events.endpointChanges) {
    const slice = trace.packedEvents[i][1] as number;
    if (endpointOwner.has(slice)) continue;
    const e = trace.event(i);
    if (typeof e.detail?.pod !== 'string') continue;
    const owner = owners.ownerOf({ kind: 'Pod', namespace: e.object.namespace, name: e.detail.pod });
    if (owner) endpointOwner.set(slice, owner);
  }
  const otherEndpoints: EndpointsLane[] = [];
  for (const object of order) {
    if (trace.kind(object) !== 'EndpointSlice') continue;
    const ref = trace.ref(object);
    const lane = new EndpointsObjectLane(ref, object, byObject[object], sources);
    const owner = endpointOwner.get(object) ?? workloads.find((w) => w.ref.namespace === ref.namespace && w.ref.name === ref.name)?.id;
    const workload = owner ? workloadById.get(owner) : undefined;
    (workload ? workload.endpoints : otherEndpoints).push(lane);
  }

  for (const workload of workloads) {
    workload.pods.sort((a, b) => a.createdMs - b.createdMs || (a.ref.name < b.ref.name ? -1 : a.ref.name > b.ref.name ? 1 : 0));
    workload.affected = workload.summary ? workload.summary.outcome !== 'unaffected' : workload.pods.some((p) => p.onFailedNode);
  }

  const nodeOrder = new Map(report.scenario.cluster.nodes.map((n, i) => [n.name, i]));
  const ordered = [...nodeLanes.values()].sort((a, b) => Number(b.failed) - Number(a.failed) || (nodeOrder.get(a.name) ?? Infinity) - (nodeOrder.get(b.name) ?? Infinity) || (a.name < b.name ? -1 : 1));
  // Events of no drawn object (cluster notes), in trace order: only the events list shows them.
  const onLane = (object: number) => {
    const kind = trace.kind(object);
    if (kind === 'Node') return nodeLanes.has(trace.ref(object).name);
    return ((kind === 'Pod' || kind === 'EndpointSlice') && byObject[object] !== undefined) || workloadById.has(refKey(trace.ref(object)));
  };
  let otherEvents: EventJson[] | undefined;
  let traceOrder: Map<Marker, number> | undefined;
  const allEvents = () => Array.from({ length: trace.eventCount }, (_, i) => trace.event(i));
  return {
    startMs, endMs: events.endMs, failedNodes: report.scenario.failedNodes, nodes: ordered, workloads, otherPods, otherEndpoints,
    keyMoments: keyMoments(events.momentEvents, report.summary.workloads, failed),
    get traceOrder() {
      return (traceOrder ??= new Map(allEvents().map((e, i) => [e, i])));
    },
    get otherEvents() {
      return (otherEvents ??= allEvents().filter((e, i) => e.reason !== 'NoEffect' && !onLane(trace.packedEvents[i][1] as number)));
    },
  };
}
