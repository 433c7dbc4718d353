import * as vscode from 'vscode';
import { FAILURE_DESCRIPTIONS } from '../report/failures';
import { traceReport } from '../report/jsonReport';
import { FAILURE_KINDS, isFailureKind } from '../sim/scenario';
import { ScenarioError, simulate } from '../sim/simulate';
import { InputError } from '../workspace/inputError';
import type { RunRef, WebviewMessage } from '../../webview/protocol';
import { relativeName, simulationChoices } from './choices';
import { TimelinePanels } from './timelinePanel';
import type { WorkspaceIndex } from './workspaceIndex';

/** "Simulate Node Failure": the workloads of the active manifest, the failure and target the user picks. */
export function registerSimulateCommand(context: vscode.ExtensionContext, index: WorkspaceIndex, log: vscode.LogOutputChannel): void {
  // Re-runs read the folder again, so the panel follows the edits made since.
  const run = async (ref: RunRef) => {
    try {
      if (!isFailureKind(ref.failure)) return;
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.document));
      const scenario = await index.scenario(document, simulationChoices({ failure: ref.failure, target: ref.target, document: ref.document }));
      const name = relativeName(vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString(), document.uri.toString());
      const report = traceReport(scenario, [name], simulate(scenario));
      panels.show({ type: 'showTrace', title: `${ref.failure} of ${report.summary.failedNodes.join(', ')}: ${name}`, report, run: ref });
    } catch (error) {
      if (error instanceof ScenarioError || error instanceof InputError) {
        void vscode.window.showErrorMessage(error.message);
        return;
      }
      log.error('Simulation failed', error);
      void vscode.window.showErrorMessage('The simulation failed; the log has the details.');
    }
  };
  const panels = new TimelinePanels(context.extensionUri, (ref) => void run(ref), (ref, message) => void revealObject(index, ref, message));
  context.subscriptions.push(panels, vscode.commands.registerCommand('kubeFailureSim.simulate', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Open a Kubernetes manifest to simulate a node failure.');
      return;
    }
    const document = editor.document;
    const workloads = index.analyse(document).read.model.workloads;
    if (workloads.length === 0) {
      void vscode.window.showWarningMessage('This file has no Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod to simulate.');
      return;
    }
    const failure = await vscode.window.showQuickPick(
      FAILURE_KINDS.map((kind) => ({ label: kind, detail: `The node is ${FAILURE_DESCRIPTIONS[kind]}` })),
      { title: 'What happens to the node?' },
    );
    if (!failure) return;
    const target = workloads.length === 1 ? `${workloads[0].kind}/${workloads[0].name}` : await vscode.window.showQuickPick(
      workloads.map((w) => ({ label: `${w.kind}/${w.name}`, description: w.namespace })),
      { title: 'Fail the node that runs which workload?' },
    ).then((pick) => pick?.label);
    if (!target) return;
    await run({ document: document.uri.toString(), failure: failure.label, target });
  }));
}

/** Shows the YAML of the workload the user clicked in the timeline (a pod: its workload's). */
async function revealObject(index: WorkspaceIndex, ref: RunRef | undefined, message: Extract<WebviewMessage, { type: 'reveal' }>): Promise<void> {
  const { kind, name, namespace } = message.object;
  const candidates = ref ? [vscode.Uri.parse(ref.document)] : [];
  for (const editor of vscode.window.visibleTextEditors) if (!candidates.some((u) => u.toString() === editor.document.uri.toString())) candidates.push(editor.document.uri);
  for (const uri of candidates) {
    const document = await vscode.workspace.openTextDocument(uri);
    const object = index.analyse(document).read.objects.find((o) => o.kind === kind && o.name === name && o.namespace === namespace);
    if (!object) continue;
    const range = object.sourceMap.valueRange('metadata.name') ?? object.range;
    const selection = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
    const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, selection, preserveFocus: false });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return;
  }
  void vscode.window.showInformationMessage(`${kind}/${name}${message.pod ? ` (pod ${message.pod})` : ''} is not in the open manifests.`);
}
