/**
 * The per-workload summary of a run: when the key transitions happened, how long users were
 * without (or short of) the workload, what state it ended in, and the facts that explain it
 * (src/report words them).
 */
import { zoneName } from '../cluster/clusterSpec';
import { isMirrorPod } from '../manifest/model/workloads';
import { MAX_DURATION_MS } from '../manifest/limits';
import type { Job, Taint } from '../manifest/model/types';
import { podStatus } from './kubectl';
import type { InitialPlacement, Placement } from './scenario';
import type { ServingMetrics } from './metrics';
import { isActive, type SimNode, type SimPod, type SimWorkload } from './objects';
import { matchingTolerations, minTolerationMs, NOT_READY, OUT_OF_SERVICE, UNREACHABLE } from './tolerations';
import type { Store } from './store';
import { replacementLimit } from './workloadController';
import type { ObjectRef, TraceEvent } from './trace';

/**
 * What the failure did to a workload. `tolerated`: a pod tolerates the node's NoExecute taint
 * forever and stays bound to the dead node; `waits-for-node`: a DaemonSet pod waits for its node;
 * `awaiting-eviction`: a pod is still bound to a failed node and will be evicted later.
 */
export type Outcome = 'unaffected' | 'recovered' | 'replaced' | 'stuck' | 'pending' | 'tolerated' | 'waits-for-node' | 'awaiting-eviction' | 'lost';

/** An affected pod that ended in phase Failed before any deletion (a graceful node shutdown: reason Terminated, SEMANTICS.md 2.4). */
export interface PodFailure {
  pod: string;
  reason: string | null;
  /** The container's terminated reason: `Unknown` when a reboot lost it (containerd). */
  containerReason: string | null;
  atMs: number;
}

/**
 * Why a workload ended as it did: the facts a sentence needs, no sentence. A cause about one pod
 * still bound to a failed node (waitingOnNode) counts in `alsoWaiting` the workload's other pods there.
 */
