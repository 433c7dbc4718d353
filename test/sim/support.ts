/** Helpers for simulator tests: scenarios from YAML text through a Workspace (as the front ends do), and key times read from a trace. */
import type { Node } from '../../src/manifest/model/types';
import type { TimingSetting } from '../../src/cluster/timing';
import type { Scenario } from '../../src/sim/scenario';
import { simulate, type SimulationResult } from '../../src/sim/simulate';
import type { TraceEvent } from '../../src/sim/trace';
import { eventMessage } from '../../src/report/eventMessages';
import { outcomeReason } from '../../src/report/summaryText';
import type { WorkloadSummary } from '../../src/sim/summary';
import { defaultChoices, type SimulationChoices } from '../../src/workspace/simulationChoices';
import { Workspace } from '../../src/workspace/workspace';

/** Node objects without zone labels (one zone), named as given, 4 CPU / 16 GiB each. */
export function flatCluster(names: string[], labels: Record<string, Record<string, string>> = {}): { nodes: Node[]; source: string } {
  return {
    source: 'test',
    nodes: names.map((name) => ({
      name, labels: labels[name] ?? {}, taints: [], unschedulable: false,
      allocatable: { cpuMillis: 4000, memoryBytes: 16 * 2 ** 30, pods: 110 },
    })),
  };
}

export function zonedCluster(zones: Record<string, string[]>) {
  const names = Object.values(zones).flat();
  const labels: Record<string, Record<string, string>> = {};
  for (const [zone, nodes] of Object.entries(zones)) for (const n of nodes) labels[n] = { 'topology.kubernetes.io/zone': zone, 'topology.kubernetes.io/region': 'r' };
  return flatCluster(names, labels);
}

export function settings(values: Record<string, string | number>): TimingSetting[] {
  return Object.entries(values).map(([name, value]) => ({ name, value, source: '--set' }));
}

export type ScenarioOptions = Partial<SimulationChoices> & { set?: Record<string, string | number>; version?: string; profile?: string };

/** Each YAML text a document of one workspace; Kubernetes 1.29 (the recordings' version) unless given. */
export function scenarioOf(yaml: string[], options: ScenarioOptions): Scenario {
  const { set, version, profile, ...choices } = options;
  const workspace = new Workspace({ version: { value: version ?? '1.29', source: 'test' }, profile, overrides: settings(set ?? {}) });
  yaml.forEach((text, i) => workspace.setDocument(`doc${i}.yaml`, text));
  return workspace.scenario({ ...defaultChoices(), durationMs: 15 * 60_000, ...choices });
}

export function run(yaml: string[], options: ScenarioOptions): SimulationResult {
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

/** A one-replica StatefulSet; `volume`: its volumeClaimTemplates (withVolume), if any. */
export const statefulSet = (name: string, volume = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ${name}, namespace: shop}
spec:
  serviceName: ${name}
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: c, image: postgres:16}]
${volume}`;

/** One ReadWriteOnce claim per pod. */
export const withVolume = `  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`;

/** A Service in front of the pods labelled app: NAME, in the namespace of deployment(). */
export const service = (name: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: truth}\nspec: {selector: {app: ${name}}, ports: [{port: 80}]}\n`;

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

/** What users read of an event and of a workload's outcome (src/report words the simulator's facts). */
export const messageOf = (event: TraceEvent): string => eventMessage(event);
export const reasonOf = (summary: WorkloadSummary): string => outcomeReason(summary);
