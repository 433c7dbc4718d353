/** Facts about workloads that several rules, hovers and lenses need: where their pod spec is written, what they mount, how they tolerate. */
import type { PathSegment } from '../manifest/path';
import type { Container, PodDisruptionBudget, Resources, Service, Sourced, Toleration, Workload } from '../manifest/model/types';
import { fillUnset } from '../manifest/model/resources';
import { podVolumes } from '../manifest/model/workloads';
import type { ManifestModel } from '../manifest/model';
import type { Range } from '../manifest/range';
import { NodeKind } from '../manifest/sourceMap';
import { matchesLabelSelector } from '../sim/selectors';
import { ServiceIndex } from '../sim/serviceIndex';
import { toleratesTaint } from '../sim/tolerations';

export const UNREACHABLE = 'node.kubernetes.io/unreachable';
export const NOT_READY = 'node.kubernetes.io/not-ready';

/** Path from the object to its pod template (metadata + spec); [] for a bare Pod. */
export function templatePath(workload: Workload): PathSegment[] {
  switch (workload.kind) {
    case 'Pod': return [];
    case 'CronJob': return ['spec', 'jobTemplate', 'spec', 'template'];
    default: return ['spec', 'template'];
  }
}

export function podSpecPath(workload: Workload): PathSegment[] {
  return [...templatePath(workload), 'spec'];
}

/**
 * What the LimitRanger admission plugin gives a container of the workload's namespace that sets
 * none: the LimitRanges of the input there, the first to default a resource deciding it.
 */
export function limitRangeDefaults(workload: Workload, model: Pick<ManifestModel, 'limitRanges'>): { limits: Resources; requests: Resources } {
  const limits: Resources = {};
  const requests: Resources = {};
  for (const range of model.limitRanges) {
    if (range.namespace !== workload.namespace) continue;
    fillUnset(limits, range.defaultLimits);
    fillUnset(requests, range.defaultRequests);
  }
  return { limits, requests };
}

/** A container as messages name it: its name, or its place when the name is not one (KFS092 says why). */
export function containerName(container: Pick<Container, 'name' | 'at'>): string {
  return container.name || `number ${(container.at ?? 0) + 1}`;
}

export function kindRange(workload: Sourced<Workload>): Range {
  return workload.source.sourceMap.closestRange(['kind']);
}

/**
 * The most specific range for a field: a scalar's value, a collection's key (not its whole
 * block), or, when the field is not written, the key of the nearest ancestor that is.
 */
export function rangeOf(workload: Sourced<Workload>, path: PathSegment[]): Range {
  const map = workload.source.sourceMap;
  const node = map.node(path);
  if (node && node.kind !== NodeKind.Scalar && node.keyStart >= 0) return map.keyRange(path)!;
  return map.closestRange(path);
}

export function isWritten(workload: Sourced<Workload>, path: PathSegment[]): boolean {
  return workload.source.sourceMap.node(path) !== undefined;
}

/**
 * The written tolerations that decide how long a pod stays on a failed node, with their index in
 * the list: for the unreachable and the not-ready NoExecute taint, the first toleration that
 * tolerates it (operator and value included), as the taint eviction controller picks them
 * (GetMatchingTolerations). A later `operator: Exists` never decides for these taints.
 */
export function nodeFailureTolerations(workload: Workload): { toleration: Toleration; index: number }[] {
  const tolerations = workload.template.spec.tolerations;
  const deciding = new Set<number>();
  for (const key of [UNREACHABLE, NOT_READY]) {
    const index = tolerations.findIndex((toleration) => toleratesTaint(toleration, { key, value: '', effect: 'NoExecute' }));
    if (index >= 0) deciding.add(index);
  }
  return [...deciding].sort((a, b) => a - b).map((index) => ({ toleration: tolerations[index], index: tolerations[index].at ?? index }));
}

export interface NodeBoundData {
  /** "emptyDir cache", "hostPath /var/data", "local volume pv-1". */
  description: string;
  volumeIndex?: number;
}

/** Host paths that hold the node's own files (devices, sockets, system directories), not an application's data. */
const SYSTEM_HOST_PATH = /^\/(dev|proc|sys|etc|usr|lib|lib64|boot|bin|sbin|run|var\/run|var\/log|var\/lib\/(docker|kubelet|containerd))(\/|$)|\.sock$/;

export function holdsAppData(hostPath: string | undefined): boolean {
  return hostPath !== undefined && hostPath !== '/' && !SYSTEM_HOST_PATH.test(hostPath);
}

