/**
 * The workloads a target names: `Kind/name`, or `Kind/namespace/name` where workloads of that
 * kind and name live in several namespaces.
 */
import type { ObjectRef } from './trace';

export function workloadsNamed<W extends ObjectRef>(workloads: readonly W[], target: string): W[] {
  const slash = target.indexOf('/');
  const kind = target.slice(0, slash).toLowerCase();
  const rest = target.slice(slash + 1);
  const ofKind = workloads.filter((w) => w.kind.toLowerCase() === kind);
  // A name the API server would refuse may hold a slash: Kind/name first, then Kind/namespace/name.
  const named = ofKind.filter((w) => w.name === rest);
  if (named.length > 0) return named;
  const second = rest.indexOf('/');
  return second < 0 ? [] : ofKind.filter((w) => w.namespace === rest.slice(0, second) && w.name === rest.slice(second + 1));
}
