/**
 * The visible time window of the timeline and the arithmetic of zooming, panning and the axis.
 * Pure (no DOM), so tests check it in Node.
 */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

/** Zooming in stops at one second across the whole width. */
export const MIN_SPAN_MS = 1000;

export function span(window: TimeWindow): number {
  return window.toMs - window.fromMs;
}

/** The window moved and shrunk as little as needed to lie within the bounds. */
export function clampWindow(window: TimeWindow, bounds: TimeWindow): TimeWindow {
  const width = Math.min(Math.max(span(window), Math.min(MIN_SPAN_MS, span(bounds))), span(bounds));
  const fromMs = Math.min(Math.max(window.fromMs, bounds.fromMs), bounds.toMs - width);
  return { fromMs, toMs: fromMs + width };
}

/** factor < 1 zooms in; the instant under `anchorMs` stays where it is on screen. */
export function zoomWindow(window: TimeWindow, factor: number, anchorMs: number, bounds: TimeWindow): TimeWindow {
  const anchor = Math.min(Math.max(anchorMs, window.fromMs), window.toMs);
  const fromMs = anchor - (anchor - window.fromMs) * factor;
  const toMs = anchor + (window.toMs - anchor) * factor;
  // Keep the anchor's share of the width when the minimum span clamps the zoom.
  if (toMs - fromMs < MIN_SPAN_MS) {
    const share = (anchor - window.fromMs) / (span(window) || 1);
    return clampWindow({ fromMs: anchor - MIN_SPAN_MS * share, toMs: anchor + MIN_SPAN_MS * (1 - share) }, bounds);
  }
  return clampWindow({ fromMs, toMs }, bounds);
}

export function panWindow(window: TimeWindow, deltaMs: number, bounds: TimeWindow): TimeWindow {
  return clampWindow({ fromMs: window.fromMs + deltaMs, toMs: window.toMs + deltaMs }, bounds);
}

/** The smallest pan that brings t into view with a margin (for a cursor moved by keyboard). */
export function revealTime(window: TimeWindow, t: number, bounds: TimeWindow): TimeWindow {
  const margin = span(window) * 0.05;
  if (t < window.fromMs + margin) return panWindow(window, t - margin - window.fromMs, bounds);
  if (t > window.toMs - margin) return panWindow(window, t + margin - window.toMs, bounds);
  return window;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const STEPS_MS = [100, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, HOUR_MS, 2 * HOUR_MS, 3 * HOUR_MS, 6 * HOUR_MS, 12 * HOUR_MS, DAY_MS];

/** Axis ticks at a round step that leaves at least `minGapPx` between labels (whole days past the steps, for runs of a week). */
export function ticks(window: TimeWindow, widthPx: number, minGapPx = 64): { t: number; label: string }[] {
  const msPerPx = span(window) / Math.max(widthPx, 1);
  const step = STEPS_MS.find((s) => s / msPerPx >= minGapPx) ?? Math.ceil((minGapPx * msPerPx) / DAY_MS) * DAY_MS;
  const result: { t: number; label: string }[] = [];
  for (let t = Math.ceil(window.fromMs / step) * step; t <= window.toMs; t += step) result.push({ t, label: axisLabel(t, step) });
  return result;
}

/** "0s", "45s", "5m", "5m30s", "1h2m", "-10s"; below a second, the decimals the step needs (0.25s, 0.5s). */
export function axisLabel(ms: number, stepMs = 1000): string {
  const sign = ms < 0 ? '-' : '';
  // Rounded to the precision shown before it is split, so 5:59.999 at whole seconds is 6m, never 5m60s.
  const decimals = stepMs >= 1000 ? 0 : [1, 2].find((d) => Number.isInteger(stepMs / (1000 / 10 ** d))) ?? 3;
  const unit = 1000 / 10 ** decimals;
  let rest = Math.round(Math.abs(ms) / unit) * unit;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = (rest / 1000).toFixed(decimals).replace(/\.0+$|(\.\d*?)0+$/, '$1');
  const parts = [hours ? `${hours}h` : '', minutes ? `${minutes}m` : '', seconds !== '0' || (!hours && !minutes) ? `${seconds}s` : ''];
  return sign + parts.join('');
}

/** A keyboard step of the cursor: about a hundredth of the window, rounded to a readable unit. */
export function cursorStep(window: TimeWindow): number {
  const target = span(window) / 100;
  return [...STEPS_MS].reverse().find((s) => s <= target) ?? STEPS_MS[0];
}

/** A line at the chart's very edge (the cursor at Home or End) is drawn a pixel inside, where it shows; one outside stays outside. */
export function insideEdges(x: number, width: number): number {
  return x >= 0 && x < 1 ? 1 : x > width - 1 && x <= width ? width - 1 : x;
}
