/**
 * The Job controller (pkg/controller/job): with the default podReplacementPolicy
 * (TerminatingOrFailed) a terminating pod counts as failed and is replaced at once, after the
 * failure backoff; with Failed (or a podFailurePolicy) it waits for a terminal phase
 * (SEMANTICS.md 6.4). The backoff starts at 10 s and doubles up to 10 minutes.
 */
import type { Job } from '../manifest/model/types';
import { features, type SimContext } from './context';
import type { SimPod, SimWorkload } from './objects';
import type { VolumeBinder } from './volumeBinding';
import { WorkloadController } from './workloadController';

/** manageJob's wantActive: parallelism, but no more pods than completions still to go. */
export function jobActive(spec: Job, workload: SimWorkload): number {
  if (spec.completions === undefined) return spec.parallelism;
  const succeeded = workload.pods.filter((p) => p.phase === 'Succeeded').length;
  return Math.max(0, Math.min(spec.parallelism, spec.completions - succeeded));
}

const BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 10 * 60_000;

export class JobController extends WorkloadController {
  private readonly counted = new Set<SimPod>();
  private readonly lastFailure = new Map<SimWorkload, number>();
  private readonly failed = new Set<SimWorkload>();

  constructor(ctx: SimContext, volumes: VolumeBinder) {
    super(ctx, volumes, 'job-controller', ['Job', 'CronJob']);
  }

  /** Only where its feature gate is on: with the gate off the API server drops the field. */
  private waitsForTerminalPhase(spec: Job): boolean {
    const { minor } = this.ctx.timing.version;
    return (spec.podReplacementPolicy === 'Failed' && features.jobPodReplacementPolicy(minor)) || (spec.hasPodFailurePolicy && features.jobPodFailurePolicy(minor));
  }

  private isFailed(pod: SimPod, spec: Job): boolean {
    if (pod.phase === 'Failed') return true;
    return !this.waitsForTerminalPhase(spec) && (pod.deletionTimestamp !== undefined || pod.removed) && pod.phase !== 'Succeeded';
  }

  protected sync(workload: SimWorkload): void {
    const { store, clock } = this.ctx;
    const spec = workload.spec as Job;
    if (this.failed.has(workload)) return;
    for (const pod of workload.pods) {
      if (!this.counted.has(pod) && this.isFailed(pod, spec)) {
        this.counted.add(pod);
        workload.failures++;
        this.lastFailure.set(workload, clock.now);
      }
    }
    // Pods still counted as running: not failed, not finished.
    const running = workload.pods.filter((p) => !this.isFailed(p, spec) && p.phase !== 'Succeeded' && !p.removed);
    if (workload.failures > spec.backoffLimit) {
      // The Job fails, and syncJob deletes its active pods (deleteActivePods).
      this.failed.add(workload);
      store.event(workload.ref, 'KubernetesEvent', 'BackoffLimitExceeded', { message: 'Job has reached the specified backoff limit', backoffLimit: spec.backoffLimit });
      for (const pod of running) this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'job-controller'));
      return;
    }
    const missing = jobActive(spec, workload) - running.length - this.pendingCreations(workload);
    if (missing <= 0) return;
    const last = this.lastFailure.get(workload);
    if (last !== undefined && workload.failures > 0) {
      const backoff = Math.min(BACKOFF_MS * 2 ** (workload.failures - 1), MAX_BACKOFF_MS);
      if (clock.now < last + backoff) {
        this.enqueue(workload, last + backoff - clock.now);
        return;
      }
    }
    for (let i = 0; i < missing; i++) this.create(workload);
  }
}
