/**
 * The large cluster of the simulator benchmark, as manifests a user would write: `nodes` Nodes in
 * three zones and 30 pods per node — a DaemonSet on every node, Deployments and StatefulSets of
 * 50 replicas, each behind a Service, the StatefulSets (20 % of the pods) with a
 * volumeClaimTemplate. At 5,000 nodes it is the largest cluster Kubernetes supports (150,000 pods).
 */
import { clusterFromNodes } from '../src/cluster/clusterSpec';
import { DEFAULT_VERSION, parseKubernetesVersion, type KubernetesVersion } from '../src/cluster/kubernetesVersion';
import { resolveTiming } from '../src/cluster/timing';
import { readManifestText } from '../src/manifest/readManifest';
import { supportingObjects, type Scenario } from '../src/sim/scenario';
import { mergeModels } from '../src/workspace/mergeModels';

export const PODS_PER_NODE = 30;
const REPLICAS = 50;
const ZONES = ['a', 'b', 'c'];

export interface LargeInput {
  nodes: number;
  pods: number;
  deployments: number;
  statefulSets: number;
  /** Pods with a PersistentVolumeClaim. */
  podsWithClaims: number;
  /** Node objects, as `kubectl get nodes -o yaml` lists them. */
  nodesYaml: string;
  /** The workloads and their Services, one document each, in files of at most 2,001 documents. */
  workloadFiles: string[];
}

export function largeInput(nodes: number): LargeInput {
  const pods = nodes * PODS_PER_NODE;
  const workloads = (pods - nodes) / REPLICAS;
  const statefulSets = Math.round((pods * 0.2) / REPLICAS);
  const deployments = workloads - statefulSets;
  if (!Number.isInteger(workloads) || deployments < 0) throw new Error(`no benchmark cluster of ${nodes} nodes`);
  const nodeDocs: string[] = [];
  for (let i = 0; i < nodes; i++) {
    const zone = ZONES[i % 3];
    const name = `node-${zone}-${String(i).padStart(5, '0')}`;
    nodeDocs.push(`- apiVersion: v1
  kind: Node
  metadata:
    name: ${name}
    labels:
      kubernetes.io/hostname: ${name}
      topology.kubernetes.io/region: r1
      topology.kubernetes.io/zone: zone-${zone}
  status:
    allocatable: {cpu: "32", memory: 128Gi, pods: "110"}
`);
  }
  const files: string[][] = [[DAEMON_SET]];
  const add = (...docs: string[]) => {
    if (files[files.length - 1].length >= 2000) files.push([]);
    files[files.length - 1].push(...docs);
  };
  for (let i = 0; i < deployments; i++) add(deployment(`web-${i}`), service(`web-${i}`, false));
  for (let i = 0; i < statefulSets; i++) add(statefulSet(`db-${i}`), service(`db-${i}`, true));
  return {
    nodes, pods, deployments, statefulSets, podsWithClaims: statefulSets * REPLICAS,
    nodesYaml: `apiVersion: v1\nkind: List\nitems:\n${nodeDocs.join('')}`,
    workloadFiles: files.map((docs) => docs.join('---\n')),
  };
}

/**
 * The scenario `simulate --failure zone-outage --target zone/zone-a --duration 1h --cluster NODES`
 * builds from the input, made here directly: past 5,000 nodes the front ends refuse the input
 * (limits.ts), and the growth series goes beyond.
 */
export function largeScenario(input: LargeInput): { scenario: Scenario; failedNodes: number } {
  const model = mergeModels([input.nodesYaml, ...input.workloadFiles].map((text) => readManifestText(text).model));
  const timing = resolveTiming({ version: parseKubernetesVersion(DEFAULT_VERSION) as KubernetesVersion, settings: [] });
  const scenario: Scenario = {
    workloads: model.workloads,
    ...supportingObjects(model),
    cluster: clusterFromNodes(model.nodes, 'nodes.yaml'),
    timing,
    faults: [{ kind: 'zone-outage', targets: ['zone/zone-a'], atMs: 0, recoverAfterMs: undefined }],
    interventions: [],
    placement: 'scheduler',
    durationMs: 3600_000,
    preFailureMs: 0,
    seed: 1,
  };
  return { scenario, failedNodes: model.nodes.filter((n) => n.labels['topology.kubernetes.io/zone'] === 'zone-a').length };
}

const CONTAINER = `      containers:
      - name: app
        image: registry.example/app:1
        resources: {requests: {cpu: 250m, memory: 128Mi}}
        readinessProbe: {httpGet: {path: /healthz, port: 8080}}
`;

const DAEMON_SET = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
${CONTAINER}`;

function deployment(name: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: ${REPLICAS}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${CONTAINER}`;
}

function statefulSet(name: string): string {
  return `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ${name}, namespace: shop}
spec:
  serviceName: ${name}
  replicas: ${REPLICAS}
  podManagementPolicy: Parallel
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${CONTAINER}  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`;
}

function service(name: string, headless: boolean): string {
  return `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: shop}
spec: {${headless ? 'clusterIP: None, ' : ''}selector: {app: ${name}}, ports: [{port: 80, targetPort: 8080}]}
`;
}
