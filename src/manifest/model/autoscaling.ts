/**
 * How many pods a workload runs when a HorizontalPodAutoscaler owns its replica count. The
 * analysis and the simulator both read it here, so a lens and a timeline count the same pods.
 */
import type { HorizontalPodAutoscaler, Workload } from './types';

/** Workloads whose replicas field decides how many pods run. */
export function hasReplicas(workload: Workload): workload is Extract<Workload, { replicas: number }> {
  return workload.kind === 'Deployment' || workload.kind === 'ReplicaSet' || workload.kind === 'ReplicationController' || workload.kind === 'StatefulSet';
}

/** The HorizontalPodAutoscaler that owns the workload's replica count, if one of the input targets it. */
export function autoscalerOf(workload: Workload, model: { horizontalPodAutoscalers: readonly HorizontalPodAutoscaler[] }): HorizontalPodAutoscaler | undefined {
  if (!hasReplicas(workload)) return undefined;
  return model.horizontalPodAutoscalers.find((h) => h.namespace === workload.namespace && h.target.kind === workload.kind && h.target.name === workload.name);
}

/**
 * The fewest pods the workload runs: its autoscaler's minReplicas, else its replicas (1 for a
 * single pod). replicas 0 stays 0: the autoscaler does not scale a target at zero
 * (horizontal.go reconcileAutoscaler, condition ScalingActive=False "ScalingDisabled").
 */
export function fewestPods(workload: Workload, model: { horizontalPodAutoscalers: readonly HorizontalPodAutoscaler[] }): number {
  if (!hasReplicas(workload)) return 1;
  if (workload.replicas === 0) return 0;
  return autoscalerOf(workload, model)?.minReplicas ?? workload.replicas;
}
