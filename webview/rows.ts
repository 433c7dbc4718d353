/**
 * The timeline's rows, top to bottom, and their heights: nodes, then each workload (a header
 * with its READY steps, its pods, its Service endpoints). Only the rows in view are drawn, so
 * the layout is computed here once and searched on every scroll. Pure (no DOM).
 */
import type { EndpointsLane, NodeLane, PodLane, Timeline, WorkloadLane } from '../src/report/timeline/model';

/** `run`: 0 for the trace shown, 1 for the one it is compared with; ids are unique across both. */
export type Row = { run: number } & (
  | { kind: 'section'; id: string; label: string }
  | { kind: 'node'; id: string; lane: NodeLane }
  | { kind: 'workload'; id: string; lane: WorkloadLane; collapsed: boolean }
  | { kind: 'pod'; id: string; lane: PodLane; workload: WorkloadLane | null }
  | { kind: 'endpoints'; id: string; lane: EndpointsLane }
);

export const ROW_HEIGHTS: Readonly<Record<Row['kind'], number>> = { section: 24, node: 20, workload: 30, pod: 18, endpoints: 20 };

export interface RowOptions {
  showUnaffected: boolean;
  /** Row ids of workloads whose pods are folded away. */
  collapsed: ReadonlySet<string>;
}

export interface RowLayout {
  rows: Row[];
  /** offsets[i]: the top of row i; offsets[rows.length]: the total height. */
  offsets: number[];
  /** `${run}|${pod lane id}` of each drawn pod -> its row index (to draw replacement links). */
  readonly podRow: Map<string, number>;
  /** Per run, its first row and one past its last. */
  runRows: [number, number][];
  hiddenWorkloads: number;
}

/** A run to lay out; with two, each gets a title row and the second's ids start with "b:". */
export interface RunRows {
  title?: string;
  timeline: Timeline;
}

export function layoutRows(timeline: Timeline, options: RowOptions, compare?: { titles: [string, string]; timeline: Timeline }): RowLayout {
  const runs: RunRows[] = compare ? [{ title: compare.titles[0], timeline }, { title: compare.titles[1], timeline: compare.timeline }] : [{ timeline }];
  const rows: Row[] = [];
  const runRows: [number, number][] = [];
  let hiddenWorkloads = 0;
  runs.forEach(({ title, timeline: t }, run) => {
    const first = rows.length;
    const prefix = run === 0 ? '' : 'b:';
    const section = (id: string, label: string) => rows.push({ run, kind: 'section', id: `${prefix}section:${id}`, label });
    if (title !== undefined) section('run', `${run === 0 ? 'A' : 'B'}: ${title}`);
    section('nodes', 'Nodes');
    for (const lane of t.nodes) rows.push({ run, kind: 'node', id: `${prefix}node:${lane.name}`, lane });
    // Every workload hidden: the section says so, rather than standing empty.
    const unaffected = options.showUnaffected ? 0 : t.workloads.filter((lane) => !lane.affected).length;
    section('workloads', unaffected > 0 && unaffected === t.workloads.length ? `Workloads: none affected (${unaffected} hidden)` : 'Workloads');
    for (const lane of t.workloads) {
      if (!lane.affected && !options.showUnaffected) {
        hiddenWorkloads++;
        continue;
      }
      const id = prefix + lane.id;
      const collapsed = options.collapsed.has(id);
      rows.push({ run, kind: 'workload', id, lane, collapsed });
      if (collapsed) continue;
      for (const pod of lane.pods) rows.push({ run, kind: 'pod', id: prefix + pod.id, lane: pod, workload: lane });
      for (const endpoints of lane.endpoints) rows.push({ run, kind: 'endpoints', id: `${prefix}endpoints:${endpoints.ref.namespace}/${endpoints.ref.name}`, lane: endpoints });
    }
    if (t.otherPods.length > 0) {
      section('other', 'Other pods');
      for (const pod of t.otherPods) rows.push({ run, kind: 'pod', id: prefix + pod.id, lane: pod, workload: null });
    }
    // Services whose workload the trace does not tell (no endpoint changed, another name): still drawn.
    if (t.otherEndpoints.length > 0 && options.showUnaffected) {
      section('other-services', 'Other Services');
      for (const endpoints of t.otherEndpoints) rows.push({ run, kind: 'endpoints', id: `${prefix}endpoints:${endpoints.ref.namespace}/${endpoints.ref.name}`, lane: endpoints });
    }
    runRows.push([first, rows.length]);
  });
  const offsets = [0];
  for (let i = 0; i < rows.length; i++) offsets.push(offsets[i] + ROW_HEIGHTS[rows[i].kind]);
  // Only a drawn replacement link reads it: built then, not for the first frame (a key per pod row).
  let podRow: Map<string, number> | undefined;
  return {
    rows, offsets, runRows, hiddenWorkloads,
    get podRow() {
      if (!podRow) {
        podRow = new Map();
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          if (row.kind === 'pod') podRow.set(`${row.run}|${row.lane.id}`, i);
        }
      }
      return podRow;
    },
  };
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