export type OutcomeCause = { alsoWaiting?: number } & (
  | { kind: 'not-on-failed-nodes'; failedNodes: string[] }
  /** `pods` on `nodes` were replaced; pods on `backOn` came back with their node instead (staggered failures). */
  | { kind: 'replaced'; pods: number; nodes: string[]; replacedOn: string[]; failed: PodFailure | null; backOn: string[]; lastDeletionMs: number | null; retaintedMs: number | null; takeoverMs?: number }
  /** `pod`: the first pod on those nodes, `pods` how many; `daemon`: a DaemonSet's, which nothing replaces. */
  | { kind: 'recovered'; nodes: string[]; pod: string; pods: number; daemon: boolean; restarted: boolean; newIp: boolean }
  /** `priorityClass`: the pod's, a class the input does not declare: preemption could make room, but the simulator cannot tell the class's value. */
  | { kind: 'replacement-pending'; pod: string; message: string | null; priorityClass?: string }
  /** None of its pods was on a failed node, but the scheduler deleted `pod` to make room for a pod of a higher priority; `pending`: its replacement's FailedScheduling. */
  | { kind: 'preempted'; pod: string; node: string; replacement: { pod: string; message: string | null } | null; replacedOn: string[] }
  /** `pod` on `node`, the first of `nodes` (every down node with a pod of the DaemonSet). */
  | { kind: 'daemon-pod-waits'; pod: string; node: string; nodes: string[]; serving: boolean }
  /** The out-of-service taint evicted a daemon pod (the DaemonSet's default tolerations leave it out); removed at `removedMs`. */
  | { kind: 'daemon-out-of-service'; pod: string; node: string; removedMs: number | null }
  /**
   * A daemon pod on a down node deleted otherwise: `tolerationSeconds` when a written toleration
   * with seconds let the taint eviction controller evict it (it reads the first toleration matching
   * each taint, and the DaemonSet controller's come after the written ones), else by kubectl.
   */
  | { kind: 'daemon-pod-deleted'; pod: string; node: string; deletedMs: number | null; tolerationSeconds: number | null }
  /**
   * `outOfServiceInert`: before 1.26 the out-of-service taint releases nothing (NodeOutOfServiceVolumeDetach off);
   * `forceDetachAtMs`: the old pod is gone and the force detach comes then, after the run; `forceDetachDisabled`: it never comes.
   */
  | { kind: 'volume-attached-elsewhere'; pod: string; node: string; volume: string; attachedTo: string; inline?: true; outOfServiceInert?: true; forceDetachAtMs?: number; forceDetachDisabled?: true }
  /**
   * `leaderlessSinceMs`: the controller manager restarted then and no new leader holds its lease at the end.
   * `tolerationSeconds`: how long the pod tolerates the taint; `evictionAtMs`: when that runs out, after the run.
   * `retaintedMs` (here and in replaced): the NoExecute taint written anew; `takeoverMs`: the new leader's
   * takeover it followed, where tolerationSeconds counts from.
   */
  | { kind: 'not-evicted-yet'; pod: string; node: string; status: string; serving: boolean; retaintedMs: number | null; takeoverMs?: number; leaderlessSinceMs?: number; tolerationSeconds?: number; evictionAtMs?: number }
  /** `state`: the zone's, where its eviction rate is 0 (PartialDisruption's secondary rate, or --node-eviction-rate=0 in Normal and FullDisruption). */
  | { kind: 'evictions-stopped'; pod: string; node: string; zone: string; state: 'Normal' | 'PartialDisruption' | 'FullDisruption' | 'all-zones-down' }
  /** `tolerationSeconds`: a finite toleration longer than any run (MAX_DURATION_MS), in effect forever; absent, none at all. */
  | { kind: 'tolerates-forever'; pod: string; node: string; taint: string; serving: boolean; tolerationSeconds?: number }
  /** `readinessProbe`: whether a failing probe, rather than a container down between restarts, explains `podReady` false. */
  /** `answers`: the app answers at the end (a container restarted on the broken node works, sim.diskFailureRestartsHang false). */
  | { kind: 'node-ready-but-broken'; pod: string; node: string; podReady: boolean; readinessProbe: boolean; restarts: number; answers: boolean }
  /** The kubelet stopped renewing the lease, but the run ended before node-monitor-grace-period ran out. */
  | { kind: 'not-noticed-yet'; pod: string; node: string; lastRenewalMs: number; leaderlessSinceMs?: number }
  /** `runtimeDown`: the node's kubelet is alive but does not stop pods while its container runtime is down. */
  /** `shownAs`: kubectl's STATUS where it is not Terminating (Unknown: NodeLost, the legacy eviction up to 1.26). */
  | { kind: 'statefulset-identity'; pod: string; node: string; localVolume: string | null; runtimeDown?: true; shownAs?: string; outOfServiceInert?: true }
  | { kind: 'bare-pod'; pod: string; node: string; status: string }
  /** A static pod's mirror (SEMANTICS.md 6.5): only its node's kubelet runs it; never rescheduled. */
  | { kind: 'static-pod'; pod: string; node: string; status: string; nodeBack: boolean }
  /** A bare pod that ended Failed or whose object is gone: nothing runs it again (`lost`). */
  | { kind: 'bare-pod-lost'; pod: string; node: string; failed: PodFailure | null; removedMs: number | null; removedByKubelet: boolean; nodeBack: boolean }
  | { kind: 'job-backoff'; failures: number }
  /** A daemon pod whose Node object was deleted: pod GC removed it, and the DaemonSet runs on the nodes that remain. */
  | { kind: 'daemon-node-deleted'; pod: string; node: string; removedMs: number | null }
  /** The Job's Failed condition: its reason (BackoffLimitExceeded, PodFailurePolicy) and message. */
  | { kind: 'job-failed'; reason: string; message: string; atMs: number }
  | { kind: 'replacement-not-ready'; pod: string; node: string | null; status: string }
  /** spec.nodeName binds every replacement to `node`, which is down: `replacements` were created there and none runs. */
  | { kind: 'pinned-by-node-name'; node: string; replacements: number; limited: boolean }
  /** A Job that replaces a pod only once it is Failed (podReplacementPolicy: Failed, a podFailurePolicy): a dead node's pod never gets there. */
  | { kind: 'job-awaits-terminal-phase'; pod: string; node: string; policy: 'podReplacementPolicy' | 'podFailurePolicy' }
  | { kind: 'short-of-replicas'; nodes: string[] });

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
  /** Time with more copies running than desired (old pods still running on a failed node whose containers kept running). */
  duplicateMs: number;
  outcome: Outcome;
  cause: OutcomeCause;
  /** Pods that were already Pending at the failure instant: not the failure's doing, reported apart. */
  pendingBeforeFailure: { pods: number; pod: string; message: string | null } | null;
  /** Preemption the failure led to: this workload's pods deleted for pods of a higher priority (`lost`), others' pods deleted for its own (`took`); absent when none. */
  preemptions?: { lost: Preemption[]; took: Preemption[] };
}

