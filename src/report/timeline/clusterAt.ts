/**
 * `kubectl get pods,nodes -o wide` as of one instant of the timeline: each object's state at t
 * (a state that begins at t counts, one that ends at t does not), objects not yet created or
 * already gone left out, pods then nodes, in kubectl's namespace/name order.
 */
import { podStatusCategory } from './statusCategory';
import { compareText } from '../format';
import type { Span, Timeline } from './model';

export interface PodRow {
  namespace: string;
  name: string;
  ready: string;
  status: string;
  restarts: number;
  node: string;
  ip: string;
  /** The lane the row comes from, for the webview to highlight. */
  laneId: string;
}

export interface NodeRow {
  name: string;
  status: string;
  taints: string;
}

export interface ClusterAt {
  t: number;
  pods: PodRow[];
  nodes: NodeRow[];
}

/** The span of a sorted, non-overlapping list that contains t (binary search). */
export function spanAt<S extends Span>(spans: readonly S[], t: number): S | undefined {
  let low = 0;
  let high = spans.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (spans[mid].fromMs <= t) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  if (found < 0) return undefined;
  const span = spans[found];
  return span.toMs === null || t < span.toMs ? span : undefined;
}

export function clusterAt(timeline: Timeline, t: number): ClusterAt {
  const pods: PodRow[] = [];
  const lanes = [...timeline.workloads.flatMap((w) => w.pods), ...timeline.otherPods];
  for (const lane of lanes) {
    const bar = spanAt(lane.bars, t);
    if (!bar) continue;
    pods.push({
      namespace: lane.ref.namespace, name: lane.ref.name, ready: bar.ready, status: bar.status, restarts: bar.restarts,
      node: bar.node, ip: bar.ip, laneId: lane.id,
    });
  }
  pods.sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.name, b.name));
  const nodes: NodeRow[] = [];
  for (const lane of timeline.nodes) {
    const band = spanAt(lane.bands, t);
    if (band) nodes.push({ name: lane.name, status: band.status, taints: band.taints.join(', ') || '<none>' });
  }
  nodes.sort((a, b) => compareText(a.name, b.name));
  return { t, pods, nodes };
}

/** Most pod rows: the table of a 150,000-pod trace would be a million elements. */
export const MAX_POD_ROWS = 5000;

/**
 * The pods the table lists, in kubectl's order: all of them up to MAX_POD_ROWS; past that, every
 * pod that is not Running and Ready or is on a failed node, and as many of the others as fit.
 */
export function shownPods(pods: readonly PodRow[], failedNodes: readonly string[]): { pods: PodRow[]; hidden: number } {
  if (pods.length <= MAX_POD_ROWS) return { pods: [...pods], hidden: 0 };
  const failed = new Set(failedNodes);
  const notable = (p: PodRow) => podStatusCategory(p.status, p.ready) !== 'ready' || failed.has(p.node);
  let room = MAX_POD_ROWS - pods.filter(notable).length;
  const shown: PodRow[] = [];
  for (const pod of pods) {
    if (shown.length === MAX_POD_ROWS) break;
    if (notable(pod)) shown.push(pod);
    else if (room > 0) {
      shown.push(pod);
      room--;
    }
  }
  return { pods: shown, hidden: pods.length - shown.length };
}
