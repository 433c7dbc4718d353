/**
 * The nodes a scenario runs on: the user's (Node objects, e.g. `kubectl get nodes -o yaml`)
 * or a small realistic default, 3 zones x 2 workers.
 */
import type { Node, Taint } from '../manifest/model/types';

export interface ClusterNode {
  name: string;
  zone: string;
  labels: Record<string, string>;
  taints: Taint[];
  allocatable: { cpuMillis: number; memoryBytes: number; pods: number; extended?: Readonly<Record<string, number>> };
  unschedulable: boolean;
  /** Its Ready condition where the Node object said other than True: the simulation starts it Ready all the same. */
  notReadyInFile?: string;
}

export interface ClusterSpec {
  nodes: ClusterNode[];
  /** "default" or where the nodes came from. */
  source: string;
}

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const REGION_LABEL = 'topology.kubernetes.io/region';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

const GiB = 1024 ** 3;

/** A 4-vCPU, 16 GiB worker as a cloud provider reports it (allocatable after system reservations). */
const DEFAULT_ALLOCATABLE = { cpuMillis: 3920, memoryBytes: Math.round(14.6 * GiB), pods: 110 };

export function defaultCluster(): ClusterSpec {
  const nodes: ClusterNode[] = [];
  for (const zone of ['a', 'b', 'c']) {
    for (const index of [1, 2]) {
      const name = `worker-${zone}${index}`;
      const labels = {
        [HOSTNAME_LABEL]: name,
        [ZONE_LABEL]: `zone-${zone}`,
        [REGION_LABEL]: 'region-1',
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'standard-4',
      };
      nodes.push({
        name,
        zone: zoneKey(labels),
        labels,
        taints: [],
        allocatable: { ...DEFAULT_ALLOCATABLE },
        unschedulable: false,
      });
    }
  }
  return { nodes, source: 'the default 3 zones x 2 workers, 4 CPU / 14.6 GiB allocatable each' };
}

/** What a pod asks of a node: labels (nodeSelector, required node affinity) and room. */
export interface NodeNeeds {
  labels: Record<string, string>;
  /** Every hostname a required `In` allows, when it allows several: each becomes a node of its own. */
  hostnames?: string[];
  /** The labels each further term of the required node affinity asks (the terms are ORed): each gets a node of its own. */
  otherTerms?: Record<string, string>[];
  cpuMillis: number;
  memoryBytes: number;
  /** Extended resources (nvidia.com/gpu): every fitted node gets what one pod asks. */
  extended?: Readonly<Record<string, number>>;
}

/** The largest machines sold (896 vCPUs, 32 TiB), rounded up: a request beyond them fits no node anywhere. */
const LARGEST_MACHINE = { cpuMillis: 1024 * 1000, memoryBytes: 32 * 2 ** 40 };

/**
 * The default cluster given the labels and room a workload's pods ask for: the default is
 * invented, and the user's nodes surely have what their manifests select (a node pool, an
 * architecture, bigger machines). A zone or region asked for becomes that of every node; a
 * hostname asked for becomes the first node's name (a pod pinned to one machine stays pinned), and
 * several allowed hostnames the first nodes' names; each further ORed term of the node affinity the
 * next node, with that term's labels and name. With `copies`, each node has room for that many
 * pods (all the replicas a worst placement packs on one node), where a machine can.
 */
