/** New pod objects for the workload controllers, named the way Kubernetes names them. */
import type { PodTemplateSim, SimClaim, SimPod, SimWorkload } from './objects';
import { nameSuffix } from './random';

/** The next pod name of a workload: name-N for StatefulSets, generateName plus a suffix otherwise. */
export function podName(workload: SimWorkload, ordinal?: number): string {
  if (workload.kind === 'Pod') return workload.name;
  if (ordinal !== undefined) return `${workload.name}-${ordinal}`;
  const suffix = nameSuffix(`${workload.namespace}/${workload.name}#${workload.created}`, 5);
  return workload.kind === 'Deployment' ? `${workload.name}-${workload.podTemplateHash}-${suffix}` : `${workload.name}-${suffix}`;
}

export function newPod(
  workload: SimWorkload, uid: number, now: number, claims: SimClaim[], ordinal?: number, template: PodTemplateSim = workload.template,
): SimPod {
  const name = podName(workload, ordinal);
  const pod: SimPod = {
    uid,
    name,
    ref: { kind: 'Pod', name, namespace: workload.namespace },
    namespace: workload.namespace,
    owner: workload,
    ordinal,
    template,
    claims,
    createdAt: now,
    nodeSlot: -1,
    phase: 'Pending',
    readyCondition: false,
    containerState: 'waiting',
    containersReady: false,
    restartCount: 0,
    removed: false,
    running: false,
    appReady: false,
    affected: false,
    replacement: false,
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
