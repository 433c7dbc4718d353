/**
 * A trace (the JSON contract) as the timeline draws it: a lane per node (Ready condition, taints),
 * a group per workload (a bar per pod coloured by its kubectl STATUS, replacements linked to the
 * pods they replace, the READY count as steps, its Service's endpoints), event markers and the
 * key moments of the failure. Pure data, built once per trace; the webview only draws it.
 */
import type { EventJson, ObjectRef, StateInterval, TraceReport, WorkloadSummaryJson } from '../contract';
import { PodOwners, refKey } from './podOwners';
import { podStatusCategory, type StatusCategory } from './statusCategory';

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
  /** Events of no drawn object (cluster notes). */
  otherEvents: Marker[];
}

const NON_WORKLOAD_KINDS = new Set(['Pod', 'Node', 'EndpointSlice', 'Cluster']);

function count(text: string | undefined): { ready: number; total: number } | null {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? '');
  return match ? { ready: Number(match[1]), total: Number(match[2]) } : null;
}

function countSteps(states: readonly StateInterval[]): CountStep[] {
  return states.flatMap((s) => {
    const value = count(s.ready);
    return value ? [{ fromMs: s.from, toMs: s.to, ...value }] : [];
  });
}

function taintText(detail: Record<string, unknown> | undefined): string {
  const value = typeof detail?.value === 'string' && detail.value ? `=${detail.value}` : '';
  return `${String(detail?.key ?? '?')}${value}:${String(detail?.effect ?? '?')}`;
}

/** The states of each object, in the order the trace lists them (start time order). */
function statesByObject(states: readonly StateInterval[]): Map<string, StateInterval[]> {
  const byObject = new Map<string, StateInterval[]>();
  for (const state of states) {
    const key = refKey(state.object);
    const list = byObject.get(key);
    if (list) list.push(state);
    else byObject.set(key, [state]);
  }
  return byObject;
}

/**
 * One pod name can be several objects (a StatefulSet's replacement keeps the name): a new object
 * starts where the trace says it was created, or after a gap in its states.
 */
function podObjects(ref: ObjectRef, states: readonly StateInterval[], createdAt: ReadonlySet<number>, failedNodes: ReadonlySet<string>): PodLane[] {
  const lanes: PodLane[] = [];
  let current: PodLane | undefined;
  let previous: StateInterval | undefined;
  for (const state of states) {
    const startsObject = !current || (previous !== undefined && previous.to !== state.from) || (createdAt.has(state.from) && current.createdMs !== state.from);
    if (startsObject) {
      current = { id: `${refKey(ref)}#${lanes.length}`, ref, bars: [], createdMs: state.from, removedMs: null, onFailedNode: false, replaces: null, nodeDown: [], events: [] };
      lanes.push(current);
    }
    const bar: PodBar = {
      fromMs: state.from, toMs: state.to, status: state.status, ready: state.ready ?? '', restarts: state.restarts ?? 0,
      node: state.node ?? '<none>', ip: state.ip ?? '<none>', category: podStatusCategory(state.status, state.ready),
    };
    current!.bars.push(bar);
    current!.removedMs = state.to;
    if (failedNodes.has(bar.node)) current!.onFailedNode = true;
    previous = state;
  }
  return lanes;
}

/** The parts of a pod's life its node spent with Ready other than True, adjacent parts merged. */
function nodeDownSpans(pod: PodLane, nodes: ReadonlyMap<string, NodeLane>): Span[] {
  const spans: Span[] = [];
  for (const bar of pod.bars) {
    const node = nodes.get(bar.node);
    if (!node) continue;
    const barEnd = bar.toMs ?? Infinity;
    for (const band of node.bands) {
      const bandEnd = band.toMs ?? Infinity;
      if (band.condition === 'True' || bandEnd <= bar.fromMs || band.fromMs >= barEnd) continue;
      const fromMs = Math.max(bar.fromMs, band.fromMs);
      const end = Math.min(barEnd, bandEnd);
      const toMs = end === Infinity ? null : end;
      const last = spans[spans.length - 1];
      if (last && last.toMs === fromMs) last.toMs = toMs;
      else spans.push({ fromMs, toMs });
    }
  }
  return spans;
}

/** When a pod stopped counting for its workload: deletion started, or the object went away. */
function leftAt(pod: PodLane): number | null {
  const terminating = pod.bars.find((b) => b.category === 'terminating' || b.category === 'unknown' || b.category === 'failed');
  return terminating ? terminating.fromMs : pod.removedMs;
}

/**
 * Each pod created during the run replaces an earlier one of its workload: the previous object
 * of the same name (StatefulSet), else the earliest pod that had left by then and is not yet
 * replaced, preferring pods on the failed nodes.
 */
