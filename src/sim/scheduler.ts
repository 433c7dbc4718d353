/**
 * kube-scheduler's filters, its queue (SEMANTICS.md 8) and, in schedulerScore.ts, its default
 * score plugins. Filters run in the default plugin order and a node fails on the first that
 * rejects it, so the FailedScheduling message counts the same reasons kubectl shows.
 */
import { HOSTNAME_LABEL } from '../cluster/clusterSpec';
import type { LabelSelector, PodAffinityTerm } from '../manifest/model/types';
import { features, type SimContext } from './context';
import { ApiClient, Informer } from './latency';
import { DaemonSetController, daemonPodTemplate } from './daemonSet';
import { needsAttach, nextPodIp, type SimNode, type SimPod } from './objects';
import { markRunning, newPod } from './podFactory';
import type { Random } from './random';
import { matchesLabelSelector, matchesMap, matchesNodeSelectorTerms, termNamespaces, type NamespaceLabels } from './selectors';
import { SCHEDULING_EFFECTS, UNSCHEDULABLE, toleratesTaint, untoleratedTaint } from './tolerations';
import { SchedulerCache } from './schedulerCache';
import { SchedulerScore } from './schedulerScore';
import type { PodDisruptionBudget } from '../manifest/model/types';
import type { InitialPlacement, Placement as PlacementPolicy } from './scenario';
import type { VolumeBinder } from './volumeBinding';
import { DefaultPreemption, withoutVictims, type FilterDiagnosis, type PostFilterResult } from './preemption';

/** NodePorts: a host port another pod on the node holds (Unschedulable: preemption could free it). */
const NO_FREE_PORTS = "node(s) didn't have free ports for the requested pod ports";
/**
 * Filter failures whose status is Unschedulable, not UnschedulableAndUnresolvable: preemption
 * could help, so a node without lower-priority victims reads "No preemption victims found".
 * Inter-pod anti-affinity and a topology-spread skew are (interpodaffinity/filtering.go Filter,
 * podtopologyspread/filtering.go); required pod affinity is not.
 */
const RESOLVABLE = new Set([NO_FREE_PORTS, 'Too many pods', "node(s) didn't match pod anti-affinity rules", "node(s) didn't match pod topology spread constraints"]);
/** Insufficient cpu, memory or any extended resource is resolvable too. */
function isResolvable(reason: string): boolean {
  return RESOLVABLE.has(reason) || reason.startsWith('Insufficient ');
}
const AFFINITY_NOT_MATCHED = "node(s) didn't match pod affinity rules";
const FITS: readonly string[] = [];
const NO_PODS: readonly SimPod[] = [];
const DOES_NOT_FIT: readonly string[] = ['does not fit'];
const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 10_000;
/** podMaxInUnschedulablePodsDuration: unschedulable pods are retried at least this often. */
const UNSCHEDULABLE_FLUSH_MS = 5 * 60_000;

interface Pending {
  attempts: number;
  lastAttempt: number;
  retryAt?: number;
}

/** A node, or why none: the filters' verdict per node (FitError) for preemption to work from. */
type Placement = { node: SimNode } | { fitError: string; diagnosis: FilterDiagnosis };

export class Scheduler {
  private readonly pending = new Map<SimPod, Pending>();
  private readonly cache: SchedulerCache;
  private nextStartNodeIndex = 0;
  /** Nodes sharing the best score in the current cycle, and the feasible node indices (reused). */
  private readonly ties: SimNode[] = [];
  private feasible = new Int32Array(128);
  private readonly scorer: SchedulerScore;
  private readonly client: ApiClient;
  private readonly random: Random;
  /**
   * Ties among equal scores are broken at random (the real scheduler samples among them), but
   * not before the failure: the healthy layout is the same in every run, in node order.
   */
  private tieRandom: Random | undefined;
  /** How placeInitial places pods (the summary says which): unscored in a large cluster with the scheduler policy; fixed by the nodes there are at the start. */
  readonly initialPlacement: InitialPlacement;
  /** Affinity terms' namespaceSelector is honoured (the version's API server keeps it). */
  private readonly namespaceSelectors: boolean;
  /** The labels of the namespaces the input declares, which affinity terms' namespaceSelectors match. */
  private readonly namespaces: NamespaceLabels | undefined;
  private readonly preemption: DefaultPreemption;
  /** Pods a preemption dry run has taken off their nodes (the cache no longer counts them). */
  private readonly hidden = new Set<SimPod>();
  /** Pods chosen for a node whose binding has not landed yet, by node: the cache counts them already (assume). */
  private readonly assumed = new Map<SimNode, Set<SimPod>>();

