/** Every finding of one document: its input problems, then every rule of the registry, minus what the document suppresses. */
import { INVALID_FIELD } from '../manifest/problem';
import type { Range } from '../manifest/range';
import { compareFindings, type Finding } from './finding';
import type { RuleContext } from './rule';
import { RULES } from './rules';
import { suppressedBy } from './suppression';

export interface AnalysisOptions {
  /** Rule ids not to run (settings, --disable). */
  disabled?: ReadonlySet<string>;
}

/** `inputProblems`: settings of this document the workspace could not use (a bad version, a value out of range). */
export function analyseDocument(context: RuleContext, inputProblems: readonly { message: string; range: Range }[] = [], options: AnalysisOptions = {}): Finding[] {
  const { document } = context;
  const disabled = options.disabled ?? new Set<string>();
  const findings: Finding[] = [...document.parsed.problems, ...document.problems];
  for (const problem of inputProblems) findings.push({ ruleId: INVALID_FIELD, severity: 'warning', range: problem.range, message: problem.message });
  for (const rule of RULES) if (!disabled.has(rule.id)) findings.push(...rule.check(context));
  const suppressed = suppressedBy(document);
  return findings.filter((f) => !disabled.has(f.ruleId) && !suppressed(f)).sort(compareFindings);
}
