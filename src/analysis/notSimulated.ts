/**
 * Workloads whose default scenario is not simulated for findings, hovers and lenses: one the
 * API server rejects (a number from a substituted value would be a guess), or one with more
 * pods than the per-workload budget (limits.ts; `simulate` runs it in full).
 */
import { MAX_ANALYSED_PODS_PER_WORKLOAD, formatCount } from '../manifest/limits';
import type { Sourced, Workload } from '../manifest/model/types';
import { desiredPods } from '../manifest/model/workloads';
import { INVALID_FIELD, LIMIT_REACHED, type ManifestProblem } from '../manifest/problem';
import type { RuleContext } from './rule';

/** Why the workload has no simulated numbers, in a few words; undefined when it has them. */
export function whyNotSimulated(workload: Sourced<Workload>, { document, cluster }: Pick<RuleContext, 'document' | 'cluster'>): string | undefined {
  const { kind, name, namespace } = workload.source;
  const refusal = (p: ManifestProblem) => (p.ruleId === INVALID_FIELD && p.severity === 'error') || p.ruleId === LIMIT_REACHED;
  const ofWorkload = (p: ManifestProblem) => p.object?.kind === kind && p.object.name === name && p.object.namespace === namespace;
  if (document.problems.some((p) => refusal(p) && ofWorkload(p))) return 'not simulated: fix the field the API server rejects first';
  const pods = desiredPods(workload, cluster.nodes.length);
  if (pods > MAX_ANALYSED_PODS_PER_WORKLOAD && workload.kind !== 'DaemonSet') return `not simulated here: ${formatCount(pods)} pods (more than ${formatCount(MAX_ANALYSED_PODS_PER_WORKLOAD)})`;
  return undefined;
}
