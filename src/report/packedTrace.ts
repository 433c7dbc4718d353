/**
 * The trace as the HTML report embeds it: the same report, its events and states as arrays over
 * one table of strings, and no message of a pod, node, endpoint or volume that
 * objectEventMessage() words the same. A 1,000-pod trace packs to a quarter of its JSON, and
 * the browser reads, tokenizes and parses all of it before the first paint. Unpacking gives back what JSON.parse of the report's JSON gives, keys in order.
 */
import type { EventJson, ObjectRef, StateInterval, TraceReport } from './contract';
import { objectEventMessage } from './objectEventMessages';

export interface PackedReport {
  /** The packing's version (the report keeps its own). */
  packed: 1;
  /** The report without its events and states. */
  rest: Omit<TraceReport, 'events' | 'states'>;
  /** Every string the events and states share (kinds, names, statuses, nodes, reasons). */
  strings: string[];
  /** Three string indices per object: kind, name, namespace. */
  objects: number[];
  /** Distinct taint lists and detail key lists, as string indices. */
  lists: number[][];
  /**
   * Nine values per interval: object, from, to, then status, ready, restarts, node, ip and
   * taints (a list), each null where the interval has none.
   */
  states: (number | null)[];
  /**
   * Per event: t, object, type, reason, its message (0: objectEventMessage's), then its detail's key
   * list and the values (none: no detail): a string as its index, a number, array or object in
   * an array of one, booleans and null as they are.
   */
  events: unknown[][];
}

export const STATE_FIELDS = 9;

export function packReport(report: TraceReport): PackedReport {
  const { events, states, ...rest } = report;
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const string = (text: string): number => {
    let index = stringIndex.get(text);
    if (index === undefined) {
      index = strings.push(text) - 1;
      stringIndex.set(text, index);
    }
    return index;
  };
  const objects: number[] = [];
  const objectIndex = new Map<string, number>();
  const object = (ref: ObjectRef): number => {
    const key = `${ref.kind}\0${ref.namespace}\0${ref.name}`;
    let index = objectIndex.get(key);
    if (index === undefined) {
      index = objects.length / 3;
      objects.push(string(ref.kind), string(ref.name), string(ref.namespace));
      objectIndex.set(key, index);
    }
    return index;
  };
  const lists: number[][] = [];
  const listIndex = new Map<string, number>();
  const list = (texts: readonly string[]): number => {
    const indices = texts.map(string);
    const key = indices.join();
    let index = listIndex.get(key);
    if (index === undefined) {
      index = lists.push(indices) - 1;
      listIndex.set(key, index);
    }
    return index;
  };
  const optional = (text: string | undefined) => (text === undefined ? null : string(text));

  const packedStates: (number | null)[] = [];
  for (const s of states) {
    packedStates.push(object(s.object), s.from, s.to, string(s.status), optional(s.ready), s.restarts ?? null, optional(s.node), optional(s.ip), s.taints === undefined ? null : list(s.taints));
  }
  const packedEvents = events.map((e) => {
    const { t, type, reason, message, detail } = e;
    const worded = message === objectEventMessage({ t, object: e.object, type, reason, detail });
    const packed: unknown[] = [t, object(e.object), string(type), string(reason), worded ? 0 : message];
    if (detail) {
      // As JSON.stringify writes it: a key whose value is undefined is left out.
      const keys = Object.keys(detail).filter((key) => detail[key] !== undefined);
      packed.push(list(keys));
      for (const key of keys) packed.push(packValue(detail[key], string));
    }
    return packed;
  });
  return { packed: 1, rest, strings, objects, lists, states: packedStates, events: packedEvents };
}

/** A string detail value as its index; a number, an array or an object in an array of one (booleans and null as they are). */
function packValue(value: unknown, string: (text: string) => number): unknown {
  if (typeof value === 'string') return string(value);
  if (typeof value === 'number' || (typeof value === 'object' && value !== null)) return [value];
  return value;
}

export function isPackedReport(value: unknown): value is PackedReport {
  return typeof value === 'object' && value !== null && (value as { packed?: unknown }).packed === 1;
}

/**
 * A packed report read where it lies: objects, states and events by index, each made into the
 * report's own object only when asked for (an object's ref and an event are made once, so they
 * stay the same object). The timeline groups a trace by index before its first paint and makes
 * the objects of the lanes it draws.
 */
