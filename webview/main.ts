/**
 * The timeline: lanes per node and per workload drawn from the trace, a time axis, zoom and pan,
 * a cursor (mouse or arrow keys) that shows `kubectl get pods,nodes` as of that instant, and the
 * summary per workload. The same code runs in the VS Code panel and in the HTML report.
 */
import { reportHeader } from '../src/report/textReport';
import { buildTimeline, type Timeline } from '../src/report/timeline/model';
import { CATEGORY_LABELS, STATUS_CATEGORIES } from '../src/report/timeline/statusCategory';
import { AxisView } from './axis';
import { CursorTable, eventsTable, eventsUpTo, narrowColumn } from './cursorTable';
import { allEvents } from '../src/report/timeline/namedEvents';
import { el } from './dom';
import { connectHost } from './host';
import { geometry, LanesView } from './lanes';
import { PAGE_LOAD_META, type FindingRef, type HostMessage } from './protocol';
import { layoutRows, type Row } from './rows';
import { INITIAL_UI, restoreState, type TabId, type UiState } from './state';
import { comparisonTable, summaryCards } from './summary';
import { axisLabel, clampWindow, cursorStep, panWindow, revealTime, span, zoomWindow, type TimeWindow } from './timeScale';
import { button, checkbox, tabs } from './controls';
import { loadControls } from './loadControls';
import { rovingFocus } from './rovingFocus';

class TimelineApp {
  private message: HostMessage | undefined;
  private timeline: Timeline | undefined;
  /** The run this one is compared with, drawn below it on the same axis. */
  private compare: { title: string; timeline: Timeline } | undefined;
  private readonly compareTable = new CursorTable(() => this.relayoutTables());
  private ui: UiState = { ...INITIAL_UI };
  private bounds: TimeWindow = { fromMs: 0, toMs: 1 };
  /** The events list the Events tab shows, and how many of them it shows. */
  private eventsShown: { events: readonly unknown[]; end: number } | undefined;
  /** Every event and the instants to jump to, sorted: built on first use, not before the first paint. */
  private eventList: { events: ReturnType<typeof allEvents>; times: number[] } | undefined;

  private readonly lanes = new LanesView({
    reveal: (row) => this.reveal(row),
    toggle: (id) => this.toggle(id),
    cursor: (t) => {
      this.axis.element.focus({ preventScroll: true });
      this.moveCursor(t, false);
    },
    pan: (delta) => this.setView(panWindow(this.view, delta, this.bounds)),
    zoom: (factor, anchor) => this.setView(zoomWindow(this.view, factor, anchor, this.bounds)),
  });
  private readonly axis = new AxisView((t) => {
    this.axis.element.focus({ preventScroll: true });
    this.moveCursor(t, false);
  });
  private readonly slider = el('div', undefined, 'timeline');
  private readonly cursorTable = new CursorTable(() => this.relayoutTables());
  private readonly cursorPanel = this.cursorTable.element;
  private readonly summaryPanel = el('div');
  private readonly eventsPanel = el('div');
  private pendingFrame = 0;
  private resizeFrame = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The width the lanes were last drawn for (0: not drawn yet). */
  private renderedWidth = 0;
  /**
   * The window's size, read while the page is still empty: read once the page is built, it forces
   * a style and layout pass (8–10 ms for a 1,000-pod trace) before the one that paints.
   */
  private initialWindow: { width: number; height: number } | undefined = { width: window.innerWidth, height: window.innerHeight };

