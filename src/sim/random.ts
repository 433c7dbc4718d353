/**
 * Seeded pseudo-random numbers (sfc32). Every jitter source draws from its own stream,
 * forked by name, so that adding a node or a controller does not shift the draws of the others.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, label = '') {
    const h = hash32(`${seed}:${label}`);
    this.a = h;
    this.b = hash32(`${label}#${seed}`);
    this.c = 0x9e3779b9 ^ seed;
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A stream for one purpose, independent of the others. */
  fork(label: string): Random {
    return new Random(this.a ^ this.c, label);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** `mean` scaled by a factor in [0.5, 1.5), rounded to whole milliseconds: the latencies SEMANTICS.md 13.1 names. */
  latency(mean: number): number {
    return mean <= 0 ? 0 : Math.max(1, Math.round(mean * (0.5 + this.next())));
  }
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a; `h` continues the hash of a prefix. */
export function hash32(text: string, h = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const NAME_CODES = Array.from(NAME_ALPHABET, (c) => c.charCodeAt(0));

/** A Kubernetes-style random name suffix, stable for a given key (generateName uses this alphabet). */
export function nameSuffix(key: string, length: number): string {
  return suffixFromHash(hash32(key), length, (i) => hash32(`${key}:${i}`));
}

/** nameSuffix(prefix + n, 5) without building the key: pods are named by the hundred thousand. */
export function shortNameSuffix(prefix: string, n: number): string {
  return suffixFromHash(hash32(String(n), hash32(prefix)), 5);
}

/** Letters from the hash, six per 32 bits; longer suffixes rehash (`rehash` is needed from the sixth letter on). */
function suffixFromHash(h: number, length: number, rehash?: (i: number) => number): string {
  const codes: number[] = [];
  for (let i = 0; i < length; i++) {
    if (i % 6 === 5) h = rehash!(i);
    codes.push(NAME_CODES[h % NAME_CODES.length]);
    h = Math.floor(h / NAME_CODES.length);
  }
  return String.fromCharCode(...codes);
}
