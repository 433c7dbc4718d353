/** From manifests and command-line choices to a simulation scenario (the bridge between the model and the simulator). */
import { clusterFromNodes, defaultCluster, type ClusterSpec } from '../cluster/clusterSpec';
import { KNOB_BY_NAME } from '../cluster/knobs';
import { DEFAULT_VERSION, parseKubernetesVersion } from '../cluster/kubernetesVersion';
import { resolveTiming, type TimingSetting } from '../cluster/timing';
import { emptyModel, type ManifestModel } from '../manifest/model';
import type { ClusterConfig, ConfigSetting } from '../manifest/model/clusterConfig';
import type { Range } from '../manifest/range';
import type { FailureKind, Intervention, Scenario } from '../sim/scenario';
import { mergeClusterConfig } from './analyseText';

export interface SimulationOptions {
  failure: FailureKind;
  targets: string[];
  preFailureMs: number;
  recoverAfterMs?: number;
  interventions: Intervention[];
  durationMs: number;
  profile?: string;
  /** --k8s-version; otherwise the kubeadm ClusterConfiguration's, otherwise the newest. */
  version?: string;
  /** From cluster configuration files, in order. */
  fileSettings: TimingSetting[];
  /** --set knob=value. */
  overrides: TimingSetting[];
  /** Node objects (--cluster, or Node objects among the inputs); empty: the default cluster. */
  clusterSource?: ClusterSpec;
  seed: number;
}

/** The default run: a power-off of the first workload's node, watched for 20 minutes, seed 1. */
export function defaultSimulationOptions(): SimulationOptions {
  return { failure: 'power-off', targets: [], preFailureMs: 0, interventions: [], durationMs: 20 * 60_000, fileSettings: [], overrides: [], seed: 1 };
}

export class ScenarioInputError extends Error {}

/** Concatenates the models of several files. */
export function mergeModels(models: ManifestModel[]): ManifestModel {
  const merged = emptyModel();
  for (const model of models) {
    merged.workloads.push(...model.workloads);
    merged.persistentVolumeClaims.push(...model.persistentVolumeClaims);
    merged.persistentVolumes.push(...model.persistentVolumes);
    merged.storageClasses.push(...model.storageClasses);
    merged.podDisruptionBudgets.push(...model.podDisruptionBudgets);
    merged.services.push(...model.services);
    merged.nodes.push(...model.nodes);
  }
  merged.clusterConfig = mergeClusterConfig(models.map((m) => m.clusterConfig));
  return merged;
}

/** Timing settings from KubeletConfiguration fields and component flags the simulator knows; `where` labels their source. */
export function clusterConfigSettings(config: ClusterConfig, where: (range: Range) => string): TimingSetting[] {
  const settings: TimingSetting[] = [];
  const add = (prefix: string, list: ConfigSetting[]) => {
    for (const s of list) if (KNOB_BY_NAME.has(`${prefix}.${s.name}`)) settings.push({ name: `${prefix}.${s.name}`, value: s.value, source: where(s.range) });
  };
  add('kubelet', config.kubelet);
  add('kcm', config.controllerManager);
  add('apiserver', config.apiServer);
  return settings;
}

/** What a scenario needs from the manifests (a ManifestModel has it, with source ranges on top). */
export type ScenarioInputs = Pick<Scenario, 'workloads' | 'services' | 'persistentVolumeClaims' | 'persistentVolumes' | 'storageClasses'>
  & Pick<ManifestModel, 'nodes' | 'clusterConfig'>;

export function buildScenario(model: ScenarioInputs, options: SimulationOptions): Scenario {
  const versionText = options.version ?? (typeof model.clusterConfig.kubernetesVersion?.value === 'string' ? model.clusterConfig.kubernetesVersion.value : DEFAULT_VERSION);
  const version = parseKubernetesVersion(versionText);
  if (typeof version === 'string') throw new ScenarioInputError(version);
  const timing = resolveTiming({ version, profile: options.profile, settings: [...options.fileSettings, ...options.overrides] });
  const names = new Set<string>();
  for (const w of model.workloads) {
    const key = `${w.kind}/${w.namespace}/${w.name}`;
    if (names.has(key)) throw new ScenarioInputError(`${w.kind} ${w.namespace}/${w.name} appears twice in the input.`);
    names.add(key);
  }
  if (model.workloads.length === 0) throw new ScenarioInputError('The input has no workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod) to simulate.');
  const cluster = options.clusterSource ?? (model.nodes.length > 0 ? clusterFromNodes(model.nodes, 'Node objects in the input') : defaultCluster());
  return {
    workloads: model.workloads,
    services: model.services,
    persistentVolumeClaims: model.persistentVolumeClaims,
    persistentVolumes: model.persistentVolumes,
    storageClasses: model.storageClasses,
    cluster,
    timing,
    faults: [{ kind: options.failure, targets: options.targets, atMs: 0, recoverAfterMs: options.recoverAfterMs }],
    interventions: options.interventions,
    durationMs: options.durationMs,
    preFailureMs: options.preFailureMs,
    seed: options.seed,
  };
}
