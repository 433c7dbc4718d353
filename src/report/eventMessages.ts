/**
 * The message of each trace event, as `kubectl get events` shows it where Kubernetes writes one
 * (the simulator keeps those in detail.message), in plain words for the simulator's own notes.
 */
import type { FailureKind } from '../sim/scenario';
import type { TraceEvent } from '../sim/trace';
import { findKnob } from '../cluster/timing';
import { deletionTarget } from '../manifest/deletionTarget';
import { FAILURE_DESCRIPTIONS, RECOVERY_DESCRIPTIONS } from './failures';
import { formatCount, formatDuration } from './format';
import { objectEventMessage, taintText } from './objectEventMessages';

/** Why a graceful shutdown was a power-off: the trace's note, and the report header's. */
export function inertShutdownText(gateOff: boolean): string {
  return gateOff
    ? 'In Kubernetes 1.20 graceful node shutdown is alpha, its GracefulNodeShutdown gate off by default: the node goes down like a power-off (pkg/kubelet/nodeshutdown).'
    : 'kubelet.shutdownGracePeriod is 0s: graceful node shutdown is inert, the node goes down like a power-off (pkg/kubelet/nodeshutdown).';
}

export function eventMessage(event: TraceEvent): string {
  const d = event.detail ?? {};
  if (typeof d.message === 'string') return d.message;
  const { name } = event.object;
  switch (event.type) {
    case 'Fault': return d.inert ? `${name} shutting down, unnoticed by its kubelet: the host powers off` : `${name} ${FAILURE_DESCRIPTIONS[d.failure as FailureKind]}`;
    case 'Recovery': return d.cancelled ? `${name}: its shutdown is cancelled; the kubelet reports Ready once its pods are stopped` : `${name} ${RECOVERY_DESCRIPTIONS[d.failure as FailureKind]}`;
    case 'Intervention': return interventionMessage(event, d);
    case 'Note': return noteMessage(event, d);
    default: return objectEventMessage(event) ?? event.reason;
  }
}

function interventionMessage(event: TraceEvent, d: Record<string, unknown>): string {
  const { name } = event.object;
  switch (event.reason) {
    case 'ForceDelete': return `kubectl delete pod ${name} --force --grace-period=0`;
    case 'ForceDeleteSkipped': return `kubectl delete --force: ${skippedTarget(String(d.target))}`;
    case 'Delete': return `kubectl delete pod ${name} (grace period from the pod spec)`;
    case 'DeleteSkipped': return `kubectl delete: ${skippedTarget(String(d.target))}`;
    case 'OutOfService': return `kubectl taint node ${name} ${taintText(d)}`;
    case 'DeleteNode': return `kubectl delete node ${name}`;
    case 'ControllerManagerRestart': return 'kube-controller-manager restarts: its leader lease is lost, every controller of it stops and forgets its timers';
    default: return event.reason;
  }
}

function noteMessage(event: TraceEvent, d: Record<string, unknown>): string {
  switch (event.reason) {
    case 'LastHeartbeat':
      return `Heartbeats stop: the last lease renewal was ${formatDuration(event.t - Number(d.lastLeaseRenewalMs))} ago and the last node status post ${formatDuration(event.t - Number(d.lastStatusPostMs))} ago`;
    case 'Assumption': {
      const knob = findKnob(String(d.knob));
      const value = knob?.spec.type === 'duration' && typeof d.value === 'number' ? formatDuration(d.value) : d.value;
      return `Assumption ${d.knob}=${value} (${d.source}): ${knob?.spec.description.replace(/^Assumption \(([^)]*)\): /, '($1) ') ?? ''}`.trimEnd();
    }
    case 'GracefulShutdownInert':
      return inertShutdownText(Boolean(d.gateOff));
    case 'Autoscaled':
      return `HorizontalPodAutoscaler ${d.autoscaler} owns the replica count: simulated with its minReplicas ${d.minReplicas}, the fewest pods it keeps (spec.replicas is ${d.replicas}).`;
    case 'ReplacementsLimited':
      return `${event.object.kind}/${event.object.name} has created ${formatCount(Number(d.limit))} replacements: the simulator creates no more (Kubernetes would go on replacing each one evicted).`;
    case 'MasterDisruptionMode':
      return 'All zones are fully disrupted: the node lifecycle controller removes NoExecute taints and stops evicting (master disruption mode).';
    case 'MasterDisruptionModeExit':
      return 'Some nodes are Ready again: the node lifecycle controller leaves master disruption mode and restarts every grace period.';
    case 'Normal': case 'PartialDisruption': case 'FullDisruption': {
      const qps = Number(d.qps);
      return `Zone ${d.zone} is now ${event.reason}: NoExecute tainting at ${qps > 0 ? `${qps} nodes/s` : 'no rate (stopped)'}.`;
    }
    default: return event.reason;
  }
}

/** Kind/name means that workload's pods on the failed nodes; a pod name, that pod. */
function skippedTarget(target: string): string {
  const { kind, name } = deletionTarget(target);
  if (kind === 'node' || kind === 'zone') return `no pod is on ${target} at this time`;
  return kind === 'workload' ? `no pod of ${target} is on a failed node at this time` : `no pod ${name} exists at this time`;
}
