/**
 * "Did you mean ...?": the known names closest to what was written, at most a few of them,
 * so that an unknown node among 5,000 gives a short, useful message.
 */
export interface Suggestions {
  /** Closest first. */
  names: string[];
  /** Candidates not listed. */
  more: number;
}

export function closestNames(wanted: string, candidates: Iterable<string>, limit = 10): Suggestions {
  const target = wanted.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) scored.push({ name, score: distance(target, name.toLowerCase()) });
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { names: scored.slice(0, limit).map((s) => s.name), more: Math.max(0, scored.length - limit) };
}

/** "did you mean node-01? Known: node-01, node-02 (and 4,998 more)"; empty when there is nothing to suggest. */
export function describeSuggestions(wanted: string, candidates: Iterable<string>, known = 'known', limit = 10): string {
  const { names, more } = closestNames(wanted, candidates, limit);
  if (names.length === 0) return '';
  const close = distance(wanted.toLowerCase(), names[0].toLowerCase()) <= Math.max(2, Math.floor(wanted.length / 3));
  const list = `${known}: ${names.join(', ')}${more > 0 ? ` (and ${more.toLocaleString('en-US')} more)` : ''}`;
  return close ? `did you mean ${names[0]}? ${list[0].toUpperCase()}${list.slice(1)}` : list;
}

/** Levenshtein distance, with a common prefix or substring counting as close. */
function distance(a: string, b: string): number {
  if (a === b) return 0;
  if (b.includes(a) || a.includes(b)) return Math.abs(a.length - b.length) / 100 + 0.5;
  return editDistance(a, b);
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** A near miss: the same letters but for case, or one edit (two in a name of six letters or more); the closest such name. */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const allowed = name.length >= 6 ? 2 : 1;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
