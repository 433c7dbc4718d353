/**
 * Taints and tolerations as the API types define them (core/v1 Toleration.ToleratesTaint),
 * the taint eviction controller's matching (GetMatchingTolerations, getMinTolerationTime),
 * and the tolerations added at pod creation: DefaultTolerationSeconds admission and the
 * DaemonSet controller's.
 */
import type { Taint, Toleration } from '../manifest/model/types';

export const NOT_READY = 'node.kubernetes.io/not-ready';
export const UNREACHABLE = 'node.kubernetes.io/unreachable';
export const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';
export const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== '' && toleration.effect !== taint.effect) return false;
  if (toleration.key !== '' && toleration.key !== taint.key) return false;
  return toleration.operator === 'Exists' || toleration.value === taint.value;
}

/** The first toleration (in spec order) for each taint; undefined if some taint is not tolerated. */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): Toleration[] | undefined {
  const result: Toleration[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => toleratesTaint(t, taint));
    if (!match) return undefined;
    result.push(match);
  }
  return result;
}

/** Milliseconds a pod may stay; -1 means forever (no matching toleration has seconds). */
export function minTolerationMs(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export const SCHEDULING_EFFECTS: readonly string[] = ['NoSchedule', 'NoExecute'];
export const EXECUTE_EFFECT: readonly string[] = ['NoExecute'];

/** The first taint with one of the (one or two) effects that no toleration tolerates. */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): Taint | undefined {
  for (const taint of taints) {
    if (taint.effect !== effects[0] && taint.effect !== effects[1]) continue;
    let tolerated = false;
    for (const toleration of tolerations) {
      if (toleratesTaint(toleration, taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) return taint;
  }
  return undefined;
}

/** DefaultTolerationSeconds admission: pods that do not tolerate the NotReady taints get them for N seconds. */
export function withDefaultTolerations(tolerations: readonly Toleration[], notReadySeconds: number, unreachableSeconds: number): Toleration[] {
  const result = [...tolerations];
  const probe = (key: string): Taint => ({ key, value: '', effect: 'NoExecute' });
  if (!tolerations.some((t) => toleratesKeyAndEffect(t, probe(NOT_READY)))) {
    result.push({ key: NOT_READY, operator: 'Exists', value: '', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
  }
  if (!tolerations.some((t) => toleratesKeyAndEffect(t, probe(UNREACHABLE)))) {
    result.push({ key: UNREACHABLE, operator: 'Exists', value: '', effect: 'NoExecute', tolerationSeconds: unreachableSeconds });
  }
  return result;
}

/** The admission plugin matches on key and effect only (an empty key or effect matches all). */
function toleratesKeyAndEffect(toleration: Toleration, taint: Taint): boolean {
  return (toleration.effect === '' || toleration.effect === taint.effect) && (toleration.key === '' || toleration.key === taint.key);
}

/**
 * The kubelet gives a static pod a toleration of every NoExecute taint when it reads its file
 * (applyDefaults, pkg/kubelet/config/common.go), and its mirror object carries it: no taint evicts it.
 */
export function withStaticPodToleration(tolerations: readonly Toleration[]): Toleration[] {
  const every: Toleration = { key: '', operator: 'Exists', value: '', effect: 'NoExecute' };
  return tolerations.some((t) => !t.key && t.operator === 'Exists' && t.effect === 'NoExecute') ? [...tolerations] : [...tolerations, every];
}

/** AddOrUpdateDaemonPodTolerations: daemon pods stay on failed, pressured and cordoned nodes. */
export function withDaemonSetTolerations(tolerations: readonly Toleration[], hostNetwork: boolean): Toleration[] {
  const added: Toleration[] = [
    { key: NOT_READY, operator: 'Exists', value: '', effect: 'NoExecute' },
    { key: UNREACHABLE, operator: 'Exists', value: '', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', value: '', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', value: '', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', value: '', effect: 'NoSchedule' },
    { key: UNSCHEDULABLE, operator: 'Exists', value: '', effect: 'NoSchedule' },
  ];
  if (hostNetwork) added.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', value: '', effect: 'NoSchedule' });
  let result = [...tolerations];
  for (const toleration of added) {
    // AddOrUpdateTolerationInPodSpec: a toleration with the same key, operator, value and effect is replaced.
    const same = (t: Toleration) => t.key === toleration.key && t.operator === toleration.operator && t.value === toleration.value && t.effect === toleration.effect;
    result = result.some(same) ? result.map((t) => (same(t) ? toleration : t)) : [...result, toleration];
  }
  return result;
}
