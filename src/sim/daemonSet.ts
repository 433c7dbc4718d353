/**
 * The DaemonSet controller (pkg/controller/daemon): one pod per node that should run it. Its
 * pods tolerate the not-ready and unreachable NoExecute taints forever, so node failures never
 * evict them; a node with an untolerated NoSchedule taint gets no new pod (shouldRun false)
 * but keeps the one it has (shouldContinueRunning), SEMANTICS.md 6.3. A sync looks at the
 * nodes whose taints or daemon pods changed.
 */
import type { SimContext } from './context';
import { isActive, liveNodeOf, type PodTemplateSim, type SimNode, type SimPod, type SimWorkload } from './objects';
import { matchesMap, matchesNodeSelectorTerms } from './selectors';
import { EXECUTE_EFFECT, SCHEDULING_EFFECTS, untoleratedTaint } from './tolerations';
import type { VolumeBinder } from './volumeBinding';
import { WorkloadController } from './workloadController';

export class DaemonSetController extends WorkloadController {
  /** Nodes a daemon pod is being created for, per DaemonSet. */
  private readonly creating = new Map<SimWorkload, Set<string>>();
  private readonly dirtyNodes = new Map<SimWorkload, Set<SimNode>>();
  /** Per DaemonSet, the nodes it should run on (its status's desiredNumberScheduled). */
  private readonly shouldRunOn = new Map<SimWorkload, Set<SimNode>>();
  /** Finished daemon pods whose deletion is on its way (a sync may come before the write lands). */
  private readonly deleting = new WeakSet<SimPod>();

  constructor(ctx: SimContext, volumes: VolumeBinder) {
    super(ctx, volumes, 'daemonset-controller', ['DaemonSet']);
    const daemonSets = ctx.store.workloads.filter((w) => w.kind === 'DaemonSet');
    for (const workload of daemonSets) this.shouldRunOn.set(workload, new Set(ctx.store.nodes.filter((n) => DaemonSetController.shouldRun(workload, n).shouldRun)));
    ctx.store.onPod((pod, change) => {
      const owner = pod.owner;
      if (owner?.kind !== 'DaemonSet') return;
      // An unbound pod belongs to the node its affinity names (GetTargetNodeName), the healthy layout's Pending ones too: none is created beside it.
      if (pod.nodeName === undefined) {
        const target = targetNodeName(pod)!;
        if (change === 'created') this.creatingFor(owner).add(target);
        if (change === 'removed') {
          // Gone before it ran (deleted, preempted): the node needs a pod again.
          this.creating.get(owner)?.delete(target);
          const node = ctx.store.nodeByName.get(target);
          if (node) this.markDirty(owner, node);
        }
        return;
      }
      const node = liveNodeOf(pod);
      if (change === 'bound') this.creating.get(owner)?.delete(pod.nodeName);
      if (node && (change === 'deleting' || change === 'removed' || change === 'status')) this.markDirty(owner, node);
    });
    ctx.store.onNode((node, change) => {
      if (change !== 'taints' && change !== 'deleted' && change !== 'added') return;
      for (const workload of daemonSets) this.markDirty(workload, node);
    });
  }

  protected override resync(workload: SimWorkload): void {
    for (const node of this.ctx.store.nodes) this.markDirty(workload, node);
  }

  private markDirty(workload: SimWorkload, node: SimNode): void {
    let nodes = this.dirtyNodes.get(workload);
    if (!nodes) this.dirtyNodes.set(workload, (nodes = new Set()));
    nodes.add(node);
    this.enqueue(workload);
  }

  /** nodeShouldRunDaemonPod. */
  static shouldRun(workload: SimWorkload, node: SimNode): { shouldRun: boolean; shouldContinueRunning: boolean } {
    const t = workload.template;
    if (node.deleted || !matchesMap(t.nodeSelector, node.labels) || !matchesNodeSelectorTerms(t.nodeRequired, node.name, node.labels)) {
      return { shouldRun: false, shouldContinueRunning: false };
    }
    return {
      shouldRun: !untoleratedTaint(node.taints, t.tolerations, SCHEDULING_EFFECTS),
      shouldContinueRunning: !untoleratedTaint(node.taints, t.tolerations, EXECUTE_EFFECT),
    };
  }

  protected sync(workload: SimWorkload): void {
    const { store } = this.ctx;
    const nodes = this.dirtyNodes.get(workload);
    this.dirtyNodes.delete(workload);
    for (const node of nodes ?? []) {
      const { shouldRun, shouldContinueRunning } = DaemonSetController.shouldRun(workload, node);
      const running = this.shouldRunOn.get(workload)!;
      if (shouldRun) running.add(node);
      else running.delete(node);
      // A deleted node's daemon pods are left to pod GC's orphan cleanup: the controller walks the
      // nodes that exist, and deletes only unscheduled pods of missing ones (getUnscheduledPodsWithoutNode).
      if (node.deleted) {
        for (const pod of workload.pods) {
          if (!pod.removed && pod.nodeName === undefined && targetNodeName(pod) === node.name) this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'daemonset-controller'));
        }
        continue;
      }
      const pods = [...node.pods].filter((p) => p.owner === workload && isActive(p));
      if (shouldContinueRunning) this.deleteFinished(workload, node);
      if (shouldRun && pods.length === 0) this.createFor(workload, node);
      if (!shouldContinueRunning) {
        for (const pod of pods) this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'daemonset-controller'));
      }
    }
    // updateDaemonSetStatus: a node with an untolerated NoSchedule taint (a dead one) no longer counts (SEMANTICS.md 18).
    store.setDaemonSetStatus(workload, this.shouldRunOn.get(workload)!, nodes ?? []);
  }

  /**
   * podsShouldBeOnNode: a daemon pod that ended Failed (a graceful shutdown, a reboot) or
   * Succeeded on a node it may stay on is deleted, so a new one can run there once shouldRun.
   */
  private deleteFinished(workload: SimWorkload, node: SimNode): void {
    const { store } = this.ctx;
    for (const pod of node.pods) {
      if (pod.owner !== workload || pod.removed || this.deleting.has(pod) || (pod.phase !== 'Failed' && pod.phase !== 'Succeeded')) continue;
      this.deleting.add(pod);
      if (pod.phase === 'Failed') store.event(workload.ref, 'KubernetesEvent', 'FailedDaemonPod', { message: `Found failed daemon pod ${pod.namespace}/${pod.name} on node ${node.name}, will try to kill it`, type: 'Warning' });
      this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'daemonset-controller'));
    }
  }

  /** Nodes with a pod of the DaemonSet created and not bound yet. */
  private creatingFor(workload: SimWorkload): Set<string> {
    let creating = this.creating.get(workload);
    if (!creating) this.creating.set(workload, (creating = new Set()));
    return creating;
  }

  private createFor(workload: SimWorkload, node: SimNode): void {
    const creating = this.creatingFor(workload);
    if (creating.has(node.name)) return;
    creating.add(node.name);
    this.create(workload, undefined, daemonPodTemplate(workload, node));
  }
}

/** The node an unbound daemon pod is for (GetTargetNodeName). */
function targetNodeName(pod: SimPod): string | undefined {
  return pod.template.nodeRequired[0]?.matchFields.find((f) => f.key === 'metadata.name')?.values[0];
}

/** Daemon pods target their node through required node affinity on metadata.name. */
export function daemonPodTemplate(workload: SimWorkload, node: SimNode): PodTemplateSim {
  return {
    ...workload.template,
    placementConstraints: true,
    nodeRequired: [{ matchExpressions: [], matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.name] }] }],
  };
}
