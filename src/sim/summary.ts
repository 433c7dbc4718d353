/**
 * The per-workload summary of a run: when the key transitions happened, how long users were
 * without (or short of) the workload, and in one sentence what state it ended in and why.
 */
import { formatDuration } from '../manifest/duration';
import { podStatus } from './kubectl';
import type { ServingMetrics } from './metrics';
import type { SimNode, SimPod, SimWorkload } from './objects';
import type { Store } from './store';
import type { ObjectRef, TraceEvent } from './trace';

export type Outcome = 'unaffected' | 'recovered' | 'replaced' | 'stuck' | 'pending';

export interface WorkloadSummary {
  object: ObjectRef;
  desiredReplicas: number;
  nodeNotReadyMs: number | null;
  podsNotReadyMs: number | null;
  noExecuteTaintMs: number | null;
  podDeletionMs: number | null;
  replacementCreatedMs: number | null;
  replacementReadyMs: number | null;
  unavailableMs: number;
  degradedMs: number;
  blackholeMs: number;
  /** Time with more copies running than desired (old pods still running on a cut-off node). */
  duplicateMs: number;
  outcome: Outcome;
  reason: string;
}

export interface Summary {
  failedNodes: string[];
  workloads: WorkloadSummary[];
}

/** The pod events the summary's times come from. */
const POD_MILESTONES: ReadonlySet<TraceEvent['type']> = new Set(['PodCondition', 'PodDeletionStarted', 'PodRemoved', 'PodCreated', 'PodReady']);

const RELEASE = 'force-delete the pod (kubectl delete pod --force --grace-period=0), delete the Node object, or taint the node node.kubernetes.io/out-of-service=nodeshutdown:NoExecute';

export function summarize(store: Store, metrics: ServingMetrics, events: readonly TraceEvent[], failedNodes: readonly SimNode[]): Summary {
  // One pass over the events since the failure: the first time of each key transition.
  const podByRef = new Map<ObjectRef, SimPod>();
  for (const workload of store.touchedWorkloads) for (const pod of workload.pods) if (pod.affected || pod.replacement) podByRef.set(pod.ref, pod);
  const nodeNotReadyAt = new Map<string, number>();
  const noExecuteAt = new Map<string, number>();
  const firstAt = new Map<SimWorkload, { podsNotReady?: number; deletion?: number; created?: number }>();
  const readyAt = new Map<SimPod, number>();
  const earliestOf = (workload: SimWorkload) => {
    let times = firstAt.get(workload);
    if (!times) firstAt.set(workload, (times = {}));
    return times;
  };
  for (const e of events) {
    if (e.t < 0) continue;
    if (e.type === 'NodeCondition' && e.detail?.status !== 'True') {
      if (!nodeNotReadyAt.has(e.object.name)) nodeNotReadyAt.set(e.object.name, e.t);
      continue;
    }
    if (e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute') {
      if (!noExecuteAt.has(e.object.name)) noExecuteAt.set(e.object.name, e.t);
      continue;
    }
    if (!POD_MILESTONES.has(e.type)) continue;
    const pod = podByRef.get(e.object);
    if (!pod?.owner) continue;
    const times = earliestOf(pod.owner);
    if (pod.affected && e.type === 'PodCondition' && e.detail?.type === 'Ready') times.podsNotReady ??= e.t;
    if (pod.affected && (e.type === 'PodDeletionStarted' || e.type === 'PodRemoved')) times.deletion ??= e.t;
    if (pod.replacement && e.type === 'PodCreated') times.created ??= e.t;
    if (pod.replacement && e.type === 'PodReady' && !readyAt.has(pod)) readyAt.set(pod, e.t);
  }
  const over = <T>(pick: (a: number, b: number) => number) => (items: Iterable<T>, time: (item: T) => number | undefined): number | null => {
    let result: number | null = null;
    for (const item of items) {
      const t = time(item);
      if (t !== undefined) result = result === null ? t : pick(result, t);
    }
    return result;
  };
  const minOver = over<string>(Math.min);
  const maxOver = over<SimPod>(Math.max);
  const failed = new Set(failedNodes);
  const failedNames = failedNodes.length <= 5 ? failedNodes.map((n) => n.name).join(', ') : `the ${failedNodes.length.toLocaleString('en-US')} failed nodes`;

  const workloads = store.workloads.map((workload): WorkloadSummary => {
    const affected: SimPod[] = [];
    const replacements: SimPod[] = [];
    const pods = store.touchedWorkloads.has(workload) ? workload.pods : [];
    for (const pod of pods) {
      if (pod.affected) affected.push(pod);
      if (pod.replacement) replacements.push(pod);
    }
    const affectedNodes = new Set(affected.map((p) => p.nodeName!));
    const times = firstAt.get(workload) ?? {};
    const totals = metrics.totals(workload);
    const summary: WorkloadSummary = {
      object: workload.ref,
      desiredReplicas: workload.desired,
      nodeNotReadyMs: minOver(affectedNodes, (n) => nodeNotReadyAt.get(n)),
      podsNotReadyMs: times.podsNotReady ?? null,
      noExecuteTaintMs: minOver(affectedNodes, (n) => noExecuteAt.get(n)),
      podDeletionMs: times.deletion ?? null,
      replacementCreatedMs: times.created ?? null,
      // When the last of the replacements that are Ready at the end became Ready.
      replacementReadyMs: maxOver(replacements.filter((p) => !p.removed && p.readyCondition), (p) => readyAt.get(p)),
      unavailableMs: totals.unavailableMs,
      degradedMs: totals.degradedMs,
      blackholeMs: totals.blackholeMs,
      duplicateMs: totals.duplicateMs,
      outcome: 'unaffected',
      reason: '',
    };
    Object.assign(summary, outcomeOf(workload, affected, replacements, totals.serving, failed, failedNames, summary));
    return summary;
  });
  return { failedNodes: failedNodes.map((n) => n.name), workloads };
}

