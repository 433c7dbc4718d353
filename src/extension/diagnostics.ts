import * as vscode from 'vscode';
import type { Finding } from '../analysis/finding';
import type { Config } from './config';
import { looksLikeManifest, type WorkspaceIndex } from './workspaceIndex';

/**
 * Publishes findings as diagnostics, debounced after edits; the workspace index parses only the
 * YAML document an edit touched. Files that do not look like Kubernetes manifests are left to
 * the YAML language tooling.
 */
export class DiagnosticsController implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('kube-failure-sim');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly config: Config, private readonly index: WorkspaceIndex, private readonly log: vscode.LogOutputChannel) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document, this.config.debounceMs)),
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
      this.analyse(document);
    }, delayMs));
  }

  private analyse(document: vscode.TextDocument): void {
    if (document.isClosed) return;
    const text = document.getText();
    if (!this.config.enabled || !looksLikeManifest(text)) {
      this.collection.delete(document.uri);
      return;
    }
    try {
      this.collection.set(document.uri, this.index.analyse(document).findings.map(toDiagnostic));
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
  }
}

const SEVERITY: Record<Finding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

function toDiagnostic(finding: Finding): vscode.Diagnostic {
  const { start, end } = finding.range;
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(start.line, start.character, end.line, end.character),
    finding.message,
    SEVERITY[finding.severity],
  );
  diagnostic.source = 'kube-failure-sim';
  diagnostic.code = finding.ruleId;
  return diagnostic;
}
