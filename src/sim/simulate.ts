/**
 * One simulation run: builds the healthy cluster as it is before the failure, starts every
 * component, injects the faults and interventions, runs the clock and summarises.
 */
import { nameSuffix, Random } from './random';
import { AttachDetachController } from './attachDetach';
import { timingValues, type SimContext } from './context';
import { DaemonSetController, daemonPodTemplate } from './daemonSet';
import { Clock } from './engine';
import { EndpointSliceController } from './endpoints';
import { scheduleFault, scheduleIntervention } from './faults';
import { JobController } from './job';
import { Kubelets } from './kubelet';
import { ServingMetrics } from './metrics';
import { NodeLifecycleController } from './nodeLifecycle';
import { needsAttach, nextPodIp, type PodTemplateSim, type SimNode, type SimPod, type SimService, type SimWorkload } from './objects';
import { markRunning, newPod } from './podFactory';
import { PodGarbageCollector } from './podGC';
import { ReplicaSetController } from './replicaSet';
import type { Scenario } from './scenario';
import { Scheduler } from './scheduler';
import { matchesMap } from './selectors';
import { StatefulSetController } from './statefulSet';
import { Store } from './store';
import { summarize, type Summary } from './summary';
import { TaintEvictionController } from './taintEviction';
import { withDaemonSetTolerations, withDefaultTolerations } from './tolerations';
import { TraceRecorder, type StateInterval, type TraceEvent } from './trace';
import { VolumeBinder } from './volumeBinding';
import type { Toleration, Workload } from '../manifest/model/types';

export interface SimulationResult {
  events: TraceEvent[];
  states: StateInterval[];
  summary: Summary;
  /** Tasks the event queue ran (for benchmarks). */
  executedTasks: number;
}

export class ScenarioError extends Error {}

export function simulate(scenario: Scenario): SimulationResult {
  const clock = new Clock(-scenario.preFailureMs);
  const trace = new TraceRecorder(() => clock.now);
  const store = new Store(clock, trace);
  const ctx: SimContext = { clock, store, random: new Random(scenario.seed), timing: timingValues(scenario.timing) };
  const metrics = new ServingMetrics(() => clock.now);
  store.onPodObserved = (pod) => metrics.observe(pod);

  addNodes(ctx, scenario);
  addServices(store, scenario);
  const volumes = new VolumeBinder(store, scenario.persistentVolumeClaims, scenario.persistentVolumes, scenario.storageClasses);
  const interned = new Map<string, Toleration[]>();
  for (const spec of scenario.workloads) store.workloads.push(toSimWorkload(ctx, spec, interned));

  const scheduler = new Scheduler(ctx, volumes);
  const unplaced = placeBeforeFailure(ctx, scheduler, volumes);
  for (const workload of store.workloads) store.recordWorkload(workload);
  scheduler.startRun();

  new Kubelets(ctx);
  new NodeLifecycleController(ctx);
  new TaintEvictionController(ctx);
  new ReplicaSetController(ctx, volumes);
  new StatefulSetController(ctx, volumes);
  new DaemonSetController(ctx, volumes);
  new JobController(ctx, volumes);
  new PodGarbageCollector(ctx);
  new AttachDetachController(ctx);
  new EndpointSliceController(ctx);
  for (const pod of unplaced) store.createPod(pod, 'its controller, before the failure');

  for (const note of scenario.timing.notes) store.event({ kind: 'Cluster', name: 'timing', namespace: '' }, 'Note', 'NoEffect', note);
  const failedNodes: SimNode[] = [];
  for (const fault of scenario.faults) {
    const nodes = resolveTargets(store, fault.targets);
    failedNodes.push(...nodes.filter((n) => !failedNodes.includes(n)));
    scheduleFault(ctx, fault, nodes);
  }
  for (const intervention of scenario.interventions) scheduleIntervention(ctx, intervention, () => failedNodes.filter((n) => !n.deleted || intervention.kind !== 'delete-node'));

  clock.runUntil(scenario.durationMs);
  const events = trace.events;
  return { events, states: trace.states(), summary: summarize(store, metrics, events, failedNodes), executedTasks: clock.executed };
}

