/**
 * The Job controller (pkg/controller/job): with the default podReplacementPolicy
 * (TerminatingOrFailed) a terminating pod counts as failed and is replaced at once, after the
 * failure backoff; with Failed (or a podFailurePolicy) it waits for a terminal phase
 * (SEMANTICS.md 6.4). The backoff starts at 10 s and doubles up to 10 minutes; every failed pod
 * counts for it, those a podFailurePolicy Ignore rule keeps out of backoffLimit too.
 */
import type { Job, PodFailurePolicyRule } from '../manifest/model/types';
import { features, type SimContext } from './context';
import type { SimPod, SimWorkload } from './objects';
import type { PodChange } from './store';
import type { VolumeBinder } from './volumeBinding';
import { wantActive } from './workloads';
import { WorkloadController } from './workloadController';

const BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 10 * 60_000;

export class JobController extends WorkloadController {
  private readonly counted = new Set<SimPod>();
  private readonly lastFailure = new Map<SimWorkload, number>();
  /** Failed pods, those a podFailurePolicy Ignore rule leaves out of backoffLimit included: the backoff counts them all. */
  private readonly backoffFailures = new Map<SimWorkload, number>();

  constructor(ctx: SimContext, volumes: VolumeBinder) {
    super(ctx, volumes, 'job-controller', ['Job', 'CronJob']);
  }

  /** A restart (counted towards backoffLimit with OnFailure) may come with Ready alone changing. */
  protected override cares(pod: SimPod, change: PodChange): boolean {
    return super.cares(pod, change) || (change === 'ready' && (pod.owner?.spec as Job).template.spec.restartPolicy === 'OnFailure');
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

  /**
   * matchPodFailurePolicy: the first rule the failed pod matches decides, with the message the Job
   * controller writes (pod_failure_policy.go). Pod conditions: DisruptionTarget, set by the taint
   * eviction controller, pod GC and the kubelet's shutdown. Exit codes: only where the kubelet
   * reported one (a container it stopped); on a failed node they are lost. FailIndex counts as a failure here.
   */
  private matchingRule(spec: Job, pod: SimPod): { action: PodFailurePolicyRule['action']; message: string } | undefined {
    if (!features.jobPodFailurePolicy(this.ctx.timing.version.minor)) return undefined;
    for (const [index, rule] of spec.podFailureRules.entries()) {
      const matching = `matching ${rule.action} rule at index ${index}`;
      if (rule.onExitCodes) {
        const container = failedContainer(rule.onExitCodes, pod);
        if (container) return { action: rule.action, message: `Container ${container} for pod ${pod.namespace}/${pod.name} failed with exit code ${pod.exitCode} ${matching}` };
      } else if (pod.disruptionTarget !== undefined && rule.onPodConditions.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) {
        return { action: rule.action, message: `Pod ${pod.namespace}/${pod.name} has condition DisruptionTarget ${matching}` };
      }
    }
    return undefined;
  }

  /**
   * When the failed pod finished, which the backoff counts from (getFinishedTime, 1.28 on): its
   * containers' end where the kubelet reported it (as it does now), else its Ready=False
   * transition (on a failed node, when the node lifecycle controller marked it), else its
   * deletionTimestamp less the grace period. Before, the controller's rate limiter counted from
   * when it saw the failure.
   */
  private finishedAt(pod: SimPod): number {
    const { clock, timing } = this.ctx;
    if (!features.jobBackoffFromFinishTime(timing.version.minor) || pod.containerState === 'terminated') return clock.now;
    if (pod.notReadySince !== undefined) return pod.notReadySince;
    if (pod.deletionTimestamp !== undefined) return pod.deletionTimestamp - (pod.deletionGracePeriodSeconds ?? 0) * 1000;
    return clock.now;
  }

  /** The Job fails, and syncJob deletes its active pods (deleteActivePods). */
  private fail(workload: SimWorkload, active: SimPod[], reason: string, message: string): void {
    const { store } = this.ctx;
    const spec = workload.spec as Job;
    workload.jobFailed = { reason, message, atMs: store.now };
    store.event(workload.ref, 'KubernetesEvent', reason, { message, backoffLimit: spec.backoffLimit });
    for (const pod of active) this.client.write(() => store.deletePod(pod, pod.template.terminationGracePeriodSeconds, 'job-controller'));
  }

  /** pastBackoffLimitOnFailure: with restartPolicy OnFailure the restarts of its Pending and Running pods count towards backoffLimit. */
  private pastBackoffLimitOnFailure(workload: SimWorkload, spec: Job): boolean {
    if (spec.template.spec.restartPolicy !== 'OnFailure') return false;
    let restarts = 0;
    for (const pod of workload.pods) if (!pod.removed && (pod.phase === 'Running' || pod.phase === 'Pending')) restarts += pod.restartCount;
    return spec.backoffLimit === 0 ? restarts > 0 : restarts >= spec.backoffLimit;
  }

  protected sync(workload: SimWorkload): void {
    const { clock } = this.ctx;
    const spec = workload.spec as Job;
    if (workload.jobFailed) return;
    // Pods still counted as running: not failed, not finished.
    const running = () => workload.pods.filter((p) => !this.isFailed(p, spec) && p.phase !== 'Succeeded' && !p.removed);
    for (const pod of workload.pods) {
      if (this.counted.has(pod) || !this.isFailed(pod, spec)) continue;
      this.counted.add(pod);
      const rule = this.matchingRule(spec, pod);
      if (rule?.action === 'FailJob') {
        this.fail(workload, running(), 'PodFailurePolicy', rule.message);
        return;
      }
      // Every failure delays the next pod, an ignored one too (syncJob's newBackoffRecord takes all new failed pods).
      this.backoffFailures.set(workload, (this.backoffFailures.get(workload) ?? 0) + 1);
      this.lastFailure.set(workload, Math.max(this.lastFailure.get(workload) ?? -Infinity, this.finishedAt(pod)));
      // An Ignore rule: the pod does not count towards backoffLimit (nonIgnoredFailedPodsCount).
      if (rule?.action !== 'Ignore') workload.failures++;
    }
    if (workload.failures > spec.backoffLimit || this.pastBackoffLimitOnFailure(workload, spec)) {
      this.fail(workload, running(), 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
      return;
    }
    const succeeded = workload.pods.filter((p) => p.phase === 'Succeeded').length;
    const missing = wantActive(spec, succeeded) - running().length - this.pendingCreations(workload);
    if (missing <= 0) return;
    const last = this.lastFailure.get(workload);
    const failures = this.backoffFailures.get(workload) ?? 0;
    if (last !== undefined && failures > 0) {
      const backoff = Math.min(BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS);
      if (clock.now < last + backoff) {
        this.enqueue(workload, last + backoff - clock.now);
        return;
      }
    }
    for (let i = 0; i < missing; i++) this.create(workload);
  }
}

/**
 * getMatchingContainerFromList: the first container, in the kubelet's order of containerStatuses
 * (by name), whose non-zero exit code is In (or NotIn) the values; the named one if the requirement
 * names one. Every app container ends with the pod's exit code here; init containers ended with 0
 * before, so they never match.
 */
function failedContainer(requirement: NonNullable<PodFailurePolicyRule['onExitCodes']>, pod: SimPod): string | undefined {
  const code = pod.exitCode;
  if (code === undefined || code === 0 || requirement.values.includes(code) !== (requirement.operator === 'In')) return undefined;
  const names = pod.template.containers.map((c) => c.name).sort();
  return requirement.containerName === undefined ? names[0] : names.find((name) => name === requirement.containerName);
}
