import type { ParsedFile } from './parseFile';
import { quoteHint } from './model/fieldReader';
import { INVALID_FIELD, KUBECTL, type ManifestProblem } from './problem';
import type { Range } from './range';
import type { SourceMap } from './sourceMap';

export interface ObjectRef {
  kind: string;
  name: string;
  namespace: string;
}

/** One Kubernetes object of a file: a document, or an item of a `kind: List` document. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  name: string;
  /** `metadata.namespace`, "default" when unset on a namespaced kind, "" for cluster-scoped kinds. */
  namespace: string;
  value: Record<string, unknown>;
  sourceMap: SourceMap;
  range: Range;
  documentIndex: number;
}

const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'ClusterRole', 'ClusterRoleBinding',
  'CustomResourceDefinition', 'PriorityClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'APIService', 'CSIDriver', 'CSINode',
  'VolumeAttachment', 'RuntimeClass', 'IngressClass', 'PodSecurityPolicy', 'CertificateSigningRequest',
  'FlowSchema', 'PriorityLevelConfiguration', 'ClusterIssuer',
  // Component configuration files: not API objects, no namespace.
  'KubeletConfiguration', 'KubeProxyConfiguration', 'KubeSchedulerConfiguration', 'ClusterConfiguration',
  'InitConfiguration', 'JoinConfiguration',
]);

/** The API server ignores a namespace written on these (rest.BeforeCreate clears it). */
export function isClusterScoped(kind: string): boolean {
  return CLUSTER_SCOPED.has(kind);
}

/** The API group of an apiVersion: apps of apps/v1, "" (core) of v1. */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The Kubernetes objects of a parsed file. Documents without apiVersion or kind (Helm's
 * Chart.yaml, values files, patches) are not Kubernetes objects and are skipped; an
 * apiVersion or kind that is not a string is a problem.
 */
export function extractObjects(file: ParsedFile): { objects: ManifestObject[]; problems: ManifestProblem[] } {
  const objects: ManifestObject[] = [];
  const problems: ManifestProblem[] = [];
  for (const document of file.documents) {
    if (Array.isArray(document.value) && document.value.some((item) => isPlainObject(item) && item.apiVersion !== undefined && item.kind !== undefined)) {
      problems.push({
        ruleId: INVALID_FIELD, severity: 'error', range: document.range,
        message: 'This document is a list of Kubernetes objects: kubectl and the API server read one object per document ("cannot unmarshal array into Go value of type map"), so none of them was analysed. Separate them with --- or wrap them in a kind: List with items:.',
      });
      continue;
    }
    const candidate = toObject(document.value, document.sourceMap, document.index, problems);
    if (candidate) objects.push(...listItems(candidate, document.sourceMap, document.index, problems, 0));
  }
  return { objects, problems };
}

/** Lists nested this deep are not flattened further (a guard; kubectl's own lists are one or two levels). */
const MAX_LIST_DEPTH = 8;

/** A List's items, nested Lists flattened as kubectl flattens them (FlattenListVisitor); any other object as itself. */
function listItems(candidate: ManifestObject, sourceMap: SourceMap, documentIndex: number, problems: ManifestProblem[], depth: number): ManifestObject[] {
  const items = candidate.value.items;
  if (!candidate.kind.endsWith('List') || items === undefined || depth >= MAX_LIST_DEPTH) return [candidate];
  // Only kind: List is sure to be kubectl's: a custom resource may have a field named items of its own.
  const list = candidate.kind === 'List';
  if (!Array.isArray(items)) {
    if (!list) return [candidate];
    problems.push({ ruleId: INVALID_FIELD, severity: 'error', range: sourceMap.closestRange(['items']), message: `items of a ${candidate.kind} must be a list of objects; kubectl refuses it, so nothing of it was analysed.`, refusedBy: KUBECTL });
    return [];
  }
  return items.flatMap((item, i) => {
    const itemMap = sourceMap.subMap(['items', i]);
    if (!itemMap) return [];
    if (!isPlainObject(item)) {
      if (list) problems.push({ ruleId: INVALID_FIELD, severity: 'error', range: itemMap.closestRange([]), message: `items[${i}] of this ${candidate.kind} is not an object; kubectl refuses it.`, refusedBy: KUBECTL });
      return [];
    }
    const object = toObject(item, itemMap, documentIndex, problems);
    return object ? listItems(object, itemMap, documentIndex, problems, depth + 1) : [];
  });
}

function toObject(value: unknown, sourceMap: SourceMap, documentIndex: number, problems: ManifestProblem[]): ManifestObject | undefined {
  // An object with a kind and metadata but no apiVersion is meant as one; kubectl refuses it ("apiVersion not set").
  if (isPlainObject(value) && value.apiVersion === undefined && typeof value.kind === 'string' && isPlainObject(value.metadata)) {
    problems.push({ ruleId: INVALID_FIELD, severity: 'error', range: sourceMap.closestRange(['kind']), message: `${value.kind} has no apiVersion: kubectl refuses it (apiVersion not set), so it was not analysed.`, refusedBy: KUBECTL });
    return undefined;
  }
  if (!isPlainObject(value) || value.apiVersion === undefined || value.kind === undefined) return undefined;
  for (const field of ['apiVersion', 'kind'] as const) {
    if (typeof value[field] !== 'string' || value[field] === '') {
      problems.push({
        ruleId: INVALID_FIELD, severity: 'error', range: sourceMap.closestRange([field]),
        message: `${field} must be a non-empty string.`, refusedBy: KUBECTL,
      });
      return undefined;
    }
  }
  const kind = value.kind as string;
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : typeof metadata.generateName === 'string' ? `${metadata.generateName}*` : '';
  // An empty namespace is an unset one: kubectl fills in its default namespace (resource.Builder's DefaultNamespace).
  const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : CLUSTER_SCOPED.has(kind) ? '' : 'default';
  const root = sourceMap.root;
  return {
    apiVersion: value.apiVersion as string,
    kind,
    name,
    namespace,
    value,
    sourceMap,
    range: root ? sourceMap.toRange(root.start, root.end) : sourceMap.closestRange([]),
    documentIndex,
  };
}

/** One string per object: kind, namespace and name. */
export function refKey(ref: ObjectRef): string {
  return `${ref.kind}/${ref.namespace}/${ref.name}`;
}

export function objectRef(object: ManifestObject): ObjectRef {
  return { kind: object.kind, name: object.name, namespace: object.namespace };
}

/**
 * A name or namespace that is not a string (`name: 12345` is a number in YAML), or no name at
 * all: the object reads as nameless here, and the API server refuses it (ValidateObjectMeta).
 */
export function metadataProblem(object: ManifestObject): { range: Range; message: string } | undefined {
  const metadata = object.value.metadata;
  const meta = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata as Record<string, unknown> : {};
  for (const field of ['name', 'generateName', 'namespace']) {
    const value = meta[field];
    if (value === undefined || value === null || typeof value === 'string') continue;
    return { range: object.sourceMap.closestRange(['metadata', field]), message: `metadata.${field} must be a string; it is ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a map' : `the ${typeof value} ${String(value)}`}${quoteHint(value, object.sourceMap.plainText(['metadata', field]))}` };
  }
  // An empty name is no name (kubectl apply: resource name may not be empty).
  if (!meta.name && !meta.generateName) {
    return { range: object.sourceMap.closestRange(['metadata']), message: 'metadata.name is required (kubectl apply: resource name may not be empty)' };
  }
  return undefined;
}
