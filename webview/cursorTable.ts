/**
 * `kubectl get pods,nodes -o wide` as of the cursor, and the events up to it: rebuilt when the
 * cursor moves, every value set as text.
 */
import { clusterAt, shownPods } from '../src/report/timeline/clusterAt';
import type { Timeline } from '../src/report/timeline/model';
import type { NamedMarker } from '../src/report/timeline/namedEvents';
import { podStatusCategory } from '../src/report/timeline/statusCategory';
import { formatCount, formatTime } from '../src/report/format';
import { columnWidths, el, GridTable, table, type CellClass, type GridLayout } from './dom';
import { axisLabel } from './timeScale';

/**
 * The tables follow the cursor: each updates the rows it has built while it lists the same
 * objects (a cursor step over a 1,000-pod table touches a handful of cells), else is built anew.
 */
export class CursorTable {
  readonly element = el('div', undefined, 'cursor-table');
  private readonly caption = el('p', undefined, 'caption');
  private readonly pods = new KubectlTable('pods-at');
  private readonly nodes = new KubectlTable('nodes-at');
  /** The panel's width in pixels; undefined until it is laid out. */
  private widthPx: number | undefined;
  private shown = false;
  /** The characters each table needs on one line, as last shown. */
  private needed = { pods: 0, nodes: 0 };

  /** `relayout`: called when the panel's width makes a table switch between one line and two per object. */
  constructor(relayout: () => void) {
    this.element.appendChild(this.caption);
    new ResizeObserver(([entry]) => {
      // Nothing shown depends on the width yet, and measuring the font now would force a layout
      // before the timeline's first paint (the tables are built after it).
      if (!this.shown) {
        this.widthPx = entry.contentRect.width;
        return;
      }
      const before = this.twoLines();
      const { nameChars } = this;
      this.widthPx = entry.contentRect.width;
      const after = this.twoLines();
      if (after.pods !== before.pods || after.nodes !== before.nodes || ((after.pods || after.nodes) && this.nameChars !== nameChars)) relayout();
    }).observe(this.element);
  }

  /** The panel's width in characters of the tables' font. */
  private get widthChars(): number | undefined {
    return this.widthPx === undefined ? undefined : this.widthPx / charWidth(this.element);
  }

  /**
   * How wide NAME may grow on a two-line table's first line: 28 characters in a side column; in a
   * wider panel that a one-line table does not fit, what it leaves (in steps of 8, not to rebuild on every pixel).
   */
  private get nameChars(): number {
    if (narrowColumn.matches || this.widthChars === undefined) return NARROW_NAME_CHARS;
    return Math.max(NARROW_NAME_CHARS, Math.floor((this.widthChars - FIRST_LINE_OTHERS) / 8) * 8);
  }

  /** kubectl's one line per object where it fits the panel, two lines in a side column or where it does not. */
  private twoLines(): { pods: boolean; nodes: boolean } {
    const over = (chars: number) => narrowColumn.matches || (this.widthChars !== undefined && chars > this.widthChars);
    return { pods: over(this.needed.pods), nodes: over(this.needed.nodes) };
  }