/** The scheduler deleted `victim` (of `victimOf`) on `node` at `atMs` to make room for `preemptor` (of `preemptorOf`). */
export interface Preemption {
  victim: string;
  victimOf: ObjectRef;
  node: string;
  preemptor: string;
  preemptorOf: ObjectRef;
  atMs: number;
}

export interface Summary {
  failedNodes: string[];
  /** How pods were placed (--placement). */
  placement: Placement;
  /** How the pods running before the failure were placed: scored, or the first feasible node (large clusters). */
  initialPlacement: InitialPlacement;
  /** The nodes of each fault of the scenario, in its order. */
  failedNodesByFault: string[][];
  workloads: WorkloadSummary[];
}

/** Pods Pending (not bound) at the failure instant, per workload; called at t = 0. */
export type PendingAtFailure = Map<SimWorkload, NonNullable<WorkloadSummary['pendingBeforeFailure']>>;

export function pendingAtFailure(store: Store): PendingAtFailure {
  const pending: PendingAtFailure = new Map();
  for (const workload of store.workloads) {
    // When every pod is Ready, none is Pending: no need to look.
    if (workload.readyPods >= workload.pods.length) continue;
    const unbound = workload.pods.filter((p) => !p.removed && p.nodeName === undefined);
    // The scheduler's message as it was then, not what the failure made of it.
    if (unbound.length > 0) pending.set(workload, { pods: unbound.length, pod: unbound[0].name, message: unbound[0].pendingMessage ?? null });
  }
  return pending;
}

/** The pod events the summary's times come from. */
const POD_MILESTONES: ReadonlySet<TraceEvent['type']> = new Set(['PodCondition', 'PodDeletionStarted', 'PodRemoved', 'PodCreated', 'PodReady', 'PodFailed']);

