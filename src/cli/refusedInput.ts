/**
 * Input that simulate and load do not run on: documents they skip (a YAML error, a template),
 * and objects or settings that whoever reads them would refuse, named for who that is.
 */
import type { Finding } from '../analysis/finding';
import { refuserOf } from '../analysis/refuser';
import { LIMIT_REACHED, TEMPLATE_DETECTED } from '../manifest/problem';
import type { Workspace } from '../workspace/workspace';
import { findingLine } from './checkCommand';
import type { InputFile } from './files';
import type { Output } from './output';

export type Warn = (line: string) => void;

/**
 * A document that cannot be read is skipped with a message at its place; a template (KFS091, info
 * for check) too; and a file read only up to a limit (KFS093) says what was left out.
 */
export function warnSkippedDocuments(workspace: Workspace, files: readonly InputFile[], warn: Warn): void {
  for (const { displayPath } of files) {
    for (const problem of workspace.read(displayPath).parsed.problems) {
      const at = `${displayPath}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message}`;
      if (problem.ruleId === LIMIT_REACHED) warn(`${at} The rest of the file is not simulated.`);
      else if (problem.severity === 'error' || problem.ruleId === TEMPLATE_DETECTED) warn(`${at} (document skipped)`);
    }
  }
}

export class RejectedInput extends Error {
  constructor(readonly rejections: readonly { uri: string; finding: Finding }[]) {
    super('the input would be refused');
  }
}

/** The closing line's words for who refuses the findings listed above it. */
function refusal(finding: Finding): string {
  const refuser = refuserOf(finding);
  if (typeof refuser === 'object') return `${refuser.component} would not start with these flags`;
  switch (refuser) {
    case 'none': return 'these settings cannot be used';
    case 'kubelet': return 'the kubelet would refuse these settings';
    case 'kubeadm': return 'kubeadm would refuse these settings';
    case 'kubectl': return 'kubectl would refuse these documents';
    case 'api-server': return 'the API server would reject these objects';
  }
}

/** Exit code 1: the refusals on standard error (standard output holds a report or nothing, for a pipe into jq). */
export function reportRejected(error: RejectedInput, out: Output, nothing: string): number {
  for (const { uri, finding } of error.rejections) out.stderr(`${findingLine(uri, finding)}\n`);
  const refusals = [...new Set(error.rejections.map((r) => refusal(r.finding)))];
  out.stderr(`kube-failure-sim: ${refusals.join('; ')}; fix them first (${nothing}).\n`);
  return 1;
}
