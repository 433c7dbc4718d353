/**
 * kube-scheduler's default score plugins (pkg/scheduler/framework/plugins), with the default
 * weights of the v1 KubeSchedulerConfiguration: NodeResourcesFit (LeastAllocated, cpu and memory,
 * with the non-zero requests of schedutil: 100m CPU and 200 MB for a container without requests)
 * 1, NodeResourcesBalancedAllocation 1, PodTopologySpread 2 (the pod's ScheduleAnyway constraints,
 * or the system defaults: hostname maxSkew 3, zone maxSkew 5, for pods of a ReplicaSet,
 * StatefulSet or Service), NodeAffinity (preferred terms) 2, InterPodAffinity (preferred terms) 2,
 * TaintToleration (PreferNoSchedule) 3. Each plugin's scores are normalised over the feasible
 * nodes to 0–100 as upstream does; ImageLocality is left out (no images are modelled).
 *
 * `--placement worst` and `spread` replace the score: pack a workload's pods onto as few nodes as
 * the filters allow, or spread them over as many nodes and zones as possible.
 */
import { HOSTNAME_LABEL, ZONE_LABEL } from '../cluster/clusterSpec';
import type { LabelSelector, PodAffinityTerm } from '../manifest/model/types';
import type { SimNode, SimPod } from './objects';
import type { Placement } from './scenario';
import type { SchedulerCache } from './schedulerCache';
import { matchesLabelSelector, matchesNodeSelectorTerms } from './selectors';
import { toleratesTaint } from './tolerations';

/** schedutil.DefaultMilliCPURequest and DefaultMemoryRequest: what a container without requests counts as when scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;
const MAX_NODE_SCORE = 100;

const WEIGHTS = { fit: 1, balanced: 1, topologySpread: 2, nodeAffinity: 2, interPodAffinity: 2, taintToleration: 3 };

/** The kinds whose selectors make the system-default topology spreading apply (DefaultSelector: Services, RCs, RSs, StatefulSets). */
const SPREAD_OWNERS = new Set(['Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet']);

/** Counts the plugins need that only the scheduler knows (pods matching a selector in a domain). */
export interface ScoreContext {
  countMatching(pod: SimPod, selector: LabelSelector | undefined, inDomain: (n: SimNode) => boolean, withoutTerminating?: boolean, term?: PodAffinityTerm): number;
}

export class SchedulerScore {
  private raw = { spread: new Float64Array(0), nodeAffinity: new Float64Array(0), interPod: new Float64Array(0), taint: new Float64Array(0), base: new Float64Array(0) };

  constructor(private readonly cache: SchedulerCache, private readonly placement: Placement, private readonly counts: ScoreContext) {}

  /** The best-scoring of `feasible` (node indices, `count` of them), all of them when tied, into `best`. */
  best(pod: SimPod, feasible: Int32Array, count: number, best: SimNode[]): void {
    best.length = 0;
    if (count === 0) return;
    const totals = this.placement === 'scheduler' ? this.schedulerScores(pod, feasible, count) : this.policyScores(pod, feasible, count);
    let top = -Infinity;
    for (let k = 0; k < count; k++) {
      const score = totals[k];
      if (score > top) {
        top = score;
        best.length = 0;
      }
      if (score === top) best.push(this.cache.nodes[feasible[k]]);
    }
  }

  private buffers(count: number) {
    if (this.raw.base.length < count) {
      const size = Math.max(count, 2 * this.raw.base.length);
      this.raw = { spread: new Float64Array(size), nodeAffinity: new Float64Array(size), interPod: new Float64Array(size), taint: new Float64Array(size), base: new Float64Array(size) };
    }
    return this.raw;
  }

