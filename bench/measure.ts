/** Small timing helpers for benchmarks: median of interleaved runs, printed, never asserted. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function timeMs(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs the candidates in turn, `rounds` times, so that drift in machine speed hits all of them alike. */
export function interleaved(candidates: Record<string, () => unknown>, rounds: number, warmup = 3): Record<string, number[]> {
  const names = Object.keys(candidates);
  for (let i = 0; i < warmup; i++) for (const name of names) candidates[name]();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names) samples[name].push(timeMs(candidates[name]));
  }
  return samples;
}

export function fmt(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}
