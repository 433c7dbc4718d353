/**
 * The kubelet of every node (pkg/kubelet). It renews the node lease and posts node status
 * while its host runs and reaches the API server; it starts pods bound to the node, stops
 * pods being deleted and confirms their deletion. When it comes back after an outage it
 * re-adopts running pods (kubelet stop, partition) or restarts them in place with a new IP
 * (power-off), and finishes the deletions it missed (SEMANTICS.md 2).
 */
import type { SimContext } from './context';
import { ApiClient, Informer } from './latency';
import { needsAttach, nextPodIp, type SimNode, type SimPod, type SimVolume } from './objects';
import type { Random } from './random';
import type { PodChange } from './store';

/** Housekeeping period: orphaned containers are killed within this (kubelet housekeepingPeriod). */
const HOUSEKEEPING_MS = 2000;
/** fastStatusUpdateOnce polls every 100 ms after start and posts Ready as soon as it can. */
const FAST_STATUS_MS = 100;
/** The kubelet's lease and status loops jitter their period by up to 4 %. */
const JITTER = 0.04;

/** The kubelets of all nodes; one is made when its node first has something to do. */
export class Kubelets {
  private readonly byNode = new Map<SimNode, Kubelet>();

  constructor(private readonly ctx: SimContext) {
    const { store } = ctx;
    store.onPod((pod, change) => {
      if (pod.node) this.of(pod.node).podChanged(pod, change);
    });
    store.onHost((node) => this.of(node).hostChanged());
    store.onVolume((volume) => {
      const node = volume.attachedTo !== undefined ? store.nodeByName.get(volume.attachedTo) : undefined;
      if (node) this.of(node).volumeAttached(volume);
    });
  }

  private of(node: SimNode): Kubelet {
    let kubelet = this.byNode.get(node);
    if (!kubelet) this.byNode.set(node, (kubelet = new Kubelet(node, this.ctx, this.ctx.random.fork(`kubelet/${node.name}`))));
    return kubelet;
  }
}

class Kubelet {
  private readonly client: ApiClient;
  private readonly informer: Informer<{ pod: SimPod; change: PodChange }>;
  /** Pods whose API object is gone while their containers still run here. */
  private readonly orphans = new Set<SimPod>();
  /** Pods waiting for a volume to be attached to this node before they can start. */
  private readonly waitingForVolumes = new Set<SimPod>();
  private connected: boolean;
  private powered: boolean;

  constructor(private readonly node: SimNode, private readonly ctx: SimContext, private readonly random: Random) {
    this.client = new ApiClient(ctx, random);
    this.informer = new Informer(ctx, random, ({ pod, change }) => this.sync(pod, change));
    // Every host starts up and connected; a kubelet is made before its host's first change.
    this.connected = true;
    this.powered = true;
  }

  /** The kubelet runs and reaches the API server: it renews its lease and sees pod changes. */
  private isConnected(): boolean {
    const { host } = this.node;
    return host.powered && host.kubeletRunning && host.apiReachable;
  }

  podChanged(pod: SimPod, change: PodChange): void {
    if (change === 'bound' || change === 'deleting' || change === 'removed') this.informer.notify({ pod, change });
  }

  private sync(pod: SimPod, change: PodChange): void {
    // A removed object whose containers run here is an orphan, seen on the next relist if disconnected.
    if (change === 'removed') this.killOrphan(pod);
    if (!this.connected) return;
    if (change === 'bound' && !pod.removed && pod.deletionTimestamp === undefined) this.startPod(pod);
    else if (change === 'deleting') this.terminate(pod);
  }

  hostChanged(): void {
    const { host } = this.node;
    const { store, clock } = this.ctx;
    if (this.powered && !host.powered) {
      // The fault's own event says the node's containers are gone; no event per pod.
      for (const pod of [...this.node.pods, ...this.orphans]) store.setPodRuntime(pod, false, false);
      this.orphans.clear();
    }
    const wasConnected = this.connected;
    const rebooted = !this.powered && host.powered;
    this.connected = this.isConnected();
    this.powered = host.powered;
    if (wasConnected && !this.connected) this.stopHeartbeats();
    if (!wasConnected && this.connected) clock.after(0, () => this.comeBack(rebooted));
  }

  /** Heartbeats stop: the API keeps the last lease renewal and status post (SEMANTICS.md 13.1: r, h). */
  private stopHeartbeats(): void {
    const { timing, store, clock } = this.ctx;
    const { lastLeaseRenewalAge, lastStatusPostAge } = timing.simulator;
    const renewAge = lastLeaseRenewalAge.value ?? this.random.uniform(0, timing.derived.leaseRenewIntervalMs * (1 + JITTER * this.random.next()));
    const statusAge = lastStatusPostAge.value ?? this.random.uniform(0, timing.kubelet.nodeStatusReportFrequency.value * (1 + JITTER * this.random.next()));
    const since = this.node.lease.live ? this.node.lease.renewTime : -Infinity;
    const lastRenewal = Math.max(since, Math.round(clock.now - renewAge));
    const lastStatus = Math.max(since, Math.round(clock.now - statusAge));
    store.event(this.node.ref, 'Note', 'LastHeartbeat', { lastLeaseRenewalMs: lastRenewal, lastStatusPostMs: lastStatus });
    store.setLease(this.node, false, lastRenewal, lastStatus);
  }