  constructor(private readonly host: ReturnType<typeof connectHost>) {
    this.lanes.revealsYaml = host.interactive;
    // A panel hidden behind another tab is unloaded: what the last second changed is kept first.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.save(true);
    });
    // Only a change of width needs the lanes drawn again (the observer also fires once at start).
    new ResizeObserver(() => {
      if (this.slider.clientWidth !== this.renderedWidth) this.renderView();
    }).observe(this.slider);
    // A panel resized before its trace arrives: the size read at start is out of date. Once drawn,
    // the lanes take their share of a taller or shorter window (once per frame while dragging).
    window.addEventListener('resize', () => {
      this.initialWindow = undefined;
      if (!this.timeline || this.resizeFrame) return;
      this.resizeFrame = requestAnimationFrame(() => {
        this.resizeFrame = 0;
        if (this.lanesHeight() !== this.lanes.height) this.relayout();
      });
    });
    // The kubectl table orders its columns for a side column or a wide panel.
    narrowColumn.addEventListener('change', () => this.relayoutTables());
  }

  private relayoutTables(): void {
    if (document.body.dataset.ready) this.renderCursorPanels();
  }

  private get view(): TimeWindow {
    return this.ui.view ?? this.bounds;
  }

  private get cursorMs(): number {
    return this.ui.cursorMs ?? 0;
  }

  private get events() {
    return this.eventIndex().events;
  }

  /** Every event of the run, or of both runs marked A and B when comparing: the Events tab lists them and the keys jump to them. */
  private eventIndex() {
    if (!this.eventList) {
      const runs = this.compare ? [{ mark: 'A ', timeline: this.timeline! }, { mark: 'B ', timeline: this.compare.timeline }] : [{ mark: '', timeline: this.timeline! }];
      const events = runs.flatMap(({ mark, timeline }) => allEvents(timeline).map((e) => (mark ? { ...e, object: mark + e.object } : e))).sort((a, b) => a.t - b.t);
      const moments = runs.flatMap(({ timeline }) => timeline.keyMoments.map((m) => m.t));
      this.eventList = { events, times: [...new Set([...events.map((e) => e.t), ...moments])].sort((a, b) => a - b) };
    }
    return this.eventList;
  }

  show(message: HostMessage, ui: UiState): void {
    const started = performance.now();
    this.message = message;
    this.timeline = buildTimeline(message.report);
    this.compare = message.compare ? { title: message.compare.title, timeline: buildTimeline(message.compare.report) } : undefined;
    performance.measure('kfs:model', { start: started });
    const other = this.compare?.timeline ?? this.timeline;
    this.bounds = { fromMs: Math.min(this.timeline.startMs, other.startMs), toMs: Math.max(this.timeline.endMs, other.endMs) };
    // A state kept from another run of this scenario may lie outside this run's time range.
    this.ui = { ...ui, view: ui.view && clampWindow(ui.view, this.bounds), cursorMs: ui.cursorMs === null ? null : Math.min(Math.max(ui.cursorMs, this.bounds.fromMs), this.bounds.toMs) };
    this.eventList = undefined;
    this.build();
    performance.measure('kfs:dom', { start: started });
    // The lanes paint first; the kubectl table below them follows right after that paint.
    afterFirstPaint(() => {
      document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
      this.renderCursorPanels();
      this.save(true);
      // Read by the browser tests: everything is drawn and the controls work.
      void controlsLoaded.then(() => (document.body.dataset.ready = 'true'));
    });
  }

  /** A file the run read changed since it ran: said under the title, with Run again beside it, until the next run replaces the page. */
  inputChanged(): void {
    const header = document.querySelector('#root > header');
    if (!header || header.querySelector('.stale') || !this.host.interactive) return;
    const notice = el('p', 'A file this run reads has been edited since it ran: the timeline shows the run before the edit. ', 'stale');
    notice.setAttribute('role', 'status');
    notice.appendChild(button('Run again', () => this.host.post({ type: 'rerun' }), { ariaLabel: 'Run the simulation again with the current text' }));
    header.appendChild(notice);
  }

  private build(): void {
    const message = this.message!;
    const timeline = this.timeline!;
    const root = document.getElementById('root')!;
    const header = el('header');
    header.appendChild(el('h1', message.title));
    for (const line of headerLines(message)) header.appendChild(el('p', line, 'scenario'));

    const toolbar = el('div', undefined, 'toolbar');
    toolbar.setAttribute('role', 'toolbar');
    toolbar.setAttribute('aria-label', 'Timeline controls');
    const zoomBy = (factor: number) => this.setView(zoomWindow(this.view, factor, this.cursorMs, this.bounds));
    const panBy = (share: number) => this.setView(panWindow(this.view, span(this.view) * share, this.bounds));
    toolbar.append(
      button('−', () => zoomBy(1.5), { ariaLabel: 'Zoom out', title: 'Zoom out (−)', secondary: true }),
      button('+', () => zoomBy(1 / 1.5), { ariaLabel: 'Zoom in', title: 'Zoom in (+)', secondary: true }),
      button('Fit', () => this.setView(this.bounds), { ariaLabel: 'Show the whole run', title: 'Show the whole run (0)', secondary: true }),
      button('◀', () => panBy(-0.25), { ariaLabel: 'Pan left', title: 'Pan left (Shift+←)', secondary: true }),
      button('▶', () => panBy(0.25), { ariaLabel: 'Pan right', title: 'Pan right (Shift+→)', secondary: true }),
    );
    // Hidden in either run: the workloads a fix made unaffected in run B are shown by the same box.
    const hidden = [timeline, ...(this.compare ? [this.compare.timeline] : [])].flatMap((t) => t.workloads).filter((w) => !w.affected).length;
    if (hidden > 0) toolbar.appendChild(checkbox(`Show unaffected workloads (${hidden})`, this.ui.showUnaffected, (checked) => {
      this.ui.showUnaffected = checked;
      this.relayout();
    }));
    if (this.host.interactive) {
      toolbar.appendChild(button('Run again', () => this.host.post({ type: 'rerun' }), { ariaLabel: 'Run the simulation again with the current text' }));
      toolbar.appendChild(button('Compare with…', () => this.host.post({ type: 'compare' }), { ariaLabel: 'Compare this run with another on the same time axis', secondary: true }));
    }
    rovingFocus(toolbar, controlsLoaded);

    // The axis is the cursor's slider (a slider's content is presentational, so the lanes with
    // their buttons sit beside it in the group); keys pressed anywhere in the group work.
    this.slider.replaceChildren(this.axis.element, this.lanes.element);
    this.slider.setAttribute('role', 'group');
    this.slider.setAttribute('aria-label', 'Timeline');
    this.slider.onkeydown = (event) => this.key(event);
    const cursor = this.axis.element;
    cursor.tabIndex = 0;
    cursor.setAttribute('role', 'slider');
    cursor.setAttribute('aria-label', 'Timeline cursor, time since the failure');
    cursor.setAttribute('aria-describedby', 'timeline-help');
    cursor.setAttribute('aria-valuemin', String(this.bounds.fromMs / 1000));
    cursor.setAttribute('aria-valuemax', String(this.bounds.toMs / 1000));
    this.setCursorValue();
    const help = el('p', `←/→ (or ↓/↑) move the cursor, Ctrl+←/→ or PageUp/PageDown jump to the previous/next event, Shift+←/→ pan, +/− zoom, 0 fits the run, Home/End go to its ends. Drag to pan, wheel to zoom, click to place the cursor; on a lane's button ↑/↓ go to the lane above or below${this.host.interactive ? ', and names show their YAML' : ''}.`, 'help');
    help.id = 'timeline-help';

    const panels = tabs([
      { id: 'cursor', label: 'At cursor', content: this.cursorPanel },
      { id: 'summary', label: 'Summary', content: this.summaryPanel },
      { id: 'events', label: 'Events', content: this.eventsPanel },
    ], this.ui.tab, (id) => {
      this.ui.tab = id as TabId;
      this.renderCursorPanels();
      this.save(true);
    });
    root.replaceChildren(header, toolbar, legend(), this.slider, help, panels);
    this.relayout();
  }

  private relayout(): void {
    const options = { showUnaffected: this.ui.showUnaffected, collapsed: new Set(this.ui.collapsed) };
    const layout = layoutRows(this.timeline!, options, this.compare && { titles: [this.message!.title, this.compare.title], timeline: this.compare.timeline });
    this.lanes.setData(this.compare ? [this.timeline!, this.compare.timeline] : [this.timeline!], layout, this.lanesHeight(layout));

    // Setting scrollTop forces a layout: only when there is a position to restore.
    if (this.ui.scrollTop !== this.lanes.scrollTop) this.lanes.scrollTop = this.ui.scrollTop;
    this.lanes.element.onscroll = () => {
      this.ui.scrollTop = this.lanes.scrollTop;
      this.save();
    };
    this.renderView();
    this.summaryPanel.replaceChildren();
    if (document.body.dataset.ready) this.renderCursorPanels();
    this.save();
  }

  /** Just over half the window, at least 160 px, at most what the rows need. */
  private lanesHeight(layout = this.lanes.layout): number {
    const total = layout ? layout.offsets[layout.rows.length] : Infinity;
    return Math.min(total, Math.max(160, Math.round(this.windowHeight() * 0.55)));
  }

  /** Before the first paint, the height read at start (see initialWindow). */
  private windowHeight(): number {
    return this.renderedWidth || !this.initialWindow ? window.innerHeight : this.initialWindow.height;
  }

  private renderView(): void {
    if (!this.timeline) return;
    // Until the first layout, the window's width less the body's padding and the border; the
    // resize observer corrects it if that was wrong.
    const width = this.renderedWidth ? this.slider.clientWidth : (this.initialWindow?.width ?? window.innerWidth) - 26;
    this.renderedWidth = width;
    this.lanes.setView(this.view, this.cursorMs, width);
    this.axis.render(this.view, geometry(width), this.moments(), this.cursorMs);
  }

  /** The key moments on the axis; when comparing, each run's, marked A and B. */
  private moments() {
    if (!this.compare) return this.timeline!.keyMoments;
    const mark = (run: string) => (m: Timeline['keyMoments'][number]) => ({ ...m, label: `${run} ${m.label}` });
    return [...this.timeline!.keyMoments.map(mark('A')), ...this.compare.timeline.keyMoments.map(mark('B'))].sort((a, b) => a.t - b.t);
  }

  private setView(view: TimeWindow): void {
    this.ui.view = view;
    this.renderView();
    this.save();
  }

  private moveCursor(t: number, reveal: boolean): void {
    const cursorMs = Math.round(Math.min(Math.max(t, this.bounds.fromMs), this.bounds.toMs));
    this.ui.cursorMs = cursorMs;
    const view = reveal ? revealTime(this.view, cursorMs, this.bounds) : this.view;
    if (view !== this.view) this.setView(view);
    else {
      const g = geometry(this.renderedWidth);
      this.lanes.setCursor(cursorMs);
      this.axis.setCursor(cursorMs, this.lanes.x(cursorMs), g.chartWidth);
    }
    document.body.dataset.cursorMs = String(cursorMs);
    this.setCursorValue();
    // Coalesce: holding an arrow key rebuilds the table once per frame at most.
    if (!this.pendingFrame) this.pendingFrame = requestAnimationFrame(() => {
      this.pendingFrame = 0;
      this.renderCursorPanels();
    });
    this.save();
  }

  private setCursorValue(): void {
    this.axis.element.setAttribute('aria-valuenow', String(this.cursorMs / 1000));
    // The key moments at the cursor are named: the axis that labels them is hidden from screen readers.
    const here = this.timeline ? this.moments().filter((m) => m.t === this.cursorMs).map((m) => m.label) : [];
    this.axis.element.setAttribute('aria-valuetext', `${axisLabel(Math.abs(this.cursorMs), 1)} ${this.cursorMs < 0 ? 'before' : 'after'} the failure${here.length > 0 ? `: ${here.join(', ')}` : ''}`);
  }

  private renderCursorPanels(): void {
    if (!this.timeline) return;
    // Panels out of sight are built when their tab is chosen.
    if (this.ui.tab === 'cursor') {
      this.cursorTable.show(this.timeline, this.cursorMs, this.compare ? 'A' : undefined);
      if (this.compare) this.compareTable.show(this.compare.timeline, this.cursorMs, 'B');
      if (this.compare && !this.compareTable.element.isConnected) this.cursorPanel.after(this.compareTable.element);
      if (!this.compare) this.compareTable.element.remove();
    }
    if (this.ui.tab === 'events') {
      // Rebuilt only when the cursor passes an event: a step between two events changes nothing there.
      const end = eventsUpTo(this.events, this.cursorMs);
      if (this.eventsShown?.events !== this.events || this.eventsShown.end !== end || !this.eventsPanel.firstChild) {
        this.eventsPanel.replaceChildren(eventsTable(this.events, end));
        this.eventsShown = { events: this.events, end };
      }
    }
    if (this.ui.tab === 'summary' && this.summaryPanel.childElementCount === 0) {
      const show = this.host.interactive ? (f: { index: number }) => this.host.post({ type: 'showFinding', index: f.index }) : undefined;
      const cards = (timeline: Timeline, findings: readonly FindingRef[] | undefined) =>
        summaryCards(timeline.workloads, this.ui.showUnaffected, (lane) => this.host.post({ type: 'reveal', object: lane.ref }), this.host.interactive, { findings: findings ?? [], show });
      if (!this.compare) this.summaryPanel.replaceChildren(cards(this.timeline, this.message?.findings));
      else {
        // Each run's cards under its name, with the checks of the text it ran (the current text's, before → after).
        const heading = (text: string) => el('h3', text, 'run-heading');
        this.summaryPanel.replaceChildren(
          comparisonTable(this.timeline.workloads, this.compare.timeline.workloads),
          heading(`A: ${this.message?.title ?? ''}`), cards(this.timeline, this.message?.findings),
          heading(`B: ${this.compare.title}`), cards(this.compare.timeline, this.message?.compare?.findings),
        );
      }
    }
    document.body.dataset.cursorMs = String(this.cursorMs);
  }

  private key(event: KeyboardEvent): void {
    const jump = (direction: 1 | -1) => {
      const times = this.eventIndex().times;
      const next = direction > 0 ? times.find((t) => t > this.cursorMs) : [...times].reverse().find((t) => t < this.cursorMs);
      if (next !== undefined) this.moveCursor(next, true);
    };
    const step = cursorStep(this.view);
    switch (event.key) {
      case 'ArrowLeft':
      case 'ArrowRight': {
        const direction = event.key === 'ArrowLeft' ? -1 : 1;
        if (event.shiftKey) this.setView(panWindow(this.view, direction * span(this.view) * 0.1, this.bounds));
        else if (event.ctrlKey || event.metaKey || event.altKey) jump(direction);
        else this.moveCursor(this.cursorMs + direction * step, true);
        break;
      }
      case 'PageUp':
        jump(-1);
        break;
      case 'PageDown':
        jump(1);
        break;
      case 'Home':
        this.moveCursor(this.bounds.fromMs, true);
        break;
      case 'End':
        this.moveCursor(this.bounds.toMs, true);
        break;
      case '+':
      case '=':
        this.setView(zoomWindow(this.view, 1 / 1.5, this.cursorMs, this.bounds));
        break;
      case '-':
      case '_':
        this.setView(zoomWindow(this.view, 1.5, this.cursorMs, this.bounds));
        break;
      case '0':
        this.setView(this.bounds);
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        // On the slider, as on any: up is later, down earlier. Elsewhere in the group the lanes scroll as usual.
        if (event.target !== this.axis.element) return;
        this.moveCursor(this.cursorMs + (event.key === 'ArrowUp' ? step : -step), true);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  private reveal(row: Row): void {
    if (!this.host.interactive) return;
    // A compared run may be of other files or text: only the shown run's objects are looked up.
    if (row.run !== 0) return;
    if (row.kind === 'workload') this.host.post({ type: 'reveal', object: row.lane.ref });
    else if (row.kind === 'pod') this.host.post(row.workload ? { type: 'reveal', object: row.workload.ref, pod: row.lane.ref.name } : { type: 'reveal', object: row.lane.ref });
  }

  private toggle(id: string): void {
    const collapsed = new Set(this.ui.collapsed);
    if (collapsed.has(id)) collapsed.delete(id);
    else collapsed.add(id);
    this.ui.collapsed = [...collapsed];
    this.relayout();
    this.save(true);
  }

  /**
   * setState serialises the whole trace (a megabyte for a thousand pods): a new trace, a tab or a
   * fold is kept at once, a moved cursor, scroll or view once the user has paused for a second.
   */
  private save(now = false): void {
    clearTimeout(this.saveTimer);
    const keep = () => {
      if (this.message) this.host.setState({ message: this.message, ui: this.ui });
    };
    if (now) keep();
    else this.saveTimer = setTimeout(keep, 1000);
  }
}

/**
 * Runs `then` once the page has painted something: a frame callback alone can come before the
 * first paint (the browser may hold it until the document is parsed and styled).
 */
function afterFirstPaint(then: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    setTimeout(then);
  };
  if (performance.getEntriesByName('first-contentful-paint').length > 0 || typeof PerformanceObserver === 'undefined') {
    requestAnimationFrame(run);
    return;
  }
  const observer = new PerformanceObserver(() => {
    observer.disconnect();
    run();
  });
  observer.observe({ type: 'paint', buffered: true });
  // Where paint timing is not reported, two frames are as good a guess.
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(run, 50)));
}

