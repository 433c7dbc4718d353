/**
 * The messages between the extension host and its workers (one for analysis, one for
 * simulations), checked on receipt like the webview's. Everything here is plain data that
 * survives structured cloning; no `vscode`, no Node built-ins, so both worker bundles (Node
 * worker_threads and a browser Web Worker) share it.
 */
import type { Finding, Fix } from '../../analysis/finding';
import type { Hover } from '../../analysis/hover';
import type { WorkloadLens } from '../../analysis/lenses';
import type { ObjectRef } from '../../manifest/objects';
import type { Position, Range } from '../../manifest/range';
import type { TraceReport } from '../../report/contract';
import type { FolderVersion } from '../../workspace/guidedChoices';
import type { SimulationChoices } from '../../workspace/simulationChoices';
import type { NotUtf8 } from '../../manifest/readManifest';
import type { WorkspaceSettings } from '../../workspace/workspace';

/** Documents are addressed by their workspace folder's URI ('' outside any folder) and their own URI. */
interface DocumentAddress {
  folder: string;
  uri: string;
  /** The editor's version the request is about; -1 for a file read from disk. An older version than the worker holds is answered `superseded`. */
  version: number;
}

/** Messages without an answer: the worker's copy of settings and documents, and cancellation. */
export type WorkerNotification =
  | { type: 'setSettings'; settings: WorkspaceSettings }
  /** `notUtf8`: the file's bytes on disk are not UTF-8 (the editor decoded them its way). */
  | ({ type: 'setDocument'; text: string; notUtf8?: NotUtf8 } & DocumentAddress)
  | { type: 'removeDocument'; folder: string; uri: string }
  | { type: 'cancel'; id: number };

/** A file a scenario lists: the editor's text when it is open, else its bytes (checked to be UTF-8 by the workspace). */
export interface ListedFile {
  uri: string;
  text: string | Uint8Array;
}

/** What the guided picks need: the document's workloads, and the Node objects of its folder (none: the default cluster). */
export interface ModelSummary {
  workloads: ObjectRef[];
  /** How long each workload's pods tolerate the unreachable taint (seconds; null: forever), and the API server's default. */
  unreachableTolerations: { seconds: (number | null)[]; defaultSeconds: number };
  nodes: { name: string; labels: Record<string, string> }[];
  /** The version the folder's files say and where; absent: none. */
  folderVersion?: FolderVersion;
}

/** Each request with the type of its answer. */
export interface RequestTypes {
  /** `contextRevision`: moves when what other documents' findings depend on changed (Workspace.contextRevision). */
  analyse: { params: DocumentAddress; result: { findings: Finding[]; contextRevision: number } };
  hover: { params: DocumentAddress & { position: Position }; result: Hover | undefined };
  lenses: { params: DocumentAddress; result: WorkloadLens[] };
  fixes: { params: DocumentAddress & { range?: Range; preferredOnly: boolean }; result: { finding: Finding; fix: Fix }[] };
  summary: { params: DocumentAddress; result: ModelSummary };
  /** Where an object is written in the document (its metadata.name, else the whole object). */
  locate: { params: DocumentAddress & { object: ObjectRef }; result: Range | undefined };
  settingsProblems: { params: Record<string, never>; result: string[] };
  /** The other documents of the folder that a run of this one reads (Workspace.contextDocuments), with their workload counts. */
  contextFiles: { params: DocumentAddress; result: { uri: string; workloads: number }[] };
  /**
   * A run of the folder's documents: the trace report the timeline shows. `inputs` name the
   * documents as the user sees them; `delayMs` (tests only) keeps the worker busy first, as a
   * very large simulation would. With `files` (a scenario file's run), those files alone are
   * read, as `simulate --scenario` reads them, not the folder's.
   */
  simulate: { params: { folder: string; choices: SimulationChoices; inputs: string[]; files?: ListedFile[]; delayMs?: number }; result: TraceReport };
  /** A scenario file's run built but not simulated: what stops it (an InputError's fields), for a diagnostic at its line; null: nothing. */
  scenarioProblem: { params: { folder: string; choices: SimulationChoices; files: ListedFile[] }; result: ScenarioProblemJson | null };
}

