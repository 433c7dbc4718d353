/** Every finding of one document: its input problems, then every rule of the registry. */
import { INVALID_FIELD } from '../manifest/problem';
import type { Range } from '../manifest/range';
import { compareFindings, type Finding } from './finding';
import type { RuleContext } from './rule';
import { RULES } from './rules';

/** `inputProblems`: settings of this document the workspace could not use (a bad version, a value out of range). */
export function analyseDocument(context: RuleContext, inputProblems: readonly { message: string; range: Range }[] = []): Finding[] {
  const { document } = context;
  const findings: Finding[] = [...document.parsed.problems, ...document.problems];
  for (const problem of inputProblems) {
    findings.push({ ruleId: INVALID_FIELD, severity: 'warning', range: problem.range, message: problem.message });
  }
  for (const rule of RULES) findings.push(...rule.check(context));
  findings.sort(compareFindings);
  return findings;
}
