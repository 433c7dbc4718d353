import { parseDuration } from '../duration';
import { isPlainObject, objectRef, type ManifestObject } from '../objects';
import { formatPath, type Path, type PathSegment } from '../path';
import { INVALID_FIELD, LIMIT_REACHED, type ManifestProblem } from '../problem';
import { MAX_INT64_TEXT, MIN_INT64_TEXT, flagIntWithin } from '../limits';
import { parseQuantity } from '../quantity';
import type { Range } from '../range';


interface NumberBounds {
  min?: number;
  max?: number;
}

/**
 * Reads typed fields of one object. A field of the wrong type or with an impossible value
 * becomes a KFS092 problem on that value's range and reads as absent, so callers apply the
 * API default; nothing here throws on user input.
 */
export class FieldReader {
  constructor(
    readonly object: ManifestObject,
    private readonly problems: ManifestProblem[],
    readonly base: Path = [],
    private readonly refusedBy?: string,
  ) {}

  /** A reader for a nested object, with paths relative to it. */
  at(...path: PathSegment[]): FieldReader {
    return new FieldReader(this.object, this.problems, [...this.base, ...path], this.refusedBy);
  }

  /** The same fields as `component` reads them (a static pod's command line): what it refuses, it refuses, not the API server. */
  readBy(component: string): FieldReader {
    return new FieldReader(this.object, this.problems, this.base, component);
  }

  raw(...path: PathSegment[]): unknown {
    let value: unknown = this.object.value;
    for (const segment of [...this.base, ...path]) {
      if (typeof segment === 'number' ? !Array.isArray(value) : !isPlainObject(value)) return undefined;
      value = (value as Record<string | number, unknown>)[segment];
    }
    return value;
  }

  has(...path: PathSegment[]): boolean {
    return this.raw(...path) !== undefined && this.raw(...path) !== null;
  }

  range(...path: PathSegment[]): Range {
    return this.object.sourceMap.closestRange([...this.base, ...path]);
  }

  /** The range of a field's key (a misspelt name is told there), else of its value. */
  keyRange(...path: PathSegment[]): Range {
    return this.object.sourceMap.keyOrClosestRange([...this.base, ...path]);
  }

  /** The field names written in this object. */
  keys(): string[] {
    const value = this.raw();
    return isPlainObject(value) ? Object.keys(value) : [];
  }

  fullPath(...path: PathSegment[]): string {
    return formatPath([...this.base, ...path]);
  }

  report(path: PathSegment[], message: string): void {
    this.reportAt(this.range(...path), message);
  }

  /** A value the API server accepts but beyond what the simulator runs (limits.ts). */
  reportLimit(path: PathSegment[], message: string): void {
    this.problems.push({ ruleId: LIMIT_REACHED, severity: 'warning', range: this.range(...path), message, object: objectRef(this.object) });
  }

  reportAt(range: Range, message: string): void {
    // The API server (or the component reading a configuration file) rejects such a value.
    const problem: ManifestProblem = { ruleId: INVALID_FIELD, severity: 'error', range, message, object: objectRef(this.object) };
    if (this.refusedBy) problem.refusedBy = this.refusedBy;
    this.problems.push(problem);
  }

  /** A value that is accepted but has no effect (a flag given again later). */
  warnAt(range: Range, message: string): void {
    this.problems.push({ ruleId: INVALID_FIELD, severity: 'warning', range, message, object: objectRef(this.object) });
  }

