import type { ObjectRef } from './objects';
import type { Range } from './range';

export type Severity = 'error' | 'warning' | 'info';

/** A problem with the input itself (YAML syntax, templates, limits, wrong field types). */
export interface ManifestProblem {
  ruleId: 'KFS090' | 'KFS091' | 'KFS092' | 'KFS093' | 'KFS094';
  severity: Severity;
  message: string;
  range: Range;
  /** The object the problem is in, when it is known. */
  object?: ObjectRef;
  /** Who refuses it where not the API server: a component that does not start with it (a control-plane static pod's flags), or kubectl (KUBECTL: a document it reads no object from). */
  refusedBy?: string;
}

export const KUBECTL = 'kubectl';

export const SYNTAX_ERROR = 'KFS090';
export const TEMPLATE_DETECTED = 'KFS091';
export const INVALID_FIELD = 'KFS092';
export const LIMIT_REACHED = 'KFS093';
/** Rules that say a file could not be read: never turned off, or such a file would pass as one without findings. */
export const ALWAYS_REPORTED: readonly string[] = [SYNTAX_ERROR, LIMIT_REACHED];
/** The API server refuses the whole object (the analysis's rule KFS094 finds the rest). */
export const API_REJECTED = 'KFS094';