export function defaultClusterFitting(needs: NodeNeeds, asker?: string, copies = 1): ClusterSpec {
  // Room for `copies` pods on each node where a machine has it; else for one.
  const all = { ...needs, cpuMillis: needs.cpuMillis * copies, memoryBytes: needs.memoryBytes * copies, ...(needs.extended ? { extended: Object.fromEntries(Object.entries(needs.extended).map(([name, amount]) => [name, amount * copies])) } : {}) };
  const packed = copies > 1 && all.cpuMillis <= LARGEST_MACHINE.cpuMillis && all.memoryBytes <= LARGEST_MACHINE.memoryBytes;
  if (packed) needs = all;
  // Room no machine has (cpu: 1e308) is not invented: the pod stays Pending, Insufficient cpu.
  if (needs.cpuMillis > LARGEST_MACHINE.cpuMillis || needs.memoryBytes > LARGEST_MACHINE.memoryBytes) needs = { ...needs, cpuMillis: 0, memoryBytes: 0 };
  const cluster = defaultCluster();
  const extended = Object.entries(needs.extended ?? {});
  const fits = (node: ClusterNode) => Object.entries(needs.labels).every(([key, value]) => node.labels[key] === value)
    && needs.cpuMillis <= node.allocatable.cpuMillis && needs.memoryBytes <= node.allocatable.memoryBytes && extended.length === 0;
  if (cluster.nodes.some(fits)) return cluster;
  const hostname = needs.labels[HOSTNAME_LABEL];
  const hostnames = needs.hostnames ?? (hostname !== undefined ? [hostname] : []);
  const renamed = hostnames.filter((name) => !cluster.nodes.some((n) => n.name === name)).slice(0, cluster.nodes.length);
  renamed.forEach((name, i) => {
    cluster.nodes[i].name = name;
    cluster.nodes[i].labels[HOSTNAME_LABEL] = name;
  });
  // A label some default node already has (its zone) is left alone: the workload fits there.
  const labels = Object.entries(needs.labels).filter(([key, value]) => key !== HOSTNAME_LABEL && !cluster.nodes.some((n) => n.labels[key] === value));
  for (const node of cluster.nodes) {
    for (const [key, value] of labels) node.labels[key] = value;
    node.zone = zoneKey(node.labels);
    node.allocatable.cpuMillis = Math.max(node.allocatable.cpuMillis, needs.cpuMillis);
    node.allocatable.memoryBytes = Math.max(node.allocatable.memoryBytes, needs.memoryBytes);
    if (extended.length > 0) node.allocatable.extended = Object.fromEntries(extended);
  }
  // Each further ORed term gets a node labelled as it asks: the node of the host it names, or the next one (renamed so).
  let next = renamed.length;
  for (const { [HOSTNAME_LABEL]: host, ...termLabels } of needs.otherTerms ?? []) {
    let node = host === undefined ? undefined : cluster.nodes.find((n) => n.name === host);
    if (!node) {
      node = cluster.nodes[next++];
      if (!node) break;
      if (host !== undefined) renamed.push((node.name = node.labels[HOSTNAME_LABEL] = host));
    }
    Object.assign(node.labels, termLabels);
    node.zone = zoneKey(node.labels);
  }
  const { cpuMillis, memoryBytes } = cluster.nodes[0].allocatable;
  const labelled = labels.map(([key, value]) => `${key}=${value}`).join(', ');
  const gib = Math.round((memoryBytes / GiB) * 10) / 10;
  return {
    nodes: cluster.nodes,
    // A zone asked for is every node's: no longer 3 zones.
    source: `the default ${labels.some(([key]) => key === ZONE_LABEL) ? '6 workers' : '3 zones x 2 workers'} ${packed ? `fitted to hold ${copies} pods of ${asker ?? 'the workload'} on one node` : `fitted to what ${asker ? `${asker} asks` : 'its pods ask'} for`}: ${Math.ceil(cpuMillis / 1000)} CPU / ${gib} GiB allocatable each${extended.map(([name, amount]) => ` and ${amount} ${name}`).join('')}${labelled ? `, labelled ${labelled}` : ''}${renamed.length === 1 ? `, one named ${renamed[0]}` : renamed.length > 1 ? `, named ${renamed.join(', ')}` : ''}`,
  };
}

/**
 * Nodes read from Node objects; missing allocatable gets the default worker's. Two objects of one
 * name are one Node, as kubectl apply makes them: the later one's fields.
 */
export function clusterFromNodes(nodes: readonly Node[], source: string): ClusterSpec {
  const byName = new Map<string, Node>();
  for (const node of nodes) byName.set(node.name, node);
  return {
    source,
    nodes: [...byName.values()].map((node) => {
      const labels = { [HOSTNAME_LABEL]: node.name, ...node.labels };
      return {
        name: node.name,
        zone: zoneKey(labels),
        labels,
        taints: node.taints,
        allocatable: {
          cpuMillis: node.allocatable.cpuMillis ?? DEFAULT_ALLOCATABLE.cpuMillis,
          memoryBytes: node.allocatable.memoryBytes ?? DEFAULT_ALLOCATABLE.memoryBytes,
          pods: node.allocatable.pods ?? DEFAULT_ALLOCATABLE.pods,
          ...(node.allocatable.extended ? { extended: node.allocatable.extended } : {}),
        },
        unschedulable: node.unschedulable,
        ...(node.ready !== undefined && node.ready !== 'True' ? { notReadyInFile: node.ready } : {}),
      };
    }),
  };
}

/** Nodes the cluster file shows not Ready: a node down before the run is not modelled, and the header says so. */
export function notReadyNote(cluster: ClusterSpec): string | undefined {
  const down = cluster.nodes.filter((n) => n.notReadyInFile !== undefined);
  if (down.length === 0) return undefined;
  const named = down.slice(0, 3).map((n) => `${n.name} (Ready=${n.notReadyInFile})`).join(', ');
  return `${down.length === 1 ? 'Node' : `${down.length} nodes, such as`} ${named} ${down.length === 1 ? 'is' : 'are'} not Ready in ${cluster.source}; the simulation starts every node Ready and healthy, so only the failure it injects is simulated.`;
}

/** The node lifecycle controller's zone key (nodetopology.GetZoneKey): region and zone; "" without labels. */
export function zoneKey(labels: Record<string, string>): string {
  const zone = labels[ZONE_LABEL] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region = labels[REGION_LABEL] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  return region || zone ? `${region}:\u0000:${zone}` : '';
}

export function zoneName(key: string): string {
  return key === '' ? '(no zone)' : key.split(':\u0000:')[1] || key;
}

/** The cluster the manifests describe with Node objects, else the default one. */
export function clusterOf(nodes: readonly Node[]): ClusterSpec {
  return nodes.length > 0 ? clusterFromNodes(nodes, 'Node objects in the input') : defaultCluster();
}