  private schedulerScores(pod: SimPod, feasible: Int32Array, count: number): Float64Array {
    const { cache } = this;
    const t = pod.template;
    const raw = this.buffers(count);
    const podCpu = t.cpuMillis > 0 ? t.cpuMillis : DEFAULT_MILLI_CPU_REQUEST * t.containerCount;
    const podMemory = t.memoryBytes > 0 ? t.memoryBytes : DEFAULT_MEMORY_REQUEST * t.containerCount;
    const spread = this.spreadConstraints(pod, feasible, count);
    const preferred = t.affinity.nodePreferred;
    const podTerms = t.affinity.podAffinityPreferred.length + t.affinity.podAntiAffinityPreferred.length > 0;
    let spreadMax = 0;
    let spreadMin = Infinity;
    let affinityMax = 0;
    let interMax = -Infinity;
    let interMin = Infinity;
    let taintMax = 0;
    for (let k = 0; k < count; k++) {
      const i = feasible[k];
      const node = cache.nodes[i];
      // NodeResourcesFit (LeastAllocated) and BalancedAllocation on the non-zero requests.
      const cpu = Math.min(1, (cache.cpuNonZeroUsed[i] + podCpu) / Math.max(1, cache.cpuAllocatable[i]));
      const memory = Math.min(1, (cache.memoryNonZeroUsed[i] + podMemory) / Math.max(1, cache.memoryAllocatable[i]));
      const fit = Math.floor(((1 - cpu) * MAX_NODE_SCORE + (1 - memory) * MAX_NODE_SCORE) / 2);
      const balanced = Math.floor((1 - Math.abs(cpu - memory) / 2) * MAX_NODE_SCORE);
      raw.base[k] = WEIGHTS.fit * fit + WEIGHTS.balanced * balanced;
      let s = 0;
      for (const c of spread) s += c.score(i);
      raw.spread[k] = s;
      if (spread.length > 0) {
        spreadMax = Math.max(spreadMax, s);
        spreadMin = Math.min(spreadMin, s);
      }
      let a = 0;
      for (const term of preferred) if (matchesNodeSelectorTerms([term.preference], node.name, node.labels)) a += term.weight;
      raw.nodeAffinity[k] = a;
      affinityMax = Math.max(affinityMax, a);
      const p = podTerms ? this.interPodAffinity(pod, node) : 0;
      raw.interPod[k] = p;
      interMax = Math.max(interMax, p);
      interMin = Math.min(interMin, p);
      let untolerated = 0;
      if (node.taints.length > 0) {
        for (const taint of node.taints) if (taint.effect === 'PreferNoSchedule' && !t.tolerations.some((tol) => toleratesTaint(tol, taint))) untolerated++;
      }
      raw.taint[k] = untolerated;
      taintMax = Math.max(taintMax, untolerated);
    }
    // NormalizeScore of each plugin, then the weighted sum.
    const totals = raw.base;
    for (let k = 0; k < count; k++) {
      const spreadScore = spread.length === 0 ? 0 : spreadMax === 0 ? MAX_NODE_SCORE : Math.floor((MAX_NODE_SCORE * (spreadMax + spreadMin - raw.spread[k])) / spreadMax);
      const affinityScore = affinityMax === 0 ? 0 : Math.floor((raw.nodeAffinity[k] * MAX_NODE_SCORE) / affinityMax);
      const interScore = interMax > interMin ? Math.floor((MAX_NODE_SCORE * (raw.interPod[k] - interMin)) / (interMax - interMin)) : 0;
      const taintScore = taintMax === 0 ? MAX_NODE_SCORE : MAX_NODE_SCORE - Math.floor((raw.taint[k] * MAX_NODE_SCORE) / taintMax);
      totals[k] += WEIGHTS.topologySpread * spreadScore + WEIGHTS.nodeAffinity * affinityScore + WEIGHTS.interPodAffinity * interScore + WEIGHTS.taintToleration * taintScore;
    }
    return totals;
  }

