/**
 * The messages between the extension and the timeline webview: plain JSON with a `type`,
 * checked on receipt. The webview gets the trace itself (the JSON contract of `simulate`), packed
 * as the HTML report embeds it (src/report/packedTrace.ts).
 * Shared by both sides (no DOM and no vscode types here).
 */
import type { ObjectRef } from '../src/report/contract';
import { STATE_FIELDS, type PackedReport } from '../src/report/packedTrace';
import { KEY_KNOBS } from '../src/report/textReport';

/** The timeline panel's view type (package.json activates on onWebviewPanel:<this>, so a revived panel finds its serializer). */
export const TIMELINE_VIEW_TYPE = 'kubeFailureSim.timeline';
/** The meta element whose content numbers the panel's page (the extension sets it again when a page never says ready). */
export const PAGE_LOAD_META = 'kfs-page-load';

/** What the extension needs to run a panel's simulation again, also after a window reload. */
export interface RunRef {
  /** The manifest's URI (its folder is the workspace the run reads). */
  document: string;
  /** The manifests whose workloads are simulated; absent: `document` alone; empty: the whole folder. */
  documents?: string[];
  failure: string;
  /** node/NAME or Kind/name; empty: the node of the first workload's first pod. */
  targets: string[];
  recoverAfterMs?: number;
  interventions?: { kind: string; atMs: number; target?: string }[];
  durationMs?: number;
  /** "1.31"; absent or '': the folder's (settings, a kubeadm ClusterConfiguration, else the newest known). */
  kubernetesVersion?: string;
  /** A timing preset, or "none" for the version's defaults; absent: the settings'. */
  profile?: string;
  /** scheduler, worst or spread; absent: scheduler. */
  placement?: string;
  seed?: number;
  /** The scenario file the run came from, if any: Run Again reads it again (its choices are the file's). */
  scenario?: string;
}

