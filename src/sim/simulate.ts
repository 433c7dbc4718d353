/**
 * One simulation run: the wiring. Builds the healthy cluster as it is before the failure,
 * starts every component, injects the faults and interventions, runs the clock and summarises.
 */
import { zoneName } from '../cluster/clusterSpec';
import { autoscalerOf, hasReplicas } from '../manifest/model/autoscaling';
import { formatDuration } from '../manifest/duration';
import { formatCount } from '../manifest/formatCount';
import { MAX_TRACE_EVENTS } from '../manifest/limits';
import { AttachDetachController } from './attachDetach';
import { features, type SimContext } from './context';
import { DaemonSetController } from './daemonSet';
import { Clock } from './engine';
import { ControllerManagerLease } from './leaderElection';
import { EndpointSliceController } from './endpoints';
import { scheduleFault, scheduleIntervention } from './faults';
import { JobController } from './job';
import { Kubelets } from './kubelet';
import { ServingMetrics } from './metrics';
import { NodeLifecycleController } from './nodeLifecycle';
import type { NodeTaint, SimNode, SimPod, SimWorkload } from './objects';
import { PodGarbageCollector } from './podGC';
import { Random } from './random';
import { ReplicaSetController } from './replicaSet';
import { INTERVENTION_ORDER, type Intervention, type Scenario } from './scenario';
import { Scheduler } from './scheduler';
import { namespaceLabels } from './selectors';
import { StatefulSetController } from './statefulSet';
import { Store } from './store';
import { pendingAtFailure, summarize, type PendingAtFailure, type Summary } from './summary';
import { TaintEvictionController } from './taintEviction';
import { UNSCHEDULABLE } from './tolerations';
import { TraceRecorder, type StateInterval, type TraceEvent } from './trace';
import { VolumeBinder } from './volumeBinding';
import { toSimWorkload } from './workloads';
import { workloadsNamed } from './workloadTarget';


export interface SimulationResult {
  events: TraceEvent[];
  states: StateInterval[];
  summary: Summary;
  /** Tasks the event queue ran (for benchmarks). */
  executedTasks: number;
}

/** The scenario cannot run as given (its message speaks of the input). */
export class ScenarioError extends Error {
  constructor(message: string, readonly target?: string) {
    super(message);
  }
}

