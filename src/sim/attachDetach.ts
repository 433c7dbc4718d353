/**
 * The attach-detach controller (pkg/controller/volume/attachdetach) for ReadWriteOnce network
 * volumes: a volume stays attached to a node while a pod there that uses it is not terminated,
 * which a pod on a dead node never is; once the last such pod is gone it detaches at once from a
 * Ready node, at once with the out-of-service taint, or after 6 minutes from a node that is not
 * Ready. A pod elsewhere waits in ContainerCreating with a Multi-Attach error (SEMANTICS.md 7.3).
 */
import { features, leaderOf, type SimContext } from './context';
import { ApiClient, Informer } from './latency';
import { needsAttach, type SimNode, type SimPod, type SimVolume } from './objects';
import type { DetachCause, Store } from './store';
import { OUT_OF_SERVICE } from './tolerations';

const MAX_WAIT_FOR_UNMOUNT_MS = 6 * 60_000;
/** Unmount by a live kubelet, then the detach call. */
const NORMAL_DETACH_MS = 1000;

export class AttachDetachController {
  private readonly client: ApiClient;
  /** Pods waiting for each volume, in the order they asked. */
  private readonly waiting = new Map<SimVolume, SimPod[]>();
  private readonly reported = new Set<SimPod>();
  /** Volumes whose attach is under way, each with its own token (a new leader's attach is another). */
  private readonly attaching = new Map<SimVolume, object>();

  /** Nodes whose object was deleted, by name: their pods may still hold volumes. */
  private readonly deletedNodes = new Map<string, SimNode>();
  private readonly leader: ReturnType<typeof leaderOf>;

  constructor(private readonly ctx: SimContext) {
    const { store } = ctx;
    const random = ctx.random.fork('attach-detach-controller');
    this.client = new ApiClient(ctx, random);
    const leader = (this.leader = leaderOf(ctx));
    const usesAttach = (pod: SimPod) => pod.claims.some((c) => c.volume && needsAttach(c.volume));
    const podInformer = new Informer<SimPod>(ctx, random, (pod) => this.podChanged(pod));
    store.onPod((pod, change) => {
      if (change !== 'created' && usesAttach(pod)) podInformer.notify(pod);
    });
    const attached = new AttachedVolumes(store);
    store.onNode((node, change) => {
      if (change === 'deleted') this.deletedNodes.set(node.name, node);
      if (change === 'added') this.deletedNodes.delete(node.name);
      // 'added': a deleted node registered again by its kubelet, which unmounts what no pod uses.
      if (change === 'ready' || change === 'taints' || change === 'deleted' || change === 'added') {
        for (const volume of attached.onNode(node.name)) if (volume.attachedTo === node.name) this.reconcile(volume);
      }
    });
    // The detach request times and the waiting pods are held in memory (actualStateOfWorld): the
    // new leader rebuilds them from the pods and the nodes' attached volumes, so a force detach's
    // 6 minutes start again at its first reconcile.
    leader.onLost(() => {
      for (const volume of store.volumes) {
        volume.detachRequestedAt = undefined;
        // No force detach is due until the new leader's first reconcile sets one.
        if (volume.forceDetach !== 'disabled') volume.forceDetach = undefined;
      }
      this.waiting.clear();
      this.attaching.clear();
    });
    leader.onAcquired(() => {
      for (const pod of store.livePods()) if (usesAttach(pod)) this.podChanged(pod);
      for (const volume of store.volumes) if (volume.attachedTo !== undefined) this.reconcile(volume);
    });
  }

  private podChanged(pod: SimPod): void {
    if (!this.leader.leading) return;
    for (const claim of pod.claims) {
      const volume = claim.volume;
      if (!volume || !needsAttach(volume)) continue;
      if (!pod.removed && pod.nodeName !== undefined && !this.isTerminated(pod) && volume.attachedTo !== pod.nodeName) {
        const queue = this.waiting.get(volume) ?? [];
        if (!queue.includes(pod)) queue.push(pod);
        this.waiting.set(volume, queue);
      }
      this.reconcile(volume);
    }
  }

  /** IsPodTerminated: terminal phase, or deleted with no container reported running (never true on a dead node). */
  private isTerminated(pod: SimPod): boolean {
    return pod.phase === 'Failed' || pod.phase === 'Succeeded' || (pod.deletionTimestamp !== undefined && pod.containerState !== 'running');
  }

  /** Pods that keep the volume in the desired state of the world on a node. */
  private usersOn(volume: SimVolume, nodeName: string): SimPod[] {
    return this.podsOn(nodeName).filter((p) => this.uses(p, volume));
  }

  private inUseOn(volume: SimVolume, nodeName: string): boolean {
    return this.podsOn(nodeName).some((p) => this.uses(p, volume));
  }

  private podsOn(nodeName: string): readonly SimPod[] {
    // A deleted Node keeps its pods' volumes in the desired state until the pods are terminal or gone
    // (nodeDelete: DeleteNode refuses a node that still has volumes to attach).
    return (this.ctx.store.nodeByName.get(nodeName) ?? this.deletedNodes.get(nodeName))?.pods ?? [];
  }

  private uses(pod: SimPod, volume: SimVolume): boolean {
    return !pod.removed && !this.isTerminated(pod) && pod.claims.some((c) => c.volume === volume);
  }

