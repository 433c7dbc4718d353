import * as vscode from 'vscode';
import type { SettingValues } from './choices';

const SECTION = 'kubeFailureSim';

/** When documents are analysed: on every edit (debounced) or when saved. */
export type AnalyzeOn = 'type' | 'save';

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

  /** The settings the workspace takes: version, preset, timing overrides, rules turned off. */
  get values(): SettingValues {
    return {
      kubernetesVersion: this.section.get<string>('kubernetesVersion', ''),
      profile: this.section.get<string>('profile', 'none'),
      timing: objectSetting(this.section.get('timing')),
      rules: this.rules,
    };
  }

  /** kubeFailureSim.rules: rule id → off, error, warning, information or hint. */
  get rules(): Record<string, unknown> {
    return objectSetting(this.section.get('rules'));
  }

  get debounceMs(): number {
    const value = this.section.get<number>('debounceMs', 300);
    return Number.isFinite(value) ? Math.min(Math.max(value, 0), 5000) : 300;
  }

  get analyzeOn(): AnalyzeOn {
    return this.section.get<string>('analyzeOn', 'type') === 'save' ? 'save' : 'type';
  }

  /** Whether hovers, lenses and code actions may analyse the text as it is: with analysis on save, not unsaved edits (an untitled file has only those). */
  analysesNow(document: vscode.TextDocument): boolean {
    return this.enabled && (this.analyzeOn === 'type' || !document.isDirty || document.isUntitled);
  }

  get codeLensEnabled(): boolean {
    return this.section.get<boolean>('codeLens.enabled', true);
  }

  /**
   * Tests only, not in package.json: the simulation worker stays busy this long before it
   * simulates, as for a very large cluster (the end-to-end test hovers meanwhile).
   */
  get testingSimulationDelayMs(): number {
    const value = this.section.get<number>('testing.simulationDelayMs', 0);
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 0), 120_000) : 0;
  }

  get statusBarEnabled(): boolean {
    return this.section.get<boolean>('statusBar.enabled', true);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** A settings.json value that should be an object; anything else counts as empty (the settings editor flags it). */
function objectSetting(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
}
