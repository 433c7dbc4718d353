/**
 * Names shortened in the middle: pods of one workload differ at the end ("web-7d4b9-x2x9k"), so a
 * label cut at the end would make them all look the same. Pure (no DOM).
 */
export function middleEllipsis(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '…';
  const tail = Math.ceil((maxChars - 1) / 2);
  const head = maxChars - 1 - tail;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** The largest n from `fits` up to `over` (exclusive) for which `fitsAt(n)`, given that `fitsAt(fits)` holds: a binary search. */
export function longestFitting(fits: number, over: number, fitsAt: (n: number) => boolean): number {
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    if (fitsAt(mid)) fits = mid;
    else over = mid;
  }
  return fits;
}

/** The longest middle-shortened form of `text` whose measured width fits `widthPx`. */
export function fitMiddle(text: string, widthPx: number, measure: (text: string) => number): string {
  if (measure(text) <= widthPx) return text;
  return middleEllipsis(text, longestFitting(1, text.length, (n) => measure(middleEllipsis(text, n)) <= widthPx));
}