export function summarize(
  store: Store, metrics: ServingMetrics, events: readonly TraceEvent[], failedNodes: readonly SimNode[],
  failedNodesByFault: readonly (readonly SimNode[])[] = [failedNodes], pendingBefore: PendingAtFailure = new Map(),
  placement: Placement = 'scheduler', initialPlacement: InitialPlacement = 'scored', outOfServiceTaint = true,
): Summary {
  // One pass over the events since the failure: the first time of each key transition.
  const podByRef = new Map<ObjectRef, SimPod>();
  for (const workload of store.touchedWorkloads) for (const pod of workload.pods) if (pod.affected || pod.replacement) podByRef.set(pod.ref, pod);
  const nodeNotReadyAt = new Map<string, number>();
  const noExecuteAt = new Map<string, number>();
  // Every NoExecute taint added per node: a new one (controller-manager restart, master disruption mode) restarts tolerationSeconds.
  const noExecuteTimes = new Map<string, number[]>();
  // The node's NoExecute taints now, and the last one removed: one swapped for another key (not-ready for unreachable) in one
  // update keeps the clock (processPodOnNode keeps a scheduled eviction's start); the same key removed and added is anew.
  const noExecuteKeys = new Map<string, Set<string>>();
  const noExecuteRemoved = new Map<string, { key: string; t: number }>();
  const firstAt = new Map<SimWorkload, { podsNotReady?: number; deletion?: number; created?: number }>();
  const readyAt = new Map<SimPod, number>();
  // Affected pods: when each first turned Failed (before any deletion), and when its object went away.
  const failedAt = new Map<SimPod, PodFailure>();
  /** When each pod object went, and whether its kubelet (back with the node) or a controller or kubectl removed it. */
  const removedAt = new Map<SimPod, Removal>();
  const deletedAt = new Map<SimPod, number>();
  // Pods the taint eviction controller marked for deletion (not kubectl, not another controller).
  const taintEvicted = new Set<SimPod>();
  const earliestOf = (workload: SimWorkload) => {
    let times = firstAt.get(workload);
    if (!times) firstAt.set(workload, (times = {}));
    return times;
  };
  // Where the node lifecycle controller has stopped tainting at the end (SEMANTICS.md 3.6).
  const stoppedZones = new Map<string, ZoneState | undefined>();
  let allZonesDown = false;
  // A controller-manager restart whose new leader has not taken the lease by the end: no controller acts.
  let leaderlessSince: number | undefined;
  const takeovers: number[] = [];
  for (const e of events) {
    if (e.t < 0) continue;
    if (e.object.kind === 'Lease') {
      if (e.reason === 'ControllerManagerRestart') leaderlessSince ??= e.t;
      else if (e.reason === 'LeaderElection') {
        leaderlessSince = undefined;
        takeovers.push(e.t);
      }
      continue;
    }
    if (e.type === 'Note') {
      if (e.reason === 'MasterDisruptionMode' || e.reason === 'MasterDisruptionModeExit') allZonesDown = e.reason === 'MasterDisruptionMode';
      else if (e.object.kind === 'Zone') stoppedZones.set(e.object.name, e.detail?.qps === 0 ? e.reason as ZoneState : undefined);
      continue;
    }
    if (e.type === 'NodeCondition' && e.detail?.status !== 'True') {
      if (!nodeNotReadyAt.has(e.object.name)) nodeNotReadyAt.set(e.object.name, e.t);
      continue;
    }
    // The out-of-service taint starts no toleration clock: no pod tolerates it, so it evicts at once.
    if (e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute' && e.detail.key !== OUT_OF_SERVICE) {
      if (!noExecuteAt.has(e.object.name)) noExecuteAt.set(e.object.name, e.t);
      let keys = noExecuteKeys.get(e.object.name);
      if (!keys) noExecuteKeys.set(e.object.name, (keys = new Set()));
      const key = String(e.detail.key);
      const removed = noExecuteRemoved.get(e.object.name);
      const swapped = [...keys].some((k) => k !== key) || (removed?.t === e.t && removed.key !== key);
      keys.add(key);
      if (swapped) continue;
      const times = noExecuteTimes.get(e.object.name);
      if (times) times.push(e.t);
      else noExecuteTimes.set(e.object.name, [e.t]);
      continue;
    }
    if (e.type === 'TaintRemoved' && e.detail?.effect === 'NoExecute') {
      noExecuteKeys.get(e.object.name)?.delete(String(e.detail.key));
      noExecuteRemoved.set(e.object.name, { key: String(e.detail.key), t: e.t });
      continue;
    }
    if (e.reason === 'TaintManagerEviction' && String(e.detail?.message).startsWith('Marking')) {
      const evicted = podByRef.get(e.object);
      if (evicted) taintEvicted.add(evicted);
      continue;
    }
    if (!POD_MILESTONES.has(e.type)) continue;
    const pod = podByRef.get(e.object);
    if (!pod?.owner) continue;
    const times = earliestOf(pod.owner);
    if (pod.affected && e.type === 'PodCondition' && e.detail?.type === 'Ready') times.podsNotReady ??= e.t;
    // The pod garbage collector marks a pod Failed on its way to deleting it: that is its deletion.
    if (pod.affected && (e.type === 'PodDeletionStarted' || e.type === 'PodRemoved' || (e.type === 'PodCondition' && e.reason === 'DeletionByPodGC'))) {
      times.deletion ??= e.t;
      if (!deletedAt.has(pod)) deletedAt.set(pod, e.t);
    }
    if (pod.affected && e.type === 'PodFailed' && times.deletion === undefined && !failedAt.has(pod)) failedAt.set(pod, { pod: pod.name, reason: (e.detail?.reason as string | null) ?? null, containerReason: (e.detail?.containerReason as string | null) ?? null, atMs: e.t });
    if (pod.affected && e.type === 'PodRemoved') removedAt.set(pod, { atMs: e.t, byKubelet: String(e.detail?.by).startsWith('kubelet') });
    if (pod.replacement && e.type === 'PodCreated') times.created ??= e.t;
    if (pod.replacement && e.type === 'PodReady' && !readyAt.has(pod)) readyAt.set(pod, e.t);
  }
  const failed = new Set(failedNodes);
  const failedNames = failedNodes.map((n) => n.name);
  const preemptions = new Map<SimWorkload, { lost: Preemption[]; took: Preemption[] }>();
  const preemptionsOf = (workload: SimWorkload) => {
    let record = preemptions.get(workload);
    if (!record) preemptions.set(workload, (record = { lost: [], took: [] }));
    return record;
  };
  for (const { victim, by, node, atMs } of store.preemptions) {
    const record: Preemption = { victim: victim.name, victimOf: victim.owner!.ref, node: node.name, preemptor: by.name, preemptorOf: by.owner!.ref, atMs };
    preemptionsOf(victim.owner!).lost.push(record);
    preemptionsOf(by.owner!).took.push(record);
  }

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
    const stopped = (node: SimNode): EvictionStop => (allZonesDown ? 'all-zones-down' : stoppedZones.get(zoneName(node.zone)) ?? null);
    // The first affected pod to end Failed, if that came before any deletion.
    let failure: PodFailure | null = null;
    for (const pod of affected) {
      const f = failedAt.get(pod);
      if (f && (failure === null || f.atMs < failure.atMs)) failure = f;
    }
    const lost = preemptions.get(workload)?.lost ?? [];
    const { outcome, cause } = outcomeOf(workload, affected, replacements, totals.serving, failed, failedNames, stopped, failure, removedAt, deletedAt, taintEvicted, lost);
    if (cause.kind === 'replaced' || cause.kind === 'not-evicted-yet') {
      // The taint the deletion (or the wait) counts from, when it is not the first one.
      let takeoverMs: number | undefined;
      cause.retaintedMs = maxOver(affectedNodes, (n) => {
        const before = noExecuteTimes.get(n)?.filter((t) => t <= (times.deletion ?? Infinity)) ?? [];
        if (before.length < 2) return undefined;
        const [previous, retainted] = before.slice(-2);
        // A new leader's taint eviction controller counts from when it first sees the pod, at its
        // takeover, a moment before its node lifecycle controller writes the taint anew (SEMANTICS.md 18).
        const takeover = takeovers.filter((t) => t > previous && t <= retainted).at(-1);
        if (takeover !== undefined) takeoverMs = Math.max(takeoverMs ?? takeover, takeover);
        return retainted;
      });
      if (takeoverMs !== undefined) cause.takeoverMs = takeoverMs;
      if (cause.kind === 'not-evicted-yet' && cause.tolerationSeconds !== undefined) {
        // Counted from the taint (written anew) or a new leader's takeover, as the text says.
        const from = cause.takeoverMs ?? cause.retaintedMs ?? noExecuteAt.get(cause.node);
        if (from !== undefined) cause.evictionAtMs = from + cause.tolerationSeconds * 1000;
      }
    }
    if ((cause.kind === 'not-evicted-yet' || cause.kind === 'not-noticed-yet') && leaderlessSince !== undefined) cause.leaderlessSinceMs = leaderlessSince;
    if ((cause.kind === 'statefulset-identity' || cause.kind === 'volume-attached-elsewhere') && !outOfServiceTaint) cause.outOfServiceInert = true;
    const pending = pendingBefore.get(workload);
    return {
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
      outcome,
      cause,
      pendingBeforeFailure: pending ?? null,
      ...(preemptions.has(workload) ? { preemptions: preemptions.get(workload) } : {}),
    };
  });
  return { failedNodes: failedNames, placement, initialPlacement, failedNodesByFault: failedNodesByFault.map((nodes) => nodes.map((n) => n.name)), workloads };
}