export function simulate(scenario: Scenario): SimulationResult {
  const { timing } = scenario;
  const clock = new Clock(-scenario.preFailureMs);
  const store = new Store(clock, {
    notReadyTolerationSeconds: timing.apiServer.defaultNotReadyTolerationSeconds.value,
    unreachableTolerationSeconds: timing.apiServer.defaultUnreachableTolerationSeconds.value,
  });
  const trace = new TraceRecorder(store);
  const metrics = new ServingMetrics(store, features.proxyTerminatingEndpoints(timing.version.minor));
  const ctx: SimContext = { clock, store, random: new Random(scenario.seed), timing, leader: new ControllerManagerLease() };

  addNodes(store, scenario);
  addServices(store, scenario);
  const volumes = new VolumeBinder(store, scenario.persistentVolumeClaims, scenario.persistentVolumes, scenario.storageClasses);
  const autoscalers = scenario.horizontalPodAutoscalers ?? [];
  for (const spec of scenario.workloads) {
    const workload = toSimWorkload(store, spec, autoscalers, scenario.priorityClasses);
    store.addWorkload(workload);
    // The autoscaler's minReplicas in place of replicas is said in the trace.
    if (hasReplicas(spec) && workload.desired !== spec.replicas) {
      const autoscaler = autoscalerOf(spec, { horizontalPodAutoscalers: autoscalers })!;
      store.event(workload.ref, 'Note', 'Autoscaled', { autoscaler: autoscaler.name, minReplicas: autoscaler.minReplicas, replicas: spec.replicas });
    }
  }

  const scheduler = new Scheduler(ctx, volumes, scenario.placement, { namespaces: namespaceLabels(scenario.namespaces ?? []), budgets: scenario.podDisruptionBudgets });
  const unplaced = scheduler.placeBeforeFailure();
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

  let written = 0;
  store.onEvent(() => {
    if (++written > MAX_TRACE_EVENTS) throw new ScenarioError(`The run writes more than ${formatCount(MAX_TRACE_EVENTS)} events by ${formatDuration(clock.now)} after the failure; the simulator stops there. Simulate less time (--duration) or fewer pods.`);
  });
  for (const note of timing.notes) store.event({ kind: 'Cluster', name: 'timing', namespace: '' }, 'Note', 'NoEffect', { message: note });
  const failedNodes: SimNode[] = [];
  // Interventions act on the nodes that have failed by their time (targets can fail one after another).
  const failedSoFar: SimNode[] = [];
  // Those not back yet: the nodes a deletion of a workload's pods (Kind/name) looks at.
  const stillDown: SimNode[] = [];
  const failedByFault: SimNode[][] = [];
  let pendingBefore: PendingAtFailure = new Map();
  clock.at(0, () => {
    pendingBefore = pendingAtFailure(store);
    metrics.markFailure(store.workloads);
  });
  // Targets that fail at their own times must not share a node: it would fail a second time while down.
  const failedBy = new Map<SimNode, string>();
  for (const fault of scenario.faults) {
    const nodes = resolveTargets(store, fault.targets, fault.kind === 'zone-outage');
    const target = fault.targets.join(',');
    for (const node of nodes) {
      const earlier = failedBy.get(node);
      if (earlier !== undefined) throw new ScenarioError(`target ${target}: ${node.name} already fails as part of ${earlier}, at that target's time; a node fails once, so name it in one target only.`, fault.targets[0]);
      failedBy.set(node, target);
    }
    failedByFault.push(nodes);
    failedNodes.push(...nodes.filter((n) => !failedNodes.includes(n)));
    clock.at(fault.atMs, () => {
      failedSoFar.push(...nodes.filter((n) => !failedSoFar.includes(n)));
      stillDown.push(...nodes.filter((n) => !stillDown.includes(n)));
    });
    scheduleFault(ctx, fault, nodes);
    // A node back is no longer one whose pods to delete: a force delete after it must not take its healthy pods.
    if (fault.recoverAfterMs !== undefined) clock.at(fault.atMs + fault.recoverAfterMs, () => removeAll(stillDown, nodes));
  }
  // Interventions of one instant act in one order whatever order a scenario file lists them in: the CLI's.
  const byKind = (i: Intervention) => INTERVENTION_ORDER.indexOf(i.kind);
  for (const intervention of [...scenario.interventions].sort((a, b) => byKind(a) - byKind(b))) scheduleIntervention(ctx, intervention, () => (intervention.kind === 'force-delete' || intervention.kind === 'delete' ? stillDown : failedSoFar.filter((n) => !n.deleted || intervention.kind !== 'delete-node')));

  clock.runUntil(scenario.durationMs);
  const events = trace.events;
  return { events, states: trace.states(), summary: summarize(store, metrics, events, failedNodes, failedByFault, pendingBefore, scenario.placement ?? 'scheduler', scheduler.initialPlacement, features.outOfServiceVolumeDetach(timing.version.minor)), executedTasks: clock.executed };
}

function addNodes(store: Store, scenario: Scenario): void {
  if (scenario.cluster.nodes.length === 0) throw new ScenarioError('The cluster has no nodes.');
  scenario.cluster.nodes.forEach((spec, index) => {
    store.addNode({
      name: spec.name,
      ref: { kind: 'Node', name: spec.name, namespace: '' },
      index,
      zone: spec.zone,
      labels: spec.labels,
      taints: initialTaints(spec),
      allocatable: spec.allocatable,
      unschedulable: spec.unschedulable,
      ready: 'True',
      readyReason: 'KubeletReady',
      readyTransition: store.now,
      // The kubelet has been renewing since long before the simulation starts.
      lease: { live: true, renewTime: -Infinity, lastStatusPost: -Infinity },
      deleted: false,
      host: { powered: true, kubeletRunning: true, apiReachable: true, dataPlaneReachable: true, runtimeUp: true, diskHealthy: true, shuttingDown: false },
      pods: [],
      nextIp: 0,
      podCidr: `10.244.${index}.0/24`,
    });
  });
}

/**
 * The node's taints as they are long before the failure: a cordoned node (spec.unschedulable)
 * already carries the NoSchedule taint the node lifecycle controller gives it.
 */