export class PackedTrace {
  readonly strings: readonly string[];
  readonly stateCount: number;
  readonly eventCount: number;
  /** The packing's own arrays, for the loops over every state or event (a call per field costs more, in code run once). */
  readonly flatStates: readonly (number | null)[];
  readonly packedEvents: readonly unknown[][];
  private readonly flatObjects: readonly number[];
  private readonly lists: readonly (readonly number[])[];
  private readonly refs: ObjectRef[] = [];
  private readonly made: EventJson[] = [];

  constructor(packed: PackedReport) {
    this.strings = packed.strings;
    this.flatObjects = packed.objects;
    this.flatStates = packed.states;
    this.packedEvents = packed.events;
    this.lists = packed.lists;
    this.stateCount = Math.floor(packed.states.length / STATE_FIELDS);
    this.eventCount = packed.events.length;
  }

  get objectCount(): number {
    return Math.floor(this.flatObjects.length / 3);
  }

  ref(object: number): ObjectRef {
    const flat = this.flatObjects;
    return (this.refs[object] ??= { kind: this.strings[flat[object * 3]], name: this.strings[flat[object * 3 + 1]], namespace: this.strings[flat[object * 3 + 2]] });
  }

  kind(object: number): string {
    return this.strings[this.flatObjects[object * 3]];
  }

  stateTo(state: number): number | null {
    return this.flatStates[state * STATE_FIELDS + 2];
  }

  state(index: number): StateInterval {
    const p = this.flatStates;
    const i = index * STATE_FIELDS;
    const state: StateInterval = { object: this.ref(p[i] as number), from: p[i + 1] as number, to: p[i + 2], status: this.strings[p[i + 3] as number] };
    if (p[i + 4] !== null) state.ready = this.strings[p[i + 4] as number];
    if (p[i + 5] !== null) state.restarts = p[i + 5] as number;
    if (p[i + 6] !== null) state.node = this.strings[p[i + 6] as number];
    if (p[i + 7] !== null) state.ip = this.strings[p[i + 7] as number];
    if (p[i + 8] !== null) state.taints = this.lists[p[i + 8] as number].map((s) => this.strings[s]);
    return state;
  }

  event(index: number): EventJson {
    let made = this.made[index];
    if (made) return made;
    const e = this.packedEvents[index];
    const t = e[0] as number;
    const object = this.ref(e[1] as number);
    const type = this.strings[e[2] as number] as EventJson['type'];
    const reason = this.strings[e[3] as number];
    if (e.length <= 5) made = { t, object, type, reason, message: worded(e[4], { t, object, type, reason }) };
    else {
      const detail: Record<string, unknown> = {};
      const keys = this.lists[e[5] as number];
      for (let k = 0; k < keys.length; k++) {
        const value: unknown = e[6 + k];
        const key = this.strings[keys[k]];
        const unpacked = typeof value === 'number' ? this.strings[value] : Array.isArray(value) ? value[0] : value;
        // As JSON.parse makes it: an own property, also when it is called __proto__.
        if (key === '__proto__') Object.defineProperty(detail, '__proto__', { value: unpacked, enumerable: true, writable: true, configurable: true });
        else detail[key] = unpacked;
      }
      made = { t, object, type, reason, message: worded(e[4], { t, object, type, reason, detail }), detail };
    }
    return (this.made[index] = made);
  }

  /** The index of a string in the table; -1: no state or event has it. */
  stringIndex(text: string): number {
    return this.strings.indexOf(text);
  }
}

/** The words of an event packed as objectEventMessage's; an event it has none for reads as its reason. */
function worded(message: unknown, event: Omit<EventJson, 'message'>): string {
  return message === 0 ? objectEventMessage(event) ?? event.reason : String(message);
}

/** The report packReport was given. */
export function unpackReport(packed: PackedReport): TraceReport {
  const trace = new PackedTrace(packed);
  const states: StateInterval[] = [];
  for (let i = 0; i < trace.stateCount; i++) states.push(trace.state(i));
  const events: EventJson[] = [];
  for (let i = 0; i < trace.eventCount; i++) events.push(trace.event(i));
  // The report's own key order, so that it stringifies as the report did.
  const { version, scenario, timing, ...others } = packed.rest;
  return { version, scenario, timing, events, states, ...others };
}
