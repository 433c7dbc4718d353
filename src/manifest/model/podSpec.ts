import { MAX_INT32 } from '../limits';
import { isPlainObject } from '../objects';
import { cpuMillis } from '../quantity';
import type { FieldReader } from './fieldReader';
import type {
  Affinity, Container, InlineDisk, LabelSelector, LabelSelectorRequirement, LifecycleHandler, NodeSelectorRequirement,
  NodeSelectorTerm, PersistentVolumeClaimSpec, PodAffinityTerm, PodSpec, PodTemplate, Probe, ProbeHandler,
  Resources, Taint, Toleration, TopologySpreadConstraint, Volume, VolumeSource,
} from './types';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
const NODE_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;

/** The Kubernetes default, `DefaultTerminationGracePeriodSeconds`. */
export const DEFAULT_TERMINATION_GRACE_SECONDS = 30;

export function readPodTemplate(r: FieldReader): PodTemplate {
  return {
    labels: r.stringMap('metadata', 'labels'),
    annotations: r.stringMap('metadata', 'annotations'),
    spec: readPodSpec(r.at('spec')),
  };
}

export function readPodSpec(r: FieldReader): PodSpec {
  return {
    containers: r.objectList('containers').map((c) => readContainer(c, false)),
    initContainers: r.objectList('initContainers').map((c) => readContainer(c, true)),
    tolerations: r.objectList('tolerations').map(readWrittenToleration).filter((t): t is Toleration => t !== undefined),
    nodeSelector: r.stringMap('nodeSelector'),
    nodeName: r.string('nodeName'),
    affinity: readAffinity(r.at('affinity')),
    topologySpreadConstraints: r.objectList('topologySpreadConstraints').map(readTopologySpread)
      .filter((c): c is TopologySpreadConstraint => c !== undefined),
    terminationGracePeriodSeconds: r.int(['terminationGracePeriodSeconds']) ?? DEFAULT_TERMINATION_GRACE_SECONDS,
    volumes: r.objectList('volumes').map(readVolume),
    restartPolicy: r.oneOf(['restartPolicy'], ['Always', 'OnFailure', 'Never'] as const) ?? 'Always',
    priority: r.int(['priority'], {}),
    priorityClassName: r.string('priorityClassName'),
    hostNetwork: r.bool('hostNetwork') ?? false,
    readinessGates: r.objectList('readinessGates').map((g) => g.string('conditionType')).filter((s): s is string => !!s),
  };
}

/** A toleration of the pod spec, with its place in the written list. */
function readWrittenToleration(r: FieldReader): Toleration | undefined {
  const toleration = readToleration(r);
  return toleration && { ...toleration, at: r.index };
}

export function readToleration(r: FieldReader): Toleration | undefined {
  const operator = r.oneOf(['operator'], ['Exists', 'Equal'] as const) ?? 'Equal';
  const effect = r.has('effect') && r.raw('effect') !== '' ? r.oneOf(['effect'], TAINT_EFFECTS) : '';
  if (effect === undefined) return undefined;
  const key = r.string('key') ?? '';
  if (key === '' && operator !== 'Exists') {
    r.report(['operator'], `${r.fullPath()} has no key, so its operator must be Exists (it tolerates every taint).`);
  }
  let tolerationSeconds = r.int(['tolerationSeconds'], {});
  // ValidateTolerations (pkg/apis/core/validation): "effect must be 'NoExecute' when tolerationSeconds is set".
  if (tolerationSeconds !== undefined && effect !== 'NoExecute') {
    r.report(['tolerationSeconds'], effect === ''
      ? 'tolerationSeconds only applies to the NoExecute effect, and this toleration has no effect, so the API server rejects it. Add effect: NoExecute.'
      : `tolerationSeconds only applies to the NoExecute effect; this toleration's effect is ${effect}, so the API server rejects it.`);
    tolerationSeconds = undefined;
  }
  return { key, operator, value: r.string('value') ?? '', effect, tolerationSeconds };
}

export function readTaint(r: FieldReader): Taint | undefined {
  const key = r.string('key');
  const effect = r.oneOf(['effect'], TAINT_EFFECTS);
  if (!key || !effect) {
    if (!key) r.report(['key'], `${r.fullPath()} needs a key.`);
    return undefined;
  }
  return { key, value: r.string('value') ?? '', effect };
}