function initialTaints(spec: Scenario['cluster']['nodes'][number]): NodeTaint[] {
  const taints: NodeTaint[] = spec.taints.map((t) => ({ ...t }));
  if (spec.unschedulable && !taints.some((t) => t.key === UNSCHEDULABLE && t.effect === 'NoSchedule')) taints.push({ key: UNSCHEDULABLE, value: '', effect: 'NoSchedule' });
  return taints;
}

function addServices(store: Store, scenario: Scenario): void {
  for (const service of scenario.services) {
    if (service.type === 'ExternalName') continue;
    store.addService({
      name: service.name,
      ref: { kind: 'EndpointSlice', name: service.name, namespace: service.namespace },
      namespace: service.namespace,
      selector: service.selector,
      publishNotReadyAddresses: service.publishNotReadyAddresses,
      headless: service.headless,
      endpoints: new Map(),
      readyEndpoints: 0,
    });
  }
}

/**
 * `node/NAME`, `zone/NAME` (every node of the zone), or `Kind/name` for the node of that
 * workload's first pod; none: the node of the first running pod of the first workload that has one (for a zone outage,
 * its zone). The front ends have checked that names exist.
 */
function resolveTargets(store: Store, targets: string[], wholeZone: boolean): SimNode[] {
  const wanted = targets.length > 0 ? targets : [''];
  // Nodes without a zone label share the zone key "": a zone outage of one would take them all.
  const zoneOf = (node: SimNode, target: string): SimNode[] => {
    if (node.zone === '') throw new ScenarioError(`zone-outage: ${node.name} has no topology.kubernetes.io/zone label, so it has no zone to take down; name the nodes to fail (--target node/NAME,...).`, target || undefined);
    return store.nodes.filter((n) => n.zone === node.zone);
  };
  const nodes = wanted.flatMap((target): SimNode[] => {
    if (target === '') {
      // The first workload with a running pod: one whose pods are all Pending has no node to fail.
      const pod = store.workloads.map(firstPlacedPod).find((p) => p !== undefined);
      if (!pod) {
        const pending = store.workloads.flatMap((w) => w.pods).find((p) => p.pendingMessage !== undefined);
        const why = pending ? ` (${pending.name}: ${pending.pendingMessage})` : '';
        throw new ScenarioError(`No pod runs before the failure${why}, so there is no default node to fail; name one as the target (node/NAME).`);
      }
      return wholeZone ? zoneOf(pod.node!, target) : [pod.node!];
    }
    const slash = target.indexOf('/');
    const kind = slash < 0 ? 'node' : target.slice(0, slash);
    const name = slash < 0 ? target : target.slice(slash + 1);
    if (kind.toLowerCase() === 'node') {
      const node = store.nodeByName.get(name);
      if (!node) throw new ScenarioError(`target ${target}: no such node in the cluster.`, target);
      // A zone outage takes the node's whole zone, as it does for a workload's node.
      return wholeZone ? zoneOf(node, target) : [node];
    }
    if (kind.toLowerCase() === 'zone') {
      const inZone = store.nodes.filter((n) => zoneName(n.zone) === name);
      if (inZone.length === 0) throw new ScenarioError(`target ${target}: no node of the cluster is in zone ${name}.`, target);
      return inZone;
    }
    const [workload] = workloadsNamed(store.workloads, target);
    if (!workload) throw new ScenarioError(`target ${target}: no such workload in the input.`, target);
    const pod = firstPlacedPod(workload);
    if (!pod) throw new ScenarioError(`target ${target}: ${workload.kind}/${workload.name} has no running pod before the failure, so it has no node to fail (${workload.pods[0]?.pendingMessage ?? 'it has no pods'}).`, target);
    return wholeZone ? zoneOf(pod.node!, target) : [pod.node!];
  });
  return [...new Set(nodes)];
}

function removeAll<T>(list: T[], items: readonly T[]): void {
  for (const item of items) {
    const at = list.indexOf(item);
    if (at >= 0) list.splice(at, 1);
  }
}

function firstPlacedPod(workload: SimWorkload): SimPod | undefined {
  return workload.pods.find((p) => p.nodeName !== undefined);
}
