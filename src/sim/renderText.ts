/**
 * The trace as text, in the style of `kubectl get pods,nodes --watch`: one line per state
 * change, with the time since the failure, discrete events as `#` lines, then the summary.
 */
import { formatDuration } from '../manifest/duration';
import type { Summary, WorkloadSummary } from './summary';
import { compareText, type StateInterval, type TraceEvent } from './trace';

const EVENT_TYPES_SHOWN = new Set<TraceEvent['type']>([
  'Fault', 'Recovery', 'Intervention', 'Note', 'TaintAdded', 'TaintRemoved', 'NodeDeleted', 'PodPending', 'EndpointChanged', 'KubernetesEvent', 'VolumeDetached', 'VolumeAttached',
]);

export function formatTime(ms: number): string {
  const sign = ms < 0 ? '-' : ' ';
  const abs = Math.abs(ms);
  const minutes = Math.floor(abs / 60_000);
  const seconds = (abs % 60_000) / 1000;
  return `${sign}${minutes}:${seconds.toFixed(3).padStart(6, '0')}`;
}

const KIND_SHORT: Record<string, string> = { Pod: 'pod', Node: 'node', EndpointSlice: 'endpointslice' };

function objectName(kind: string, name: string): string {
  return `${KIND_SHORT[kind] ?? kind.toLowerCase()}/${name}`;
}

function stateLine(state: StateInterval): string {
  const name = objectName(state.object.kind, state.object.name).padEnd(42);
  if (state.object.kind === 'Pod') {
    return `${name} ${state.status.padEnd(18)} ${(state.ready ?? '').padEnd(5)} ${String(state.restarts ?? 0).padEnd(8)} ${(state.node ?? '').padEnd(14)} ${state.ip ?? ''}`;
  }
  if (state.object.kind === 'Node') {
    const taints = state.taints && state.taints.length > 0 ? `taints: ${state.taints.join(', ')}` : '';
    return `${name} ${state.status.padEnd(18)} ${''.padEnd(5)} ${''.padEnd(8)} ${''.padEnd(14)} ${taints}`;
  }
  return `${name} ${state.status.padEnd(18)} ${state.ready ?? ''}`;
}

export interface TextRenderInput {
  header: string[];
  events: readonly TraceEvent[];
  states: readonly StateInterval[];
  summary: Summary;
}

export function renderText(input: TextRenderInput): string {
  const lines: string[] = [...input.header, ''];
  lines.push(`${'TIME'.padEnd(10)} ${'NAME'.padEnd(42)} ${'STATUS'.padEnd(18)} ${'READY'.padEnd(5)} ${'RESTARTS'.padEnd(8)} ${'NODE'.padEnd(14)} IP / DETAIL`);
  const rows: { t: number; order: number; text: string }[] = [];
  // The states the simulation starts with come first; later changes follow the event that caused them.
  const start = input.states.reduce((min, s) => Math.min(min, s.from), Infinity);
  input.states.forEach((state, i) => rows.push({ t: state.from, order: state.from === start ? -1 : i * 2 + 1, text: stateLine(state) }));
  input.events.forEach((event, i) => {
    if (!EVENT_TYPES_SHOWN.has(event.type)) return;
    rows.push({ t: event.t, order: i * 2, text: `# ${objectName(event.object.kind, event.object.name)} ${event.reason}: ${event.message}` });
  });
  rows.sort((a, b) => a.t - b.t || a.order - b.order);
  for (const row of rows) lines.push(`${formatTime(row.t).padEnd(10)} ${row.text}`.trimEnd());
  lines.push('', ...renderSummary(input.summary));
  return `${lines.join('\n')}\n`;
}

const ms = (value: number | null) => (value === null ? '-' : formatDuration(value));

export function renderSummary(summary: Summary): string[] {
  const lines = [`SUMMARY (failed: ${summary.failedNodes.join(', ')}; times since the failure)`];
  const columns = ['WORKLOAD', 'OUTCOME', 'NOTREADY', 'PODS-NR', 'NOEXEC', 'DELETED', 'REPL-NEW', 'REPL-READY', 'UNAVAIL', 'DEGRADED', 'BLACKHOLE'];
  const widths = [36, 10, 10, 10, 10, 10, 10, 11, 10, 10, 10];
  lines.push(columns.map((c, i) => c.padEnd(widths[i])).join(' ').trimEnd());
  const sorted = [...summary.workloads].sort((a, b) => compareText(`${a.object.kind}/${a.object.name}`, `${b.object.kind}/${b.object.name}`));
  for (const w of sorted) {
    const cells = [`${w.object.kind}/${w.object.name}`, w.outcome, ms(w.nodeNotReadyMs), ms(w.podsNotReadyMs), ms(w.noExecuteTaintMs), ms(w.podDeletionMs),
      ms(w.replacementCreatedMs), ms(w.replacementReadyMs), ms(w.unavailableMs), ms(w.degradedMs), ms(w.blackholeMs)];
    lines.push(cells.map((c, i) => c.padEnd(widths[i])).join(' ').trimEnd());
    lines.push(`    ${w.reason}`);
  }
  return lines;
}

export type { WorkloadSummary };