  /**
   * PodTopologySpread's scoring constraints: the pod's own ScheduleAnyway ones, or the system
   * defaults. Pods of the same workload are counted (terminating ones are not, kubernetes#87621);
   * a constraint whose selector does not select the pod's own labels is left out.
   */
  private spreadConstraints(pod: SimPod, feasible: Int32Array, count: number): { score: (i: number) => number }[] {
    const owner = pod.owner;
    if (!owner) return [];
    const own = pod.template.topologySpread;
    const constraints = own.length > 0
      ? own.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway' && c.labelSelector && matchesLabelSelector(c.labelSelector, pod.template.labels))
      : SPREAD_OWNERS.has(owner.kind) || owner.services.length > 0
        ? [{ topologyKey: HOSTNAME_LABEL, maxSkew: 3 }, { topologyKey: ZONE_LABEL, maxSkew: 5 }]
        : [];
    const { cache } = this;
    const onNode = cache.spreadOnNode.get(owner);
    const inZone = cache.spreadInZone.get(owner);
    return constraints.map((c) => {
      const byHost = c.topologyKey === HOSTNAME_LABEL;
      // topologyNormalizingWeight: log(domains + 2), domains among the feasible nodes.
      let domains = count;
      if (!byHost) {
        const seen = new Set<string>();
        for (let k = 0; k < count; k++) {
          const value = cache.nodes[feasible[k]].labels[c.topologyKey];
          if (value !== undefined) seen.add(value);
        }
        domains = seen.size;
      }
      const weight = Math.log(domains + 2);
      const extra = c.maxSkew - 1;
      if (byHost) return { score: (i: number) => (onNode?.get(i) ?? 0) * weight + extra };
      if (c.topologyKey === ZONE_LABEL) return { score: (i: number) => (cache.nodes[i].labels[ZONE_LABEL] === undefined ? 0 : (inZone?.[cache.zone[i]] ?? 0) * weight + extra) };
      return { score: (i: number) => {
        const value = cache.nodes[i].labels[c.topologyKey];
        if (value === undefined) return 0;
        let n = 0;
        for (const [j, pods] of onNode ?? []) if (cache.nodes[j].labels[c.topologyKey] === value) n += pods;
        return n * weight + extra;
      } };
    });
  }

  /** InterPodAffinity's score for the incoming pod's preferred terms: + weight per matching pod in the domain, − for anti-affinity. */
  private interPodAffinity(pod: SimPod, node: SimNode): number {
    const sameDomain = (term: PodAffinityTerm) => (n: SimNode) => node.labels[term.topologyKey] !== undefined && n.labels[term.topologyKey] === node.labels[term.topologyKey];
    let score = 0;
    for (const { weight, term } of pod.template.affinity.podAffinityPreferred) score += weight * this.counts.countMatching(pod, term.labelSelector, sameDomain(term), false, term);
    for (const { weight, term } of pod.template.affinity.podAntiAffinityPreferred) score -= weight * this.counts.countMatching(pod, term.labelSelector, sameDomain(term), false, term);
    return score;
  }

  /** `worst`: the node with most of the workload's pods, then the fullest; `spread`: the fewest on the node and in its zone, then the emptiest. */
  private policyScores(pod: SimPod, feasible: Int32Array, count: number): Float64Array {
    const { cache } = this;
    const raw = this.buffers(count);
    const onNode = pod.owner ? cache.onNode.get(pod.owner) : undefined;
    const inZone = pod.owner ? cache.inZone.get(pod.owner) : undefined;
    for (let k = 0; k < count; k++) {
      const i = feasible[k];
      const used = (cache.cpuNonZeroUsed[i] / Math.max(1, cache.cpuAllocatable[i]) + cache.memoryNonZeroUsed[i] / Math.max(1, cache.memoryAllocatable[i])) / 2;
      const mine = onNode?.get(i) ?? 0;
      const zone = inZone?.[cache.zone[i]] ?? 0;
      raw.base[k] = this.placement === 'worst' ? mine * 1e6 + zone * 1e3 + used : -(mine * 1e6 + zone * 1e3 + used);
    }
    return raw.base;
  }
}
