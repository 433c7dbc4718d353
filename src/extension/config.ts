import * as vscode from 'vscode';

const SECTION = 'kubeFailureSim';

/** The only place that reads settings: typed getters and a change event. */
export class Config implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SECTION)) this.emitter.fire();
  });

  private get section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  get enabled(): boolean {
    return this.section.get<boolean>('enable', true);
  }

  /** Kubernetes version for the defaults; undefined: the newest the simulator knows. */
  get kubernetesVersion(): string | undefined {
    return this.section.get<string>('kubernetesVersion') || undefined;
  }

  /** Timing preset; undefined: the version's defaults. */
  get profile(): string | undefined {
    const value = this.section.get<string>('profile', 'none');
    return value === 'none' ? undefined : value;
  }

  get debounceMs(): number {
    const value = this.section.get<number>('debounceMs', 300);
    return Number.isFinite(value) ? Math.min(Math.max(value, 0), 5000) : 300;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
