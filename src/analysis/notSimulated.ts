/**
 * Workloads whose default scenario is not simulated for findings, hovers, lenses and fix
 * titles: one the API server rejects (a number made from a substituted value would be a
 * guess), one with more pods than the per-workload budget, and those past a file's first
 * workloads (limits.ts). `simulate` runs any of them in full.
 */
import { MAX_ANALYSED_PODS_PER_WORKLOAD, MAX_SIMULATED_WORKLOADS_PER_FILE, formatCount } from '../manifest/limits';
import type { Sourced, Workload } from '../manifest/model/types';
import { desiredPods } from '../manifest/model/workloads';
import { refKey } from '../manifest/objects';
import { INVALID_FIELD, LIMIT_REACHED, type ManifestProblem } from '../manifest/problem';
import type { ReadManifest } from '../manifest/readManifest';
import type { ClusterSpec } from '../cluster/clusterSpec';
import type { WorkloadSimulations } from './workloadSimulation';

/** Why each workload of the document has no simulated numbers, in a few words. */
export function unsimulatedWorkloads(document: ReadManifest, cluster: ClusterSpec): Map<Sourced<Workload>, string> {
  const refusal = (p: ManifestProblem) => (p.ruleId === INVALID_FIELD && p.severity === 'error') || p.ruleId === LIMIT_REACHED;
  const refused = new Set(document.problems.filter(refusal).flatMap((p) => (p.object ? [refKey(p.object)] : [])));
  const reasons = new Map<Sourced<Workload>, string>();
  document.model.workloads.forEach((workload, index) => {
    const pods = desiredPods(workload, cluster.nodes.length);
    if (refused.has(refKey(workload))) reasons.set(workload, 'not simulated: fix the field the API server rejects first');
    else if (pods > MAX_ANALYSED_PODS_PER_WORKLOAD && workload.kind !== 'DaemonSet') reasons.set(workload, `not simulated here: ${formatCount(pods)} pods (more than ${formatCount(MAX_ANALYSED_PODS_PER_WORKLOAD)})`);
    else if (index >= MAX_SIMULATED_WORKLOADS_PER_FILE) reasons.set(workload, `not simulated here: the first ${formatCount(MAX_SIMULATED_WORKLOADS_PER_FILE)} workloads of a file are`);
  });
  return reasons;
}

/** The simulations as the rules of one analysis see them: none for the workloads above. */
export function withinBudget(simulations: WorkloadSimulations, unsimulated: ReadonlyMap<Sourced<Workload>, string>): Pick<WorkloadSimulations, 'outcome'> {
  return { outcome: (workload, ...rest) => (unsimulated.has(workload) ? undefined : simulations.outcome(workload, ...rest)) };
}
