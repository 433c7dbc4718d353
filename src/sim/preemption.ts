/**
 * kube-scheduler's DefaultPreemption (pkg/scheduler/framework/plugins/defaultpreemption and
 * framework/preemption): when no node fits a pod, find the nodes where deleting pods of a lower
 * priority would let it in, choose the fewest and least important victims, delete them with their
 * grace period and nominate the node, which the pod then holds against pods of no higher priority.
 */
import { features, type SimContext } from './context';
import { isMirrorPod } from '../manifest/model/workloads';
import type { PodDisruptionBudget } from '../manifest/model/types';
import type { ApiClient } from './latency';
import type { SimNode, SimPod } from './objects';
import { podUid } from './podFactory';
import type { Random } from './random';
import { matchesLabelSelector } from './selectors';

const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';

/** What the filters said of each node in the failed cycle, and how many nodes PreFilter left out. */
export interface FilterDiagnosis {
  nodes: { node: SimNode; failures: readonly string[] }[];
  /** Nodes PreFilter left out that count as not helpful for preemption (1.30 on). */
  absentNotHelpful: number;
}

export type PostFilterResult =
  /** Victims are being deleted; the pod waits for them on its nominated node. */
  | { nominated: SimNode; victims: SimPod[] }
  /** Nothing to do: why, per node (a histogram), or a sentence. */
  | { verdicts: Map<string, number> }
  | { notEligible: string };

/** What the plugin needs of the scheduler: its filters, and taking pods off a node in its cache for a dry run. */
export interface PreemptionHost {
  filter(pod: SimPod, node: SimNode, explain: boolean): readonly string[];
  setHidden(pod: SimPod, hidden: boolean): void;
  /** The pods the scheduler counts on the node: bound, and assumed (chosen, their binding on its way). */
  podsOn(node: SimNode): SimPod[];
}

interface Candidate {
  node: SimNode;
  /** Most important first. */
  victims: SimPod[];
  violations: number;
}

export class DefaultPreemption {
  constructor(
    private readonly ctx: SimContext,
    private readonly host: PreemptionHost,
    private readonly client: ApiClient,
    private readonly random: Random,
    private readonly budgets: readonly PodDisruptionBudget[],
    private readonly isResolvable: (reason: string) => boolean,
  ) {}

  postFilter(pod: SimPod, diagnosis: FilterDiagnosis): PostFilterResult {
    const priority = pod.template.priority;
    // A class the input does not declare: its value is unknown, so nothing of lower priority is known either.
    if (priority === undefined) return { verdicts: withoutVictims(diagnosis, this.isResolvable) };
    const notEligible = this.notEligible(pod, priority, diagnosis);
    if (notEligible) return { notEligible };
    const verdicts = new Map<string, number>();
    const add = (reason: string, n = 1) => tally(verdicts, reason, n);
    if (diagnosis.absentNotHelpful > 0) add(NOT_HELPFUL, diagnosis.absentNotHelpful);
    const potential: SimNode[] = [];
    for (const { node, failures } of diagnosis.nodes) {
      if (failures.length > 0 && failures.every(this.isResolvable)) potential.push(node);
      else add(NOT_HELPFUL);
    }
    const candidates: Candidate[] = [];
    const n = potential.length;
    // calculateNumCandidates: 10 % of the nodes, at least 100; examined from a random offset.
    const wanted = Math.min(n, Math.max(Math.floor(n / 10), 100));
    const offset = n > 0 ? this.random.int(n) : 0;
    let nonViolating = 0;
    for (let i = 0; i < n && !(nonViolating > 0 && candidates.length >= wanted); i++) {
      const node = potential[(offset + i) % n];
      const selected = this.selectVictimsOnNode(pod, priority, node);
      if ('reasons' in selected) {
        for (const reason of selected.reasons) add(reason);
        continue;
      }
      candidates.push(selected);
      if (selected.violations === 0) nonViolating++;
    }
    if (candidates.length === 0) {
      this.ctx.store.nominate(pod, undefined);
      return { verdicts };
    }
    const chosen = pickOneNodeForPreemption(candidates);
    this.prepareCandidate(pod, chosen);
    return { nominated: chosen.node, victims: chosen.victims };
  }

