import { MAX_INT32, MIN_INT32 } from '../limits';
import type { FieldReader } from './fieldReader';
import { readExtendedResources, readLabelSelector, readNodeSelectorTerms, readPvcSpec, readResources, readTaint } from './podSpec';
import type { HorizontalPodAutoscaler, LimitRange, Namespace, Node, PriorityClass, PersistentVolume, PersistentVolumeClaimSpec, PodDisruptionBudget, Resources, Service, StorageClass, Taint } from './types';
import { readObjectMeta } from './workloads';

export function readPersistentVolumeClaim(r: FieldReader): PersistentVolumeClaimSpec {
  return readPvcSpec(r.at('spec'), r.object.name, r.object.namespace);
}

export function readPersistentVolume(r: FieldReader): PersistentVolume {
  const spec = r.at('spec');
  const claimRef = spec.has('claimRef')
    ? { namespace: spec.string('claimRef', 'namespace') ?? 'default', name: spec.string('claimRef', 'name') ?? '' }
    : undefined;
  return {
    name: r.object.name,
    accessModes: spec.stringList('accessModes'),
    storageClassName: spec.string('storageClassName'),
    capacityBytes: spec.quantity('capacity', 'storage'),
    nodeAffinity: readNodeSelectorTerms(spec.at('nodeAffinity', 'required', 'nodeSelectorTerms')),
    local: spec.has('local'),
    hostPath: spec.string('hostPath', 'path'),
    claimRef,
  };
}

export function readNamespace(r: FieldReader): Namespace {
  return { name: r.object.name, labels: r.stringMap('metadata', 'labels') };
}

