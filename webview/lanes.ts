/**
 * The lanes: a label column (HTML, so names wrap to an ellipsis and are focusable buttons) and
 * our own SVG chart. Only the rows in view are built (a 1,000-pod trace has over a thousand
 * rows); scrolling, zooming and panning rebuild that slice, moving the cursor moves one line.
 */
import type { CountStep, Marker, NodeLane, PodLane, Span, Timeline } from '../src/report/timeline/model';
import { axisLabel, insideEdges, span, type TimeWindow } from './timeScale';
import { el, svg, withTitle } from './dom';
import { ROW_HEIGHTS, visibleRows, type Row, type RowLayout } from './rows';
import { CATEGORY_LABELS } from '../src/report/timeline/statusCategory';
import { fitMiddle, longestFitting } from './fitText';
import { sharedNames } from '../src/report/workloadLabel';

export interface LaneActions {
  reveal(row: Row): void;
  toggle(workloadId: string): void;
  /** A click (not a drag) on the chart at time t. */
  cursor(t: number): void;
  /** Dragged by `deltaMs`, or wheel-zoomed by `factor` around `anchorMs`. */
  pan(deltaMs: number): void;
  zoom(factor: number, anchorMs: number): void;
}

export interface Geometry {
  labelWidth: number;
  chartWidth: number;
}

/** Pod names are drawn at 0.92em, endpoints at 0.88em and tags at 0.8em (timeline.css). */
const POD_FONT_SCALE = 0.92;
const ENDPOINTS_FONT_SCALE = 0.88;
const TAG_FONT_SCALE = 0.8;
/** At this width or less the label column shows names without their tags (timeline.css .narrow). */
const NARROW_LABELS = 170;

/** The label column takes about a third of a narrow panel, at most 260 px of a wide one. */
export function geometry(totalWidth: number): Geometry {
  // At least 140 px: in a side column a node's name and its "failed" tag fit (worker-a1 was cut at 120).
  const labelWidth = Math.round(Math.min(260, Math.max(140, totalWidth * 0.3)));
  return { labelWidth, chartWidth: Math.max(totalWidth - labelWidth, 60) };
}

function stepClass(step: CountStep): string {
  return step.total === 0 ? 'count-none' : step.ready >= step.total ? 'count-full' : step.ready === 0 ? 'count-zero' : 'count-short';
}

function describeMarker(m: Marker): string {
  return `${axisLabel(m.t, 1)}  ${m.reason}: ${m.message}`;
}

export class LanesView {
  readonly element = el('div', undefined, 'lanes');
  private readonly inner = el('div', undefined, 'lanes-inner');
  private readonly slice = el('div', undefined, 'lanes-slice');
  private readonly labels = el('div', undefined, 'lane-labels');
  private readonly chart = svg('svg', {}, 'lane-chart');
  private readonly cursorLine = svg('line', {}, 'cursor-line');
  /** The rows the lanes lay out (main.ts reads it to size them). */
  layout: RowLayout | undefined;
  /** The trace shown and, when comparing, the other one. */
  private timelines: Timeline[] = [];
  /** Kind/name of workloads that several namespaces have: their lanes name the namespace. */
  private ambiguous = new Set<string>();
  /** Per workload name, the start it shares with another ("checkout-service-" of checkout-service-api): dropped first when it must be shortened. */
  private sharedStarts = new Map<string, string>();
  private view: TimeWindow = { fromMs: 0, toMs: 1 };
  private cursorMs = 0;
  private geometry: Geometry = geometry(600);
  /** The height main.ts gave the lanes (reading clientHeight would force a layout mid-build). */
  height = 400;
  private scrollPosition = 0;
  private drag: { x: number; moved: boolean; pointer: number } | undefined;

