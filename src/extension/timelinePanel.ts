import * as vscode from 'vscode';
import { isWebviewMessage, type HostMessage } from '../../webview/protocol';

/**
 * The webview that shows a simulation's timeline: a strict Content Security Policy with a
 * nonce, only the extension's own script and style, and data sent as a message.
 */
export class TimelinePanel implements vscode.Disposable {
  private static readonly viewType = 'kubeFailureSim.timeline';
  private panel: vscode.WebviewPanel | undefined;
  private message: HostMessage | undefined;
  private rerun: (() => void) | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(message: HostMessage, rerun: () => void): void {
    this.message = message;
    this.rerun = rerun;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(TimelinePanel.viewType, 'Node failure timeline', vscode.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')],
      });
      this.panel.webview.html = this.html(this.panel.webview);
      this.panel.webview.onDidReceiveMessage((message: unknown) => {
        if (!isWebviewMessage(message)) return;
        if (message.type === 'ready') this.post();
        if (message.type === 'rerun') this.rerun?.();
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    this.post();
  }

  private post(): void {
    if (this.panel && this.message) void this.panel.webview.postMessage(this.message);
  }

  private html(webview: vscode.Webview): string {
    const nonce = createNonce();
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'main.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'timeline.css'));
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Node failure timeline</title>
</head>
<body>
<div id="root"><p>Simulating…</p></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

function createNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