  string(...path: PathSegment[]): string | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    this.report(path, `${this.name(path)} must be a string; ${describe(value)}${quoteHint(value, this.object.sourceMap.plainText([...this.base, ...path]))}.`);
    return undefined;
  }

  /** A probe's or hook's port (IntOrString): a number from 1 to 65535 or a port name, an IANA service name (ValidatePortNumOrName; that a container has the name is the kubelet's to find). */
  portNumberOrName(...path: PathSegment[]): number | string | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) {
      this.report(path, `${this.name(path)} is required.`);
      return undefined;
    }
    if (typeof value === 'number') return this.int(path, { min: 1, max: 65535 });
    if (typeof value !== 'string') {
      this.report(path, `${this.name(path)} must be a port number or a port name; ${describe(value)}.`);
      return undefined;
    }
    const problem = portNameProblem(value);
    if (!problem) return value;
    this.report(path, `${this.name(path)} "${value}" is not a valid port name (${problem})${/^\d+$/.test(value) ? `; a port number is written without quotes: ${value}` : ''}.`);
    return undefined;
  }

  oneOf<T extends string>(path: PathSegment[], allowed: readonly T[]): T | undefined {
    const value = this.string(...path);
    if (value === undefined) return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.report(path, `${this.name(path)} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}; it is "${value}".`);
    return undefined;
  }

  bool(...path: PathSegment[]): boolean | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    this.report(path, `${this.name(path)} must be true or false; ${describe(value)}.`);
    return undefined;
  }

  int(path: PathSegment[], bounds: NumberBounds = { min: 0 }): number | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.report(path, `${this.name(path)} must be a whole number; ${describe(value)}.`);
      return undefined;
    }
    // The API server reads integers into at most 64 bits (int64): 1e30 fails to decode there. Near the
    // bounds a double is not exact (2^63 - 1 is not one): what was written decides, and is quoted.
    if (Math.abs(value) >= 2 ** 63) {
      const written = this.object.sourceMap.plainText([...this.base, ...path]);
      if (written !== undefined && flagIntWithin(written.replace(/_/g, ''), MIN_INT64_TEXT, MAX_INT64_TEXT) !== undefined) return this.checkBounds(path, value, bounds);
      const bound = value < 0 ? `below the smallest 64-bit integer (${MIN_INT64_TEXT})` : `past the largest 64-bit integer (${MAX_INT64_TEXT})`;
      this.report(path, `${this.name(path)} is ${written ?? value}, ${bound} the API server can read.`);
      return undefined;
    }
    return this.checkBounds(path, value, bounds);
  }

  /** A number that may have a fraction (rates, thresholds). */
  number(path: PathSegment[], bounds: NumberBounds = { min: 0 }): number | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.report(path, `${this.name(path)} must be a number; ${describe(value)}.`);
      return undefined;
    }
    return this.checkBounds(path, value, bounds);
  }

  /** An integer or a percentage such as "25%" (maxSurge, maxUnavailable, minAvailable). */
  intOrPercent(path: PathSegment[]): number | string | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    if (typeof value === 'string' && /^[0-9]+%$/.test(value)) return value;
    if (typeof value === 'string' && /^[0-9]+$/.test(value)) {
      this.report(path, `${this.name(path)} is the string "${value}"; write a number (${value}) or a percentage ("${value}%").`);
      return undefined;
    }
    this.report(path, `${this.name(path)} must be a whole number ≥ 0 or a percentage such as "25%"; ${describe(value)}.`);
    return undefined;
  }

  /** A resource quantity in base units (cores, bytes). */
  quantity(...path: PathSegment[]): number | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    const parsed = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
    if (parsed !== undefined && parsed < 0) {
      this.report(path, `${this.name(path)} is negative (${String(value)}); a resource quantity here must be 0 or more.`);
      return undefined;
    }
    if (parsed === undefined) {
      this.report(path, `${this.name(path)} must be a resource quantity such as "500m", "2" or "1Gi"; ${describe(value)}.`);
      return undefined;
    }
    return parsed;
  }

  /** A Go duration string ("40s", "1m30s") in milliseconds. */
  duration(...path: PathSegment[]): number | undefined {
    const value = this.raw(...path);
    if (value === undefined || value === null) return undefined;
    const parsed = typeof value === 'string' ? parseDuration(value) : undefined;
    if (parsed === undefined) {
      this.report(path, `${this.name(path)} must be a duration such as "10s" or "1m30s"; ${describe(value)}.`);
      return undefined;
    }
    if (parsed < 0) {
      this.report(path, `${this.name(path)} is negative (${String(value)}); it must be a duration ≥ 0.`);
      return undefined;
    }
    return parsed;
  }

  /** A map of strings (labels, annotations, nodeSelector); entries of other types are reported and dropped. */
  stringMap(...path: PathSegment[]): Record<string, string> {
    const value = this.raw(...path);
    const out: Record<string, string> = {};
    if (value === undefined || value === null) return out;
    if (!isPlainObject(value)) {
      this.report(path, `${this.name(path)} must be a map of strings; ${describe(value)}.`);
      return out;
    }
    for (const key of Object.keys(value)) {
      const text = this.string(...path, key);
      if (text !== undefined) out[key] = text;
    }
    return out;
  }

  /** The items of a list, each as a reader; a non-list is reported and reads as empty. */
  list(...path: PathSegment[]): FieldReader[] {
    const value = this.raw(...path);
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.report(path, `${this.name(path)} must be a list; ${describe(value)}.`);
      return [];
    }
    return value.map((_, i) => this.at(...path, i));
  }

  /** The items of a list of objects; other items (an empty `-` too) are reported and skipped. */
  objectList(...path: PathSegment[]): FieldReader[] {
    return this.list(...path).filter((item) => item.isObject(true));
  }

  /** Where the reader's object is in its list, as written. */
  get index(): number | undefined {
    const last = this.base[this.base.length - 1];
    return typeof last === 'number' ? last : undefined;
  }

  /**
   * True when the value at the reader's base is a map; otherwise reports it. `item`: a list's item,
   * where null is an item with no field set, which the API server rejects (a required field is missing).
   */
  isObject(item = false): boolean {
    const value = this.raw();
    if (isPlainObject(value)) return true;
    if (item && value === null) this.report([], `${this.name([])} is empty: the API server reads it as an item with no field set and rejects it. Remove the empty item.`);
    else if (value !== undefined && value !== null) this.report([], `${this.name([])} must be a map; ${describe(value)}.`);
    return false;
  }

  stringList(...path: PathSegment[]): string[] {
    return this.list(...path).map((item) => item.string()).filter((s): s is string => s !== undefined);
  }

  private checkBounds(path: PathSegment[], value: number, { min, max }: NumberBounds): number | undefined {
    if (min !== undefined && value < min) {
      this.report(path, `${this.name(path)} is ${value}; it must be ≥ ${min}.`);
      return undefined;
    }
    if (max !== undefined && value > max) {
      this.report(path, `${this.name(path)} is ${value}; it must be ≤ ${max}.`);
      return undefined;
    }
    return value;
  }

  private name(path: PathSegment[]): string {
    return this.fullPath(...path) || this.object.kind;
  }
}

