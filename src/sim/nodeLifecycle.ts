/**
 * The node lifecycle controller (pkg/controller/nodelifecycle): a monitor pass every
 * node-monitor-period marks nodes without a heartbeat for the grace period Ready=Unknown and
 * their pods Ready=False; NoSchedule taints follow the Ready condition at once; NoExecute
 * taints are queued one pass later and applied through a per-zone token bucket whose rate
 * depends on the zone's state (SEMANTICS.md 3).
 *
 * Nodes whose lease keeps being renewed stay Ready and need nothing, so a pass only visits
 * the nodes whose lease stopped, whose Ready is not True, or that carry taints to remove;
 * a failed node that is Unknown and tainted is left alone until something about it changes.
 */
import { zoneName } from '../cluster/clusterSpec';
import type { SimContext } from './context';
import { ApiClient, Informer } from './latency';
import { liveNodeOf, type ConditionStatus, type SimNode, type SimPod } from './objects';
import { RateLimitedQueue } from './rateLimitedQueue';
import { NOT_READY, UNREACHABLE, UNSCHEDULABLE } from './tolerations';

const WORKERS = 8; // nodeUpdateWorkerSize
const TAINT_LOOP_MS = 100; // scheduler.NodeEvictionPeriod
const EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

interface NodeHealth {
  probeTimestamp: number;
  /** Lease renewTime and Ready lastHeartbeatTime last seen. */
  savedLease: number;
  savedStatus: number;
  /**
   * tryUpdateNodeHealth replaces its record when the Ready heartbeat changes and the new record
   * has no lease, so the next pass sees `savedLease == nil` and refreshes the probe again.
   */
  leaseDropped: boolean;
  /** The controller's view of Ready after its own writes. */
  current: ConditionStatus;
}

export class NodeLifecycleController {
  /** Every node the controller does not see as healthy. */
  private readonly health = new Map<SimNode, NodeHealth>();
  /** Nodes the next pass visits. */
  private readonly attention = new Set<SimNode>();
  /** Nodes whose Ready is not True in the controller's view, per zone. */
  private readonly notReadyByZone = new Map<string, number>();
  private readonly zoneQueues = new Map<string, RateLimitedQueue>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly zoneSizes = new Map<string, number>();
  /** Start times of recent passes, oldest first (virtual ones before the simulation start). */
  private readonly passes: number[] = [];
  private readonly workers: ApiClient[];
  private readonly tainter: ApiClient;
  private readonly noScheduleInformer: Informer<SimNode>;
  private readonly podInformer: Informer<SimPod>;
  /** Zones in the order doNoExecuteTaintingPass visits them. */
  private zoneOrder: string[] = [];
  /** When the next simulated doNoExecuteTaintingPass runs, and which scheduling is current. */
  private taintLoopAt = Infinity;
  private taintLoopGeneration = 0;
  private readonly taintLoopPhase: number;

