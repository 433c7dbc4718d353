/**
 * Go durations (`40s`, `1m30s`, `1.5h`, `300ms`), the syntax of metav1.Duration fields and of
 * component flags, parsed like time.ParseDuration.
 */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000,
};
const PART = /([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds, or undefined if the text is not a Go duration. */
export function parseDuration(input: string): number | undefined {
  // time.ParseDuration refuses spaces: " 4s" in a kubelet configuration stops the kubelet.
  let text = input;
  let sign = 1;
  if (text[0] === '-' || text[0] === '+') {
    if (text[0] === '-') sign = -1;
    text = text.slice(1);
  }
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const start = PART.lastIndex;
    const match = PART.exec(text);
    if (!match || match.index !== start || match[1] === '' || match[1] === '.') return undefined;
    total += Number(match[1]) * UNIT_MS[match[2]];
  }
  // time.Duration counts nanoseconds in an int64: ParseDuration refuses more than about 2562047h.
  if (total * 1e6 > 2 ** 63 - 1) return undefined;
  return sign * total;
}

/** Formats milliseconds the way Go prints durations, trimmed of zero parts: 90000 -> "1m30s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (Math.abs(ms) < 1000) return `${ms}ms`;
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = rest / 1000;
  let out = sign;
  if (hours) out += `${hours}h`;
  if (minutes) out += `${minutes}m`;
  if (seconds || out === sign) out += `${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(3))}s`;
  return out;
}
