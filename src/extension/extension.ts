import * as vscode from 'vscode';
import { Config } from './config';
import { DiagnosticsController } from './diagnostics';
import { registerSimulateCommand } from './simulateCommand';

/** Builds the objects that own every disposable; nothing heavy runs here. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Kubernetes Failure Simulator', { log: true });
  const config = new Config();
  context.subscriptions.push(log, config, new DiagnosticsController(config, log));
  registerSimulateCommand(context, config, log);
}

export function deactivate(): void {}
