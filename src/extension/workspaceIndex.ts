import * as vscode from 'vscode';
import { decodeUtf8 } from '../manifest/decode';
import { MAX_INDEXED_BYTES, MAX_INDEXED_FILES } from '../manifest/limits';
import type { Finding, Fix } from '../analysis/finding';
import type { Hover } from '../analysis/hover';
import type { WorkloadLens } from '../analysis/lenses';
import type { ObjectRef } from '../manifest/objects';
import type { NotUtf8 } from '../manifest/readManifest';
import type { Position, Range } from '../manifest/range';
import type { SimulationChoices } from '../workspace/simulationChoices';
import { API_VERSION_KEY, KIND_KEY, looksLikeManifest } from '../manifest/looksLikeManifest';
import { isKustomizationFile } from '../workspace/kustomization';
import { workspaceSettings } from './choices';
import type { Config } from './config';
import type { ListedFile, ModelSummary, Params, Result, ScenarioProblemJson } from './worker/protocol';
import { SimulationRunner, type SimulationRun } from './worker/simulationRunner';
import { DocumentMirror, isWithdrawn, WorkerConnection, type CancelSignal, type SpawnWorker } from './worker/workerClient';

/**
 * The host's door to the workers. The editor's documents and the YAML files of each workspace
 * folder (read once, kept current by a file watcher, replaced by the editor's text while a file
 * is open) are mirrored as text; the analysis worker holds one Workspace per folder, so objects
 * in other files of the folder (a KubeletConfiguration, a PVC) count for a document's analysis
 * and simulation, as they do within one CLI run. Nothing here parses or simulates: the host only
 * posts text, and a request superseded by a newer version of its document resolves undefined.
 */
export class WorkspaceIndex implements vscode.Disposable {
  private readonly mirror = new DocumentMirror();
  /** Per folder key: the folder's files have been read. */
  private readonly folders = new Map<string, Promise<void>>();
  /** The last context revision each folder's analysis reported. */
  private readonly contextRevisions = new Map<string, number>();
  private readonly manifests = new Map<string, { version: number; value: boolean }>();
  /** Per open document whose text has U+FFFD: whether its bytes on disk are UTF-8, checked for this version. */
  private readonly byteChecks = new Map<string, { version: number; notUtf8?: NotUtf8 }>();
  private readonly analysis: WorkerConnection;
  private readonly simulations: SimulationRunner;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when files other than the open ones changed what a document's analysis may see. */
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(config: Config, private readonly log: vscode.LogOutputChannel, spawn: SpawnWorker) {
    this.mirror.setSettings(workspaceSettings(config.values));
    this.analysis = new WorkerConnection(() => spawn('analysis'), this.mirror);
    const simulationWorker = new WorkerConnection(() => spawn('simulation'), this.mirror);
    this.simulations = new SimulationRunner(simulationWorker);
    this.subscriptions.push(
      config.onDidChange(() => {
        this.mirror.setSettings(workspaceSettings(config.values));
        this.changed();
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.manifests.delete(document.uri.toString());
        this.byteChecks.delete(document.uri.toString());
        void this.reload(document.uri);
      }),
      { dispose: () => { this.analysis.terminate(); simulationWorker.terminate(); } },
    );
  }

  /** Whether an open document looks like a Kubernetes manifest, once per version; read line by line, as the answer is usually near the top. */
  isManifest(document: vscode.TextDocument): boolean {
    const key = document.uri.toString();
    const known = this.manifests.get(key);
    if (known?.version === document.version) return known.value;
    let apiVersion = false;
    let kind = false;
    for (let line = 0; line < document.lineCount && !(apiVersion && kind); line++) {
      const text = document.lineAt(line).text;
      apiVersion ||= API_VERSION_KEY.test(text);
      kind ||= KIND_KEY.test(text);
    }
    // A kustomization needs neither: its patches decide how other files are read.
    const value = (apiVersion && kind) || isKustomizationFile(document.uri.path);
    this.manifests.set(key, { version: document.version, value });
    return value;
  }

