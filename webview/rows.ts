/**
 * The timeline's rows, top to bottom, and their heights: nodes, then each workload (a header
 * with its READY steps, its pods, its Service endpoints). Only the rows in view are drawn, so
 * the layout is computed here once and searched on every scroll. Pure (no DOM).
 */
import type { EndpointsLane, NodeLane, PodLane, Timeline, WorkloadLane } from '../src/report/timeline/model';

export type Row =
  | { kind: 'section'; id: string; label: string }
  | { kind: 'node'; id: string; lane: NodeLane }
  | { kind: 'workload'; id: string; lane: WorkloadLane; collapsed: boolean }
  | { kind: 'pod'; id: string; lane: PodLane; workload: WorkloadLane | null }
  | { kind: 'endpoints'; id: string; lane: EndpointsLane };

export const ROW_HEIGHTS: Readonly<Record<Row['kind'], number>> = { section: 24, node: 20, workload: 30, pod: 18, endpoints: 20 };

export interface RowOptions {
  showUnaffected: boolean;
  /** Workload ids whose pods are folded away. */
  collapsed: ReadonlySet<string>;
}

export interface RowLayout {
  rows: Row[];
  /** offsets[i]: the top of row i; offsets[rows.length]: the total height. */
  offsets: number[];
  /** Lane id of each drawn pod -> its row index (to draw replacement links). */
  podRow: Map<string, number>;
  hiddenWorkloads: number;
}

export function layoutRows(timeline: Timeline, options: RowOptions): RowLayout {
  const rows: Row[] = [{ kind: 'section', id: 'section:nodes', label: 'Nodes' }];
  for (const lane of timeline.nodes) rows.push({ kind: 'node', id: `node:${lane.name}`, lane });
  rows.push({ kind: 'section', id: 'section:workloads', label: 'Workloads' });
  let hiddenWorkloads = 0;
  for (const lane of timeline.workloads) {
    if (!lane.affected && !options.showUnaffected) {
      hiddenWorkloads++;
      continue;
    }
    const collapsed = options.collapsed.has(lane.id);
    rows.push({ kind: 'workload', id: lane.id, lane, collapsed });
    if (collapsed) continue;
    for (const pod of lane.pods) rows.push({ kind: 'pod', id: pod.id, lane: pod, workload: lane });
    for (const endpoints of lane.endpoints) rows.push({ kind: 'endpoints', id: `endpoints:${endpoints.ref.namespace}/${endpoints.ref.name}`, lane: endpoints });
  }
  if (timeline.otherPods.length > 0) {
    rows.push({ kind: 'section', id: 'section:other', label: 'Other pods' });
    for (const pod of timeline.otherPods) rows.push({ kind: 'pod', id: pod.id, lane: pod, workload: null });
  }
  const offsets = [0];
  const podRow = new Map<string, number>();
  rows.forEach((row, i) => {
    offsets.push(offsets[i] + ROW_HEIGHTS[row.kind]);
    if (row.kind === 'pod') podRow.set(row.id, i);
  });
  return { rows, offsets, podRow, hiddenWorkloads };
}

/** The rows that overlap [top, top + height): first index and one past the last. */
export function visibleRows(layout: RowLayout, top: number, height: number): [number, number] {
  const { offsets, rows } = layout;
  let low = 0;
  let high = rows.length - 1;
  let first = rows.length;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (offsets[mid + 1] <= top) low = mid + 1;
    else {
      first = mid;
      high = mid - 1;
    }
  }
  let end = first;
  while (end < rows.length && offsets[end] < top + height) end++;
  return [first, end];
}
