/**
 * Workloads whose default scenario is not simulated for findings, hovers, lenses and fix
 * titles: one the API server rejects (a number made from a substituted value would be a
 * guess), one with more pods than a cluster runs or than the per-workload budget, and those
 * past a file's first workloads or first pods (limits.ts). `simulate` runs the last two in full.
 */
import { formatCount } from '../manifest/formatCount';
import { MAX_ANALYSED_PODS_PER_FILE, MAX_ANALYSED_PODS_PER_WORKLOAD, MAX_SIMULATED_WORKLOADS_PER_FILE } from '../manifest/limits';
import type { Sourced, Workload } from '../manifest/model/types';
import { desiredPods, podCountPath } from '../manifest/model/workloads';
import { objectRef, refKey } from '../manifest/objects';
import { INVALID_FIELD, LIMIT_REACHED } from '../manifest/problem';
import type { ReadManifest } from '../manifest/readManifest';
import type { ClusterSpec } from '../cluster/clusterSpec';
import type { Finding } from './finding';
import type { WorkloadSimulations } from './workloadSimulation';

export interface NotSimulated {
  /** rejected: a field the API server refuses; beyond-cluster: a KFS093 count; too-many-pods / past-file-budget: the analysis's own budget. */
  why: 'rejected' | 'beyond-cluster' | 'too-many-pods' | 'past-file-budget';
  /** In a few words, for the CodeLens. */
  text: string;
}

export const REJECTED: NotSimulated = { why: 'rejected', text: 'not simulated: fix the field the API server rejects first' };

/** Why each workload of the document has no simulated numbers. */
export function unsimulatedWorkloads(document: ReadManifest, cluster: ClusterSpec): Map<Sourced<Workload>, NotSimulated> {
  const problemOf = new Map<string, string>();
  for (const p of document.problems) {
    if (p.object && ((p.ruleId === INVALID_FIELD && p.severity === 'error') || p.ruleId === LIMIT_REACHED)) problemOf.set(refKey(p.object), p.ruleId);
  }
  const reasons = new Map<Sourced<Workload>, NotSimulated>();
  // Pods of the workloads simulated so far (Infinity once the file's budget is spent: no later workload is).
  let simulatedPods = 0;
  document.model.workloads.forEach((workload, index) => {
    const problem = problemOf.get(refKey(workload));
    const pods = desiredPods(workload, cluster.nodes.length);
    if (problem === INVALID_FIELD) reasons.set(workload, REJECTED);
    else if (problem === LIMIT_REACHED) reasons.set(workload, { why: 'beyond-cluster', text: `not simulated: ${formatCount(pods)} pods is more than a cluster runs` });
    else if (pods > MAX_ANALYSED_PODS_PER_WORKLOAD && workload.kind !== 'DaemonSet') reasons.set(workload, { why: 'too-many-pods', text: `not simulated here: ${formatCount(pods)} pods (more than ${formatCount(MAX_ANALYSED_PODS_PER_WORKLOAD)})` });
    else if (index >= MAX_SIMULATED_WORKLOADS_PER_FILE) reasons.set(workload, { why: 'past-file-budget', text: `not simulated here: the first ${formatCount(MAX_SIMULATED_WORKLOADS_PER_FILE)} workloads of a file are` });
    else if (simulatedPods + pods > MAX_ANALYSED_PODS_PER_FILE) {
      simulatedPods = Infinity;
      reasons.set(workload, { why: 'past-file-budget', text: `not simulated here: the first ${formatCount(MAX_ANALYSED_PODS_PER_FILE)} pods of a file are` });
    } else simulatedPods += pods;
  });
  return reasons;
}

/** KFS093 notes where the analysis's own budget left workloads without numbers: at each too large one, and once where a file's budget ends. */
export function budgetNotes(document: ReadManifest, unsimulated: ReadonlyMap<Sourced<Workload>, NotSimulated>, cluster: ClusterSpec): Finding[] {
  const notes: Finding[] = [];
  for (const [workload, { why }] of unsimulated) {
    if (why !== 'too-many-pods') continue;
    notes.push({
      ruleId: LIMIT_REACHED, severity: 'info', range: workload.source.sourceMap.closestRange(podCountPath(workload)), object: objectRef(workload.source),
      message: `${formatCount(desiredPods(workload, cluster.nodes.length))} pods: findings are simulated for workloads of up to ${formatCount(MAX_ANALYSED_PODS_PER_WORKLOAD)} pods, so this one has no outage figures here; Simulate Node Failure (kube-failure-sim simulate) runs it in full.`,
    });
  }
  const firstPastBudget = document.model.workloads.find((w) => unsimulated.get(w)?.why === 'past-file-budget');
  if (firstPastBudget) {
    const index = document.model.workloads.indexOf(firstPastBudget);
    const budget = index >= MAX_SIMULATED_WORKLOADS_PER_FILE
      ? `This file has ${formatCount(document.model.workloads.length)} workloads; node-failure findings are simulated for its first ${formatCount(MAX_SIMULATED_WORKLOADS_PER_FILE)}`
      : `This file asks for more than ${formatCount(MAX_ANALYSED_PODS_PER_FILE)} pods; node-failure findings are simulated for its workloads up to that many pods`;
    notes.push({
      ruleId: LIMIT_REACHED, severity: 'info', range: firstPastBudget.source.sourceMap.closestRange(['kind']), object: objectRef(firstPastBudget.source),
      message: `${budget}, from here on they are not. Split the file, or run kube-failure-sim simulate on it.`,
    });
  }
  return notes;
}

/** The simulations as the rules of one analysis see them: none for the workloads above. */
export function withinBudget(simulations: WorkloadSimulations, unsimulated: ReadonlyMap<Sourced<Workload>, NotSimulated>): Pick<WorkloadSimulations, 'outcome'> {
  return { outcome: (workload, ...rest) => (unsimulated.has(workload) ? undefined : simulations.outcome(workload, ...rest)) };
}
