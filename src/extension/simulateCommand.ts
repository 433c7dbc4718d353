import * as vscode from 'vscode';
import { readManifestText } from '../analysis/analyseText';
import { buildScenario, defaultSimulationOptions, ScenarioInputError } from '../analysis/buildScenario';
import { TimingError } from '../cluster/timing';
import type { ManifestModel } from '../manifest/model';
import { FAILURES, type FailureKind } from '../sim/scenario';
import { ScenarioError, simulate } from '../sim/simulate';
import type { Config } from './config';
import { TimelinePanel } from './timelinePanel';
import { timelineData } from './timelineData';

/** "Simulate Node Failure": the workloads of the active manifest, the failure and target the user picks. */
export function registerSimulateCommand(context: vscode.ExtensionContext, config: Config, log: vscode.LogOutputChannel): void {
  const panel = new TimelinePanel(context.extensionUri);
  context.subscriptions.push(panel, vscode.commands.registerCommand('kubeFailureSim.simulate', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Open a Kubernetes manifest to simulate a node failure.');
      return;
    }
    const document = editor.document;
    const model = readManifestText(document.getText()).model;
    if (model.workloads.length === 0) {
      void vscode.window.showWarningMessage('This file has no Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod to simulate.');
      return;
    }
    const failure = await vscode.window.showQuickPick(
      Object.entries(FAILURES).map(([kind, detail]) => ({ label: kind as FailureKind, detail: `The node is ${detail}` })),
      { title: 'What happens to the node?' },
    );
    if (!failure) return;
    const target = model.workloads.length === 1 ? model.workloads[0] : await vscode.window.showQuickPick(
      model.workloads.map((w) => ({ label: `${w.kind}/${w.name}`, description: w.namespace, workload: w })),
      { title: 'Fail the node that runs which workload?' },
    ).then((pick) => pick?.workload);
    if (!target) return;
    const run = (manifest: ManifestModel) => {
      try {
        const scenario = buildScenario(manifest, {
          ...defaultSimulationOptions(),
          failure: failure.label, targets: [`${target.kind}/${target.name}`], version: config.kubernetesVersion, profile: config.profile,
        });
        // Re-runs read the file again, so the panel follows the edits made since.
        panel.show(timelineData(scenario, simulate(scenario), vscode.workspace.asRelativePath(document.uri)), () => run(readManifestText(document.getText()).model));
      } catch (error) {
        if (error instanceof ScenarioError || error instanceof ScenarioInputError || error instanceof TimingError) {
          void vscode.window.showErrorMessage(error.message);
          return;
        }
        log.error('Simulation failed', error);
        void vscode.window.showErrorMessage('The simulation failed; the log has the details.');
      }
    };
    run(model);
  }));
}
