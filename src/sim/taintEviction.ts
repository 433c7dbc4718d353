/**
 * The taint eviction controller (pkg/controller/tainteviction): pods on a node with NoExecute
 * taints are deleted at once if some taint is not tolerated, or `min(tolerationSeconds)`
 * after the controller observes the taint; removing the taints cancels (SEMANTICS.md 4).
 */
import { legacyPodEviction } from '../cluster/controllerManagerConfiguration';
import { features, leaderOf, type SimContext } from './context';
import { ApiClient, Informer } from './latency';
import { liveNodeOf, type SimNode, type SimPod } from './objects';
import { matchingTolerations, minTolerationMs } from './tolerations';

export class TaintEvictionController {
  /** Pending evictions by pod: the fire time of the one that counts. */
  private readonly scheduled = new Map<SimPod, { fireAt: number }>();
  private readonly client: ApiClient;
  private readonly source: string;

  constructor(private readonly ctx: SimContext) {
    const { store, timing } = ctx;
    const random = ctx.random.fork('taint-eviction-controller');
    this.client = new ApiClient(ctx, random);
    this.source = features.separateTaintEvictionController(timing.version.minor) ? 'taint-eviction-controller' : 'node-lifecycle-controller';
    // Without the taint manager (up to 1.26, --enable-taint-manager=false) nothing acts on NoExecute taints.
    if (legacyPodEviction(timing.version.minor, timing.controllerManager.enableTaintManager.value)) return;
    // Node events are handled before pod events in the real controller; both arrive through informers.
    const leader = leaderOf(ctx);
    const nodeInformer = new Informer<SimNode>(ctx, random, (node) => {
      if (leader.leading) for (const pod of [...node.pods]) this.processPodOnNode(pod, node);
    });
    const podInformer = new Informer<SimPod>(ctx, random, (pod) => {
      const node = liveNodeOf(pod);
      if (node && leader.leading) this.processPodOnNode(pod, node);
    });
    // Timers live in memory: a new leader starts them again from its own start (SEMANTICS.md 4).
    leader.onLost(() => this.scheduled.clear());
    leader.onAcquired(() => {
      for (const node of store.nodes) if (!node.deleted && node.taints.some((t) => t.effect === 'NoExecute')) nodeInformer.notify(node);
    });
    const noExecuteKeys = new Map<SimNode, string>();
    store.onNode((node, change) => {
      if (change !== 'taints' && change !== 'added') return;
      const keys = node.taints.filter((t) => t.effect === 'NoExecute').map((t) => `${t.key}=${t.value}`).sort().join();
      // A Node created again (its kubelet registers it after a deletion) is always handled (NodeUpdated with no old node):
      // without NoExecute taints it cancels the evictions its pods still had scheduled.
      if (change === 'taints' && (noExecuteKeys.get(node) ?? '') === keys) return;
      noExecuteKeys.set(node, keys);
      nodeInformer.notify(node);
    });
    store.onPod((pod, change) => {
      if (change === 'bound') podInformer.notify(pod);
      if (change === 'removed') this.cancel(pod, false);
    });
  }

  /** processPodOnNode, with `now` the time the controller handles the event (not the taint's timeAdded). */
  private processPodOnNode(pod: SimPod, node: SimNode): void {
    const { clock } = this.ctx;
    if (pod.removed || pod.nodeName !== node.name) return;
    const taints = node.taints.filter((t) => t.effect === 'NoExecute');
    if (taints.length === 0) {
      this.cancel(pod, true);
      return;
    }
    const tolerations = matchingTolerations(taints, pod.template.tolerations);
    if (!tolerations) {
      this.cancel(pod, false);
      this.evict(pod);
      return;
    }
    const waitMs = minTolerationMs(tolerations);
    if (waitMs < 0) {
      this.cancel(pod, true);
      return;
    }
    if (waitMs === 0) {
      this.cancel(pod, false);
      this.evict(pod);
      return;
    }
    // An eviction already scheduled keeps its start: swapping not-ready and unreachable does not restart the clock.
    if (this.scheduled.has(pod)) return;
    const eviction = { fireAt: clock.now + waitMs };
    this.scheduled.set(pod, eviction);
    clock.at(eviction.fireAt, () => {
      if (this.scheduled.get(pod) !== eviction) return;
      this.scheduled.delete(pod);
      this.evict(pod);
    });
  }

  private cancel(pod: SimPod, withEvent: boolean): void {
    if (!this.scheduled.delete(pod) || !withEvent || pod.removed) return;
    this.ctx.store.event(pod.ref, 'KubernetesEvent', 'TaintManagerEviction', { message: `Cancelling deletion of Pod ${pod.namespace}/${pod.name}`, source: this.source });
  }

  /** addConditionAndDeletePod: DisruptionTarget (1.26+), then a normal DELETE with the pod's own grace period. */
  private evict(pod: SimPod): void {
    const { store, timing } = this.ctx;
    if (pod.removed || pod.deletionTimestamp !== undefined) return;
    store.event(pod.ref, 'KubernetesEvent', 'TaintManagerEviction', { message: `Marking for deletion Pod ${pod.namespace}/${pod.name}`, source: this.source });
    if (features.disruptionConditions(timing.version.minor)) {
      this.client.write(() => store.addDisruptionTarget(pod, 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint'));
    }
    this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, this.source));
  }
}
