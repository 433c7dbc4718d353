/**
 * What users feel, measured from the failure on: a pod serves when it is Ready in the API, not
 * terminating, and really answering (containers running on a reachable node). Per workload:
 * time with no serving pod (unavailable), with fewer than desired (degraded), with a Service
 * endpoint still routing to a pod that cannot answer (blackhole), and with more copies running
 * than desired (duplicates, e.g. during a partition).
 */
import type { SimNode, SimPod, SimWorkload } from './objects';

interface WorkloadCounters {
  serving: number;
  blackholed: number;
  running: number;
  since: number;
  unavailableMs: number;
  degradedMs: number;
  blackholeMs: number;
  duplicateMs: number;
}

interface Contribution {
  serving: boolean;
  blackholed: boolean;
  running: boolean;
}

export class ServingMetrics {
  private readonly counters = new Map<SimWorkload, WorkloadCounters>();
  private readonly contributions = new Map<SimPod, Contribution>();

  constructor(private readonly now: () => number, private readonly nodeOf: (pod: SimPod) => SimNode | undefined) {}

  canAnswer(pod: SimPod): boolean {
    const node = this.nodeOf(pod);
    return pod.running && pod.appReady && !!node && node.host.powered && node.host.dataPlaneReachable;
  }

  observe(pod: SimPod): void {
    const workload = pod.owner;
    if (!workload) return;
    const routed = !pod.removed && pod.readyCondition && pod.deletionTimestamp === undefined;
    const answers = this.canAnswer(pod);
    const next: Contribution = {
      serving: routed && answers,
      blackholed: routed && !answers && workload.services.length > 0,
      running: pod.running,
    };
    const previous = this.contributions.get(pod);
    if (previous && previous.serving === next.serving && previous.blackholed === next.blackholed && previous.running === next.running) return;
    const counters = this.countersOf(workload);
    this.accumulate(workload, counters);
    const delta = (a: boolean | undefined, b: boolean) => (b ? 1 : 0) - (a ? 1 : 0);
    counters.serving += delta(previous?.serving, next.serving);
    counters.blackholed += delta(previous?.blackholed, next.blackholed);
    counters.running += delta(previous?.running, next.running);
    this.contributions.set(pod, next);
  }

  private countersOf(workload: SimWorkload): WorkloadCounters {
    let counters = this.counters.get(workload);
    if (!counters) {
      counters = { serving: 0, blackholed: 0, running: 0, since: this.now(), unavailableMs: 0, degradedMs: 0, blackholeMs: 0, duplicateMs: 0 };
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
      if (workload.desired > 0 && c.serving === 0) c.unavailableMs += dt;
      if (c.serving < workload.desired) c.degradedMs += dt;
      if (c.blackholed > 0) c.blackholeMs += dt;
      if (c.running > workload.desired) c.duplicateMs += dt;
    }
    c.since = now;
  }

  /** Totals up to now. */
  totals(workload: SimWorkload) {
    const counters = this.countersOf(workload);
    this.accumulate(workload, counters);
    return { ...counters };
  }
}
