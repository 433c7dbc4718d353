/**
 * `kubectl get pods,nodes -o wide` as of the cursor, and the events up to it: rebuilt when the
 * cursor moves, every value set as text.
 */
import { clusterAt, shownPods } from '../src/report/timeline/clusterAt';
import type { Timeline } from '../src/report/timeline/model';
import type { NamedMarker } from '../src/report/timeline/namedEvents';
import { podStatusCategory } from '../src/report/timeline/statusCategory';
import { formatCount, formatTime } from '../src/report/format';
import { columnWidths, el, gridTable, table } from './dom';

/**
 * The table follows the cursor: while the same pods and nodes exist, only the cells that changed
 * get new text (a cursor step over a 1,000-pod table touches a handful); else it is rebuilt.
 */
export class CursorTable {
  readonly element = el('div', undefined, 'cursor-table');
  private readonly caption = el('p', undefined, 'caption');
  private key = '';
  private cells: HTMLElement[][] = [];
  private widths: number[][] = [];

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
    const key = `${narrow}#${listed.map((p) => p.laneId).join('|')}#${at.nodes.map((n) => n.name).join('|')}`;
    const rows = [...podRows, ...nodeRows];
    const classes = [...podClass, ...nodeClass];
    const podStatus = podColumns.indexOf(3);
    const statusColumn = (r: number) => (r < podRows.length ? podStatus : 1);
    const podHeadings = podColumns.map((c) => POD_HEADINGS[c]);
    const nodeHeadings = ['NAME', 'STATUS', 'TAINTS'];
    const widths = [columnWidths(podHeadings, podRows), columnWidths(nodeHeadings, nodeRows)];
    // A long pod name wraps in a side column rather than push STATUS out of view.
    if (narrow) widths[0][0] = Math.min(widths[0][0], NARROW_NAME_CHARS);
    // Columns are sized when the table is built: a longer value than then means a rebuild.
    const fits = this.widths.length === 2 && widths.every((table, i) => table.every((w, c) => w <= this.widths[i][c]));
    if (key === this.key && fits) {
      rows.forEach((cells, r) => cells.forEach((text, c) => {
        const cell = this.cells[r][c];
        if (cell.textContent !== text) cell.textContent = text;
        if (c === statusColumn(r) && cell.className !== classes[r]) cell.className = classes[r];
      }));
      for (const grid of this.element.querySelectorAll('[role=table]')) grid.setAttribute('aria-label', `${grid.classList.contains('pods-at') ? 'Pods' : 'Nodes'} at ${when}`);
      return;
    }
    this.key = key;
    // A little room to grow, so that a cursor step rarely needs a rebuild.
    this.widths = widths.map((table) => table.map((w) => w + 1));
    const pods = gridTable(`Pods at ${when}`, podHeadings, podRows, (r, c) => (c === podStatus ? podClass[r] : narrow && c === 0 ? 'wrap' : undefined), this.widths[0]);
    pods.classList.add('kubectl', 'pods-at');
    const nodes = gridTable(`Nodes at ${when}`, nodeHeadings, nodeRows, (r, c) => (c === 1 ? nodeClass[r] : undefined), this.widths[1]);
    nodes.classList.add('kubectl', 'nodes-at');
    this.element.replaceChildren(this.caption, scroll(pods), scroll(nodes));
    this.cells = [pods, nodes].flatMap((grid) => Array.from(grid.querySelectorAll<HTMLElement>('[role=rowgroup] [role=row]'), (row) => Array.from(row.children) as HTMLElement[]));
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