export function readLabelSelector(r: FieldReader): LabelSelector | undefined {
  if (!r.has() || !r.isObject()) return undefined;
  return {
    matchLabels: r.stringMap('matchLabels'),
    matchExpressions: r.objectList('matchExpressions').map((e): LabelSelectorRequirement | undefined => {
      const key = e.string('key');
      const operator = e.oneOf(['operator'], SELECTOR_OPERATORS);
      return key && operator ? { key, operator, values: e.stringList('values') } : undefined;
    }).filter((e): e is LabelSelectorRequirement => e !== undefined),
  };
}

function readNodeSelectorRequirements(list: FieldReader[]): NodeSelectorRequirement[] {
  return list.map((e): NodeSelectorRequirement | undefined => {
    const key = e.string('key');
    const operator = e.oneOf(['operator'], NODE_SELECTOR_OPERATORS);
    return key && operator ? { key, operator, values: e.stringList('values') } : undefined;
  }).filter((e): e is NodeSelectorRequirement => e !== undefined);
}

function readNodeSelectorTerm(term: FieldReader): NodeSelectorTerm {
  return { matchExpressions: readNodeSelectorRequirements(term.objectList('matchExpressions')), matchFields: readNodeSelectorRequirements(term.objectList('matchFields')) };
}

/** An empty `-` is a term with no requirement, which the API server accepts and which matches no node: a warning. */
export function readNodeSelectorTerms(r: FieldReader): NodeSelectorTerm[] {
  const terms = r.list();
  terms.forEach((term, i) => {
    if (term.raw() !== null) return;
    r.warnAt(term.range(), `nodeSelectorTerms[${i}] is empty: a term with no requirement matches no node${terms.length === 1 ? ', so the pods stay Pending' : ''}. Remove it, or write its matchExpressions.`);
  });
  return terms.filter((term) => term.raw() === null || term.isObject()).map(readNodeSelectorTerm);
}

function readAffinity(r: FieldReader): Affinity {
  const podTerm = (t: FieldReader): PodAffinityTerm => ({
    labelSelector: readLabelSelector(t.at('labelSelector')),
    topologyKey: t.string('topologyKey') ?? '',
    namespaces: t.stringList('namespaces'),
    namespaceSelector: readLabelSelector(t.at('namespaceSelector')),
  });
  const required = 'requiredDuringSchedulingIgnoredDuringExecution';
  const preferred = 'preferredDuringSchedulingIgnoredDuringExecution';
  return {
    nodeRequired: readNodeSelectorTerms(r.at('nodeAffinity', required, 'nodeSelectorTerms')),
    podAffinityRequired: r.objectList('podAffinity', required).map(podTerm),
    podAntiAffinityRequired: r.objectList('podAntiAffinity', required).map(podTerm),
    podAntiAffinityPreferred: r.objectList('podAntiAffinity', preferred).map((w) => ({
      weight: w.int(['weight'], { min: 1, max: 100 }) ?? 1,
      term: podTerm(w.at('podAffinityTerm')),
    })),
    podAffinityPreferred: r.objectList('podAffinity', preferred).map((w) => ({
      weight: w.int(['weight'], { min: 1, max: 100 }) ?? 1,
      term: podTerm(w.at('podAffinityTerm')),
    })),
    nodePreferred: r.objectList('nodeAffinity', preferred).map((w) => ({
      weight: w.int(['weight'], { min: 1, max: 100 }) ?? 1,
      preference: readNodeSelectorTerm(w.at('preference')),
    })),
  };
}

function readTopologySpread(r: FieldReader): TopologySpreadConstraint | undefined {
  const topologyKey = r.string('topologyKey');
  if (!topologyKey) {
    r.report(['topologyKey'], `${r.fullPath()} needs a topologyKey.`);
    return undefined;
  }
  return {
    maxSkew: r.int(['maxSkew'], { min: 1 }) ?? 1,
    topologyKey,
    whenUnsatisfiable: r.oneOf(['whenUnsatisfiable'], ['DoNotSchedule', 'ScheduleAnyway'] as const) ?? 'DoNotSchedule',
    labelSelector: readLabelSelector(r.at('labelSelector')),
    minDomains: r.int(['minDomains'], { min: 1 }),
    nodeTaintsPolicy: r.oneOf(['nodeTaintsPolicy'], ['Honor', 'Ignore'] as const) ?? 'Ignore',
  };
}

