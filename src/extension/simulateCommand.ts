import * as vscode from 'vscode';
import { FAILURE_DESCRIPTIONS } from '../report/failures';
import { traceReport } from '../report/jsonReport';
import { FAILURE_KINDS, type FailureKind } from '../sim/scenario';
import { ScenarioError, simulate } from '../sim/simulate';
import { InputError } from '../workspace/inputError';
import { isSimulateArguments, relativeName, simulationChoices, type SimulationPicks } from './choices';
import { TimelinePanel } from './timelinePanel';
import type { WorkspaceIndex } from './workspaceIndex';

/** "Simulate Node Failure": the workloads of the active manifest (or the given one), the failure and target the user picks. */
export function registerSimulateCommand(context: vscode.ExtensionContext, index: WorkspaceIndex, log: vscode.LogOutputChannel): void {
  const panel = new TimelinePanel(context.extensionUri);
  context.subscriptions.push(panel, vscode.commands.registerCommand('kubeFailureSim.simulate', async (given?: unknown) => {
    // From a CodeLens, a hover link or the status bar: the document and the workload are given, the failure is the default one.
    const args = isSimulateArguments(given) ? given : {};
    const document = args.uri ? await openDocument(args.uri) : vscode.window.activeTextEditor?.document;
    if (!document) {
      void vscode.window.showInformationMessage('Open a Kubernetes manifest to simulate a node failure.');
      return;
    }
    const workloads = index.analyse(document).read.model.workloads;
    if (workloads.length === 0) {
      void vscode.window.showWarningMessage('This file has no Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod to simulate.');
      return;
    }
    const failure = args.target ? { label: DEFAULT_FAILURE } : await vscode.window.showQuickPick(
      FAILURE_KINDS.map((kind) => ({ label: kind, detail: `The node is ${FAILURE_DESCRIPTIONS[kind]}` })),
      { title: 'What happens to the node?' },
    );
    if (!failure) return;
    const target = args.target ?? (workloads.length === 1 ? `${workloads[0].kind}/${workloads[0].name}` : await vscode.window.showQuickPick(
      workloads.map((w) => ({ label: `${w.kind}/${w.name}`, description: w.namespace })),
      { title: 'Fail the node that runs which workload?' },
    ).then((pick) => pick?.label));
    if (!target) return;
    const picks: SimulationPicks = { failure: failure.label, target, document: document.uri.toString() };
    // Re-runs read the folder again, so the panel follows the edits made since.
    const run = async () => {
      try {
        const scenario = await index.scenario(document, simulationChoices(picks));
        const name = relativeName(vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString(), document.uri.toString());
        const report = traceReport(scenario, [name], simulate(scenario));
        panel.show({ type: 'showTrace', title: `${failure.label} of ${report.summary.failedNodes.join(', ')}: ${name}`, report }, () => void run());
      } catch (error) {
        if (error instanceof ScenarioError || error instanceof InputError) {
          void vscode.window.showErrorMessage(error.message);
          return;
        }
        log.error('Simulation failed', error);
        void vscode.window.showErrorMessage('The simulation failed; the log has the details.');
      }
    };
    await run();
  }));
}

const DEFAULT_FAILURE: FailureKind = 'power-off';

async function openDocument(uri: string): Promise<vscode.TextDocument | undefined> {
  try {
    return await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  } catch {
    return undefined;
  }
}
