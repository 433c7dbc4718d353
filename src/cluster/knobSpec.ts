/**
 * A timing setting of one component, as that component defines it: its own name (a
 * KubeletConfiguration field or a flag without dashes), its type and unit, and its default
 * for a Kubernetes minor version (SEMANTICS.md sections 1 and 14).
 */
export type KnobValue = number | boolean | null;

export interface KnobSpec<T extends KnobValue = KnobValue> {
  readonly name: string;
  readonly type: 'duration' | 'int' | 'number' | 'bool';
  /** Unit of the resolved value: durations are milliseconds; a few counts are seconds. */
  readonly unit?: 'ms' | 's';
  /** null: drawn at random in each run. */
  readonly defaultValue: (minor: number) => T;
  readonly description: string;
  readonly min?: number;
  readonly max?: number;
  /** Set when the setting is accepted but changes nothing in these versions. */
  readonly noEffect?: (minor: number) => string | undefined;
  /** The oldest minor version whose component knows it: an older one does not start with it written in its file. */
  readonly requires?: { minor: number; problem: string };
  /** The first minor version whose component no longer has it. */
  readonly removedIn?: number;
}

/** The component of that version has no such setting: its default is only the simulator's placeholder. */
export function absentIn(spec: KnobSpec, minor: number): boolean {
  return (spec.removedIn !== undefined && minor >= spec.removedIn) || (spec.requires !== undefined && minor < spec.requires.minor);
}

/** A resolved setting: its value, where the value came from, and what it is. */
export interface Knob<T extends KnobValue = KnobValue> {
  readonly value: T;
  /** "default 1.31", "preset fast", "file:line", "--set", or the rule it follows. */
  readonly source: string;
  readonly spec: KnobSpec<T>;
  /** The flag that set it when it is not the knob's own (--disable-admission-plugins). */
  readonly via?: string;
}

export type KnobSpecs = Readonly<Record<string, KnobSpec>>;

/** The resolved record of a component: one Knob per field of its specs. */
export type Resolved<S extends KnobSpecs> = { readonly [K in keyof S]: S[K] extends KnobSpec<infer T> ? Knob<T> : never };

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