function legend(): HTMLElement {
  const list = el('ul', undefined, 'legend');
  list.setAttribute('aria-label', 'Colours of the node bands, the pod bars and the READY and endpoint lines');
  // A node's band is its Ready condition; its colours are lighter than the pod bars' (timeline.css).
  for (const [condition, label] of [['true', 'node Ready'], ['false', 'node Ready=False'], ['unknown', 'node Ready=Unknown']] as const) {
    const item = el('li');
    item.append(el('span', undefined, `swatch swatch-node condition-${condition}`), document.createTextNode(label));
    list.appendChild(item);
  }
  for (const category of STATUS_CATEGORIES) {
    const item = el('li');
    item.append(el('span', undefined, `swatch cat-${category}`), document.createTextNode(CATEGORY_LABELS[category]));
    list.appendChild(item);
  }
  const down = el('li');
  down.append(el('span', undefined, 'swatch swatch-node-down'), document.createTextNode('node down, not Ready or broken'));
  list.appendChild(down);
  // The READY and endpoint step lines: every one, some (a terminating endpoint still counts in the total), none.
  for (const [kind, label] of [['full', 'all ready'], ['short', 'some ready'], ['zero', 'none ready']] as const) {
    const item = el('li');
    item.append(el('span', undefined, `swatch swatch-line count-${kind}`), document.createTextNode(`line: ${label}`));
    list.appendChild(item);
  }
  return list;
}

