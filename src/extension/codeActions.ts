import * as vscode from 'vscode';
import { NODE_FAILURE_RULE } from '../analysis/analyseDocument';
import type { Fix } from '../analysis/finding';
import { refKey } from '../manifest/objects';
import { DIAGNOSTIC_SOURCE, toRange } from './diagnostics';
import type { SimulateArguments } from './choices';
import type { Config } from './config';
import type { WorkspaceIndex } from './workspaceIndex';

/** Not contributed (nothing to run by hand): the quick fixes' follow-up command. */
export const FIX_APPLIED_COMMAND = 'kubeFailureSim.fixApplied';

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('kubeFailureSim');


/**
 * Quick fixes whose titles carry the simulated effect of the edit, suppression for the line or
 * the document, "Show the timeline" for node-failure findings, and a fix-all that applies each
 * finding's preferred fix.
 */
export class CodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND] };

  constructor(private readonly config: Config, private readonly index: WorkspaceIndex, private readonly log: vscode.LogOutputChannel) {}

  async provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    if (!this.config.analysesNow(document) || !this.index.isManifest(document)) return [];
    try {
      if (context.only && !context.only.contains(vscode.CodeActionKind.QuickFix)) {
        return FIX_ALL_KIND.intersects(context.only) ? await this.fixAll(document, token) : [];
      }
      return await this.quickFixes(document, range, context, token);
    } catch (error) {
      this.log.error(`Quick fixes in ${document.uri.toString(true)} failed`, error);
      return [];
    }
  }

  private async quickFixes(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    const actions: vscode.CodeAction[] = [];
    const timelines = new Set<string>();
    const fixes = await this.index.fixes(document, plain(range), false, token) ?? [];
    // Each workload's target as its CodeLens gives it (Kind/namespace/name where namespaces share a name).
    const lenses = fixes.some(({ finding }) => finding.object && NODE_FAILURE_RULE.test(finding.ruleId)) ? await this.index.lenses(document, token) ?? [] : [];
    for (const { finding, fix } of fixes) {
      const diagnostics = ours.filter((d) => codeOf(d) === finding.ruleId && d.range.isEqual(toRange(finding.range)));
      actions.push(this.editAction(document, finding.ruleId, fix, diagnostics));
      const target = finding.object && lenses.find((lens) => refKey(lens.workload) === refKey(finding.object!))?.target;
      if (target && NODE_FAILURE_RULE.test(finding.ruleId) && !timelines.has(target)) {
        timelines.add(target);
        actions.push(timelineAction(document, target));
      }
    }
    return actions;
  }

  private editAction(document: vscode.TextDocument, ruleId: string, fix: Fix, diagnostics: vscode.Diagnostic[]): vscode.CodeAction {
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    action.edit = workspaceEdit(document, [fix]);
    // Runs after the edit: it logs which fix was taken and completes the walkthrough's "Apply a fix" step.
    action.command = { command: FIX_APPLIED_COMMAND, title: fix.title, arguments: [ruleId, fix.title] };
    action.diagnostics = diagnostics;
    action.isPreferred = fix.preferred === true;
    return action;
  }

  /** Every preferred fix at once; an edit that overlaps one already taken waits for the next run. */
  private async fixAll(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    const fixes = (await this.index.fixes(document, undefined, true, token) ?? []).map((f) => f.fix);
    const taken: Fix[] = [];
    const overlaps = (a: Fix, b: Fix) => a.edits.some((x) => b.edits.some((y) => toRange(x.range).intersection(toRange(y.range)) !== undefined));
    for (const fix of fixes) if (!taken.some((t) => overlaps(t, fix))) taken.push(fix);
    if (taken.length === 0) return [];
    const action = new vscode.CodeAction(`Fix all kube-failure-sim findings with a preferred fix (${taken.length})`, FIX_ALL_KIND);
    action.edit = workspaceEdit(document, taken);
    return [action];
  }
}

function timelineAction(document: vscode.TextDocument, target: string): vscode.CodeAction {
  const action = new vscode.CodeAction(`Show the timeline of ${target} when its node fails`, vscode.CodeActionKind.QuickFix);
  const args: SimulateArguments = { uri: document.uri.toString(), target };
  action.command = { command: 'kubeFailureSim.simulate', title: action.title, arguments: [args] };
  return action;
}

function workspaceEdit(document: vscode.TextDocument, fixes: Fix[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const fix of fixes) for (const e of fix.edits) edit.replace(document.uri, toRange(e.range), e.newText);
  return edit;
}

function codeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? String(code.value) : code === undefined ? undefined : String(code);
}

function plain(range: vscode.Range) {
  return { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } };
}
