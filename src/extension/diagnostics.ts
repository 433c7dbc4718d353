import * as vscode from 'vscode';
import type { Finding } from '../analysis/finding';
import { ruleInfo } from '../analysis/rules';
import type { Range } from '../manifest/range';
import { ruleLevel, type RuleLevel } from './choices';
import type { Config } from './config';
import { EDITOR_FS } from './editorFs';
import type { WorkspaceIndex } from './workspaceIndex';
import { readScenarioFile, SCENARIO_FILE_SUFFIX, SCENARIO_KIND, scenarioFieldOf, scenarioRun, type ReadScenarioFile, type ScenarioProblem } from '../workspace/scenarioFile';
import type { InputError } from '../workspace/inputError';
import { readScenarioInputs } from './scenarioInputs';
import { scenarioSettingsProblems } from '../workspace/scenarioSettings';

const SCENARIO_KIND_LINE = new RegExp(`^\\s*kind\\s*:\\s*["']?${SCENARIO_KIND}\\b`);
/** Lines read for `kind: FailureScenario`: a scenario file says it near its top. */
const SCENARIO_SNIFF_LINES = 20;

/**
 * A scenario file, by its name or a `kind: FailureScenario` near the top, read line by line: this
 * runs on every analysis, and a 34,000-line manifest should not be copied whole for it.
 */
function isScenarioFile(document: vscode.TextDocument): boolean {
  const path = document.uri.path.toLowerCase();
  if (path.endsWith(SCENARIO_FILE_SUFFIX) || path.endsWith(SCENARIO_FILE_SUFFIX.replace(/yaml$/, 'yml'))) return true;
  for (let line = 0; line < Math.min(document.lineCount, SCENARIO_SNIFF_LINES); line++) {
    if (SCENARIO_KIND_LINE.test(document.lineAt(line).text)) return true;
  }
  return false;
}

/**
 * Publishes findings as diagnostics, debounced after edits; the analysis worker parses only the
 * YAML document an edit touched, and an answer about a version the user has since edited is
 * dropped (the newer version's analysis follows). Files that do not look like Kubernetes manifests are left to
 * the YAML language tooling.
 */
export class DiagnosticsController implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('kube-failure-sim');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after a document's findings were published (CodeLens and the status bar follow). */
  readonly onDidAnalyse = this.emitter.event;

  constructor(private readonly config: Config, private readonly index: WorkspaceIndex, private readonly log: vscode.LogOutputChannel) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.config.analyzeOn === 'type' && event.contentChanges.length > 0) this.schedule(event.document, this.config.debounceMs);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (this.config.analyzeOn === 'save') this.schedule(document, 0);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
      index.onDidChange(() => this.refreshAll()),
    );
    this.refreshAll();
  }

  private refreshAll(): void {
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (document.languageId !== 'yaml') return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    // The timer reads the document when it fires, so a newer edit always wins.
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.analyse(document);
    }, delayMs));
  }

  /** What a scenario file's run refuses before it simulates, as simulate --scenario reports it, at the field it is about. */
  private async runProblems(document: vscode.TextDocument, { scenario, locate }: ReadScenarioFile): Promise<ScenarioProblem[]> {
    if (!scenario) return [];
    const inputs = await readScenarioInputs(document.uri, scenario);
    if ('problem' in inputs) return [];
    try {
      const { choices } = scenarioRun(scenario, vscode.workspace.asRelativePath(document.uri), inputs.cluster);
      const problem = await this.index.scenarioProblem(document.uri, choices, inputs.files);
      return problem ? [{ message: problem.message.endsWith('.') ? problem.message : `${problem.message}.`, range: locate(scenarioFieldOf(scenario, problem as Pick<InputError, 'choice' | 'value' | 'item'>)) }] : [];
    } catch {
      // The run says it then (a worker stopped, an object the API server would reject).
      return [];
    }
  }

  private async analyse(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    if (this.config.enabled && isScenarioFile(document)) {
      // A scenario file's problems at their lines as you type, as simulate --scenario reports them (the JSON schema needs a YAML extension);
      // once it reads, its settings and the files it names, all at once (a run stops at the first).
      const version = document.version;
      const read = readScenarioFile(document.getText());
      const problems = read.scenario ? [...scenarioSettingsProblems(read.scenario, read.locate, vscode.workspace.asRelativePath(document.uri)), ...await missingFiles(document.uri, read)] : read.problems;
      // Once the rest reads, what the run itself refuses (a target that names no workload of the files), at its line.
      if (read.scenario && problems.length === 0) problems.push(...await this.runProblems(document, read));
      if (document.isClosed || document.version !== version) return;
      this.collection.set(document.uri, problems.map((p) => {
        const diagnostic = new vscode.Diagnostic(toRange(p.range), p.message, vscode.DiagnosticSeverity.Error);
        diagnostic.source = DIAGNOSTIC_SOURCE;
        return diagnostic;
      }));
      this.emitter.fire(document.uri);
      return;
    }
    if (!this.config.enabled || !this.index.isManifest(document)) {
      this.collection.delete(document.uri);
      this.emitter.fire(document.uri);
      return;
    }
    try {
      const version = document.version;
      const analysis = await this.index.analyse(document);
      if (!analysis || document.isClosed || document.version !== version) return;
      const rules = this.config.rules;
      this.collection.set(document.uri, analysis.findings.flatMap((finding) => {
        const level = ruleLevel(finding.ruleId, finding.severity, rules);
        return level === 'off' ? [] : [toDiagnostic(finding, SEVERITY[level])];
      }));
      this.emitter.fire(document.uri);
    } catch (error) {
      this.log.error(`Analysis of ${document.uri.toString(true)} failed`, error);
    }
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
    this.emitter.dispose();
  }
}

const SEVERITY: Record<Exclude<RuleLevel, 'off'>, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export const DIAGNOSTIC_SOURCE = 'kube-failure-sim';

export function toRange(range: Range): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

function toDiagnostic(finding: Finding, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(finding.range), finding.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  const docs = ruleInfo(finding.ruleId)?.docs;
  diagnostic.code = docs ? { value: finding.ruleId, target: vscode.Uri.parse(docs) } : finding.ruleId;
  if (finding.unnecessary) diagnostic.tags = [vscode.DiagnosticTag.Unnecessary];
  if (finding.related?.length) {
    diagnostic.relatedInformation = finding.related.map((r) => new vscode.DiagnosticRelatedInformation(
      new vscode.Location(vscode.Uri.parse(r.location.uri), toRange(r.location.range)), r.message));
  }
  return diagnostic;
}

/** The manifests and cluster file a scenario names that do not exist, at the lines that name them. */
async function missingFiles(uri: vscode.Uri, { scenario, locate }: ReadScenarioFile): Promise<ScenarioProblem[]> {
  const named: [string, (string | number)[]][] = (scenario?.manifests ?? []).map((m, i) => [m, ['spec', 'manifests', i]]);
  if (scenario?.cluster !== undefined) named.push([scenario.cluster, ['spec', 'cluster']]);
  const kinds = await Promise.all(named.map(([path]) => EDITOR_FS.kind(vscode.Uri.joinPath(uri, '..', path).toString())));
  return named.filter((_, i) => kinds[i] === undefined).map(([path, at]) => ({ message: `no such file or folder: ${path} (relative to this file)`, range: locate(at) }));
}
