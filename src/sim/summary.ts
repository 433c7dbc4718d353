/**
 * The per-workload summary of a run: when the key transitions happened, how long users were
 * without (or short of) the workload, and in one sentence what state it ended in and why.
 */
import { formatDuration } from '../manifest/duration';
import { podStatus } from './kubectl';
import type { ServingMetrics } from './metrics';
import { workloadRef, type SimNode, type SimPod, type SimWorkload } from './objects';
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

const RELEASE = 'force-delete the pod (kubectl delete pod --force --grace-period=0), delete the Node object, or taint the node node.kubernetes.io/out-of-service=nodeshutdown:NoExecute';

export function summarize(store: Store, metrics: ServingMetrics, events: readonly TraceEvent[], failedNodes: readonly SimNode[]): Summary {
  const byObject = new Map<string, TraceEvent[]>();
  for (const event of events) {
    if (event.t < 0) continue;
    const key = `${event.object.kind}/${event.object.namespace}/${event.object.name}`;
    let list = byObject.get(key);
    if (!list) byObject.set(key, (list = []));
    list.push(event);
  }
  const first = (object: ObjectRef, match: (e: TraceEvent) => boolean) =>
    byObject.get(`${object.kind}/${object.namespace}/${object.name}`)?.find(match)?.t ?? null;
  const earliest = (times: (number | null)[]) => {
    const present = times.filter((t): t is number => t !== null);
    return present.length > 0 ? Math.min(...present) : null;
  };
  const nodeRefOf = (name: string) => ({ kind: 'Node', name, namespace: '' });

  const workloads = store.workloads.map((workload): WorkloadSummary => {
    const pods = [...workload.pods];
    const affected = pods.filter((p) => p.affected);
    const affectedNodes = [...new Set(affected.map((p) => p.nodeName!))];
    const podRefOf = (p: SimPod) => ({ kind: 'Pod', name: p.name, namespace: p.namespace });
    const replacements = pods.filter((p) => p.replacement);
    const readyTimes = replacements.map((p) => first(podRefOf(p), (e) => e.type === 'PodReady'));
    const totals = metrics.totals(workload);
    const summary: WorkloadSummary = {
      object: workloadRef(workload),
      desiredReplicas: workload.desired,
      nodeNotReadyMs: earliest(affectedNodes.map((n) => first(nodeRefOf(n), (e) => e.type === 'NodeCondition' && e.detail?.status !== 'True'))),
      podsNotReadyMs: earliest(affected.map((p) => first(podRefOf(p), (e) => e.type === 'PodCondition' && e.detail?.type === 'Ready'))),
      noExecuteTaintMs: earliest(affectedNodes.map((n) => first(nodeRefOf(n), (e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute'))),
      podDeletionMs: earliest(affected.map((p) => first(podRefOf(p), (e) => e.type === 'PodDeletionStarted' || e.type === 'PodRemoved'))),
      replacementCreatedMs: earliest(replacements.map((p) => first(podRefOf(p), (e) => e.type === 'PodCreated'))),
      replacementReadyMs: null,
      unavailableMs: totals.unavailableMs,
      degradedMs: totals.degradedMs,
      blackholeMs: totals.blackholeMs,
      duplicateMs: totals.duplicateMs,
      outcome: 'unaffected',
      reason: '',
    };
    const readyReplacements = replacements.filter((p, i) => !p.removed && p.readyCondition && readyTimes[i] !== null);
    if (readyReplacements.length > 0) {
      summary.replacementReadyMs = Math.max(...readyReplacements.map((p) => readyTimes[replacements.indexOf(p)]!));
    }
    Object.assign(summary, outcomeOf(workload, affected, replacements, totals.serving, failedNodes, summary));
    return summary;
  });
  return { failedNodes: failedNodes.map((n) => n.name), workloads };
}

function outcomeOf(
  workload: SimWorkload, affected: SimPod[], replacements: SimPod[], servingAtEnd: number,
  failedNodes: readonly SimNode[], s: WorkloadSummary,
): { outcome: Outcome; reason: string } {
  const at = (ms: number | null) => (ms === null ? '?' : formatDuration(ms));
  if (affected.length === 0 && replacements.length === 0) {
    const pending = [...workload.pods].find((p) => !p.removed && p.nodeName === undefined);
    if (pending) return { outcome: 'pending', reason: `${pending.name} was Pending before the failure: ${pending.pendingMessage ?? 'not scheduled'}` };
    return { outcome: 'unaffected', reason: `No pod of ${workload.kind}/${workload.name} ran on ${failedNodes.map((n) => n.name).join(', ') || 'the failed nodes'}.` };
  }
  const where = [...new Set(affected.map((p) => p.nodeName))].join(', ');
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
  const live = [...workload.pods].filter((p) => !p.removed);
  const pending = live.find((p) => p.nodeName === undefined && p.deletionTimestamp === undefined);
  if (pending) {
    return { outcome: 'pending', reason: `Replacement ${pending.name} stays Pending: ${pending.pendingMessage ?? 'not scheduled yet'}` };
  }
  const stuckPod = affected.find((p) => !p.removed && p.nodeName !== undefined && failedNodes.some((n) => n.name === p.nodeName));
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
    return { outcome: 'stuck', reason: `${stuckPod.name} stays Terminating on the unreachable node ${stuckPod.nodeName}: a StatefulSet never creates a second ${stuckPod.name} while the old object exists. To release it, ${RELEASE}.` };
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
