/**
 * The workloads a target names: `Kind/name`, or `Kind/namespace/name` where workloads of that
 * kind and name live in several namespaces (a name holds no slash, so the forms cannot clash).
 */
import type { ObjectRef } from './trace';

export function workloadsNamed<W extends ObjectRef>(workloads: readonly W[], target: string): W[] {
  const slash = target.indexOf('/');
  const kind = target.slice(0, slash).toLowerCase();
  const rest = target.slice(slash + 1);
  const second = rest.indexOf('/');
  const namespace = second < 0 ? undefined : rest.slice(0, second);
  const name = second < 0 ? rest : rest.slice(second + 1);
  return workloads.filter((w) => w.kind.toLowerCase() === kind && w.name === name && (namespace === undefined || w.namespace === namespace));
}