  /**
   * The findings of an open document's current text; undefined when a newer version superseded
   * the request. An edit that changes what other documents depend on (a cluster configuration
   * file, a Service) tells the listeners, so the other open documents' findings are published again.
   */
  async analyse(document: vscode.TextDocument, token?: CancelSignal): Promise<{ findings: Finding[] } | undefined> {
    const result = await this.ask(document, 'analyse', {}, token);
    if (result) {
      const folder = this.folderOf(document.uri);
      const before = this.contextRevisions.get(folder);
      this.contextRevisions.set(folder, result.contextRevision);
      if (before !== undefined && before !== result.contextRevision) this.emitter.fire();
    }
    return result;
  }

  hover(document: vscode.TextDocument, position: Position, token?: CancelSignal): Promise<Hover | undefined> {
    return this.ask(document, 'hover', { position }, token);
  }

  lenses(document: vscode.TextDocument, token?: CancelSignal): Promise<WorkloadLens[] | undefined> {
    return this.ask(document, 'lenses', {}, token);
  }

  fixes(document: vscode.TextDocument, range: Range | undefined, preferredOnly: boolean, token?: CancelSignal): Promise<{ finding: Finding; fix: Fix }[] | undefined> {
    return this.ask(document, 'fixes', { range, preferredOnly }, token);
  }

  /** The workloads and Node objects of a document, for the guided picks. */
  summary(document: vscode.TextDocument): Promise<ModelSummary | undefined> {
    return this.ask(document, 'summary', {});
  }

  /** Where an object is written in a document (its metadata.name). */
  locate(document: vscode.TextDocument, object: ObjectRef): Promise<Range | undefined> {
    return this.ask(document, 'locate', { object });
  }

  /** The other files of the folder that a run of the document reads: what a scenario saved from it must list. */
  contextFiles(document: vscode.TextDocument): Promise<{ uri: string; workloads: number }[] | undefined> {
    return this.ask(document, 'contextFiles', {});
  }

  /** What stops a scenario file's run before it simulates (a target that names no workload), or null; its files as the run reads them. */
  scenarioProblem(scenario: vscode.Uri, choices: SimulationChoices, files: ListedFile[]): Promise<ScenarioProblemJson | null> {
    return this.analysis.request('scenarioProblem', { folder: this.folderOf(scenario), choices, files });
  }

  /** What the settings say that the workspace cannot use, as messages (the same for every folder). */
  async settingsProblems(): Promise<string[]> {
    // Nothing set, nothing wrong: a folder with no manifest open does not start the analysis worker for this.
    const { version, profile, overrides } = this.mirror.settings;
    if (!version && !profile && overrides.length === 0) return [];
    return this.analysis.request('settingsProblems', {});
  }

  /**
   * Runs a simulation of the document's folder in the simulation worker, after the folder's files
   * have been read, or of `files` alone (a scenario file's run); a run with the same key (one
   * timeline) supersedes the one before.
   */
  async simulate(document: vscode.TextDocument, key: string, choices: SimulationChoices, inputs: string[], files?: ListedFile[], delayMs?: number): Promise<SimulationRun> {
    const folder = this.folderOf(document.uri);
    await this.folders.get(folder);
    this.sync(document);
    return this.simulations.run(key, { folder, choices, inputs, files, delayMs });
  }

  private async ask<T extends 'analyse' | 'hover' | 'lenses' | 'fixes' | 'summary' | 'locate' | 'contextFiles'>(
    document: vscode.TextDocument, type: T, extra: Omit<Params<T>, 'folder' | 'uri' | 'version'>, token?: CancelSignal,
  ): Promise<Result<T> | undefined> {
    const address = this.sync(document);
    try {
      return await this.analysis.request(type, { ...address, ...extra } as Params<T>, token);
    } catch (error) {
      if (isWithdrawn(error)) return undefined;
      throw error;
    }
  }

