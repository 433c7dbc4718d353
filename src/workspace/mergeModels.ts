/** The objects and cluster configuration of several documents, as one model (in document order). */
import { emptyModel, type ManifestModel } from '../manifest/model';
import type { ClusterConfig } from '../manifest/model/clusterConfig';

export function mergeClusterConfig(configs: ClusterConfig[]): ClusterConfig {
  return {
    kubelet: configs.flatMap((c) => c.kubelet),
    controllerManager: configs.flatMap((c) => c.controllerManager),
    apiServer: configs.flatMap((c) => c.apiServer),
    kubernetesVersion: configs.find((c) => c.kubernetesVersion)?.kubernetesVersion,
    imageVersions: configs.flatMap((c) => c.imageVersions),
  };
}

export function mergeModels(models: ManifestModel[]): ManifestModel {
  const merged = emptyModel();
  for (const model of models) {
    merged.workloads.push(...model.workloads);
    merged.persistentVolumeClaims.push(...model.persistentVolumeClaims);
    merged.persistentVolumes.push(...model.persistentVolumes);
    merged.storageClasses.push(...model.storageClasses);
    merged.podDisruptionBudgets.push(...model.podDisruptionBudgets);
    merged.horizontalPodAutoscalers.push(...model.horizontalPodAutoscalers);
    merged.limitRanges.push(...model.limitRanges);
    merged.services.push(...model.services);
    merged.nodes.push(...model.nodes);
    merged.namespaces.push(...model.namespaces);
    merged.priorityClasses.push(...model.priorityClasses);
    for (const namespace of model.customResourceNamespaces) if (!merged.customResourceNamespaces.includes(namespace)) merged.customResourceNamespaces.push(namespace);
    merged.unreadInput ||= model.unreadInput;
  }
  merged.clusterConfig = mergeClusterConfig(models.map((m) => m.clusterConfig));
  return merged;
}
