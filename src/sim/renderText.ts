/**
 * The trace as text, in the style of `kubectl get pods,nodes --watch`: one line per state
 * change, with the time since the failure, discrete events as `#` lines, then the summary.
 */
import { KNOB_BY_NAME } from '../cluster/knobs';
import { formatDuration } from '../manifest/duration';
import type { Scenario } from './scenario';
import type { Summary } from './summary';
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

/**
 * The rows of the watch in time order: the states the simulation starts with first, then each
 * change after the event that caused it. Settings without effect are left to the header.
 */
export function watchRows(events: readonly TraceEvent[], states: readonly StateInterval[]): WatchRow[] {
  const rows: { order: number; row: WatchRow }[] = [];
  const start = states.reduce((min, s) => Math.min(min, s.from), Infinity);
  states.forEach((state, i) => rows.push({ order: state.from === start ? -1 : i * 2 + 1, row: stateRow(state) }));
  events.forEach((event, i) => {
    if (!EVENT_TYPES_SHOWN.has(event.type) || event.reason === 'NoEffect') return;
    rows.push({
      order: i * 2,
      row: { t: event.t, name: `# ${objectName(event.object.kind, event.object.name)}`, status: event.reason, ready: '', restarts: '', node: '', detail: event.message, event: true },
    });
  });
  rows.sort((a, b) => a.row.t - b.row.t || a.order - b.order);
  return rows.map((r) => r.row);
}

/** What was simulated, in a few lines: the failure, the version, the seed, the cluster and the timing that decides the outcome. */
export function scenarioHeader(scenario: Scenario, failedNodes: readonly string[], runs = 1): string[] {
  const fault = scenario.faults[0];
  const recovery = fault.recoverAfterMs !== undefined ? `, back after ${formatDuration(fault.recoverAfterMs)}` : ', never recovers';
  const knobs = scenario.timing.knobs;
  const show = (name: string) => {
    const knob = knobs[name];
    const value = typeof knob.value === 'number' && KNOB_BY_NAME.get(name)?.type === 'duration' ? formatDuration(knob.value) : String(knob.value);
    return `${name.replace(/^[a-z]+\./, '')}=${value} (${knob.source})`;
  };
  return [
    `Failure: ${fault.kind} of ${failedNodes.join(', ')} at 0s${recovery}; Kubernetes ${scenario.timing.version.label}; seed ${scenario.seed}${runs > 1 ? ` (first of ${runs} runs)` : ''}; ${formatDuration(scenario.durationMs)} simulated.`,
    `Cluster: ${scenario.cluster.source}.`,
    `Timing: ${['kcm.node-monitor-grace-period', 'kcm.node-monitor-period', 'kubelet.nodeLeaseDurationSeconds', 'kubelet.nodeStatusReportFrequency', 'apiserver.default-unreachable-toleration-seconds'].map(show).join('; ')}.`,
    ...scenario.timing.notes.map((n) => `Note: ${n}`),
  ];
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
  for (const row of watchRows(input.events, input.states)) {
    const text = row.event
      ? `${row.name} ${row.status}: ${row.detail}`
      : `${row.name.padEnd(42)} ${row.status.padEnd(18)} ${row.ready.padEnd(5)} ${row.restarts.padEnd(8)} ${row.node.padEnd(14)} ${row.detail}`;
    lines.push(`${formatTime(row.t).padEnd(10)} ${text}`.trimEnd());
  }
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

