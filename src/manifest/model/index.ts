import { groupOf, type ManifestObject } from '../objects';
import { API_REJECTED, type ManifestProblem } from '../problem';
import {
  containerComponent, readContainerFlags, readExtraArgs, readKubeletConfiguration, type ClusterConfig,
} from './clusterConfig';
import { FieldReader } from './fieldReader';
import {
  readHorizontalPodAutoscaler, readLimitRange, readNamespace, readNode, readPriorityClass, readPersistentVolume, readPersistentVolumeClaim, readPodDisruptionBudget, readService, readStorageClass,
} from './resources';
import type {
  HorizontalPodAutoscaler, LimitRange, Namespace, Node, PriorityClass, PersistentVolume, PersistentVolumeClaimSpec, PodDisruptionBudget, Service, Sourced, StorageClass, Workload,
} from './types';
import { readWorkload } from './workloads';

export interface ManifestModel {
  workloads: Sourced<Workload>[];
  persistentVolumeClaims: Sourced<PersistentVolumeClaimSpec>[];
  persistentVolumes: Sourced<PersistentVolume>[];
  storageClasses: Sourced<StorageClass>[];
  podDisruptionBudgets: Sourced<PodDisruptionBudget>[];
  horizontalPodAutoscalers: Sourced<HorizontalPodAutoscaler>[];
  limitRanges: Sourced<LimitRange>[];
  services: Sourced<Service>[];
  nodes: Sourced<Node>[];
  namespaces: Sourced<Namespace>[];
  priorityClasses: Sourced<PriorityClass>[];
  clusterConfig: ClusterConfig;
  /** Namespaces with custom resources (objects of an API group that is not Kubernetes' own): operators may run pods for them. */
  customResourceNamespaces: string[];
  /** A document of the input could not be read (a YAML error, a template, not UTF-8): what it holds is unknown. */
  unreadInput: boolean;
}

/** API groups of Kubernetes itself, and the configuration files' groups. */
const BUILT_IN_GROUP = /^(v1|apps\/|batch\/|policy\/|autoscaling\/|extensions\/|([a-z0-9-]+\.)*k8s\.io\/)/;

export function emptyModel(): ManifestModel {
  return {
    workloads: [], persistentVolumeClaims: [], persistentVolumes: [], storageClasses: [],
    podDisruptionBudgets: [], horizontalPodAutoscalers: [], limitRanges: [], services: [], nodes: [], namespaces: [], priorityClasses: [],
    clusterConfig: { kubelet: [], controllerManager: [], apiServer: [], imageVersions: [] },
    customResourceNamespaces: [],
    unreadInput: false,
  };
}

/**
 * The group/version each built-in kind the model reads is served in from Kubernetes 1.16 (the
 * simulator knows 1.20 on), and the versions of its group that were removed by then.
 */
