/**
 * The node lifecycle controller (pkg/controller/nodelifecycle): a monitor pass every
 * node-monitor-period marks nodes without a heartbeat for the grace period Ready=Unknown and
 * their pods Ready=False; NoSchedule taints follow the Ready condition at once; NoExecute
 * taints are queued one pass later and applied through a per-zone token bucket whose rate
 * depends on the zone's state (SEMANTICS.md 3). nodeLifecycleScale.ts holds what lets a pass
 * skip the nodes it has nothing to do for.
 */
import { zoneName } from '../cluster/clusterSpec';
import { legacyPodEviction } from '../cluster/controllerManagerConfiguration';
import { leaderOf, type SimContext } from './context';
import { ApiClient, Informer } from './latency';
import { liveNodeOf, type ConditionStatus, type SimNode, type SimPod } from './objects';
import { NodeVisits, SparseTicker, type NodeHealth } from './nodeLifecycleScale';
import { RateLimitedQueue } from './rateLimitedQueue';
import { NOT_READY, UNREACHABLE, UNSCHEDULABLE } from './tolerations';

const WORKERS = 8; // nodeUpdateWorkerSize
const TAINT_LOOP_MS = 100; // scheduler.NodeEvictionPeriod
const EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';
/** The NoSchedule taints doNoScheduleTaintingPass keeps in step with the node's condition and spec.unschedulable. */
const MANAGED_NO_SCHEDULE = [NOT_READY, UNREACHABLE, UNSCHEDULABLE];

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export class NodeLifecycleController {
  private readonly nodeHealthMap = new Map<SimNode, NodeHealth>();
  /** Nodes whose Ready is not True in the controller's view, per zone. */
  private readonly notReadyByZone = new Map<string, number>();
  private readonly zoneQueues = new Map<string, RateLimitedQueue>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly zoneSizes = new Map<string, number>();
  private readonly workers: ApiClient[];
  private readonly tainter: ApiClient;
  private readonly noScheduleInformer: Informer<SimNode>;
  private readonly podInformer: Informer<SimPod>;
  /** Zones in the order doNoExecuteTaintingPass visits them. */
  private readonly zoneOrder: string[];
  private readonly visits: NodeVisits;
  /** Not-Ready counts or zone sizes changed since handleDisruption last ran (it is a function of them and the zone states). */
  private disruptionInputsChanged = true;
  /** Bumped when the controller manager loses or takes the lease: passes of an earlier leader do nothing. */
  private passChain = 0;
  /** Nodes whose NoExecute taint a new leader writes again with a new timeAdded (SEMANTICS.md 18). */
  private readonly retaint = new Set<SimNode>();
  /** Up to 1.26 with --enable-taint-manager=false: pods are deleted directly, pod-eviction-timeout after the node stopped reporting. */
  private readonly legacy: boolean;
  private readonly legacyEvicted = new Set<SimNode>();
  private readonly taintLoop: SparseTicker;

  constructor(private readonly ctx: SimContext) {
    const { store, clock, timing } = ctx;
    const { nodeMonitorPeriod } = timing.controllerManager;
    const { nodeMonitorPassDuration, nodeMonitorPhase } = timing.simulator;
    const random = ctx.random.fork('node-lifecycle-controller');
    this.workers = Array.from({ length: WORKERS }, (_, i) => new ApiClient(ctx, random.fork(`worker${i}`)));
    this.tainter = new ApiClient(ctx, random.fork('tainter'));
    const nodeUpdates = new ApiClient(ctx, random.fork('node-updates'));
    this.legacy = legacyPodEviction(timing.version.minor, timing.controllerManager.enableTaintManager.value);
    const leader = leaderOf(ctx);
    this.noScheduleInformer = new Informer(ctx, random, (node) => leader.leading && this.doNoScheduleTaintingPass(node, nodeUpdates));
    const podWorker = new ApiClient(ctx, random.fork('pod-worker'));
    this.podInformer = new Informer(ctx, random, (pod) => leader.leading && this.processPod(pod, podWorker));
    this.taintLoop = new SparseTicker(clock, TAINT_LOOP_MS, random.uniform(0, TAINT_LOOP_MS), () => this.doNoExecuteTaintingPass());

    for (const node of store.nodes) {
      this.learn(node);
      if (node.unschedulable) this.noScheduleInformer.notify(node);
    }
    this.zoneOrder = [...this.zoneQueues.keys()].sort();

    // Passes are `period + pass duration` apart, at a random phase unless sim.nodeMonitorPhase
    // pins the first pass after the failure instant (t = 0).
    const period = nodeMonitorPeriod.value + nodeMonitorPassDuration.value;
    const start = clock.now;
    const phase = nodeMonitorPhase.value;
    const first = phase !== null ? phase - Math.floor((phase - start) / period) * period : start + random.uniform(0, nodeMonitorPeriod.value);
    this.visits = new NodeVisits(timing, first, period);
    this.schedulePass(first);
    leader.onLost(() => this.passChain++);
    leader.onAcquired(() => this.startAsNewLeader());

    store.onNode((node, change) => {
      if (change === 'deleted') return this.forget(node);
      if (change === 'added') this.learn(node);
      // A deleted node's kubelet may still renew a lease the controller no longer reads.
      if (node.deleted) return;
      if (change === 'ready') this.noScheduleInformer.notify(node);
      if (!node.lease.live || node.ready !== 'True' || change === 'taints') this.visits.visit(node);
    });
    store.onPod((pod, change) => {
      if (change === 'bound') this.podInformer.notify(pod);
    });
  }

  private schedulePass(at: number): void {
    const chain = this.passChain;
    this.ctx.clock.at(at, () => {
      if (chain === this.passChain) this.monitorNodeHealth();
    });
  }

  /**
   * A new leader starts from the API alone: every node's probeTimestamp is now (another full grace
   * period before a node that still looks Ready goes Unknown), zones start Initial with fresh rate
   * limiters, and NoExecute taints already on nodes are written again with a new timeAdded.
   */
  private startAsNewLeader(): void {
    const { clock, store, timing } = this.ctx;
    const now = clock.now;
    this.passChain++;
    this.nodeHealthMap.clear();
    this.notReadyByZone.clear();
    this.zoneStates.clear();
    for (const zone of this.zoneQueues.keys()) this.zoneQueues.set(zone, new RateLimitedQueue(timing.controllerManager.nodeEvictionRate.value, now));
    this.disruptionInputsChanged = true;
    for (const node of store.nodes) {
      if (node.deleted) continue;
      const lease = node.lease;
      this.nodeHealthMap.set(node, { probeTimestamp: now, savedLease: lease.renewTime, savedStatus: lease.lastStatusPost, leaseDropped: false, current: 'True' });
      this.setCurrent(node, this.nodeHealthMap.get(node)!, node.ready);
      this.visits.visit(node);
      if (this.hasNoExecuteTaint(node)) this.retaint.add(node);
      // The new leader's node informer adds every node: NoSchedule taints left from a condition
      // that changed while nobody led (a node back during the gap) are removed now.
      if (node.ready !== 'True' || node.unschedulable || node.taints.some((t) => t.effect === 'NoSchedule' && MANAGED_NO_SCHEDULE.includes(t.key))) this.noScheduleInformer.notify(node);
    }
    this.schedulePass(now);
  }

  /** monitorNodeHealth: each node's health, MarkPodsNotReady and its taint decision; then zone states. */
  private monitorNodeHealth(): void {
    const { clock, store, timing } = this.ctx;
    const now = clock.now;
    this.visits.startPass(now).forEach((node, i) => {
      const worker = this.workers[i % WORKERS];
      const { observed, current } = this.tryUpdateNodeHealth(node, worker, now);
      if (current !== 'True' && observed === 'True') {
        worker.write(() => store.event(node.ref, 'KubernetesEvent', 'NodeNotReady', { message: `Node ${node.name} status is now: NodeNotReady` }));
        this.markPodsNotReady(node, worker);
      }
      // SEMANTICS.md 3.3: the taint decision uses the condition observed at the start of the pass.
      if (this.legacy) this.processLegacyEviction(node, now);
      else this.processTaintBaseEviction(node, observed, worker);
      if (this.nothingToDo(node)) this.visits.skip(node);
    });
    if (this.disruptionInputsChanged) this.handleDisruption(now);

    let end = now;
    for (const worker of this.workers) end = Math.max(end, worker.idleAt);
    end += timing.simulator.nodeMonitorPassDuration.value;
    this.schedulePass(end + timing.controllerManager.nodeMonitorPeriod.value);
  }

  /** tryUpdateNodeHealth: refresh probeTimestamp on a new heartbeat; Ready=Unknown after the grace period. */
  private tryUpdateNodeHealth(node: SimNode, worker: ApiClient, now: number): { observed: ConditionStatus; current: ConditionStatus } {
    const { store, timing } = this.ctx;
    const observed = node.ready;
    let health = this.nodeHealthMap.get(node);
    if (!health) {
      health = this.visits.healthBefore(node, now);
      this.nodeHealthMap.set(node, health);
      if (health.current !== 'True') this.countNotReady(node, +1);
    }
    this.setCurrent(node, health, observed);
    this.refreshProbe(node, health, now);
    // SEMANTICS.md 3.2: strictly after probeTimestamp + grace.
    if (now > health.probeTimestamp + timing.controllerManager.nodeMonitorGracePeriod.value && observed !== 'Unknown') {
      this.setCurrent(node, health, 'Unknown');
      worker.write(() => store.setNodeReady(node, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'));
    }
    return { observed, current: health.current };
  }

  /** A newer status heartbeat or lease renewal moves probeTimestamp to now. */
  private refreshProbe(node: SimNode, health: NodeHealth, now: number): void {
    const w = this.ctx.timing.simulator.watchLatency.value;
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

  /** MarkPodsNotReady (pkg/controller/util/node): only the pods' Ready condition changes. */
  private markPodsNotReady(node: SimNode, worker: ApiClient): void {
    for (const pod of node.pods) worker.write(() => this.ctx.store.markPodNotReady(pod, 'NodeNotReady'));
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
    if (this.zoneQueues.get(node.zone)!.add(node.name, node.index)) this.taintLoop.request();
  }

  /**
   * The legacy path (SEMANTICS.md 3.7): a node NotReady for pod-eviction-timeout since its Ready
   * transition, or Unknown for pod-eviction-timeout since its last heartbeat (probeTimestamp), is
   * queued for the zone's pod evictor, rate limited like tainting; Ready cancels.
   */
  private processLegacyEviction(node: SimNode, now: number): void {
    const health = this.nodeHealthMap.get(node)!;
    const timeoutMs = this.ctx.timing.controllerManager.podEvictionTimeout.value;
    if (health.current === 'True') {
      this.zoneQueues.get(node.zone)?.remove(node.name);
      this.legacyEvicted.delete(node);
      return;
    }
    const since = health.current === 'False' ? node.readyTransition : health.probeTimestamp;
    if (now <= since + timeoutMs || this.legacyEvicted.has(node)) return;
    this.legacyEvicted.add(node);
    if (this.zoneQueues.get(node.zone)!.add(node.name, node.index)) this.taintLoop.request();
  }

  /** DeletePods (pkg/controller/util/node): every pod but daemon pods gets status reason NodeLost, then a normal DELETE. */
  private deletePods(node: SimNode): void {
    const { store } = this.ctx;
    for (const pod of [...node.pods]) {
      if (pod.owner?.kind === 'DaemonSet' || pod.deletionTimestamp !== undefined) continue;
      this.tainter.write(() => {
        if (pod.removed || pod.deletionTimestamp !== undefined) return;
        store.event(pod.ref, 'KubernetesEvent', 'NodeControllerEviction', { message: `Marking for deletion Pod ${pod.name} from Node ${node.name}` });
        store.patchPodStatus(pod, { reason: 'NodeLost' });
        store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'node-lifecycle-controller');
      });
    }
  }

  /** Nothing changes for the node in a pass until the node or its taints do. */
  private nothingToDo(node: SimNode): boolean {
    const health = this.nodeHealthMap.get(node)!;
    if (health.current === 'True' && node.lease.live && node.ready === 'True' && !this.hasNoExecuteTaint(node)) {
      this.nodeHealthMap.delete(node);
      return true;
    }
    // A live kubelet posting Ready=False (SEMANTICS.md 13.5), already tainted not-ready:NoExecute.
    if (node.lease.live && node.ready === 'False' && health.current === 'False' && this.hasNoExecuteTaint(node, NOT_READY)) return true;
    // Unknown and queued for, or given, its NoExecute taint (a NotReady node whose lease stopped still goes Unknown).
    return !node.lease.live && health.current === node.ready && node.ready === 'Unknown' && !health.leaseDropped && this.zoneQueues.get(node.zone)!.has(node.name);
  }

  private setCurrent(node: SimNode, health: NodeHealth, status: ConditionStatus): void {
    if ((health.current !== 'True') !== (status !== 'True')) this.countNotReady(node, status !== 'True' ? +1 : -1);
    health.current = status;
  }

  private countNotReady(node: SimNode, delta: number): void {
    if (node.labels[EXCLUDE_DISRUPTION] !== undefined) return;
    this.notReadyByZone.set(node.zone, (this.notReadyByZone.get(node.zone) ?? 0) + delta);
    this.disruptionInputsChanged = true;
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
    const rewrite = this.retaint.delete(node);
    client.write(() => {
      if (rewrite) store.removeTaint(node, wanted, 'NoExecute', 'node-lifecycle-controller');
      store.addTaint(node, { key: wanted, value: '', effect: 'NoExecute' }, 'node-lifecycle-controller');
      store.removeTaint(node, opposite, 'NoExecute', 'node-lifecycle-controller');
    });
  }

  private hasNoExecuteTaint(node: SimNode, key?: string): boolean {
    return node.taints.some((t) => t.effect === 'NoExecute' && (key === undefined ? t.key === UNREACHABLE || t.key === NOT_READY : t.key === key));
  }

  /** doNoExecuteTaintingPass: per zone, taint queued nodes while the limiter grants tokens. */
  private doNoExecuteTaintingPass(): void {
    const { store, clock } = this.ctx;
    if (!leaderOf(this.ctx).leading) return;
    let nextToken = Infinity;
    for (const zone of this.zoneOrder) {
      const queue = this.zoneQueues.get(zone)!;
      queue.drain(clock.now, (name) => {
        const node = store.nodeByName.get(name);
        if (!node || node.ready === 'True') return;
        if (this.legacy) this.deletePods(node);
        else this.setNoExecuteTaint(node, node.ready, this.tainter);
      });
      if (queue.length > 0) nextToken = Math.min(nextToken, queue.limiter.nextTokenAt(clock.now));
    }
    if (nextToken !== Infinity) this.taintLoop.request(Math.max(nextToken, clock.now + 1));
  }

  /** handleDisruption: zone states from not-Ready counts, and the tainting rate that goes with them. */
  private handleDisruption(now: number): void {
    const { timing, store } = this.ctx;
    this.disruptionInputsChanged = false;
    const newStates = new Map<string, ZoneState>();
    let allFully = true;
    for (const [zone, size] of this.zoneSizes) {
      if (size === 0) continue;
      const notReady = this.notReadyByZone.get(zone) ?? 0;
      const ready = size - notReady;
      const state: ZoneState = ready === 0 && notReady > 0 ? 'FullDisruption'
        : notReady > 2 && notReady / size >= timing.controllerManager.unhealthyZoneThreshold.value ? 'PartialDisruption' : 'Normal';
      if (state !== 'FullDisruption') allFully = false;
      newStates.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    }
    // A zone whose last Node object is gone is forgotten, not made Normal.
    for (const zone of [...this.zoneStates.keys()]) if (!newStates.has(zone)) this.zoneStates.delete(zone);
    let allWereFully = this.zoneStates.size > 0;
    for (const state of this.zoneStates.values()) if (state !== 'FullDisruption') allWereFully = false;
    if (allFully && allWereFully) return;

    if (allFully) {
      store.event({ kind: 'Cluster', name: 'zones', namespace: '' }, 'Note', 'MasterDisruptionMode');
      for (const node of [...this.nodeHealthMap.keys()].sort((a, b) => a.index - b.index)) {
        this.markNodeAsReachable(node, this.workers[node.index % WORKERS]);
        // Upstream's next passes queue it for tainting again (held by the zero rate until the mode ends).
        this.visits.visit(node);
      }
      for (const [zone, queue] of this.zoneQueues) {
        queue.swapLimiter(0, now);
        this.zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWereFully) {
      store.event({ kind: 'Cluster', name: 'zones', namespace: '' }, 'Note', 'MasterDisruptionModeExit');
      for (const health of this.nodeHealthMap.values()) health.probeTimestamp = now;
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
    const { largeClusterSizeThreshold, secondaryNodeEvictionRate, nodeEvictionRate } = timing.controllerManager;
    const previous = this.zoneStates.get(zone);
    this.zoneStates.set(zone, state);
    const size = this.zoneSizes.get(zone) ?? 0;
    const qps = state === 'PartialDisruption'
      ? (size > largeClusterSizeThreshold.value ? secondaryNodeEvictionRate.value : 0)
      : nodeEvictionRate.value;
    this.zoneQueues.get(zone)?.swapLimiter(qps, now);
    // A zone that starts Normal is said only when it evicts nothing (--node-eviction-rate=0): the summary reads it.
    if (previous !== 'Initial' || state !== 'Normal' || qps <= 0) {
      store.event({ kind: 'Zone', name: zoneName(zone), namespace: '' }, 'Note', state, { zone: zoneName(zone), qps });
    }
    if (qps > 0) this.taintLoop.request();
  }

  /** doNoScheduleTaintingPass: NoSchedule taints mirror the Ready condition and spec.unschedulable. */
  private doNoScheduleTaintingPass(node: SimNode, client: ApiClient): void {
    const { store } = this.ctx;
    if (node.deleted) return;
    const wanted = new Set<string>();
    if (node.ready === 'False') wanted.add(NOT_READY);
    if (node.ready === 'Unknown') wanted.add(UNREACHABLE);
    if (node.unschedulable) wanted.add(UNSCHEDULABLE);
    const toAdd = [...wanted].filter((key) => !node.taints.some((t) => t.key === key && t.effect === 'NoSchedule'));
    const toRemove = MANAGED_NO_SCHEDULE.filter((key) => !wanted.has(key) && node.taints.some((t) => t.key === key && t.effect === 'NoSchedule'));
    if (toAdd.length === 0 && toRemove.length === 0) return;
    client.write(() => {
      for (const key of toAdd) store.addTaint(node, { key, value: '', effect: 'NoSchedule' }, 'node-lifecycle-controller');
      for (const key of toRemove) store.removeTaint(node, key, 'NoSchedule', 'node-lifecycle-controller');
    });
  }

  /** processPod: a pod bound to a node the controller knows is not Ready is marked NotReady at once. */
  private processPod(pod: SimPod, client: ApiClient): void {
    const node = liveNodeOf(pod);
    const health = node && this.nodeHealthMap.get(node);
    if (!health || health.current === 'True') return;
    client.write(() => this.ctx.store.markPodNotReady(pod, 'NodeNotReady'));
  }

  /** A node of the cluster, or one registered again after its deletion: counted in its zone, with its zone's queue. */
  private learn(node: SimNode): void {
    if (node.labels[EXCLUDE_DISRUPTION] === undefined) this.zoneSizes.set(node.zone, (this.zoneSizes.get(node.zone) ?? 0) + 1);
    if (!this.zoneQueues.has(node.zone)) this.zoneQueues.set(node.zone, new RateLimitedQueue(this.ctx.timing.controllerManager.nodeEvictionRate.value, this.ctx.clock.now));
    this.disruptionInputsChanged = true;
  }

  private forget(node: SimNode): void {
    const health = this.nodeHealthMap.get(node);
    if (health && health.current !== 'True') this.countNotReady(node, -1);
    this.visits.skip(node);
    this.nodeHealthMap.delete(node);
    this.zoneQueues.get(node.zone)?.remove(node.name);
    if (node.labels[EXCLUDE_DISRUPTION] === undefined) this.zoneSizes.set(node.zone, (this.zoneSizes.get(node.zone) ?? 1) - 1);
    this.disruptionInputsChanged = true;
  }
}
