/** Times as people read them: `m:ss.mmm` since the failure in watch rows, Go durations elsewhere. */
export { formatDuration } from '../manifest/duration';
export { formatCount } from '../manifest/formatCount';
import { formatCount } from '../manifest/formatCount';

export function formatTime(ms: number): string {
  const sign = ms < 0 ? '-' : ' ';
  const abs = Math.abs(ms);
  const minutes = Math.floor(abs / 60_000);
  const seconds = (abs % 60_000) / 1000;
  return `${sign}${minutes}:${seconds.toFixed(3).padStart(6, '0')}`;
}


/** "1 pod", "2 pods". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}

/** At most five names, else a count: "a, b" or "the 1,667 failed nodes". */
export function nameList(names: readonly string[], many: (count: number) => string): string {
  return names.length <= 5 ? names.join(', ') : many(names.length);
}

/** Nodes as one line holds them: every name up to five, else how many and the first three. */
export function nodeNames(names: readonly string[]): string {
  return nameList(names, (n) => `${formatCount(n)} nodes: ${names.slice(0, 3).join(', ')}, …`);
}

/** Code-unit order: the same on every machine (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
