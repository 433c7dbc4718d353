import type { Finding } from '../analysis/finding';
import type { Range } from '../manifest/range';
import type { DocumentAnalysis } from '../workspace/workspace';
import { UsageError, parseArgs, single } from './args';
import { internalError, loadWorkspace } from './files';
import type { Output } from './output';

export const CHECK_USAGE = `Usage: kube-failure-sim check PATH... [--format text|json]

Checks Kubernetes manifests and cluster configuration files (directories are walked for
.yaml and .yml files). Exit code: 0 when no finding is an error, 1 when one is, 2 for usage
or I/O errors.`;

export interface CheckedFile {
  path: string;
  analysis: DocumentAnalysis;
}

export function runCheck(argv: string[], out: Output): number {
  const args = parseArgs(argv, { format: { value: true }, help: { value: false } });
  if (args.options.has('help')) {
    out.stdout(`${CHECK_USAGE}\n`);
    return 0;
  }
  const format = single(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  if (args.positionals.length === 0) throw new UsageError('check needs at least one file or directory');

  // One workspace for the run: settings combine across files (a KubeletConfiguration informs the check of a controller-manager manifest).
  const { workspace, files, errors } = loadWorkspace(args.positionals, { overrides: [] });
  const checked: CheckedFile[] = [];
  for (const { displayPath } of files) {
    try {
      checked.push({ path: displayPath, analysis: workspace.analyse(displayPath) });
    } catch (error) {
      errors.push(internalError(`checking ${displayPath}`, error));
    }
  }
  for (const error of errors) out.stderr(`kube-failure-sim: ${error}\n`);

  if (format === 'json') out.stdout(`${JSON.stringify(checkReport(checked))}\n`);
  else out.stdout(checked.flatMap(({ path, analysis }) => analysis.findings.map((f) => `${textLine(path, f)}\n`)).join(''));

  const all = checked.flatMap((c) => c.analysis.findings);
  if (format === 'text') out.stderr(`${summaryLine(checked.length, all)}\n`);
  if (errors.length > 0) return 2;
  return all.some((f) => f.severity === 'error') ? 1 : 0;
}

function textLine(path: string, finding: Finding): string {
  const { line, character } = finding.range.start;
  return `${path}:${line + 1}:${character + 1} ${finding.severity} ${finding.ruleId} ${finding.message}`;
}

function summaryLine(fileCount: number, findings: Finding[]): string {
  const count = (severity: string) => findings.filter((f) => f.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(fileCount, 'file')} checked: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${count('info')} info`;
}

/** The JSON contract of `check --format json` (version 1). */
export function checkReport(checked: CheckedFile[]) {
  return {
    version: 1,
    files: checked.map(({ path, analysis }) => ({
      path,
      documents: analysis.read.parsed.documents.length,
      objects: analysis.read.objects.map((o) => ({ kind: o.kind, name: o.name, namespace: o.namespace, range: plainRange(o.range) })),
      findings: analysis.findings.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        range: plainRange(f.range),
        object: f.object ? { kind: f.object.kind, name: f.object.name, namespace: f.object.namespace } : null,
      })),
    })),
  };
}

function plainRange(range: Range) {
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}
