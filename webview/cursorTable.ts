/**
 * `kubectl get pods,nodes -o wide` as of the cursor, and the events up to it: rebuilt when the
 * cursor moves, every value set as text.
 */
import { clusterAt, shownPods } from '../src/report/timeline/clusterAt';
import type { Timeline } from '../src/report/timeline/model';
import type { NamedMarker } from '../src/report/timeline/namedEvents';
import { podStatusCategory } from '../src/report/timeline/statusCategory';
import { formatCount, formatTime } from '../src/report/format';
import { columnWidths, el, GridTable, table, type CellClass } from './dom';

/**
 * The tables follow the cursor: each updates the rows it has built while it lists the same
 * objects (a cursor step over a 1,000-pod table touches a handful of cells), else is built anew.
 */
export class CursorTable {
  readonly element = el('div', undefined, 'cursor-table');
  private readonly caption = el('p', undefined, 'caption');
  private readonly pods = new KubectlTable('pods-at');
  private readonly nodes = new KubectlTable('nodes-at');

  constructor() {
    this.element.appendChild(this.caption);
  }

  /** `run`: which of two compared runs this table is for ("A: title"). */
  show(timeline: Timeline, t: number, run?: string): void {
    const at = clusterAt(timeline, t);
    // Before the failure (a run with --at) reads "1:45.000 before the failure", not "-1:45.000 after".
    const when = `${formatTime(Math.abs(Math.round(t))).trim()} ${t < 0 ? 'before' : 'after'}`;
    const { pods: listed, hidden } = shownPods(at.pods, timeline.failedNodes);
    const left = hidden > 0 ? ` (${formatCount(hidden)} more pods Running and Ready on healthy nodes are left out)` : '';
    this.caption.textContent = `${run ? `${run}, as` : 'As'} of ${when} the failure (m:ss.mmm)${left}:`;
    // In a side column NAME, READY and STATUS come first and NAMESPACE last, so that what changes
    // is in view without scrolling sideways (kubectl's order otherwise).
    const narrow = narrowColumn.matches;
    const podColumns = narrow ? NARROW_POD_COLUMNS : POD_COLUMNS;
    const podRows = listed.map((p) => {
      const cells = [p.namespace, `pod/${p.name}`, p.ready, p.status, String(p.restarts), p.ip, p.node];
      return podColumns.map((c) => cells[c]);
    });
    const nodeRows = at.nodes.map((n) => [`node/${n.name}`, n.status, n.taints]);
    const podClass = listed.map((p) => `status cat-${podStatusCategory(p.status, p.ready)}`);
    const nodeClass = at.nodes.map((n) => `status node-${n.status.startsWith('Ready') ? 'ready' : 'notready'}`);
    const podStatus = podColumns.indexOf(3);
    this.pods.show(`Pods at ${when}`, podColumns.map((c) => POD_HEADINGS[c]), podRows, `${narrow}#${listed.map((p) => p.laneId).join('|')}`,
      (r, c) => (c === podStatus ? podClass[r] : narrow && c === 0 ? 'wrap' : undefined),
      // A long pod name wraps in a side column rather than push STATUS out of view.
      (widths) => (narrow ? [Math.min(widths[0], NARROW_NAME_CHARS), ...widths.slice(1)] : widths));
    this.nodes.show(`Nodes at ${when}`, ['NAME', 'STATUS', 'TAINTS'], nodeRows, at.nodes.map((n) => n.name).join('|'), (r, c) => (c === 1 ? nodeClass[r] : undefined));
    if (this.pods.element.parentElement !== this.element) this.element.replaceChildren(this.caption, this.pods.element, this.nodes.element);
  }
}

/** Pods or nodes: built anew when the objects listed change or a value outgrows its column. */
class KubectlTable {
  readonly element = el('div', undefined, 'scroll');
  private key = '';
  private widths: number[] = [];
  private grid: GridTable | undefined;

  constructor(private readonly className: string) {}

  show(label: string, headings: string[], rows: string[][], key: string, cellClass: CellClass, fitWidths = (widths: number[]) => widths): void {
    const widths = fitWidths(columnWidths(headings, rows));
    // Columns are sized when the table is built: a longer value than then means a rebuild.
    if (this.grid && key === this.key && widths.every((w, c) => w <= this.widths[c])) {
      this.grid.update(rows, cellClass);
      this.grid.element.setAttribute('aria-label', label);
      return;
    }
    this.key = key;
    // A little room to grow, so that a cursor step rarely needs a rebuild.
    this.widths = widths.map((w) => w + 1);
    this.grid?.dispose();
    this.grid = new GridTable(label, headings, this.widths, rows, cellClass);
    this.grid.element.classList.add('kubectl', this.className);
    this.element.replaceChildren(this.grid.element);
  }
}

const POD_HEADINGS = ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'IP', 'NODE'];
/** Indices into POD_HEADINGS. */
const POD_COLUMNS = [0, 1, 2, 3, 4, 5, 6];
const NARROW_POD_COLUMNS = [1, 2, 3, 4, 5, 6, 0];
/** The NAME column's width in a side column; longer names wrap. */
const NARROW_NAME_CHARS = 28;
/** A side editor column (media/timeline.css uses the same width). */
export const narrowColumn = matchMedia('(max-width: 600px)');

function scroll(content: HTMLElement): HTMLElement {
  const wrapper = el('div', undefined, 'scroll');
  wrapper.appendChild(content);
  return wrapper;
}

/** Most events shown at once; a 1,000-pod trace has tens of thousands. */
const MAX_EVENTS = 500;

/** The events up to the cursor, the latest last (like `kubectl get events --watch` at that instant). */
export function eventsTable(events: readonly NamedMarker[], t: number): HTMLElement {
  let end = events.length;
  while (end > 0 && events[end - 1].t > t) end--;
  const shown = events.slice(Math.max(0, end - MAX_EVENTS), end);
  const root = el('div', undefined, 'events-at');
  root.appendChild(el('p', end > shown.length ? `The last ${shown.length} of ${end} events up to the cursor:` : `${end} events up to the cursor:`, 'caption'));
  const grid = table(['TIME', 'OBJECT', 'REASON', 'MESSAGE'], shown.map((e) => [formatTime(e.t).trim(), e.object, e.reason, e.message]));
  grid.classList.add('kubectl');
  grid.setAttribute('aria-label', 'Events up to the cursor');
  root.appendChild(scroll(grid));
  return root;
}