  constructor(private readonly ctx: SimContext, private readonly volumes: VolumeBinder, placement: PlacementPolicy = 'scheduler', objects: { namespaces?: NamespaceLabels; budgets?: readonly PodDisruptionBudget[] } = {}) {
    const { store } = ctx;
    this.namespaces = objects.namespaces;
    this.random = ctx.random.fork('scheduler');
    this.cache = new SchedulerCache(store.nodes);
    this.namespaceSelectors = features.podAffinityNamespaceSelector(ctx.timing.version.minor);
    this.initialPlacement = this.cache.order.length >= 100 && placement === 'scheduler' ? 'first-feasible' : 'scored';
    this.scorer = new SchedulerScore(this.cache, placement, this);
    this.client = new ApiClient(ctx, this.random);
    // Its own random stream: runs without preemption draw exactly what they drew before it existed.
    this.preemption = new DefaultPreemption(ctx, this, this.client, ctx.random.fork('preemption'), objects.budgets ?? [], isResolvable);
    const podInformer = new Informer<SimPod>(ctx, this.random, (pod) => this.attempt(pod));
    const eventInformer = new Informer<string>(ctx, this.random, () => this.retryUnschedulable());
    store.onPod((pod, change) => {
      // A pod naming its node is never the scheduler's, bound (createPod) or not (no such node).
      if (change === 'created' && pod.nodeName === undefined && pod.template.nodeName === undefined) podInformer.notify(pod);
      if (change === 'bound') this.count(pod, pod.node!);
      if (change === 'deleting') this.uncountSpread(pod);
      if (change === 'removed') {
        this.uncount(pod);
        this.pending.delete(pod);
        if (this.pending.size > 0) eventInformer.notify('pod removed');
      }
    });
    store.onNode((node, change) => {
      if (change === 'deleted' || change === 'added') this.cache.nodesChanged();
      if (change === 'added') {
        this.cache.taintsChanged(node);
        if (this.pending.size > 0) eventInformer.notify(`node ${node.name} added`);
      }
      if (change === 'taints') this.cache.taintsChanged(node);
      if ((change === 'taints' || change === 'ready') && this.pending.size > 0) eventInformer.notify(`node ${node.name} ${change}`);
    });
  }