  private reconcile(volume: SimVolume): void {
    const { store, clock, timing } = this.ctx;
    if (!this.leader.leading) return;
    const attachedTo = volume.attachedTo;
    if (attachedTo !== undefined) {
      const minor = timing.version.minor;
      const forceDetachDisabled = features.disableForceDetachFlag(minor) && timing.controllerManager.disableForceDetachOnTimeout.value;
      // Set again below when a force detach is due; a pod back on the node cancels it (ResetDetachRequestTime).
      volume.forceDetach = forceDetachDisabled ? 'disabled' : undefined;
      if (this.inUseOn(volume, attachedTo)) {
        volume.detachRequestedAt = undefined;
        this.reportMultiAttach(volume);
        return;
      }
      volume.detachRequestedAt ??= clock.now;
      const node = store.nodeByName.get(attachedTo);
      const outOfService = node !== undefined && features.outOfServiceVolumeDetach(minor) && node.taints.some((t) => t.key === OUT_OF_SERVICE);
      // A live kubelet that reaches the API unmounts and reports it (volumesInUse), whatever its Ready
      // condition: reconcile() waits only on MountedByNode; Ready matters for the force detach alone
      // (pkg/controller/volume/attachdetach/reconciler/reconciler.go). SEMANTICS.md 7.3 also asks for Ready.
      if (node && node.host.kubeletRunning && node.host.apiReachable) {
        this.detachAt(volume, clock.now + NORMAL_DETACH_MS, 'unmounted');
      } else if (outOfService) {
        this.detachAt(volume, clock.now, 'out-of-service');
      } else if (!forceDetachDisabled) {
        volume.forceDetach = { atMs: volume.detachRequestedAt + MAX_WAIT_FOR_UNMOUNT_MS };
        this.detachAt(volume, volume.forceDetach.atMs, 'force-detach-timeout');
      }
      this.reportMultiAttach(volume);
      return;
    }
    const next = (this.waiting.get(volume) ?? []).find((p) => !p.removed && p.nodeName !== undefined && !this.isTerminated(p));
    if (!next || this.attaching.has(volume)) return;
    const attach = {};
    this.attaching.set(volume, attach);
    clock.after(timing.simulator.volumeAttachLatency.value, () => {
      if (this.attaching.get(volume) !== attach) return;
      this.attaching.delete(volume);
      if (volume.attachedTo !== undefined || next.removed || next.nodeName === undefined) return this.reconcile(volume);
      this.waiting.set(volume, (this.waiting.get(volume) ?? []).filter((p) => p !== next));
      this.client.write(() => store.setVolumeAttachment(volume, next.nodeName));
    });
  }

  private detachAt(volume: SimVolume, at: number, cause: DetachCause): void {
    const requested = volume.detachRequestedAt;
    this.ctx.clock.at(at, () => {
      if (volume.detachRequestedAt !== requested || volume.attachedTo === undefined) return;
      if (this.inUseOn(volume, volume.attachedTo)) return;
      // Force detach is only for a node that is still not Ready (SEMANTICS.md 7.3); a node back by then unmounts normally.
      if (cause === 'force-detach-timeout' && this.ctx.store.nodeByName.get(volume.attachedTo)?.ready === 'True') return;
      this.client.write(() => {
        this.ctx.store.setVolumeAttachment(volume, undefined, cause);
        this.reconcile(volume);
      });
    });
  }

  /** reportMultiAttachError, once per waiting pod. */
  private reportMultiAttach(volume: SimVolume): void {
    const { store } = this.ctx;
    for (const pod of this.waiting.get(volume) ?? []) {
      if (this.reported.has(pod) || pod.removed || pod.nodeName === volume.attachedTo) continue;
      this.reported.add(pod);
      const users = volume.attachedTo !== undefined ? this.usersOn(volume, volume.attachedTo) : [];
      const message = users.length > 0
        ? `Multi-Attach error for volume "${volume.name}" Volume is already used by pod(s) ${users.map((p) => p.name).join(', ')}`
        : `Multi-Attach error for volume "${volume.name}" Volume is already exclusively attached to one node and can't be attached to another`;
      store.event(pod.ref, 'KubernetesEvent', 'FailedAttachVolume', { message, volume: volume.name, attachedTo: volume.attachedTo ?? null });
    }
  }
}

/**
 * The actual state of the world by node (actualStateOfWorld.GetAttachedVolumesForNode): the
 * volumes attached to each node, in the store's order, so that a node's change looks at its own
 * few volumes rather than every volume of the cluster. Kept beside the controller (STYLE.md);
 * volumes attached before the simulation starts are read once, later ones follow the store.
 */
class AttachedVolumes {
  private readonly byNode = new Map<string, SimVolume[]>();
  private readonly nodeOf = new Map<SimVolume, string>();
  private readonly order = new Map<SimVolume, number>();
  private indexed = 0;

  constructor(private readonly store: Store) {
    this.indexNew();
    store.onVolume((volume) => {
      this.indexNew();
      this.move(volume);
    });
  }

  /** A snapshot of the volumes attached to the node, in the store's order. */
  onNode(nodeName: string): SimVolume[] {
    this.indexNew();
    const volumes = this.byNode.get(nodeName);
    return volumes ? [...volumes] : [];
  }

  /** Volumes the store gained since the last look (attached by the initial placement, or not yet attached). */
  private indexNew(): void {
    const volumes = this.store.volumes;
    for (; this.indexed < volumes.length; this.indexed++) {
      this.order.set(volumes[this.indexed], this.indexed);
      this.move(volumes[this.indexed]);
    }
  }

  private move(volume: SimVolume): void {
    const before = this.nodeOf.get(volume);
    const after = volume.attachedTo;
    if (before === after) return;
    if (before !== undefined) {
      this.byNode.set(before, this.byNode.get(before)!.filter((v) => v !== volume));
      this.nodeOf.delete(volume);
    }
    if (after === undefined) return;
    this.nodeOf.set(volume, after);
    let volumes = this.byNode.get(after);
    if (!volumes) this.byNode.set(after, (volumes = []));
    volumes.push(volume);
    const order = this.order;
    volumes.sort((a, b) => order.get(a)! - order.get(b)!);
  }
}
