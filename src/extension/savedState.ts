/**
 * The message a timeline panel saved (getState), as a window reload gives it back. A panel saved
 * by a version before the packed trace holds the report itself: packed here, it is checked and
 * shown like any message. No `vscode` here, so tests can check it.
 */
import type { TraceReport } from '../report/contract';
import { isPackedReport, packReport } from '../report/packedTrace';

export function savedMessage(state: unknown): unknown {
  const message = typeof state === 'object' && state !== null ? (state as { message?: unknown }).message : undefined;
  if (typeof message !== 'object' || message === null) return message;
  const { report, compare } = message as { report?: unknown; compare?: { report?: unknown } };
  const packed = { ...message, report: asPacked(report) };
  return typeof compare === 'object' && compare !== null ? { ...packed, compare: { ...compare, report: asPacked(compare.report) } } : packed;
}

/** A report as an earlier version saved it, packed; anything else as it is (the receiver check refuses what it cannot read). */
function asPacked(report: unknown): unknown {
  const looksUnpacked = typeof report === 'object' && report !== null && !isPackedReport(report)
    && Array.isArray((report as TraceReport).events) && Array.isArray((report as TraceReport).states);
  if (!looksUnpacked) return report;
  try {
    return packReport(report as TraceReport);
  } catch {
    return report;
  }
}
