/**
 * The kubelet of every node (pkg/kubelet). It renews the node lease and posts node status
 * while its host runs and reaches the API server; it starts pods bound to the node, stops
 * pods being deleted and confirms their deletion. When it comes back after an outage it
 * re-adopts running pods (kubelet stop, partition) or restarts them in place with a new IP
 * (power-off), and finishes the deletions it missed (SEMANTICS.md 2). With the runtime down it
 * posts Ready=False while renewing its lease (13.5); on a failed disk its probes fail while the
 * node stays Ready (11); on an announced shutdown it stops every pod first (2.4).
 */
import { containerStopMs } from '../manifest/model/containerStop';
import { isMirrorPod } from '../manifest/model/workloads';
import { newPod } from './podFactory';
import { features, type SimContext } from './context';
import { powerOffAfterShutdown } from './faults';
import { ApiClient, Informer } from './latency';
import { needsAttach, nextPodIp, type SimNode, type SimPod, type SimVolume } from './objects';
import type { Random } from './random';
import type { PodChange } from './store';

/** Housekeeping period: orphaned containers are killed within this (kubelet housekeepingPeriod). */
const HOUSEKEEPING_MS = 2000;
/** fastStatusUpdateOnce polls every 100 ms after start and posts Ready as soon as it can. */
const FAST_STATUS_MS = 100;
/** backoffEnsureLease's longest wait between lease retries. */
const LEASE_RETRY_CAP_MS = 7000;
/** updateRuntimeUp's period, and how old its last success may be before the runtime counts as down (maxWaitForContainerRuntime). */
const RUNTIME_CHECK_MS = 5000;
const MAX_WAIT_FOR_RUNTIME_MS = 30_000;
/** The status manager's syncBatch period, which writes pod statuses the API does not show. */
const STATUS_BATCH_MS = 10_000;
/** The kubelet's lease and status loops jitter their period by up to 4 %. */
const JITTER = 0.04;
/** Container restart backoff: 10 s doubling to 300 s (SEMANTICS.md 10). */
const BACKOFF_INITIAL_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;
/** The pod worker syncs a backed-off pod again after wait.Jitter(backOffPeriod 10 s, 0.5): 10–15 s (pkg/kubelet/pod_workers.go). */
const POD_WORKER_BACKOFF_MS = 10_000;

/** The kubelets of all nodes; one is made when its node first has something to do. */
export class Kubelets {
  private readonly byNode = new Map<SimNode, Kubelet>();