  constructor(private readonly ctx: SimContext) {
    const { store, clock, timing } = ctx;
    const random = ctx.random.fork('node-lifecycle-controller');
    this.workers = Array.from({ length: WORKERS }, (_, i) => new ApiClient(clock, random.fork(`worker${i}`), timing.apiWriteLatencyMs));
    this.tainter = new ApiClient(clock, random.fork('tainter'), timing.apiWriteLatencyMs);
    const nodeUpdates = new ApiClient(clock, random.fork('node-updates'), timing.apiWriteLatencyMs);
    this.noScheduleInformer = new Informer(clock, random, timing.watchLatencyMs, (node) => this.doNoScheduleTaintingPass(node, nodeUpdates));
    const podWorker = new ApiClient(clock, random.fork('pod-worker'), timing.apiWriteLatencyMs);
    this.podInformer = new Informer(clock, random, timing.watchLatencyMs, (pod) => this.processPod(pod, podWorker));
    this.taintLoopPhase = random.uniform(0, TAINT_LOOP_MS);

    for (const node of store.nodes) {
      if (node.labels[EXCLUDE_DISRUPTION] === undefined) this.zoneSizes.set(node.zone, (this.zoneSizes.get(node.zone) ?? 0) + 1);
      if (!this.zoneQueues.has(node.zone)) this.zoneQueues.set(node.zone, new RateLimitedQueue(timing.nodeEvictionRate, clock.now));
      if (node.unschedulable) this.noScheduleInformer.notify(node);
    }
    this.zoneOrder = [...this.zoneQueues.keys()].sort();
    store.onNode((node, change) => {
      if (change === 'deleted') return this.forget(node);
      if (change === 'ready') this.noScheduleInformer.notify(node);
      if (!node.lease.live || node.ready !== 'True' || change === 'taints') this.attention.add(node);
    });
    store.onPod((pod, change) => {
      if (change === 'bound') this.podInformer.notify(pod);
    });

    // Passes are `period + pass duration` apart, at a random phase unless sim.nodeMonitorPhase
    // pins the first pass after the failure instant (t = 0).
    const period = timing.nodeMonitorPeriodMs + timing.nodeMonitorPassDurationMs;
    const start = clock.now;
    const first = timing.nodeMonitorPhaseMs !== null
      ? timing.nodeMonitorPhaseMs - Math.floor((timing.nodeMonitorPhaseMs - start) / period) * period
      : start + random.uniform(0, timing.nodeMonitorPeriodMs);
    const lookBackMs = Math.max(timing.leaseRenewIntervalMs, timing.nodeStatusReportFrequencyMs) * 1.1 + timing.nodeMonitorGracePeriodMs;
    for (let t = first - Math.ceil(lookBackMs / period) * period; t < first; t += period) this.passes.push(Math.round(t));
    clock.at(first, () => this.monitorNodeHealth());
  }

  /** monitorNodeHealth: one pass over the nodes that need it, then zone states. */
  private monitorNodeHealth(): void {
    const { clock, timing } = this.ctx;
    const now = clock.now;
    this.passes.push(now);
    if (this.passes.length > 4096) this.passes.splice(0, 2048);

    const nodes = [...this.attention].sort((a, b) => a.index - b.index);
    nodes.forEach((node, i) => {
      const health = this.tryUpdateNodeHealth(node, this.workers[i % WORKERS], now);
      if (health.current === 'True' && node.lease.live && node.ready === 'True' && !this.hasNoExecuteTaint(node)) {
        this.attention.delete(node);
        this.health.delete(node);
      } else if (!node.lease.live && health.current === node.ready && node.ready !== 'True' && !health.leaseDropped
        && this.zoneQueues.get(node.zone)!.has(node.name)) {
        // Settled: Unknown (or NotReady) and queued for, or given, its NoExecute taint; passes change
        // nothing for it until the node or its taints do.
        this.attention.delete(node);
      }
    });
    this.handleDisruption(now);

    const end = Math.max(now, ...this.workers.map((w) => w.idleAt)) + timing.nodeMonitorPassDurationMs;
    clock.at(end + timing.nodeMonitorPeriodMs, () => this.monitorNodeHealth());
  }

