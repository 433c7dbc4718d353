/** Every finding of one document: its input problems, then every rule of the registry, minus what the document suppresses. */
import { refKey } from '../manifest/objects';
import { INVALID_FIELD } from '../manifest/problem';
import type { Range } from '../manifest/range';
import { compareFindings, type Finding } from './finding';
import { budgetNotes } from './notSimulated';
import type { RuleContext } from './rule';
import { RULES } from './rules';
import { suppressedBy } from './suppression';

export interface AnalysisOptions {
  /** Rule ids not to run (settings, --disable). */
  disabled?: ReadonlySet<string>;
  /** Findings of rules already run on this context, by rule id: not run again. */
  checked?: ReadonlyMap<string, readonly Finding[]>;
}

/** Rules whose findings come from the workload's simulated node failure (RULES.md A). */
export const NODE_FAILURE_RULE = /^KFS0(0\d|1[0-2])$/;

/** A setting of the document that the workspace could not use: an error where a run refuses it. */
export interface InputProblem {
  message: string;
  range: Range;
  severity: 'error' | 'warning';
}

/** `inputProblems`: settings of this document the workspace could not use (a bad version, a value out of range, one set again). */
export function analyseDocument(context: RuleContext, inputProblems: readonly InputProblem[] = [], options: AnalysisOptions = {}): Finding[] {
  const { document } = context;
  const disabled = options.disabled ?? new Set<string>();
  const findings: Finding[] = [...document.parsed.problems, ...document.problems];
  for (const problem of inputProblems) findings.push({ ruleId: INVALID_FIELD, severity: problem.severity, range: problem.range, message: problem.message });
  findings.push(...budgetNotes(document, context.unsimulated, context.cluster));
  const unsimulated = new Set([...context.unsimulated.keys()].map(refKey));
  for (const rule of RULES) {
    if (disabled.has(rule.id)) continue;
    const own = options.checked?.get(rule.id) ?? rule.check(context);
    // A workload the API server rejects, or too large to simulate here, gets no number made from a substituted value.
    findings.push(...(NODE_FAILURE_RULE.test(rule.id) ? own.filter((f) => !f.object || !unsimulated.has(refKey(f.object))) : own));
  }
  const suppressed = suppressedBy(document);
  return findings.filter((f) => !disabled.has(f.ruleId) && !suppressed(f)).sort(compareFindings);
}
