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

const STATE_FIELDS = 9;

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

/** A packing that claims the words of an event that has none gives no message, which the page's check refuses. */
function worded(message: unknown, event: Omit<EventJson, 'message'>): string {
  return (message === 0 ? objectEventMessage(event) : String(message)) as string;
}

export function isPackedReport(value: unknown): value is PackedReport {
  return typeof value === 'object' && value !== null && (value as { packed?: unknown }).packed === 1;
}

/**
 * The report packReport was given. The page checks the result as it checks any message; a packing
 * it cannot read throws or gives what that check refuses. Plain loops: this runs once, cold,
 * before the report's first paint.
 */
export function unpackReport(packed: PackedReport): TraceReport {
  const { strings, objects: flat } = packed;
  const objects: ObjectRef[] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) objects.push({ kind: strings[flat[i]], name: strings[flat[i + 1]], namespace: strings[flat[i + 2]] });
  const lists = packed.lists.map((indices) => indices.map((index) => strings[index]));

  const states: StateInterval[] = [];
  const p = packed.states as number[];
  for (let i = 0; i + STATE_FIELDS <= p.length; i += STATE_FIELDS) {
    const object = objects[p[i]];
    const from = p[i + 1];
    const to = p[i + 2];
    const status = strings[p[i + 3]];
    const state: StateInterval = { object, from, to, status };
    if (p[i + 4] !== null) state.ready = strings[p[i + 4]];
    if (p[i + 5] !== null) state.restarts = p[i + 5];
    if (p[i + 6] !== null) state.node = strings[p[i + 6]];
    if (p[i + 7] !== null) state.ip = strings[p[i + 7]];
    if (p[i + 8] !== null) state.taints = lists[p[i + 8]].slice();
    states.push(state);
  }
  const events: EventJson[] = [];
  for (const e of packed.events as number[][]) {
    const t = e[0];
    const object = objects[e[1]];
    const type = strings[e[2]] as EventJson['type'];
    const reason = strings[e[3]];
    if (e.length <= 5) {
      events.push({ t, object, type, reason, message: worded(e[4], { t, object, type, reason }) });
      continue;
    }
    const detail: Record<string, unknown> = {};
    const keys = lists[e[5]];
    for (let k = 0; k < keys.length; k++) {
      const value: unknown = e[6 + k];
      const unpacked = typeof value === 'number' ? strings[value] : Array.isArray(value) ? value[0] : value;
      // As JSON.parse makes it: an own property, also when it is called __proto__.
      if (keys[k] === '__proto__') Object.defineProperty(detail, '__proto__', { value: unpacked, enumerable: true, writable: true, configurable: true });
      else detail[keys[k]] = unpacked;
    }
    events.push({ t, object, type, reason, message: worded(e[4], { t, object, type, reason, detail }), detail });
  }
  // The report's own key order, so that it stringifies as the report did.
  const { version, scenario, timing, ...others } = packed.rest;
  return { version, scenario, timing, events, states, ...others };
}