  /** PodEligibleToPreemptOthers. */
  private notEligible(pod: SimPod, priority: number, diagnosis: FilterDiagnosis): string | undefined {
    if (pod.template.preemptionPolicy === 'Never') return 'not eligible due to preemptionPolicy=Never.';
    const nominated = pod.nominatedNode;
    if (!nominated || nominated.deleted) return undefined;
    const status = diagnosis.nodes.find((n) => n.node === nominated)?.failures;
    if (!status || !status.every(this.isResolvable)) return undefined;
    const waiting = nominated.pods.some((p) => !p.removed && isLower(p, priority) && this.terminatingByPreemption(p));
    return waiting ? 'not eligible due to a terminating pod on the nominated node.' : undefined;
  }

  /** From 1.27 only a pod the scheduler itself is deleting counts (podTerminatingByPreemption, kubernetes#114623). */
  private terminatingByPreemption(pod: SimPod): boolean {
    if (pod.deletionTimestamp === undefined) return false;
    const minor = this.ctx.timing.version.minor;
    return minor < 27 || !features.disruptionConditions(minor) || pod.disruptionTarget === 'PreemptionByScheduler';
  }

  /**
   * SelectVictimsOnNode: take every pod of lower priority off the node; if the pod then fits, put
   * them back one by one, most important first and those a disruption budget protects before the
   * others, keeping out only those without which it does not fit.
   */
  private selectVictimsOnNode(pod: SimPod, priority: number, node: SimNode): Candidate | { reasons: readonly string[] } {
    const potential = this.host.podsOn(node).filter((p) => p !== pod && isLower(p, priority) && !(p.owner && isMirrorPod(p.owner.spec)));
    if (potential.length === 0) return { reasons: [NO_VICTIMS] };
    for (const p of potential) this.host.setHidden(p, true);
    const reasons = this.host.filter(pod, node, true);
    if (reasons.length > 0) {
      for (const p of potential) this.host.setHidden(p, false);
      return { reasons };
    }
    potential.sort(moreImportant);
    const { violating, nonViolating } = this.splitByBudgets(potential);
    const victims: SimPod[] = [];
    let violations = 0;
    const reprieve = (p: SimPod, violates: boolean) => {
      this.host.setHidden(p, false);
      if (this.host.filter(pod, node, false).length === 0) return;
      this.host.setHidden(p, true);
      victims.push(p);
      if (violates) violations++;
    };
    for (const p of violating) reprieve(p, true);
    for (const p of nonViolating) reprieve(p, false);
    for (const p of victims) this.host.setHidden(p, false);
    return { node, victims: victims.sort(moreImportant), violations };
  }

  /**
   * filterPodsWithPDBViolation: each budget allows as many disruptions as it has healthy pods
   * above what it requires (the disruption controller's disruptionsAllowed); a pod past that violates it.
   */
  private splitByBudgets(pods: SimPod[]): { violating: SimPod[]; nonViolating: SimPod[] } {
    if (this.budgets.length === 0) return { violating: [], nonViolating: pods };
    const allowed = new Map<PodDisruptionBudget, number>();
    const violating: SimPod[] = [];
    const nonViolating: SimPod[] = [];
    for (const pod of pods) {
      let violates = false;
      for (const budget of this.budgets) {
        if (!selects(budget, pod)) continue;
        const left = (allowed.get(budget) ?? this.disruptionsAllowed(budget)) - 1;
        allowed.set(budget, left);
        if (left < 0) violates = true;
      }
      (violates ? violating : nonViolating).push(pod);
    }
    return { violating, nonViolating };
  }

  /** The disruption controller's status: healthy pods (Ready, not being deleted) above the desired healthy count. */
  private disruptionsAllowed(budget: PodDisruptionBudget): number {
    const pods = this.ctx.store.workloads.filter((w) => w.namespace === budget.namespace).flatMap((w) => w.pods.filter((p) => !p.removed && selects(budget, p)));
    const healthy = pods.filter((p) => p.deletionTimestamp === undefined && p.readyCondition).length;
    // Percentages and maxUnavailable count against the owners' replicas; a whole minAvailable against the pods.
    const expected = [...new Set(pods.map((p) => p.owner!))].reduce((sum, w) => sum + w.desired, 0);
    const scaled = (value: number | string, roundUp: boolean) => typeof value === 'number' ? value : (roundUp ? Math.ceil : Math.floor)((parseFloat(value) / 100) * expected);
    const desired = budget.minAvailable !== undefined ? (typeof budget.minAvailable === 'number' ? budget.minAvailable : scaled(budget.minAvailable, true))
      : budget.maxUnavailable !== undefined ? expected - scaled(budget.maxUnavailable, true) : 0;
    return Math.max(0, healthy - desired);
  }

