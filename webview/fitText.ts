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

/** About how many characters of the UI font fit in a width (the label column is sized, not measured). */
export function charsThatFit(widthPx: number, charPx = 8): number {
  return Math.max(4, Math.floor(widthPx / charPx));
}
