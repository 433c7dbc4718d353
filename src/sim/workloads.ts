/** A workload as the simulator runs it: its pod template after the controllers' and the API server's defaults. */
import { fewestPods, hasReplicas } from '../manifest/model/autoscaling';
import type { HorizontalPodAutoscaler, Job, PriorityClass, Workload } from '../manifest/model/types';
import { isMirrorPod, isSidecar, podRequests } from '../manifest/model/workloads';
import { DaemonSetController } from './daemonSet';
import type { PodTemplateSim, SimService, SimWorkload } from './objects';
import { admitPriority, SYSTEM_CRITICAL_PRIORITY } from './priority';
import { nameSuffix } from './random';
import { ServiceIndex } from './serviceIndex';
import type { Store } from './store';
import { withDaemonSetTolerations, withStaticPodToleration } from './tolerations';

/** The workload with its pod template as pods get it: the DaemonSet controller's tolerations, then admission. */
export function toSimWorkload(store: Store, spec: Workload, autoscalers: readonly HorizontalPodAutoscaler[] = [], priorityClasses: readonly PriorityClass[] = []): SimWorkload {
  const podSpec = spec.template.spec;
  const containers = podSpec.containers;
  const sidecars = podSpec.initContainers.filter(isSidecar);
  const hostPorts = containers.flatMap((c) => c.ports.flatMap((p) => {
    const port = p.hostPort ?? (podSpec.hostNetwork ? p.containerPort : undefined);
    return port ? [`${p.protocol || 'TCP'}/${port}`] : [];
  }));
  const priority = admitPriority(podSpec.priorityClassName, priorityClasses);
  const template: PodTemplateSim = store.admit({
    labels: spec.template.labels,
    tolerations: spec.kind === 'DaemonSet' ? withDaemonSetTolerations(podSpec.tolerations, podSpec.hostNetwork)
      : isMirrorPod(spec) ? withStaticPodToleration(podSpec.tolerations) : podSpec.tolerations,
    nodeSelector: podSpec.nodeSelector,
    placementConstraints: Object.keys(podSpec.nodeSelector).length > 0 || podSpec.affinity.nodeRequired.length > 0
      || podSpec.topologySpreadConstraints.length > 0 || podSpec.affinity.podAffinityRequired.length > 0 || podSpec.affinity.podAntiAffinityRequired.length > 0
      || hostPorts.length > 0,
    nodeRequired: podSpec.affinity.nodeRequired,
    affinity: podSpec.affinity,
    topologySpread: podSpec.topologySpreadConstraints,
    ...podRequests(podSpec),
    terminationGracePeriodSeconds: podSpec.terminationGracePeriodSeconds,
    readinessProbe: [...containers, ...sidecars].find((c) => c.readinessProbe)?.readinessProbe,
    livenessProbe: containers.find((c) => c.livenessProbe)?.livenessProbe,
    startupProbe: containers.find((c) => c.startupProbe)?.startupProbe,
    priority: priority?.value,
    preemptionPolicy: priority?.preemptionPolicy ?? 'PreemptLowerPriority',
    // IsCriticalPod (pkg/kubelet/types): static and mirror pods, and system priorities (2,000,000,000 and up).
    critical: isMirrorPod(spec) || Math.max(priority?.value ?? 0, podSpec.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY,
    // kubectl counts native sidecars in READY (printPod), and the kubelet stops them with the pod.
    containerCount: Math.max(1, containers.length) + sidecars.length,
    containers: [...containers, ...sidecars],
    initContainerCount: podSpec.initContainers.length,
    restartPolicy: podSpec.restartPolicy,
    hostNetwork: podSpec.hostNetwork,
    hostPorts,
    // A DaemonSet controller sets its own node affinity per pod; a static pod's manifest names its node.
    nodeName: spec.kind === 'DaemonSet' ? undefined : podSpec.nodeName,
  });
  const services = servicesSelecting(store, spec.namespace, template.labels);
  const desired = hasReplicas(spec)
    ? fewestPods(spec, { horizontalPodAutoscalers: autoscalers })
    : spec.kind === 'Job' || spec.kind === 'CronJob' ? wantActive(spec, 0) : spec.kind === 'Pod' ? 1 : 0;
  const workload: SimWorkload = {
    kind: spec.kind, name: spec.name, namespace: spec.namespace, ref: { kind: spec.kind, name: spec.name, namespace: spec.namespace }, readyPods: 0,
    spec, template, desired, pods: [], created: 0,
    services, podTemplateHash: nameSuffix(`${spec.namespace}/${spec.name}/template`, 10), failures: 0,
  };
  if (spec.kind === 'DaemonSet') workload.desired = workload.desiredNumberScheduled = store.nodes.filter((n) => DaemonSetController.shouldRun(workload, n).shouldRun).length;
  return workload;
}


/** The Services selecting the labels, through an index rebuilt when Services were added. */
function servicesSelecting(store: Store, namespace: string, labels: Record<string, string>): SimService[] {
  let index = serviceIndexes.get(store);
  if (!index || index.size !== store.services.length) serviceIndexes.set(store, (index = new ServiceIndex(store.services)));
  return index.selecting(namespace, labels);
}

const serviceIndexes = new WeakMap<Store, ServiceIndex<SimService>>();

/** manageJob's wantActive: parallelism, but no more pods than completions still to go. */
export function wantActive(spec: Job, succeeded: number): number {
  if (spec.completions === undefined) return spec.parallelism;
  return Math.max(0, Math.min(spec.parallelism, spec.completions - succeeded));
}