  /** Puts the document's current text in the mirror (read only when its version is new) and returns its address. */
  private sync(document: vscode.TextDocument): { folder: string; uri: string; version: number } {
    const folder = this.folderOf(document.uri);
    const uri = document.uri.toString();
    if (!this.mirror.holds(folder, uri, document.version)) {
      const text = document.getText();
      const check = this.byteChecks.get(uri);
      if (check?.version !== document.version && text.includes('\uFFFD') && !document.isDirty && document.uri.scheme === 'file') void this.checkBytes(document, folder, text);
      this.mirror.set(folder, uri, text, document.version, check?.version === document.version ? check.notUtf8 : undefined);
    }
    return { folder, uri, version: document.version };
  }

  /**
   * VS Code shows bytes that are not UTF-8 as U+FFFD: the file on disk decides, as the CLI reads its
   * bytes. A file that is not UTF-8 is sent again as such (one KFS090, nothing analysed) and its
   * analysis runs anew; an edited one is what the editor will save, UTF-8.
   */
  private async checkBytes(document: vscode.TextDocument, folder: string, text: string): Promise<void> {
    const uri = document.uri.toString();
    const { version } = document;
    this.byteChecks.set(uri, { version });
    try {
      const decoded = decodeUtf8(await vscode.workspace.fs.readFile(document.uri));
      if (decoded.invalidAt === undefined || document.version !== version || document.isDirty) return;
      const notUtf8 = { offset: text.indexOf('\uFFFD'), byte: decoded.invalidByte!, byteOffset: decoded.invalidByteOffset! };
      this.byteChecks.set(uri, { version, notUtf8 });
      this.mirror.set(folder, uri, text, version, notUtf8);
      this.changed(folder);
    } catch (error) {
      this.log.warn(`Reading ${document.uri.toString(true)} to check its bytes failed`, error);
    }
  }

  /** The folder key of a URI ('' outside any folder); a folder's files are read on first use. */
  private folderOf(uri: vscode.Uri): string {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const key = folder?.uri.toString() ?? '';
    if (!this.folders.has(key)) this.folders.set(key, folder ? this.indexFolder(folder, key) : Promise.resolve());
    return key;
  }

  private async indexFolder(folder: vscode.WorkspaceFolder, key: string): Promise<void> {
    const pattern = new vscode.RelativePattern(folder, '**/*.{yaml,yml}');
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => void this.reload(uri)),
      watcher.onDidChange((uri) => void this.reload(uri)),
      watcher.onDidDelete((uri) => {
        this.mirror.remove(key, uri.toString());
        this.changed(key);
      }),
    );
    try {
      const uris = await vscode.workspace.findFiles(pattern, '**/{node_modules,.git}/**', MAX_INDEXED_FILES);
      for (const uri of uris.sort((a, b) => (a.path < b.path ? -1 : 1))) await this.readInto(key, uri);
      this.changed(key);
    } catch (error) {
      this.log.warn(`Reading the YAML files of ${folder.name} failed`, error);
    }
  }

  /** A file changed on disk or was closed: the disk is what counts unless the editor has it open. */
  private async reload(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key && !d.isClosed)) return;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const folderKey = folder?.uri.toString() ?? '';
    if (!this.folders.has(folderKey)) return;
    if (!folder) {
      this.mirror.remove(folderKey, key);
      return;
    }
    await this.readInto(folderKey, uri);
    this.changed(folderKey);
  }

  /**
   * Files of a folder (or the settings, for every folder) changed: the listeners analyse the open
   * documents again. The revision those analyses report is new because of this very change, so it
   * is taken as it comes, not announced as another.
   */
  private changed(folder?: string): void {
    if (folder === undefined) this.contextRevisions.clear();
    else this.contextRevisions.delete(folder);
    this.emitter.fire();
  }

  private async readInto(folder: string, uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_INDEXED_BYTES) return;
      // A file that is not UTF-8 is no manifest kubectl would apply: none of its objects count.
      const { text, invalidAt } = decodeUtf8(await vscode.workspace.fs.readFile(uri));
      if (invalidAt === undefined && (looksLikeManifest(text) || isKustomizationFile(uri.path))) this.mirror.set(folder, key, text);
      else this.mirror.remove(folder, key);
    } catch {
      this.mirror.remove(folder, key);
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.emitter.dispose();
  }
}