type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';
type EvictionStop = ZoneState | 'all-zones-down' | null;

/** The earliest (or latest) of the items' times, null when none has one. */
const over = (pick: (a: number, b: number) => number) => <T>(items: Iterable<T>, time: (item: T) => number | undefined): number | null => {
  let result: number | null = null;
  for (const item of items) {
    const t = time(item);
    if (t !== undefined) result = result === null ? t : pick(result, t);
  }
  return result;
};
const minOver = over(Math.min);
const maxOver = over(Math.max);

interface Removal {
  atMs: number;
  byKubelet: boolean;
}

function outcomeOf(
  workload: SimWorkload, affected: SimPod[], replacements: SimPod[], servingAtEnd: number, failed: ReadonlySet<SimNode>, failedNames: string[],
  stopped: (node: SimNode) => EvictionStop, failure: PodFailure | null = null, removedAt: ReadonlyMap<SimPod, Removal> = new Map(),
  deletedAt: ReadonlyMap<SimPod, number> = new Map(), taintEvicted: ReadonlySet<SimPod> = new Set(), lost: readonly Preemption[] = [],
): { outcome: Outcome; cause: OutcomeCause } {
  if (affected.length === 0 && lost.length > 0) return preemptedOutcome(workload, lost[0], replacements, servingAtEnd);
  if (affected.length === 0 && replacements.length === 0) return { outcome: 'unaffected', cause: { kind: 'not-on-failed-nodes', failedNodes: failedNames } };
  const affectedNodes = [...new Set(affected.map((p) => p.nodeName!))];
  // An active pod still bound to a failed node that has not come back; another on such a node may already be Terminating.
  const waitingPods = affected.filter((p) => isActive(p) && p.node !== undefined && failed.has(p.node) && isDown(p.node));
  const waiting = waitingPods.at(0);
  // A daemon pod belongs to its node, whatever it tolerates (SEMANTICS.md 6.3); one that ended Failed
  // there was deleted, and the next runs when the node is back.
  const daemonWaits = workload.kind === 'DaemonSet' ? affected.filter((p) => p.node !== undefined && failed.has(p.node) && isDown(p.node)) : [];
  // A daemon pod whose node was deleted (and has not registered again) is gone with it.
  const gone = workload.kind === 'DaemonSet' ? affected.find((p) => p.removed && p.node?.deleted) : undefined;
  if (gone && daemonWaits.length === 0) return { outcome: 'lost', cause: { kind: 'daemon-node-deleted', pod: gone.name, node: gone.nodeName!, removedMs: removedAt.get(gone)?.atMs ?? null } };
  const outOfService = daemonWaits.find((p) => (p.removed || p.deletionTimestamp !== undefined) && p.node!.taints.some((t) => t.key === OUT_OF_SERVICE));
  if (outOfService) return { outcome: 'waits-for-node', cause: { kind: 'daemon-out-of-service', pod: outOfService.name, node: outOfService.nodeName!, removedMs: removedAt.get(outOfService)?.atMs ?? null } };
  const deleted = daemonWaits.find((p) => p.removed || p.deletionTimestamp !== undefined);
  if (deleted) {
    const noExecute = deleted.node!.taints.filter((t) => t.effect === 'NoExecute');
    const tolerated = taintEvicted.has(deleted) && noExecute.length > 0 ? matchingTolerations(noExecute, deleted.template.tolerations) : undefined;
    const ms = tolerated ? minTolerationMs(tolerated) : -1;
    return { outcome: 'waits-for-node', cause: { kind: 'daemon-pod-deleted', pod: deleted.name, node: deleted.nodeName!, deletedMs: deletedAt.get(deleted) ?? null, tolerationSeconds: ms >= 0 ? ms / 1000 : null } };
  }
  if (daemonWaits.length > 0) {
    const nodes = [...new Set(daemonWaits.map((p) => p.nodeName!))];
    return { outcome: 'waits-for-node', cause: { kind: 'daemon-pod-waits', pod: daemonWaits[0].name, node: daemonWaits[0].nodeName!, nodes, serving: servingAtEnd >= workload.desired } };
  }
  // A static pod is never replaced, whatever its tolerations: nothing but its node's kubelet runs it,
  // and the mirror object it recreates on its return is the same pod.
  if (workload.kind === 'Pod' && isMirrorPod(workload.spec) && affected[0]) {
    // SEMANTICS.md 6.5: the kubelet runs the static pod; a deletion (force, pod GC) may remove the mirror object; the kubelet recreates it on return.
    const pod = affected[0];
    const nodeBack = pod.node !== undefined && !pod.node.deleted && !isDown(pod.node);
    return { outcome: nodeBack ? 'recovered' : 'waits-for-node', cause: { kind: 'static-pod', pod: pod.name, node: pod.nodeName!, status: pod.removed ? 'gone' : podStatus(pod), nodeBack } };
  }
  if (servingAtEnd >= workload.desired) {
    if (replacements.length > 0) {
      const ready = replacements.filter((p) => !p.removed && p.readyCondition);
      // A pod still active on a failed node outlived the outage there (its node came back in time).
      const gone = affected.filter((p) => !isActive(p));
      const back = affected.filter(isActive);
      const replaced = gone.length > 0 ? gone : affected;
      return {
        outcome: 'replaced',
        cause: {
          kind: 'replaced', pods: replaced.length, nodes: [...new Set(replaced.map((p) => p.nodeName!))], replacedOn: [...new Set(ready.map((p) => p.nodeName!))], failed: failure,
          backOn: gone.length > 0 ? [...new Set(back.map((p) => p.nodeName!))] : [],
          lastDeletionMs: maxOver(replaced, (p) => deletedAt.get(p)), retaintedMs: null,
        },
      };
    }
    if (waiting) return waitingOnNode(waiting, waitingPods.length - 1, true, stopped(waiting.node!));
    const restarted = affected.filter((p) => p.restartCount > 0);
    // hostNetwork pods keep their node's IP.
    return { outcome: 'recovered', cause: { kind: 'recovered', nodes: affectedNodes, pod: affected[0].name, pods: affected.length, daemon: workload.kind === 'DaemonSet', restarted: restarted.length > 0, newIp: restarted.some((p) => p.ipChanged) } };
  }
  const live = workload.pods.filter((p) => !p.removed);
  const pending = live.find((p) => p.replacement && p.nodeName === undefined && p.deletionTimestamp === undefined);
  if (pending) {
    const priorityClass = workload.spec.template.spec.priorityClassName;
    const preemptible = priorityClass !== undefined && workload.template.priority === undefined && pending.preemptionMightHelp;
    return { outcome: 'pending', cause: { kind: 'replacement-pending', pod: pending.name, message: pending.pendingMessage ?? null, ...(preemptible ? { priorityClass } : {}) } };
  }
  const attaching = live.find((p) => p.replacement && p.containerReason === 'ContainerCreating' && p.nodeName !== undefined);
  const volume = attaching?.claims.find((c) => c.volume?.attachedTo !== undefined && c.volume.attachedTo !== attaching.nodeName)?.volume;
  if (attaching && volume) {
    const force = volume.forceDetach;
    return { outcome: 'stuck', cause: { kind: 'volume-attached-elsewhere', pod: attaching.name, node: attaching.nodeName!, volume: volume.name, attachedTo: volume.attachedTo!, ...(volume.inline ? { inline: true } : {}),
      ...(force === 'disabled' ? { forceDetachDisabled: true } : force ? { forceDetachAtMs: force.atMs } : {}) } };
  }
  if (waiting) return waitingOnNode(waiting, waitingPods.length - 1, false, stopped(waiting.node!));
  const stuckPod = affected.find((p) => !p.removed && p.node !== undefined && failed.has(p.node));
  if (stuckPod && workload.kind === 'StatefulSet' && stuckPod.deletionTimestamp !== undefined) {
    const local = stuckPod.claims.find((c) => c.volume?.local)?.volume;
    const runtimeDown = stuckPod.node!.lease.live && !stuckPod.node!.host.runtimeUp;
    const status = podStatus(stuckPod);
    return { outcome: 'stuck', cause: { kind: 'statefulset-identity', pod: stuckPod.name, node: stuckPod.nodeName!, localVolume: local?.name ?? null, ...(runtimeDown ? { runtimeDown } : {}), ...(status !== 'Terminating' ? { shownAs: status } : {}) } };
  }
  if (workload.kind === 'Pod') {
    // SEMANTICS.md 6.5: a bare pod is never recreated. Failed (graceful shutdown) or removed, it is gone for good.
    const pod = affected[0];
    if (pod && (pod.removed || pod.phase === 'Failed')) {
      const nodeBack = pod.node !== undefined && !pod.node.deleted && !isDown(pod.node);
      const removal = removedAt.get(pod);
      return { outcome: 'lost', cause: { kind: 'bare-pod-lost', pod: pod.name, node: pod.nodeName!, failed: failure, removedMs: removal?.atMs ?? null, removedByKubelet: removal?.byKubelet ?? false, nodeBack } };
    }
    if (stuckPod) return { outcome: 'stuck', cause: { kind: 'bare-pod', pod: stuckPod.name, node: stuckPod.nodeName!, status: podStatus(stuckPod) } };
  }
  if (workload.kind === 'Job' && workload.jobFailed) return { outcome: 'stuck', cause: { kind: 'job-failed', ...workload.jobFailed } };
  if (workload.kind === 'Job' && workload.failures > 0 && live.every((p) => p.deletionTimestamp !== undefined)) {
    return { outcome: 'stuck', cause: { kind: 'job-backoff', failures: workload.failures } };
  }
  if (workload.kind === 'Job' && stuckPod?.deletionTimestamp !== undefined && replacements.length === 0) {
    const spec = workload.spec as Job;
    if (spec.hasPodFailurePolicy || spec.podReplacementPolicy === 'Failed') {
      return { outcome: 'stuck', cause: { kind: 'job-awaits-terminal-phase', pod: stuckPod!.name, node: stuckPod!.nodeName!, policy: spec.hasPodFailurePolicy ? 'podFailurePolicy' : 'podReplacementPolicy' } };
    }
  }
  // Bound as they are created, without the scheduler: on a dead node they never start (the taint manager evicts each in turn).
  const pinnedTo = workload.template.nodeName;
  const pinnedHere = pinnedTo === undefined ? [] : replacements.filter((p) => p.node !== undefined && p.nodeName === pinnedTo && failed.has(p.node) && isDown(p.node));
  if (pinnedHere.length > 0 && !live.some((p) => p.replacement && p.readyCondition)) {
    return { outcome: 'stuck', cause: { kind: 'pinned-by-node-name', node: pinnedTo!, replacements: pinnedHere.length, limited: replacements.length >= replacementLimit(workload.desired) } };
  }
  const starting = live.find((p) => p.replacement && !p.readyCondition);
  if (starting) return { outcome: 'stuck', cause: { kind: 'replacement-not-ready', pod: starting.name, node: starting.nodeName ?? null, status: podStatus(starting) } };
  return { outcome: 'stuck', cause: { kind: 'short-of-replicas', nodes: affectedNodes } };
}