/** A check's finding about a workload of the run: what would shorten its outage, with its quick fixes' titles. */
export interface FindingRef {
  /** Its place in the message's list (the extension maps it back to the file and range). */
  index: number;
  ruleId: string;
  severity: string;
  message: string;
  object: ObjectRef;
  fixes: string[];
  /** Where it is written: the manifest's URI and the range (0-based lines and characters). */
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** A trace to show; with `compare`, a second one drawn on the same time axis (before/after, two choices). */
export type HostMessage = {
  type: 'showTrace';
  title: string;
  report: PackedReport;
  run?: RunRef;
  /** `findings`: the checks of the compared run's text, when that run is the current text (before → after). */
  compare?: { title: string; report: PackedReport; findings?: FindingRef[] };
  findings?: FindingRef[];
};

/** A file the shown run read has changed since: the timeline says it is out of date (Run again simulates the edit). */
export type HostNotice = { type: 'inputChanged' };

export type WebviewMessage =
  /** `load`: the number of the page (PAGE_LOAD_META), so the extension can tell a page it replaced. */
  | { type: 'ready'; load?: number }
  | { type: 'rerun' }
  /** Ask the extension which run to compare this one with. */
  | { type: 'compare' }
  /** Show a finding in the editor, with its quick fixes. */
  | { type: 'showFinding'; index: number }
  /** Show the YAML of a workload (for a pod: its workload's, `pod` names the pod). */
  | { type: 'reveal'; object: ObjectRef; pod?: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isRef = (value: unknown): value is ObjectRef => isRecord(value) && isString(value.kind) && isString(value.name) && isString(value.namespace);
const isTime = (value: unknown) => value === null || isNumber(value);

const isIndex = (value: unknown, length: number): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
const isIndexOrNull = (value: unknown, length: number) => value === null || isIndex(value, length);

/**
 * A packed trace (packReport) whose every index points into its tables, and the parts of the report
 * the webview reads, checked field by field: the page reads it by index without unpacking it.
 */
export function isPackedTrace(value: unknown): value is PackedReport {
  if (!isRecord(value) || value.packed !== 1 || !isRecord(value.rest)) return false;
  const { strings, objects, lists, states, events } = value;
  if (!Array.isArray(strings) || !strings.every(isString) || !Array.isArray(objects) || objects.length % 3 !== 0 || !Array.isArray(lists)
    || !Array.isArray(states) || states.length % STATE_FIELDS !== 0 || !Array.isArray(events)) return false;
  const isStringIndex = (v: unknown) => isIndex(v, strings.length);
  if (!objects.every(isStringIndex) || !lists.every((list) => Array.isArray(list) && list.every(isStringIndex))) return false;
  const objectCount = objects.length / 3;
  // Each string and each object once, as packReport writes them: the page compares indices.
  const triples = new Set<string>();
  for (let i = 0; i < objects.length; i += 3) triples.add(`${objects[i]},${objects[i + 1]},${objects[i + 2]}`);
  if (new Set(strings).size !== strings.length || triples.size !== objectCount) return false;
  for (let i = 0; i < states.length; i += STATE_FIELDS) {
    if (!isIndex(states[i], objectCount) || !isNumber(states[i + 1]) || !isTime(states[i + 2]) || !isStringIndex(states[i + 3]) || !isIndexOrNull(states[i + 4], strings.length)
      || !(states[i + 5] === null || isNumber(states[i + 5])) || !isIndexOrNull(states[i + 6], strings.length) || !isIndexOrNull(states[i + 7], strings.length)
      || !isIndexOrNull(states[i + 8], lists.length)) return false;
  }
  const isDetailValue = (v: unknown) => isStringIndex(v) || (Array.isArray(v) && v.length === 1 && isPrintable(v[0], 0)) || typeof v === 'boolean' || v === null;
  for (const e of events) {
    if (!Array.isArray(e) || e.length < 5 || !isNumber(e[0]) || !isIndex(e[1], objectCount) || !isStringIndex(e[2]) || !isStringIndex(e[3]) || !(e[4] === 0 || isString(e[4]))) return false;
    if (e.length > 5 && !(isIndex(e[5], lists.length) && e.length === 6 + (lists[e[5]] as unknown[]).length)) return false;
    for (let k = 6; k < e.length; k++) if (!isDetailValue(e[k])) return false;
  }
  return isReportRest(value.rest);
}

/**
 * A detail value the page may write into text: JSON whose objects keep their own toString and
 * valueOf (an object with "toString": 0 and "valueOf": 0 cannot become text), a few levels deep.
 */
function isPrintable(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth > 8 || typeof value !== 'object') return false;
  if (!Array.isArray(value) && (Object.hasOwn(value, 'toString') || Object.hasOwn(value, 'valueOf'))) return false;
  return Object.values(value).every((item) => isPrintable(item, depth + 1));
}

const isFault = (f: unknown) => isRecord(f) && isStrings(f.failedNodes) && isStrings(f.targets) && isNumber(f.atMs) && isTime(f.recoverAfterMs);

/** The report without its events and states: what the header, the summary and the time axis read. */
function isReportRest(value: Record<string, unknown>): boolean {
  if (value.version !== 1 || !isRecord(value.scenario) || !isRecord(value.timing) || !isRecord(value.summary)) return false;
  const { summary, scenario, timing } = value;
  // The settings a header names, each with its value and where it came from.
  return KEY_KNOBS.every((name) => isRecord(timing[name]) && isString(timing[name].source) && ['number', 'boolean', 'string'].includes(typeof timing[name].value))
    && isString(scenario.failure) && isString(scenario.k8sVersion) && isNumber(scenario.seed) && isNumber(scenario.runs) && isTime(scenario.recoverAfterMs)
    && optional(scenario.placement, isString) && isStrings(scenario.notes) && (scenario.faults === undefined || (Array.isArray(scenario.faults) && scenario.faults.every(isFault)))
    && isStrings(scenario.failedNodes) && isNumber(scenario.durationMs)
    && (scenario.interventions === undefined || (Array.isArray(scenario.interventions) && scenario.interventions.every(isIntervention)))
    && isRecord(scenario.cluster) && isString(scenario.cluster.source) && Array.isArray(scenario.cluster.nodes) && scenario.cluster.nodes.every((n) => isRecord(n) && isString(n.name) && (n.zone === null || isString(n.zone)))
    && Array.isArray(summary.workloads) && summary.workloads.every((w) => isRecord(w) && isRef(w.object) && isString(w.outcome) && isString(w.reason)
      && isNumber(w.unavailableMs) && isNumber(w.degradedMs) && isNumber(w.blackholeMs) && isNumber(w.desiredReplicas) && isTime(w.replacementReadyMs));
}

const optional = <T>(value: unknown, check: (v: unknown) => v is T) => value === undefined || check(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
const isIntervention = (value: unknown) => isRecord(value) && isString(value.kind) && isNumber(value.atMs) && optional(value.target, isString);

export function isRunRef(value: unknown): value is RunRef {
  return isRecord(value) && isString(value.document) && optional(value.documents, isStrings) && isString(value.failure) && isStrings(value.targets)
    && optional(value.recoverAfterMs, isNumber) && optional(value.durationMs, isNumber) && optional(value.scenario, isString)
    && optional(value.kubernetesVersion, isString) && optional(value.profile, isString) && optional(value.placement, isString)
    && (value.seed === undefined || (Number.isInteger(value.seed) && (value.seed as number) >= 0))
    && (value.interventions === undefined || (Array.isArray(value.interventions) && value.interventions.every(isIntervention)));
}

export function isHostMessage(message: unknown): message is HostMessage {
  return isRecord(message) && message.type === 'showTrace' && isString(message.title) && isPackedTrace(message.report)
    && (message.run === undefined || isRunRef(message.run))
    && (message.compare === undefined || (isRecord(message.compare) && isString(message.compare.title) && isPackedTrace(message.compare.report) && isFindings(message.compare.findings)))
    && isFindings(message.findings);
}

export function isHostNotice(message: unknown): message is HostNotice {
  return isRecord(message) && message.type === 'inputChanged' && Object.keys(message).length === 1;
}

function isFindings(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.every(isFindingRef));
}

function isFindingRef(value: unknown): value is FindingRef {
  const isPosition = (p: unknown) => isRecord(p) && isNumber(p.line) && isNumber(p.character);
  return isRecord(value) && isNumber(value.index) && isString(value.ruleId) && isString(value.severity) && isString(value.message) && isRef(value.object)
    && isStrings(value.fixes) && isString(value.uri) && isRecord(value.range) && isPosition(value.range.start) && isPosition(value.range.end);
}

export function isWebviewMessage(message: unknown): message is WebviewMessage {
  if (!isRecord(message)) return false;
  switch (message.type) {
    case 'ready':
      return Object.keys(message).length === 1 || (Number.isSafeInteger(message.load) && Object.keys(message).length === 2);
    case 'rerun':
    case 'compare':
      return Object.keys(message).length === 1;
    case 'reveal':
      return isRef(message.object) && (message.pod === undefined || isString(message.pod));
    case 'showFinding':
      return Number.isInteger(message.index) && Object.keys(message).length === 2;
    default:
      return false;
  }
}
