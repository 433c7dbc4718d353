import { formatCount } from '../formatCount';
import { CLUSTER_ENVELOPE, MAX_INT32, MIN_INT32 } from '../limits';
import type { FieldReader } from './fieldReader';
import { readLabelSelector, readPodSpec, readPodTemplate, readPvcSpec } from './podSpec';
import type { BarePod, Container, DaemonSet, Deployment, Job, LabelSelector, ObjectMeta, PodFailurePolicyRule, PodSpec, PodTemplate, ReplicaSet, StatefulSet, Volume, Workload } from './types';

const EMPTY_SELECTOR: LabelSelector = { matchLabels: {}, matchExpressions: [] };

export function readObjectMeta(r: FieldReader): ObjectMeta {
  return {
    name: r.object.name,
    namespace: r.object.namespace,
    labels: r.stringMap('metadata', 'labels'),
    annotations: r.stringMap('metadata', 'annotations'),
  };
}

function selector(r: FieldReader): LabelSelector {
  return readLabelSelector(r.at('spec', 'selector')) ?? EMPTY_SELECTOR;
}

/** The workload an object describes, or undefined if its kind runs no pods. */
export function readWorkload(r: FieldReader): Workload | undefined {
  const meta = readObjectMeta(r);
  const spec = r.at('spec');
  switch (r.object.kind) {
    case 'Deployment': {
      const deployment: Deployment = {
        ...meta, kind: 'Deployment',
        replicas: podCount(spec, 'replicas'),
        selector: selector(r),
        template: readPodTemplate(spec.at('template')),
        strategy: {
          type: spec.oneOf(['strategy', 'type'], ['RollingUpdate', 'Recreate'] as const) ?? 'RollingUpdate',
          rollingUpdate: {
            maxSurge: spec.intOrPercent(['strategy', 'rollingUpdate', 'maxSurge']) ?? '25%',
            maxUnavailable: spec.intOrPercent(['strategy', 'rollingUpdate', 'maxUnavailable']) ?? '25%',
          },
        },
        minReadySeconds: spec.int(['minReadySeconds']) ?? 0,
        progressDeadlineSeconds: spec.int(['progressDeadlineSeconds'], { min: 1 }) ?? 600,
      };
      return deployment;
    }
    case 'ReplicaSet':
    case 'ReplicationController': {
      const replicaSet: ReplicaSet = {
        ...meta, kind: r.object.kind,
        replicas: podCount(spec, 'replicas'),
        selector: r.object.kind === 'ReplicationController'
          ? { matchLabels: spec.stringMap('selector'), matchExpressions: [] }
          : selector(r),
        template: readPodTemplate(spec.at('template')),
        minReadySeconds: spec.int(['minReadySeconds']) ?? 0,
      };
      return replicaSet;
    }
    case 'StatefulSet': {
      const statefulSet: StatefulSet = {
        ...meta, kind: 'StatefulSet',
        replicas: podCount(spec, 'replicas'),
        selector: selector(r),
        serviceName: spec.string('serviceName'),
        podManagementPolicy: spec.oneOf(['podManagementPolicy'], ['OrderedReady', 'Parallel'] as const) ?? 'OrderedReady',
        updateStrategy: spec.oneOf(['updateStrategy', 'type'], ['RollingUpdate', 'OnDelete'] as const) ?? 'RollingUpdate',
        template: readPodTemplate(spec.at('template')),
        volumeClaimTemplates: spec.objectList('volumeClaimTemplates')
          .map((t) => readPvcSpec(t.at('spec'), t.string('metadata', 'name') ?? '', meta.namespace)),
        minReadySeconds: spec.int(['minReadySeconds']) ?? 0,
      };
      return statefulSet;
    }
    case 'DaemonSet': {
      const daemonSet: DaemonSet = {
        ...meta, kind: 'DaemonSet',
        selector: selector(r),
        updateStrategy: spec.oneOf(['updateStrategy', 'type'], ['RollingUpdate', 'OnDelete'] as const) ?? 'RollingUpdate',
        template: readPodTemplate(spec.at('template')),
        minReadySeconds: spec.int(['minReadySeconds']) ?? 0,
      };
      return daemonSet;
    }
    case 'Job':
      return readJob(meta, spec, 'Job');
    case 'CronJob': {
      const job = readJob(meta, spec.at('jobTemplate', 'spec'), 'CronJob');
      job.schedule = spec.string('schedule');
      return job;
    }
    case 'Pod': {
      const pod: BarePod = {
        ...meta, kind: 'Pod',
        template: { labels: meta.labels, annotations: meta.annotations, spec: readPodSpec(spec) },
        ownerKinds: r.objectList('metadata', 'ownerReferences').map((o) => o.string('kind') ?? ''),
      };
      return pod;
    }
    default:
      return undefined;
  }
}