  /**
   * The healthy cluster before the failure: every workload's pods running and Ready where this
   * scheduler puts them, daemon pods on every node that should run one. Returns the pods that
   * could not run; their controllers create them through the API at the start. Ties are broken
   * by node order here, so the healthy layout is the same in every run; the run's own
   * randomness starts after it.
   */
  placeBeforeFailure(): SimPod[] {
    const { store, clock } = this.ctx;
    const pending: SimPod[] = [];
    // Higher priorities first (the queue's PrioritySort): what preemption would have settled long before the failure.
    const byPriority = [...store.workloads].sort((a, b) => (b.template.priority ?? 0) - (a.template.priority ?? 0));
    for (const workload of byPriority) {
      const spec = workload.spec;
      if (spec.kind === 'DaemonSet') {
        for (const node of store.nodes) {
          if (!DaemonSetController.shouldRun(workload, node).shouldRun) continue;
          const pod = newPod(workload, store.uid(), clock.now, [], undefined, daemonPodTemplate(workload, node));
          // Its node only (the DaemonSet's node affinity), if the pod fits there; else Pending, with placeInitial's reasons.
          if (this.filter(pod, node, false).length === 0) {
            this.run(pod, node);
          } else {
            this.placeInitial(pod);
            pending.push(pod);
          }
        }
        continue;
      }
      for (let i = 0; i < workload.desired; i++) {
        const ordinal = spec.kind === 'StatefulSet' ? i : undefined;
        const pod = newPod(workload, store.uid(), clock.now, this.volumes.claimsFor(workload, ordinal), ordinal);
        const pinned = pod.template.nodeName;
        const node = pinned === undefined ? this.placeInitial(pod) : store.nodeByName.get(pinned);
        if (pinned !== undefined && !node) pod.pendingMessage = `spec.nodeName is ${pinned}, a node the cluster does not have: the scheduler never places the pod and no kubelet runs it`;
        const attachedElsewhere = node && pod.claims.some((c) => c.volume && needsAttach(c.volume) && c.volume.attachedTo !== undefined && c.volume.attachedTo !== node.name);
        if (node && !attachedElsewhere) this.run(pod, node);
        else pending.push(pod);
      }
    }
    this.tieRandom = this.random.fork('ties');
    return pending;
  }

  private run(pod: SimPod, node: SimNode): void {
    markRunning(pod, nextPodIp(node, pod));
    this.ctx.store.addRunningPod(pod, node);
    this.count(pod, node);
    for (const claim of pod.claims) {
      if (claim.volume && needsAttach(claim.volume)) claim.volume.attachedTo ??= node.name;
    }
  }

  /**
   * Where a pod runs in the healthy cluster before the failure. In a large cluster the first
   * feasible node from the rotating start is taken (consecutive pods land on consecutive nodes),
   * which spreads as evenly as scoring would at a fraction of the cost.
   */
  private placeInitial(pod: SimPod): SimNode | undefined {
    const placement = this.initialPlacement === 'first-feasible' ? this.firstFeasible(pod) : this.findNode(pod);
    if (!('node' in placement)) {
      this.pending.set(pod, { attempts: 1, lastAttempt: this.ctx.clock.now });
      // The healthy cluster is laid out by priority, so no pod of a lower priority is left to preempt.
      pod.preemptionMightHelp = mightHelp(placement.diagnosis);
      pod.pendingMessage = this.failureMessage(placement.fitError, { verdicts: withoutVictims(placement.diagnosis, isResolvable) });
      return undefined;
    }
    this.volumes.bindForNode(pod.claims, placement.node);
    return placement.node;
  }

  /**
   * Counts a pod on the node the scheduler chose for it (assumed until its binding lands) or it was
   * bound to: the next cycle sees its requests, spreading and ports at once, as the real cache does.
   */
  private count(pod: SimPod, node: SimNode): void {
    const assumed = this.assumed.get(node);
    if (assumed?.delete(pod) && assumed.size === 0) this.assumed.delete(node);
    // A node whose object is deleted is counted too: the cache keeps it while pods are bound there (addPod's placeholder NodeInfo).
    if (pod.cachedOn === node) return;
    this.uncount(pod);
    pod.cachedOn = node;
    this.cache.account(pod, node, +1);
    if (pod.deletionTimestamp === undefined) {
      pod.spreadCounted = true;
      this.cache.accountSpread(pod, node, +1);
    }
  }

  /** The pod is gone from where the cache counts it (removed, or its binding failed), on a live node or a deleted one. */
  private uncount(pod: SimPod): void {
    const node = pod.cachedOn;
    if (!node) return;
    this.uncountSpread(pod);
    this.cache.account(pod, node, -1);
    pod.cachedOn = undefined;
    const assumed = this.assumed.get(node);
    if (assumed?.delete(pod) && assumed.size === 0) this.assumed.delete(node);
  }

