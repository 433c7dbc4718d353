/** What the timeline webview shows for one run (no vscode here, so plain tests reach it). */
import type { Scenario } from '../sim/scenario';
import type { SimulationResult } from '../sim/simulate';
import { scenarioHeader, watchRows } from '../sim/renderText';
import { formatDuration } from '../manifest/duration';
import type { TimelineData } from '../../webview/protocol';

export function timelineData(scenario: Scenario, result: SimulationResult, documentName: string): TimelineData {
  const { failedNodes } = result.summary;
  return {
    title: `${scenario.faults[0].kind} of ${failedNodes.join(', ')}: ${documentName}`,
    header: scenarioHeader(scenario, failedNodes),
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
