/**
 * One controller against a store, a clock and a random stream made in the test, as upstream
 * tests a controller with fake informers: nodes and pods are put in the store directly, the
 * test drives the clock and reads the events the store emitted.
 */
import { zoneKey } from '../../../src/cluster/clusterSpec';
import { parseKubernetesVersion, type KubernetesVersion } from '../../../src/cluster/kubernetesVersion';
import { resolveTiming, type TimingConfiguration } from '../../../src/cluster/timing';
import type { SimContext } from '../../../src/sim/context';
import { Clock } from '../../../src/sim/engine';
import { markRunning, newPod } from '../../../src/sim/podFactory';
import type { SimClaim, SimNode, SimPod, SimWorkload } from '../../../src/sim/objects';
import { nextPodIp } from '../../../src/sim/objects';
import { Random } from '../../../src/sim/random';
import { Store } from '../../../src/sim/store';
import { TraceRecorder, type TraceEvent } from '../../../src/sim/trace';
import { toSimWorkload } from '../../../src/sim/workloads';
import { readManifestText } from '../../../src/manifest/readManifest';
import { settings } from '../support';

/** Latencies of zero make every time exact: writes and watches happen in the instant they are made. */
const EXACT = { 'sim.apiWriteLatency': '0s', 'sim.watchLatency': '0s', 'sim.nodeMonitorPassDuration': '0s' };

export interface HarnessOptions {
  /** Node names; `zone/name` puts a node in a zone. */
  nodes: string[];
  set?: Record<string, string | number>;
  version?: string;
  seed?: number;
}

export class Harness {
  readonly clock = new Clock(0);
  readonly store: Store;
  readonly trace: TraceRecorder;
  readonly timing: TimingConfiguration;
  readonly ctx: SimContext;

  constructor(options: HarnessOptions) {
    this.timing = resolveTiming({ version: parseKubernetesVersion(options.version ?? '1.29') as KubernetesVersion, settings: settings({ ...EXACT, ...options.set }) });
    this.store = new Store(this.clock, {
      notReadyTolerationSeconds: this.timing.apiServer.defaultNotReadyTolerationSeconds.value,
      unreachableTolerationSeconds: this.timing.apiServer.defaultUnreachableTolerationSeconds.value,
    });
    this.trace = new TraceRecorder(this.store);
    this.ctx = { clock: this.clock, store: this.store, random: new Random(options.seed ?? 1), timing: this.timing };
    options.nodes.forEach((spec, index) => {
      const [zone, name] = spec.includes('/') ? spec.split('/') : ['', spec];
      const labels: Record<string, string> = zone ? { 'topology.kubernetes.io/zone': zone, 'topology.kubernetes.io/region': 'r' } : {};
      this.store.addNode({
        name, ref: { kind: 'Node', name, namespace: '' }, index, zone: zoneKey(labels), labels, taints: [],
        allocatable: { cpuMillis: 4000, memoryBytes: 16 * 2 ** 30, pods: 110 }, unschedulable: false,
        ready: 'True', readyReason: 'KubeletReady', readyTransition: 0,
        lease: { live: true, renewTime: -Infinity, lastStatusPost: -Infinity }, deleted: false,
        host: { powered: true, kubeletRunning: true, apiReachable: true, dataPlaneReachable: true, runtimeUp: true, diskHealthy: true, shuttingDown: false },
        pods: [], nextIp: 0, podCidr: `10.244.${index}.0/24`,
      });
    });
  }

  node(name: string): SimNode {
    return this.store.nodeByName.get(name)!;
  }

  /** A workload from its YAML, registered in the store (no pods). */
  workload(yaml: string): SimWorkload {
    const workload = toSimWorkload(this.store, readManifestText(yaml).model.workloads[0]);
    this.store.addWorkload(workload);
    return workload;
  }

  /** A pod of the workload already running on the node. */
  runningPod(workload: SimWorkload, node: string, options: { ordinal?: number; claims?: SimClaim[] } = {}): SimPod {
    const pod = newPod(workload, this.store.uid(), this.clock.now, options.claims ?? [], options.ordinal);
    markRunning(pod, nextPodIp(this.node(node), pod));
    this.store.addRunningPod(pod, this.node(node));
    return pod;
  }

  /** The kubelet of a node stops: its lease and status are last renewed `agoMs` before now. */
  stopHeartbeats(node: string, lastRenewalMs: number, lastStatusPostMs = -300_000): void {
    this.store.setLease(this.node(node), false, lastRenewalMs, lastStatusPostMs);
  }

  run(untilMs: number): void {
    this.clock.runUntil(untilMs);
  }

  events(match: (e: TraceEvent) => boolean = () => true): TraceEvent[] {
    return this.trace.events.filter(match);
  }

  /** Times of the events that match. */
  times(match: (e: TraceEvent) => boolean): number[] {
    return this.events(match).map((e) => e.t);
  }
}

export const events = {
  ready: (node: string, status: string) => (e: TraceEvent) => e.type === 'NodeCondition' && e.object.name === node && e.detail?.status === status,
  taint: (node: string | undefined, effect: string, key?: string) => (e: TraceEvent) =>
    e.type === 'TaintAdded' && (node === undefined || e.object.name === node) && e.detail?.effect === effect && (key === undefined || e.detail?.key === key),
  taintRemoved: (node: string, effect: string) => (e: TraceEvent) => e.type === 'TaintRemoved' && e.object.name === node && e.detail?.effect === effect,
  podNotReady: (pod: string) => (e: TraceEvent) => e.type === 'PodCondition' && e.object.name === pod && e.detail?.type === 'Ready',
  deleting: (pod: string) => (e: TraceEvent) => e.type === 'PodDeletionStarted' && e.object.name === pod,
  removed: (pod: string) => (e: TraceEvent) => e.type === 'PodRemoved' && e.object.name === pod,
  created: (pod?: string) => (e: TraceEvent) => e.type === 'PodCreated' && (pod === undefined || e.object.name === pod),
  note: (reason: string) => (e: TraceEvent) => e.type === 'Note' && e.reason === reason,
  reason: (reason: string) => (e: TraceEvent) => e.reason === reason,
};

export const deploymentYaml = (name: string, replicas = 1, podSpec = '') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: t}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${podSpec}      containers: [{name: c, image: app}]
`;

export const statefulSetYaml = (name: string, replicas: number, policy = 'OrderedReady') => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ${name}, namespace: t}
spec:
  serviceName: ${name}
  replicas: ${replicas}
  podManagementPolicy: ${policy}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: c, image: app}]
`;
