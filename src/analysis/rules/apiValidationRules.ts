/**
 * What the API server would reject (an error at the field) and objects that are accepted but
 * cannot work: StatefulSet specifics (KFS053, RULES.md E), selectors that do not select their own
 * template, invalid names and namespaces, missing required fields (KFS094), Services that select no pod (KFS054).
 */
import type { Sourced, Workload } from '../../manifest/model/types';
import { isClusterScoped, isPlainObject, metadataProblem, objectRef, type ManifestObject } from '../../manifest/objects';
import { valueAt } from '../../manifest/path';
import { SYNTAX_ERROR } from '../../manifest/problem';
import { matchesLabelSelector, matchesMap } from '../../sim/selectors';
import { kindRange, podSpecPath, rangeOf, templatePath } from '../facts';
import type { Finding } from '../finding';
import type { Rule } from '../rule';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Kinds whose names must be DNS-1035 labels (they become DNS names of their own). */
const LABEL_NAMED = new Set(['Service', 'Namespace']);
/** Kinds whose names must be DNS-1123 subdomains (others, such as RBAC objects, allow more). */
const SUBDOMAIN_NAMED = new Set([
  'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ConfigMap', 'Secret',
  'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'PodDisruptionBudget', 'ServiceAccount', 'Node',
]);

function selectorMatchesTemplate(workload: Workload): boolean {
  if (workload.kind === 'ReplicationController') {
    const selector = workload.selector.matchLabels;
    return Object.keys(selector).length === 0 || matchesMap(selector, workload.template.labels);
  }
  if (!('selector' in workload)) return true;
  return matchesLabelSelector(workload.selector, workload.template.labels);
}

/** apps/v1 workloads must have a selector (older API versions defaulted it from the template). */
const NEEDS_SELECTOR = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);
/** The word apps validation uses for each kind: a ReplicaSet's message says deployment (ValidateReplicaSetSpec). */
const EMPTY_SELECTOR_WORD: Record<string, string> = { Deployment: 'deployment', ReplicaSet: 'deployment', StatefulSet: 'statefulset', DaemonSet: 'daemonset' };

/**
 * A selector written with nothing in it ({}, or empty matchLabels and matchExpressions), as written:
 * an entry the model dropped as invalid (KFS092) still makes it non-empty for the API server.
 */
function isEmptySelector(written: unknown): boolean {
  if (!isPlainObject(written)) return false;
  const { matchLabels, matchExpressions } = written;
  return (matchLabels === undefined || matchLabels === null || (isPlainObject(matchLabels) && Object.keys(matchLabels).length === 0))
    && (matchExpressions === undefined || matchExpressions === null || (Array.isArray(matchExpressions) && matchExpressions.length === 0));
}

/** A strategic-merge or kustomize patch is a fragment of an object, not an object the API server receives. */
export function isPatch(object: ManifestObject): boolean {
  return '$patch' in object.value || Object.keys(object.value).some((k) => k.startsWith('$setElementOrder'));
}

/** ValidateObjectMeta's name check for the kinds above: why the name is refused, if it is. */
export function nameProblem(object: ManifestObject): string | undefined {
  const name = object.name;
  if (name === '' || name.endsWith('*') || !(LABEL_NAMED.has(object.kind) || SUBDOMAIN_NAMED.has(object.kind))) return undefined;
  if (LABEL_NAMED.has(object.kind)) {
    if (name.length > 63 || !DNS_1035_LABEL.test(name)) return `a ${object.kind} name must be a DNS-1035 label: at most 63 lowercase letters, digits and '-', starting with a letter and ending with a letter or digit`;
  } else if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    return 'a name must be a DNS-1123 subdomain: at most 253 lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit';
  }
  return undefined;
}

/** ValidateObjectMeta: a namespaced object's namespace is a DNS-1123 label (unset, it reads "default"). */
function namespaceProblem(object: ManifestObject): string | undefined {
  const { namespace } = object;
  if (isClusterScoped(object.kind) || !(LABEL_NAMED.has(object.kind) || SUBDOMAIN_NAMED.has(object.kind))) return undefined;
  if (namespace.length <= 63 && DNS_1123_LABEL.test(namespace)) return undefined;
  return `metadata.namespace ${JSON.stringify(namespace)} is not a valid namespace (a DNS-1123 label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit)`;
}

export const statefulSetSpec: Rule = {
  id: 'KFS053',
  title: 'StatefulSet without serviceName, or whose selector misses its template',
  defaultSeverity: 'error',
  docs: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload): Finding[] => {
      if (workload.kind !== 'StatefulSet') return [];
      const findings: Finding[] = [];
      if (!selectorMatchesTemplate(workload)) {
        findings.push({ ruleId: this.id, severity: 'error', object: objectRef(workload.source), range: rangeOf(workload, ['spec', 'selector']),
          message: 'The API server rejects this StatefulSet: spec.selector does not match the labels of spec.template.metadata.labels.' });
      }
      if (!workload.serviceName) {
        findings.push({ ruleId: this.id, severity: 'warning', object: objectRef(workload.source), range: kindRange(workload),
          message: 'This StatefulSet names no serviceName: its pods get no stable DNS names (db-0.<service>), which is usually why a StatefulSet is used.' });
      }
      return findings;
    });
  },
};

