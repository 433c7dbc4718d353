/**
 * What `kubectl get` prints (pkg/printers/internalversion/printers.go printPod, printNode),
 * SEMANTICS.md 5.
 */
import type { SimNode, SimPod } from './objects';

export function podStatus(pod: SimPod): string {
  let reason: string = pod.reason ?? pod.phase;
  if (pod.containerReason && (pod.containerState === 'waiting' || pod.containerState === 'terminated')) reason = pod.containerReason;
  const terminal = pod.phase === 'Succeeded' || pod.phase === 'Failed';
  // The legacy NodeLost reason shows Unknown whatever the phase; only Terminating spares a terminal pod.
  if (pod.deletionTimestamp !== undefined && pod.reason === 'NodeLost') return 'Unknown';
  if (pod.deletionTimestamp !== undefined && !terminal) return 'Terminating';
  return reason;
}

const READY_TEXT: string[][] = [];

export function podReady(pod: SimPod): string {
  const total = pod.template.containerCount;
  const ready = pod.containersReady && pod.containerState === 'running' ? total : 0;
  const texts = (READY_TEXT[total] ??= []);
  return (texts[ready] ??= `${ready}/${total}`);
}

/** kubectl shows NotReady for Ready=False and Ready=Unknown. */
export function nodeStatus(node: SimNode): string {
  const status = node.ready === 'True' ? 'Ready' : 'NotReady';
  return node.unschedulable ? `${status},SchedulingDisabled` : status;
}

export function formatTaint(taint: { key: string; value: string; effect: string }): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}
