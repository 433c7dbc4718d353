/**
 * Two runs of one panel on one time axis: before/after an edit (Run Again), and what a panel
 * restored after a window reload compares. No `vscode` here, so tests can check it.
 */
import type { HostMessage } from '../../webview/protocol';

export const withoutComparison = ({ compare: _compare, ...alone }: HostMessage): HostMessage => alone;

const BEFORE = 'Before the last Run Again: ';
const AFTER = 'After it (the current text): ';

/** Before → after: the run before the last Run Again is A, the current text B (the panel's own run). */
export function beforeAfter(alone: HostMessage, before: HostMessage): HostMessage {
  // The checks are of the current text: they go with B.
  const { findings, ...rest } = alone;
  return { ...rest, title: `${BEFORE}${before.title}`, report: before.report, compare: { title: `${AFTER}${alone.title}`, report: alone.report, ...(findings ? { findings } : {}) } };
}

/**
 * What a message a panel restores after a reload shows: its run alone, and for a before/after
 * comparison the run before (A) apart from the panel's own (B).
 */
export function restored(message: HostMessage): { alone: HostMessage; previous?: HostMessage } {
  const { compare } = message;
  if (!compare || !message.title.startsWith(BEFORE) || !compare.title.startsWith(AFTER)) return { alone: withoutComparison(message) };
  const alone = { ...withoutComparison(message), title: compare.title.slice(AFTER.length), report: compare.report, ...(compare.findings ? { findings: compare.findings } : {}) };
  return { alone, previous: { ...withoutComparison(message), title: message.title.slice(BEFORE.length) } };
}