/**
 * Versions of kinds the model reads that later Kubernetes releases stopped serving (the
 * deprecated API migration guide); the 1.16 removals are refused whatever the version (model/index.ts).
 */
const REMOVED_IN: readonly { kind: string; apiVersion: string; minor: number; use: string }[] = [
  { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1beta1', minor: 25, use: 'policy/v1' },
  { kind: 'CronJob', apiVersion: 'batch/v1beta1', minor: 25, use: 'batch/v1' },
  { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2beta1', minor: 25, use: 'autoscaling/v2' },
  { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2beta2', minor: 26, use: 'autoscaling/v2' },
];

/** The removal that makes the API server refuse this object's apiVersion in that minor version, if any. */
export function removedIn(object: ManifestObject, minor: number): (typeof REMOVED_IN)[number] | undefined {
  return REMOVED_IN.find((r) => r.kind === object.kind && r.apiVersion === object.apiVersion && minor >= r.minor);
}

export const apiRejects: Rule = {
  id: 'KFS094',
  title: 'The API server rejects this object',
  defaultSeverity: 'error',
  docs: 'https://kubernetes.io/docs/concepts/overview/working-with-objects/names/',
  check(ctx) {
    const findings: Finding[] = [];
    const reject = (object: ManifestObject, range: Finding['range'], message: string) =>
      findings.push({ ruleId: this.id, severity: this.defaultSeverity, object: objectRef(object), range, message: `The API server rejects this ${object.kind}: ${message}.` });
    const { minor, label } = ctx.timing.version;
    for (const object of ctx.document.objects) {
      if (isPatch(object)) continue;
      const removed = removedIn(object, minor);
      if (removed) reject(object, object.sourceMap.closestRange(['apiVersion']), `Kubernetes ${label} does not serve ${object.apiVersion} (removed in 1.${removed.minor}): kubectl apply fails with no matches for kind "${object.kind}" in version "${object.apiVersion}". Write apiVersion: ${removed.use}`);
      const metadata = (LABEL_NAMED.has(object.kind) || SUBDOMAIN_NAMED.has(object.kind)) ? metadataProblem(object) : undefined;
      if (metadata) {
        reject(object, metadata.range, metadata.message);
        continue;
      }
      const problem = nameProblem(object);
      // A {{placeholder}} in the name: a template of some other tool, to render before applying.
      const placeholder = /\{\{[^}]*\}\}/.exec(object.name)?.[0];
      if (problem) reject(object, object.sourceMap.closestRange(['metadata', 'name']), `"${object.name}" is not a valid name (${problem})${placeholder ? `; ${placeholder} looks like a template placeholder: render the template first` : ''}`);
      const namespace = namespaceProblem(object);
      if (namespace) reject(object, object.sourceMap.closestRange(['metadata', 'namespace']), namespace);
    }
    for (const workload of ctx.document.model.workloads) {
      if (isPatch(workload.source)) continue;
      checkWorkload(workload, (range, message) => reject(workload.source, range, message));
    }
    // A second global default PriorityClass in another file (within one file the model reports it): whichever comes second is refused.
    for (const own of ctx.document.model.priorityClasses.filter((c) => c.globalDefault)) {
      const here = ctx.locate(own.source)?.uri;
      const other = ctx.workspace.priorityClasses.find((c) => c.globalDefault && c !== own && ctx.locate(c.source)?.uri !== here);
      const at = other && ctx.locate(other.source);
      if (other && at) reject(own.source, own.source.sourceMap.closestRange(['globalDefault']), `only one PriorityClass can be the global default, and ${other.name} (${at.uri}:${at.range.start.line + 1}) is one too: whichever is applied second is refused. Keep one`);
    }
    return findings;
  },
};

function checkWorkload(workload: Sourced<Workload>, reject: (range: Finding['range'], message: string) => void): void {
  const map = workload.source.sourceMap;
  // ValidateNonEmptySelector: a ReplicationController's selector defaults to its template's labels, and both may be empty.
  if (workload.kind === 'ReplicationController' && Object.keys(workload.selector.matchLabels).length === 0 && Object.keys(workload.template.labels).length === 0) {
    reject(map.node(['spec', 'selector']) !== undefined ? rangeOf(workload, ['spec', 'selector']) : kindRange(workload), 'spec.selector is required: it is empty, and so are spec.template.metadata.labels it defaults to');
  }
  const selector = valueAt(workload.source.value, ['spec', 'selector']);
  if (NEEDS_SELECTOR.has(workload.kind) && workload.source.apiVersion === 'apps/v1' && (selector === undefined || selector === null)) {
    reject(rangeOf(workload, ['spec', 'selector']), 'spec.selector is required');
  } else if (NEEDS_SELECTOR.has(workload.kind) && isEmptySelector(selector)) {
    reject(rangeOf(workload, ['spec', 'selector']), `spec.selector is empty, which would select every pod of the namespace (empty selector is invalid for ${EMPTY_SELECTOR_WORD[workload.kind]})`);
  } else if (workload.kind !== 'StatefulSet' && map.node(['spec', 'selector']) !== undefined && !selectorMatchesTemplate(workload)) {
    reject(rangeOf(workload, ['spec', 'selector']), `spec.selector does not match the labels of ${[...templatePath(workload), 'metadata', 'labels'].join('.')}`);
  }
  const containersPath = [...podSpecPath(workload), 'containers'];
  if (workload.template.spec.containers.length === 0) {
    reject(rangeOf(workload, containersPath), `${containersPath.join('.')} needs at least one container`);
    return;
  }
  const names = new Set<string>();
  workload.template.spec.containers.forEach((container, i) => {
    const name = `${containersPath.join('.')}[${i}].name`;
    // ValidateContainers: a DNS-1123 label, unique among the pod's containers.
    if (!container.name) reject(rangeOf(workload, [...containersPath, i]), `${name} is required`);
    else if (container.name.length > 63 || !DNS_1123_LABEL.test(container.name)) {
      reject(rangeOf(workload, [...containersPath, i, 'name']), `${name} ${JSON.stringify(container.name)} is not a valid container name (a DNS-1123 label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit)`);
    } else if (names.has(container.name)) reject(rangeOf(workload, [...containersPath, i, 'name']), `${name} "${container.name}" is the name of another container of the pod`);
    names.add(container.name);
    if (!container.image && workload.kind !== 'Pod') reject(rangeOf(workload, [...containersPath, i]), `${containersPath.join('.')}[${i}].image is required`);
    // ValidateResourceRequirements: a request above its limit.
    const at = container.at ?? i;
    for (const [key, resource] of RESOURCE_KEYS) {
      const request = container.requests[key];
      const limit = container.limits[key];
      if (request === undefined || limit === undefined || request <= limit) continue;
      const written = (kind: 'requests' | 'limits') => String(valueAt(workload.source.value, [...containersPath, at, 'resources', kind, resource]));
      reject(rangeOf(workload, [...containersPath, at, 'resources', 'requests', resource]),
        `${containersPath.join('.')}[${at}].resources.requests.${resource} ${written('requests')} must be less than or equal to the ${resource} limit of ${written('limits')}`);
    }
  });
}

const RESOURCE_KEYS = [['cpuMillis', 'cpu'], ['memoryBytes', 'memory'], ['ephemeralStorageBytes', 'ephemeral-storage']] as const;

export const serviceSelectsNothing: Rule = {
  id: 'KFS054',
  title: 'Service whose selector matches no pod template',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/services-networking/service/',
  check(ctx) {
    // A document the parser could not read may hold the pod template: nothing can be said then.
    if (ctx.document.parsed.problems.some((p) => p.ruleId === SYNTAX_ERROR && p.severity === 'error')) return [];
    return ctx.document.model.services.flatMap((service): Finding[] => {
      if (Object.keys(service.selector).length === 0 || service.type === 'ExternalName') return [];
      const inNamespace = ctx.workspace.workloads.filter((w) => w.namespace === service.namespace);
      // No workload of its namespace among the inputs (a Service checked alone, pods a platform runs): nothing to compare with.
      if (inNamespace.length === 0 || inNamespace.some((w) => matchesMap(service.selector, w.template.labels))) return [];
      // An operator may run the pods from a custom resource (a Prometheus, an Alertmanager): the inputs cannot tell.
      if (ctx.workspace.customResourceNamespaces.includes(service.namespace)) return [];
      const labels = Object.entries(service.selector).map(([k, v]) => `${k}=${v}`).join(',');
      return [{
        ruleId: this.id, severity: this.defaultSeverity, object: objectRef(service.source),
        range: service.source.sourceMap.keyOrClosestRange(['spec', 'selector']),
        message: ctx.workspace.unreadInput
          ? `No pod template of namespace ${service.namespace} among the documents read has the labels ${labels}; a document of the input that could not be read (a template or a YAML error, skipped) may have them. Otherwise, unless pods from elsewhere carry them, this Service has no endpoints, and traffic to it fails.`
          : `No pod template of namespace ${service.namespace} among the inputs has the labels ${labels}: unless pods from elsewhere carry them, this Service has no endpoints, and traffic to it fails. Make its selector match the labels of the pods it should reach.`,
      }];
    });
  },
};
