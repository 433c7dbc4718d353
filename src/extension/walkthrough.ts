import * as vscode from 'vscode';
import { FIX_APPLIED_COMMAND } from './codeActions';
import { manifestEditor } from './simulateCommand';
import type { WorkspaceIndex } from './workspaceIndex';

/** Shipped in the .vsix (media/**): a single-replica StatefulSet with a ReadWriteOnce volume. */
const EXAMPLE = ['media', 'walkthrough', 'postgres-statefulset.yaml'];
/** An untitled document: edits and quick fixes never touch the installed extension's copy. */
const EXAMPLE_URI = vscode.Uri.from({ scheme: 'untitled', path: 'postgres-example.yaml' });

/**
 * The commands behind the walkthrough (package.json contributes.walkthroughs): open the example,
 * show the quick fixes of the manifest in view, and the quick fixes' follow-up that completes
 * the "Apply a fix" step (context key kubeFailureSim.hasAppliedFix).
 */
export function registerWalkthroughCommands(context: vscode.ExtensionContext, index: WorkspaceIndex, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('kubeFailureSim.openExample', () => openExample(context.extensionUri)),
    vscode.commands.registerCommand('kubeFailureSim.showFixes', async () => {
      const editor = manifestEditor(index) ?? await openExample(context.extensionUri);
      const findings = ((await index.analyse(editor.document))?.findings ?? []).filter((f) => (f.fixes?.length ?? 0) > 0);
      // The most serious finding first: errors, then warnings, in document order.
      const finding = findings.find((f) => f.severity === 'error') ?? findings.find((f) => f.severity === 'warning') ?? findings[0];
      if (!finding) {
        void vscode.window.showInformationMessage('No finding in this manifest has a quick fix.');
        return;
      }
      const { start, end } = finding.range;
      const selection = new vscode.Selection(start.line, start.character, end.line, end.character);
      const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, selection, preserveFocus: false });
      shown.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      await vscode.commands.executeCommand('editor.action.quickFix');
    }),
    vscode.commands.registerCommand(FIX_APPLIED_COMMAND, (ruleId?: unknown, title?: unknown) => {
      log.info(`Quick fix applied: ${String(ruleId)}: ${String(title)}`);
      // The walkthrough's "Apply a fix" step completes on this key. (An onCommand event would not
      // fire: a command with arguments reaches the workbench under a delegating command's id.)
      void vscode.commands.executeCommand('setContext', 'kubeFailureSim.hasAppliedFix', true);
    }),
  );
}

/** Opens the example beside the walkthrough (or in the active column when an editor has the focus), once. */
async function openExample(extensionUri: vscode.Uri): Promise<vscode.TextEditor> {
  let document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === EXAMPLE_URI.toString());
  if (!document) {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...EXAMPLE));
    document = await vscode.workspace.openTextDocument(EXAMPLE_URI);
    if (document.getText().length === 0) {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(EXAMPLE_URI, new vscode.Position(0, 0), new TextDecoder('utf-8').decode(bytes));
      await vscode.workspace.applyEdit(edit);
    }
  }
  const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Active : vscode.ViewColumn.Beside;
  return vscode.window.showTextDocument(document, { viewColumn: column, preview: false });
}
