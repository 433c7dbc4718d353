/**
 * The messages between the extension and the timeline webview: plain JSON with a `type`,
 * checked on receipt. The webview gets the trace itself (the JSON contract of `simulate`).
 * Shared by both sides (no DOM and no vscode types here).
 */
import type { TraceReport } from '../src/report/contract';

export type HostMessage = { type: 'showTrace'; title: string; report: TraceReport };
export type WebviewMessage = { type: 'ready' } | { type: 'rerun' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isRef = (value: unknown) => isRecord(value) && isString(value.kind) && isString(value.name) && isString(value.namespace);

/** The parts of a trace the webview reads, checked field by field. */
export function isTraceReport(value: unknown): value is TraceReport {
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.scenario) || !isRecord(value.timing) || !isRecord(value.summary)) return false;
  const { events, states, summary, scenario } = value;
  return Array.isArray(scenario.failedNodes) && scenario.failedNodes.every(isString)
    && Array.isArray(events) && events.every((e) => isRecord(e) && isNumber(e.t) && isRef(e.object) && isString(e.type) && isString(e.reason) && isString(e.message))
    && Array.isArray(states) && states.every((s) => isRecord(s) && isRef(s.object) && isNumber(s.from) && (s.to === null || isNumber(s.to)) && isString(s.status))
    && Array.isArray(summary.workloads) && summary.workloads.every((w) => isRecord(w) && isRef(w.object) && isString(w.outcome) && isString(w.reason) && isNumber(w.unavailableMs) && isNumber(w.degradedMs));
}

export function isHostMessage(message: unknown): message is HostMessage {
  return isRecord(message) && message.type === 'showTrace' && isString(message.title) && isTraceReport(message.report);
}

export function isWebviewMessage(message: unknown): message is WebviewMessage {
  return isRecord(message) && (message.type === 'ready' || message.type === 'rerun');
}
