/**
 * What a deletion (--force-delete, --delete, a scenario's forceDelete) names: a pod (NAME or
 * pod/NAME), every pod on a node or in a zone (node/NAME, zone/NAME), or a workload's pods on the
 * failed nodes (Kind/name). One reading for the simulator and the words that report it.
 */
export interface DeletionTarget {
  kind: 'pod' | 'node' | 'zone' | 'workload';
  /** The pod's, node's or zone's name; for a workload, the target as written (Kind/name or Kind/namespace/name). */
  name: string;
}

export function deletionTarget(target: string): DeletionTarget {
  const slash = target.indexOf('/');
  if (slash < 0) return { kind: 'pod', name: target };
  const kind = target.slice(0, slash).toLowerCase();
  return kind === 'pod' || kind === 'node' || kind === 'zone' ? { kind, name: target.slice(slash + 1) } : { kind: 'workload', name: target };
}
