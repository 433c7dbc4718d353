/**
 * The time axis above the lanes: round ticks in seconds/minutes since the failure, the key
 * moments labelled (in three staggered rows; a label with no room there is named in a line below: zooming in makes room) and the cursor.
 */
import { formatDuration } from '../src/report/format';
import type { KeyMoment } from '../src/report/timeline/model';
import { el, svg, svgText, withTitle } from './dom';
import type { Geometry } from './lanes';
import { axisLabel, insideEdges, span, ticks, type TimeWindow } from './timeScale';

export const AXIS_HEIGHT = 58;
const CHAR_PX = 6.5;

export class AxisView {
  readonly element = el('div', undefined, 'axis');
  private readonly chart = svg('svg', { height: AXIS_HEIGHT }, 'axis-chart');
  private readonly cursorMark = svg('g', {}, 'axis-cursor');
  /** The key moments in view whose labels found no room on the axis (a narrow column), named in text below it. */
  private readonly unlabelled = el('div', undefined, 'axis-unlabelled');
  /** Tick labels with their extent, to hide those the cursor's flag would cover. */
  private tickLabels: { element: SVGElement; left: number; right: number }[] = [];

  /** The window and width last drawn, to turn a pointer position into a time. */
  private shown: { view: TimeWindow; chartWidth: number } | undefined;

  /** `scrub(t)`: the pointer pressed on the axis, or dragged along it, places the cursor there. */
  constructor(scrub: (t: number) => void) {
    this.chart.setAttribute('aria-hidden', 'true');
    this.unlabelled.hidden = true;
    this.element.append(this.chart, this.unlabelled);
    let pointer: number | undefined;
    const at = (event: PointerEvent) => {
      const t = this.timeAt(event.clientX);
      if (t !== undefined) scrub(t);
    };
    this.chart.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      pointer = event.pointerId;
      this.chart.setPointerCapture(event.pointerId);
      at(event);
    });
    this.chart.addEventListener('pointermove', (event) => {
      if (event.pointerId === pointer) at(event);
    });
    this.chart.addEventListener('pointerup', () => (pointer = undefined));
  }

  private timeAt(clientX: number): number | undefined {
    if (!this.shown) return undefined;
    const { view, chartWidth } = this.shown;
    const x = clientX - this.chart.getBoundingClientRect().left;
    return view.fromMs + (Math.min(Math.max(x, 0), chartWidth) / chartWidth) * span(view);
  }

  render(view: TimeWindow, geometry: Geometry, moments: readonly KeyMoment[], cursorMs: number): void {
    const { chartWidth, labelWidth } = geometry;
    this.shown = { view, chartWidth };
    const x = (t: number) => ((t - view.fromMs) / span(view)) * chartWidth;
    this.chart.style.marginLeft = `${labelWidth}px`;
    this.chart.setAttribute('width', String(chartWidth));
    const shapes: SVGElement[] = [svg('line', { x1: 0, x2: chartWidth, y1: 16.5, y2: 16.5 }, 'axis-line')];
    this.tickLabels = [];
    for (const tick of ticks(view, chartWidth)) {
      const tx = x(tick.t);
      // Centred on its tick, but kept inside the chart (the last one, "10m", overran its edge).
      const half = (tick.label.length * CHAR_PX) / 2;
      const cx = Math.min(Math.max(tx, half), chartWidth - half);
      const label = svgText(cx, 10, tick.label, 'axis-label');
      this.tickLabels.push({ element: label, left: cx - half, right: cx + half });
      shapes.push(svg('line', { x1: tx, x2: tx, y1: 12, y2: 17 }, 'axis-tick'), label);
    }
    const rowEnds = [-Infinity, -Infinity, -Infinity];
    // Drawn after every line, so that no other moment's line crosses a label.
    const labels: SVGElement[] = [];
    const dropped: string[] = [];
    moments.forEach((moment) => {
      const mx = x(moment.t);
      if (mx < 0 || mx > chartWidth) return;
      // Its time as the summary writes times (3ms, 5m25.103s).
      const named = `${formatDuration(moment.t)}  ${moment.label}`;
      // Under a wider, invisible line that names it on hover: its label may be dropped below.
      shapes.push(svg('line', { x1: mx, x2: mx, y1: 17, y2: AXIS_HEIGHT }, `moment moment-${moment.kind}`), withTitle(svg('line', { x1: mx, x2: mx, y1: 17, y2: AXIS_HEIGHT }, 'moment-hit'), named));
      // A label wider than the chart is shortened to fit it, never drawn left of it.
      const fits = Math.max(1, Math.floor(chartWidth / CHAR_PX));
      const text = moment.label.length <= fits ? moment.label : `${moment.label.slice(0, Math.max(0, fits - 1))}…`;
      const width = text.length * CHAR_PX;
      const left = Math.max(0, Math.min(mx + 2, chartWidth - width));
      const row = rowEnds.findIndex((end) => end < left);
      if (row < 0) {
        dropped.push(`${formatDuration(moment.t)} ${moment.label}`);
        return;
      }
      rowEnds[row] = left + width + 4;
      labels.push(withTitle(svgText(left, 27 + row * 12, text, `moment-label moment-${moment.kind}`), named));
    });
    shapes.push(...labels, this.cursorMark);
    this.chart.replaceChildren(...shapes);
    this.unlabelled.hidden = dropped.length === 0;
    this.unlabelled.style.marginLeft = `${labelWidth}px`;
    this.unlabelled.textContent = dropped.length === 0 ? '' : `Also: ${dropped.join(' · ')}`;
    this.setCursor(cursorMs, x(cursorMs), chartWidth);
  }

  setCursor(cursorMs: number, cx: number, chartWidth: number): void {
    // A cursor outside the view: its flag points to the side it is on, and no line is drawn.
    const outside = cx < 0 || cx > chartWidth;
    const text = `${cx < 0 ? '◀ ' : ''}${axisLabel(Math.round(cursorMs), 1)}${cx > chartWidth ? ' ▶' : ''}`;
    const width = text.length * CHAR_PX + 8;
    const left = Math.min(Math.max(cx - width / 2, 0), chartWidth - width);
    // The flag sits on the tick row: a label under it is hidden rather than read as "3m20s30s".
    for (const tick of this.tickLabels) tick.element.classList.toggle('covered', tick.right > left - 2 && tick.left < left + width + 2);
    this.cursorMark.replaceChildren(
      ...(outside ? [] : [svg('line', { x1: insideEdges(cx, chartWidth), x2: insideEdges(cx, chartWidth), y1: 12, y2: AXIS_HEIGHT }, 'cursor-line')]),
      svg('rect', { x: left, y: 0, width, height: 12, rx: 2 }, 'cursor-flag'),
      svgText(left + 4, 10, text, 'cursor-flag-text'),
    );
  }
}