function linkReplacements(pods: PodLane[], startMs: number): void {
  const replaced = new Set<string>();
  const lastOfName = new Map<string, PodLane>();
  for (const pod of [...pods].sort((a, b) => a.createdMs - b.createdMs)) {
    const sameName = lastOfName.get(pod.ref.name);
    lastOfName.set(pod.ref.name, pod);
    if (pod.createdMs <= startMs) continue;
    if (sameName) {
      pod.replaces = sameName.id;
      replaced.add(sameName.id);
      continue;
    }
    const candidates = pods
      .filter((p) => p !== pod && !replaced.has(p.id) && p.createdMs < pod.createdMs)
      .map((p) => ({ p, left: leftAt(p) }))
      .filter((c): c is { p: PodLane; left: number } => c.left !== null && c.left <= pod.createdMs)
      .sort((a, b) => Number(b.p.onFailedNode) - Number(a.p.onFailedNode) || a.left - b.left);
    if (candidates.length > 0) {
      pod.replaces = candidates[0].p.id;
      replaced.add(candidates[0].p.id);
    }
  }
}

/** The lane of a pod object at time t: the latest one created at or before t. */
function podAt(lanes: readonly PodLane[] | undefined, t: number): PodLane | undefined {
  if (!lanes) return undefined;
  let found = lanes[0];
  for (const lane of lanes) if (lane.createdMs <= t) found = lane;
  return found;
}

function keyMoments(report: TraceReport, failed: ReadonlySet<string>, podsOnFailed: ReadonlySet<string>): KeyMoment[] {
  const moments: KeyMoment[] = [];
  const once = new Set<KeyMomentKind>();
  const first = (kind: KeyMomentKind, t: number, label: string) => {
    if (once.has(kind)) return;
    once.add(kind);
    moments.push({ t, kind, label });
  };
  for (const e of report.events) {
    const onFailedNode = e.object.kind === 'Node' && failed.has(e.object.name);
    if (e.type === 'Fault') moments.push({ t: e.t, kind: 'failure', label: `${e.reason} ${e.object.name}` });
    else if (e.type === 'NodeCondition' && onFailedNode && e.detail?.status !== 'True') first('not-ready', e.t, 'NotReady');
    else if (e.type === 'TaintAdded' && onFailedNode && e.detail?.effect === 'NoExecute') first('taint', e.t, 'NoExecute taint');
    else if (e.type === 'PodDeletionStarted' && podsOnFailed.has(`${e.object.namespace}/${e.object.name}`)) first('deletion', e.t, 'Deletion');
    else if (e.type === 'Recovery') moments.push({ t: e.t, kind: 'recovery', label: `${e.object.name} back` });
    else if (e.type === 'Intervention') moments.push({ t: e.t, kind: 'intervention', label: e.reason });
    else if (e.type === 'NodeDeleted') first('node-deleted', e.t, 'Node deleted');
  }
  const readyTimes = report.summary.workloads.map((w) => w.replacementReadyMs).filter((t): t is number => t !== null);
  if (readyTimes.length > 0) moments.push({ t: Math.min(...readyTimes), kind: 'replacement-ready', label: 'Replacement Ready' });
  return moments.sort((a, b) => a.t - b.t);
}

