/** New pod objects for the workload controllers, named the way Kubernetes names them. */
import type { PodTemplateSim, SimClaim, SimPod, SimWorkload } from './objects';
import { MAX_GENERATE_NAME_PREFIX } from '../manifest/limits';
import { shortNameSuffix } from './random';

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