  /**
   * The labels' font, which they inherit from the body (timeline.css): read while the page is still
   * empty, since reading it from the built lanes forces a style pass of the whole page before the one that paints.
   */
  private readonly labelFont = bodyFont();
  /**
   * One canvas per font: setting a canvas's font parses it and resolves its fallback families, which
   * costs more than the measuring (labels of different fonts alternate).
   */
  private readonly canvases = new Map<string, CanvasRenderingContext2D | null>();
  /** Widths already measured, by font and text: labels are drawn anew on every zoom and pan. */
  private readonly widths = new Map<string, number>();

  /** False in the HTML report: there is no editor to show YAML in, so names are plain text. */
  revealsYaml = true;

  constructor(private readonly actions: LaneActions) {
    this.labels.setAttribute('role', 'list');
    this.labels.setAttribute('aria-label', 'Lanes: nodes, workloads and pods');
    this.chart.setAttribute('aria-hidden', 'true');
    this.slice.append(this.labels, this.chart);
    this.inner.appendChild(this.slice);
    this.element.appendChild(this.inner);
    this.element.addEventListener('scroll', () => {
      this.scrollPosition = this.element.scrollTop;
      this.render();
    });
    this.chart.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.chart.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.chart.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.chart.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    this.labels.addEventListener('keydown', (e) => this.labelKey(e));
  }

