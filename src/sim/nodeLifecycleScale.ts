/**
 * The node lifecycle controller's scale machinery, kept beside its sync loop (STYLE.md) so that
 * the loop reads like upstream while a pass costs what changes, not the cluster's size.
 *
 * Upstream visits every node in every monitor pass. A node whose kubelet keeps renewing its
 * lease, that is Ready and carries no NoExecute taint, changes nothing in a pass; neither does a
 * failed node already marked and queued for its taint. Such nodes are skipped until something
 * about them changes. A node that starts being visited gets the health record the controller
 * would have built over the passes it skipped. And the 100 ms tainting loop runs only on the
 * ticks where it can do something.
 */
import type { TimingConfiguration } from '../cluster/timing';
import type { Clock } from './engine';
import type { ConditionStatus, SimNode } from './objects';

/** nodeHealthData: what the controller remembers of a node, on its own clock (SEMANTICS.md 3.2). */
export interface NodeHealth {
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

/** Passes remembered; a look-back beyond them (timings of hours) reads the oldest one kept. */
const MAX_PASSES = 4096;

export class NodeVisits {
  private readonly toVisit = new Set<SimNode>();
  /** Start times of recent passes, oldest first (virtual ones before the simulation start). */
  private readonly passes: number[] = [];

  constructor(private readonly timing: TimingConfiguration, firstPass: number, passPeriod: number) {
    const { derived, kubelet, controllerManager } = timing;
    const lookBackMs = Math.max(derived.leaseRenewIntervalMs, kubelet.nodeStatusReportFrequency.value) * 1.1 + controllerManager.nodeMonitorGracePeriod.value;
    // At most half the memory in virtual passes: a grace period of 100000h asked for 72 million.
    const virtual = Math.min(Math.ceil(lookBackMs / passPeriod), MAX_PASSES / 2);
    for (let t = firstPass - virtual * passPeriod; t < firstPass; t += passPeriod) this.passes.push(Math.round(t));
  }

  /** Something about the node changed: the next pass visits it. */
  visit(node: SimNode): void {
    this.toVisit.add(node);
  }

  skip(node: SimNode): void {
    this.toVisit.delete(node);
  }

  /** A pass starts: the nodes it visits, in node order. */
  startPass(now: number): SimNode[] {
    this.passes.push(now);
    if (this.passes.length > MAX_PASSES) this.passes.splice(0, MAX_PASSES / 2);
    return [...this.toVisit].sort((a, b) => a.index - b.index);
  }

  /**
   * The record a node would have as of the previous pass, for a node visited again now. Until
   * now the kubelet renewed its lease every renew interval and posted status every report
   * frequency; the record follows from the last of each the controller had seen.
   */
  healthBefore(node: SimNode, now: number): NodeHealth {
    const w = this.timing.simulator.watchLatency.value;
    const previous = this.passBefore(now);
    const lease = node.lease;
    if (lease.live || previous === undefined) {
      return { probeTimestamp: now, savedLease: lease.renewTime, savedStatus: lease.lastStatusPost, leaseDropped: false, current: node.ready };
    }
    const seenLease = lease.renewTime + w <= previous ? lease.renewTime : lease.renewTime - this.timing.derived.leaseRenewIntervalMs;
    const seenStatus = lease.lastStatusPost + w <= previous ? lease.lastStatusPost : lease.lastStatusPost - this.timing.kubelet.nodeStatusReportFrequency.value;
    const leasePass = this.firstPassAtOrAfter(seenLease + w);
    const statusPass = this.firstPassAtOrAfter(seenStatus + w);
    const afterStatus = this.passAfter(statusPass);
    const probe = Math.max(leasePass, statusPass, afterStatus !== undefined && afterStatus <= previous ? afterStatus : -Infinity);
    return { probeTimestamp: probe, savedLease: seenLease, savedStatus: seenStatus, leaseDropped: statusPass === previous && leasePass !== previous, current: node.ready };
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
}

/**
 * A loop with a fixed period and phase (doNoExecuteTaintingPass every 100 ms) simulated only on
 * the ticks asked for: the first tick at or after the earliest time something can happen.
 * Asking for an earlier tick brings the next run forward.
 */
export class SparseTicker {
  private nextAt = Infinity;
  private generation = 0;

  constructor(private readonly clock: Clock, private readonly periodMs: number, private readonly phaseMs: number, private readonly run: () => void) {}

  request(earliest = this.clock.now): void {
    const { periodMs, phaseMs, clock } = this;
    const tick = Math.max(Math.ceil((earliest - phaseMs) / periodMs) * periodMs + phaseMs, clock.now);
    if (tick >= this.nextAt) return;
    this.nextAt = tick;
    const generation = ++this.generation;
    clock.at(tick, () => {
      if (generation !== this.generation) return;
      this.nextAt = Infinity;
      this.run();
    });
  }
}
