/**
 * The pod garbage collector (pkg/controller/podgc), every 20 s: force-deletes terminating pods
 * on a NotReady node with the out-of-service taint, pods whose node object is gone (after a
 * 40 s quarantine), and terminating pods never scheduled (SEMANTICS.md 7.1).
 */
import { features, leaderOf, type SimContext } from './context';
import { ApiClient } from './latency';
import { liveNodeOf, type SimPod } from './objects';
import { OUT_OF_SERVICE } from './tolerations';

const GC_PERIOD_MS = 20_000;
const QUARANTINE_MS = 40_000;
/** A pass takes a few milliseconds; passes are `period` apart from the end of the previous one. */
const PASS_MS = 10;

export class PodGarbageCollector {
  private readonly client: ApiClient;
  /** Missing node names and when they become due for the live check. */
  private readonly quarantine = new Map<string, number>();
  private readonly deletedNodes = new Set<string>();
  private readonly outOfServiceNodes = new Set<string>();
  /** Terminating pods never bound to a node. */
  private readonly unscheduledTerminating = new Set<SimPod>();

  constructor(private readonly ctx: SimContext) {
    const random = ctx.random.fork('pod-garbage-collector');
    this.client = new ApiClient(ctx, random);
    ctx.store.onPod((pod, change) => {
      if (change === 'deleting' && pod.nodeName === undefined) this.unscheduledTerminating.add(pod);
      if (change === 'removed') this.unscheduledTerminating.delete(pod);
    });
    ctx.store.onNode((node, change) => {
      if (change === 'deleted') this.deletedNodes.add(node.name);
      if (change === 'added') {
        this.deletedNodes.delete(node.name);
        this.quarantine.delete(node.name);
      }
      if (change === 'taints') {
        if (node.taints.some((t) => t.key === OUT_OF_SERVICE)) this.outOfServiceNodes.add(node.name);
        else this.outOfServiceNodes.delete(node.name);
      }
    });
    // The quarantine is a delaying queue in memory: a new leader quarantines missing nodes again.
    leaderOf(ctx).onLost(() => this.quarantine.clear());
    ctx.clock.at(ctx.clock.now + random.uniform(0, GC_PERIOD_MS), () => this.gc());
  }

  private gc(): void {
    const { store, clock, timing } = this.ctx;
    const now = clock.now;
    // Not leading: the loop keeps its period but does nothing (the new leader's first pass comes within one period).
    if (!leaderOf(this.ctx).leading) {
      clock.after(PASS_MS + GC_PERIOD_MS, () => this.gc());
      return;
    }
    const deletedNodes = this.deletedNodes;
    // gcUnscheduledTerminating, and gcTerminating (NodeOutOfServiceVolumeDetach).
    for (const pod of this.unscheduledTerminating) this.forceDelete(pod, undefined);
    if (this.outOfServiceNodes.size > 0 && features.outOfServiceVolumeDetach(timing.version.minor)) {
      for (const pod of store.terminatingPods) {
        const node = liveNodeOf(pod);
        if (node && this.outOfServiceNodes.has(node.name) && node.ready !== 'True') this.forceDelete(pod, undefined);
      }
    }
    // gcOrphaned: a missing node its pods name is queued for 40 s (AddAfter keeps an earlier due time,
    // and an item due has left the waiting list, so the pass that collects a node's pods queues it
    // again while they are listed); a node due and still missing has its pods deleted. A node no
    // pod names when it comes due leaves the queue, and a pod bound there later waits a quarantine of its own.
    if (deletedNodes.size > 0) {
      for (const node of store.nodes) {
        if (!deletedNodes.has(node.name)) continue;
        const at = this.quarantine.get(node.name);
        if (at !== undefined && at > now) continue;
        if (at !== undefined) for (const pod of node.pods) this.forceDelete(pod, 'DeletionByPodGC');
        if (node.pods.length > 0) this.quarantine.set(node.name, now + QUARANTINE_MS + 1);
        else this.quarantine.delete(node.name);
      }
    }
    clock.after(PASS_MS + GC_PERIOD_MS, () => this.gc());
  }

  /**
   * markFailedAndDeletePodWithCondition: phase Failed (and DisruptionTarget for orphans), then a
   * grace-0 delete; before PodDisruptionConditions (beta-on 1.26) only the delete.
   */
  private forceDelete(pod: SimPod, condition: string | undefined): void {
    const { store, timing } = this.ctx;
    if (features.disruptionConditions(timing.version.minor)) this.client.write(() => {
      if (pod.removed) return;
      if (condition) store.addDisruptionTarget(pod, condition, 'PodGC: node no longer exists');
      store.patchPodStatus(pod, { phase: 'Failed' });
    });
    this.client.write(() => store.deletePod(pod, 0, 'pod garbage collector'));
  }
}