  /** Back after an outage: renew the lease, post Ready, then deal with every pod bound here. */
  private comeBack(rebooted: boolean): void {
    const { store, clock } = this.ctx;
    const node = this.node;
    this.client.write(() => store.setLease(node, true, clock.now, clock.now));
    clock.after(FAST_STATUS_MS, () => this.client.write(() => {
      if (this.connected) store.setNodeReady(node, 'True', 'KubeletReady', 'kubelet is posting ready status');
    }));
    for (const pod of this.orphans) clock.after(this.random.uniform(0, HOUSEKEEPING_MS), () => this.killOrphan(pod));
    this.orphans.clear();
    for (const pod of [...node.pods]) {
      if (pod.deletionTimestamp !== undefined) this.terminate(pod);
      else if (rebooted || !pod.running) this.restartInPlace(pod, rebooted);
      else this.client.write(() => store.patchPodStatus(pod, { ready: pod.appReady, containersReady: pod.appReady }));
    }
  }

  /** After a reboot the sandbox is gone: the status turns Unknown, then the pod restarts with a new IP. */
  private restartInPlace(pod: SimPod, rebooted: boolean): void {
    const { store } = this.ctx;
    if (pod.phase === 'Pending') {
      this.startPod(pod);
      return;
    }
    if (rebooted) {
      this.client.write(() => store.patchPodStatus(pod, { phase: 'Unknown', ready: false, containersReady: false, containerState: 'terminated', containerReason: undefined, ip: undefined }));
    }
    this.launch(pod, pod.restartCount + 1);
  }

  private startPod(pod: SimPod): void {
    const { store } = this.ctx;
    this.client.write(() => store.patchPodStatus(pod, { phase: 'Pending', containerState: 'waiting', containerReason: 'ContainerCreating' }));
    if (this.missingVolume(pod)) {
      this.waitingForVolumes.add(pod);
      return;
    }
    this.launch(pod, pod.restartCount);
  }

  volumeAttached(_volume: SimVolume): void {
    if (!this.connected) return;
    for (const pod of [...this.waitingForVolumes]) {
      if (pod.removed || pod.deletionTimestamp !== undefined) this.waitingForVolumes.delete(pod);
      else if (!this.missingVolume(pod)) {
        this.waitingForVolumes.delete(pod);
        this.launch(pod, pod.restartCount);
      }
    }
  }

  private missingVolume(pod: SimPod): boolean {
    return pod.claims.some((c) => c.volume && needsAttach(c.volume) && c.volume.attachedTo !== this.node.name);
  }

  /** Image pull, sandbox and start take the pod start latency; readiness follows the readiness probe. */
  private launch(pod: SimPod, restartCount: number): void {
    const { store, timing, clock } = this.ctx;
    const started = clock.now + timing.simulator.podStartLatency.value;
    clock.at(started, () => {
      if (!this.connected || pod.removed || pod.deletionTimestamp !== undefined) return;
      const probe = pod.template.readinessProbe;
      const ip = nextPodIp(this.node);
      store.setPodRuntime(pod, true, !probe);
      this.client.write(() => store.patchPodStatus(pod, {
        phase: 'Running', reason: undefined, containerState: 'running', containerReason: undefined, ip, restartCount,
        ready: !probe, containersReady: !probe,
      }));
      if (probe) {
        // The first probe runs at a random point of its period once the initial delay has passed.
        const readyAt = clock.now + probe.initialDelaySeconds * 1000 + this.random.uniform(0, probe.periodSeconds * 1000);
        clock.at(readyAt, () => {
          if (!this.connected || pod.removed || !pod.running) return;
          store.setPodRuntime(pod, true, true);
          this.client.write(() => store.patchPodStatus(pod, { ready: true, containersReady: true }));
        });
      }
    });
  }

  /** preStop and SIGTERM; the containers exit, then the kubelet removes the object (grace 0). */
  private terminate(pod: SimPod): void {
    const { store, timing, clock } = this.ctx;
    if (pod.removed) return;
    this.waitingForVolumes.delete(pod);
    const graceMs = (pod.deletionGracePeriodSeconds ?? pod.template.terminationGracePeriodSeconds) * 1000;
    const stopLatencyMs = timing.simulator.containerStopLatency.value;
    const stopMs = Math.min(stopLatencyMs, pod.running ? graceMs : 100);
    clock.after(stopMs, () => {
      if (!this.connected || pod.removed) return;
      store.setPodRuntime(pod, false, false, 'deleted');
      this.client.write(() => store.patchPodStatus(pod, { ready: false, containersReady: false, containerState: 'terminated', containerReason: 'Completed' }));
      this.client.write(() => store.removePod(pod, `kubelet on ${this.node.name} confirmed the deletion`));
    });
  }

  private killOrphan(pod: SimPod): void {
    if (!pod.running) return;
    if (!this.connected) {
      this.orphans.add(pod);
      return;
    }
    this.ctx.clock.after(this.random.uniform(0, HOUSEKEEPING_MS), () => {
      this.ctx.store.setPodRuntime(pod, false, false, 'housekeeping');
    });
  }
}