function addNodes(ctx: SimContext, scenario: Scenario): void {
  const { store, clock } = ctx;
  if (scenario.cluster.nodes.length === 0) throw new ScenarioError('The cluster has no nodes.');
  scenario.cluster.nodes.forEach((spec, index) => {
    const node: SimNode = {
      name: spec.name,
      ref: { kind: 'Node', name: spec.name, namespace: '' },
      index,
      zone: spec.zone,
      labels: spec.labels,
      taints: spec.taints.map((t) => ({ ...t })),
      allocatable: spec.allocatable,
      unschedulable: spec.unschedulable,
      ready: 'True',
      readyReason: 'KubeletReady',
      readyTransition: clock.now,
      // The kubelet has been renewing since long before the simulation starts.
      lease: { live: true, renewTime: -Infinity, lastStatusPost: -Infinity },
      deleted: false,
      host: { powered: true, kubeletRunning: true, apiReachable: true, dataPlaneReachable: true },
      pods: [],
      nextIp: 0,
      podCidr: `10.244.${index}.0/24`,
    };
    store.addNode(node);
  });
}

function addServices(store: Store, scenario: Scenario): void {
  for (const service of scenario.services) {
    if (service.type === 'ExternalName') continue;
    store.services.push({
      name: service.name,
      ref: { kind: 'EndpointSlice', name: service.name, namespace: service.namespace },
      namespace: service.namespace,
      selector: service.selector,
      publishNotReadyAddresses: service.publishNotReadyAddresses,
      endpoints: new Map(),
      readyEndpoints: 0,
    });
  }
}

/** The pod template after the controllers' and the API server's defaults (DaemonSet and DefaultTolerationSeconds). */
function toSimWorkload(ctx: SimContext, spec: Workload, interned: Map<string, Toleration[]>): SimWorkload {
  // Identical toleration lists are shared, so that the scheduler's cache keyed on them serves many workloads.
  const intern = (list: Toleration[]) => {
    const key = JSON.stringify(list);
    let shared = interned.get(key);
    if (!shared) interned.set(key, (shared = list));
    return shared;
  };
  const { timing, store } = ctx;
  const podSpec = spec.template.spec;
  let tolerations = podSpec.tolerations;
  if (spec.kind === 'DaemonSet') tolerations = withDaemonSetTolerations(tolerations, podSpec.hostNetwork);
  tolerations = intern(withDefaultTolerations(tolerations, timing.notReadyTolerationSeconds, timing.unreachableTolerationSeconds));
  const containers = podSpec.containers;
  const template: PodTemplateSim = {
    labels: spec.template.labels,
    tolerations,
    nodeSelector: podSpec.nodeSelector,
    placementConstraints: Object.keys(podSpec.nodeSelector).length > 0 || podSpec.affinity.nodeRequired.length > 0
      || podSpec.topologySpreadConstraints.length > 0 || podSpec.affinity.podAffinityRequired.length > 0 || podSpec.affinity.podAntiAffinityRequired.length > 0,
    nodeRequired: podSpec.affinity.nodeRequired,
    affinity: podSpec.affinity,
    topologySpread: podSpec.topologySpreadConstraints,
    cpuMillis: containers.reduce((sum, c) => sum + (c.requests.cpuMillis ?? c.limits.cpuMillis ?? 0), 0),
    memoryBytes: containers.reduce((sum, c) => sum + (c.requests.memoryBytes ?? c.limits.memoryBytes ?? 0), 0),
    terminationGracePeriodSeconds: podSpec.terminationGracePeriodSeconds,
    readinessProbe: containers.find((c) => c.readinessProbe)?.readinessProbe,
    containerCount: Math.max(1, containers.length),
    restartPolicy: podSpec.restartPolicy,
    hostNetwork: podSpec.hostNetwork,
  };
  const services: SimService[] = store.services.filter((s) =>
    s.namespace === spec.namespace && Object.keys(s.selector).length > 0 && matchesMap(s.selector, template.labels));
  const desired = spec.kind === 'Deployment' || spec.kind === 'ReplicaSet' || spec.kind === 'ReplicationController' || spec.kind === 'StatefulSet'
    ? spec.replicas
    : spec.kind === 'Job' || spec.kind === 'CronJob' ? spec.parallelism : spec.kind === 'Pod' ? 1 : 0;
  const workload: SimWorkload = {
    kind: spec.kind, name: spec.name, namespace: spec.namespace, ref: { kind: spec.kind, name: spec.name, namespace: spec.namespace }, readyPods: 0,
    spec, template, desired, pods: [], created: 0,
    services, podTemplateHash: nameSuffix(`${spec.namespace}/${spec.name}/template`, 10), failures: 0,
  };
  if (spec.kind === 'DaemonSet') workload.desired = store.nodes.filter((n) => DaemonSetController.shouldRun(workload, n).shouldRun).length;
  return workload;
}

