/** Every finding of one document: its input problems, then every rule of the registry, minus what the document suppresses. */
import { MAX_ANALYSED_PODS_PER_WORKLOAD, MAX_SIMULATED_WORKLOADS_PER_FILE, formatCount } from '../manifest/limits';
import { desiredPods, podCountPath } from '../manifest/model/workloads';
import { objectRef, refKey } from '../manifest/objects';
import { INVALID_FIELD, LIMIT_REACHED } from '../manifest/problem';
import type { Range } from '../manifest/range';
import { compareFindings, type Finding } from './finding';
import type { RuleContext } from './rule';
import { RULES } from './rules';
import { suppressedBy } from './suppression';

export interface AnalysisOptions {
  /** Rule ids not to run (settings, --disable). */
  disabled?: ReadonlySet<string>;
}

/** Rules whose findings come from the workload's simulated node failure (RULES.md A). */
export const NODE_FAILURE_RULE = /^KFS0(0\d|1[0-2])$/;

/** `inputProblems`: settings of this document the workspace could not use (a bad version, a value out of range). */
export function analyseDocument(context: RuleContext, inputProblems: readonly { message: string; range: Range }[] = [], options: AnalysisOptions = {}): Finding[] {
  const { document } = context;
  const disabled = options.disabled ?? new Set<string>();
  const findings: Finding[] = [...document.parsed.problems, ...document.problems];
  for (const problem of inputProblems) findings.push({ ruleId: INVALID_FIELD, severity: 'warning', range: problem.range, message: problem.message });
  const unsimulated = new Set<string>();
  const limited = new Set(findings.flatMap((f) => (f.ruleId === LIMIT_REACHED && f.object ? [refKey(f.object)] : [])));
  for (const workload of context.unsimulated.keys()) {
    unsimulated.add(refKey(workload));
    const pods = desiredPods(workload, context.cluster.nodes.length);
    if (pods > MAX_ANALYSED_PODS_PER_WORKLOAD && !limited.has(refKey(workload))) {
      findings.push({
        ruleId: LIMIT_REACHED, severity: 'info', range: workload.source.sourceMap.closestRange(podCountPath(workload)), object: objectRef(workload.source),
        message: `${formatCount(pods)} pods: findings are simulated for workloads of up to ${formatCount(MAX_ANALYSED_PODS_PER_WORKLOAD)} pods, so this one has no outage figures here; Simulate Node Failure (kube-failure-sim simulate) runs it in full.`,
      });
    }
  }
  const firstUnsimulated = document.model.workloads[MAX_SIMULATED_WORKLOADS_PER_FILE];
  if (firstUnsimulated) {
    findings.push({
      ruleId: LIMIT_REACHED, severity: 'info', range: firstUnsimulated.source.sourceMap.closestRange(['kind']), object: objectRef(firstUnsimulated.source),
      message: `This file has ${formatCount(document.model.workloads.length)} workloads; node-failure findings are simulated for its first ${formatCount(MAX_SIMULATED_WORKLOADS_PER_FILE)}, from here on they are not. Split the file, or run kube-failure-sim simulate on it.`,
    });
  }
  for (const rule of RULES) {
    if (disabled.has(rule.id)) continue;
    const own = rule.check(context);
    // A workload the API server rejects, or too large to simulate here, gets no number made from a substituted value.
    findings.push(...(NODE_FAILURE_RULE.test(rule.id) ? own.filter((f) => !f.object || !unsimulated.has(refKey(f.object))) : own));
  }
  const suppressed = suppressedBy(document);
  return findings.filter((f) => !disabled.has(f.ruleId) && !suppressed(f)).sort(compareFindings);
}
