/** The browser entry (dist/web/extension.js, vscode.dev): workers are Web Workers running dist/web/worker.js. */
import * as vscode from 'vscode';
import { activateWith } from './activate';
import type { WorkerRole, WorkerTransport } from './worker/workerClient';

/** The Web Worker API as far as used here (the project's TypeScript libs have no DOM). */
interface BrowserWorker {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error', listener: (event: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}
declare const Worker: new (url: string, options?: { name?: string }) => BrowserWorker;

export function activate(context: vscode.ExtensionContext): void {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'worker.js').toString(true);
  activateWith(context, (role) => webWorker(script, role));
}

export function deactivate(): void {}

function webWorker(url: string, role: WorkerRole): WorkerTransport {
  const worker = new Worker(url, { name: `kube-failure-sim ${role}` });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onExit: (listener) => worker.addEventListener('error', (event) => listener(new Error(event.message ?? 'worker error'))),
    terminate: () => worker.terminate(),
  };
}
