/** The trace as `kubectl get pods,nodes --watch` rows: each state change after the event that caused it. */
import type { StateInterval, TraceEvent } from '../sim/trace';
import { eventMessage } from './eventMessages';

const EVENT_TYPES_SHOWN = new Set<TraceEvent['type']>([
  'Fault', 'Recovery', 'Intervention', 'Note', 'TaintAdded', 'TaintRemoved', 'NodeDeleted', 'PodPending', 'EndpointChanged', 'KubernetesEvent', 'VolumeDetached', 'VolumeAttached',
]);

const KIND_SHORT: Record<string, string> = { Pod: 'pod', Node: 'node', EndpointSlice: 'endpointslice' };

export function objectName(kind: string, name: string): string {
  return `${KIND_SHORT[kind] ?? kind.toLowerCase()}/${name}`;
}

/** One line of the watch: an object's new state, or an event. */
export interface WatchRow {
  t: number;
  /** "pod/web-1", "node/worker-a1"; events start with "# ". */
  name: string;
  status: string;
  ready: string;
  restarts: string;
  node: string;
  detail: string;
  event: boolean;
}

function stateRow(state: StateInterval): WatchRow {
  const row: WatchRow = {
    t: state.from, name: objectName(state.object.kind, state.object.name), status: state.status,
    ready: '', restarts: '', node: '', detail: '', event: false,
  };
  if (state.object.kind === 'Pod') {
    row.ready = state.ready ?? '';
    row.restarts = String(state.restarts ?? 0);
    row.node = state.node ?? '';
    row.detail = state.ip ?? '';
  } else if (state.object.kind === 'Node' && state.taints && state.taints.length > 0) {
    row.detail = `taints: ${state.taints.join(', ')}`;
  }
  return row;
}

/** Trace events as the JSON contract has them: with their message. */
export interface WordedEvent {
  t: number;
  object: TraceEvent['object'];
  type: TraceEvent['type'];
  reason: string;
  message: string;
}

/**
 * The rows of the watch in time order: the states the simulation starts with first, then each
 * change after the event that caused it. Settings without effect are left to the header.
 */
export function watchRows(events: readonly (TraceEvent | WordedEvent)[], states: readonly StateInterval[]): WatchRow[] {
  const rows: { order: number; row: WatchRow }[] = [];
  const start = states.reduce((min, s) => Math.min(min, s.from), Infinity);
  states.forEach((state, i) => rows.push({ order: state.from === start ? -1 : i * 2 + 1, row: stateRow(state) }));
  events.forEach((event, i) => {
    if (!EVENT_TYPES_SHOWN.has(event.type) || event.reason === 'NoEffect') return;
    const message = 'message' in event ? event.message : eventMessage(event);
    rows.push({
      order: i * 2,
      row: { t: event.t, name: `# ${objectName(event.object.kind, event.object.name)}`, status: event.reason, ready: '', restarts: '', node: '', detail: message, event: true },
    });
  });
  rows.sort((a, b) => a.row.t - b.row.t || a.order - b.order);
  return rows.map((r) => r.row);
}