/**
 * replicas or parallelism: an int32 for the API server (KFS092 beyond), and at most what one
 * cluster runs (KFS093 beyond: kept as written, so that `simulate` refuses it rather than
 * running another number).
 */
function podCount(spec: FieldReader, field: 'replicas' | 'parallelism'): number {
  const value = spec.int([field], { min: 0, max: MAX_INT32 }) ?? 1;
  if (value > CLUSTER_ENVELOPE.maxPods) {
    spec.reportLimit([field], `${spec.fullPath(field)} is ${formatCount(value)}: more pods than one Kubernetes cluster runs (${formatCount(CLUSTER_ENVELOPE.maxPods)} at most, on ${formatCount(CLUSTER_ENVELOPE.maxNodes)} nodes of ${CLUSTER_ENVELOPE.maxPodsPerNode} pods); it is not simulated.`);
  }
  return value;
}

/** A static pod's mirror: the kubelet's annotation, or owned by its Node (SEMANTICS.md 6.5). The kubelet runs it; nothing reschedules it. */
export function isMirrorPod(workload: Workload): boolean {
  return workload.kind === 'Pod' && (workload.annotations['kubernetes.io/config.mirror'] !== undefined || workload.ownerKinds.includes('Node') || isControlPlaneManifest(workload));
}

/**
 * A kubeadm control-plane manifest (/etc/kubernetes/manifests) as written to disk, before it has a
 * mirror annotation: in kube-system, labelled tier: control-plane, or running etcd or the scheduler.
 * The kubelet runs it as a static pod.
 */
function isControlPlaneManifest(workload: Workload): boolean {
  return workload.namespace === 'kube-system' && (workload.template.labels.tier === 'control-plane'
    || workload.template.spec.containers.some((c) => /(^|\/)(etcd|kube-scheduler)(:|@|$)/.test(c.image ?? '')));
}

/**
 * The pod template's volumes as its pods get them, with their index as written in the template: a
 * StatefulSet mounts each volumeClaimTemplate's per-pod claim in place of the template volume of
 * the same name (updateStorage, pkg/controller/statefulset/stateful_set_utils.go).
 */
export function podVolumes(workload: Workload): { volume: Volume; index: number }[] {
  const claimed = workload.kind === 'StatefulSet' ? new Set(workload.volumeClaimTemplates.map((t) => t.name)) : undefined;
  return workload.template.spec.volumes.map((volume, index) => ({ volume, index: volume.at ?? index })).filter(({ volume }) => !claimed?.has(volume.name));
}

/** A native sidecar: an init container that keeps running beside the app containers. */
export function isSidecar(container: Container): boolean {
  return container.restartPolicy === 'Always';
}

/**
 * What one pod requests of its node (PodRequests, k8s.io/component-helpers/resource): its app
 * containers and native sidecars added up, or more when an init container asks for more while
 * it runs (beside the sidecars started before it). A limit stands in for a missing request, as
 * the API server defaults it.
 */
export function podRequests(spec: PodSpec): { cpuMillis: number; memoryBytes: number; extended?: Record<string, number> } {
  const request = (c: Container) => [c.requests.cpuMillis ?? c.limits.cpuMillis ?? 0, c.requests.memoryBytes ?? c.limits.memoryBytes ?? 0];
  let [cpuMillis, memoryBytes] = [0, 0];
  for (const c of spec.containers) {
    const [cpu, memory] = request(c);
    cpuMillis += cpu;
    memoryBytes += memory;
  }
  let [sidecarCpu, sidecarMemory] = [0, 0];
  let [initCpu, initMemory] = [0, 0];
  for (const c of spec.initContainers) {
    const [cpu, memory] = request(c);
    if (isSidecar(c)) {
      cpuMillis += cpu;
      memoryBytes += memory;
      sidecarCpu += cpu;
      sidecarMemory += memory;
    }
    initCpu = Math.max(initCpu, isSidecar(c) ? sidecarCpu : cpu + sidecarCpu);
    initMemory = Math.max(initMemory, isSidecar(c) ? sidecarMemory : memory + sidecarMemory);
  }
  const extended = extendedRequests(spec);
  return { cpuMillis: Math.max(cpuMillis, initCpu), memoryBytes: Math.max(memoryBytes, initMemory), ...(extended ? { extended } : {}) };
}