/** An InputError as it crosses to the host: what it is about (scenarioFieldOf) and its message. */
export interface ScenarioProblemJson {
  choice: string;
  value?: string;
  item?: string;
  message: string;
}

export type RequestType = keyof RequestTypes;
export type Params<T extends RequestType> = RequestTypes[T]['params'];
export type Result<T extends RequestType> = RequestTypes[T]['result'];

export type WorkerRequest = { [T in RequestType]: { id: number; type: T } & Params<T> }[RequestType];
export type WorkerMessage = WorkerNotification | WorkerRequest;

/**
 * Why a request has no result: a newer version of its document arrived first (`superseded`),
 * the host withdrew it (`cancelled`), the input does not allow it (`input`: the message is for
 * the user), or a bug (`internal`).
 */
export type FailureKind = 'superseded' | 'cancelled' | 'input' | 'internal';

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; kind: FailureKind; message: string };

const REQUEST_TYPES: ReadonlySet<string> = new Set<RequestType>(['analyse', 'hover', 'lenses', 'fixes', 'summary', 'locate', 'settingsProblems', 'contextFiles', 'simulate', 'scenarioProblem']);
const FAILURE_KINDS: ReadonlySet<string> = new Set<FailureKind>(['superseded', 'cancelled', 'input', 'internal']);

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPosition = (value: unknown) => isObject(value) && Number.isInteger(value.line) && Number.isInteger(value.character);
const isRange = (value: unknown) => isObject(value) && isPosition(value.start) && isPosition(value.end);
const isListedFile = (f: unknown) => isObject(f) && typeof f.uri === 'string' && (typeof f.text === 'string' || f.text instanceof Uint8Array);
const isNotUtf8 = (n: unknown) => isObject(n) && [n.offset, n.byte, n.byteOffset].every((x) => Number.isInteger(x) && (x as number) >= 0);
const isAddress = (m: Fields) => typeof m.folder === 'string' && typeof m.uri === 'string' && Number.isInteger(m.version);

/** Checks what the worker received; the host is trusted, but a malformed message must not take the worker down. */
export function isWorkerMessage(value: unknown): value is WorkerMessage {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  const m = value;
  switch (m.type) {
    case 'setSettings': return isObject(m.settings) && Array.isArray(m.settings.overrides);
    case 'setDocument': return isAddress(m) && typeof m.text === 'string' && (m.notUtf8 === undefined || isNotUtf8(m.notUtf8));
    case 'removeDocument': return typeof m.folder === 'string' && typeof m.uri === 'string';
    case 'cancel': return Number.isInteger(m.id);
  }
  if (!REQUEST_TYPES.has(m.type as string) || !Number.isInteger(m.id)) return false;
  switch (m.type as RequestType) {
    case 'hover': return isAddress(m) && isPosition(m.position);
    case 'fixes': return isAddress(m) && (m.range === undefined || isRange(m.range)) && typeof m.preferredOnly === 'boolean';
    case 'locate': return isAddress(m) && isObject(m.object) && typeof m.object.kind === 'string' && typeof m.object.name === 'string';
    case 'settingsProblems': return true;
    case 'simulate':
      return typeof m.folder === 'string' && isObject(m.choices) && Array.isArray(m.inputs) && (m.delayMs === undefined || typeof m.delayMs === 'number')
        && (m.files === undefined || (Array.isArray(m.files) && m.files.every(isListedFile)));
    case 'scenarioProblem':
      return typeof m.folder === 'string' && isObject(m.choices) && Array.isArray(m.files) && m.files.every(isListedFile);
    default: return isAddress(m);
  }
}

/** Checks what the host received from a worker. */
export function isWorkerResponse(value: unknown): value is WorkerResponse {
  if (!isObject(value) || !Number.isInteger(value.id)) return false;
  if (value.ok === true) return 'value' in value;
  return value.ok === false && typeof value.kind === 'string' && FAILURE_KINDS.has(value.kind as string) && typeof value.message === 'string';
}
