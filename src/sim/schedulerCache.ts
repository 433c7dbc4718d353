/**
 * The scheduler's cache (pkg/scheduler/internal/cache): per node, what the bound pods leave free
 * and whether it carries taints, kept in flat arrays indexed by node so that a scheduling cycle
 * over hundreds of nodes reads a few numbers per node; and each workload's pods per node and
 * zone, for spreading.
 */
import type { SimNode, SimPod, SimWorkload } from './objects';
import type { Toleration } from '../manifest/model/types';
import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST } from './schedulerScore';
import { SCHEDULING_EFFECTS, untoleratedTaint } from './tolerations';

export class SchedulerCache {
  /** Nodes by index (the store's order); `order` lists the indices of those that exist. */
  readonly nodes: readonly SimNode[];
  order: Int32Array;
  readonly cpuFree: Float64Array;
  readonly memoryFree: Float64Array;
  readonly cpuAllocatable: Float64Array;
  readonly memoryAllocatable: Float64Array;
  readonly podsFree: Int32Array;
  /** Extended resources left per node (nvidia.com/gpu), where a node has or a pod asks for any. */
  readonly extendedFree: (Map<string, number> | undefined)[] = [];
  /** Requests of the bound pods with the scheduler's non-zero defaults for containers without any (scoring only). */
  readonly cpuNonZeroUsed: Float64Array;
  readonly memoryNonZeroUsed: Float64Array;
  readonly zone: Int32Array;
  readonly zoneCount: number;
  /** The node has a NoSchedule or NoExecute taint, or is cordoned: filters must look closer. */
  readonly restricted: Uint8Array;
  /** Per node: the last tolerations checked against its taints, and whether some taint was untolerated. */
  private readonly checkedTolerations: (readonly Toleration[] | undefined)[];
  private readonly untolerated: Uint8Array;
  /** Each workload's bound pods per node index and per zone index. */
  readonly onNode = new Map<SimWorkload, Map<number, number>>();
  readonly inZone = new Map<SimWorkload, Int32Array>();
  /** The same without terminating pods: what PodTopologySpread's score counts (kubernetes#87621). */
  readonly spreadOnNode = new Map<SimWorkload, Map<number, number>>();
  readonly spreadInZone = new Map<SimWorkload, Int32Array>();

  constructor(nodes: readonly SimNode[]) {
    this.nodes = nodes;
    const size = nodes.length;
    this.order = existing(nodes);
    this.cpuFree = new Float64Array(size);
    this.memoryFree = new Float64Array(size);
    this.cpuAllocatable = new Float64Array(size);
    this.memoryAllocatable = new Float64Array(size);
    this.podsFree = new Int32Array(size);
    this.cpuNonZeroUsed = new Float64Array(size);
    this.memoryNonZeroUsed = new Float64Array(size);
    this.zone = new Int32Array(size);
    this.restricted = new Uint8Array(size);
    this.checkedTolerations = new Array(size).fill(undefined);
    this.untolerated = new Uint8Array(size);
    const zones = new Map<string, number>();
    for (const node of nodes) {
      const i = node.index;
      this.cpuFree[i] = this.cpuAllocatable[i] = node.allocatable.cpuMillis;
      this.memoryFree[i] = this.memoryAllocatable[i] = node.allocatable.memoryBytes;
      this.podsFree[i] = node.allocatable.pods;
      if (node.allocatable.extended) this.extendedFree[i] = new Map(Object.entries(node.allocatable.extended));
      if (!zones.has(node.zone)) zones.set(node.zone, zones.size);
      this.zone[i] = zones.get(node.zone)!;
      this.taintsChanged(node);
    }
    this.zoneCount = zones.size;
  }

  /** A pod bound to (+1) or gone from (-1) a node. */
  account(pod: SimPod, node: SimNode, delta: number): void {
    const i = node.index;
    this.cpuFree[i] -= delta * pod.template.cpuMillis;
    this.memoryFree[i] -= delta * pod.template.memoryBytes;
    this.podsFree[i] -= delta;
    const t = pod.template;
    if (t.extended) {
      const free = (this.extendedFree[i] ??= new Map());
      for (const [name, amount] of Object.entries(t.extended)) free.set(name, (free.get(name) ?? 0) - delta * amount);
    }
    this.cpuNonZeroUsed[i] += delta * (t.cpuMillis > 0 ? t.cpuMillis : DEFAULT_MILLI_CPU_REQUEST * t.containerCount);
    this.memoryNonZeroUsed[i] += delta * (t.memoryBytes > 0 ? t.memoryBytes : DEFAULT_MEMORY_REQUEST * t.containerCount);
    const owner = pod.owner;
    if (!owner) return;
    this.count(this.onNode, this.inZone, owner, i, delta);
  }

  /** A pod bound to (+1) the node, or terminating or gone from it (-1), as topology spreading counts it. */
  accountSpread(pod: SimPod, node: SimNode, delta: number): void {
    if (pod.owner) this.count(this.spreadOnNode, this.spreadInZone, pod.owner, node.index, delta);
  }

  private count(byNode: Map<SimWorkload, Map<number, number>>, byZone: Map<SimWorkload, Int32Array>, owner: SimWorkload, i: number, delta: number): void {
    let onNode = byNode.get(owner);
    if (!onNode) byNode.set(owner, (onNode = new Map()));
    onNode.set(i, (onNode.get(i) ?? 0) + delta);
    let inZone = byZone.get(owner);
    if (!inZone) byZone.set(owner, (inZone = new Int32Array(this.zoneCount)));
    inZone[this.zone[i]] += delta;
  }

  taintsChanged(node: SimNode): void {
    this.restricted[node.index] = node.unschedulable || node.taints.some((t) => SCHEDULING_EFFECTS.includes(t.effect)) ? 1 : 0;
    this.checkedTolerations[node.index] = undefined;
  }

  /**
   * Whether a NoSchedule or NoExecute taint of the node is not tolerated, remembered for the
   * last toleration list asked about (pods of one workload, and most pods, share one list).
   */
  untoleratedBy(i: number, tolerations: readonly Toleration[]): boolean {
    if (this.checkedTolerations[i] !== tolerations) {
      this.checkedTolerations[i] = tolerations;
      this.untolerated[i] = untoleratedTaint(this.nodes[i].taints, tolerations, SCHEDULING_EFFECTS) ? 1 : 0;
    }
    return this.untolerated[i] === 1;
  }

  /** A node deleted, or registered again: `order` follows the nodes that exist. */
  nodesChanged(): void {
    this.order = existing(this.nodes);
  }
}

/** The indices of the nodes that exist, in node order. */
function existing(nodes: readonly SimNode[]): Int32Array {
  return Int32Array.from(nodes.filter((n) => !n.deleted).map((n) => n.index));
}
