/** One sentence per workload: what state it ended in and why, with the times that matter. */
import type { OutcomeCause, PodFailure, Preemption, WorkloadSummary } from '../sim/summary';
import { formatCount, formatDuration, nameList, nodeNames } from './format';
import { MAX_DURATION_MS } from '../manifest/limits';

/** Each of these lets a replacement start while the old pod may still run: only once the node is known to be off. */
const ONCE_OFF = 'once you are sure the node is off (a pod still running there would run twice), ';
const RELEASE = `${ONCE_OFF}force-delete the pod (kubectl delete pod --force --grace-period=0), delete the Node object, or taint the node node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`;
/** Before 1.26 the out-of-service taint's feature gate (NodeOutOfServiceVolumeDetach) is off, and the taint releases nothing. */
const RELEASE_BEFORE_1_26 = `${ONCE_OFF}force-delete the pod (kubectl delete pod --force --grace-period=0) or delete the Node object (the out-of-service taint does nothing before Kubernetes 1.26, its feature gate off)`;
const release = (cause: { outOfServiceInert?: true }) => (cause.outOfServiceInert ? RELEASE_BEFORE_1_26 : RELEASE);

type ReasonInput = Pick<WorkloadSummary, 'cause' | 'podDeletionMs' | 'replacementReadyMs' | 'unavailableMs' | 'duplicateMs' | 'noExecuteTaintMs'>
  & Partial<Pick<WorkloadSummary, 'pendingBeforeFailure' | 'preemptions' | 'object'>>;

/** What the failure did, then, apart, the pods that were Pending before it. */
export function outcomeReason(summary: ReasonInput): string {
  const pending = summary.pendingBeforeFailure;
  const before = pending
    ? ` Apart from the failure: ${pending.pods > 1 ? `${formatCount(pending.pods)} pods (${pending.pod}, ...) were` : `${pending.pod} was`} already Pending before it${pending.message ? `: ${pending.message}` : '.'}`
    : '';
  const also = summary.cause.alsoWaiting;
  const others = also ? ` ${also === 1 ? 'One more of its pods stays' : `${formatCount(also)} more of its pods stay`} bound to a failed node too.` : '';
  return `${failureReason(summary)}${others}${preemptionText(summary.preemptions)}${before}`;
}

/** Who preempted whom: the pods of this workload deleted for pods of a higher priority, and those its pods took the place of. */
function preemptionText(preemptions: WorkloadSummary['preemptions']): string {
  if (!preemptions) return '';
  const records = (list: Preemption[], each: (p: Preemption) => string) => list.slice(0, 3).map(each).join('; ') + (list.length > 3 ? `; and ${formatCount(list.length - 3)} more` : '');
  const count = (n: number, one: string) => (n === 1 ? one : `${formatCount(n)} pods`);
  const lost = preemptions.lost.length === 0 ? ''
    : ` The scheduler deleted ${count(preemptions.lost.length, 'one of its pods')} to make room for pods of a higher priority: ${records(preemptions.lost, (p) => `${p.victim} on ${p.node} at ${formatDuration(p.atMs)}, for ${p.preemptor} (${p.preemptorOf.kind}/${p.preemptorOf.name})`)}.`;
  const took = preemptions.took.length === 0 ? ''
    : ` To make room for its pods the scheduler deleted ${count(preemptions.took.length, 'a pod')} of a lower priority: ${records(preemptions.took, (p) => `${p.victim} (${p.victimOf.kind}/${p.victimOf.name}) on ${p.node} at ${formatDuration(p.atMs)}, for ${p.preemptor}`)}.`;
  return `${lost}${took}`;
}