/** The API server limits a class of users to 1,000,000,000; the two built-in system classes are above it. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The classes every cluster has (pkg/apis/scheduling SystemPriorityClasses), their values fixed. */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  { name: 'system-cluster-critical', value: 2_000_000_000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
  { name: 'system-node-critical', value: 2_000_001_000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
];

/**
 * A PriorityClass as the API server validates it (ValidatePriorityClass): a value up to
 * 1,000,000,000, no name with the reserved system- prefix but the built-in ones, whose values
 * cannot change. Undefined when it is refused.
 */
export function readPriorityClass(r: FieldReader): PriorityClass | undefined {
  const name = r.object.name;
  const system = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (name.startsWith('system-') && !system) {
    r.report(['metadata', 'name'], `The API server refuses this PriorityClass: names beginning with system- are reserved for the built-in ${SYSTEM_PRIORITY_CLASSES.map((c) => c.name).join(' and ')}.`);
    return undefined;
  }
  if (!r.has('value')) {
    r.report(['value'], `The API server refuses a PriorityClass without value (a whole number up to ${HIGHEST_USER_DEFINABLE_PRIORITY}).`);
    return undefined;
  }
  const value = r.int(['value'], { min: MIN_INT32, max: system ? MAX_INT32 : HIGHEST_USER_DEFINABLE_PRIORITY });
  if (value === undefined) return undefined;
  const globalDefault = r.bool('globalDefault') ?? false;
  // IsKnownSystemPriorityClass: the built-in classes are taken only as they are.
  if (system && (value !== system.value || globalDefault)) {
    const what = value !== system.value ? `value ${system.value}` : 'globalDefault false';
    r.report(value !== system.value ? ['value'] : ['globalDefault'], `${name} is built into every cluster with ${what}, which cannot be changed: this object is refused, and pods naming the class get ${system.value}.`);
    return undefined;
  }
  return {
    name,
    value,
    globalDefault,
    preemptionPolicy: r.oneOf(['preemptionPolicy'], ['PreemptLowerPriority', 'Never'] as const) ?? 'PreemptLowerPriority',
  };
}

export function readStorageClass(r: FieldReader): StorageClass {
  const annotations = r.stringMap('metadata', 'annotations');
  return {
    name: r.object.name,
    provisioner: r.string('provisioner') ?? '',
    volumeBindingMode: r.oneOf(['volumeBindingMode'], ['Immediate', 'WaitForFirstConsumer'] as const) ?? 'Immediate',
    reclaimPolicy: r.oneOf(['reclaimPolicy'], ['Delete', 'Retain', 'Recycle'] as const) ?? 'Delete',
    isDefault: annotations['storageclass.kubernetes.io/is-default-class'] === 'true',
  };
}

/** A budget's count or percentage; a percentage past 100 % is refused (IsNotMoreThan100Percent). */
function atMostAll(spec: FieldReader, field: 'minAvailable' | 'maxUnavailable'): number | string | undefined {
  const value = spec.intOrPercent([field]);
  if (typeof value !== 'string' || Number.parseInt(value, 10) <= 100) return value;
  spec.report([field], `${spec.fullPath(field)} is ${value}; a percentage here must not be greater than 100%.`);
  return undefined;
}

export function readPodDisruptionBudget(r: FieldReader): PodDisruptionBudget {
  const spec = r.at('spec');
  const minAvailable = atMostAll(spec, 'minAvailable');
  const maxUnavailable = atMostAll(spec, 'maxUnavailable');
  if (minAvailable !== undefined && maxUnavailable !== undefined) {
    spec.report(['maxUnavailable'], 'A PodDisruptionBudget sets either minAvailable or maxUnavailable, not both; the API server rejects it.');
  }
  return {
    ...readObjectMeta(r),
    selector: readLabelSelector(spec.at('selector')) ?? { matchLabels: {}, matchExpressions: [] },
    minAvailable,
    maxUnavailable,
  };
}

export function readHorizontalPodAutoscaler(r: FieldReader): HorizontalPodAutoscaler {
  const spec = r.at('spec');
  return {
    ...readObjectMeta(r),
    target: { kind: spec.string('scaleTargetRef', 'kind') ?? '', name: spec.string('scaleTargetRef', 'name') ?? '' },
    minReplicas: readMinReplicas(spec),
  };
}

/** minReplicas, once maxReplicas has had the API server's checks: required, and at least minReplicas (ValidateHorizontalPodAutoscalerSpec). */
function readMinReplicas(spec: FieldReader): number {
  const minReplicas = spec.int(['minReplicas'], { min: 1 }) ?? 1;
  if (!spec.has('maxReplicas')) spec.report(['maxReplicas'], `${spec.fullPath('maxReplicas')} is required.`);
  else spec.int(['maxReplicas'], { min: minReplicas, max: MAX_INT32 });
  return minReplicas;
}

/** Sets in `target` each resource it lacks and `source` has: the first default of a resource decides it. */
export function fillUnset(target: Resources, source: Resources): void {
  for (const key of ['cpuMillis', 'memoryBytes', 'ephemeralStorageBytes'] as const) target[key] ??= source[key];
}

/** The Container entries' defaults, merged in order (LimitRanger applies every LimitRange of the namespace). */
export function readLimitRange(r: FieldReader): LimitRange {
  const defaultLimits: Resources = {};
  const defaultRequests: Resources = {};
  for (const item of r.at('spec').objectList('limits')) {
    if (item.string('type') !== 'Container') continue;
    // SetDefaults_LimitRangeItem: default falls back to max, defaultRequest to default.
    const limits = { ...readResources(item.at('max')), ...readResources(item.at('default')) };
    fillUnset(defaultLimits, limits);
    fillUnset(defaultRequests, { ...limits, ...readResources(item.at('defaultRequest')) });
  }
  return { ...readObjectMeta(r), defaultLimits, defaultRequests };
}

export function readService(r: FieldReader): Service {
  const spec = r.at('spec');
  const clusterIP = spec.string('clusterIP');
  return {
    ...readObjectMeta(r),
    selector: spec.stringMap('selector'),
    type: spec.oneOf(['type'], ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const) ?? 'ClusterIP',
    headless: clusterIP === 'None',
    ports: spec.objectList('ports').map((p) => {
      const target = p.raw('targetPort');
      return {
        port: p.int(['port'], { min: 1, max: 65535 }) ?? 0,
        targetPort: typeof target === 'number' || typeof target === 'string' ? target : undefined,
        name: p.string('name'),
        protocol: p.string('protocol') ?? 'TCP',
      };
    }),
    publishNotReadyAddresses: spec.bool('publishNotReadyAddresses') ?? false,
  };
}

export function readNode(r: FieldReader): Node {
  const spec = r.at('spec');
  const allocatable = r.at('status', 'allocatable');
  const cpu = allocatable.quantity('cpu');
  const extended = readExtendedResources(allocatable);
  return {
    name: r.object.name,
    labels: r.stringMap('metadata', 'labels'),
    taints: spec.objectList('taints').map(readTaint).filter((t): t is Taint => t !== undefined),
    allocatable: {
      cpuMillis: cpu === undefined ? undefined : Math.round(cpu * 1000),
      memoryBytes: allocatable.quantity('memory'),
      pods: allocatable.quantity('pods'),
      ...(extended ? { extended } : {}),
    },
    unschedulable: spec.bool('unschedulable') ?? false,
    ready: r.objectList('status', 'conditions').find((c) => c.string('type') === 'Ready')?.string('status'),
  };
}
