/**
 * The outside world: what happens to a node's host in each failure mode, its return, and what an
 * operator does about it (force delete, graceful delete, out-of-service taint, node deletion).
 * Only the host changes here; the kubelet and the controllers react to it (SEMANTICS.md 13.5).
 */
import { inertShutdown } from '../cluster/kubeletConfiguration';
import { zoneName } from '../cluster/clusterSpec';
import { deletionTarget } from '../manifest/deletionTarget';
import { formatDuration } from '../manifest/duration';
import { leaderOf, type SimContext } from './context';
import type { Host, SimNode, SimPod } from './objects';
import type { FailureKind, Fault, Intervention } from './scenario';
import { OUT_OF_SERVICE } from './tolerations';
import { workloadsNamed } from './workloadTarget';

const POWERED_OFF: Partial<Host> = { powered: false, kubeletRunning: false, apiReachable: false, dataPlaneReachable: false, shuttingDown: false };
const HEALTHY: Host = { powered: true, kubeletRunning: true, apiReachable: true, dataPlaneReachable: true, runtimeUp: true, diskHealthy: true, shuttingDown: false };

/** What each failure does to the host at the failure instant. */
const FAULT_EFFECTS: Readonly<Record<FailureKind, Partial<Host>>> = {
  'power-off': POWERED_OFF,
  'zone-outage': POWERED_OFF,
  'kubelet-stop': { kubeletRunning: false },
  partition: { apiReachable: false, dataPlaneReachable: false },
  // The kubelet keeps renewing its lease but posts Ready=False (runtime down, SEMANTICS.md 13.5).
  'kubelet-not-ready': { runtimeUp: false },
  // Ready but broken: the lease goroutine does not need the disk (SEMANTICS.md 11).
  'disk-failure': { diskHealthy: false },
  // The kubelet holds the shutdown with its inhibitor lock while it stops pods (SEMANTICS.md 2.4).
  'graceful-shutdown': { shuttingDown: true },
};

/** The simulator's assumptions (sim.* knobs) each failure mode relies on; the trace notes them. */
const ASSUMPTIONS: Partial<Record<FailureKind, readonly ('notReadyPodsKeepServing' | 'notReadyKubeletSyncsPods' | 'shutdownHoldsGracePeriod' | 'diskFailureRestartsHang')[]>> = {
  'kubelet-not-ready': ['notReadyPodsKeepServing', 'notReadyKubeletSyncsPods'],
  'graceful-shutdown': ['shutdownHoldsGracePeriod'],
  'disk-failure': ['diskFailureRestartsHang'],
};

export function scheduleFault(ctx: SimContext, fault: Fault, nodes: SimNode[]): void {
  const { clock, store, timing } = ctx;
  const shutdownMs = timing.kubelet.shutdownGracePeriod.value;
  const inert = fault.kind === 'graceful-shutdown' ? inertShutdown(timing.version.minor, shutdownMs) : undefined;
  clock.at(fault.atMs, () => {
    if (inert) store.event({ kind: 'Cluster', name: 'kubelet', namespace: '' }, 'Note', 'GracefulShutdownInert', inert);
    // An inert shutdown is a power-off: the shutdown's assumption plays no part.
    for (const name of inert ? [] : ASSUMPTIONS[fault.kind] ?? []) {
      const knob = timing.simulator[name];
      store.event({ kind: 'Cluster', name: 'assumptions', namespace: '' }, 'Note', 'Assumption', { knob: `sim.${knob.spec.name}`, value: knob.value, source: knob.source });
    }
    for (const node of nodes) {
      store.event(node.ref, 'Fault', fault.kind, inert ? { failure: fault.kind, inert: true } : { failure: fault.kind });
      for (const pod of node.pods) store.markAffected(pod);
      store.setHost(node, inert ? POWERED_OFF : FAULT_EFFECTS[fault.kind]);
    }
  });
  if (fault.kind === 'graceful-shutdown' && !inert && timing.simulator.shutdownHoldsGracePeriod.value) {
    clock.at(fault.atMs + shutdownMs, () => {
      for (const node of nodes) if (node.host.shuttingDown) store.setHost(node, POWERED_OFF);
    });
  }
  if (fault.recoverAfterMs === undefined) return;
  clock.at(fault.atMs + fault.recoverAfterMs, () => {
    for (const node of nodes) {
      // A node still shutting down is not powered on again: its shutdown is cancelled (logind's PrepareForShutdown(false)).
      store.event(node.ref, 'Recovery', 'NodeReturned', node.host.shuttingDown ? { failure: fault.kind, cancelled: true } : { failure: fault.kind });
      store.setHost(node, HEALTHY);
    }
  });
}

