/** New pod objects for the workload controllers, named the way Kubernetes names them. */
import type { PodTemplateSim, SimClaim, SimPod, SimWorkload } from './objects';
import { MAX_GENERATE_NAME_PREFIX } from '../manifest/limits';
import { hash32, shortNameSuffix } from './random';

/** The next pod name of a workload: name-N for StatefulSets, generateName plus a suffix otherwise. */
export function podName(workload: SimWorkload, ordinal?: number): string {
  if (workload.kind === 'Pod') return workload.name;
  if (ordinal !== undefined) return `${workload.name}-${ordinal}`;
  const suffix = shortNameSuffix(`${workload.namespace}/${workload.name}#`, workload.created);
  const generateName = workload.kind === 'Deployment' ? `${workload.name}-${workload.podTemplateHash}-` : `${workload.name}-`;
  return `${generateName.slice(0, MAX_GENERATE_NAME_PREFIX)}${suffix}`;
}

export function newPod(
  workload: SimWorkload, uid: number, now: number, claims: readonly SimClaim[], ordinal?: number, template: PodTemplateSim = workload.template,
): SimPod {
  const name = podName(workload, ordinal);
  // Every field is present from the start, so all pods share one object shape.
  const pod: SimPod = {
    uid,
    name,
    ref: { kind: 'Pod', name, namespace: workload.namespace },
    interval: undefined,
    namespace: workload.namespace,
    owner: workload,
    ordinal,
    template,
    claims,
    createdAt: now,
    nodeName: undefined,
    node: undefined,
    nodeSlot: -1,
    phase: 'Pending',
    reason: undefined,
    readyCondition: false,
    notReadySince: undefined,
    disruptionTarget: undefined,
    containerState: 'waiting',
    containerReason: undefined,
    containersReady: false,
    restartCount: 0,
    ip: undefined,
    deletionTimestamp: undefined,
    deletionGracePeriodSeconds: undefined,
    removed: false,
    pendingMessage: undefined,
    nominatedNode: undefined,
    cachedOn: undefined,
    spreadCounted: false,
    preemptionMightHelp: false,
    running: false,
    appReady: false,
    affected: false,
    replacement: false,
    ipChanged: false,
    countedReady: false,
    countedServing: false,
    countedBlackholed: false,
    countedRunning: false,
  };
  workload.created++;
  return pod;
}

/** A pod as it is in a healthy cluster before the failure: bound, running and ready. */
export function markRunning(pod: SimPod, ip: string): void {
  pod.phase = 'Running';
  pod.containerState = 'running';
  pod.containersReady = true;
  pod.readyCondition = true;
  pod.running = true;
  pod.appReady = true;
  pod.ip = ip;
}

/** The pod's metadata.uid as the API shows it (a UUID), made from its identity so that runs repeat. */
export function podUid(pod: SimPod): string {
  const key = `${pod.namespace}/${pod.name}#${pod.uid}`;
  const hex = [0, 1, 2, 3].map((i) => hash32(`${key}:${i}`).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16], 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
