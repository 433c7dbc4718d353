import { DEFAULT_VERSION, parseKubernetesVersion, type KubernetesVersion } from '../src/cluster/kubernetesVersion';
import { resolveTiming } from '../src/cluster/timing';
import { emptyModel } from '../src/manifest/model';
import type { Deployment, DaemonSet, Sourced, Workload } from '../src/manifest/model/types';
import { readManifestText } from '../src/manifest/readManifest';
import { buildScenario } from '../src/workspace/scenarioBuilder';
import { defaultChoices } from '../src/workspace/simulationChoices';
import { Workspace } from '../src/workspace/workspace';
import { simulate } from '../src/sim/simulate';
import { fmt, interleaved, median, timeMs } from './measure';

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: 250m, memory: 128Mi}}
        readinessProbe: {httpGet: {path: /, port: 80}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80}]}
`;


export function simBench(): void {
  console.log('\nSimulator');
  const workspace = new Workspace();
  workspace.setDocument('web.yaml', WEB);
  const scenario = workspace.scenario({ ...defaultChoices(), durationMs: 20 * 60_000 });
  const small = interleaved({ run: () => simulate(scenario) }, 301, 30).run;
  const result = simulate(scenario);
  console.log(`  one Deployment (3 replicas, Service) on the default 6-node cluster, power-off, 20 simulated minutes:`);
  console.log(`    median ${fmt(median(small))} per run (target <= 1 ms), ${result.executedTasks} tasks, ${result.events.length} events`);

  // Each run builds its own scenario objects; the figure is the simulation alone, over three runs.
  const runs: number[] = [];
  let tasks = 0;
  let events = 0;
  let large = largeScenario();
  for (let i = 0; i < 3; i++) {
    if (i > 0) large = largeScenario();
    runs.push(timeMs(() => {
      const r = simulate(large.scenario);
      tasks = r.executedTasks;
      events = r.events.length;
    }));
  }
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(`  ${large.nodes.toLocaleString('en-US')} nodes in 3 zones, ${large.pods.toLocaleString('en-US')} pods, zone a powered off (${large.failed.toLocaleString('en-US')} nodes), 1 simulated hour:`);
  console.log(`    median ${fmt(median(runs))}, min ${fmt(Math.min(...runs))} of 3 runs (target <= 1 s); ${tasks.toLocaleString('en-US')} tasks, ${events.toLocaleString('en-US')} events; peak RSS of the process ${(peakRss / 2 ** 20).toFixed(0)} MiB (target <= 1 GiB)`);
}

/** 5,000 nodes, 150,000 pods: a DaemonSet on every node and 2,900 Deployments of 50 replicas. */
export function largeScenario() {
  const zones = ['a', 'b', 'c'];
  const nodeCount = 5000;
  const nodes = Array.from({ length: nodeCount }, (_, i) => {
    const zone = zones[i % 3];
    return {
      name: `node-${zone}-${String(i).padStart(4, '0')}`,
      labels: { 'topology.kubernetes.io/zone': `zone-${zone}`, 'topology.kubernetes.io/region': 'r1' },
      taints: [], unschedulable: false,
      allocatable: { cpuMillis: 32_000, memoryBytes: 128 * 2 ** 30, pods: 110 },
    };
  });
  const template = readManifestText(WEB).model.workloads[0] as Sourced<Deployment>;
  const workloads: Sourced<Workload>[] = [];
  const daemon: Sourced<DaemonSet> = { ...template, kind: 'DaemonSet', name: 'agent', updateStrategy: 'RollingUpdate', minReadySeconds: 0 };
  workloads.push(daemon);
  for (let i = 0; i < 2900; i++) workloads.push({ ...template, name: `svc-${i}`, replicas: 50 });
  const model = { ...emptyModel(), workloads };
  const failed = nodes.filter((n) => n.name.startsWith('node-a-'));
  const timing = resolveTiming({ version: parseKubernetesVersion(DEFAULT_VERSION) as KubernetesVersion, settings: [] });
  const scenario = buildScenario({ workloads, objects: model, timing, locate: () => undefined }, {
    ...defaultChoices(),
    durationMs: 3600_000,
    targets: failed.map((n) => `node/${n.name}`),
    cluster: { nodes, source: 'benchmark' },
  });
  return { scenario, nodes: nodeCount, pods: 5000 + 2900 * 50, failed: failed.length };
}
