/**
 * KFS095: a field Kubernetes does not know, misspelt (`replica:`, `tolerationSecond:`) or written
 * one level off (`containers:` under a Deployment's spec). kubectl apply refuses such an object
 * (strict field validation); a client that does not validate drops the field. Either way the
 * analysis, which reads what Kubernetes reads, would silently judge a different workload.
 *
 * Only near misses and known misplacements are told: a field of a newer Kubernetes than these
 * lists, or of a type not listed, is never flagged.
 */
import { groupOf, isPlainObject, objectRef } from '../../manifest/objects';
import { formatPath, type Path } from '../../manifest/path';
import { nearMiss } from '../../manifest/suggest';
import type { Finding } from '../finding';
import type { Rule } from '../rule';
import { isPatch } from './apiValidationRules';

/** The fields of one API type, and the types of those worth walking into. */
interface Shape {
  /** As a message names it: "a Deployment's spec". */
  name: string;
  fields: readonly string[];
  nested?: Readonly<Record<string, Shape>>;
  /** Fields whose value is a list of this shape's items. */
  lists?: Readonly<Record<string, Shape>>;
  /** Fields of other types commonly written here by mistake, and where they belong. */
  belongsElsewhere?: (field: string) => string | undefined;
}

const OBJECT_META_FIELDS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];
const metadata = (of: string): Shape => ({ name: `the metadata of ${of}`, fields: OBJECT_META_FIELDS });