/** Extended resources the pod asks for (a limit stands for a missing request): the app containers' and sidecars' sum, or an init container's, whichever is more. */
function extendedRequests(spec: PodSpec): Record<string, number> | undefined {
  const of = (c: Container) => ({ ...c.limits.extended, ...c.requests.extended });
  const total: Record<string, number> = {};
  for (const c of [...spec.containers, ...spec.initContainers.filter(isSidecar)]) for (const [name, amount] of Object.entries(of(c))) total[name] = (total[name] ?? 0) + amount;
  for (const c of spec.initContainers.filter((i) => !isSidecar(i))) for (const [name, amount] of Object.entries(of(c))) total[name] = Math.max(total[name] ?? 0, amount);
  return Object.keys(total).length > 0 ? total : undefined;
}

/** Pods the workload asks for on a cluster of `nodeCount` nodes (a DaemonSet: one per node, at most). */
export function desiredPods(workload: Workload, nodeCount: number): number {
  switch (workload.kind) {
    case 'DaemonSet': return nodeCount;
    case 'Job': case 'CronJob': return workload.parallelism;
    case 'Pod': return 1;
    default: return workload.replicas;
  }
}

/** Where the count of `desiredPods` is written (its parent object when it is not). */
export function podCountPath(workload: Workload): string[] {
  if (workload.kind === 'Job') return ['spec', 'parallelism'];
  if (workload.kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'parallelism'];
  return workload.kind === 'Pod' || workload.kind === 'DaemonSet' ? ['kind'] : ['spec', 'replicas'];
}

/**
 * A podFailurePolicy rule's onExitCodes as validatePodFailurePolicyRuleOnExitCodes checks it: an
 * operator, values sorted without repeats (no 0 for In), and a containerName the pod has.
 */
function readOnExitCodes(r: FieldReader, template: PodTemplate): NonNullable<PodFailurePolicyRule['onExitCodes']> | undefined {
  const operator = r.oneOf(['operator'], ['In', 'NotIn'] as const);
  if (!r.has('operator')) r.report(['operator'], `${r.fullPath('operator')} is required.`);
  const values = r.list('values').map((v) => v.int([], { min: MIN_INT32, max: MAX_INT32 })).filter((v): v is number => v !== undefined);
  if (values.length === 0) r.report(['values'], `${r.fullPath('values')} needs at least one exit code.`);
  else if (values.some((v, i) => i > 0 && v <= values[i - 1])) r.report(['values'], `${r.fullPath('values')} must be in increasing order, each once.`);
  if (operator === 'In' && values.includes(0)) r.report(['values'], `${r.fullPath('values')} must not hold 0 for the In operator.`);
  const containerName = r.string('containerName');
  const names = [...template.spec.containers, ...template.spec.initContainers].map((c) => c.name);
  if (containerName !== undefined && !names.includes(containerName)) r.report(['containerName'], `${r.fullPath('containerName')} "${containerName}" must name a container or init container of the pod template (${names.join(', ')}).`);
  return operator === undefined ? undefined : { containerName, operator, values };
}

function readJob(meta: ObjectMeta, spec: FieldReader, kind: Job['kind']): Job {
  const template = readPodTemplate(spec.at('template'));
  // ValidateJobSpec: a Job's pods end; Always (also the default of an unset restartPolicy) is refused.
  if (template.spec.restartPolicy === 'Always') {
    spec.report(['template', 'spec', 'restartPolicy'], `${spec.fullPath('template', 'spec', 'restartPolicy')} must be OnFailure or Never in a Job${spec.has('template', 'spec', 'restartPolicy') ? '' : ' (unset, it defaults to Always, which the API server refuses)'}.`);
  }
  return {
    ...meta, kind,
    parallelism: podCount(spec, 'parallelism'),
    completions: spec.int(['completions']),
    backoffLimit: spec.int(['backoffLimit']) ?? 6,
    podReplacementPolicy: spec.oneOf(['podReplacementPolicy'], ['TerminatingOrFailed', 'Failed'] as const),
    hasPodFailurePolicy: spec.has('podFailurePolicy'),
    podFailureRules: spec.objectList('podFailurePolicy', 'rules').map((rule) => ({
      action: rule.oneOf(['action'], ['FailJob', 'FailIndex', 'Ignore', 'Count'] as const) ?? 'Count',
      onPodConditions: rule.objectList('onPodConditions').map((c) => ({ type: c.string('type') ?? '', status: c.string('status') ?? 'True' })),
      onExitCodes: rule.has('onExitCodes') ? readOnExitCodes(rule.at('onExitCodes'), template) : undefined,
    })),
    activeDeadlineSeconds: spec.int(['activeDeadlineSeconds'], { min: 1 }),
    template,
  };
}
