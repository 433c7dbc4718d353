/**
 * The host's side of a worker: the documents the workers should see (DocumentMirror: the host
 * keeps only the text, never a parse), and a connection per worker that sends the documents a
 * request depends on, then the request, and matches answers to requests by id. No `vscode`
 * here: the transport is injected (worker_threads on desktop, a Web Worker in the browser, an
 * in-process pair in tests).
 */
import type { NotUtf8 } from '../../manifest/readManifest';
import type { WorkspaceSettings } from '../../workspace/workspace';
import { isWorkerResponse, type FailureKind, type Params, type RequestType, type Result, type WorkerMessage } from './protocol';

/** A started worker, as the connection sees it. */
export interface WorkerTransport {
  post(message: WorkerMessage): void;
  /** Every message from the worker. */
  onMessage(listener: (message: unknown) => void): void;
  /** The worker failed or exited on its own. */
  onExit(listener: (error: unknown) => void): void;
  terminate(): void;
}

export type WorkerRole = 'analysis' | 'simulation';
export type SpawnWorker = (role: WorkerRole) => WorkerTransport;

/** The part of a vscode.CancellationToken a request honours. */
export interface CancelSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** A request without a result; `kind` says why (protocol.ts). */
export class WorkerFailure extends Error {
  constructor(readonly kind: FailureKind, message: string) {
    super(message);
  }
}

/** True for the failures that only mean "a newer question replaced this one". */
export function isWithdrawn(error: unknown): boolean {
  return error instanceof WorkerFailure && (error.kind === 'superseded' || error.kind === 'cancelled');
}

interface MirroredDocument {
  text: string;
  version: number;
  revision: number;
  /** The file's bytes on disk are not UTF-8 (the editor decoded them its way). */
  notUtf8?: NotUtf8;
}

/** The documents of each folder and the settings, as the workers should see them; each change gets a new revision. */
export class DocumentMirror {
  private revisions = 0;
  private readonly folders = new Map<string, Map<string, MirroredDocument>>();
  settings: WorkspaceSettings = { overrides: [] };
  settingsRevision = 0;

  setSettings(settings: WorkspaceSettings): void {
    this.settings = settings;
    this.settingsRevision = ++this.revisions;
  }

  /** Whether the mirror already holds this editor version (then the caller need not read the text). */
  holds(folder: string, uri: string, version: number): boolean {
    const existing = this.folders.get(folder)?.get(uri);
    return version >= 0 && existing?.version === version;
  }

  set(folder: string, uri: string, text: string, version = -1, notUtf8?: NotUtf8): void {
    let documents = this.folders.get(folder);
    if (!documents) this.folders.set(folder, (documents = new Map()));
    const existing = documents.get(uri);
    if (existing && existing.notUtf8 === notUtf8 && (version >= 0 ? existing.version === version : existing.text === text)) return;
    documents.set(uri, { text, version, revision: ++this.revisions, ...(notUtf8 ? { notUtf8 } : {}) });
  }

  remove(folder: string, uri: string): void {
    this.folders.get(folder)?.delete(uri);
  }

  documents(folder: string): ReadonlyMap<string, MirroredDocument> {
    return this.folders.get(folder) ?? new Map();
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: WorkerFailure): void;
}

/**
 * One worker, started on first use and again after it was terminated. Before each request the
 * worker gets the settings and the documents of the request's folder that changed since it last
 * saw them, so it always answers about what the host holds.
 */
export class WorkerConnection {
  private transport?: WorkerTransport;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** What the running worker holds: revision per folder + uri, and of the settings. */
  private synced = new Map<string, number>();
  private syncedSettings = -1;

  constructor(private readonly spawn: () => WorkerTransport, private readonly mirror: DocumentMirror) {}

  get running(): boolean {
    return this.transport !== undefined;
  }