  /** prepareCandidate: each victim gets the DisruptionTarget condition (1.26 on), is deleted with its own grace period, and an event says why. */
  private prepareCandidate(pod: SimPod, { node, victims }: Candidate): void {
    const { store, timing } = this.ctx;
    const minor = timing.version.minor;
    for (const victim of victims) {
      if (victim.deletionTimestamp !== undefined) continue;
      if (features.disruptionConditions(minor)) {
        const [reason, message] = minor >= 27
          ? ['PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod']
          : ['PreemptionByKubeScheduler', `Kube-scheduler: preempting to accommodate a higher priority pod: ${pod.namespace}/${pod.name}`];
        this.client.write(() => store.addDisruptionTarget(victim, reason, message));
      }
      this.client.write(() => {
        if (victim.removed || victim.deletionTimestamp !== undefined) return;
        store.preempted(victim, pod, node);
        store.event(victim.ref, 'KubernetesEvent', 'Preempted', { message: preemptedMessage(pod, node, minor), preemptor: pod.name });
        store.deletePod(victim, victim.template.terminationGracePeriodSeconds, 'default-scheduler');
      });
    }
    // Lower-priority pods nominated to the node lose their nomination.
    for (const other of store.nominatedTo(node)) if (other !== pod && isLower(other, pod.template.priority!)) store.nominate(other, undefined);
    store.nominate(pod, node);
  }
}

/** The verdicts when no node has pods of a lower priority to delete: a node where only resolvable filters failed has no victims. */
export function withoutVictims(diagnosis: FilterDiagnosis, isResolvable: (reason: string) => boolean): Map<string, number> {
  const verdicts = new Map<string, number>();
  if (diagnosis.absentNotHelpful > 0) tally(verdicts, NOT_HELPFUL, diagnosis.absentNotHelpful);
  for (const { failures } of diagnosis.nodes) tally(verdicts, failures.every(isResolvable) ? NO_VICTIMS : NOT_HELPFUL);
  return verdicts;
}

/** Counts `n` more nodes for the reason (FailedScheduling's "N reason" histogram). */
function tally(verdicts: Map<string, number>, reason: string, n = 1): void {
  verdicts.set(reason, (verdicts.get(reason) ?? 0) + n);
}

/** A pod known to be of lower priority (a class the input does not declare is not known to be). */
function isLower(pod: SimPod, priority: number): boolean {
  return pod.template.priority !== undefined && pod.template.priority < priority;
}

/** MoreImportantPod: higher priority first, then the one that started earlier. */
function moreImportant(a: SimPod, b: SimPod): number {
  return (b.template.priority ?? 0) - (a.template.priority ?? 0) || a.createdAt - b.createdAt;
}

function selects(budget: PodDisruptionBudget, pod: SimPod): boolean {
  if (pod.namespace !== budget.namespace) return false;
  // filterPodsWithPDBViolation: a budget with an empty selector matches nothing here, whatever the disruption controller makes of it.
  const empty = Object.keys(budget.selector.matchLabels).length === 0 && budget.selector.matchExpressions.length === 0;
  return !empty && matchesLabelSelector(budget.selector, pod.template.labels);
}

/**
 * pickOneNodeForPreemption: fewest budget violations, then the lowest highest victim priority, the
 * lowest sum of priorities, the fewest victims, the latest start among the most important victims,
 * then the first examined.
 */
function pickOneNodeForPreemption(candidates: Candidate[]): Candidate {
  const criteria: ((c: Candidate) => number)[] = [
    (c) => c.violations,
    (c) => c.victims[0].template.priority!,
    (c) => c.victims.reduce((sum, v) => sum + v.template.priority! + 2 ** 31, 0),
    (c) => c.victims.length,
    (c) => -Math.min(...c.victims.filter((v) => v.template.priority === c.victims[0].template.priority).map((v) => v.createdAt)),
  ];
  let remaining = candidates;
  for (const score of criteria) {
    const best = Math.min(...remaining.map(score));
    remaining = remaining.filter((c) => score(c) === best);
    if (remaining.length === 1) break;
  }
  return remaining[0];
}

/** The victim's event: the preemptor by name up to 1.26, by nothing in 1.27 and 1.28, by its UID from 1.29 (kubernetes#114923, #119971). */
function preemptedMessage(pod: SimPod, node: SimNode, minor: number): string {
  if (minor <= 26) return `Preempted by ${pod.namespace}/${pod.name} on node ${node.name}`;
  if (minor <= 28) return `Preempted by a pod on node ${node.name}`;
  return `Preempted by pod ${podUid(pod)} on node ${node.name}`;
}