  /** Topology spreading no longer counts a terminating pod. */
  private uncountSpread(pod: SimPod): void {
    if (!pod.spreadCounted) return;
    pod.spreadCounted = false;
    this.cache.accountSpread(pod, pod.cachedOn!, -1);
  }

  /** The scheduler's choice, counted before the binding lands (the scheduler cache's AssumePod); it no longer holds a nominated node. */
  private assume(pod: SimPod, node: SimNode): void {
    this.ctx.store.nominate(pod, undefined);
    this.count(pod, node);
    let pods = this.assumed.get(node);
    if (!pods) this.assumed.set(node, (pods = new Set()));
    pods.add(pod);
  }

  private attempt(pod: SimPod): void {
    const { store, clock } = this.ctx;
    if (pod.removed || pod.nodeName !== undefined || pod.deletionTimestamp !== undefined) {
      this.pending.delete(pod);
      return;
    }
    const state = this.pending.get(pod) ?? { attempts: 0, lastAttempt: clock.now };
    state.attempts++;
    state.lastAttempt = clock.now;
    state.retryAt = undefined;
    // evaluateNominatedNode (PreferNominatedNode, on from 1.22): the node preemption made room on is tried first.
    const nominated = this.ctx.timing.version.minor >= 22 ? pod.nominatedNode : undefined;
    const placement = nominated && !nominated.deleted && this.filter(pod, nominated, false).length === 0 ? { node: nominated } : this.findNode(pod);
    if ('node' in placement) {
      this.pending.delete(pod);
      const node = placement.node;
      this.assume(pod, node);
      // The API server binds to a Node object deleted meanwhile too; pod GC then deletes the orphan.
      this.client.write(() => {
        if (pod.removed || pod.nodeName !== undefined) return;
        this.volumes.bindForNode(pod.claims, node);
        store.bindPod(pod, node);
      });
      return;
    }
    this.pending.set(pod, state);
    pod.preemptionMightHelp = mightHelp(placement.diagnosis);
    store.podUnschedulable(pod, this.failureMessage(placement.fitError, this.preemption.postFilter(pod, placement.diagnosis)));
    this.scheduleRetry(pod, state, clock.now + UNSCHEDULABLE_FLUSH_MS);
  }

