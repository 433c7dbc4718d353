import * as vscode from 'vscode';
import { CodeActionProvider } from './codeActions';
import { CodeLensProvider } from './codeLenses';
import { Config } from './config';
import { DiagnosticsController } from './diagnostics';
import { HoverProvider } from './hoverProvider';
import { watchSettings } from './settingsWarnings';
import { registerSimulateCommand } from './simulateCommand';
import { StatusBar } from './statusBar';
import { registerWalkthroughCommands } from './walkthrough';
import type { SpawnWorker } from './worker/workerClient';
import { WorkspaceIndex } from './workspaceIndex';

const YAML: vscode.DocumentSelector = [{ language: 'yaml' }];

/**
 * Builds the objects that own every disposable; nothing heavy runs here, nor later on this
 * thread: analysis and simulation run in the workers `spawn` starts (desktop and web entries).
 */
export function activateWith(context: vscode.ExtensionContext, spawn: SpawnWorker): void {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Kubernetes Failure Simulator', { log: true });
  const config = new Config();
  const index = new WorkspaceIndex(config, log, spawn);
  const diagnostics = new DiagnosticsController(config, index, log);
  const lenses = new CodeLensProvider(config, index, log);
  context.subscriptions.push(
    log, config, index, diagnostics, lenses,
    diagnostics.onDidAnalyse(() => lenses.refresh()),
    config.onDidChange(() => lenses.refresh()),
    vscode.languages.registerHoverProvider(YAML, new HoverProvider(config, index, log)),
    vscode.languages.registerCodeActionsProvider(YAML, new CodeActionProvider(config, index, log), CodeActionProvider.metadata),
    vscode.languages.registerCodeLensProvider(YAML, lenses),
    new StatusBar(config, index, diagnostics.onDidAnalyse, log),
    watchSettings(config, index),
  );
  registerSimulateCommand(context, index, config, log);
  registerWalkthroughCommands(context, index, log);
  // The e2e reads this line from the extension host's log (test/e2e/extension.e2e.js).
  log.info(`activate() took ${(performance.now() - started).toFixed(1)} ms`);
}