function failureReason(summary: ReasonInput): string {
  const { podDeletionMs, replacementReadyMs, unavailableMs, duplicateMs, noExecuteTaintMs } = summary;
  const at = (ms: number | null) => (ms === null ? '?' : formatDuration(ms));
  const nodes = (names: string[]) => nameList(names, (n) => `${formatCount(n)} failed nodes`);
  const cause: OutcomeCause = summary.cause;
  switch (cause.kind) {
    case 'not-on-failed-nodes':
      // "Its": the sentence stands under the workload's own name (Deployment/web may be in two namespaces).
      return `None of its pods ran on ${nameList(cause.failedNodes, (n) => `the ${formatCount(n)} failed nodes`) || 'the failed nodes'}.`;
    case 'replaced': {
      const several = cause.pods > 1;
      const was = several ? 'were' : 'was';
      // A graceful node shutdown or a reboot ends the pods Failed without deleting them (SEMANTICS.md 2.4, 2.5); the controller replaces them then.
      const failed = cause.failed && `${endedFailed(cause.failed)} at ${formatDuration(cause.failed.atMs)}`;
      const deleted = cause.lastDeletionMs !== null && podDeletionMs !== null && cause.lastDeletionMs > podDeletionMs
        ? `from ${at(podDeletionMs)} to ${at(cause.lastDeletionMs)}` : `at ${at(podDeletionMs)}`;
      // After a new NoExecute taint, tolerationSeconds counted again from it, or from the takeover of a new leader that re-added it.
      const retainted = cause.retaintedMs !== null ? ` (tolerationSeconds counted again from ${countedFrom(cause)})` : '';
      const ended = !cause.failed ? `${was} deleted ${deleted}${retainted}`
        : cause.failed.reason ? `${was} stopped by the kubelet and ${failed}` : `${failed}`;
      // A Failed pod is replaced without being deleted; a deletion (the StatefulSet's at once, the taint
      // manager's later) removes it at once. It is told where it falls in time.
      const deletedFirst = podDeletionMs !== null && (replacementReadyMs === null || podDeletionMs <= replacementReadyMs);
      const kept = !cause.failed ? '' : podDeletionMs === null ? (cause.failed.reason ? ', not deleted,' : `, ${was} not deleted,`)
        : deletedFirst ? `, its object${several ? 's' : ''} deleted ${deleted},` : '';
      const failedDeleted = cause.failed && podDeletionMs !== null && !deletedFirst ? `; the Failed object${several ? 's were' : ' was'} deleted ${deleted}` : '';
      const back = cause.backOn.length > 0 ? `; what ran on ${nodes(cause.backOn)} came back with ${cause.backOn.length > 1 ? 'those nodes' : 'the node'}` : '';
      return `Its pod${several ? 's' : ''} on ${nodes(cause.nodes)} ${ended}${kept} and replaced on ${nodeNames(cause.replacedOn)}, ${several ? 'the last ' : ''}Ready at ${at(replacementReadyMs)}${failedDeleted}${back}; down ${formatDuration(unavailableMs)} in all${duplicateMs > 0 ? `, with old copies still running on the failed node for ${formatDuration(duplicateMs)}` : ''}.`;
    }
    case 'recovered': {
      const several = cause.pods > 1;
      const pods = several ? `${formatCount(cause.pods)} pods (${cause.pod}, ...)` : cause.pod;
      const how = cause.restarted ? `restarted in place${cause.newIp ? ' with a new IP' : ''}` : `${several ? 'were' : 'was'} re-adopted by the kubelet`;
      // Nothing replaces a DaemonSet's pod: that its node came back first says nothing.
      const back = cause.daemon ? `${nodes(cause.nodes)} came back and ${pods} ${how}` : `${nodes(cause.nodes)} came back before ${pods} ${several ? 'were' : 'was'} replaced: ${several ? 'they' : 'it'} ${how}`;
      return `${back}; down ${formatDuration(unavailableMs)} in all.`;
    }
    case 'replacement-pending':
      return `Replacement ${cause.pod} stays Pending: ${cause.message ?? 'not scheduled yet'}${cause.priorityClass ? ` The input does not declare PriorityClass ${cause.priorityClass}, so the simulator cannot tell its value and does not preempt for it: a real scheduler may evict pods of a lower priority to make room, if that class outranks them and allows preemption.` : ''}`;
    case 'preempted': {
      const then = cause.replacement ? `its replacement ${cause.replacement.pod} stays Pending: ${cause.replacement.message ?? 'not scheduled yet'}`
        : cause.replacedOn.length > 0 ? `its replacement runs on ${nodeNames(cause.replacedOn)}, Ready at ${at(replacementReadyMs)}; down ${formatDuration(unavailableMs)} in all.`
          : 'its replacement is not Ready yet.';
      return `None of its pods ran on the failed nodes, but it lost one to a pod of a higher priority (below), and ${then}`;
    }
    case 'daemon-pod-waits':
      if (cause.nodes.length > 1) {
        return `DaemonSet pods belong to their node: its pods on ${nodes(cause.nodes)} are never evicted or moved${cause.serving ? ' and still answer' : ' and serve again only when their node recovers'} (expected for a DaemonSet).`;
      }
      return `DaemonSet pods belong to their node: ${cause.pod} is never evicted or moved${cause.serving ? ' and still answers on' : ' and serves again only when'} ${cause.node}${cause.serving ? '' : ' recovers'} (expected for a DaemonSet).`;
    case 'daemon-out-of-service':
      return `${cause.pod} does not tolerate the out-of-service taint on ${cause.node} (a DaemonSet's default tolerations leave it out): it was evicted${cause.removedMs !== null ? ` and its object removed at ${formatDuration(cause.removedMs)}` : ''}, and the DaemonSet runs no pod there while the taint stays (remove it once the node is back).`;
    case 'daemon-pod-deleted': {
      const when = cause.deletedMs !== null ? ` at ${formatDuration(cause.deletedMs)}` : '';
      const why = cause.tolerationSeconds !== null
        ? `${cause.pod} was evicted from ${cause.node}${when}: its written toleration of the taint has tolerationSeconds ${cause.tolerationSeconds}, and the taint eviction controller reads the first toleration matching a taint, not the DaemonSet's own one without seconds added after it`
        : `${cause.pod} on ${cause.node} was deleted${when}`;
      return `${why}. The DaemonSet runs no pod on ${cause.node} while it is tainted, nor on another node: it runs again when ${cause.node} recovers.`;
    }
    case 'volume-attached-elsewhere': {
      const waits = `Replacement ${cause.pod} waits in ContainerCreating on ${cause.node}: its ${cause.inline ? 'disk' : 'ReadWriteOnce volume'} ${cause.volume} is still attached to ${cause.attachedTo} (Multi-Attach error)`;
      const taint = cause.outOfServiceInert ? '' : 'the out-of-service taint (node.kubernetes.io/out-of-service=nodeshutdown:NoExecute)';
      if (cause.forceDetachDisabled) return `${waits}, and kube-controller-manager runs with --disable-force-detach-on-timeout, so it is never force-detached: only ${cause.attachedTo} coming back${taint ? ` or ${taint}` : ''} releases it.`;
      if (cause.forceDetachAtMs !== undefined) return `${waits}; the old pod object is gone, and the attach-detach controller force-detaches the volume 6 minutes later, at ${formatDuration(cause.forceDetachAtMs)}, after the end of the run${taint ? `, unless ${taint} releases it sooner` : ''}.`;
      return `${waits} and is only detached 6 minutes after the old pod object is gone${cause.outOfServiceInert ? '' : ', or at once with the out-of-service taint'}; ${release(cause)}.`;
    }
    case 'not-evicted-yet': {
      const from = cause.retaintedMs !== null ? countedFrom(cause) : `the NoExecute taint${noExecuteTaintMs !== null ? ` at ${formatDuration(noExecuteTaintMs)}` : ''}`;
      const due = cause.evictionAtMs !== undefined && cause.leaderlessSinceMs === undefined
        ? `: its tolerationSeconds ${formatCount(cause.tolerationSeconds!)} counts from ${from}, so it is evicted at about ${formatDuration(cause.evictionAtMs)}, after the end of the run`
        : ` (tolerationSeconds counts from ${from})`;
      return `${cause.pod} still counts as running on ${cause.node} (${cause.status} in the API${cause.serving ? ', and it still answers' : ''}) at the end: it has not been evicted yet${due}${untilLeader(cause.leaderlessSinceMs)}.`;
    }
    case 'evictions-stopped':
      if (cause.state === 'all-zones-down') return `Every zone is fully disrupted, so the node lifecycle controller evicts nothing anywhere (master disruption mode): ${cause.pod} stays bound to ${cause.node} until some node is Ready again.`;
      if (cause.state === 'PartialDisruption') return `Zone ${cause.zone} is in PartialDisruption (more than 2 and at least 55 % of its nodes not Ready, in a zone of at most 50 nodes), so the node lifecycle controller stops tainting there: ${cause.pod} on ${cause.node} is never evicted while that lasts.`;
      return `kube-controller-manager's --node-eviction-rate is 0, so the node lifecycle controller never taints a node of zone ${cause.zone} (${cause.state}) NoExecute: ${cause.pod} on ${cause.node} is never evicted and stays bound there until the node returns.`;
    case 'tolerates-forever':
    {
      const stays = `bound to ${cause.node}${cause.serving ? ' and still answers' : ' and serves nothing'} until the node returns`;
      // An eviction brings back neither a bare Pod (never recreated) nor a StatefulSet's pod (Terminating until its node returns).
      const kind = summary.object?.kind;
      const shorter = cause.tolerationSeconds === undefined ? 'tolerationSeconds' : 'a shorter tolerationSeconds';
      const advice = kind === 'Pod' ? 'a bare Pod is never recreated, so an eviction would only lose it for good'
        : kind === 'StatefulSet' ? `with ${shorter} it would be deleted, then stay Terminating until the node returns or someone force-deletes it (a StatefulSet creates no pod of the same name before)`
        : `give the toleration ${shorter} to have it replaced`;
      return cause.tolerationSeconds === undefined
        ? `${cause.pod} tolerates ${cause.taint} forever (a toleration without tolerationSeconds), so it is never evicted: it stays ${stays}; ${advice}.`
        : `${cause.pod} tolerates ${cause.taint} for longer than any run (its tolerationSeconds is more than ${MAX_DURATION_MS / 86_400_000} days): in effect it is never evicted and stays ${stays}; ${advice}.`;
    }
    case 'not-noticed-yet':
      return `${cause.node} still shows Ready at the end: its kubelet last renewed the lease ${cause.lastRenewalMs < 0 ? `${formatDuration(-cause.lastRenewalMs)} before the failure` : `at ${formatDuration(cause.lastRenewalMs)}`}, and the node lifecycle controller marks it NotReady only once node-monitor-grace-period has passed without a renewal, then evicts ${cause.pod} tolerationSeconds after its NoExecute taint${untilLeader(cause.leaderlessSinceMs)}.`;
    case 'node-ready-but-broken': {
      const restarted = `its liveness probe restarted it ${cause.restarts === 1 ? 'once' : `${formatCount(cause.restarts)} times`}`;
      const ready = `${cause.node} stays Ready (its kubelet keeps renewing the lease), so no controller evicts or replaces ${cause.pod}`;
      if (cause.answers) return `${ready}: ${restarted}, and the restarted container answers (sim.diskFailureRestartsHang false); down ${formatDuration(unavailableMs)} in all. The node stays broken: cordon and drain it.`;
      return `${ready}: it ${cause.podReady ? 'still looks Ready, so any Service in front of it keeps sending it traffic' : `is Ready=False (${cause.readinessProbe ? 'its readiness probe fails' : 'its container is down between restarts'}), so Services stop sending it traffic`}${cause.restarts > 0 ? `, ${restarted}` : ''}; something outside Kubernetes must cordon and drain the node.`;
    }
    case 'statefulset-identity': {
      const pinned = cause.localVolume ? ` Its local volume ${cause.localVolume} is only on ${cause.node}, so even then the new ${cause.pod} can only run there and stays Pending until the node returns.` : '';
      const where = cause.runtimeDown ? `on ${cause.node}, whose kubelet stops no pod while its container runtime is down,` : `on the unreachable node ${cause.node}:`;
      const shown = cause.shownAs ? `deleted but shown ${cause.shownAs} (kubectl prints Unknown for a deleted pod with reason NodeLost)` : 'Terminating';
      return `${cause.pod} stays ${shown} ${where} a StatefulSet never creates a second ${cause.pod} while the old object exists. To release it, ${release(cause)}.${pinned}`;
    }
    case 'bare-pod':
      return `A bare Pod is never recreated: ${cause.pod} stays ${cause.status} on ${cause.node} until the node returns; run it under a Deployment or StatefulSet.`;
    case 'static-pod':
      return `${cause.pod} is the mirror of a static pod: only the kubelet of ${cause.node} runs it and it is never rescheduled elsewhere (expected for a static pod)${cause.nodeBack
        ? `; ${cause.node} is back, and its kubelet runs the static pod again and recreates the mirror object if it was deleted`
        : `; it serves again only when ${cause.node} returns (the mirror object in the API: ${cause.status})`}.`;
    case 'bare-pod-lost': {
      const how = cause.failed
        ? `${cause.pod} ${endedFailed(cause.failed)} on ${cause.node} at ${formatDuration(cause.failed.atMs)} and is not restarted`
        : `${cause.pod} was deleted${podDeletionMs !== null ? ` at ${formatDuration(podDeletionMs)}` : ''}`;
      const removed = cause.removedMs === null ? ''
        : cause.removedByKubelet ? `; its object was removed at ${formatDuration(cause.removedMs)} by the kubelet of ${cause.node}` : `; its object was deleted at ${formatDuration(cause.removedMs)}`;
      return `A bare Pod is never recreated: ${how}${removed}, and nothing runs it again${cause.nodeBack ? ` although ${cause.node} is Ready again` : ''}; run it under a Deployment or StatefulSet.`;
    }
    case 'job-backoff':
      return `The Job counted ${cause.failures} failed pod${cause.failures > 1 ? 's' : ''} and does not create more (backoff or backoffLimit).`;
    case 'daemon-node-deleted':
      return `Its pod ${cause.pod} went with the Node object of ${cause.node}${cause.removedMs !== null ? ` (pod GC removed it at ${formatDuration(cause.removedMs)})` : ''}: the DaemonSet runs on the nodes that remain, and there again if the node registers anew.`;
    case 'job-failed':
      return `The Job failed at ${formatDuration(cause.atMs)} (${cause.reason}: ${cause.message}): it creates no more pods, and deletes those still active.`;
    case 'replacement-not-ready':
      return `Replacement ${cause.pod} on ${cause.node ?? '(unscheduled)'} is not Ready by the end (${cause.status}).`;
    case 'pinned-by-node-name':
      return `spec.nodeName binds every pod of it to ${cause.node}, replacements included, without the scheduler: ${formatCount(cause.replacements)} replacement${cause.replacements > 1 ? 's were' : ' was'} created there and none can start while ${cause.node} is down (each is evicted after its tolerationSeconds and another takes its place${cause.limited ? '; the simulator stopped at this many, Kubernetes goes on' : ''}); use a nodeSelector or node affinity to let replacements run elsewhere.`;
    case 'job-awaits-terminal-phase':
      return `${cause.pod} stays Terminating on ${cause.node}, and the Job replaces a pod only once it is Failed (${cause.policy === 'podFailurePolicy' ? 'a podFailurePolicy makes it wait' : 'podReplacementPolicy: Failed'}): a node that is down never writes that phase. Pod GC writes it once the Node object is deleted, or tainted node.kubernetes.io/out-of-service (pkg/controller/podgc).`;
    case 'short-of-replicas':
      return `Fewer than desired pods serve at the end; pods on ${nodes(cause.nodes)} do not answer.`;
  }
}