/**
 * The healthy cluster: every workload's pods running and Ready where the scheduler would put
 * them. Returns the pods that could not run; they are created through the API at the start.
 */
function placeBeforeFailure(ctx: SimContext, scheduler: Scheduler, volumes: VolumeBinder): SimPod[] {
  const { store, clock } = ctx;
  const pending: SimPod[] = [];
  for (const workload of store.workloads) {
    const spec = workload.spec;
    if (spec.kind === 'DaemonSet') {
      for (const node of store.nodes) {
        if (!DaemonSetController.shouldRun(workload, node).shouldRun) continue;
        const pod = newPod(workload, store.uid(), clock.now, [], undefined, daemonPodTemplate(workload, node));
        run(ctx, scheduler, pod, node);
      }
      continue;
    }
    for (let i = 0; i < workload.desired; i++) {
      const ordinal = spec.kind === 'StatefulSet' ? i : undefined;
      const pod = newPod(workload, store.uid(), clock.now, volumes.claimsFor(workload, ordinal), ordinal);
      const pinned = spec.kind === 'Pod' && spec.template.spec.nodeName !== undefined ? store.nodeByName.get(spec.template.spec.nodeName) : undefined;
      const node = pinned ?? scheduler.placeInitial(pod);
      const attachedElsewhere = node && pod.claims.some((c) => c.volume && needsAttach(c.volume) && c.volume.attachedTo !== undefined && c.volume.attachedTo !== node.name);
      if (node && !attachedElsewhere) run(ctx, scheduler, pod, node);
      else pending.push(pod);
    }
  }
  return pending;
}

function run(ctx: SimContext, scheduler: Scheduler, pod: SimPod, node: SimNode): void {
  markRunning(pod, nextPodIp(node));
  ctx.store.addRunningPod(pod, node);
  scheduler.count(pod, +1);
  for (const claim of pod.claims) {
    if (claim.volume && needsAttach(claim.volume)) claim.volume.attachedTo ??= node.name;
  }
}

/** `node/NAME` or a node name, or `Kind/name` for the node of that workload's first pod. */
function resolveTargets(store: Store, targets: string[]): SimNode[] {
  const wanted = targets.length > 0 ? targets : [''];
  return wanted.map((target) => {
    if (target === '') {
      const first = store.workloads.find((w) => w.pods.length > 0);
      const pod = first && firstPlacedPod(first);
      if (!pod) throw new ScenarioError('No pod runs before the failure, so there is no default node to fail; name one with --target node/NAME.');
      return pod.node!;
    }
    const slash = target.indexOf('/');
    const kind = slash < 0 ? 'node' : target.slice(0, slash);
    const name = slash < 0 ? target : target.slice(slash + 1);
    if (kind.toLowerCase() === 'node') {
      const node = store.nodeByName.get(name);
      if (!node) throw new ScenarioError(`No node named "${name}" in the cluster (nodes: ${store.nodes.map((n) => n.name).join(', ')}).`);
      return node;
    }
    const workload = store.workloads.find((w) => w.kind.toLowerCase() === kind.toLowerCase() && w.name === name);
    if (!workload) throw new ScenarioError(`No ${kind} named "${name}" in the input (workloads: ${store.workloads.map((w) => `${w.kind}/${w.name}`).join(', ') || 'none'}).`);
    const pod = firstPlacedPod(workload);
    if (!pod) throw new ScenarioError(`${workload.kind}/${workload.name} has no running pod before the failure, so it has no node to fail.`);
    return pod.node!;
  });
}

function firstPlacedPod(workload: SimWorkload): SimPod | undefined {
  return workload.pods.find((p) => p.nodeName !== undefined);
}
