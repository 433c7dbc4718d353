import * as vscode from 'vscode';
import { worstLens, worstOutageText, type WorkloadLens } from '../analysis/lenses';
import type { SimulateArguments } from './choices';
import type { Config } from './config';
import type { WorkspaceIndex } from './workspaceIndex';

/** The worst predicted outage of the active manifest's workloads; clicking simulates that workload's node failure. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kubeFailureSim.worstOutage', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];
  /** Bumped per update: an answer for an older one is dropped. */
  private updates = 0;
  private activeManifest: boolean | undefined;

  constructor(private readonly config: Config, private readonly index: WorkspaceIndex, onDidAnalyse: vscode.Event<vscode.Uri>, private readonly log: vscode.LogOutputChannel) {
    this.item.name = 'Kubernetes Failure Simulator: worst outage';
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      onDidAnalyse((uri) => {
        if (uri.toString() === vscode.window.activeTextEditor?.document.uri.toString()) void this.update();
      }),
      config.onDidChange(() => void this.update()),
    ];
    void this.update();
  }

  private async update(): Promise<void> {
    const update = ++this.updates;
    const document = vscode.window.activeTextEditor?.document;
    const manifest = document?.languageId === 'yaml' && this.index.isManifest(document);
    // The editor title's Simulate button shows on manifests only, not on every YAML file.
    if (manifest !== this.activeManifest) {
      this.activeManifest = manifest;
      void vscode.commands.executeCommand('setContext', 'kubeFailureSim.activeManifest', manifest);
    }
    if (!document || !manifest || !this.config.enabled || !this.config.statusBarEnabled) {
      this.item.hide();
      return;
    }
    let lenses: WorkloadLens[] | undefined;
    try {
      lenses = await this.index.lenses(document);
      if (update !== this.updates || lenses === undefined) return;
    } catch (error) {
      if (update !== this.updates) return;
      this.log.error(`Status of ${document.uri.toString(true)} failed`, error);
      this.item.hide();
      return;
    }
    const worst = worstLens(lenses);
    if (!worst) {
      this.item.hide();
      return;
    }
    const { target } = worst;
    this.item.text = `$(pulse) ${worstOutageText(worst)}`;
    this.item.tooltip = `If a node fails, the worst outage in this file: ${target}. ${worst.title}.\nClick to simulate.`;
    const args: SimulateArguments = { uri: document.uri.toString(), target };
    this.item.command = { command: 'kubeFailureSim.simulate', title: 'Simulate', arguments: [args] };
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
