/**
 * What runs inside a worker: one Workspace per workspace folder, kept current by the host's
 * setDocument messages, answering typed requests. Both entries (nodeWorker.ts, webWorker.ts)
 * only connect it to their message port; tests drive it in-process.
 *
 * Messages are taken in order, but a request waits until every message already delivered has
 * been read: a request about a document version older than one that arrived meanwhile is
 * answered `superseded` without work, and a text replaced before it was parsed is never parsed.
 */
import { refuserOf } from '../../analysis/refuser';
import { traceReport } from '../../report/jsonReport';
import { ScenarioError, simulate } from '../../sim/simulate';
import { InputError } from '../../workspace/inputError';
import { Workspace, type WorkspaceSettings } from '../../workspace/workspace';
import { relativeName } from '../choices';
import { isWorkerMessage, type FailureKind, type ListedFile, type RequestType, type Result, type WorkerMessage, type WorkerRequest, type WorkerResponse } from './protocol';

type Queued = Exclude<WorkerMessage, { type: 'cancel' }>;
type Notification = Exclude<Queued, WorkerRequest>;
const NOTIFICATIONS: ReadonlySet<string> = new Set<Notification['type']>(['setSettings', 'setDocument', 'removeDocument']);
const isNotification = (message: Queued): message is Notification => NOTIFICATIONS.has(message.type);

type Handlers = { [T in RequestType]: (request: Extract<WorkerRequest, { type: T }>) => Result<T> };

/** Runs `next` after the messages already queued for this thread have been delivered. */
const afterPendingMessages: (next: () => void) => void =
  typeof setImmediate === 'function' ? (next) => setImmediate(next) : (next) => setTimeout(next, 0);

export class WorkerService {
  private settings: WorkspaceSettings = { overrides: [] };
  private readonly workspaces = new Map<string, Workspace>();
  /** The newest version received per document (folder + uri), read on receipt, before any work. */
  private readonly newest = new Map<string, number>();
  private readonly cancelled = new Set<number>();
  private readonly inbox: Queued[] = [];
  private scheduled = false;

  constructor(private readonly post: (response: WorkerResponse) => void) {}

