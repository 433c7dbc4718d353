/** The desktop entry (dist/extension.js): workers are worker_threads running dist/worker.js. */
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { activateWith } from './activate';
import { nodeWorker } from './worker/nodeTransport';

export function activate(context: vscode.ExtensionContext): void {
  activateWith(context, (role) => nodeWorker(path.join(context.extensionPath, 'dist', 'worker.js'), role));
}

export function deactivate(): void {}
