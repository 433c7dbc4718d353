import type { ManifestObject } from '../objects';
import type { ManifestProblem } from '../problem';
import {
  containerComponent, readContainerFlags, readExtraArgs, readKubeletConfiguration, type ClusterConfig,
} from './clusterConfig';
import { FieldReader } from './fieldReader';
import {
  readHorizontalPodAutoscaler, readNode, readPersistentVolume, readPersistentVolumeClaim, readPodDisruptionBudget, readService, readStorageClass,
} from './resources';
import type {
  HorizontalPodAutoscaler, Node, PersistentVolume, PersistentVolumeClaimSpec, PodDisruptionBudget, Service, Sourced, StorageClass, Workload,
} from './types';
import { readWorkload } from './workloads';

export interface ManifestModel {
  workloads: Sourced<Workload>[];
  persistentVolumeClaims: Sourced<PersistentVolumeClaimSpec>[];
  persistentVolumes: Sourced<PersistentVolume>[];
  storageClasses: Sourced<StorageClass>[];
  podDisruptionBudgets: Sourced<PodDisruptionBudget>[];
  horizontalPodAutoscalers: Sourced<HorizontalPodAutoscaler>[];
  services: Sourced<Service>[];
  nodes: Sourced<Node>[];
  clusterConfig: ClusterConfig;
  /** Namespaces with custom resources (objects of an API group that is not Kubernetes' own): operators may run pods for them. */
  customResourceNamespaces: string[];
}

/** API groups of Kubernetes itself, and the configuration files' groups. */
const BUILT_IN_GROUP = /^(v1|apps\/|batch\/|policy\/|autoscaling\/|extensions\/|([a-z0-9-]+\.)*k8s\.io\/)/;

export function emptyModel(): ManifestModel {
  return {
    workloads: [], persistentVolumeClaims: [], persistentVolumes: [], storageClasses: [],
    podDisruptionBudgets: [], horizontalPodAutoscalers: [], services: [], nodes: [],
    clusterConfig: { kubelet: [], controllerManager: [], apiServer: [] },
    customResourceNamespaces: [],
  };
}

/** Reads the typed model of a file's objects; wrong field types become problems, never exceptions. */
export function buildModel(objects: ManifestObject[], problems: ManifestProblem[]): ManifestModel {
  const model = emptyModel();
  for (const object of objects) {
    if (!BUILT_IN_GROUP.test(object.apiVersion) && !model.customResourceNamespaces.includes(object.namespace)) model.customResourceNamespaces.push(object.namespace);
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
      case 'Service':
        model.services.push(sourced(readService(r)));
        break;
      case 'Node':
        model.nodes.push(sourced(readNode(r)));
        break;
      case 'KubeletConfiguration':
        model.clusterConfig.kubelet.push(...readKubeletConfiguration(r));
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
    if (tag && !config.imageVersion) config.imageVersion = { name: 'image', value: tag[1], range: container.range('image') };
  }
  return controlPlane;
}

function readKubeadmClusterConfiguration(r: FieldReader, config: ClusterConfig): void {
  config.controllerManager.push(...readExtraArgs(r.at('controllerManager'), 'kube-controller-manager'));
  config.apiServer.push(...readExtraArgs(r.at('apiServer'), 'kube-apiserver'));
  const version = r.string('kubernetesVersion');
  if (version !== undefined) config.kubernetesVersion = { name: 'kubernetesVersion', value: version, range: r.range('kubernetesVersion') };
}
