/** Workloads named as a user can tell them apart (and name them as targets, src/sim/workloadTarget.ts). */
import type { ObjectRef } from '../sim/trace';

/** The Kind/name of workloads that several namespaces have. */
export function sharedNames(workloads: readonly ObjectRef[]): Set<string> {
  const namespaces = new Map<string, Set<string>>();
  for (const w of workloads) {
    const key = `${w.kind}/${w.name}`;
    namespaces.set(key, (namespaces.get(key) ?? new Set()).add(w.namespace));
  }
  return new Set([...namespaces].filter(([, set]) => set.size > 1).map(([key]) => key));
}

/** How to name each workload: Kind/name, or Kind/namespace/name where another namespace has the same Kind/name. */
export function workloadLabeler(workloads: readonly ObjectRef[]): (w: ObjectRef) => string {
  const shared = sharedNames(workloads);
  return (w) => (shared.has(`${w.kind}/${w.name}`) ? `${w.kind}/${w.namespace}/${w.name}` : `${w.kind}/${w.name}`);
}
