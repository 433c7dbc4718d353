import type { ObjectRef } from '../manifest/objects';
import type { Severity } from '../manifest/problem';
import type { Range } from '../manifest/range';

export type { Severity };

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
}

/** What a rule reports: where, how bad, and what the user learns. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  range: Range;
  object?: ObjectRef;
  /** Longer Markdown explanation for hovers and reports. */
  explanation?: string;
  fixes?: Fix[];
}

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function compareFindings(a: Finding, b: Finding): number {
  return a.range.start.line - b.range.start.line
    || a.range.start.character - b.range.start.character
    || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]
    || a.ruleId.localeCompare(b.ruleId);
}
