/**
 * kustomize's patch files. A kustomization lists files it merges into the objects of its
 * resources (patches, patchesStrategicMerge, patchesJson6902): such a file is a fragment, not an
 * object to apply, so it is skipped as a template is (KFS091), naming the kustomization.
 */
import type { ReadManifest } from '../manifest/readManifest';
import { emptyModel } from '../manifest/model';
import { TEMPLATE_DETECTED } from '../manifest/problem';

/** A file kustomize reads as its kustomization when it has no kind of its own. */
const KUSTOMIZATION_FILE = /(^|\/)(kustomization\.ya?ml|Kustomization)$/;

/** Whether a path or URI names a kustomization file (which needs no apiVersion nor kind). */
export function isKustomizationFile(path: string): boolean {
  return KUSTOMIZATION_FILE.test(path);
}

export interface PatchReference {
  /** The kustomization's document (uri). */
  kustomization: string;
  /** The kustomization's field that lists the file. */
  field: 'patches' | 'patchesStrategicMerge' | 'patchesJson6902';
}

/** The files (uris) a kustomization document lists as patches; none for any other document. */
export function patchReferences(uri: string, read: ReadManifest): Map<string, PatchReference> {
  const references = new Map<string, PatchReference>();
  for (const { value } of read.parsed.documents) {
    if (!isKustomization(uri, value)) continue;
    const add = (field: PatchReference['field'], path: unknown) => {
      // patchesStrategicMerge also takes a patch written inline: YAML, not a path.
      if (typeof path !== 'string' || path === '' || /[\n{]/.test(path)) return;
      const target = resolve(uri, path);
      if (!references.has(target)) references.set(target, { kustomization: uri, field });
    };
    for (const field of ['patches', 'patchesJson6902'] as const) {
      for (const entry of list(value[field])) add(field, isMapping(entry) ? entry.path : undefined);
    }
    for (const entry of list(value.patchesStrategicMerge)) add('patchesStrategicMerge', entry);
  }
  return references;
}

/** The patch file as the workspace reads it: no objects, one KFS091 at its first line. */
export function skippedPatch(read: ReadManifest, reference: PatchReference, label: (uri: string) => string): ReadManifest {
  const { lines, documents } = read.parsed;
  const start = documents[0]?.range.start ?? { line: 0, character: 0 };
  const end = lines.position(lines.lineEnd(start.line));
  const kustomization = label(reference.kustomization);
  const directory = kustomization.includes('/') ? kustomization.slice(0, kustomization.lastIndexOf('/')) : '.';
  const message = `This file is a kustomize patch: ${kustomization} lists it in ${reference.field}, and kustomize merges it into an object of its resources, so it is not analysed on its own. Check or simulate what kustomize renders: kubectl kustomize ${directory} > rendered.yaml.`;
  return {
    parsed: { ...read.parsed, documents: [], problems: [{ ruleId: TEMPLATE_DETECTED, severity: 'info', range: { start, end }, message }] },
    objects: [],
    model: emptyModel(),
    problems: [],
  };
}

function isKustomization(uri: string, value: unknown): value is Record<string, unknown> {
  if (!isMapping(value)) return false;
  return value.kind === 'Kustomization' || (value.kind === undefined && isKustomizationFile(uri));
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `path` relative to the directory of `uri` (a file path or a URI), with `.` and `..` resolved. */
export function resolve(uri: string, path: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(uri)?.[0] ?? '';
  const rest = uri.slice(scheme.length);
  const absolute = rest.startsWith('/') || path.startsWith('/');
  // A URI's path is percent-encoded (an editor's file:///a%20b.yaml); a kustomization writes plain paths.
  const written = path.split('/').map((part) => (scheme && part !== '.' && part !== '..' ? encodeURIComponent(part) : part));
  const parts = path.startsWith('/') ? written : [...rest.split('/').slice(0, -1), ...written];
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part !== '..') segments.push(part);
    else if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    // Above the root there is nothing; above a relative path's start, its parent.
    else if (!absolute) segments.push('..');
  }
  return `${scheme}${absolute ? '/' : ''}${segments.join('/')}`;
}
