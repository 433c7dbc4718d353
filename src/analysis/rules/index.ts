import type { Rule, RuleInfo } from '../rule';
import { apiRejects, serviceSelectsNothing, statefulSetSpec } from './apiValidationRules';
import { gracePeriodTooShort, heartbeatLoad, podEvictionTimeoutIgnored } from './clusterConfigRules';
import { unknownField } from './fieldNameRules';
import {
  barePod, daemonSetWaits, defaultTolerations, localStorage, packedReplicas, pinnedToOneNode, readWriteOnceVolume, shortToleration, singleReplica, statefulSetStuck, toleratedForever,
} from './nodeFailureRules';
import { livenessBeforeStart, livenessSameAsReadiness, noReadinessProbe, probeOnOtherHost, readinessGates, tcpProbe } from './probeRules';
import { bestEffort, burstable, noMemoryLimit, unboundedEmptyDir } from './resourceRules';
import { noPdb, pdbBlocksDrains, rolloutCannotProgress } from './rolloutRules';
import { longGracePeriod, preStopTooLong, shellIgnoresSigterm } from './terminationRules';

/** Every rule, by stable id (RULES.md). */
export const RULES: readonly Rule[] = [
  statefulSetStuck, singleReplica, barePod, pinnedToOneNode, localStorage, shortToleration, toleratedForever, defaultTolerations, daemonSetWaits, packedReplicas, readWriteOnceVolume,
  noReadinessProbe, livenessBeforeStart, livenessSameAsReadiness, tcpProbe, probeOnOtherHost, readinessGates,
  shellIgnoresSigterm, longGracePeriod, preStopTooLong,
  bestEffort, burstable, noMemoryLimit, unboundedEmptyDir,
  rolloutCannotProgress, pdbBlocksDrains, noPdb, statefulSetSpec, serviceSelectsNothing,
  podEvictionTimeoutIgnored, gracePeriodTooShort, heartbeatLoad,
  apiRejects, unknownField,
];

/** Problems the parser and the model report themselves (RULES.md G). */
export const INPUT_RULES: readonly RuleInfo[] = [
  { id: 'KFS090', title: 'YAML syntax error', defaultSeverity: 'error', docs: 'https://kubernetes.io/docs/concepts/overview/working-with-objects/' },
  { id: 'KFS091', title: 'Helm or other template, or a kustomize patch file: file not analysed', defaultSeverity: 'info', docs: 'https://helm.sh/docs/helm/helm_template/' },
  { id: 'KFS092', title: 'Field of the wrong type or an impossible value', defaultSeverity: 'error', docs: 'https://kubernetes.io/docs/reference/kubernetes-api/' },
  // Most KFS093 findings are information (a file, document or workload beyond what is analysed); a finding carries its own
  // severity where the case is worse: warning for a replica count beyond any cluster, error for an alias bomb kubectl rejects.
  { id: 'KFS093', title: 'A limit was reached; analysis limited', defaultSeverity: 'info', docs: 'https://kubernetes.io/docs/setup/best-practices/cluster-large/' },
];

/** Rule ids shown in the editor but not as diagnostics: KFS012 is the CodeLens. */
export const LENS_RULE: RuleInfo = {
  id: 'KFS012', title: 'Estimated outage when the node fails (CodeLens)', defaultSeverity: 'info',
  docs: 'https://kubernetes.io/docs/concepts/architecture/nodes/#node-status',
};

/** What the API server would refuse to store (a wrong type, a selector that misses the template, both rollout budgets 0): nothing to simulate. */
export const API_REJECTION_RULES: readonly string[] = ['KFS050', 'KFS053', 'KFS092', 'KFS094'];

export const ALL_RULE_INFO: readonly RuleInfo[] = [...RULES, LENS_RULE, ...INPUT_RULES].sort((a, b) => (a.id < b.id ? -1 : 1));

export function ruleInfo(id: string): RuleInfo | undefined {
  return ALL_RULE_INFO.find((r) => r.id === id);
}