const SERVED: Record<string, { apiVersion: string; removed: readonly string[] }> = {
  Deployment: { apiVersion: 'apps/v1', removed: ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'] },
  StatefulSet: { apiVersion: 'apps/v1', removed: ['apps/v1beta1', 'apps/v1beta2'] },
  DaemonSet: { apiVersion: 'apps/v1', removed: ['extensions/v1beta1', 'apps/v1beta2'] },
  ReplicaSet: { apiVersion: 'apps/v1', removed: ['extensions/v1beta1', 'apps/v1beta2'] },
  Job: { apiVersion: 'batch/v1', removed: [] },
  Pod: { apiVersion: 'v1', removed: [] },
  Service: { apiVersion: 'v1', removed: [] },
  Node: { apiVersion: 'v1', removed: [] },
  PersistentVolumeClaim: { apiVersion: 'v1', removed: [] },
  PersistentVolume: { apiVersion: 'v1', removed: [] },
  Namespace: { apiVersion: 'v1', removed: [] },
};

/**
 * Whether the object is the built-in kind its name says. Another group's kind of the same name (a
 * Knative Service) is not; a version of the kind's own group that is not served is refused by the
 * API server (`no matches for kind "Deployment" in version "extensions/v1beta1"`), reported here.
 */
function isServedBuiltIn(object: ManifestObject, problems: ManifestProblem[]): boolean {
  const served = SERVED[object.kind];
  if (!served || object.apiVersion === served.apiVersion) return true;
  const removed = served.removed.includes(object.apiVersion);
  if (!removed && groupOf(object.apiVersion) !== groupOf(served.apiVersion)) return false;
  problems.push({
    ruleId: API_REJECTED, severity: 'error', range: object.sourceMap.closestRange(['apiVersion']), object: { kind: object.kind, name: object.name, namespace: object.namespace },
    message: `The API server rejects this ${object.kind}: Kubernetes does not serve ${object.apiVersion}${removed ? ' (removed in 1.16)' : ''}: kubectl apply fails with no matches for kind "${object.kind}" in version "${object.apiVersion}". Write apiVersion: ${served.apiVersion}.`,
  });
  return false;
}

/** Reads the typed model of a file's objects; wrong field types become problems, never exceptions. */
export function buildModel(objects: ManifestObject[], problems: ManifestProblem[]): ManifestModel {
  const model = emptyModel();
  for (const object of objects) {
    if (!BUILT_IN_GROUP.test(object.apiVersion) && !model.customResourceNamespaces.includes(object.namespace)) model.customResourceNamespaces.push(object.namespace);
    // A kustomize patch that deletes the object: nothing of it runs.
    if (!isServedBuiltIn(object, problems) || object.value.$patch === 'delete') continue;
    const r = new FieldReader(object, problems);
    const sourced = <T>(value: T): Sourced<T> => ({ ...value, source: object });
    switch (object.kind) {
      case 'PersistentVolumeClaim':
        model.persistentVolumeClaims.push(sourced(readPersistentVolumeClaim(r)));
        break;
      case 'PersistentVolume':
        model.persistentVolumes.push(sourced(readPersistentVolume(r)));
        break;
      case 'StorageClass':
        model.storageClasses.push(sourced(readStorageClass(r)));
        break;
      case 'PodDisruptionBudget':
        model.podDisruptionBudgets.push(sourced(readPodDisruptionBudget(r)));
        break;
      case 'HorizontalPodAutoscaler':
        model.horizontalPodAutoscalers.push(sourced(readHorizontalPodAutoscaler(r)));
        break;
      case 'LimitRange':
        model.limitRanges.push(sourced(readLimitRange(r)));
        break;
      case 'Service':
        model.services.push(sourced(readService(r)));
        break;
      case 'Node':
        model.nodes.push(sourced(readNode(r)));
        break;
      case 'Namespace':
        model.namespaces.push(sourced(readNamespace(r)));
        break;
      case 'PriorityClass': {
        const priorityClass = groupOf(object.apiVersion) === 'scheduling.k8s.io' ? readPriorityClass(r) : undefined;
        if (!priorityClass) break;
        // The priority admission plugin refuses a second global default.
        const existing = priorityClass.globalDefault && model.priorityClasses.find((c) => c.globalDefault);
        if (existing) r.report(['globalDefault'], `The API server refuses a second global default PriorityClass: ${existing.name} already is one.`);
        else model.priorityClasses.push(sourced(priorityClass));
        break;
      }
      case 'KubeletConfiguration':
        model.clusterConfig.kubelet.push(...readKubeletConfiguration(r, object.apiVersion));
        break;
      case 'ClusterConfiguration':
        readKubeadmClusterConfiguration(r, model.clusterConfig);
        break;
      default: {
        // Control-plane static pods configure the cluster; they are not workloads to fail over.
        if (object.kind === 'Pod' && readStaticPodFlags(r, model.clusterConfig)) break;
        const workload = readWorkload(r);
        if (workload) model.workloads.push(sourced(workload));
      }
    }
  }
  return model;
}

/** Control-plane static pods (kubeadm writes them to /etc/kubernetes/manifests); true if the Pod is one. */
function readStaticPodFlags(r: FieldReader, config: ClusterConfig): boolean {
  let controlPlane = false;
  for (const container of r.objectList('spec', 'containers')) {
    const component = containerComponent(container);
    if (component === 'kube-controller-manager') config.controllerManager.push(...readContainerFlags(container, component));
    if (component === 'kube-apiserver') config.apiServer.push(...readContainerFlags(container, component));
    if (component) controlPlane = true;
    const tag = component && /:(v1\.[0-9]+\.[0-9]+)(?:[-+@]|$)/.exec(container.string('image') ?? '');
    if (tag) config.imageVersions.push({ name: 'image', value: tag[1], range: container.range('image') });
  }
  return controlPlane;
}

function readKubeadmClusterConfiguration(r: FieldReader, config: ClusterConfig): void {
  config.controllerManager.push(...readExtraArgs(r.at('controllerManager'), 'kube-controller-manager'));
  config.apiServer.push(...readExtraArgs(r.at('apiServer'), 'kube-apiserver'));
  const version = r.string('kubernetesVersion');
  // kubeadm also takes a release label: stable-1.30 (or latest-1.30, ci/latest-1.30) is the newest 1.30.
  const label = version === undefined ? undefined : /^(?:ci\/|release\/)?(?:stable|latest)-(1\.\d+)$/.exec(version);
  if (version !== undefined) config.kubernetesVersion = { name: 'kubernetesVersion', value: label ? label[1] : version, range: r.range('kubernetesVersion') };
}
