/** The JSON contract (contract.ts) from a scenario and its run(s). */
import { notReadyNote, ZONE_LABEL } from '../cluster/clusterSpec';
import { knobsOf, type TimingConfiguration } from '../cluster/timing';
import type { InitialPlacement, Scenario } from '../sim/scenario';
import type { SimulationResult } from '../sim/simulate';
import { inertShutdown } from '../cluster/kubeletConfiguration';
import type { TraceEvent } from '../sim/trace';
import type { EventJson, MultiRunReport, ScenarioJson, TimingJson, TraceReport } from './contract';
import { eventMessage, inertShutdownText } from './eventMessages';
import type { RunStatistics } from './runStatistics';
import { skippedDeletionNotes } from './skippedDeletions';
import { outcomeReason } from './summaryText';

export function timingJson(timing: TimingConfiguration): Record<string, TimingJson> {
  return Object.fromEntries(knobsOf(timing).map(({ ref, knob }) => {
    const unit = ref.spec.type === 'duration' ? 'ms' : ref.spec.unit;
    return [ref.qualifiedName, { value: knob.value, ...(unit ? { unit } : {}), source: knob.source }];
  }));
}

export function eventJson(event: TraceEvent): EventJson {
  const { t, object, type, reason, detail } = event;
  const json: EventJson = { t, object, type, reason, message: eventMessage(event) };
  if (detail) {
    const { message: _message, ...rest } = detail;
    if (Object.keys(rest).length > 0) json.detail = rest;
  }
  return json;
}

export function scenarioJson(
  scenario: Scenario, inputs: string[], failedNodes: string[], runs: number, failedNodesByFault?: string[][], initialPlacement?: InitialPlacement,
): ScenarioJson {
  const fault = scenario.faults[0];
  const recoveries = new Set(scenario.faults.map((f) => f.recoverAfterMs ?? null));
  return {
    inputs,
    failure: fault.kind,
    targets: scenario.faults.flatMap((f) => f.targets),
    failedNodes,
    atMs: 0,
    preFailureMs: scenario.preFailureMs,
    // One value when every target returns after the same delay; per target in `faults`.
    recoverAfterMs: recoveries.size === 1 ? fault.recoverAfterMs ?? null : null,
    faults: scenario.faults.map((f, i) => ({
      failure: f.kind, targets: f.targets, failedNodes: failedNodesByFault?.[i] ?? [], atMs: f.atMs, recoverAfterMs: f.recoverAfterMs ?? null,
    })),
    interventions: scenario.interventions,
    placement: scenario.placement ?? 'scheduler',
    ...(initialPlacement ? { initialPlacement } : {}),
    durationMs: scenario.durationMs,
    profile: scenario.timing.profile ?? null,
    k8sVersion: scenario.timing.version.label,
    seed: scenario.seed,
    runs,
    cluster: { source: scenario.cluster.source, nodes: scenario.cluster.nodes.map((n) => ({ name: n.name, zone: n.labels[ZONE_LABEL] ?? null })) },
    notes: [...scenario.timing.notes, ...inertShutdownNotes(scenario), ...[notReadyNote(scenario.cluster)].filter((n): n is string => n !== undefined)],
  };
}

/** A graceful shutdown that is a power-off says so where the run is described, not only among the events. */
function inertShutdownNotes(scenario: Scenario): string[] {
  const inert = scenario.faults.some((f) => f.kind === 'graceful-shutdown') ? inertShutdown(scenario.timing.version.minor, scenario.timing.kubelet.shutdownGracePeriod.value) : undefined;
  return inert ? [inertShutdownText(inert.gateOff)] : [];
}

/** One run: its whole trace and summary. `inputs` are the files as the user named them. */
export function traceReport(scenario: Scenario, inputs: string[], result: SimulationResult): TraceReport {
  const described = scenarioJson(scenario, inputs, result.summary.failedNodes, 1, result.summary.failedNodesByFault, result.summary.initialPlacement);
  return {
    version: 1,
    scenario: { ...described, notes: [...described.notes, ...skippedDeletionNotes(result)] },
    timing: timingJson(scenario.timing),
    events: result.events.map(eventJson),
    states: result.states,
    summary: { failedNodes: result.summary.failedNodes, placement: result.summary.placement, initialPlacement: result.summary.initialPlacement, workloads: result.summary.workloads.map((w) => ({ ...w, reason: outcomeReason(w) })) },
  };
}

/** Several runs: the first run's trace, and statistics of every run's summary. */
export function multiRunReport(scenario: Scenario, inputs: string[], first: SimulationResult, statistics: RunStatistics): MultiRunReport {
  const { summary: _summary, ...report } = traceReport(scenario, inputs, first);
  report.scenario.runs = statistics.runs;
  return {
    ...report,
    summary: {
      failedNodes: first.summary.failedNodes,
      placement: first.summary.placement,
      initialPlacement: first.summary.initialPlacement,
      workloads: statistics.result().map((w) => ({
        object: w.object, desiredReplicas: w.desiredReplicas,
        ...w.times,
        outcome: w.outcome, outcomes: w.outcomes, cause: w.example.cause, pendingBeforeFailure: w.example.pendingBeforeFailure, reason: outcomeReason(w.example),
      })),
    },
  };
}
