import * as vscode from 'vscode';
import { Config } from './config';
import { DiagnosticsController } from './diagnostics';
import { registerSimulateCommand } from './simulateCommand';
import { WorkspaceIndex } from './workspaceIndex';

/** Builds the objects that own every disposable; nothing heavy runs here. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Kubernetes Failure Simulator', { log: true });
  const config = new Config();
  const index = new WorkspaceIndex(config, log);
  context.subscriptions.push(log, config, index, new DiagnosticsController(config, index, log));
  registerSimulateCommand(context, index, log);
}

export function deactivate(): void {}