  /** `run`: which of two compared runs this table is for ("A: title"). */
  show(timeline: Timeline, t: number, run?: string): void {
    this.shown = true;
    const at = clusterAt(timeline, t);
    // As the cursor's flag writes it (6m40.019s); before the failure (a run with --at) "1m45s before", not "-1m45s after".
    const when = `${axisLabel(Math.abs(Math.round(t)), 1)} ${t < 0 ? 'before' : 'after'}`;
    const { pods: listed, hidden } = shownPods(at.pods, timeline.failedNodes);
    const left = hidden > 0 ? ` (${formatCount(hidden)} more pods Running and Ready on healthy nodes are left out)` : '';
    // As kubectl says when nothing is listed.
    const none = listed.length === 0 && hidden === 0 ? ' no pods (No resources found)' : '';
    this.caption.textContent = `${run ? `${run}, as` : 'As'} of ${when} the failure${left}:${none}`;
    const podCells = listed.map((p) => [p.namespace, `pod/${p.name}`, p.ready, p.status, String(p.restarts), p.ip, p.node]);
    const podClass = listed.map((p) => `status cat-${podStatusCategory(p.status, p.ready)}`);
    const nodeRows = at.nodes.map((n) => [`node/${n.name}`, n.status, n.taints]);
    const podWidths = columnWidths(POD_HEADINGS, podCells);
    const nodeWidths = columnWidths(NODE_HEADINGS, nodeRows);
    this.needed = { pods: lineChars(podWidths), nodes: lineChars(nodeWidths) };
    const { pods: narrow, nodes: narrowNodes } = this.twoLines();
    const { nameChars } = this;
    const key = `${narrow}:${nameChars}#${listed.map((p) => p.laneId).join('|')}`;
    if (narrow) this.pods.show(`Pods at ${when} the failure`, ...twoLinePods(podCells), key, (r, c) => (c === 2 ? podClass[r] : c === 0 ? 'wrap' : undefined), narrowPodLayout(nameChars));
    else this.pods.show(`Pods at ${when} the failure`, POD_HEADINGS, podCells, key, (r, c) => (c === 3 ? podClass[r] : undefined), undefined, podWidths);
    const nodeClass = at.nodes.map((n) => `status node-${n.status.startsWith('Ready') ? 'ready' : 'notready'}`);
    // In a side column the taints go on a second line, as the pods' IP, NODE and NAMESPACE do.
    this.nodes.show(`Nodes at ${when} the failure`, NODE_HEADINGS, nodeRows, `${narrowNodes}:${nameChars}#${at.nodes.map((n) => n.name).join('|')}`,
      (r, c) => (c === 1 ? nodeClass[r] : c === 0 && narrowNodes ? 'wrap' : undefined), narrowNodes ? narrowNodeLayout(nameChars) : undefined, nodeWidths);
    // The boxes the tables scroll in (Chromium lets the keyboard into a box wider than its panel) are named once per run.
    this.pods.element.setAttribute('aria-label', `${run ? `${run}: ` : ''}pods table`);
    this.nodes.element.setAttribute('aria-label', `${run ? `${run}: ` : ''}nodes table`);
    if (this.pods.element.parentElement !== this.element) this.element.replaceChildren(this.caption, this.pods.element, this.nodes.element);
  }
}

/** Pods or nodes: built anew when the objects listed change or a value outgrows its column. */
class KubectlTable {
  readonly element = el('div', undefined, 'scroll');
  private key = '';
  private widths: number[] = [];
  private grid: GridTable | undefined;

  constructor(private readonly className: string) {
    this.element.setAttribute('role', 'region');
  }

  /** `widths`: the columns' as the caller worked them out for these headings and rows. */
  show(label: string, headings: string[], rows: string[][], key: string, cellClass: CellClass, layout?: (widths: number[]) => GridLayout, widths = columnWidths(headings, rows)): void {
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
    this.grid = new GridTable(label, headings, this.widths, rows, cellClass, layout?.(this.widths));
    this.grid.element.classList.add('kubectl', this.className);
    if (layout) this.grid.element.classList.add('two-line');
    this.element.replaceChildren(this.grid.element);
  }
}

const POD_HEADINGS = ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'IP', 'NODE'];
const NODE_HEADINGS = ['NAME', 'STATUS', 'TAINTS'];

/** A row's characters on one line: its columns, the room KubectlTable adds to each, and the 2ch gaps (timeline.css .grid-row). */
function lineChars(widths: number[]): number {
  return widths.reduce((sum, w) => sum + w + 1, 0) + 2 * (widths.length - 1);
}

/** The width of one character of the tables' monospace font (timeline.css .grid-table), measured once. */
let measuredCharPx: number | undefined;
function charWidth(within: HTMLElement): number {
  if (measuredCharPx === undefined) {
    const probe = el('span', '0'.repeat(50), 'grid-table');
    // Out of the flow and as wide as its text (a grid table is at least as wide as its panel).
    probe.style.position = 'absolute';
    probe.style.visibility = 'hidden';
    probe.style.minWidth = '0';
    within.appendChild(probe);
    const px = probe.getBoundingClientRect().width / 50;
    probe.remove();
    if (px > 0) measuredCharPx = px;
    return px || 8;
  }
  return measuredCharPx;
}
/** The NAME column's width in a side column at most; longer names wrap, and it narrows to this least. */
const NARROW_NAME_CHARS = 28;
const NARROWEST_NAME_CHARS = 10;
/** READY, STATUS and RESTARTS beside NAME on a two-line row's first line, with their gaps. */
const FIRST_LINE_OTHERS = 40;

