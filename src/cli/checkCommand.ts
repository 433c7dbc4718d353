import { SEVERITY_ORDER, type Finding } from '../analysis/finding';
import type { Range } from '../manifest/range';
import type { DocumentAnalysis } from '../workspace/workspace';
import { UsageError, parseArgs, single, type ParsedArgs } from './args';
import { internalError, loadWorkspace, STDIN_NAME } from './files';
import { describeInputError } from './inputErrors';
import type { Output } from './output';
import { sarifReport } from './sarifReport';
import { DISABLE_OPTION, SETTINGS_OPTIONS, SETTINGS_USAGE, settingsFromArgs } from './settingsOptions';

export const CHECK_USAGE = `Usage: kube-failure-sim check PATH... [options]

Checks Kubernetes manifests and cluster configuration files. Directories are walked for .yaml
and .yml files; - reads standard input (helm template . | kube-failure-sim check -).
  --format text|json|sarif   (default text; sarif is SARIF 2.1.0 for code scanning)
  --severity error|warning|info   print findings at least this severe (default info)
  --disable RULE[,RULE...]   rules not to run, such as KFS041; repeatable
${SETTINGS_USAGE}
Exit code: 0 when no finding is an error, 1 when one is, 2 for usage or I/O errors and when there
is nothing to check.`;

const OPTIONS = { format: { value: true }, severity: { value: true }, ...SETTINGS_OPTIONS, ...DISABLE_OPTION };
const FORMATS = ['text', 'json', 'sarif'] as const;

export interface CheckedFile {
  path: string;
  analysis: DocumentAnalysis;
}

export function runCheck(argv: string[], out: Output, cwd = process.cwd()): number {
  const args = parseArgs(argv, OPTIONS);
  const format = oneOf(args, 'format', FORMATS, 'text');
  const threshold = SEVERITY_ORDER[oneOf(args, 'severity', ['error', 'warning', 'info'] as const, 'info')];
  if (args.positionals.length === 0) throw new UsageError('check needs at least one file or directory, or - for standard input');

  // One workspace for the run: settings combine across files (a KubeletConfiguration informs the check of a controller-manager manifest).
  const { workspace, files, errors } = loadWorkspace(args.positionals, settingsFromArgs(args), cwd, out.readStdin);
  const settingsProblems = workspace.settingsProblems();
  if (settingsProblems.length > 0) {
    for (const problem of settingsProblems) out.stderr(`kube-failure-sim: ${describeInputError(problem)}\n`);
    return 2;
  }
  // Nothing to check is a failure in CI: a folder path mistyped, a `helm template` that failed before the pipe.
  if (files.length === 0 && errors.length === 0) {
    out.stderr(`kube-failure-sim: nothing to check: no .yaml or .yml file in ${args.positionals.join(', ')}\n`);
    return 2;
  }
  if (files.length === 1 && files[0].displayPath === STDIN_NAME && workspace.read(STDIN_NAME).parsed.text.trim() === '') {
    out.stderr('kube-failure-sim: nothing to check: standard input is empty\n');
    return 2;
  }
  const checked: CheckedFile[] = [];
  const belowThreshold: Finding[] = [];
  for (const { displayPath } of files) {
    try {
      const analysis = workspace.analyse(displayPath);
      belowThreshold.push(...analysis.findings.filter((f) => SEVERITY_ORDER[f.severity] > threshold));
      checked.push({ path: displayPath, analysis: { ...analysis, findings: analysis.findings.filter((f) => SEVERITY_ORDER[f.severity] <= threshold) } });
    } catch (error) {
      errors.push(internalError(`checking ${displayPath}`, error));
    }
  }
  for (const error of errors) out.stderr(`kube-failure-sim: ${error}\n`);

  if (format === 'json') out.stdout(`${JSON.stringify(checkReport(checked, errors))}\n`);
  else if (format === 'sarif') out.stdout(`${JSON.stringify(sarifReport(checked, errors, cwd), null, 2)}\n`);
  else out.stdout(checked.flatMap(({ path, analysis }) => analysis.findings.map((f) => `${findingLine(path, f)}\n`)).join(''));

  const all = checked.flatMap((c) => c.analysis.findings);
  if (format === 'text') out.stderr(`${summaryLine(checked.length, all)}${notShown(belowThreshold, threshold)}\n`);
  if (errors.length > 0) return 2;
  return all.some((f) => f.severity === 'error') ? 1 : 0;
}

function oneOf<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T {
  const value = single(args, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, not "${value}"`);
  return value as T;
}

/**
 * `file:line:col severity RULE message`, 1-based, as compilers print: one line per finding, whatever a manifest's names hold: a line break from a name or a path is
 * written as a \u escape (like the other control characters, output.ts), so no text of a manifest
 * can add a line that a CI problem matcher would read as a finding.
 */
export function findingLine(path: string, finding: Finding): string {
  const { line, character } = finding.range.start;
  return `${path}:${line + 1}:${character + 1} ${finding.severity} ${finding.ruleId} ${finding.message}`
    .replace(/[\n\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The findings --severity leaves out, counted so that the summary does not read as a cleaner run than it was. */
function notShown(hidden: readonly Finding[], threshold: number): string {
  if (hidden.length === 0) return '';
  const level = Object.entries(SEVERITY_ORDER).find(([, order]) => order === threshold)?.[0];
  const counts = ['warning', 'info'].map((s) => [s, hidden.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  return ` (${counts.map(([s, n]) => `${n} ${s === 'warning' ? (n === 1 ? 'warning' : 'warnings') : 'info'}`).join(' and ')} below --severity ${level} not shown)`;
}

function summaryLine(fileCount: number, findings: Finding[]): string {
  const count = (severity: string) => findings.filter((f) => f.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(fileCount, 'file')} checked: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${count('info')} info`;
}

/** The JSON contract of `check --format json` (version 1); `errors`: what could not be read (exit code 2), as standard error says it. */
export function checkReport(checked: CheckedFile[], errors: readonly string[] = []) {
  return {
    version: 1,
    errors,
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
