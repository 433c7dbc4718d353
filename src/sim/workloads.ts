/** A workload as the simulator runs it: its pod template after the controllers' and the API server's defaults. */
import type { Workload } from '../manifest/model/types';
import { DaemonSetController } from './daemonSet';
import type { PodTemplateSim, SimService, SimWorkload } from './objects';
import { nameSuffix } from './random';
import { matchesMap } from './selectors';
import type { Store } from './store';
import { withDaemonSetTolerations } from './tolerations';

/** The workload with its pod template as pods get it: the DaemonSet controller's tolerations, then admission. */
export function toSimWorkload(store: Store, spec: Workload): SimWorkload {
  const podSpec = spec.template.spec;
  const containers = podSpec.containers;
  const template: PodTemplateSim = store.admit({
    labels: spec.template.labels,
    tolerations: spec.kind === 'DaemonSet' ? withDaemonSetTolerations(podSpec.tolerations, podSpec.hostNetwork) : podSpec.tolerations,
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
    livenessProbe: containers.find((c) => c.livenessProbe)?.livenessProbe,
    critical: podSpec.priorityClassName === 'system-node-critical' || podSpec.priorityClassName === 'system-cluster-critical',
    containerCount: Math.max(1, containers.length),
    initContainerCount: podSpec.initContainers.length,
    restartPolicy: podSpec.restartPolicy,
    hostNetwork: podSpec.hostNetwork,
  });
  const services = servicesSelecting(store, spec.namespace, template.labels);
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
 * The Services whose selector matches the labels, in the store's order. The EndpointSlice
 * controller's lookup (GetPodServiceMemberships) through an index of the Services by namespace
 * and their selector's first label, so that adding thousands of workloads does not compare each
 * with every Service.
 */
function servicesSelecting(store: Store, namespace: string, labels: Record<string, string>): SimService[] {
  let index = serviceIndexes.get(store);
  if (!index || index.size !== store.services.length) serviceIndexes.set(store, (index = indexServices(store.services)));
  const byLabel = index.byNamespace.get(namespace);
  if (!byLabel) return [];
  const found: SimService[] = [];
  for (const key in labels) {
    for (const service of byLabel.get(`${key}=${labels[key]}`) ?? []) if (matchesMap(service.selector, labels)) found.push(service);
  }
  if (found.length > 1) found.sort((a, b) => index.position.get(a)! - index.position.get(b)!);
  return found;
}

interface ServiceIndex {
  size: number;
  position: Map<SimService, number>;
  byNamespace: Map<string, Map<string, SimService[]>>;
}

const serviceIndexes = new WeakMap<Store, ServiceIndex>();

function indexServices(services: readonly SimService[]): ServiceIndex {
  const index: ServiceIndex = { size: services.length, position: new Map(), byNamespace: new Map() };
  services.forEach((service, i) => {
    index.position.set(service, i);
    const first = Object.keys(service.selector)[0];
    // A Service without a selector has no endpoints managed for it.
    if (first === undefined) return;
    let byLabel = index.byNamespace.get(service.namespace);
    if (!byLabel) index.byNamespace.set(service.namespace, (byLabel = new Map()));
    const key = `${first}=${service.selector[first]}`;
    const list = byLabel.get(key);
    if (list) list.push(service);
    else byLabel.set(key, [service]);
  });
  return index;
}
