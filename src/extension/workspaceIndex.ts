import * as vscode from 'vscode';
import type { Finding, Fix } from '../analysis/finding';
import type { Hover } from '../analysis/hover';
import type { WorkloadLens } from '../analysis/lenses';
import type { Position, Range } from '../manifest/range';
import { Workspace, type DocumentAnalysis } from '../workspace/workspace';
import type { SimulationChoices } from '../workspace/simulationChoices';
import type { Scenario } from '../sim/scenario';
import { relativeName, workspaceSettings } from './choices';
import type { Config } from './config';

/** Files of a folder read at most, and the largest read (larger ones are opened ones only). */
const MAX_INDEXED_FILES = 2000;
const MAX_INDEXED_BYTES = 2 * 1024 * 1024;
const LOOKS_LIKE_MANIFEST = /^\s*apiVersion\s*:/m;
const HAS_KIND = /^\s*kind\s*:/m;

export function looksLikeManifest(text: string): boolean {
  return LOOKS_LIKE_MANIFEST.test(text) && HAS_KIND.test(text);
}

/**
 * One Workspace per workspace folder (and one for files outside any folder): the YAML files of
 * the folder are read once, kept current by a file watcher, and replaced by the editor's text
 * while a file is open. Objects in other files of the folder (a KubeletConfiguration, a PVC)
 * count for a document's analysis and simulation, as they do within one CLI run.
 */
export class WorkspaceIndex implements vscode.Disposable {
  private readonly workspaces = new Map<string, { workspace: Workspace; indexed: Promise<void> }>();
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when files other than the open ones changed what a document's analysis may see. */
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly config: Config, private readonly log: vscode.LogOutputChannel) {
    this.subscriptions.push(
      config.onDidChange(() => {
        for (const { workspace } of this.workspaces.values()) workspace.setSettings(workspaceSettings(config.values));
        this.emitter.fire();
      }),
      vscode.workspace.onDidCloseTextDocument((document) => void this.reload(document.uri)),
    );
  }

  /** The analysis of an open document's current text. */
  analyse(document: vscode.TextDocument): DocumentAnalysis {
    return this.sync(document).analyse(document.uri.toString());
  }

  hover(document: vscode.TextDocument, position: Position): Hover | undefined {
    return this.sync(document).hover(document.uri.toString(), position);
  }

  lenses(document: vscode.TextDocument): WorkloadLens[] {
    return this.sync(document).lenses(document.uri.toString());
  }

  fixes(document: vscode.TextDocument, range: Range | undefined, preferredOnly: boolean): { finding: Finding; fix: Fix }[] {
    return this.sync(document).fixes(document.uri.toString(), range, preferredOnly);
  }

  /** What the settings say that the workspace cannot use, as messages (the same for every folder). */
  settingsProblems(): string[] {
    const [first] = this.workspaces.values();
    return (first?.workspace ?? new Workspace(workspaceSettings(this.config.values))).settingsProblems().map((p) => p.message);
  }

  /**
   * The workspace of the document's folder, holding the document's current text. An edit that
   * changes what other documents depend on (a cluster configuration file, a Service) tells the
   * listeners, so the other open documents' findings are published again.
   */
  private sync(document: vscode.TextDocument): Workspace {
    const workspace = this.workspaceOf(document.uri);
    const before = workspace.contextRevision;
    workspace.setDocument(document.uri.toString(), document.getText(), document.version);
    if (workspace.contextRevision !== before) this.emitter.fire();
    return workspace;
  }

  /** A scenario for the document's folder, after the folder's files have been read. */
  async scenario(document: vscode.TextDocument, choices: SimulationChoices): Promise<Scenario> {
    const entry = this.entryOf(document.uri);
    await entry.indexed;
    entry.workspace.setDocument(document.uri.toString(), document.getText(), document.version);
    return entry.workspace.scenario(choices);
  }

  private workspaceOf(uri: vscode.Uri): Workspace {
    return this.entryOf(uri).workspace;
  }

  private entryOf(uri: vscode.Uri): { workspace: Workspace; indexed: Promise<void> } {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const key = folder?.uri.toString() ?? '';
    let entry = this.workspaces.get(key);
    if (!entry) {
      const workspace = new Workspace(workspaceSettings(this.config.values), (u) => relativeName(folder?.uri.toString(), u));
      entry = { workspace, indexed: folder ? this.indexFolder(folder, workspace) : Promise.resolve() };
      this.workspaces.set(key, entry);
    }
    return entry;
  }

  private async indexFolder(folder: vscode.WorkspaceFolder, workspace: Workspace): Promise<void> {
    const pattern = new vscode.RelativePattern(folder, '**/*.{yaml,yml}');
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => void this.reload(uri)),
      watcher.onDidChange((uri) => void this.reload(uri)),
      watcher.onDidDelete((uri) => {
        workspace.removeDocument(uri.toString());
        this.emitter.fire();
      }),
    );
    try {
      const uris = await vscode.workspace.findFiles(pattern, '**/{node_modules,.git}/**', MAX_INDEXED_FILES);
      for (const uri of uris.sort((a, b) => (a.path < b.path ? -1 : 1))) await this.readInto(workspace, uri);
      this.emitter.fire();
    } catch (error) {
      this.log.warn(`Reading the YAML files of ${folder.name} failed`, error);
    }
  }

  /** A file changed on disk or was closed: the disk is what counts unless the editor has it open. */
  private async reload(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key && !d.isClosed)) return;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const entry = this.workspaces.get(folder?.uri.toString() ?? '');
    if (!entry) return;
    if (!folder) {
      entry.workspace.removeDocument(key);
      return;
    }
    await this.readInto(entry.workspace, uri);
    this.emitter.fire();
  }

  private async readInto(workspace: Workspace, uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_INDEXED_BYTES) return;
      const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      if (looksLikeManifest(text)) workspace.setDocument(key, text);
      else workspace.removeDocument(key);
    } catch {
      workspace.removeDocument(key);
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.emitter.dispose();
  }
}