/** A workload none of whose pods was on a failed node, which lost one to preemption: replaced elsewhere, or its replacement waits. */
function preemptedOutcome(workload: SimWorkload, preemption: Preemption, replacements: SimPod[], servingAtEnd: number): { outcome: Outcome; cause: OutcomeCause } {
  // A preempted Job pod counts as a failure: past backoffLimit the Job fails.
  if (workload.kind === 'Job' && workload.jobFailed) return { outcome: 'stuck', cause: { kind: 'job-failed', ...workload.jobFailed } };
  const live = replacements.filter((p) => !p.removed);
  const pending = live.find((p) => p.nodeName === undefined && p.deletionTimestamp === undefined);
  const replacedOn = [...new Set(live.filter((p) => p.readyCondition).map((p) => p.nodeName!))];
  // The record's node: a victim may have been chosen before its binding landed (assumed), with no nodeName.
  const cause: OutcomeCause = { kind: 'preempted', pod: preemption.victim, node: preemption.node, replacement: pending ? { pod: pending.name, message: pending.pendingMessage ?? null } : null, replacedOn };
  return { outcome: servingAtEnd >= workload.desired ? 'replaced' : pending ? 'pending' : 'stuck', cause };
}

/** The node has not come back: its Ready is not True, or its host is still broken (a Ready-but-broken node). */
function isDown(node: SimNode): boolean {
  const { host } = node;
  if (node.deleted) return false;
  return node.ready !== 'True' || !(host.powered && host.kubeletRunning && host.apiReachable && host.runtimeUp && host.diskHealthy);
}