/** A graceful shutdown fails pods with a reason (Terminated); a reboot loses a restartPolicy Never pod's containers (SEMANTICS.md 2.5). */
function endedFailed(failed: PodFailure): string {
  if (failed.reason) return `ended Failed (${failed.reason})`;
  if (failed.containerReason === 'Unknown') return 'ended Failed after a reboot (restartPolicy Never: the lost containers are not started again)';
  return 'ended Failed';
}

/** What follows a wait at the end: the next step, or nothing while the controller manager has no leader. */
function untilLeader(leaderlessSinceMs: number | undefined): string {
  if (leaderlessSinceMs === undefined) return '; simulate longer to see what follows';
  return `; but kube-controller-manager restarted at ${formatDuration(leaderlessSinceMs)} and no new leader holds its lease by the end (sim.leaderElectionDelay), so no controller marks, taints or evicts anything until one does`;
}

/** Where tolerationSeconds counts from after the NoExecute taint was written anew. */
function countedFrom(cause: { retaintedMs: number | null; takeoverMs?: number }): string {
  if (cause.takeoverMs !== undefined) return `the new kube-controller-manager leader's takeover at ${formatDuration(cause.takeoverMs)} (it added the NoExecute taint anew at ${formatDuration(cause.retaintedMs!)})`;
  return `the NoExecute taint added anew at ${formatDuration(cause.retaintedMs!)}`;
}