/** The host after the kubelet released its shutdown inhibitor lock (sim.shutdownHoldsGracePeriod=false). */
export function powerOffAfterShutdown(ctx: SimContext, node: SimNode): void {
  if (node.host.shuttingDown) ctx.store.setHost(node, POWERED_OFF);
}

export function scheduleIntervention(ctx: SimContext, intervention: Intervention, failedNodes: () => SimNode[]): void {
  const { clock, store } = ctx;
  clock.at(intervention.atMs, () => {
    const nodes = failedNodes();
    switch (intervention.kind) {
      case 'force-delete':
      case 'delete': {
        const pods = resolvePods(ctx, intervention.target, nodes);
        const force = intervention.kind === 'force-delete';
        if (pods.length === 0) {
          store.event({ kind: 'Pod', name: intervention.target, namespace: '' }, 'Intervention', force ? 'ForceDeleteSkipped' : 'DeleteSkipped', { target: intervention.target });
        }
        for (const pod of pods) {
          store.event(pod.ref, 'Intervention', force ? 'ForceDelete' : 'Delete');
          // A pod deleted on a healthy node is what the run did to its workload: the summary tells it.
          if (!pod.affected && pod.nodeName !== undefined) store.markAffected(pod);
          if (force) store.deletePod(pod, 0, 'kubectl delete --force --grace-period=0');
          else store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'kubectl delete');
        }
        break;
      }
      case 'out-of-service':
        for (const node of nodes) {
          store.event(node.ref, 'Intervention', 'OutOfService', { key: OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' });
          store.addTaint(node, { key: OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' }, 'kubectl taint');
        }
        break;
      case 'delete-node':
        for (const node of nodes) {
          store.event(node.ref, 'Intervention', 'DeleteNode');
          store.deleteNode(node, 'kubectl delete node');
        }
        break;
      case 'restart-controller-manager':
        restartControllerManager(ctx);
        break;
    }
  });
}

const KCM_LEASE = { kind: 'Lease', name: 'kube-controller-manager', namespace: 'kube-system' };

/** The leader is lost at once; the new one holds the lease after the election delay (SEMANTICS.md 18). */
function restartControllerManager(ctx: SimContext): void {
  const { store, clock, timing } = ctx;
  const leader = leaderOf(ctx);
  const knob = timing.simulator.leaderElectionDelay;
  const delayMs = knob.value ?? Math.round(ctx.random.fork(`leader-election@${clock.now}`).uniform(15_000, 19_000));
  store.event(KCM_LEASE, 'Intervention', 'ControllerManagerRestart');
  store.event({ kind: 'Cluster', name: 'assumptions', namespace: '' }, 'Note', 'Assumption', { knob: 'sim.leaderElectionDelay', value: knob.value ?? `${delayMs}ms (drawn)`, source: knob.source });
  // A restart while no leader holds the lease kills a candidate, not the lease's holder: the old lease
  // still expires when it would, so the takeover the first restart began stands (SEMANTICS.md 18).
  if (!leader.leading) return;
  leader.lose();
  clock.after(delayMs, () => {
    leader.acquire();
    store.event(KCM_LEASE, 'KubernetesEvent', 'LeaderElection', { message: `new kube-controller-manager leader became leader, ${formatDuration(delayMs)} after the restart`, delayMs });
  });
}

/** A pod name, or Kind/name: that workload's pods on the failed nodes (or, if none is there, its terminating pods). */
function resolvePods(ctx: SimContext, target: string, failedNodes: SimNode[]): SimPod[] {
  const alive = [...ctx.store.livePods()];
  const { kind, name } = deletionTarget(target);
  if (kind === 'pod') return alive.filter((p) => p.name === name);
  // Every pod on a node, or on the nodes of a zone (kubectl get pods --field-selector spec.nodeName=…, each deleted).
  if (kind === 'node' || kind === 'zone') {
    const nodes = new Set(ctx.store.nodes.filter((n) => (kind === 'node' ? n.name === name : zoneName(n.zone) === name)).map((n) => n.name));
    return alive.filter((p) => p.nodeName !== undefined && nodes.has(p.nodeName));
  }
  const owners = new Set(workloadsNamed(ctx.store.workloads, target));
  const owned = alive.filter((p) => p.owner && owners.has(p.owner));
  const failed = new Set(failedNodes.map((n) => n.name));
  const onFailed = owned.filter((p) => p.nodeName !== undefined && failed.has(p.nodeName));
  return onFailed.length > 0 ? onFailed : owned.filter((p) => p.deletionTimestamp !== undefined);
}