  /** Called for every message the port delivers. */
  receive(message: unknown): void {
    if (!isWorkerMessage(message)) {
      const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
      if (Number.isInteger(id)) this.post({ id: id as number, ok: false, kind: 'internal', message: 'Malformed request.' });
      return;
    }
    if (message.type === 'cancel') {
      this.cancelled.add(message.id);
      return;
    }
    if (message.type === 'setDocument' && message.version >= 0) this.newest.set(documentKey(message.folder, message.uri), message.version);
    this.inbox.push(message);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    afterPendingMessages(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  /** Applies the queued notifications and answers at most one request, then lets new messages in. */
  private drain(): void {
    while (this.inbox.length > 0) {
      const message = this.inbox.shift()!;
      if (isNotification(message)) {
        this.apply(message);
        continue;
      }
      this.answer(message);
      break;
    }
    if (this.inbox.length > 0) this.schedule();
  }

  private apply(message: Notification): void {
    switch (message.type) {
      case 'setSettings':
        this.settings = message.settings;
        for (const workspace of this.workspaces.values()) workspace.setSettings(message.settings);
        break;
      case 'setDocument':
        // Replaced before it was read: the newer text follows in the inbox.
        if (this.isStale(message.folder, message.uri, message.version)) break;
        this.workspace(message.folder).setDocument(message.uri, message.text, message.version, message.notUtf8);
        break;
      case 'removeDocument':
        this.workspaces.get(message.folder)?.removeDocument(message.uri);
        this.newest.delete(documentKey(message.folder, message.uri));
        break;
    }
  }

  private answer(request: WorkerRequest): void {
    const { id } = request;
    if (this.cancelled.delete(id)) {
      this.post({ id, ok: false, kind: 'cancelled', message: 'Cancelled.' });
      return;
    }
    if ('uri' in request && this.isStale(request.folder, request.uri, request.version)) {
      this.post({ id, ok: false, kind: 'superseded', message: `A newer version of ${request.uri} arrived.` });
      return;
    }
    try {
      const value = (this.handlers[request.type] as (r: WorkerRequest) => unknown)(request);
      this.post({ id, ok: true, value });
    } catch (error) {
      const kind: FailureKind = error instanceof InputError || error instanceof ScenarioError ? 'input' : 'internal';
      const message = error instanceof Error ? (kind === 'internal' ? error.stack ?? error.message : error.message) : String(error);
      this.post({ id, ok: false, kind, message });
    }
  }

  private isStale(folder: string, uri: string, version: number): boolean {
    const newest = this.newest.get(documentKey(folder, uri));
    return version >= 0 && newest !== undefined && newest > version;
  }

  private workspace(folder: string): Workspace {
    let workspace = this.workspaces.get(folder);
    if (!workspace) {
      workspace = new Workspace(this.settings, (uri) => relativeName(folder || undefined, uri));
      this.workspaces.set(folder, workspace);
    }
    return workspace;
  }

  /** The folder's workspace, which must hold the document (the host sends it before asking). */
  private holding(folder: string, uri: string): Workspace {
    const workspace = this.workspaces.get(folder);
    if (!workspace?.has(uri)) throw new Error(`The worker has no copy of ${uri}.`);
    return workspace;
  }

  private readonly handlers: Handlers = {
    analyse: ({ folder, uri }) => {
      const workspace = this.holding(folder, uri);
      return { findings: workspace.analyse(uri).findings, contextRevision: workspace.contextRevision };
    },
    hover: ({ folder, uri, position }) => this.holding(folder, uri).hover(uri, position),
    lenses: ({ folder, uri }) => this.holding(folder, uri).lenses(uri),
    fixes: ({ folder, uri, range, preferredOnly }) => this.holding(folder, uri).fixes(uri, range, preferredOnly),
    summary: ({ folder, uri }) => {
      const workspace = this.holding(folder, uri);
      const folderVersion = workspace.folderVersion();
      return {
        workloads: workspace.read(uri).model.workloads.map((w) => ({ kind: w.kind, name: w.name, namespace: w.namespace })),
        unreachableTolerations: workspace.unreachableTolerations(uri),
        // The nodes a run of the document simulates on: the folder's, as its scenario takes them.
        nodes: workspace.model().nodes.map((n) => ({ name: n.name, labels: { ...n.labels } })),
        ...(folderVersion ? { folderVersion } : {}),
      };
    },
    locate: ({ folder, uri, object: { kind, name, namespace } }) => {
      const found = this.holding(folder, uri).read(uri).objects.find((o) => o.kind === kind && o.name === name && o.namespace === namespace);
      return found ? found.sourceMap.valueRange('metadata.name') ?? found.range : undefined;
    },
    contextFiles: ({ folder, uri }) => {
      const workspace = this.holding(folder, uri);
      return workspace.contextDocuments([uri]).map((other) => ({ uri: other, workloads: workspace.read(other).model.workloads.length }));
    },
    settingsProblems: () => {
      const [first] = this.workspaces.values();
      return (first ?? new Workspace(this.settings)).settingsProblems().map((p) => p.message);
    },
    simulate: ({ folder, choices, inputs, files, delayMs }) => {
      if (delayMs) busyFor(delayMs);
      const workspace = files ? listedWorkspace(folder, files) : this.workspace(folder);
      const rejection = rejectionOf(workspace, files ? files.map((f) => f.uri) : choices.documents ?? workspace.uris(), folder);
      // A scenario file's run refuses what the API server would not store, as simulate does; a
      // guided run is a question about the text being edited: it runs, and its header says so.
      if (rejection && files) throw new InputError('workloads', undefined, `${rejection.text}. ${rejection.refused}; fix it first (nothing simulated).`);
      const scenario = workspace.scenario(choices);
      const report = traceReport(scenario, inputs, simulate(scenario));
      if (!rejection) return report;
      const stored = rejection.byApiServer ? ', which kubectl apply would not store' : '';
      return { ...report, scenario: { ...report.scenario, notes: [...report.scenario.notes, `${rejection.text}. ${rejection.refused}: this run simulates the text as written${stored}.`] } };
    },
    scenarioProblem: ({ folder, choices, files }) => {
      try {
        listedWorkspace(folder, files).scenario(choices);
        return null;
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        return { choice: error.choice, ...(error.value !== undefined ? { value: error.value } : {}), ...(error.item !== undefined ? { item: error.item } : {}), message: error.message };
      }
    },
  };
}

/** A scenario file's run reads the files it lists and nothing else of the folder. */
function listedWorkspace(folder: string, files: readonly ListedFile[]): Workspace {
  const workspace = new Workspace({ overrides: [] }, (uri) => relativeName(folder || undefined, uri));
  for (const file of files) workspace.setDocument(file.uri, file.text);
  return workspace;
}

/**
 * The first object or setting of these documents that would be refused, as file:line: message (and
 * how many more), and who refuses it as a sentence; undefined: none.
 */
function rejectionOf(workspace: Workspace, uris: readonly string[], folder: string): { text: string; refused: string; byApiServer: boolean } | undefined {
  const rejections = workspace.rejections(uris);
  if (rejections.length === 0) return undefined;
  const [{ uri, finding }] = rejections;
  const more = rejections.length > 1 ? ` (and ${rejections.length - 1} more)` : '';
  const refuser = refuserOf(finding);
  const refused = typeof refuser === 'object' ? `${refuser.component} would not start with it`
    : refuser === 'kubelet' ? 'The kubelet would refuse it' : refuser === 'kubeadm' ? 'kubeadm would refuse it' : refuser === 'kubectl' ? 'kubectl would refuse it' : refuser === 'none' ? 'It cannot be used' : 'The API server would reject it';
  // The callers add a sentence after it: without the message's own full stop.
  return { text: `${relativeName(folder || undefined, uri)}:${finding.range.start.line + 1}: ${finding.message.replace(/\.$/, '')}${more}`, refused, byApiServer: refuser === 'api-server' };
}

function documentKey(folder: string, uri: string): string {
  return `${folder}\n${uri}`;
}

/** Keeps the thread busy, as a simulation of a very large cluster does (tests only). */
function busyFor(ms: number): void {
  const end = Date.now() + Math.min(ms, 10 * 60_000);
  while (Date.now() < end) { /* busy */ }
}