function readContainer(r: FieldReader, init: boolean): Container {
  // Only checked (its port): a postStart hook changes no failure timing.
  readLifecycleHandler(r.at('lifecycle', 'postStart'));
  // validateInitContainers: an init container that runs to completion has no probes; a native sidecar (restartPolicy Always) may.
  if (init && r.raw('restartPolicy') !== 'Always') {
    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      if (r.has(probe)) r.report([probe], `${r.fullPath(probe)} may not be set for an init container (only for a sidecar with restartPolicy: Always).`);
    }
  }
  return {
    at: r.index,
    name: r.string('name') ?? '',
    image: r.string('image') ?? '',
    command: r.stringList('command'),
    args: r.stringList('args'),
    ports: r.objectList('ports').map((p) => ({
      containerPort: p.int(['containerPort'], { min: 1, max: 65535 }) ?? 0,
      name: p.string('name'),
      protocol: p.string('protocol') ?? 'TCP',
      hostPort: p.has('hostPort') ? p.int(['hostPort'], { min: 1, max: 65535 }) : undefined,
    })),
    readinessProbe: readProbe(r.at('readinessProbe')),
    livenessProbe: readProbe(r.at('livenessProbe'), 'liveness'),
    startupProbe: readProbe(r.at('startupProbe'), 'startup'),
    requests: readResources(r.at('resources', 'requests')),
    limits: readResources(r.at('resources', 'limits')),
    preStop: readLifecycleHandler(r.at('lifecycle', 'preStop')),
    volumeMounts: r.objectList('volumeMounts').map((m) => ({ name: m.string('name') ?? '', mountPath: m.string('mountPath') ?? '' })),
    // Only an init container may set it, and only to Always (validateInitContainers).
    ...(init && r.has('restartPolicy') ? { restartPolicy: r.oneOf(['restartPolicy'], ['Always'] as const) } : {}),
  };
}

export function readResources(r: FieldReader): Resources {
  if (!r.has() || !r.isObject()) return {};
  const cpu = r.quantity('cpu');
  const extended = readExtendedResources(r);
  return {
    cpuMillis: cpu === undefined ? undefined : cpuMillis(cpu),
    memoryBytes: r.quantity('memory'),
    ephemeralStorageBytes: r.quantity('ephemeral-storage'),
    ...(extended ? { extended } : {}),
  };
}

/** A device plugin's or an operator's resource (nvidia.com/gpu): a domain outside kubernetes.io, counted in whole units. */
function isExtendedResource(name: string): boolean {
  return name.includes('/') && !/(^|\.)kubernetes\.io\//.test(name);
}

/** The extended resources of a requests, limits or allocatable map; undefined when it has none. */
export function readExtendedResources(r: FieldReader): Record<string, number> | undefined {
  const names = r.keys().filter(isExtendedResource);
  const amounts = names.flatMap((name) => {
    const amount = r.quantity(name);
    return amount === undefined ? [] : [[name, amount] as const];
  });
  return amounts.length > 0 ? Object.fromEntries(amounts) : undefined;
}

