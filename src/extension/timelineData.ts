/** What the timeline webview shows for one run (no vscode here, so plain tests reach it). */
import type { Scenario } from '../sim/scenario';
import type { SimulationResult } from '../sim/simulate';
import { watchRows } from '../sim/renderText';
import { formatDuration } from '../manifest/duration';
import type { TimelineData } from '../../webview/protocol';

export function timelineData(scenario: Scenario, result: SimulationResult, documentName: string): TimelineData {
  const fault = scenario.faults[0];
  const nodes = result.summary.failedNodes.join(', ');
  return {
    title: `${fault.kind} of ${nodes}: ${documentName}`,
    header: [
      `Kubernetes ${scenario.timing.version.label}, seed ${scenario.seed}, ${formatDuration(scenario.durationMs)} simulated${fault.recoverAfterMs !== undefined ? `, node back after ${formatDuration(fault.recoverAfterMs)}` : ', node never returns'}.`,
      `Cluster: ${scenario.cluster.source}.`,
      ...scenario.timing.notes,
    ],
    summary: result.summary.workloads.map((w) => ({
      workload: `${w.object.kind}/${w.object.name}`,
      outcome: w.outcome,
      unavailable: formatDuration(w.unavailableMs),
      degraded: formatDuration(w.degradedMs),
      reason: w.reason,
    })),
    rows: watchRows(result.events, result.states),
  };
}
