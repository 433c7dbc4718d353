/**
 * The outside world: power-off, kubelet stop and network partition of nodes, their return,
 * and what an operator does about it (force delete, out-of-service taint, node deletion).
 */
import type { SimContext } from './context';
import type { SimNode, SimPod } from './objects';
import type { Fault, Intervention } from './scenario';
import { OUT_OF_SERVICE } from './tolerations';

export function scheduleFault(ctx: SimContext, fault: Fault, nodes: SimNode[]): void {
  const { clock, store } = ctx;
  clock.at(fault.atMs, () => {
    for (const node of nodes) {
      store.event(node.ref, 'Fault', fault.kind, { failure: fault.kind });
      for (const pod of node.pods) store.markAffected(pod);
      if (fault.kind === 'power-off') store.setHost(node, { powered: false, kubeletRunning: false, apiReachable: false, dataPlaneReachable: false });
      if (fault.kind === 'kubelet-stop') store.setHost(node, { kubeletRunning: false });
      if (fault.kind === 'partition') store.setHost(node, { apiReachable: false, dataPlaneReachable: false });
    }
  });
  if (fault.recoverAfterMs === undefined) return;
  clock.at(fault.atMs + fault.recoverAfterMs, () => {
    for (const node of nodes) {
      store.event(node.ref, 'Recovery', 'NodeReturned', { failure: fault.kind });
      store.setHost(node, { powered: true, kubeletRunning: true, apiReachable: true, dataPlaneReachable: true });
    }
  });
}

export function scheduleIntervention(ctx: SimContext, intervention: Intervention, failedNodes: () => SimNode[]): void {
  const { clock, store } = ctx;
  clock.at(intervention.atMs, () => {
    const nodes = failedNodes();
    switch (intervention.kind) {
      case 'force-delete': {
        const pods = resolvePods(ctx, intervention.target, nodes);
        if (pods.length === 0) {
          store.event({ kind: 'Pod', name: intervention.target, namespace: '' }, 'Intervention', 'ForceDeleteSkipped', { target: intervention.target });
        }
        for (const pod of pods) {
          store.event(pod.ref, 'Intervention', 'ForceDelete');
          store.deletePod(pod, 0, 'kubectl delete --force --grace-period=0');
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
    }
  });
}

/** A pod name, or Kind/name: that workload's pods on the failed nodes (or, if none is there, its terminating pods). */
function resolvePods(ctx: SimContext, target: string, failedNodes: SimNode[]): SimPod[] {
  const slash = target.indexOf('/');
  const alive = [...ctx.store.livePods()];
  if (slash < 0 || target.toLowerCase().startsWith('pod/')) {
    const name = slash < 0 ? target : target.slice(slash + 1);
    return alive.filter((p) => p.name === name);
  }
  const kind = target.slice(0, slash).toLowerCase();
  const name = target.slice(slash + 1);
  const owned = alive.filter((p) => p.owner && p.owner.kind.toLowerCase() === kind && p.owner.name === name);
  const failed = new Set(failedNodes.map((n) => n.name));
  const onFailed = owned.filter((p) => p.nodeName !== undefined && failed.has(p.nodeName));
  return onFailed.length > 0 ? onFailed : owned.filter((p) => p.deletionTimestamp !== undefined);
}