  /**
   * ↑/↓ on a lane's button go to the previous/next lane that has one, scrolling it into view: only
   * the lanes in view are built, so the keyboard reaches every lane this way (Tab reaches those in view).
   */
  private labelKey(event: KeyboardEvent): void {
    if ((event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const focused = this.focusedControl();
    const layout = this.layout;
    if (!focused || !layout) return;
    event.preventDefault();
    event.stopPropagation();
    const from = layout.rows.findIndex((row) => row.id === focused.rowId);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    let to = from + step;
    while (to >= 0 && to < layout.rows.length && !this.hasControl(layout.rows[to])) to += step;
    if (from < 0 || to < 0 || to >= layout.rows.length) return;
    const rowTop = layout.offsets[to];
    const rowBottom = layout.offsets[to + 1];
    if (rowTop < this.scrollPosition) this.scrollTop = rowTop;
    else if (rowBottom > this.scrollPosition + this.height) this.scrollTop = rowBottom - this.height;
    this.render();
    const row = layout.rows[to];
    this.restoreFocus({ rowId: row.id, control: row.kind === 'workload' ? focused.control : 'name' });
  }

  /** A workload lane has its fold button; a pod lane a name button where names show YAML. */
  private hasControl(row: Row): boolean {
    return row.kind === 'workload' || (row.kind === 'pod' && this.revealsYaml);
  }

  setData(timelines: Timeline[], layout: RowLayout, height: number): void {
    if (timelines !== this.timelines) {
      const refs = timelines.flatMap((t) => t.workloads.map((w) => w.ref));
      this.ambiguous = sharedNames(refs);
      this.sharedStarts = sharedStarts(refs.map((r) => r.name));
    }
    this.timelines = timelines;
    this.height = height;
    this.element.style.height = `${height}px`;
    this.layout = layout;
    this.inner.style.height = `${layout.offsets[layout.rows.length]}px`;
  }

  setView(view: TimeWindow, cursorMs: number, width: number): void {
    this.view = view;
    this.cursorMs = cursorMs;
    this.geometry = geometry(width);
    this.render();
  }

  /** Only the cursor moved: one attribute, no rebuild. */
  setCursor(cursorMs: number): void {
    this.cursorMs = cursorMs;
    const x = insideEdges(this.x(cursorMs), this.geometry.chartWidth);
    this.cursorLine.setAttribute('x1', String(x));
    this.cursorLine.setAttribute('x2', String(x));
  }

  /** Where the lanes are scrolled to, as last set or scrolled: reading the element's would force a layout mid-build. */
  get scrollTop(): number {
    return this.scrollPosition;
  }

  set scrollTop(value: number) {
    this.element.scrollTop = value;
    this.scrollPosition = this.element.scrollTop;
  }

  x(t: number): number {
    return ((t - this.view.fromMs) / span(this.view)) * this.geometry.chartWidth;
  }

  private t(clientX: number): number {
    const left = this.chart.getBoundingClientRect().left;
    return this.view.fromMs + ((clientX - left) / this.geometry.chartWidth) * span(this.view);
  }

  render(): void {
    const layout = this.layout;
    if (!layout || this.timelines.length === 0) return;
    const { labelWidth, chartWidth } = this.geometry;
    const height = this.height;
    const top = this.scrollPosition;
    const [first, end] = visibleRows(layout, top, height);
    this.slice.style.top = `${top}px`;
    this.slice.style.height = `${height}px`;
    this.labels.style.width = `${labelWidth}px`;
    this.labels.classList.toggle('narrow', labelWidth <= NARROW_LABELS);
    this.chart.setAttribute('width', String(chartWidth));
    this.chart.setAttribute('height', String(height));
    this.chart.style.left = `${labelWidth}px`;

    const labels: HTMLElement[] = [];
    const shapes: SVGElement[] = [this.defs()];
    for (let i = first; i < end; i++) {
      const row = layout.rows[i];
      const y = layout.offsets[i] - top;
      const label = this.label(row, y, i);
      // Only the rows in view are built: each says where it sits in the whole list.
      label.setAttribute('aria-setsize', String(layout.rows.length));
      label.setAttribute('aria-posinset', String(i + 1));
      labels.push(label);
      this.drawRow(row, y, shapes, layout);
    }
    // Each run's key moments across its own rows.
    this.timelines.forEach((timeline, run) => {
      const [from, to] = layout.runRows[run];
      const y1 = Math.max(layout.offsets[from] - top, 0);
      const y2 = Math.min(layout.offsets[to] - top, height);
      if (y2 <= y1) return;
      for (const moment of timeline.keyMoments) {
        const x = this.x(moment.t);
        if (x >= 0 && x <= chartWidth) shapes.push(svg('line', { x1: x, x2: x, y1, y2 }, `moment moment-${moment.kind}`));
      }
    });
    this.cursorLine.setAttribute('y1', '0');
    this.cursorLine.setAttribute('y2', String(height));
    shapes.push(this.cursorLine);
    const focus = this.focusedControl();
    this.labels.replaceChildren(...labels);
    this.chart.replaceChildren(...shapes);
    this.setCursor(this.cursorMs);
    if (focus) this.restoreFocus(focus);
  }

  /** The label button that has the keyboard focus: its row and which of the row's buttons. */
  private focusedControl(): { rowId: string; control: string } | undefined {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.labels.contains(active)) return undefined;
    const item = active.closest<HTMLElement>('.lane-label');
    return item?.dataset.id ? { rowId: item.dataset.id, control: active.classList.contains('disclosure') ? 'disclosure' : 'name' } : undefined;
  }

  /**
   * The labels are built anew on each draw: the same row's button gets the focus back, so keys
   * keep working (they are handled by the timeline group); a row scrolled out hands it to the cursor.
   */
  private restoreFocus({ rowId, control }: { rowId: string; control: string }): void {
    const item = [...this.labels.children].find((child) => (child as HTMLElement).dataset.id === rowId);
    const target = item?.querySelector<HTMLElement>(`button.${control}`) ?? this.element.parentElement?.querySelector<HTMLElement>('[role=slider]');
    target?.focus({ preventScroll: true });
  }

  private defs(): SVGElement {
    // Stripes in the background colour over a bar: "the API says this, but the node is down".
    const defs = svg('defs');
    const pattern = svg('pattern', { id: 'node-down', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    pattern.appendChild(svg('rect', { width: 2.5, height: 6 }, 'hatch'));
    defs.appendChild(pattern);
    return defs;
  }

  private label(row: Row, y: number, index: number): HTMLElement {
    const item = el('div', undefined, `lane-label lane-label-${row.kind}`);
    item.setAttribute('role', 'listitem');
    item.style.top = `${y}px`;
    item.style.height = `${ROW_HEIGHTS[row.kind]}px`;
    item.dataset.row = String(index);
    item.dataset.id = row.id;
    switch (row.kind) {
      case 'section':
        item.appendChild(el('span', row.label, row.id.endsWith('section:run') ? 'run-title' : 'section-title'));
        item.title = row.label;
        break;
      case 'node': {
        // Cloud node names differ at their end: the middle goes first.
        const name = el('span', this.fit(row.lane.name, this.geometry.labelWidth - (row.lane.failed ? 58 : 14), 1), 'name');
        item.appendChild(name);
        if (row.lane.failed) item.appendChild(el('span', 'failed', 'tag tag-failed'));
        item.title = `node/${row.lane.name}${row.lane.zone ? ` (${row.lane.zone})` : ''}${row.lane.failed ? ', failed in this scenario' : ''}`;
        break;
      }
      case 'workload': {
        const toggle = el('button', row.collapsed ? '▸' : '▾', 'disclosure');
        toggle.setAttribute('aria-expanded', String(!row.collapsed));
        toggle.setAttribute('aria-label', `${row.collapsed ? 'Show' : 'Hide'} the pods of ${row.lane.ref.kind} ${row.lane.ref.name}`);
        toggle.addEventListener('click', () => this.actions.toggle(row.id));
        // Shortened in the middle like pods (argocd-repo-server and argocd-redis differ past their start);
        // the namespace goes first when another namespace has a workload of that kind and name.
        const outcome = row.lane.summary?.outcome ?? '';
        const shown = this.ambiguous.has(`${row.lane.ref.kind}/${row.lane.ref.name}`) ? `${row.lane.ref.namespace}/${row.lane.ref.name}` : row.lane.ref.name;
        let tagWidth = this.geometry.labelWidth <= NARROW_LABELS || !outcome ? 0 : this.measure(outcome, TAG_FONT_SCALE) + 14;
        // The name wins: a tag that would cut a name of up to 20 characters, or a longer one below its first 20, is left out (the name's label and the summary say the outcome).
        if (tagWidth > 0 && this.geometry.labelWidth - 36 - tagWidth < this.measure(shown.slice(0, 20), 1, '600')) tagWidth = 0;
        // Workload names are bold (timeline.css .lane-label-workload).
        const name = this.nameOf(row, this.fitDistinct(shown, this.geometry.labelWidth - 36 - tagWidth, 1, '600'), `${row.lane.ref.kind}/${row.lane.ref.name} in ${row.lane.ref.namespace || 'default'}`,
          `${row.lane.ref.kind} ${shown}, ${outcome || 'no summary'}`, 'show its YAML');
        // The name's label already says the outcome.
        const tag = el('span', outcome, `tag outcome-${outcome || 'none'}`);
        tag.setAttribute('aria-hidden', 'true');
        item.append(toggle, name);
        if (tagWidth > 0 || this.geometry.labelWidth <= NARROW_LABELS) item.append(tag);
        break;
      }
      case 'pod': {
        // A second object of the same name (a StatefulSet's new pod) says so.
        const again = /#[1-9]\d*$/.test(row.lane.id) ? ' (new)' : '';
        const replaced = row.lane.replaces ? ', a replacement' : '';
        item.appendChild(this.nameOf(row, this.fitDistinct(row.lane.ref.name, this.geometry.labelWidth - 32 - this.measure(again, POD_FONT_SCALE), POD_FONT_SCALE, '', row.workload?.ref.name) + again, `pod/${row.lane.ref.name}${replaced}`,
          `Pod ${row.lane.ref.name}${replaced}, ${row.lane.bars.map((b) => b.status).filter((s, i, all) => i === 0 || all[i - 1] !== s).join(' then ')}`, 'show the YAML of its workload'));
        break;
      }
      case 'endpoints':
        item.appendChild(el('span', `endpoints ${this.fit(row.lane.ref.name, this.geometry.labelWidth - 32 - this.measure('endpoints ', ENDPOINTS_FONT_SCALE), ENDPOINTS_FONT_SCALE)}`, 'name dim'));
        item.title = `EndpointSlice of Service ${row.lane.ref.name}: ready endpoints / all endpoints`;
        break;
    }
    return item;
  }

  /** Text width in the label column's font (pod names are 0.92em, timeline.css), measured on a canvas. */
  private measure(text: string, scale: number, weight = ''): number {
    if (!text) return 0;
    const { size, family } = this.labelFont;
    const font = `${weight ? `${weight} ` : ''}${size * scale}px ${family}`;
    const key = `${font}\n${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      let canvas = this.canvases.get(font);
      if (canvas === undefined) {
        canvas = document.createElement('canvas').getContext('2d');
        if (canvas) canvas.font = font;
        this.canvases.set(font, canvas);
      }
      width = canvas ? canvas.measureText(text).width : text.length * size * 0.6 * scale;
      this.widths.set(key, width);
    }
    return width;
  }

  /** Cloud node and pod names differ at their ends: the middle goes first. */
  private fit(text: string, widthPx: number, scale: number, weight = ''): string {
    return fitMiddle(text, widthPx, (t) => this.measure(t, scale, weight));
  }

  /**
   * A workload's or its pod's name shortened: the start the workload's name shares with another
   * goes first (names that differ in their middle looked alike at the width of a side column).
   */
  private fitDistinct(text: string, widthPx: number, scale: number, weight: string, workload = text.slice(text.indexOf('/') + 1)): string {
    // A workload's shown text may be namespace/name; its pods' names start with its name.
    const shared = this.sharedStarts.get(workload) ?? '';
    const start = text.indexOf(shared, text.lastIndexOf('/') + 1);
    if (shared.length < 4 || start < 0 || this.measure(text, scale, weight) <= widthPx) return this.fit(text, widthPx, scale, weight);
    const head = text.slice(0, start);
    const rest = text.slice(start + shared.length);
    if (this.measure(`${head}…${rest}`, scale, weight) > widthPx) return this.fit(`${head}…${rest}`, widthPx, scale, weight);
    // Room to spare: as much of the shared start as fits comes back before the ellipsis ("checkout-ser…frontend-v3", not "…v3").
    const kept = longestFitting(0, shared.length, (n) => this.measure(`${head}${shared.slice(0, n)}…${rest}`, scale, weight) <= widthPx);
    return `${head}${shared.slice(0, kept)}…${rest}`;
  }

  /** A workload's or pod's name: a button that shows the YAML in the editor, plain text in the report. */
  private nameOf(row: Row, text: string, title: string, label: string, action: string): HTMLElement {
    if (!this.revealsYaml) {
      // A span cannot be named (aria-label is ignored on it): the shortened name is hidden from
      // screen readers and the full label read in its place.
      const name = el('span', undefined, 'name');
      name.title = title;
      const shown = el('span', text);
      shown.setAttribute('aria-hidden', 'true');
      name.append(shown, el('span', label, 'sr-only'));
      return name;
    }
    const name = el('button', text, 'name link');
    name.title = `${title}: ${action}`;
    name.setAttribute('aria-label', `${label}: ${action}`);
    name.addEventListener('click', () => this.actions.reveal(row));
    return name;
  }

  private spanX(s: Span): [number, number] | undefined {
    const { chartWidth } = this.geometry;
    const x1 = Math.max(this.x(s.fromMs), -2);
    const x2 = Math.min(this.x(s.toMs ?? this.view.toMs), chartWidth + 2);
    return x2 > x1 ? [x1, x2] : undefined;
  }

  private drawRow(row: Row, y: number, shapes: SVGElement[], layout: RowLayout): void {
    const h = ROW_HEIGHTS[row.kind];
    switch (row.kind) {
      case 'section':
        shapes.push(svg('line', { x1: 0, x2: this.geometry.chartWidth, y1: y + h - 0.5, y2: y + h - 0.5 }, 'section-rule'));
        break;
      case 'node':
        this.drawNode(row.lane, y, h, shapes);
        break;
      case 'workload':
        this.drawSteps(row.lane.readySteps, y + 4, h - 10, shapes, `READY of ${row.lane.ref.name}`);
        break;
      case 'endpoints':
        this.drawSteps(row.lane.steps, y + 4, h - 8, shapes, `ready endpoints of ${row.lane.ref.name}`);
        this.drawMarkers(row.lane.events, y + h - 4, shapes);
        break;
      case 'pod':
        this.drawPod(row.lane, row.run, y, h, shapes, layout);
        break;
    }
  }

  private drawNode(lane: NodeLane, y: number, h: number, shapes: SVGElement[]): void {
    for (const band of lane.bands) {
      const xs = this.spanX(band);
      if (!xs) continue;
      shapes.push(withTitle(svg('rect', { x: xs[0], y: y + 5, width: xs[1] - xs[0], height: h - 10 }, `node-band condition-${band.condition === 'True' ? 'true' : band.condition === 'False' ? 'false' : 'unknown'}`),
        `node/${lane.name} ${band.status} (Ready=${band.condition}) from ${axisLabel(band.fromMs, 1)}${band.taints.length ? `; taints ${band.taints.join(', ')}` : ''}`));
      if (band.taints.some((t) => t.endsWith(':NoExecute'))) shapes.push(svg('rect', { x: xs[0], y: y + h - 5, width: xs[1] - xs[0], height: 3 }, 'noexecute'));
    }
    for (const taint of lane.taints) {
      const x = this.x(taint.t);
      if (x < -4 || x > this.geometry.chartWidth + 4) continue;
      shapes.push(withTitle(svg('path', { d: `M${x - 4},${y + 1} L${x + 4},${y + 1} L${x},${y + 7} Z` }, taint.added ? 'taint-added' : 'taint-removed'),
        `${axisLabel(taint.t, 1)}  taint ${taint.taint} ${taint.added ? 'added' : 'removed'}`));
    }
  }

  private drawSteps(steps: readonly CountStep[], top: number, height: number, shapes: SVGElement[], what: string): void {
    let previous: { x: number; y: number } | undefined;
    for (const step of steps) {
      const xs = this.spanX(step);
      if (!xs) continue;
      const y = top + (step.total === 0 ? height : (1 - step.ready / step.total) * height);
      if (previous && Math.abs(previous.x - xs[0]) < 1) shapes.push(svg('line', { x1: xs[0], x2: xs[0], y1: previous.y, y2: y }, 'count-riser'));
      shapes.push(withTitle(svg('line', { x1: xs[0], x2: xs[1], y1: y, y2: y }, `count ${stepClass(step)}`), `${what}: ${step.ready}/${step.total} from ${axisLabel(step.fromMs, 1)}`));
      previous = { x: xs[1], y };
    }
  }

  private drawMarkers(markers: readonly Marker[], y: number, shapes: SVGElement[]): void {
    for (const m of markers) {
      const x = this.x(m.t);
      if (x < -2 || x > this.geometry.chartWidth + 2) continue;
      shapes.push(withTitle(svg('rect', { x: x - 1, y, width: 2, height: 4 }, 'event-marker'), describeMarker(m)));
    }
  }

  private drawPod(lane: PodLane, run: number, y: number, h: number, shapes: SVGElement[], layout: RowLayout): void {
    for (const bar of lane.bars) {
      const xs = this.spanX(bar);
      if (!xs) continue;
      shapes.push(withTitle(svg('rect', { x: xs[0], y: y + 3, width: Math.max(xs[1] - xs[0], 1), height: h - 7 }, `bar cat-${bar.category}`),
        `pod/${lane.ref.name} ${bar.status} ${bar.ready} on ${bar.node} from ${axisLabel(bar.fromMs, 1)} (${CATEGORY_LABELS[bar.category]})`));
    }
    for (const down of lane.nodeDown) {
      const xs = this.spanX(down);
      if (xs) shapes.push(withTitle(svg('rect', { x: xs[0], y: y + 3, width: xs[1] - xs[0], height: h - 7 }, 'node-down'), `pod/${lane.ref.name}: its node is down or not Ready from ${axisLabel(down.fromMs, 1)}, whatever the API says of the pod`));
    }
    if (lane.replaces) {
      const from = layout.podRow.get(`${run}|${lane.replaces}`);
      const x = this.x(lane.createdMs);
      if (from !== undefined && x >= 0 && x <= this.geometry.chartWidth) {
        const fromY = layout.offsets[from] - (layout.offsets[layout.podRow.get(`${run}|${lane.id}`)!] - y) + h / 2;
        shapes.push(withTitle(svg('path', { d: `M${x},${fromY} L${x},${y + 3} M${x - 3},${y} L${x},${y + 3} L${x + 3},${y}` }, 'replacement-link'), `pod/${lane.ref.name} replaces ${lane.replaces.split('/').pop()!.replace(/#\d+$/, '')}`));
      }
    }
    this.drawMarkers(lane.events, y + h - 4, shapes);
  }

  private pointerDown(event: PointerEvent): void {
    if (event.button !== 0) return;
    this.drag = { x: event.clientX, moved: false, pointer: event.pointerId };
    this.chart.setPointerCapture(event.pointerId);
  }

  private pointerMove(event: PointerEvent): void {
    if (!this.drag || event.pointerId !== this.drag.pointer) return;
    const dx = event.clientX - this.drag.x;
    if (!this.drag.moved && Math.abs(dx) < 4) return;
    this.drag.moved = true;
    this.drag.x = event.clientX;
    this.actions.pan((-dx / this.geometry.chartWidth) * span(this.view));
  }

  private pointerUp(event: PointerEvent): void {
    if (!this.drag || event.pointerId !== this.drag.pointer) return;
    if (!this.drag.moved) this.actions.cursor(this.t(event.clientX));
    this.drag = undefined;
  }

  private wheel(event: WheelEvent): void {
    // Horizontal wheel (or Shift) pans; vertical zooms around the pointer.
    event.preventDefault();
    const horizontal = Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.shiftKey ? event.deltaY : 0;
    if (horizontal) this.actions.pan((horizontal / this.geometry.chartWidth) * span(this.view));
    else if (event.deltaY) this.actions.zoom(Math.exp(event.deltaY * 0.002), this.t(event.clientX));
  }
}

function bodyFont(): { size: number; family: string } {
  const style = getComputedStyle(document.body);
  return { size: parseFloat(style.fontSize) || 13, family: style.fontFamily };
}

/**
 * For each name, the longest start it shares with another name, cut after a separator so that no
 * word is split ("web-" of web-api and web-app): neighbours in sorted order share the most.
 */
function sharedStarts(names: readonly string[]): Map<string, string> {
  const sorted = [...new Set(names)].sort();
  const common = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const starts = new Map<string, string>();
  sorted.forEach((name, i) => {
    const length = Math.max(i > 0 ? common(name, sorted[i - 1]) : 0, i + 1 < sorted.length ? common(name, sorted[i + 1]) : 0);
    const cut = Math.max(name.lastIndexOf('-', length - 1), name.lastIndexOf('.', length - 1));
    if (cut > 0) starts.set(name, name.slice(0, cut + 1));
  });
  return starts;
}