  /** tryUpdateNodeHealth, then MarkPodsNotReady and processTaintBaseEviction for one node. */
  private tryUpdateNodeHealth(node: SimNode, worker: ApiClient, now: number): NodeHealth {
    const { store, timing } = this.ctx;
    const observed = node.ready;
    let health = this.health.get(node);
    if (!health) {
      health = this.healthBefore(node, now);
      this.health.set(node, health);
      if (health.current !== 'True') this.countNotReady(node, +1);
    }
    this.setCurrent(node, health, observed);
    this.refreshProbe(node, health, now);

    // SEMANTICS.md 3.2: strictly after probeTimestamp + grace.
    if (now > health.probeTimestamp + timing.nodeMonitorGracePeriodMs && observed !== 'Unknown') {
      this.setCurrent(node, health, 'Unknown');
      worker.write(() => store.setNodeReady(node, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'));
      if (observed === 'True') {
        worker.write(() => store.event(node.ref, 'KubernetesEvent', 'NodeNotReady', `Node ${node.name} status is now: NodeNotReady`));
        for (const pod of node.pods) worker.write(() => store.markPodNotReady(pod, 'NodeNotReady'));
      }
    }
    // SEMANTICS.md 3.3: the taint decision uses the condition observed at the start of the pass.
    this.processTaintBaseEviction(node, observed, worker);
    return health;
  }

  private setCurrent(node: SimNode, health: NodeHealth, status: ConditionStatus): void {
    if ((health.current !== 'True') !== (status !== 'True')) this.countNotReady(node, status !== 'True' ? +1 : -1);
    health.current = status;
  }

  private countNotReady(node: SimNode, delta: number): void {
    if (node.labels[EXCLUDE_DISRUPTION] === undefined) this.notReadyByZone.set(node.zone, (this.notReadyByZone.get(node.zone) ?? 0) + delta);
  }

  /**
   * The controller's record of a node as of the previous pass, for a node it starts watching
   * closely now. Until now the kubelet renewed its lease every renew interval and posted status
   * every report frequency; the record follows from the last of each the controller had seen.
   */
  private healthBefore(node: SimNode, now: number): NodeHealth {
    const { watchLatencyMs: w, leaseRenewIntervalMs, nodeStatusReportFrequencyMs } = this.ctx.timing;
    const previous = this.passBefore(now);
    const lease = node.lease;
    if (lease.live || previous === undefined) {
      return { probeTimestamp: now, savedLease: lease.renewTime, savedStatus: lease.lastStatusPost, leaseDropped: false, current: node.ready };
    }
    const seenLease = lease.renewTime + w <= previous ? lease.renewTime : lease.renewTime - leaseRenewIntervalMs;
    const seenStatus = lease.lastStatusPost + w <= previous ? lease.lastStatusPost : lease.lastStatusPost - nodeStatusReportFrequencyMs;
    const leasePass = this.firstPassAtOrAfter(seenLease + w);
    const statusPass = this.firstPassAtOrAfter(seenStatus + w);
    const afterStatus = this.passAfter(statusPass);
    const probe = Math.max(leasePass, statusPass, afterStatus !== undefined && afterStatus <= previous ? afterStatus : -Infinity);
    return {
      probeTimestamp: probe,
      savedLease: seenLease,
      savedStatus: seenStatus,
      leaseDropped: statusPass === previous && leasePass !== previous,
      current: node.ready,
    };
  }

  /** tryUpdateNodeHealth's probe bookkeeping: a newer status heartbeat or lease renewal moves probeTimestamp to now. */
  private refreshProbe(node: SimNode, health: NodeHealth, now: number): void {
    const w = this.ctx.timing.watchLatencyMs;
    const lease = node.lease;
    const statusChanged = lease.lastStatusPost > health.savedStatus && lease.lastStatusPost + w <= now;
    // A renewing lease is always newer than what the controller saw a pass ago.
    const leaseAdvanced = lease.live ? lease.renewTime + w <= now : lease.renewTime > health.savedLease && lease.renewTime + w <= now;
    if (statusChanged) {
      health.probeTimestamp = now;
      health.savedStatus = lease.lastStatusPost;
    }
    if (leaseAdvanced || health.leaseDropped) {
      health.probeTimestamp = now;
      if (leaseAdvanced) health.savedLease = lease.renewTime;
    }
    health.leaseDropped = statusChanged && !leaseAdvanced && !health.leaseDropped;
  }

  private firstPassAtOrAfter(time: number): number {
    const passes = this.passes;
    let i = passes.length - 1;
    while (i > 0 && passes[i - 1] >= time) i--;
    return passes[i];
  }

  private passBefore(time: number): number | undefined {
    const passes = this.passes;
    for (let i = passes.length - 1; i >= 0; i--) if (passes[i] < time) return passes[i];
    return undefined;
  }

  private passAfter(time: number): number | undefined {
    const passes = this.passes;
    for (let i = 0; i < passes.length; i++) if (passes[i] > time) return passes[i];
    return undefined;
  }

  private processTaintBaseEviction(node: SimNode, observed: ConditionStatus, worker: ApiClient): void {
    if (observed === 'True') {
      this.markNodeAsReachable(node, worker);
      return;
    }
    if (this.hasNoExecuteTaint(node, observed === 'False' ? UNREACHABLE : NOT_READY)) {
      // Swapped at once, not rate limited, so the eviction clock does not restart (SEMANTICS.md 4).
      this.setNoExecuteTaint(node, observed, worker);
      return;
    }
    // markNodeForTainting; the queue keeps the order in which passes visit nodes (rateLimitedQueue.ts).
    const queue = this.zoneQueues.get(node.zone)!;
    if (queue.add(node.name, node.index)) this.scheduleTaintLoop();
  }

  private markNodeAsReachable(node: SimNode, worker: ApiClient): void {
    const { store } = this.ctx;
    this.zoneQueues.get(node.zone)?.remove(node.name);
    if (!this.hasNoExecuteTaint(node)) return;
    worker.write(() => {
      store.removeTaint(node, UNREACHABLE, 'NoExecute', 'node-lifecycle-controller');
      store.removeTaint(node, NOT_READY, 'NoExecute', 'node-lifecycle-controller');
    });
  }

  /** The not-ready taint for Ready=False, the unreachable one for Unknown, and never both. */
  private setNoExecuteTaint(node: SimNode, ready: ConditionStatus, client: ApiClient): void {
    const { store } = this.ctx;
    const [wanted, opposite] = ready === 'False' ? [NOT_READY, UNREACHABLE] : [UNREACHABLE, NOT_READY];
    client.write(() => {
      store.addTaint(node, { key: wanted, value: '', effect: 'NoExecute' }, 'node-lifecycle-controller');
      store.removeTaint(node, opposite, 'NoExecute', 'node-lifecycle-controller');
    });
  }

  private hasNoExecuteTaint(node: SimNode, key?: string): boolean {
    return node.taints.some((t) => t.effect === 'NoExecute' && (key === undefined ? t.key === UNREACHABLE || t.key === NOT_READY : t.key === key));
  }

  /**
   * doNoExecuteTaintingPass runs every 100 ms. It is simulated only on the ticks where it can
   * do something: while a queue holds nodes, the first tick at which a limiter grants a token
   * (a tick without a token changes nothing). New work brings the next tick forward.
   */
  private scheduleTaintLoop(earliest = this.ctx.clock.now): void {
    const { clock } = this.ctx;
    const tick = Math.max(Math.ceil((earliest - this.taintLoopPhase) / TAINT_LOOP_MS) * TAINT_LOOP_MS + this.taintLoopPhase, clock.now);
    if (tick >= this.taintLoopAt) return;
    this.taintLoopAt = tick;
    const generation = ++this.taintLoopGeneration;
    clock.at(tick, () => {
      if (generation === this.taintLoopGeneration) this.doNoExecuteTaintingPass();
    });
  }

  private doNoExecuteTaintingPass(): void {
    const { store, clock } = this.ctx;
    this.taintLoopAt = Infinity;
    let nextToken = Infinity;
    for (const zone of this.zoneOrder) {
      const queue = this.zoneQueues.get(zone)!;
      queue.drain(clock.now, (name) => {
        const node = store.nodeByName.get(name);
        if (node && node.ready !== 'True') this.setNoExecuteTaint(node, node.ready, this.tainter);
      });
      if (queue.length > 0) nextToken = Math.min(nextToken, queue.limiter.nextTokenAt(clock.now));
    }
    if (nextToken !== Infinity) this.scheduleTaintLoop(Math.max(nextToken, clock.now + 1));
  }

  /** handleDisruption: zone states from not-Ready counts, and the tainting rate that goes with them. */
  private handleDisruption(now: number): void {
    const { timing, store } = this.ctx;
    const newStates = new Map<string, ZoneState>();
    let allFully = true;
    for (const [zone, size] of this.zoneSizes) {
      if (size === 0) continue;
      const notReady = this.notReadyByZone.get(zone) ?? 0;
      const ready = size - notReady;
      const state: ZoneState = ready === 0 && notReady > 0 ? 'FullDisruption'
        : notReady > 2 && notReady / size >= timing.unhealthyZoneThreshold ? 'PartialDisruption' : 'Normal';
      if (state !== 'FullDisruption') allFully = false;
      newStates.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    }
    let allWereFully = this.zoneStates.size > 0;
    for (const state of this.zoneStates.values()) if (state !== 'FullDisruption') allWereFully = false;
    if (allFully && allWereFully) return;

    if (allFully) {
      store.event({ kind: 'Cluster', name: 'zones', namespace: '' }, 'Note', 'MasterDisruptionMode',
        'All zones are fully disrupted: the node lifecycle controller removes NoExecute taints and stops evicting (master disruption mode).');
      for (const node of [...this.health.keys()].sort((a, b) => a.index - b.index)) this.markNodeAsReachable(node, this.workers[node.index % WORKERS]);
      for (const [zone, queue] of this.zoneQueues) {
        queue.swapLimiter(0, now);
        this.zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWereFully) {
      store.event({ kind: 'Cluster', name: 'zones', namespace: '' }, 'Note', 'MasterDisruptionModeExit',
        'Some nodes are Ready again: the node lifecycle controller leaves master disruption mode and restarts every grace period.');
      for (const health of this.health.values()) health.probeTimestamp = now;
      for (const zone of this.zoneStates.keys()) this.setZoneState(zone, newStates.get(zone) ?? 'Normal', now);
      return;
    }
    for (const [zone, state] of this.zoneStates) {
      const next = newStates.get(zone) ?? 'Normal';
      if (next !== state) this.setZoneState(zone, next, now);
    }
  }

  private setZoneState(zone: string, state: ZoneState, now: number): void {
    const { timing, store } = this.ctx;
    const previous = this.zoneStates.get(zone);
    this.zoneStates.set(zone, state);
    const size = this.zoneSizes.get(zone) ?? 0;
    const qps = state === 'PartialDisruption'
      ? (size > timing.largeClusterSizeThreshold ? timing.secondaryNodeEvictionRate : 0)
      : timing.nodeEvictionRate;
    this.zoneQueues.get(zone)?.swapLimiter(qps, now);
    if (previous !== 'Initial' || state !== 'Normal') {
      store.event({ kind: 'Zone', name: zoneName(zone), namespace: '' }, 'Note', state,
        `Zone ${zoneName(zone)} is now ${state}: NoExecute tainting at ${qps > 0 ? `${qps} nodes/s` : 'no rate (stopped)'}.`, { qps });
    }
    if (qps > 0) this.scheduleTaintLoop();
  }

  /** doNoScheduleTaintingPass: NoSchedule taints mirror the Ready condition and spec.unschedulable. */
  private doNoScheduleTaintingPass(node: SimNode, client: ApiClient): void {
    const { store } = this.ctx;
    if (node.deleted) return;
    const wanted = new Set<string>();
    if (node.ready === 'False') wanted.add(NOT_READY);
    if (node.ready === 'Unknown') wanted.add(UNREACHABLE);
    if (node.unschedulable) wanted.add(UNSCHEDULABLE);
    const managed = [NOT_READY, UNREACHABLE, UNSCHEDULABLE];
    const toAdd = [...wanted].filter((key) => !node.taints.some((t) => t.key === key && t.effect === 'NoSchedule'));
    const toRemove = managed.filter((key) => !wanted.has(key) && node.taints.some((t) => t.key === key && t.effect === 'NoSchedule'));
    if (toAdd.length === 0 && toRemove.length === 0) return;
    client.write(() => {
      for (const key of toAdd) store.addTaint(node, { key, value: '', effect: 'NoSchedule' }, 'node-lifecycle-controller');
      for (const key of toRemove) store.removeTaint(node, key, 'NoSchedule', 'node-lifecycle-controller');
    });
  }

  /** processPod: a pod bound to a node the controller knows is not Ready is marked NotReady at once. */
  private processPod(pod: SimPod, client: ApiClient): void {
    const node = liveNodeOf(pod);
    const health = node && this.health.get(node);
    if (!health || health.current === 'True') return;
    client.write(() => this.ctx.store.markPodNotReady(pod, 'NodeNotReady'));
  }

  private forget(node: SimNode): void {
    const health = this.health.get(node);
    if (health && health.current !== 'True') this.countNotReady(node, -1);
    this.attention.delete(node);
    this.health.delete(node);
    this.zoneQueues.get(node.zone)?.remove(node.name);
    if (node.labels[EXCLUDE_DISRUPTION] === undefined) this.zoneSizes.set(node.zone, (this.zoneSizes.get(node.zone) ?? 1) - 1);
  }
}
