/**
 * What the workload controllers share: a work queue of workloads fed by changes to their
 * pods (each sync runs after the watch latency, at most one queued per workload), an API
 * client, and creation expectations so that a sync does not create a pod twice.
 */
import { leaderOf, type SimContext } from './context';
import { ApiClient } from './latency';
import { isActive, type PodTemplateSim, type SimPod, type SimWorkload, type WorkloadKind } from './objects';
import { newPod } from './podFactory';
import type { Random } from './random';
import type { PodChange } from './store';
import type { VolumeBinder } from './volumeBinding';

/** The controller that creates the pods: a Deployment's ReplicaSet's, a CronJob's Job's. */
const CREATOR: Partial<Record<SimWorkload['kind'], string>> = { Deployment: 'replicaset-controller', CronJob: 'job-controller' };

export abstract class WorkloadController {
  protected readonly client: ApiClient;
  protected readonly random: Random;
  private readonly queued = new Set<SimWorkload>();
  /** Pods created but not yet seen (ControllerExpectations). */
  protected readonly expectedCreations = new Map<SimWorkload, number>();
  /** Replacements created so far, per workload. */
  private readonly replacementsMade = new Map<SimWorkload, number>();

  constructor(protected readonly ctx: SimContext, protected readonly volumes: VolumeBinder, name: string, kinds: readonly WorkloadKind[]) {
    this.random = ctx.random.fork(name);
    this.client = new ApiClient(ctx, this.random);
    // A new leader's controller lists every workload again and forgets creations in flight.
    const leader = leaderOf(ctx);
    leader.onLost(() => this.expectedCreations.clear());
    leader.onAcquired(() => {
      for (const workload of ctx.store.workloads) if (kinds.includes(workload.kind)) this.resync(workload);
    });
    ctx.store.onPod((pod, change) => {
      const owner = pod.owner;
      if (!owner || !kinds.includes(owner.kind)) return;
      if (change === 'created') this.expectedCreations.set(owner, Math.max(0, (this.expectedCreations.get(owner) ?? 0) - 1));
      if (this.cares(pod, change)) this.enqueue(owner);
    });
  }

  /** Pod changes that can make the controller act: a pod stops being active, or its phase changes. */
  protected cares(_pod: SimPod, change: PodChange): boolean {
    return change === 'deleting' || change === 'removed' || change === 'status';
  }

  enqueue(workload: SimWorkload, delayMs?: number): void {
    const leader = leaderOf(this.ctx);
    if (this.queued.has(workload) || !leader.leading) return;
    this.queued.add(workload);
    const delay = delayMs ?? this.random.latency(this.ctx.timing.simulator.watchLatency.value);
    this.ctx.clock.after(delay, () => {
      this.queued.delete(workload);
      if (leader.leading) this.sync(workload);
    });
  }

  /** The new leader's initial list: the workload is synced as if everything about it had changed. */
  protected resync(workload: SimWorkload): void {
    this.enqueue(workload);
  }

  protected abstract sync(workload: SimWorkload): void;

  protected pendingCreations(workload: SimWorkload): number {
    return this.expectedCreations.get(workload) ?? 0;
  }

  /** Creates a pod through the API; it is a replacement when it is created after the failure (its creator as in SuccessfulCreate events). */
  protected create(workload: SimWorkload, ordinal?: number, template?: PodTemplateSim): void {
    const { store, clock } = this.ctx;
    if (clock.now >= 0 && !this.mayReplace(workload)) return;
    this.expectedCreations.set(workload, this.pendingCreations(workload) + 1);
    const pod = newPod(workload, store.uid(), clock.now, this.volumes.claimsFor(workload, ordinal), ordinal, template);
    pod.replacement = clock.now >= 0;
    this.client.write(() => {
      pod.createdAt = clock.now;
      store.createPod(pod, CREATOR[workload.kind] ?? `${workload.kind.toLowerCase()}-controller`);
    });
  }

  /**
   * A replacement evicted as soon as it exists (bound by nodeName to a dead node, tolerationSeconds
   * 0) is replaced again and again, as in Kubernetes; the simulator stops at a limit and says so.
   */
  private mayReplace(workload: SimWorkload): boolean {
    const limit = replacementLimit(workload.desired);
    const made = (this.replacementsMade.get(workload) ?? 0) + 1;
    if (made > limit + 1) return false;
    this.replacementsMade.set(workload, made);
    if (made <= limit) return true;
    this.ctx.store.event(workload.ref, 'Note', 'ReplacementsLimited', { limit });
    return false;
  }

  protected activeCount(workload: SimWorkload): number {
    let count = 0;
    for (const pod of workload.pods) if (isActive(pod)) count++;
    return count;
  }
}

/** Replacements one workload may create in a run: far more than any failure replaces, few enough to stay fast. */
export function replacementLimit(desired: number): number {
  return Math.max(1000, 10 * desired);
}