  /** A cluster event may make unschedulable pods fit: retry each after its backoff. */
  private retryUnschedulable(): void {
    const now = this.ctx.clock.now;
    for (const [pod, state] of this.pending) {
      const backoff = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, state.attempts - 1), MAX_BACKOFF_MS);
      this.scheduleRetry(pod, state, Math.max(now, state.lastAttempt + backoff));
    }
  }

  private scheduleRetry(pod: SimPod, state: Pending, at: number): void {
    if (state.retryAt !== undefined && state.retryAt <= at) return;
    state.retryAt = at;
    this.ctx.clock.at(at, () => {
      if (this.pending.get(pod) === state && state.retryAt === at) this.attempt(pod);
    });
  }

  /**
   * One scheduling cycle: PreFilter narrowing, then filters from a rotating start until enough
   * feasible nodes are found (numFeasibleNodesToFind, at most 100 here, the real scheduler's
   * minimum), and the best score among them. Reasons are worked out only when no node fits.
   */
  private findNode(pod: SimPod, feasibleToFind?: number, narrowed = this.preFilter(pod)): Placement {
    const cache = this.cache;
    const pinned = narrowed?.names;
    const candidates = pinned
      ? Int32Array.from(cache.order).filter((i) => pinned.has(cache.nodes[i].labels[HOSTNAME_LABEL] ?? cache.nodes[i].name) || pinned.has(cache.nodes[i].name))
      : cache.order;
    const count = candidates.length;
    const toFind = feasibleToFind ?? Math.min(100, numFeasibleNodesToFind(count));
    if (this.feasible.length < toFind) this.feasible = new Int32Array(toFind);
    let feasible = 0;
    let processed = 0;
    for (let k = 0; k < count && feasible < toFind; k++) {
      const i = candidates[(this.nextStartNodeIndex + k) % count];
      processed++;
      if (this.filter(pod, cache.nodes[i], false).length > 0) continue;
      this.feasible[feasible++] = i;
    }
    this.nextStartNodeIndex = count > 0 ? (this.nextStartNodeIndex + processed) % count : 0;
    if (feasible > 0) {
      const best = this.ties;
      this.scorer.best(pod, this.feasible, feasible, best);
      return { node: best.length === 1 || !this.tieRandom ? best[0] : best[this.tieRandom.int(best.length)] };
    }

    const reasons = new Map<string, number>();
    const nodes: FilterDiagnosis['nodes'] = [];
    for (const i of candidates) {
      const failures = this.filter(pod, cache.nodes[i], true);
      for (const reason of failures) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      nodes.push({ node: cache.nodes[i], failures });
    }
    const total = cache.order.length;
    let absentNotHelpful = 0;
    if (narrowed && count < total) {
      const absent = this.absentNodes(narrowed.plugins);
      if (absent.reason) reasons.set(absent.reason, (reasons.get(absent.reason) ?? 0) + total - count);
      if (absent.preemption) absentNotHelpful = total - count;
    }
    return { fitError: `0/${total} nodes are available: ${histogram(reasons)}.`, diagnosis: { nodes, absentNotHelpful } };
  }

  /**
   * FailedScheduling's message: the filters' verdict, then what preemption found (from 1.24,
   * kubernetes#107775); nothing more when it nominated a node, since it succeeded.
   */
  private failureMessage(fitError: string, result: PostFilterResult): string {
    if (this.ctx.timing.version.minor < 24 || 'nominated' in result) return fitError;
    if ('notEligible' in result) return `${fitError} preemption: ${result.notEligible}`;
    return `${fitError} preemption: 0/${this.cache.order.length} nodes are available: ${histogram(result.verdicts)}.`;
  }

  /** PreemptionHost: a dry run takes a pod off its node in the cache, and puts it back. */
  setHidden(pod: SimPod, hidden: boolean): void {
    const node = pod.cachedOn;
    if (!node || this.hidden.has(pod) === hidden) return;
    const delta = hidden ? -1 : 1;
    this.cache.account(pod, node, delta);
    if (pod.spreadCounted) this.cache.accountSpread(pod, node, delta);
    if (hidden) this.hidden.add(pod);
    else this.hidden.delete(pod);
  }

  /** PreemptionHost: bound pods and assumed ones (a victim may be either: the cache counts both). */
  podsOn(node: SimNode): SimPod[] {
    const pods = node.pods.filter((p) => !p.removed);
    for (const p of this.assumed.get(node) ?? NO_PODS) pods.push(p);
    return pods;
  }

  /** The pods that hold room on the node for this pod: bound and assumed ones (not hidden by a dry run), and those nominated there of no lower priority. */
  private occupants(pod: SimPod, node: SimNode): SimPod[] {
    const pods = this.podsOn(node).filter((p) => p !== pod && !this.hidden.has(p));
    for (const p of this.ctx.store.nominatedTo(node)) if (p !== pod && (p.template.priority ?? 0) >= (pod.template.priority ?? 0)) pods.push(p);
    return pods;
  }


  /** The first node from the rotating start that passes the filters (no scoring). */
  private firstFeasible(pod: SimPod): Placement {
    const { order, nodes } = this.cache;
    const narrowed = this.preFilter(pod);
    if (narrowed) return this.findNode(pod, 1, narrowed);
    for (let k = 0; k < order.length; k++) {
      const i = order[(this.nextStartNodeIndex + k) % order.length];
      if (this.filter(pod, nodes[i], false).length > 0) continue;
      this.nextStartNodeIndex = (this.nextStartNodeIndex + k + 1) % order.length;
      return { node: nodes[i] };
    }
    return this.findNode(pod);
  }

  /**
   * The nodes PreFilter leaves (its PreFilterResult) and the plugins that narrowed them, in name
   * order: NodeAffinity (matchFields metadata.name, as DaemonSet pods use) and VolumeBinding
   * (bound local volumes). Undefined: every node.
   */
  private preFilter(pod: SimPod): { names: Set<string>; plugins: string[] } | undefined {
    const terms = pod.template.nodeRequired;
    let names: Set<string> | undefined;
    const plugins: string[] = [];
    if (terms.length > 0 && terms.every((t) => t.matchFields.some((f) => f.key === 'metadata.name' && f.operator === 'In'))) {
      names = new Set(terms.flatMap((t) => t.matchFields.filter((f) => f.key === 'metadata.name').flatMap((f) => f.values)));
      plugins.push('NodeAffinity');
    }
    const volumeNodes = this.volumes.pinnedNodes(pod.claims);
    if (volumeNodes) {
      names = names ? new Set([...names].filter((n) => volumeNodes.has(n))) : volumeNodes;
      plugins.push('VolumeBinding');
    }
    return names && { names, plugins };
  }

  /**
   * How FailedScheduling counts the nodes PreFilter left out: 1.30 records each as rejected
   * ("node is filtered out by the prefilter result", kubernetes#119779), 1.31 leaves them out of
   * the map (kubernetes#125197) and 1.32 on gives them one status naming the plugins
   * (kubernetes#126022, SetAbsentNodesStatus). From 1.30 preemption counts them as not helpful.
   * Before 1.30 they are not counted (the cherry-picks of #119779 to 1.27-1.29 patches are not modelled).
   */
  private absentNodes(plugins: readonly string[]): { reason: string | null; preemption: boolean } {
    const minor = this.ctx.timing.version.minor;
    if (minor >= 32) return { reason: `node(s) didn't satisfy plugin(s) [${plugins.join(' ')}]`, preemption: true };
    if (minor === 31) return { reason: null, preemption: true };
    if (minor === 30) return { reason: 'node is filtered out by the prefilter result', preemption: true };
    return { reason: null, preemption: false };
  }

  /**
   * The reasons the first failing filter gives, in the default plugin order; empty when the node
   * fits. Without `explain`, a failure gives a placeholder instead of the message.
   */
  filter(pod: SimPod, node: SimNode, explain: boolean): readonly string[] {
    const t = pod.template;
    const cache = this.cache;
    const i = node.index;
    if (cache.restricted[i] === 1) {
      if (node.unschedulable && !t.tolerations.some((tol) => toleratesTaint(tol, { key: UNSCHEDULABLE, value: '', effect: 'NoSchedule' }))) {
        return ['node(s) were unschedulable'];
      }
      if (!explain && cache.untoleratedBy(i, t.tolerations)) return DOES_NOT_FIT;
      const taint = untoleratedTaint(node.taints, t.tolerations, SCHEDULING_EFFECTS);
      if (taint) return explain ? [this.taintReason(taint.key, taint.value)] : DOES_NOT_FIT;
    }
    if (t.placementConstraints && (!matchesMap(t.nodeSelector, node.labels) || !matchesNodeSelectorTerms(t.nodeRequired, node.name, node.labels))) {
      return ["node(s) didn't match Pod's node affinity/selector"];
    }
    if (t.hostPorts.length > 0 && this.occupants(pod, node).some((p) => p.template.hostPorts.some((port) => t.hostPorts.includes(port)))) {
      return [NO_FREE_PORTS];
    }
    let cpuFree = cache.cpuFree[i];
    let memoryFree = cache.memoryFree[i];
    let podsFree = cache.podsFree[i];
    // Pods nominated to the node hold their room against pods of no higher priority (addNominatedPods).
    const nominatedHere = this.ctx.store.nominatedTo(node);
    const nominated = nominatedHere.length === 0 ? NO_PODS : nominatedHere.filter((p) => p !== pod && (p.template.priority ?? 0) >= (t.priority ?? 0));
    for (const other of nominated) {
      cpuFree -= other.template.cpuMillis;
      memoryFree -= other.template.memoryBytes;
      podsFree--;
    }
    const cpuShort = t.cpuMillis > 0 && t.cpuMillis > cpuFree;
    const memoryShort = t.memoryBytes > 0 && t.memoryBytes > memoryFree;
    const podsFull = podsFree < 1;
    // NodeResourcesFit: an extended resource the node has too little of, or none (a GPU pod on a node without GPUs).
    const extendedFree = (name: string) => (cache.extendedFree[i]?.get(name) ?? 0) - nominated.reduce((sum, p) => sum + (p.template.extended?.[name] ?? 0), 0);
    const extendedShort = t.extended ? Object.entries(t.extended).filter(([name, amount]) => amount > extendedFree(name)).map(([name]) => `Insufficient ${name}`) : [];
    if (cpuShort || memoryShort || podsFull || extendedShort.length > 0) {
      return [cpuShort && 'Insufficient cpu', memoryShort && 'Insufficient memory', ...extendedShort, podsFull && 'Too many pods'].filter((r): r is string => !!r);
    }
    if (pod.claims.length > 0) {
      const volume = this.volumes.conflict(pod.claims, node);
      if (volume) return [volume];
    }
    if (!t.placementConstraints) return FITS;
    const spread = t.topologySpread.length > 0 ? this.topologySpreadReason(pod, node) : undefined;
    if (spread) return [spread];
    const affinity = this.interPodAffinityReason(pod, node);
    return affinity ? [affinity] : FITS;
  }

  private taintReason(key: string, value: string): string {
    const minor = this.ctx.timing.version.minor;
    if (minor >= 35) return 'node(s) had untolerated taint(s)';
    if (minor >= 25) return `node(s) had untolerated taint {${key}: ${value}}`;
    return `node(s) had taint {${key}: ${value}}, that the pod didn't tolerate`;
  }

  /**
   * Pods matching a selector in the pod's namespace (in an affinity `term`'s namespaces) on nodes
   * where `inDomain` holds. Terminating pods count for inter-pod affinity, not for topology
   * spreading (`withoutTerminating`): PodTopologySpread's countPodsMatchSelector skips them (kubernetes#87621).
   */
  countMatching(pod: SimPod, selector: LabelSelector | undefined, inDomain: (n: SimNode) => boolean, withoutTerminating = false, term?: PodAffinityTerm): number {
    if (!selector) return 0;
    let count = 0;
    const inNamespace = term ? termNamespaces(term, pod.namespace, this.namespaceSelectors, this.namespaces) : (namespace: string) => namespace === pod.namespace;
    const counts = (other: SimPod) => other !== pod && !(withoutTerminating && other.deletionTimestamp !== undefined) && inNamespace(other.namespace)
      && matchesLabelSelector(selector, other.template.labels) && !this.hidden.has(other);
    for (const node of this.ctx.store.nodes) {
      if (node.deleted || !inDomain(node)) continue;
      for (const other of node.pods) if (counts(other)) count++;
      for (const other of this.assumed.get(node) ?? NO_PODS) if (counts(other)) count++;
    }
    return count;
  }

  /**
   * PodTopologySpread's Filter: a node without the key (unresolvable), or one whose domain would
   * exceed maxSkew. A dead node's domain still counts (nodeTaintsPolicy Ignore, the default) and
   * its Terminating pod does not, so the domain's count drops and a DoNotSchedule replacement may
   * fit nowhere else until the node is back.
   */
  private topologySpreadReason(pod: SimPod, node: SimNode): string | undefined {
    const { minor } = this.ctx.timing.version;
    for (const c of pod.template.topologySpread) {
      if (c.whenUnsatisfiable !== 'DoNotSchedule') continue;
      const nodeTaintsPolicy = features.nodeInclusionPolicy(minor) ? c.nodeTaintsPolicy : 'Ignore';
      const minDomains = features.minDomains(minor) ? c.minDomains : undefined;
      const value = node.labels[c.topologyKey];
      if (value === undefined) return "node(s) didn't match pod topology spread constraints (missing required label)";
      const eligible = this.ctx.store.nodes.filter((n) => !n.deleted && n.labels[c.topologyKey] !== undefined
        && matchesMap(pod.template.nodeSelector, n.labels) && matchesNodeSelectorTerms(pod.template.nodeRequired, n.name, n.labels)
        && (nodeTaintsPolicy === 'Ignore' || !untoleratedTaint(n.taints, pod.template.tolerations, SCHEDULING_EFFECTS)));
      const domains = new Set(eligible.map((n) => n.labels[c.topologyKey]));
      let min = Infinity;
      for (const domain of domains) min = Math.min(min, this.countMatching(pod, c.labelSelector, (n) => n.labels[c.topologyKey] === domain, true));
      if (minDomains !== undefined && domains.size < minDomains) min = 0;
      const own = this.countMatching(pod, c.labelSelector, (n) => n.labels[c.topologyKey] === value, true);
      // selfMatchNum: the pod counts in its own domain only when the constraint's selector matches it.
      const self = c.labelSelector && matchesLabelSelector(c.labelSelector, pod.template.labels) ? 1 : 0;
      if (own + self - (min === Infinity ? 0 : min) > c.maxSkew) return "node(s) didn't match pod topology spread constraints";
    }
    return undefined;
  }

  private interPodAffinityReason(pod: SimPod, node: SimNode): string | undefined {
    const { affinity } = pod.template;
    if (affinity.podAntiAffinityRequired.length === 0 && affinity.podAffinityRequired.length === 0) return undefined;
    const sameDomain = (term: PodAffinityTerm) => (n: SimNode) => node.labels[term.topologyKey] !== undefined && n.labels[term.topologyKey] === node.labels[term.topologyKey];
    for (const term of affinity.podAntiAffinityRequired) {
      if (this.countMatching(pod, term.labelSelector, sameDomain(term), false, term) > 0) return "node(s) didn't match pod anti-affinity rules";
    }
    // satisfyPodAffinity: the node has every term's topology label, and pods matching each term in its domain.
    const required = affinity.podAffinityRequired;
    if (required.some((term) => node.labels[term.topologyKey] === undefined)) return AFFINITY_NOT_MATCHED;
    if (required.every((term) => this.countMatching(pod, term.labelSelector, sameDomain(term), false, term) > 0)) return undefined;
    // The first of a group with affinity to itself: no pod anywhere matches any term, and the pod matches them all, its namespace included.
    const first = required.every((term) => term.labelSelector && matchesLabelSelector(term.labelSelector, pod.template.labels) && termNamespaces(term, pod.namespace, this.namespaceSelectors, this.namespaces)(pod.namespace))
      && required.every((term) => this.countMatching(pod, term.labelSelector, (n) => n.labels[term.topologyKey] !== undefined, false, term) === 0);
    return first ? undefined : AFFINITY_NOT_MATCHED;
  }
}

/** Some node failed only filters that preemption could satisfy. */
function mightHelp(diagnosis: FilterDiagnosis): boolean {
  return diagnosis.nodes.some(({ failures }) => failures.length > 0 && failures.every(isResolvable));
}

/** Reasons with their node counts, as FailedScheduling lists them. */
function histogram(counts: Map<string, number>): string {
  return [...counts].map(([reason, n]) => `${n} ${reason}`).sort().join(', ');
}

/** numFeasibleNodesToFind with the default percentageOfNodesToScore (adaptive: 50% - nodes/125, at least 5%, 100 nodes). */
export function numFeasibleNodesToFind(nodes: number): number {
  if (nodes < 100) return nodes;
  const percentage = Math.max(5, 50 - Math.floor(nodes / 125));
  return Math.max(100, Math.floor((nodes * percentage) / 100));
}