/** Volumes whose data lives on the node: lost (emptyDir) or stranded (hostPath, local PV) when the pod moves. */
export function nodeBoundData(workload: Workload, objects: ManifestModel): NodeBoundData[] {
  const data: NodeBoundData[] = [];
  podVolumes(workload).forEach(({ volume, index: volumeIndex }) => {
    if (volume.source === 'emptyDir' && volume.emptyDirMedium !== 'Memory') data.push({ description: `emptyDir ${volume.name}`, volumeIndex });
    if (volume.source === 'hostPath' && holdsAppData(volume.hostPath)) data.push({ description: `hostPath ${volume.hostPath ?? volume.name}`, volumeIndex });
    if (volume.source === 'persistentVolumeClaim' && volume.claimName) {
      const pv = localVolumeOf(workload.namespace, volume.claimName, objects);
      if (pv) data.push({ description: `local volume ${pv.name}`, volumeIndex });
    }
  });
  if (workload.kind === 'StatefulSet') {
    for (const template of workload.volumeClaimTemplates) if (isLocalClass(template.storageClassName, objects)) data.push({ description: `local volume claim ${template.name}` });
  }
  return data;
}

/** The local (node-pinned) PersistentVolume a claim is bound to, if the workspace has it. */
export function localVolumeOf(namespace: string, claimName: string, objects: ManifestModel) {
  return nodeLocal(volumeOfClaim(namespace, claimName, objects));
}

/** The volume if it exists on one node only (a local PV, or any PV with node affinity). */
export function nodeLocal<T extends { local: boolean; nodeAffinity: readonly unknown[] }>(pv: T | undefined): T | undefined {
  return pv && (pv.local || pv.nodeAffinity.length > 0) ? pv : undefined;
}

/** The PersistentVolumeClaim of the input with that name in that namespace. */
export function claimOf(namespace: string, claimName: string, objects: Pick<ManifestModel, 'persistentVolumeClaims'>) {
  return objects.persistentVolumeClaims.find((c) => c.namespace === namespace && c.name === claimName);
}

/** The PersistentVolume of the input a claim is bound to (by the claim's volumeName or the volume's claimRef). */
export function volumeOfClaim(namespace: string, claimName: string, objects: ManifestModel) {
  const claim = claimOf(namespace, claimName, objects);
  return objects.persistentVolumes.find((v) => (claim?.volumeName !== undefined && v.name === claim.volumeName)
    || (v.claimRef?.name === claimName && v.claimRef.namespace === namespace));
}

const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

export function isLocalClass(className: string | undefined, objects: ManifestModel): boolean {
  const storageClass = className === undefined ? objects.storageClasses.find((c) => c.isDefault) : objects.storageClasses.find((c) => c.name === className);
  return storageClass?.provisioner === NO_PROVISIONER;
}

const serviceIndexes = new WeakMap<readonly Service[], ServiceIndex<Service>>();

/**
 * The Services whose selector picks the workload's pods, in their order, through an index kept per
 * list of Services: checking each of thousands of workloads against every Service costs N².
 */
export function servicesInFront<S extends Service>(workload: Workload, services: readonly S[]): S[] {
  let index = serviceIndexes.get(services);
  if (!index) serviceIndexes.set(services, (index = new ServiceIndex<Service>(services)));
  return index.selecting(workload.namespace, workload.template.labels) as S[];
}

/**
 * Whether a PodDisruptionBudget selects the workload's pods. An empty selector selects every pod
 * of the namespace in policy/v1, none in policy/v1beta1 (PodDisruptionBudgetSpec.selector).
 */
export function budgetSelects(pdb: Sourced<PodDisruptionBudget>, workload: Workload): boolean {
  if (workload.namespace !== pdb.namespace) return false;
  const empty = Object.keys(pdb.selector.matchLabels).length === 0 && pdb.selector.matchExpressions.length === 0;
  return empty ? pdb.source.apiVersion === 'policy/v1' : matchesLabelSelector(pdb.selector, workload.template.labels);
}

/** Whether an inter-pod (anti-)affinity term of the workload picks namespaces by their labels: Namespace objects matter to it then. */
export function selectsNamespacesByLabel(workload: Workload): boolean {
  const { podAffinityRequired, podAntiAffinityRequired, podAffinityPreferred, podAntiAffinityPreferred } = workload.template.spec.affinity;
  return [...podAffinityRequired, ...podAntiAffinityRequired, ...[...podAffinityPreferred, ...podAntiAffinityPreferred].map((p) => p.term)]
    .some((term) => term.namespaceSelector !== undefined);
}
