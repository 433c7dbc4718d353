import type { ObjectRef } from '../manifest/objects';
import type { Severity } from '../manifest/problem';
import type { Range, SourceLocation } from '../manifest/range';

export type { Severity };

export interface TextEdit {
  range: Range;
  newText: string;
}

/** A quick fix: a minimal edit of the document. */
export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The one fix that is clearly right for the finding (applied by "fix all"). */
  preferred?: boolean;
  /** The workload whose simulated outcome the edit changes (two documents may share its name): the title shows the effect. */
  effect?: { workload: ObjectRef; documentIndex: number; measure: EffectMeasure };
}

/** What a fix's title compares before and after the edit. */
export type EffectMeasure = 'outage' | 'not-ready-outage' | 'partition-eviction' | 'not-ready-eviction' | 'worst-placement-outage';

export interface RelatedInformation {
  location: SourceLocation;
  message: string;
}

/** What a rule reports: where, how bad, and what the user learns. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  range: Range;
  object?: ObjectRef;
  /** Who refuses it where not the API server: a component that does not start with it (a control-plane static pod's flags), or kubectl (problem.ts KUBECTL). */
  refusedBy?: string;
  /** Longer Markdown explanation for hovers and reports. */
  explanation?: string;
  /** The objects that explain the finding: the PVC, the PDB, the local PV, the Service. */
  related?: RelatedInformation[];
  /** The finding's text has no effect (a flag that changes nothing). */
  unnecessary?: boolean;
  fixes?: Fix[];
}

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function compareFindings(a: Finding, b: Finding): number {
  return a.range.start.line - b.range.start.line
    || a.range.start.character - b.range.start.character
    || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]
    || a.ruleId.localeCompare(b.ruleId);
}
