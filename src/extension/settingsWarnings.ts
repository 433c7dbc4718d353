import * as vscode from 'vscode';
import { ALL_RULE_INFO } from '../analysis/rules';
import { invalidRuleSettings } from './choices';
import type { Config } from './config';
import type { WorkspaceIndex } from './workspaceIndex';

/** Settings the analysis cannot use (an unknown knob, version or rule id) are said once per change, with a way to them. */
export function watchSettings(config: Config, index: WorkspaceIndex): vscode.Disposable {
  let last = '';
  const check = async () => {
    let fromWorkspace: string[];
    try {
      fromWorkspace = await index.settingsProblems();
    } catch {
      return;
    }
    const problems = [...fromWorkspace, ...invalidRuleSettings(config.rules, ALL_RULE_INFO.map((r) => r.id)).map((p) => `kubeFailureSim.rules: ${p}.`)];
    const text = problems.join(' ');
    if (text === last) return;
    last = text;
    if (problems.length === 0) return;
    void vscode.window.showWarningMessage(`Kubernetes Failure Simulator settings: ${text} The rest of the settings apply.`, 'Open Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'kubeFailureSim');
    });
  };
  void check();
  return config.onDidChange(() => void check());
}
