/** "150,000": counts in messages, the same on every machine (no locale of the host). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
