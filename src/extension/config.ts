import * as vscode from 'vscode';
import type { SettingValues } from './choices';

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

  /** The settings the workspace takes (version and preset). */
  get values(): SettingValues {
    return { kubernetesVersion: this.section.get<string>('kubernetesVersion', ''), profile: this.section.get<string>('profile', 'none') };
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