export function buildTimeline(report: TraceReport): Timeline {
  const failed = new Set(report.scenario.failedNodes);
  const byObject = statesByObject(report.states);
  let startMs = 0;
  let endMs = report.scenario.durationMs;
  for (const s of report.states) {
    if (s.from < startMs) startMs = s.from;
    if (s.to !== null && s.to > endMs) endMs = s.to;
  }
  for (const e of report.events) if (e.t > endMs) endMs = e.t;

  // Workloads: the summary's order, then any other workload the trace has states for.
  const workloadRefs = new Map<string, { ref: ObjectRef; summary: WorkloadSummaryJson | null }>();
  for (const w of report.summary.workloads) workloadRefs.set(refKey(w.object), { ref: w.object, summary: w });
  for (const [key, states] of byObject) {
    if (!NON_WORKLOAD_KINDS.has(states[0].object.kind) && !workloadRefs.has(key)) workloadRefs.set(key, { ref: states[0].object, summary: null });
  }
  const owners = new PodOwners([...workloadRefs.values()].map((w) => w.ref), report.events);

  const createdAt = new Map<string, Set<number>>();
  for (const e of report.events) {
    if (e.type !== 'PodCreated') continue;
    const key = refKey(e.object);
    (createdAt.get(key) ?? createdAt.set(key, new Set()).get(key)!).add(e.t);
  }
  const podLanes = new Map<string, PodLane[]>();
  for (const [key, states] of byObject) {
    if (states[0].object.kind === 'Pod') podLanes.set(key, podObjects(states[0].object, states, createdAt.get(key) ?? new Set(), failed));
  }

  const nodeOrder = new Map(report.scenario.cluster.nodes.map((n, i) => [n.name, i]));
  const zones = new Map(report.scenario.cluster.nodes.map((n) => [n.name, n.zone]));
  const nodeLanes = new Map<string, NodeLane>();
  for (const [, states] of byObject) {
    const ref = states[0].object;
    if (ref.kind !== 'Node') continue;
    nodeLanes.set(ref.name, {
      name: ref.name, zone: zones.get(ref.name) ?? null, failed: failed.has(ref.name), taints: [], events: [],
      bands: states.map((s) => ({ fromMs: s.from, toMs: s.to, status: s.status, condition: s.ready ?? 'Unknown', taints: s.taints ?? [] })),
    });
  }

  const workloads: WorkloadLane[] = [...workloadRefs.values()].map(({ ref, summary }) => ({
    id: refKey(ref), ref, summary, affected: false, pods: [], readySteps: countSteps(byObject.get(refKey(ref)) ?? []), endpoints: [], events: [],
  }));
  const workloadById = new Map(workloads.map((w) => [w.id, w]));
  const otherPods: PodLane[] = [];
  for (const lanes of podLanes.values()) {
    const owner = owners.ownerOf(lanes[0].ref);
    const workload = owner ? workloadById.get(owner) : undefined;
    (workload ? workload.pods : otherPods).push(...lanes);
  }

  // Services: attached to the workload whose pods their endpoints name, else the one of the same name.
  const endpointOwner = new Map<string, string>();
  for (const e of report.events) {
    if (e.type !== 'EndpointChanged' || typeof e.detail?.pod !== 'string' || endpointOwner.has(refKey(e.object))) continue;
    const owner = owners.ownerOf({ kind: 'Pod', namespace: e.object.namespace, name: e.detail.pod });
    if (owner) endpointOwner.set(refKey(e.object), owner);
  }
  const endpointLanes = new Map<string, EndpointsLane>();
  const otherEndpoints: EndpointsLane[] = [];
  for (const [key, states] of byObject) {
    const ref = states[0].object;
    if (ref.kind !== 'EndpointSlice') continue;
    const lane: EndpointsLane = { ref, steps: countSteps(states), events: [] };
    endpointLanes.set(key, lane);
    const owner = endpointOwner.get(key) ?? workloads.find((w) => w.ref.namespace === ref.namespace && w.ref.name === ref.name)?.id;
    const workload = owner ? workloadById.get(owner) : undefined;
    (workload ? workload.endpoints : otherEndpoints).push(lane);
  }

  // Events go to the lane of their object; a pod's to the object alive at that time.
  const otherEvents: Marker[] = [];
  for (const e of report.events) {
    if (e.reason === 'NoEffect') continue;
    const key = refKey(e.object);
    const m: Marker = e;
    if (e.object.kind === 'Node' && nodeLanes.has(e.object.name)) {
      const lane = nodeLanes.get(e.object.name)!;
      lane.events.push(m);
      if (e.type === 'TaintAdded' || e.type === 'TaintRemoved') lane.taints.push({ t: e.t, taint: taintText(e.detail), added: e.type === 'TaintAdded' });
    } else if (e.object.kind === 'Pod' && podLanes.has(key)) podAt(podLanes.get(key), e.t)!.events.push(m);
    else if (endpointLanes.has(key)) endpointLanes.get(key)!.events.push(m);
    else if (workloadById.has(key)) workloadById.get(key)!.events.push(m);
    else otherEvents.push(m);
  }

  for (const lanes of podLanes.values()) for (const lane of lanes) lane.nodeDown = nodeDownSpans(lane, nodeLanes);
  for (const workload of workloads) {
    workload.pods.sort((a, b) => a.createdMs - b.createdMs || (a.ref.name < b.ref.name ? -1 : a.ref.name > b.ref.name ? 1 : 0));
    linkReplacements(workload.pods, startMs);
    workload.affected = workload.summary ? workload.summary.outcome !== 'unaffected' : workload.pods.some((p) => p.onFailedNode);
    // A bare pod has no READY count of its own in the trace: its pod's READY is the count.
    if (workload.readySteps.length === 0) workload.readySteps = workload.pods.flatMap((p) => p.bars.flatMap((b) => {
      const value = count(b.ready);
      return value ? [{ fromMs: b.fromMs, toMs: b.toMs, ready: value.ready === value.total && value.total > 0 ? 1 : 0, total: 1 }] : [];
    }));
  }

  const podsOnFailed = new Set<string>();
  for (const lanes of podLanes.values()) if (lanes.some((l) => l.onFailedNode)) podsOnFailed.add(`${lanes[0].ref.namespace}/${lanes[0].ref.name}`);
  const ordered = [...nodeLanes.values()].sort((a, b) => Number(b.failed) - Number(a.failed) || (nodeOrder.get(a.name) ?? Infinity) - (nodeOrder.get(b.name) ?? Infinity) || (a.name < b.name ? -1 : 1));
  return {
    startMs, endMs, failedNodes: report.scenario.failedNodes, nodes: ordered, workloads, otherPods, otherEndpoints,
    keyMoments: keyMoments(report, failed, podsOnFailed), otherEvents,
  };
}
