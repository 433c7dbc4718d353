/**
 * What users feel, measured from the failure on: a pod serves when traffic is routed to it (a
 * ready endpoint of its Service, or a serving terminating one while a Service with a cluster IP
 * has no ready endpoint; without a Service, Ready in the API and not terminating) and it really
 * answers (containers running on a reachable node). Per workload:
 * time with no serving pod (unavailable), with fewer than desired (degraded), with a Service
 * endpoint still routing to a pod that cannot answer (blackhole), and with more copies running
 * than desired (duplicates, e.g. during a partition). It watches the store. Unavailable and
 * degraded count what the failure did: a workload that served fewer than desired when it came
 * (pods Pending before it) is degraded only below what it served then, unavailable only if it served.
 */
import type { SimPod, SimService, SimWorkload } from './objects';
import type { Store } from './store';

interface WorkloadCounters {
  /** The copies it should have now: a DaemonSet's desiredNumberScheduled drops when a dead node is tainted (SEMANTICS.md 18). */
  desired: number;
  /** Pods serving at the failure; undefined before it. */
  servingAtFailure: number | undefined;
  serving: number;
  blackholed: number;
  running: number;
  since: number;
  unavailableMs: number;
  degradedMs: number;
  blackholeMs: number;
  duplicateMs: number;
}

export interface ServingTotals {
  serving: number;
  unavailableMs: number;
  degradedMs: number;
  blackholeMs: number;
  duplicateMs: number;
}

export class ServingMetrics {
  private readonly counters = new Map<SimWorkload, WorkloadCounters>();
  private readonly now: () => number;
  /** Services kube-proxy routes to serving terminating endpoints because none is ready (ProxyTerminatingEndpoints). */
  private readonly fallingBack = new Set<SimService>();

  /** `terminatingFallback`: kube-proxy has ProxyTerminatingEndpoints (beta-on 1.26, GA 1.28; SEMANTICS.md 9). */
  constructor(store: Store, terminatingFallback: boolean) {
    this.now = () => store.now;
    store.onPod((pod) => this.observe(pod));
    store.onRuntime((pod) => this.observe(pod));
    store.onPodEndpoint((pod) => this.observe(pod));
    if (terminatingFallback) store.onEndpoints((service) => this.endpointsChanged(service));
    store.onWorkload((workload) => {
      const counters = this.countersOf(workload);
      if (wanted(workload) === counters.desired) return;
      this.accumulate(workload, counters);
      counters.desired = wanted(workload);
    });
  }

  /** The last ready endpoint gone, or one back: the Service's serving terminating pods start or stop taking traffic. */
  private endpointsChanged(service: SimService): void {
    const falling = service.readyEndpoints === 0 && !service.headless;
    if (falling === this.fallingBack.has(service)) return;
    if (falling) this.fallingBack.add(service);
    else this.fallingBack.delete(service);
    for (const [pod, endpoint] of service.endpoints) if (endpoint.terminating && endpoint.serving) this.observe(pod);
  }

  /** kube-proxy routes by the slice the EndpointSlice controller wrote, which may lag the pod (a controller manager restarting). */
  private routes(pod: SimPod, service: SimService): boolean {
    const endpoint = service.endpoints.get(pod);
    return endpoint !== undefined && (endpoint.ready || (endpoint.serving && endpoint.terminating && this.fallingBack.has(service)));
  }

  private canAnswer(pod: SimPod): boolean {
    const node = pod.node;
    return pod.running && pod.appReady && !!node && node.host.powered && node.host.dataPlaneReachable;
  }

  private observe(pod: SimPod): void {
    const workload = pod.owner;
    if (!workload) return;
    // Behind a Service, what kube-proxy and DNS route to: a ready endpoint, which with
    // publishNotReadyAddresses is any pod with an IP until its object is gone (SEMANTICS.md 9).
    const routed = workload.services.length > 0
      ? workload.services.some((service) => this.routes(pod, service))
      : !pod.removed && pod.readyCondition && pod.deletionTimestamp === undefined;
    const answers = this.canAnswer(pod);
    const serving = routed && answers;
    const blackholed = routed && !answers && workload.services.length > 0;
    const running = pod.running;
    if (serving === pod.countedServing && blackholed === pod.countedBlackholed && running === pod.countedRunning) return;
    const counters = this.countersOf(workload);
    this.accumulate(workload, counters);
    const delta = (a: boolean, b: boolean) => (b ? 1 : 0) - (a ? 1 : 0);
    counters.serving += delta(pod.countedServing, serving);
    counters.blackholed += delta(pod.countedBlackholed, blackholed);
    counters.running += delta(pod.countedRunning, running);
    pod.countedServing = serving;
    pod.countedBlackholed = blackholed;
    pod.countedRunning = running;
  }

  private countersOf(workload: SimWorkload): WorkloadCounters {
    let counters = this.counters.get(workload);
    if (!counters) {
      counters = { desired: wanted(workload), servingAtFailure: undefined, serving: 0, blackholed: 0, running: 0, since: this.now(), unavailableMs: 0, degradedMs: 0, blackholeMs: 0, duplicateMs: 0 };
      this.counters.set(workload, counters);
    }
    return counters;
  }

  /** Adds the time since the last change, counted from the failure instant (t = 0). */
  private accumulate(workload: SimWorkload, c: WorkloadCounters): void {
    const now = this.now();
    const from = Math.max(c.since, 0);
    if (now > from) {
      const dt = now - from;
      const expected = Math.min(c.desired, c.servingAtFailure ?? c.desired);
      // No pod serving is an outage whatever the DaemonSet's status counts (every node it runs on may be down).
      const unavailable = workload.desired > 0 && c.serving === 0 && (c.servingAtFailure ?? 1) > 0;
      if (unavailable) c.unavailableMs += dt;
      if (unavailable || c.serving < expected) c.degradedMs += dt;
      if (c.blackholed > 0) c.blackholeMs += dt;
      if (c.running > workload.desired) c.duplicateMs += dt;
    }
    c.since = now;
  }

  /** The failure's instant, before anything fails: what each workload serves then is what the failure can take. */
  markFailure(workloads: readonly SimWorkload[]): void {
    for (const workload of workloads) {
      const counters = this.countersOf(workload);
      this.accumulate(workload, counters);
      counters.servingAtFailure = counters.serving;
    }
  }

  /** Totals up to now. */
  totals(workload: SimWorkload): ServingTotals {
    const counters = this.countersOf(workload);
    this.accumulate(workload, counters);
    const { serving, unavailableMs, degradedMs, blackholeMs, duplicateMs } = counters;
    return { serving, unavailableMs, degradedMs, blackholeMs, duplicateMs };
  }
}

/** kubectl's DESIRED: a DaemonSet's count of the nodes it should run on now, other workloads' replicas. */
function wanted(workload: SimWorkload): number {
  return workload.desiredNumberScheduled ?? workload.desired;
}