/**
 * An active pod still bound to a failed node at the end: the node stays Ready (nothing evicts it),
 * or the pod tolerates the NoExecute taint forever, or its toleration has not run out yet. `others`:
 * the workload's other pods still bound to failed nodes, which the cause counts (alsoWaiting).
 */
function waitingOnNode(pod: SimPod, others: number, serving: boolean, stopped: EvictionStop): { outcome: Outcome; cause: OutcomeCause } {
  const { outcome, cause } = waitingCause(pod, serving, stopped);
  return { outcome, cause: others > 0 ? { ...cause, alsoWaiting: others } : cause };
}

function waitingCause(pod: SimPod, serving: boolean, stopped: EvictionStop): { outcome: Outcome; cause: OutcomeCause } {
  const node = pod.node!;
  if (node.ready === 'True' && !node.lease.live) {
    return { outcome: 'awaiting-eviction', cause: { kind: 'not-noticed-yet', pod: pod.name, node: node.name, lastRenewalMs: node.lease.renewTime } };
  }
  if (node.ready === 'True') {
    const answers = pod.running && pod.appReady;
    return { outcome: answers ? 'recovered' : 'stuck', cause: { kind: 'node-ready-but-broken', pod: pod.name, node: node.name, podReady: pod.readyCondition, readinessProbe: pod.template.readinessProbe !== undefined, restarts: pod.restartCount, answers } };
  }
  const carried = node.taints.filter((t) => t.effect === 'NoExecute');
  if (carried.length === 0 && stopped) return { outcome: 'stuck', cause: { kind: 'evictions-stopped', pod: pod.name, node: node.name, zone: zoneName(node.zone), state: stopped } };
  // The taint the node carries, or the one the node lifecycle controller gives it for its Ready condition.
  const taints: Taint[] = carried.length > 0 ? carried : [{ key: node.ready === 'False' ? NOT_READY : UNREACHABLE, value: '', effect: 'NoExecute' }];
  const tolerations = matchingTolerations(taints, pod.template.tolerations);
  const taint = taints.map((t) => `${t.key}:${t.effect}`).join(', ');
  const toleratedMs = tolerations ? minTolerationMs(tolerations) : 0;
  // Forever (-1), or past the 7 days the simulator runs: an eviction no run can reach.
  if (toleratedMs < 0 || toleratedMs > MAX_DURATION_MS) {
    return { outcome: 'tolerated', cause: { kind: 'tolerates-forever', pod: pod.name, node: node.name, taint, serving, ...(toleratedMs > 0 ? { tolerationSeconds: toleratedMs / 1000 } : {}) } };
  }
  return { outcome: 'awaiting-eviction', cause: { kind: 'not-evicted-yet', pod: pod.name, node: node.name, status: podStatus(pod), serving, retaintedMs: null, ...(carried.length > 0 ? { tolerationSeconds: toleratedMs / 1000 } : {}) } };
}
