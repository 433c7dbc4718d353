/** Helpers for simulator tests: scenarios from YAML text, and key times read from a trace. */
import { readManifestText } from '../../src/analysis/analyseText';
import { buildScenario, defaultSimulationOptions, mergeModels, type SimulationOptions } from '../../src/analysis/buildScenario';
import { clusterFromNodes, type ClusterSpec } from '../../src/cluster/clusterSpec';
import type { TimingSetting } from '../../src/cluster/timing';
import type { Scenario } from '../../src/sim/scenario';
import { simulate, type SimulationResult } from '../../src/sim/simulate';
import type { TraceEvent } from '../../src/sim/trace';

export function modelOf(...yaml: string[]) {
  return mergeModels(yaml.map((text) => readManifestText(text).model));
}

/** Nodes without zone labels (one zone), named as given, 4 CPU / 16 GiB each. */
export function flatCluster(names: string[], labels: Record<string, Record<string, string>> = {}): ClusterSpec {
  return clusterFromNodes(names.map((name) => ({
    name, labels: labels[name] ?? {}, taints: [], unschedulable: false,
    allocatable: { cpuMillis: 4000, memoryBytes: 16 * 2 ** 30, pods: 110 },
  })), 'test');
}

export function zonedCluster(zones: Record<string, string[]>): ClusterSpec {
  const names = Object.values(zones).flat();
  const labels: Record<string, Record<string, string>> = {};
  for (const [zone, nodes] of Object.entries(zones)) for (const n of nodes) labels[n] = { 'topology.kubernetes.io/zone': zone, 'topology.kubernetes.io/region': 'r' };
  return flatCluster(names, labels);
}

export function settings(values: Record<string, string | number>): TimingSetting[] {
  return Object.entries(values).map(([name, value]) => ({ name, value, source: '--set' }));
}

export function scenarioOf(yaml: string[], options: Partial<SimulationOptions> & { cluster?: ClusterSpec; set?: Record<string, string | number> }): Scenario {
  return buildScenario(modelOf(...yaml), {
    ...defaultSimulationOptions(),
    durationMs: 15 * 60_000,
    overrides: settings(options.set ?? {}),
    version: '1.29',
    clusterSource: options.cluster,
    ...options,
  });
}

export function run(yaml: string[], options: Parameters<typeof scenarioOf>[1]): SimulationResult {
  return simulate(scenarioOf(yaml, options));
}

/** Time of the first event matching, or null. */
export function firstTime(result: SimulationResult, match: (e: TraceEvent) => boolean): number | null {
  return result.events.find(match)?.t ?? null;
}

export const is = {
  nodeUnknown: (node: string) => (e: TraceEvent) => e.type === 'NodeCondition' && e.object.name === node && e.detail?.status === 'Unknown',
  taint: (node: string, key: string, effect: string) => (e: TraceEvent) => e.type === 'TaintAdded' && e.object.name === node && e.detail?.key === key && e.detail?.effect === effect,
  podNotReady: (pod: string) => (e: TraceEvent) => e.type === 'PodCondition' && e.object.name === pod && e.detail?.type === 'Ready' && e.detail?.status === 'False',
  podDeleting: (pod: string) => (e: TraceEvent) => e.type === 'PodDeletionStarted' && e.object.name === pod,
  podRemoved: (pod: string) => (e: TraceEvent) => e.type === 'PodRemoved' && e.object.name === pod,
  type: (type: TraceEvent['type'], name?: string) => (e: TraceEvent) => e.type === type && (name === undefined || e.object.name === name),
};

export const deployment = (name: string, replicas: number, extraPodSpec = '') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: truth}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${extraPodSpec}      containers: [{name: c, image: registry.k8s.io/pause:3.9}]
`;

export const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: truth}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec:
      containers: [{name: c, image: registry.k8s.io/pause:3.9}]
`;
