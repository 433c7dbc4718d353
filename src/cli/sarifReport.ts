/** `check --format sarif`: SARIF 2.1.0, the format code-scanning services read (GitHub, Azure DevOps, IDE viewers). */
import type * as Sarif from 'sarif';
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, TextEdit } from '../analysis/finding';
import type { RuleInfo } from '../analysis/rule';
import { INPUT_RULES, RULES } from '../analysis/rules';
import type { Range } from '../manifest/range';
import type { CheckedFile } from './checkCommand';
import { STDIN_NAME } from './files';
import { TOOL_HOME, TOOL_VERSION } from './version';

const LEVEL: Record<Finding['severity'], Sarif.ReportingConfiguration.level> = { error: 'error', warning: 'warning', info: 'note' };
const SOURCE_ROOT = 'SRCROOT';

/** Every rule that can report a finding, in id order: SARIF results refer to them by index. */
const REPORTED_RULES: readonly RuleInfo[] = [...RULES, ...INPUT_RULES].sort((a, b) => (a.id < b.id ? -1 : 1));

export function sarifReport(checked: readonly CheckedFile[], errors: readonly string[], cwd: string): Sarif.Log {
  const ruleIndex = new Map(REPORTED_RULES.map((rule, i) => [rule.id, i]));
  const results: Sarif.Result[] = checked.flatMap(({ path, analysis }) => analysis.findings.map((finding): Sarif.Result => ({
    ruleId: finding.ruleId,
    ruleIndex: ruleIndex.get(finding.ruleId),
    level: LEVEL[finding.severity],
    message: { text: finding.message },
    locations: [location(path, finding.range)],
    ...(finding.related?.length ? {
      relatedLocations: finding.related.map((r, id) => ({ id, ...location(r.location.uri, r.location.range), message: { text: r.message } })),
    } : {}),
    ...(finding.fixes?.length ? { fixes: finding.fixes.map((fix) => ({ description: { text: fix.title }, artifactChanges: [artifactChange(path, fix.edits)] })) } : {}),
  })));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'kube-failure-sim',
          version: TOOL_VERSION,
          semanticVersion: TOOL_VERSION,
          informationUri: TOOL_HOME,
          rules: REPORTED_RULES.map((rule) => ({
            id: rule.id,
            shortDescription: { text: rule.title },
            helpUri: rule.docs,
            defaultConfiguration: { level: LEVEL[rule.defaultSeverity] },
          })),
        },
      },
      originalUriBaseIds: { [SOURCE_ROOT]: { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
      // Columns count UTF-16 code units, as the analysis's ranges (and VS Code's) do.
      columnKind: 'utf16CodeUnits',
      invocations: [{
        executionSuccessful: errors.length === 0,
        toolExecutionNotifications: errors.map((text) => ({ level: 'error', message: { text } })),
      }],
      results,
    }],
  };
}

/** Path separators: a backslash is one on Windows only; elsewhere it is part of a file name (encoded %5C). */
const SEPARATORS = sep === '\\' ? /[\\/]/ : /\//;

function artifactLocation(path: string): Sarif.ArtifactLocation {
  if (path === STDIN_NAME) return { uri: encodeURIComponent(STDIN_NAME), description: { text: 'standard input' } };
  if (isAbsolute(path)) return { uri: pathToFileURL(path).href };
  return { uri: path.split(SEPARATORS).map(encodeURIComponent).join('/'), uriBaseId: SOURCE_ROOT };
}

function location(path: string, range: Range): Sarif.Location {
  return { physicalLocation: { artifactLocation: artifactLocation(path), region: region(range) } };
}

/** SARIF lines and columns are 1-based and the end column is exclusive, like the analysis's end character. */
function region(range: Range): Sarif.Region {
  return { startLine: range.start.line + 1, startColumn: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

function artifactChange(path: string, edits: readonly TextEdit[]): Sarif.ArtifactChange {
  return {
    artifactLocation: artifactLocation(path),
    replacements: edits.map((edit) => ({ deletedRegion: region(edit.range), insertedContent: { text: edit.newText } })),
  };
}