const PROBE_HANDLERS: ProbeHandler[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

/**
 * A probe with the API defaults (period 10 s, timeout 1 s, failureThreshold 3, successThreshold 1),
 * as validateProbe checks it: int32 counts, a command for exec, and a successThreshold of 1 for a
 * liveness or startup probe (`once`: one success is all they wait for).
 */
export function readProbe(r: FieldReader, once?: 'liveness' | 'startup'): Probe | undefined {
  if (!r.has() || !r.isObject()) return undefined;
  const handler = PROBE_HANDLERS.find((h) => r.has(h)) ?? 'none';
  checkPort(r, handler);
  const command = handler === 'exec' ? r.stringList('exec', 'command') : [];
  // Missing or an empty list (a command of another type is reported as such).
  const written = r.raw('exec', 'command');
  if (handler === 'exec' && command.length === 0 && (written === undefined || written === null || Array.isArray(written) && written.length === 0)) {
    r.report(['exec', 'command'], `${r.fullPath('exec', 'command')} is required.`);
  }
  // SetDefaults_Probe gives a count written as 0 its default before validateProbe looks.
  const successThreshold = r.int(['successThreshold'], { min: 0, max: MAX_INT32 }) || 1;
  if (once && successThreshold !== 1) r.report(['successThreshold'], `${r.fullPath('successThreshold')} is ${successThreshold}; it must be 1 for a ${once} probe.`);
  return {
    handler,
    initialDelaySeconds: r.int(['initialDelaySeconds'], { min: 0, max: MAX_INT32 }) ?? 0,
    periodSeconds: r.int(['periodSeconds'], { min: 0, max: MAX_INT32 }) || 10,
    timeoutSeconds: r.int(['timeoutSeconds'], { min: 0, max: MAX_INT32 }) || 1,
    successThreshold: once ? 1 : successThreshold,
    failureThreshold: r.int(['failureThreshold'], { min: 0, max: MAX_INT32 }) || 3,
    terminationGracePeriodSeconds: r.int(['terminationGracePeriodSeconds'], { min: 1 }),
    command,
    host: handler === 'httpGet' ? r.string('httpGet', 'host') : handler === 'tcpSocket' ? r.string('tcpSocket', 'host') : undefined,
  };
}

/** The port an httpGet or tcpSocket handler asks (required; a number or a port name), and a gRPC probe's number. */
function checkPort(r: FieldReader, handler: string): void {
  if (handler === 'httpGet' || handler === 'tcpSocket') r.portNumberOrName(handler, 'port');
  if (handler === 'grpc' && !r.has('grpc', 'port')) r.report(['grpc', 'port'], `${r.fullPath('grpc', 'port')} is required.`);
  else if (handler === 'grpc') r.int(['grpc', 'port'], { min: 1, max: 65535 });
}

function readLifecycleHandler(r: FieldReader): LifecycleHandler | undefined {
  if (!r.has() || !r.isObject()) return undefined;
  const handler = (['exec', 'httpGet', 'tcpSocket', 'sleep'] as const).find((h) => r.has(h)) ?? 'none';
  checkPort(r, handler);
  return {
    handler,
    command: handler === 'exec' ? r.stringList('exec', 'command') : [],
    sleepSeconds: handler === 'sleep' ? r.int(['sleep', 'seconds']) : undefined,
  };
}

const VOLUME_SOURCES: VolumeSource[] = [
  'persistentVolumeClaim', 'emptyDir', 'hostPath', 'configMap', 'secret', 'projected', 'downwardAPI', 'ephemeral', 'csi', 'nfs',
];

/**
 * In-tree cloud disks written inline, and the fields that name the disk. CSI migration gives each
 * the access mode of a ReadWriteOnce volume (a read-only GCE disk: ReadOnlyMany), and the
 * attach-detach controller never multi-attaches an Azure or Cinder disk (IsMultiAttachAllowed),
 * so a replacement elsewhere waits for the detach. iSCSI, FC and RBD written inline have no access
 * mode and are attached anywhere at once.
 */
const INLINE_DISKS: Readonly<Record<string, readonly string[]>> = {
  gcePersistentDisk: ['pdName'],
  awsElasticBlockStore: ['volumeID'],
  azureDisk: ['diskURI', 'diskName'],
  cinder: ['volumeID'],
  vsphereVolume: ['volumePath'],
};

/** How messages and the simulator's volumes name an inline disk: "gcePersistentDisk mongo-disk". */
export function diskName(disk: InlineDisk): string {
  return `${disk.type} ${disk.id}`;
}

function readDisk(r: FieldReader): InlineDisk | undefined {
  const type = Object.keys(INLINE_DISKS).find((t) => isPlainObject(r.raw(t)));
  if (!type) return undefined;
  const parts = INLINE_DISKS[type].map((field) => r.raw(type, field)).filter((v) => v !== undefined && v !== null).map(String);
  return { type, id: parts.join('/') || r.string('name') || type, exclusive: !(type === 'gcePersistentDisk' && r.raw(type, 'readOnly') === true) };
}

function readVolume(r: FieldReader): Volume {
  const disk = readDisk(r);
  const source = disk ? 'disk' : VOLUME_SOURCES.find((s) => r.raw(s) !== undefined) ?? 'other';
  return {
    disk,
    at: r.index,
    name: r.string('name') ?? '',
    source,
    claimName: source === 'persistentVolumeClaim' ? r.string('persistentVolumeClaim', 'claimName') : undefined,
    emptyDirSizeLimitBytes: source === 'emptyDir' ? r.quantity('emptyDir', 'sizeLimit') : undefined,
    emptyDirMedium: source === 'emptyDir' ? r.string('emptyDir', 'medium') : undefined,
    hostPath: source === 'hostPath' ? r.string('hostPath', 'path') : undefined,
  };
}

export function readPvcSpec(r: FieldReader, name: string, namespace: string): PersistentVolumeClaimSpec {
  return {
    name,
    namespace,
    accessModes: r.stringList('accessModes'),
    storageClassName: r.string('storageClassName'),
    volumeName: r.string('volumeName'),
    requestsBytes: r.quantity('resources', 'requests', 'storage'),
  };
}
