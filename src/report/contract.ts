/**
 * The JSON contract of a simulation (`simulate --format json`, version 1), which is also what the
 * timeline webview and the HTML report draw from. Plain data: no code of the simulator crosses.
 */
import type { ObjectRef, StateInterval, TraceEventType } from '../sim/trace';
import type { Outcome, OutcomeCause, WorkloadSummary } from '../sim/summary';
import type { Intervention } from '../sim/scenario';
import type { Stat, TimeField } from './runStatistics';

export type { ObjectRef, Outcome, OutcomeCause, StateInterval, TraceEventType };

export interface EventJson {
  t: number;
  object: ObjectRef;
  type: TraceEventType;
  reason: string;
  message: string;
  detail?: Record<string, unknown>;
}

export interface TimingJson {
  value: number | boolean | null;
  unit?: 'ms' | 's';
  source: string;
}

export interface ScenarioJson {
  inputs: string[];
  failure: string;
  targets: string[];
  failedNodes: string[];
  atMs: number;
  preFailureMs: number;
  recoverAfterMs: number | null;
  /** Every fault: targets failing at their own times (atMs) and returning after their own delay. */
  faults: { failure: string; targets: string[]; failedNodes: string[]; atMs: number; recoverAfterMs: number | null }[];
  interventions: Intervention[];
  placement: string;
  /** How the pods running before the failure were placed (scored, or the first feasible node in a large cluster); absent in older reports. */
  initialPlacement?: 'scored' | 'first-feasible';
  durationMs: number;
  profile: string | null;
  k8sVersion: string;
  seed: number;
  runs: number;
  cluster: { source: string; nodes: { name: string; zone: string | null }[] };
  notes: readonly string[];
}

export type WorkloadSummaryJson = WorkloadSummary & { reason: string };

export type WorkloadStatisticsJson = { object: ObjectRef; desiredReplicas: number } & Record<TimeField, Stat>
  & { outcome: Outcome; outcomes: Partial<Record<Outcome, number>>; reason: string } & Pick<WorkloadSummary, 'cause' | 'pendingBeforeFailure'>;

export interface TraceReport {
  version: 1;
  scenario: ScenarioJson;
  timing: Record<string, TimingJson>;
  events: EventJson[];
  states: StateInterval[];
  summary: { failedNodes: string[]; placement: string; initialPlacement?: 'scored' | 'first-feasible'; workloads: WorkloadSummaryJson[] };
}

/** `--runs N` (N > 1): the first run's trace, and each summary time as {min, median, max}. */
export interface MultiRunReport extends Omit<TraceReport, 'summary'> {
  summary: { failedNodes: string[]; placement: string; initialPlacement?: 'scored' | 'first-feasible'; workloads: WorkloadStatisticsJson[] };
}
