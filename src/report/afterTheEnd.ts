/** What a scenario schedules past its simulated window: the run cannot show it, so the front ends say so. */
import { formatDuration } from './format';
import type { Intervention } from '../sim/scenario';

/** A Scenario, or a trace's scenario (recoverAfterMs null there). */
interface Scheduled {
  durationMs: number;
  faults: readonly { targets: readonly string[]; atMs: number; recoverAfterMs?: number | null }[];
  interventions: readonly Intervention[];
}

export function afterTheEnd(scenario: Scheduled): string[] {
  const end = formatDuration(scenario.durationMs);
  const late = (what: string, atMs: number) => `${what} at ${formatDuration(atMs)} is after the end of the run (${end} simulated), so the run does not show it; simulate longer`;
  const lines: string[] = [];
  for (const fault of scenario.faults) {
    const targets = fault.targets.join(', ') || 'the failed node';
    if (fault.atMs > scenario.durationMs) lines.push(late(`the failure of ${targets}`, fault.atMs));
    else if (fault.recoverAfterMs !== undefined && fault.recoverAfterMs !== null && fault.atMs + fault.recoverAfterMs > scenario.durationMs) lines.push(late(`the return of ${targets}`, fault.atMs + fault.recoverAfterMs));
  }
  for (const intervention of scenario.interventions) {
    if (intervention.atMs > scenario.durationMs) lines.push(late(interventionName(intervention), intervention.atMs));
  }
  return lines;
}

function interventionName(intervention: Intervention): string {
  switch (intervention.kind) {
    case 'force-delete': return `the force delete of ${intervention.target}`;
    case 'delete': return `the deletion of ${intervention.target}`;
    case 'out-of-service': return 'the out-of-service taint';
    case 'delete-node': return 'the deletion of the failed Node objects';
    case 'restart-controller-manager': return 'the controller-manager restart';
  }
}
