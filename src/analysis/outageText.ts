/** A simulated outcome in the few words findings, hovers and lenses use: how long down, and why that long. */
import { formatDuration } from '../report/format';
import { outcomeReason } from '../report/summaryText';
import type { WorkloadOutcome } from './workloadSimulation';

/** Whole seconds: "about 5m43s" reads better than 5m43.215s and the phase jitter is larger anyway. */
export function approx(ms: number): string {
  return formatDuration(Math.round(ms / 1000) * 1000);
}

export interface OutageText {
  /** "Down for about 5m43s", "Down until the node returns or someone acts", "No outage". */
  headline: string;
  /** For lenses and fix titles: "5m43s", "until someone acts", "0s". */
  short: string;
  /** Why: the mechanism with its times. */
  because: string;
  /** The workload does not come back by itself while the node is down. */
  open: boolean;
  /** Down for the whole run, which ends before the pod's toleration of the taint runs out: `short` is a lower bound. */
  moreThan?: true;
}

/** A sentence to continue after a colon: no final period, no capital. */
function clause(sentence: string): string {
  const trimmed = sentence.replace(/\.+$/, '');
  // A sentence opening with a kind's name (DaemonSet) keeps its capital.
  return /^[A-Z][a-z]+[A-Z]/.test(trimmed) ? trimmed : trimmed[0].toLowerCase() + trimmed.slice(1);
}

export function outageText(outcome: WorkloadOutcome): OutageText {
  const s = outcome.summary;
  const open = s.unavailableMs >= outcome.durationMs || (s.degradedMs >= outcome.durationMs && s.outcome !== 'replaced' && s.outcome !== 'recovered');
  const tolerationMs = s.podDeletionMs !== null && s.noExecuteTaintMs !== null ? s.podDeletionMs - s.noExecuteTaintMs : null;
  if (s.outcome === 'replaced' && s.podDeletionMs !== null && s.replacementReadyMs !== null) {
    const because = `the pod is deleted ${tolerationMs !== null ? `${approx(tolerationMs)} after the NoExecute taint` : `at ${approx(s.podDeletionMs)}`}, and its replacement is Ready ~${approx(s.replacementReadyMs - s.podDeletionMs)} later`;
    if (s.unavailableMs > 0) return { headline: `Down for about ${approx(s.unavailableMs)}`, short: approx(s.unavailableMs), because, open };
    return { headline: `No outage, ${s.desiredReplicas > 1 ? `one replica short for about ${approx(s.degradedMs)}` : 'replaced in time'}`, short: '0s', because, open };
  }
  if (s.unavailableMs === 0 && s.degradedMs === 0) return { headline: 'No outage', short: '0s', because: clause(outcomeReason(s)), open: false };
  // A toleration longer than the run: the eviction, and a replacement after it, come later.
  const evictionAtMs = s.cause.kind === 'not-evicted-yet' && s.cause.leaderlessSinceMs === undefined ? s.cause.evictionAtMs : undefined;
  if (evictionAtMs !== undefined && s.unavailableMs >= outcome.durationMs) {
    return { headline: `Down for more than ${approx(outcome.durationMs)} (until its eviction at about ${approx(evictionAtMs)}, then a replacement)`, short: `more than ${approx(outcome.durationMs)}`, because: clause(outcomeReason(s)), open: false, moreThan: true };
  }
  if (open) {
    const down = s.unavailableMs >= outcome.durationMs;
    // Short of a replica but serving: no outage, which is what fix titles and lenses compare.
    const short = down ? 'until someone acts' : s.unavailableMs === 0 ? '0s' : approx(s.unavailableMs);
    return { headline: `${down ? 'Down' : 'Short of replicas'} until the node returns or someone acts`, short, because: clause(outcomeReason(s)), open };
  }
  if (s.unavailableMs === 0) return { headline: `No outage, one replica short for about ${approx(s.degradedMs)}`, short: '0s', because: clause(outcomeReason(s)), open };
  return { headline: `Down for about ${approx(s.unavailableMs)}`, short: approx(s.unavailableMs), because: clause(outcomeReason(s)), open };
}
