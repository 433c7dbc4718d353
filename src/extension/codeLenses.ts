import * as vscode from 'vscode';
import type { SimulateArguments } from './choices';
import type { Config } from './config';
import type { WorkspaceIndex } from './workspaceIndex';

/** Above each workload: its simulated outage if its node fails; clicking opens the timeline of that failure. */
export class CodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly config: Config, private readonly index: WorkspaceIndex, private readonly log: vscode.LogOutputChannel) {}

  /** New findings or settings: lenses are asked again. */
  refresh(): void {
    this.emitter.fire();
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!this.config.analysesNow(document) || !this.config.codeLensEnabled || !this.index.isManifest(document)) return [];
    try {
      return (await this.index.lenses(document, token) ?? []).map((lens) => {
        const args: SimulateArguments = { uri: document.uri.toString(), target: lens.target };
        const position = new vscode.Position(lens.range.start.line, lens.range.start.character);
        return new vscode.CodeLens(new vscode.Range(position, position), {
          title: `${lens.title} · Simulate`,
          tooltip: `Power off the node that runs ${lens.target} and show the timeline`,
          command: 'kubeFailureSim.simulate',
          arguments: [args],
        });
      });
    } catch (error) {
      this.log.error(`CodeLens of ${document.uri.toString(true)} failed`, error);
      return [];
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