const PROBE: Shape = {
  name: 'a probe',
  fields: ['exec', 'httpGet', 'tcpSocket', 'grpc', 'initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold', 'terminationGracePeriodSeconds'],
};
const RESOURCES: Shape = { name: 'resources', fields: ['limits', 'requests', 'claims'] };
const CONTAINER_PORT: Shape = { name: 'a container port', fields: ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'] };
const CONTAINER_FIELDS = ['name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'resizePolicy', 'restartPolicy',
  'restartPolicyRules', 'volumeMounts', 'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty'];
const CONTAINER: Shape = {
  name: 'a container',
  fields: CONTAINER_FIELDS,
  nested: { livenessProbe: PROBE, readinessProbe: PROBE, startupProbe: PROBE, resources: RESOURCES },
  lists: { ports: CONTAINER_PORT },
};
const TOLERATION: Shape = { name: 'a toleration', fields: ['key', 'operator', 'value', 'effect', 'tolerationSeconds'] };
const SPREAD: Shape = {
  name: 'a topology spread constraint',
  fields: ['maxSkew', 'topologyKey', 'whenUnsatisfiable', 'labelSelector', 'minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy', 'matchLabelKeys'],
};
const AFFINITY: Shape = { name: 'affinity', fields: ['nodeAffinity', 'podAffinity', 'podAntiAffinity'] };
const POD_SPEC_FIELDS = ['volumes', 'initContainers', 'containers', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds',
  'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken', 'nodeName',
  'hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'securityContext', 'imagePullSecrets', 'hostname', 'subdomain', 'affinity',
  'schedulerName', 'tolerations', 'hostAliases', 'priorityClassName', 'priority', 'dnsConfig', 'readinessGates', 'runtimeClassName',
  'enableServiceLinks', 'preemptionPolicy', 'overhead', 'topologySpreadConstraints', 'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates',
  'resourceClaims', 'resources', 'hostnameOverride', 'workloadRef'];
const podSpec = (name: string): Shape => ({
  name,
  fields: POD_SPEC_FIELDS,
  nested: { affinity: AFFINITY },
  lists: { containers: CONTAINER, initContainers: CONTAINER, tolerations: TOLERATION, topologySpreadConstraints: SPREAD },
  // An image or a probe written beside containers: instead of in one of them.
  belongsElsewhere: (field) => (CONTAINER_FIELDS.includes(field) ? 'a container, under containers' : undefined),
});
const template = (of: string): Shape => ({ name: `the pod template of ${of}`, fields: ['metadata', 'spec'], nested: { metadata: metadata(`${of}'s pod template`), spec: podSpec(`the pod spec of ${of}`) } });

/** A workload's spec: its own fields, its pod template, and the pod spec's fields written one level too high. */
function workloadSpec(kind: string, fields: readonly string[], templatePath = 'spec.template.spec'): Shape {
  const of = `a ${kind}`;
  return {
    name: `${of}'s spec`,
    fields,
    nested: { template: template(of) },
    belongsElsewhere: (field) => (POD_SPEC_FIELDS.includes(field) ? templatePath : CONTAINER_FIELDS.includes(field) && field !== 'name' ? `a container, under ${templatePath}.containers` : undefined),
  };
}

const JOB_SPEC_FIELDS = ['parallelism', 'completions', 'activeDeadlineSeconds', 'podFailurePolicy', 'successPolicy', 'backoffLimit', 'backoffLimitPerIndex',
  'maxFailedIndexes', 'selector', 'manualSelector', 'template', 'ttlSecondsAfterFinished', 'completionMode', 'suspend', 'podReplacementPolicy', 'managedBy'];

const SPECS: Readonly<Record<string, Shape>> = {
  Deployment: workloadSpec('Deployment', ['replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds']),
  StatefulSet: workloadSpec('StatefulSet', ['replicas', 'selector', 'template', 'volumeClaimTemplates', 'serviceName', 'podManagementPolicy', 'updateStrategy',
    'revisionHistoryLimit', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy', 'ordinals']),
  DaemonSet: workloadSpec('DaemonSet', ['selector', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit']),
  ReplicaSet: workloadSpec('ReplicaSet', ['replicas', 'minReadySeconds', 'selector', 'template']),
  ReplicationController: workloadSpec('ReplicationController', ['replicas', 'minReadySeconds', 'selector', 'template']),
  Job: workloadSpec('Job', JOB_SPEC_FIELDS),
  CronJob: {
    name: 'a CronJob\'s spec',
    fields: ['schedule', 'timeZone', 'startingDeadlineSeconds', 'concurrencyPolicy', 'suspend', 'jobTemplate', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'],
    nested: { jobTemplate: { name: 'a CronJob\'s job template', fields: ['metadata', 'spec'], nested: { spec: workloadSpec('Job', JOB_SPEC_FIELDS, 'spec.jobTemplate.spec.template.spec') } } },
    belongsElsewhere: (field) => (JOB_SPEC_FIELDS.includes(field) ? 'spec.jobTemplate.spec' : POD_SPEC_FIELDS.includes(field) ? 'spec.jobTemplate.spec.template.spec'
      : CONTAINER_FIELDS.includes(field) ? 'a container, under spec.jobTemplate.spec.template.spec.containers' : undefined),
  },
  Pod: podSpec('a Pod\'s spec'),
  Service: {
    name: 'a Service\'s spec',
    fields: ['ports', 'selector', 'clusterIP', 'clusterIPs', 'type', 'externalIPs', 'sessionAffinity', 'loadBalancerIP', 'loadBalancerSourceRanges',
      'externalName', 'externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses', 'sessionAffinityConfig', 'ipFamilies', 'ipFamilyPolicy',
      'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution'],
  },
  PodDisruptionBudget: { name: 'a PodDisruptionBudget\'s spec', fields: ['minAvailable', 'selector', 'maxUnavailable', 'unhealthyPodEvictionPolicy'] },
};

/** The API groups of those kinds: a custom resource of the same kind (Volcano's Job, Kruise's StatefulSet) has fields of its own. */
const GROUPS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['apps', 'extensions'], StatefulSet: ['apps'], DaemonSet: ['apps', 'extensions'], ReplicaSet: ['apps', 'extensions'],
  ReplicationController: [''], Pod: [''], Service: [''], Job: ['batch'], CronJob: ['batch'], PodDisruptionBudget: ['policy'],
};

const TOP_LEVEL = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];

export const unknownField: Rule = {
  id: 'KFS095',
  title: 'Field Kubernetes does not know: misspelt or misplaced',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation',
  check(ctx) {
    const findings: Finding[] = [];
    for (const object of ctx.document.objects) {
      const spec = SPECS[object.kind];
      if (!spec || isPatch(object) || !GROUPS[object.kind].includes(groupOf(object.apiVersion))) continue;
      const report = (path: Path, message: string, renameTo?: string) => {
        const range = object.sourceMap.keyOrClosestRange(path);
        findings.push({
          ruleId: this.id, severity: this.defaultSeverity, object: objectRef(object), range,
          message: `${message} kubectl apply refuses the ${object.kind} (unknown field "${formatPath(path)}"), and a client that does not validate drops the field, so it changes nothing.`,
          fixes: renameTo ? [{ title: `Rename ${path[path.length - 1]} to ${renameTo}`, edits: [{ range, newText: renameTo }], preferred: true }] : undefined,
        });
      };
      const walk = (value: unknown, shape: Shape, path: Path): void => {
        if (!isPlainObject(value)) return;
        for (const [field, child] of Object.entries(value)) {
          const at = [...path, field];
          if (!shape.fields.includes(field)) {
            const near = nearMiss(field, shape.fields);
            const elsewhere = near ? undefined : shape.belongsElsewhere?.(field);
            // Renamed only where the right field is not written too: two keys of one name are a YAML error.
            if (near) report(at, `${field} is not a field of ${shape.name}; did you mean ${near}?`, near in value ? undefined : near);
            else if (elsewhere) report(at, `${field} is not a field of ${shape.name}: it belongs in ${elsewhere}.`);
            continue;
          }
          const nested = shape.nested?.[field];
          if (nested) walk(child, nested, at);
          const items = shape.lists?.[field];
          if (items && Array.isArray(child)) child.forEach((item, i) => walk(item, items, [...at, i]));
        }
      };
      walk(object.value, {
        name: `a ${object.kind}`, fields: TOP_LEVEL, nested: { metadata: metadata(`a ${object.kind}`), spec },
        belongsElsewhere: (field) => (spec.fields.includes(field) ? 'spec' : OBJECT_META_FIELDS.includes(field) ? 'metadata' : undefined),
      }, []);
    }
    return findings;
  },
};