  constructor(private readonly ctx: SimContext) {
    const { store } = ctx;
    store.onPod((pod, change) => {
      if (pod.node && Kubelet.watches(change)) this.of(pod.node).podChanged(pod, change);
    });
    store.onHost((node) => this.of(node).hostChanged());
    // The node lifecycle controller wrote Ready=Unknown: a kubelet that reaches the API puts its own condition back.
    store.onNode((node, change) => {
      if (change === 'ready' && node.ready === 'Unknown' && !node.deleted) this.of(node).readyOverwritten();
    });
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
  /** When each backed-off container starts again (CrashLoopBackOff): the pod worker's first sync after its back-off. */
  private readonly restartAt = new Map<SimPod, number>();
  /** Pods waiting for a volume to be attached to this node before they can start. */
  private readonly waitingForVolumes = new Set<SimPod>();
  private connected: boolean;
  private powered: boolean;
  /** The kubelet process runs. */
  private running = true;
  /** Started since it last came back: it registers its node on its return. */
  private registers = false;
  private runtimeUp = true;
  private diskHealthy = true;
  private shuttingDown = false;
  /** When the pods of the shutdown under way are all stopped. */
  private shutdownDoneAt = -Infinity;
  /** Bumped when the disk fails or heals: probe timers of the previous state do nothing. */
  private diskEpoch = 0;

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

  /** The pod changes the kubelet's pod informer passes on. */
  static watches(change: PodChange): boolean {
    return change === 'bound' || change === 'deleting' || change === 'removed';
  }

  podChanged(pod: SimPod, change: PodChange): void {
    if (Kubelet.watches(change)) this.informer.notify({ pod, change });
  }

  private sync(pod: SimPod, change: PodChange): void {
    // A removed object whose containers run here is an orphan, seen on the next relist if disconnected.
    if (change === 'removed') this.killOrphan(pod);
    if (!this.connected || this.skipsPodSync()) return;
    if (change === 'bound' && !pod.removed && pod.deletionTimestamp === undefined) this.startPod(pod);
    else if (change === 'deleting') this.terminate(pod);
  }

  /** While the runtime is down a real kubelet does not sync pods (syncLoop, runtimeErrors); assumed otherwise by default (sim.notReadyKubeletSyncsPods). */
  private skipsPodSync(): boolean {
    return !this.runtimeUp && !this.ctx.timing.simulator.notReadyKubeletSyncsPods.value;
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
    const isRunning = host.powered && host.kubeletRunning;
    const started = !this.running && isRunning;
    this.connected = this.isConnected();
    this.powered = host.powered;
    this.running = isRunning;
    if (wasConnected && !this.connected) this.stopHeartbeats();
    if (started) this.registers = true;
    if (!wasConnected && this.connected) clock.after(0, () => this.comeBack(rebooted));
    if (host.runtimeUp !== this.runtimeUp) this.runtimeChanged(host.runtimeUp);
    if (host.diskHealthy !== this.diskHealthy) this.diskChanged(host.diskHealthy);
    if (!host.powered) this.shuttingDown = false;
    else if (host.shuttingDown && !this.shuttingDown) {
      this.shuttingDown = true;
      if (this.connected) this.shutDown();
    } else if (!host.shuttingDown && this.shuttingDown) this.shutdownCancelled();
  }

  /**
   * PrepareForShutdown(false): the kubelet reads it once processShutdownEvent has stopped every pod
   * (the same loop), clears nodeShuttingDownNow and admits pods again; its next status sync posts
   * Ready (pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go start). The stopped pods stay Failed.
   */
  private shutdownCancelled(): void {
    const { clock } = this.ctx;
    clock.at(this.shutdownDoneAt, () => {
      const { host } = this.node;
      if (!this.shuttingDown || !host.powered || host.shuttingDown) return;
      this.shuttingDown = false;
      clock.after(this.nextStatusSyncMs(), () => {
        if (!this.shuttingDown && this.runtimeUp && this.node.ready !== 'True') this.postReady('True', 'KubeletReady', 'kubelet is posting ready status');
      });
    });
  }

  /** The next node status sync: computed every nodeStatusUpdateFrequency, so a change is posted 0–10.4 s later (SEMANTICS.md 2.1). */
  private nextStatusSyncMs(): number {
    const frequency = this.ctx.timing.kubelet.nodeStatusUpdateFrequency.value;
    return this.random.uniform(0, frequency * (1 + JITTER * this.random.next()));
  }

  /**
   * The controller marked the node Unknown while this kubelet reaches the API (its status post and
   * the controller's write crossed): its next status sync finds the API's Ready condition differs
   * from its own and patches it back (tryUpdateNodeStatus).
   */
  readyOverwritten(): void {
    if (!this.connected) return;
    this.ctx.clock.after(this.nextStatusSyncMs(), () => {
      if (this.node.ready !== 'Unknown' || this.node.deleted) return;
      if (this.shuttingDown) this.postReady('False', 'KubeletNotReady', 'node is shutting down');
      else if (!this.runtimeUp) this.postReady('False', 'KubeletNotReady', 'container runtime is down');
      else this.postReady('True', 'KubeletReady', 'kubelet is posting ready status');
    });
  }

  /** A node status PATCH with a changed Ready condition; the lease keeps being renewed. */
  private postReady(status: 'True' | 'False', reason: string, message: string): void {
    const { store, clock } = this.ctx;
    this.client.write(() => {
      if (!this.connected) return;
      store.setLease(this.node, true, this.node.lease.renewTime, clock.now);
      store.setNodeReady(this.node, status, reason, message);
    });
  }

  /**
   * Runtime down or back: Ready=False (KubeletNotReady) or True at the status sync after the
   * kubelet notices. updateRuntimeUp checks the runtime every 5 s; "container runtime is down"
   * is reported once its last successful check is maxWaitForContainerRuntime (30 s) old, so
   * 25–30 s after the runtime fails, and cleared at the first check that succeeds
   * (pkg/kubelet/runtime.go runtimeErrors, kubelet.go).
   */
  private runtimeChanged(up: boolean): void {
    const { clock, store, timing } = this.ctx;
    this.runtimeUp = up;
    const sinceLastCheckMs = this.random.uniform(0, RUNTIME_CHECK_MS);
    const noticedMs = up ? RUNTIME_CHECK_MS - sinceLastCheckMs : MAX_WAIT_FOR_RUNTIME_MS - sinceLastCheckMs;
    clock.after(noticedMs + this.nextStatusSyncMs(), () => {
      if (this.runtimeUp !== up) return;
      if (up) this.postReady('True', 'KubeletReady', 'kubelet is posting ready status');
      else this.postReady('False', 'KubeletNotReady', 'container runtime is down');
    });
    // Pod synchronization resumes: deletions that came while the runtime was down are carried out.
    if (up && !timing.simulator.notReadyKubeletSyncsPods.value && this.connected) {
      for (const pod of [...this.node.pods]) if (pod.deletionTimestamp !== undefined && !pod.removed) this.terminate(pod);
    }
    if (timing.simulator.notReadyPodsKeepServing.value) return;
    for (const pod of this.node.pods) if (pod.running) store.setPodRuntime(pod, true, up);
  }

  /**
   * The disk fails: the apps hang (nothing answers), readiness probes fail after failureThreshold
   * periods and the pod turns NotReady, liveness probes restart the container in a loop with
   * backoff; nothing in the control plane reacts (SEMANTICS.md 11). Healed: the apps answer again.
   */
  private diskChanged(healthy: boolean): void {
    const { store, clock } = this.ctx;
    this.diskHealthy = healthy;
    const epoch = ++this.diskEpoch;
    for (const pod of [...this.node.pods]) {
      if (pod.removed || pod.deletionTimestamp !== undefined) continue;
      if (healthy && pod.containerReason === 'CrashLoopBackOff') {
        // A healed disk does not end the back-off: the container starts again when it expires, in its sandbox.
        clock.at(Math.max(clock.now, this.restartAt.get(pod) ?? clock.now), () => {
          if (epoch === this.diskEpoch && !pod.removed && pod.deletionTimestamp === undefined && this.connected) this.launch(pod, pod.restartCount + 1);
        });
        continue;
      }
      if (!pod.running) continue;
      store.setPodRuntime(pod, true, healthy);
      if (healthy) {
        // Ready again after the readiness probe's next successThreshold successes (the failures reset the run).
        const probe = pod.template.readinessProbe;
        const nextProbeMs = probe && probe.handler !== 'none' ? this.readyAfterMs(probe) : 0;
        if (!pod.readyCondition) clock.after(nextProbeMs, () => {
          if (epoch === this.diskEpoch && pod.running && !pod.removed && !pod.readyCondition) this.client.write(() => store.patchPodStatus(pod, { ready: true, containersReady: true }));
        });
        continue;
      }
      this.failReadiness(pod, epoch);
      this.failLiveness(pod, epoch, 0);
    }
  }

  /**
   * When a killed container starts again: at once without a back-off; else at the first sync of the
   * pod worker after the back-off ends, the worker looking again every 10–15 s from the kill, so
   * restart times are quantized (SEMANTICS.md 10).
   */
  private afterBackOffMs(backoffMs: number): number {
    let ms = 0;
    while (ms < backoffMs) ms += this.random.uniform(POD_WORKER_BACKOFF_MS, 1.5 * POD_WORKER_BACKOFF_MS);
    return ms;
  }

  /** SEMANTICS.md 10: the first failing probe within one period, then failureThreshold − 1 more periods, plus the timeout. */
  private probeDetectionMs(probe: NonNullable<SimPod['template']['readinessProbe']>): number {
    const periodMs = probe.periodSeconds * 1000;
    return this.random.uniform(0, periodMs) + (probe.failureThreshold - 1) * periodMs + probe.timeoutSeconds * 1000;
  }

  private failReadiness(pod: SimPod, epoch: number): void {
    const probe = pod.template.readinessProbe;
    if (!failsOnHang(probe)) return;
    this.ctx.clock.after(this.probeDetectionMs(probe), () => {
      if (epoch !== this.diskEpoch || pod.removed || !pod.readyCondition) return;
      this.client.write(() => this.ctx.store.patchPodStatus(pod, { ready: false, containersReady: false }));
    });
  }

  /**
   * The liveness probe kills the hung container; it restarts (first at once, then after a growing
   * backoff) and hangs again. `startedMs`: when the restarted container's startup probe passes
   * (0 without one); undefined, it never does, and that probe kills it in the liveness probe's place.
   * `newContainer`: one started since the disk failed (restarted, or a new pod's), whose probes wait
   * their initialDelaySeconds.
   */
  private failLiveness(pod: SimPod, epoch: number, restarts: number, startedMs?: number, newContainer = restarts > 0): void {
    const { clock, store, timing } = this.ctx;
    const killedByStartup = newContainer && startedMs === undefined && hasStartupProbe(pod);
    const probe = killedByStartup ? pod.template.startupProbe : pod.template.livenessProbe;
    if (!failsOnHang(probe)) return;
    const alive = () => epoch === this.diskEpoch && !pod.removed && pod.deletionTimestamp === undefined && this.connected;
    // initialDelaySeconds counts from a container's start: not for the one running when the disk failed;
    // the liveness probe runs only once the startup probe has passed.
    const startsMs = newContainer ? Math.max(probe.initialDelaySeconds * 1000, startedMs ?? 0) : 0;
    clock.after(startsMs + this.probeDetectionMs(probe), () => {
      if (!alive() || !pod.running) return;
      const graceMs = (probe.terminationGracePeriodSeconds ?? pod.template.terminationGracePeriodSeconds) * 1000;
      clock.after(Math.min(timing.simulator.containerStopLatency.value, graceMs), () => {
        if (!alive()) return;
        const code = exitCode(pod, true);
        store.setPodRuntime(pod, false, false, 'liveness');
        // restartPolicy Never: the killed container is not started again, so the pod ends Failed (computePodActions).
        if (pod.template.restartPolicy === 'Never') {
          this.client.write(() => store.patchPodStatus(pod, { phase: 'Failed', ready: false, containersReady: false, containerState: 'terminated', containerReason: 'Error', exitCode: code }));
          return;
        }
        const backoffMs = restarts === 0 ? 0 : Math.min(BACKOFF_INITIAL_MS * 2 ** (restarts - 1), BACKOFF_MAX_MS);
        const restartMs = this.afterBackOffMs(backoffMs);
        this.restartAt.set(pod, clock.now + restartMs);
        if (backoffMs > 0) {
          this.client.write(() => store.patchPodStatus(pod, { ready: false, containersReady: false, containerState: 'waiting', containerReason: 'CrashLoopBackOff' }));
        }
        clock.after(restartMs, () => {
          if (!alive()) return;
          const serves = !timing.simulator.diskFailureRestartsHang.value;
          const readiness = pod.template.readinessProbe;
          // Without a readiness or startup probe a running container counts as Ready, hung or not.
          const ready = !readiness && !hasStartupProbe(pod);
          // As at a start, the app counts as answering once its probes pass.
          store.setPodRuntime(pod, true, serves && ready);
          this.client.write(() => store.patchPodStatus(pod, { containerState: 'running', containerReason: undefined, restartCount: pod.restartCount + 1, ready, containersReady: ready }));
          const markReady = (afterMs: number, answers: boolean) => clock.after(afterMs, () => {
            if (!alive() || !pod.running || pod.readyCondition) return;
            if (answers) store.setPodRuntime(pod, true, true);
            this.client.write(() => store.patchPodStatus(pod, { ready: true, containersReady: true }));
          });
          // One that answers after its restart passes its probes as a new container does.
          if (serves) {
            if (!ready) markReady(this.readyAfterStartMs(pod), true);
            return;
          }
          this.hang(pod, epoch, restarts + 1, markReady);
        });
      });
    });
  }

  /**
   * A container started on the failed disk hangs (sim.diskFailureRestartsHang). It passes TCP checks
   * (the kernel answers): started once a TCP startup probe passes, and Ready once a TCP readiness
   * probe does, though it answers nothing; its liveness probe kills it in a loop.
   */
  private hang(pod: SimPod, epoch: number, restarts: number, markReady: (afterMs: number, answers: boolean) => void): void {
    const { readinessProbe: readiness, startupProbe: startup } = pod.template;
    const started = !hasStartupProbe(pod) ? 0 : failsOnHang(startup) ? undefined : this.startupSuccessMs(startup!);
    this.failLiveness(pod, epoch, restarts, started, true);
    const ready = !readiness && !hasStartupProbe(pod);
    if (!ready && started !== undefined && !failsOnHang(readiness)) markReady(readiness ? this.readinessAfterMs(readiness, started) : started, false);
  }

  /**
   * Graceful node shutdown: Ready=False ("node is shutting down") at once, regular pods stopped
   * with shutdownGracePeriod − shutdownGracePeriodCriticalPods, then critical pods with the rest;
   * each ends Failed with reason Terminated and is not deleted (SEMANTICS.md 2.4).
   */
  private shutDown(): void {
    const { timing, clock } = this.ctx;
    const totalMs = timing.kubelet.shutdownGracePeriod.value;
    const criticalMs = Math.min(timing.kubelet.shutdownGracePeriodCriticalPods.value, totalMs);
    this.postReady('False', 'KubeletNotReady', 'node is shutting down');
    const pods = this.node.pods.filter((p) => !p.removed && p.phase !== 'Failed' && p.phase !== 'Succeeded');
    const regularDoneMs = this.stopForShutdown(pods.filter((p) => !p.template.critical), totalMs - criticalMs, 0);
    const allDoneMs = this.stopForShutdown(pods.filter((p) => p.template.critical), criticalMs, regularDoneMs);
    this.shutdownDoneAt = clock.now + allDoneMs;
    // The kubelet releases its inhibitor lock once every pod is stopped; with the assumption off, the host goes down then.
    if (!timing.simulator.shutdownHoldsGracePeriod.value) clock.after(allDoneMs + timing.simulator.apiWriteLatency.value * 2, () => powerOffAfterShutdown(this.ctx, this.node));
  }

  /** Stops a group of pods from `startMs` on; returns when the last of them has stopped. */
  private stopForShutdown(pods: SimPod[], groupGraceMs: number, startMs: number): number {
    const { store, timing, clock } = this.ctx;
    const minor = timing.version.minor;
    // 1.22 renamed the reason (PR #102840).
    const [reason, message] = minor >= 22 ? ['Terminated', 'Pod was terminated in response to imminent node shutdown.'] : ['Shutdown', 'Node is shutting, evicting pods'];
    let doneMs = startMs;
    for (const pod of pods) {
      // The kubelet reports the terminal status within the group's grace period, before its inhibitor lock runs out.
      const graceMs = Math.max(0, Math.min(pod.template.terminationGracePeriodSeconds * 1000, groupGraceMs) - 3 * timing.simulator.apiWriteLatency.value);
      const ownStopMs = pod.running ? this.stopMs(pod, graceMs) : 0;
      const stopMs = startMs + Math.min(ownStopMs, graceMs);
      // kubectl shows the containers' terminated reason over the pod's (printPod).
      const code = exitCode(pod, ownStopMs < graceMs);
      const containerReason = code === 0 ? 'Completed' : 'Error';
      doneMs = Math.max(doneMs, stopMs);
      clock.after(stopMs, () => {
        if (pod.removed || !this.connected) return;
        store.setPodRuntime(pod, false, false, 'shutdown');
        if (minor >= 26) this.client.write(() => store.addDisruptionTarget(pod, 'TerminationByKubelet', message));
        this.client.write(() => store.patchPodStatus(pod, { phase: 'Failed', reason, ready: false, containersReady: false, containerState: 'terminated', containerReason, exitCode: code }));
      });
    }
    return doneMs;
  }

  /** Heartbeats stop: the API keeps the last lease renewal and status post (SEMANTICS.md 13.1: r, h). */
  private stopHeartbeats(): void {
    const { timing, store, clock } = this.ctx;
    const { lastLeaseRenewalAge, lastStatusPostAge } = timing.simulator;
    const renewAge = lastLeaseRenewalAge.value ?? this.random.uniform(0, timing.derived.leaseRenewIntervalMs * (1 + JITTER * this.random.next()));
    const statusAge = lastStatusPostAge.value ?? this.random.uniform(0, timing.kubelet.nodeStatusReportFrequency.value * (1 + JITTER * this.random.next()));
    const since = this.node.lease.live ? this.node.lease.renewTime : -Infinity;
    const lastRenewal = Math.max(since, Math.round(clock.now - renewAge));
    const lastStatus = Math.max(since, this.node.lease.lastStatusPost, Math.round(clock.now - statusAge));
    store.event(this.node.ref, 'Note', 'LastHeartbeat', { lastLeaseRenewalMs: lastRenewal, lastStatusPostMs: lastStatus });
    store.setLease(this.node, false, lastRenewal, lastStatus);
  }

  /** Back after an outage: renew the lease, post Ready, then deal with every pod bound here. */
  private comeBack(rebooted: boolean): void {
    const { store, clock } = this.ctx;
    const node = this.node;
    // A kubelet that started again registers its node (registerWithAPIServer, SEMANTICS.md 2.5): a
    // Node deleted meanwhile is created again. One that kept running across a partition has
    // registered already, and its status updates find no Node.
    const restarted = rebooted || this.registers;
    if (this.registers) {
      this.registers = false;
      if (node.deleted) this.client.write(() => store.registerNode(node));
    }
    // A kubelet that starts renews its lease at once and posts Ready within 100 ms
    // (fastStatusUpdateOnce). One that kept running across a partition gets through at its next
    // lease retry (backoffEnsureLease, at most 7 s apart), its next 10 s node status sync, and
    // its status manager's next 10 s batch for the pods' Ready (SEMANTICS.md 2.1).
    const leaseAfter = restarted ? 0 : this.random.uniform(0, LEASE_RETRY_CAP_MS);
    clock.after(leaseAfter, () => this.client.write(() => {
      if (!node.deleted && this.connected) store.setLease(node, true, clock.now, clock.now);
    }));
    // The status post is a heartbeat of its own (the condition's lastHeartbeatTime), whether or not the lease got through yet.
    clock.after(restarted ? FAST_STATUS_MS : this.nextStatusSyncMs(), () => this.client.write(() => {
      if (!this.connected) return;
      store.setLease(node, node.lease.live, node.lease.renewTime, clock.now);
      store.setNodeReady(node, 'True', 'KubeletReady', 'kubelet is posting ready status');
    }));
    const podStatusAfter = restarted ? 0 : this.random.uniform(0, STATUS_BATCH_MS);
    for (const pod of this.orphans) clock.after(this.random.uniform(0, HOUSEKEEPING_MS), () => this.killOrphan(pod));
    this.orphans.clear();
    for (const pod of [...node.pods]) {
      if (pod.phase === 'Failed' || pod.phase === 'Succeeded') {
        // A terminated pod is not restarted; one being deleted has its object removed (grace 0) by the status manager (SEMANTICS.md 2.5).
        if (pod.deletionTimestamp !== undefined) this.client.write(() => store.removePod(pod, `kubelet on ${node.name} removed the terminated pod's object`));
        // A static pod is read from its manifest file again after a reboot, without the terminal status
        // its mirror object shows (pod_workers.go UpdatePod checks only the pod's own status), so it runs again.
        else if (rebooted && pod.owner && isMirrorPod(pod.owner.spec) && pod.template.restartPolicy !== 'Never') this.restartInPlace(pod, rebooted);
        continue;
      }
      if (pod.deletionTimestamp !== undefined && pod.owner && isMirrorPod(pod.owner.spec)) this.recreateMirror(pod);
      else if (pod.deletionTimestamp !== undefined) this.terminate(pod);
      else if (rebooted || !pod.running) this.restartInPlace(pod, rebooted);
      else clock.after(podStatusAfter + (restarted ? this.firstReadinessMs(pod) : 0), () => this.client.write(() => store.patchPodStatus(pod, { ready: pod.appReady, containersReady: pod.appReady })));
    }
  }

  /**
   * A restarted kubelet has no probe results: a container with a readiness probe that the API
   * shows not Ready is Ready again after successThreshold successes, and a restarted kubelet's
   * probe workers first wait a random part of their period (prober worker.go run). Recent
   * versions keep a container the API shows Ready as it is (prober_manager.go
   * setReadyStateOnKubeletRestart); startup probes are not run again here.
   */
  private firstReadinessMs(pod: SimPod): number {
    const probe = pod.template.readinessProbe;
    if (pod.readyCondition || !probe || probe.handler === 'none') return 0;
    return this.readyAfterMs(probe);
  }

  /**
   * From a container's start to its pod's Ready, the app answering at once: the startup probe's
   * first success, if it has one, then the readiness probe's; readiness is not probed before the
   * startup probe succeeds (prober worker.go doProbe), and its ticks keep their own phase.
   */
  private readyAfterStartMs(pod: SimPod): number {
    const readiness = pod.template.readinessProbe;
    const startedMs = hasStartupProbe(pod) ? this.startupSuccessMs(pod.template.startupProbe!) : 0;
    return readiness ? this.readinessAfterMs(readiness, startedMs) : startedMs;
  }

  /** The startup probe's first success: its first check after initialDelaySeconds, at a random point of its period. */
  private startupSuccessMs(startup: NonNullable<SimPod['template']['startupProbe']>): number {
    return startup.initialDelaySeconds * 1000 + this.random.uniform(0, startup.periodSeconds * 1000);
  }

  /** The readiness probe's successThreshold-th success after a container's start, its run of successes beginning no sooner than `startedMs`. */
  private readinessAfterMs(readiness: NonNullable<SimPod['template']['readinessProbe']>, startedMs: number): number {
    const periodMs = readiness.periodSeconds * 1000;
    const runMs = (readiness.successThreshold - 1) * periodMs;
    const readyMs = readiness.initialDelaySeconds * 1000 + this.readyAfterMs(readiness);
    // Its ticks keep their phase: the run begins at the first one after the startup success.
    const firstMs = readyMs - runMs;
    return firstMs < startedMs ? readyMs + Math.ceil((startedMs - firstMs) / periodMs) * periodMs : readyMs;
  }

  /** The first check at a random point of its period, then successThreshold − 1 more, one period apart. */
  private readyAfterMs(probe: NonNullable<SimPod['template']['readinessProbe']>): number {
    return this.random.uniform(0, probe.periodSeconds * 1000) + (probe.successThreshold - 1) * probe.periodSeconds * 1000;
  }

  /**
   * After a reboot the sandbox is gone: the status turns Unknown, then the pod restarts with a new IP.
   * A restartPolicy Never pod is not given a new sandbox once its containers ran (computePodActions);
   * the runtime reports the lost containers exited 255, reason Unknown (containerd's CRI on restart),
   * so the pod ends Failed and kubectl prints Unknown (SEMANTICS.md 2.5, 5).
   */
  private restartInPlace(pod: SimPod, rebooted: boolean): void {
    const { store } = this.ctx;
    if (pod.phase === 'Pending') {
      this.startPod(pod);
      return;
    }
    if (rebooted && pod.template.restartPolicy === 'Never') {
      this.client.write(() => store.patchPodStatus(pod, { phase: 'Failed', ready: false, containersReady: false, containerState: 'terminated', containerReason: 'Unknown', exitCode: LOST_CONTAINER_EXIT_CODE }));
      return;
    }
    if (rebooted) {
      this.client.write(() => store.patchPodStatus(pod, { phase: 'Unknown', reason: undefined, ready: false, containersReady: false, containerState: 'terminated', containerReason: undefined, ip: undefined }));
    }
    // A hostNetwork pod has its node's IP in any sandbox.
    if (!pod.template.hostNetwork) pod.ipChanged = true;
    // A new sandbox runs the init containers again and every container counts a restart; once the
    // pod is initialized kubectl's RESTARTS adds up the app containers' and the native sidecars'
    // only (printPod: restartableInitContainerRestarts plus the containerStatuses).
    this.launch(pod, pod.restartCount + pod.template.containerCount, true);
  }

  private startPod(pod: SimPod): void {
    const { store } = this.ctx;
    if (this.shuttingDown) {
      this.client.write(() => store.patchPodStatus(pod, { phase: 'Failed', reason: 'NodeShutdown', containerState: 'terminated', containerReason: undefined }));
      return;
    }
    // With init containers kubectl shows Init:0/N from the start, volumes included (printPod, SEMANTICS.md 5).
    const inits = pod.template.initContainerCount;
    this.client.write(() => store.patchPodStatus(pod, { phase: 'Pending', containerState: 'waiting', containerReason: inits > 0 ? `Init:0/${inits}` : 'ContainerCreating' }));
    if (this.missingVolume(pod)) {
      this.waitingForVolumes.add(pod);
      return;
    }
    this.launch(pod, pod.restartCount, true);
  }

  volumeAttached(_volume: SimVolume): void {
    if (!this.connected) return;
    for (const pod of [...this.waitingForVolumes]) {
      if (pod.removed || pod.deletionTimestamp !== undefined) this.waitingForVolumes.delete(pod);
      else if (!this.missingVolume(pod)) {
        this.waitingForVolumes.delete(pod);
        this.launch(pod, pod.restartCount, true);
      }
    }
  }

  private missingVolume(pod: SimPod): boolean {
    return pod.claims.some((c) => c.volume && needsAttach(c.volume) && c.volume.attachedTo !== this.node.name);
  }

  /**
   * Image pull, sandbox and start take the pod start latency; readiness follows the readiness probe.
   * In a new sandbox (`sandbox`) the init containers run first, one after another: kubectl shows
   * Init:i/N while the i-th runs, then PodInitializing until the app containers start (printPod,
   * SEMANTICS.md 5). The simulator splits the start latency into equal parts, one per init
   * container and one for the app containers, so the pod is Running after the same time either way.
   */
  private launch(pod: SimPod, restartCount: number, sandbox = false): void {
    const { store, timing, clock } = this.ctx;
    const latencyMs = timing.simulator.podStartLatency.value;
    const started = clock.now + latencyMs;
    const inits = sandbox ? pod.template.initContainerCount : 0;
    for (let done = 0; done <= inits && inits > 0; done++) {
      const reason = done < inits ? `Init:${done}/${inits}` : 'PodInitializing';
      clock.after(Math.round((done * latencyMs) / (inits + 1)), () => {
        if (!this.connected || pod.removed || pod.deletionTimestamp !== undefined || pod.phase === 'Failed' || this.shuttingDown) return;
        this.client.write(() => store.patchPodStatus(pod, { phase: 'Pending', containerState: 'waiting', containerReason: reason }));
      });
    }
    clock.at(started, () => {
      // A pod stopped meanwhile (graceful shutdown) does not start.
      if (!this.connected || pod.removed || pod.deletionTimestamp !== undefined || pod.phase === 'Failed' || this.shuttingDown) return;
      const probe = pod.template.readinessProbe;
      // A container restarted in its sandbox keeps the pod's IP; a new sandbox gets a new one.
      const ip = sandbox || pod.ip === undefined ? nextPodIp(this.node, pod) : pod.ip;
      const ready = !probe && !hasStartupProbe(pod);
      // A new container on the failed disk hangs as a restarted one does.
      const hangs = !this.diskHealthy && timing.simulator.diskFailureRestartsHang.value;
      store.setPodRuntime(pod, true, ready && !hangs);
      this.client.write(() => store.patchPodStatus(pod, {
        phase: 'Running', reason: undefined, containerState: 'running', containerReason: undefined, ip, restartCount,
        ready, containersReady: ready,
      }));
      if (hangs) {
        const epoch = this.diskEpoch;
        this.hang(pod, epoch, 0, (afterMs) => clock.after(afterMs, () => {
          if (epoch !== this.diskEpoch || !this.connected || pod.removed || !pod.running || pod.readyCondition) return;
          this.client.write(() => store.patchPodStatus(pod, { ready: true, containersReady: true }));
        }));
      } else if (probe || hasStartupProbe(pod)) {
        clock.after(this.readyAfterStartMs(pod), () => {
          if (!this.connected || pod.removed || !pod.running) return;
          store.setPodRuntime(pod, true, true);
          this.client.write(() => store.patchPodStatus(pod, { ready: true, containersReady: true }));
        });
      }
    });
  }

  /**
   * A static pod runs from the kubelet's own manifest, whatever became of its mirror object: one
   * deleted while the node was away (the taint manager's eviction) is removed and created again
   * on the node, and the pod runs there (SEMANTICS.md 6.5).
   */
  private recreateMirror(pod: SimPod): void {
    const { store, clock } = this.ctx;
    const workload = pod.owner!;
    this.client.write(() => {
      store.removePod(pod, `kubelet on ${this.node.name} replaced the deleted mirror pod`);
      const mirror = newPod(workload, store.uid(), clock.now, pod.claims);
      mirror.replacement = true;
      store.createPod(mirror, `kubelet on ${this.node.name} (mirror pod)`);
      store.bindPod(mirror, this.node);
    });
  }

  /** From the kill to the last container's exit: preStop hooks, SIGTERM, a shell as PID 1 waiting out the grace (SEMANTICS.md 10). */
  private stopMs(pod: SimPod, graceMs: number): number {
    const exitMs = this.ctx.timing.simulator.containerStopLatency.value;
    let stopMs = Math.min(exitMs, graceMs);
    for (const container of pod.template.containers) stopMs = Math.max(stopMs, containerStopMs(container, graceMs, exitMs));
    return stopMs;
  }

  /** preStop and SIGTERM; the containers exit, the kubelet writes the pod's terminal phase (from 1.27, by exitCode), then removes the object (grace 0). */
  private terminate(pod: SimPod): void {
    const { store, timing, clock } = this.ctx;
    if (pod.removed) return;
    this.waitingForVolumes.delete(pod);
    const graceMs = (pod.deletionGracePeriodSeconds ?? pod.template.terminationGracePeriodSeconds) * 1000;
    const stopMs = pod.running ? this.stopMs(pod, graceMs) : Math.min(timing.simulator.containerStopLatency.value, 100);
    const code = exitCode(pod, stopMs < graceMs);
    const exitedZero = code === 0;
    const terminalPhase = features.kubeletTerminalPhaseOnDelete(timing.version.minor) && !(pod.owner && isMirrorPod(pod.owner.spec));
    clock.after(stopMs, () => {
      if (!this.connected || pod.removed || this.skipsPodSync()) return;
      store.setPodRuntime(pod, false, false, 'deleted');
      const phase = terminalPhase ? { phase: exitedZero ? 'Succeeded' as const : 'Failed' as const } : {};
      this.client.write(() => store.patchPodStatus(pod, { ...phase, ready: false, containersReady: false, containerState: 'terminated', containerReason: exitedZero ? 'Completed' : 'Error', exitCode: code }));
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

/**
 * The exit code a stopped pod's containers end with (it decides kubectl's Completed or Error, the
 * terminal phase, and what a Job's podFailurePolicy matches): 137 for one killed at the end of its
 * grace; on SIGTERM, 0 for a server (restartPolicy Always, assumed to stop gracefully) and 143 for
 * a run-to-completion container (assumed to have no handler, so a Job counts the pod as failed).
 * Containers that never ran have none: the kubelet gives the pod phase Failed.
 */
function exitCode(pod: SimPod, stoppedInTime: boolean): number | undefined {
  if (!pod.running) return undefined;
  return stoppedInTime && pod.template.restartPolicy === 'Always' ? 0 : stoppedInTime ? 143 : 137;
}

/** What containerd reports for a container lost with its sandbox (a reboot). */
const LOST_CONTAINER_EXIT_CODE = 255;

function hasStartupProbe(pod: SimPod): boolean {
  return pod.template.startupProbe !== undefined && pod.template.startupProbe.handler !== 'none';
}

/**
 * Whether a probe fails once the app hangs (a failed disk): an HTTP, gRPC or exec check does, a
 * TCP check does not, as the kernel still completes the handshake for the hung process (KFS023).
 */
function failsOnHang(probe: SimPod['template']['livenessProbe']): probe is NonNullable<SimPod['template']['livenessProbe']> {
  return probe !== undefined && probe.handler !== 'none' && probe.handler !== 'tcpSocket';
}
