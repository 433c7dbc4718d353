/**
 * The priority admission plugin (plugin/pkg/admission/priority): a pod gets the value and
 * preemptionPolicy of the PriorityClass it names; naming none, those of the lowest global default
 * class, else priority 0 and PreemptLowerPriority. The two system classes exist in every cluster.
 */
import { SYSTEM_PRIORITY_CLASSES } from '../manifest/model/resources';
import type { PriorityClass } from '../manifest/model/types';

export interface PodPriority {
  value: number;
  preemptionPolicy: PriorityClass['preemptionPolicy'];
}

/** IsCriticalPodBasedOnPriority: system-cluster-critical's value and up. */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

const NO_DEFAULT: PodPriority = { value: 0, preemptionPolicy: 'PreemptLowerPriority' };

/**
 * Undefined when the pod names a class the input does not declare: the cluster has it (else the
 * API server refuses the pod), but its value is unknown, so the simulator neither preempts for
 * such a pod nor chooses it as a victim. A cluster's global default class the input does not
 * declare is likewise unknown: the input's classes are taken as all there are.
 */
export function admitPriority(className: string | undefined, classes: readonly PriorityClass[]): PodPriority | undefined {
  if (className === undefined) {
    let lowest: PriorityClass | undefined;
    for (const c of classes) if (c.globalDefault && (!lowest || c.value < lowest.value)) lowest = c;
    return lowest ? { value: lowest.value, preemptionPolicy: lowest.preemptionPolicy } : NO_DEFAULT;
  }
  const found = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === className) ?? classes.find((c) => c.name === className);
  return found && { value: found.value, preemptionPolicy: found.preemptionPolicy };
}
