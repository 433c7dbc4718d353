import * as vscode from 'vscode';
import type { Config } from './config';
import { toRange } from './diagnostics';
import type { WorkspaceIndex } from './workspaceIndex';

/** Wraps the analysis's Markdown; it escapes every manifest string, and only our simulate command may run from a link. */
export class HoverProvider implements vscode.HoverProvider {
  constructor(private readonly config: Config, private readonly index: WorkspaceIndex, private readonly log: vscode.LogOutputChannel) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (!this.config.analysesNow(document) || !this.index.isManifest(document)) return undefined;
    try {
      const hover = await this.index.hover(document, { line: position.line, character: position.character }, token);
      if (!hover) return undefined;
      const markdown = new vscode.MarkdownString(hover.markdown);
      markdown.isTrusted = { enabledCommands: ['kubeFailureSim.simulate'] };
      markdown.supportHtml = false;
      return new vscode.Hover(markdown, toRange(hover.range));
    } catch (error) {
      this.log.error(`Hover in ${document.uri.toString(true)} failed`, error);
      return undefined;
    }
  }
}