/**
 * The run's header lines; comparing, the lines the runs share as they are and the others marked A or
 * B (what failed, what people did meanwhile, the timing), a Meanwhile line one run lacks said as nothing.
 */
function headerLines(message: HostMessage): string[] {
  const a = reportHeader(message.report.rest.scenario, message.report.rest.timing);
  if (!message.compare) return a;
  const b = reportHeader(message.compare.report.rest.scenario, message.compare.report.rest.timing);
  const meanwhile = (lines: string[]) => lines.some((l) => l.startsWith('Meanwhile: '));
  const nothing = (has: boolean, other: boolean) => (other && !has ? ['Meanwhile: nothing.'] : []);
  return [
    ...a.filter((l) => b.includes(l)),
    ...[...a.filter((l) => !b.includes(l)), ...nothing(meanwhile(a), meanwhile(b))].map((l) => `A: ${l}`),
    ...[...b.filter((l) => !a.includes(l)), ...nothing(meanwhile(b), meanwhile(a))].map((l) => `B: ${l}`),
  ];
}

/** The toolkit's controls, loaded once after the page's first paint. */
const controlsLoaded = new Promise<void>((resolve) => afterFirstPaint(() => void loadControls().then(resolve)));

let app: TimelineApp | undefined;
const host = connectHost((message) => {
  // A new trace (Run Again) keeps the user's place when it is the same scenario.
  const previous = restoreState(host.getState());
  const ui = previous && previous.message.title === message.title ? previous.ui : { ...INITIAL_UI };
  app!.show(message, ui);
}, () => app?.inputChanged());
app = new TimelineApp(host);
const saved = restoreState(host.getState());
if (saved) app.show(saved.message, saved.ui);
// In VS Code, the page's number; the HTML report has none.
const load = Number(document.querySelector(`meta[name="${PAGE_LOAD_META}"]`)?.getAttribute('content') ?? NaN);
host.post(Number.isSafeInteger(load) ? { type: 'ready', load } : { type: 'ready' });
