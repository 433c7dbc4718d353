/**
 * The priority admission plugin (plugin/pkg/admission/priority): a pod gets the value and
 * preemptionPolicy of the PriorityClass it names; naming none, those of the lowest global default
 * class, else priority 0 and PreemptLowerPriority. The two system classes exist in every cluster.
 */
import type { PriorityClass } from '../manifest/model/types';

export interface PodPriority {
  value: number;
  preemptionPolicy: PriorityClass['preemptionPolicy'];
}

const SYSTEM_CLASSES: readonly PriorityClass[] = [
  { name: 'system-cluster-critical', value: 2_000_000_000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
  { name: 'system-node-critical', value: 2_000_001_000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
];

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
  const found = classes.find((c) => c.name === className) ?? SYSTEM_CLASSES.find((c) => c.name === className);
  return found && { value: found.value, preemptionPolicy: found.preemptionPolicy };
}