  request<T extends RequestType>(type: T, params: Params<T>, signal?: CancelSignal): Promise<Result<T>> {
    if (signal?.isCancellationRequested) return Promise.reject(new WorkerFailure('cancelled', 'Cancelled.'));
    const transport = this.started();
    this.sync(transport, 'folder' in params ? (params as { folder: string }).folder : undefined);
    const id = this.nextId++;
    return new Promise<Result<T>>((resolve, reject) => {
      const subscription = signal?.onCancellationRequested(() => {
        if (!this.pending.delete(id)) return;
        if (this.transport === transport) transport.post({ type: 'cancel', id });
        reject(new WorkerFailure('cancelled', 'Cancelled.'));
      });
      const done = () => subscription?.dispose();
      this.pending.set(id, {
        resolve: (value) => { done(); resolve(value as Result<T>); },
        reject: (error) => { done(); reject(error); },
      });
      transport.post({ id, type, ...params } as WorkerMessage);
    });
  }

  /** Stops the worker at once; its open requests fail with `kind`. The next request starts a new one. */
  terminate(kind: FailureKind = 'cancelled', message = 'The worker was stopped.'): void {
    const transport = this.transport;
    if (!transport) return;
    this.transport = undefined;
    this.synced = new Map();
    this.syncedSettings = -1;
    transport.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new WorkerFailure(kind, message));
  }

  private started(): WorkerTransport {
    if (this.transport) return this.transport;
    const transport = this.spawn();
    this.transport = transport;
    transport.onMessage((message) => {
      if (this.transport !== transport || !isWorkerResponse(message)) return;
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(new WorkerFailure(message.kind, message.message));
    });
    transport.onExit((error) => {
      if (this.transport === transport) this.terminate('internal', `The worker stopped: ${error instanceof Error ? error.message : String(error)}`);
    });
    return transport;
  }

  /** Sends the settings and what changed in the folder since this worker last saw them. */
  private sync(transport: WorkerTransport, folder: string | undefined): void {
    if (this.syncedSettings !== this.mirror.settingsRevision) {
      transport.post({ type: 'setSettings', settings: this.mirror.settings });
      this.syncedSettings = this.mirror.settingsRevision;
    }
    if (folder === undefined) return;
    const documents = this.mirror.documents(folder);
    const prefix = `${folder}\n`;
    for (const key of [...this.synced.keys()]) {
      if (!key.startsWith(prefix)) continue;
      const uri = key.slice(prefix.length);
      if (documents.has(uri)) continue;
      transport.post({ type: 'removeDocument', folder, uri });
      this.synced.delete(key);
    }
    for (const [uri, document] of documents) {
      const key = prefix + uri;
      if (this.synced.get(key) === document.revision) continue;
      transport.post({ type: 'setDocument', folder, uri, text: document.text, version: document.version, ...(document.notUtf8 ? { notUtf8: document.notUtf8 } : {}) });
      this.synced.set(key, document.revision);
    }
  }
}

/**
 * Two ends of an in-process channel, delivering asynchronously like a port (the tests drive the
 * worker service through it). As a port does, it hands over together what one task posted: a
 * timer per message could put a millisecond between two of them, and the worker's
 * read-everything-delivered-first rule would then see them apart.
 */
export function inProcessTransport(serve: (post: (message: unknown) => void) => (message: unknown) => void): WorkerTransport {
  let listener: ((message: unknown) => void) | undefined;
  let closed = false;
  const toHost = (message: unknown) => setTimeout(() => { if (!closed) listener?.(structuredClone(message)); }, 0);
  const receive = serve(toHost);
  let queued: unknown[] = [];
  const deliver = () => {
    const batch = queued;
    queued = [];
    if (!closed) for (const message of batch) receive(message);
  };
  return {
    post: (message) => {
      if (queued.length === 0) setTimeout(deliver, 0);
      queued.push(structuredClone(message));
    },
    onMessage: (l) => { listener = l; },
    onExit: () => {},
    terminate: () => { closed = true; },
  };
}