/**
 * A side column's pod table: NAME, READY, STATUS and RESTARTS on a row's first line, then IP,
 * NODE and NAMESPACE under them (aligned across rows), so nothing needs a sideways scroll and
 * what changes comes first.
 */
function twoLinePods(cells: string[][]): [string[], string[][]] {
  const [ipWidth, nodeWidth] = [5, 6].map((c) => cells.reduce((max, row) => Math.max(max, row[c].length), POD_HEADINGS[c].length));
  const second = (ip: string, node: string, namespace: string) => `${ip.padEnd(ipWidth)}  ${node.padEnd(nodeWidth)}  ${namespace}`;
  return [
    ['NAME', 'READY', 'STATUS', 'RESTARTS', second('IP', 'NODE', 'NAMESPACE')],
    cells.map(([namespace, name, ready, status, restarts, ip, node]) => [name, ready, status, restarts, second(ip, node, namespace)]),
  ];
}

/** Four tracks for the first line (the name's narrows as far as it must); the second line spans them (timeline.css .two-line). */
function narrowPodLayout(nameChars: number) {
  // The narrowest NAME is the stylesheet's in a very narrow column (timeline.css --narrowest-name).
  return ([name, ready, status, restarts]: number[]): GridLayout => ({ columns: `minmax(var(--narrowest-name, ${NARROWEST_NAME_CHARS}ch), ${Math.min(name, nameChars)}ch) ${ready}ch ${status}ch ${rest(restarts)}`, lines: 2 });
}
/** NAME and STATUS on a node's first line; TAINTS spans the second. */
function narrowNodeLayout(nameChars: number) {
  return ([name, status]: number[]): GridLayout => ({ columns: `minmax(var(--narrowest-name, ${NARROWEST_NAME_CHARS}ch), ${Math.min(name, nameChars)}ch) ${rest(status)}`, lines: 2 });
}

/** The last track takes the rest of the column: the second line, which spans every track, is then as wide as the column (taints broke inside words). */
function rest(chars: number): string {
  return `minmax(${chars}ch, 1fr)`;
}

/** A side editor column (media/timeline.css uses the same width): two lines per object whatever they need. */
export const narrowColumn = matchMedia('(max-width: 600px)');

function scroll(content: HTMLElement): HTMLElement {
  const wrapper = el('div', undefined, 'scroll');
  wrapper.appendChild(content);
  return wrapper;
}

/** Most events shown at once; a 1,000-pod trace has tens of thousands. */
const MAX_EVENTS = 500;

/** The events up to the cursor, the latest last (like `kubectl get events --watch` at that instant). */
/** How many of the sorted events happen up to t (the cursor): the Events tab lists those. */
export function eventsUpTo(events: readonly NamedMarker[], t: number): number {
  let end = events.length;
  while (end > 0 && events[end - 1].t > t) end--;
  return end;
}

/** The last events of the first `end`. */
export function eventsTable(events: readonly NamedMarker[], end: number): HTMLElement {
  const shown = events.slice(Math.max(0, end - MAX_EVENTS), end);
  const root = el('div', undefined, 'events-at');
  root.appendChild(el('p', `${end > shown.length ? `The last ${shown.length} of ${end}` : `${end}`} events up to the cursor (TIME in m:ss.mmm since the failure):`, 'caption'));
  const grid = table(['TIME', 'OBJECT', 'REASON', 'MESSAGE'], shown.map((e) => [formatTime(e.t).trim(), e.object, e.reason, e.message]));
  grid.classList.add('kubectl');
  grid.setAttribute('aria-label', 'Events up to the cursor');
  const box = scroll(grid);
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', 'events table');
  root.appendChild(box);
  return root;
}