/**
 * How to write a number or a boolean as the string a field needs: the quotes go around what was
 * written (`written`, 1.10 rather than the 1.1 YAML read). A boolean may have been written y, n,
 * yes, no, on or off (YAML 1.1, as kubectl reads it).
 */
export function quoteHint(value: unknown, written?: string): string {
  if (typeof value === 'number') return ` (write it in quotes: "${written ?? value}")`;
  return typeof value === 'boolean' ? ' (kubectl reads true, false, yes, no, on, off, y and n as booleans: write it in quotes)' : '';
}

/** IsValidPortName: an IANA service name. */
function portNameProblem(name: string): string | undefined {
  if (name.length > 15) return 'at most 15 characters';
  if (!/^[a-z0-9-]+$/.test(name)) return 'only lowercase letters, digits and \'-\'';
  if (!/[a-z]/.test(name)) return 'it needs at least one letter';
  if (name.includes('--')) return 'no two hyphens in a row';
  if (name.startsWith('-') || name.endsWith('-')) return 'it must not begin or end with a hyphen';
  return undefined;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `it is the string "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'number') return `it is ${value}`;
  if (typeof value === 'boolean') return `it is ${value}`;
  if (Array.isArray(value)) return 'it is a list';
  if (value === null) return 'it is empty';
  if (typeof value === 'object') return 'it is a map';
  return `it is ${typeof value}`;
}
