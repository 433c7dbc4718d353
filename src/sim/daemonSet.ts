/**
 * The DaemonSet controller (pkg/controller/daemon): one pod per node that should run it. Its
 * pods tolerate the not-ready and unreachable NoExecute taints forever, so node failures never
 * evict them; a node with an untolerated NoSchedule taint gets no new pod (shouldRun false)
 * but keeps the one it has (shouldContinueRunning), SEMANTICS.md 6.3.
 */
import type { SimContext } from './context';
import { isActive, type SimNode, type SimWorkload } from './objects';
import { matchesMap, matchesNodeSelectorTerms } from './selectors';
import { untoleratedTaint } from './tolerations';
import type { VolumeBinder } from './volumeBinding';
import { WorkloadController } from './workloadController';

export class DaemonSetController extends WorkloadController {
  /** Nodes a daemon pod is being created for, per DaemonSet. */
  private readonly creating = new Map<SimWorkload, Set<string>>();

  constructor(ctx: SimContext, volumes: VolumeBinder) {
    super(ctx, volumes, 'daemonset-controller', ['DaemonSet']);
    ctx.store.onPod((pod, change) => {
      if (change === 'bound' && pod.owner?.kind === 'DaemonSet') this.creating.get(pod.owner)?.delete(pod.nodeName!);
    });
    ctx.store.onNode((_node, change) => {
      if (change !== 'taints' && change !== 'deleted') return;
      for (const workload of ctx.store.workloads) if (workload.kind === 'DaemonSet') this.enqueue(workload);
    });
  }

  /** nodeShouldRunDaemonPod. */
  static shouldRun(workload: SimWorkload, node: SimNode): { shouldRun: boolean; shouldContinueRunning: boolean } {
    const t = workload.template;
    if (node.deleted || !matchesMap(t.nodeSelector, node.labels) || !matchesNodeSelectorTerms(t.nodeRequired, node.name, node.labels)) {
      return { shouldRun: false, shouldContinueRunning: false };
    }
    return {
      shouldRun: !untoleratedTaint(node.taints, t.tolerations, ['NoSchedule', 'NoExecute']),
      shouldContinueRunning: !untoleratedTaint(node.taints, t.tolerations, ['NoExecute']),
    };
  }

  protected sync(workload: SimWorkload): void {
    const { store } = this.ctx;
    const podsByNode = new Map<string, number>();
    for (const pod of workload.pods) {
      if (isActive(pod) && pod.nodeName !== undefined) podsByNode.set(pod.nodeName, (podsByNode.get(pod.nodeName) ?? 0) + 1);
    }
    for (const node of store.nodes) {
      const { shouldRun, shouldContinueRunning } = DaemonSetController.shouldRun(workload, node);
      const running = podsByNode.get(node.name) ?? 0;
      if (shouldRun && running === 0) this.createFor(workload, node);
      if (!shouldContinueRunning && running > 0) {
        for (const pod of workload.pods) {
          if (isActive(pod) && pod.nodeName === node.name) this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'daemonset-controller'));
        }
      }
    }
  }

  private createFor(workload: SimWorkload, node: SimNode): void {
    let creating = this.creating.get(workload);
    if (!creating) this.creating.set(workload, (creating = new Set()));
    if (creating.has(node.name)) return;
    creating.add(node.name);
    // Daemon pods target their node through required node affinity on metadata.name.
    this.create(workload, undefined, daemonPodTemplate(workload, node));
  }
}

export function daemonPodTemplate(workload: SimWorkload, node: SimNode) {
  return {
    ...workload.template,
    nodeRequired: [{ matchExpressions: [], matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: [node.name] }] }],
  };
}
