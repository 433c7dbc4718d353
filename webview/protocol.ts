/**
 * The messages between the extension and the timeline webview: plain JSON with a `type`,
 * checked on receipt. Shared by both sides (no DOM and no vscode types here).
 */
import type { WatchRow } from '../src/sim/renderText';

/** A line of the `kubectl get --watch` style table (the simulator's own row type; no code crosses). */
export type TimelineRow = WatchRow;

export interface SummaryRow {
  workload: string;
  outcome: string;
  unavailable: string;
  degraded: string;
  reason: string;
}

export interface TimelineData {
  title: string;
  header: string[];
  summary: SummaryRow[];
  rows: TimelineRow[];
}

export type HostMessage = { type: 'showTimeline'; data: TimelineData };
export type WebviewMessage = { type: 'ready' } | { type: 'rerun' };

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isHostMessage(message: unknown): message is HostMessage {
  if (!isRecord(message) || message.type !== 'showTimeline' || !isRecord(message.data)) return false;
  const data = message.data;
  return isString(data.title) && Array.isArray(data.header) && data.header.every(isString)
    && Array.isArray(data.summary) && data.summary.every((row) => isRecord(row) && ['workload', 'outcome', 'unavailable', 'degraded', 'reason'].every((k) => isString(row[k])))
    && Array.isArray(data.rows) && data.rows.every((row) => isRecord(row) && typeof row.t === 'number' && typeof row.event === 'boolean'
      && ['name', 'status', 'ready', 'restarts', 'node', 'detail'].every((k) => isString(row[k])));
}

export function isWebviewMessage(message: unknown): message is WebviewMessage {
  return isRecord(message) && (message.type === 'ready' || message.type === 'rerun');
}
