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

/** FNV-1a. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A Kubernetes-style random name suffix, stable for a given key (generateName uses this alphabet). */
export function nameSuffix(key: string, length: number): string {
  let h = hash32(key);
  let out = '';
  for (let i = 0; i < length; i++) {
    if (i % 6 === 5) h = hash32(`${key}:${i}`);
    out += NAME_ALPHABET[h % NAME_ALPHABET.length];
    h = Math.floor(h / NAME_ALPHABET.length);
  }
  return out;
}