function outcomeOf(
  workload: SimWorkload, affected: SimPod[], replacements: SimPod[], servingAtEnd: number,
  failed: ReadonlySet<SimNode>, failedNames: string, s: WorkloadSummary,
): { outcome: Outcome; reason: string } {
  const at = (ms: number | null) => (ms === null ? '?' : formatDuration(ms));
  if (affected.length === 0 && replacements.length === 0) {
    // When every pod is Ready, none is Pending: no need to look.
    const pending = workload.readyPods < workload.pods.length ? workload.pods.find((p) => !p.removed && p.nodeName === undefined) : undefined;
    if (pending) return { outcome: 'pending', reason: `${pending.name} was Pending before the failure: ${pending.pendingMessage ?? 'not scheduled'}` };
    return { outcome: 'unaffected', reason: `No pod of ${workload.kind}/${workload.name} ran on ${failedNames || 'the failed nodes'}.` };
  }
  const affectedNodes = [...new Set(affected.map((p) => p.nodeName))];
  const where = affectedNodes.length <= 5 ? affectedNodes.join(', ') : `${affectedNodes.length.toLocaleString('en-US')} failed nodes`;
  if (servingAtEnd >= workload.desired) {
    if (replacements.length > 0) {
      const ready = replacements.filter((p) => !p.removed && p.readyCondition);
      const nodes = [...new Set(ready.map((p) => p.nodeName))].join(', ');
      return {
        outcome: 'replaced',
        reason: `Its pod${affected.length > 1 ? 's' : ''} on ${where} ${affected.length > 1 ? 'were' : 'was'} deleted at ${at(s.podDeletionMs)} and replaced on ${nodes}, Ready at ${at(s.replacementReadyMs)}; down ${formatDuration(s.unavailableMs)} in all${s.duplicateMs > 0 ? `, with old copies still running on the cut-off node for ${formatDuration(s.duplicateMs)}` : ''}.`,
      };
    }
    const restarted = affected.some((p) => p.restartCount > 0);
    return {
      outcome: 'recovered',
      reason: `${where} came back before its pods were replaced; they ${restarted ? 'restarted in place with a new IP' : 'were re-adopted by the kubelet'}; down ${formatDuration(s.unavailableMs)} in all.`,
    };
  }
  const live = workload.pods.filter((p) => !p.removed);
  const pending = live.find((p) => p.nodeName === undefined && p.deletionTimestamp === undefined);
  if (pending) {
    return { outcome: 'pending', reason: `Replacement ${pending.name} stays Pending: ${pending.pendingMessage ?? 'not scheduled yet'}` };
  }
  const stuckPod = affected.find((p) => !p.removed && p.node !== undefined && failed.has(p.node));
  if (workload.kind === 'DaemonSet' && stuckPod) {
    return { outcome: 'stuck', reason: `DaemonSet pods tolerate the node taints forever: ${stuckPod.name} is never evicted or moved and serves again only when ${stuckPod.nodeName} returns (expected for a DaemonSet).` };
  }
  const waiting = live.find((p) => p.replacement && p.containerReason === 'ContainerCreating' && p.nodeName !== undefined);
  if (waiting) {
    const volume = waiting.claims.find((c) => c.volume?.attachedTo !== undefined && c.volume.attachedTo !== waiting.nodeName)?.volume;
    if (volume) {
      return { outcome: 'stuck', reason: `Replacement ${waiting.name} waits in ContainerCreating on ${waiting.nodeName}: its ReadWriteOnce volume ${volume.name} is still attached to ${volume.attachedTo} (Multi-Attach error) and is only detached once the old pod object is gone (then after up to 6 minutes), or at once with the out-of-service taint; ${RELEASE}.` };
    }
  }
  if (stuckPod && stuckPod.deletionTimestamp === undefined) {
    return { outcome: 'stuck', reason: `${stuckPod.name} still counts as running on ${stuckPod.nodeName} (${podStatus(stuckPod)} in the API) at the end: it has not been evicted yet (tolerationSeconds counts from the NoExecute taint${s.noExecuteTaintMs !== null ? ` at ${formatDuration(s.noExecuteTaintMs)}` : ''}); simulate longer to see what follows.` };
  }
  if (stuckPod && workload.kind === 'StatefulSet') {
    const local = stuckPod.claims.find((c) => c.volume?.local)?.volume;
    const pinned = local ? ` Its local volume ${local.name} is only on ${stuckPod.nodeName}, so even then the new ${stuckPod.name} can only run there and stays Pending until the node returns.` : '';
    return { outcome: 'stuck', reason: `${stuckPod.name} stays Terminating on the unreachable node ${stuckPod.nodeName}: a StatefulSet never creates a second ${stuckPod.name} while the old object exists. To release it, ${RELEASE}.${pinned}` };
  }
  if (stuckPod && workload.kind === 'Pod') {
    return { outcome: 'stuck', reason: `A bare Pod is never recreated: ${stuckPod.name} stays Terminating on ${stuckPod.nodeName} until the node returns; run it under a Deployment or StatefulSet.` };
  }
  if (workload.kind === 'Job' && workload.failures > 0 && live.every((p) => p.deletionTimestamp !== undefined)) {
    return { outcome: 'stuck', reason: `The Job counted ${workload.failures} failed pod${workload.failures > 1 ? 's' : ''} and does not create more (backoff or backoffLimit).` };
  }
  const starting = live.find((p) => p.replacement && !p.readyCondition);
  if (starting) {
    return { outcome: 'stuck', reason: `Replacement ${starting.name} on ${starting.nodeName ?? '(unscheduled)'} is not Ready by the end (${podStatus(starting)}).` };
  }
  return { outcome: 'stuck', reason: `Fewer than ${workload.desired} pods serve at the end; pods on ${where} do not answer.` };
}
