/**
 * The words of the events objects go through (pods, nodes, endpoints, volumes), from the event
 * alone: the HTML report's page words them again instead of carrying them (packedTrace.ts), so
 * this imports nothing. Undefined for the simulator's notes, faults and interventions.
 */
import type { TraceEvent } from '../sim/trace';

const DETACH_CAUSES: Record<string, string> = {
  unmounted: 'unmounted by the kubelet',
  'out-of-service': 'node has the out-of-service taint',
  'force-detach-timeout': 'force detach after 6 minutes: the node is not Ready',
};

const STOP_CAUSES: Record<string, (pod: string, node: string) => string> = {
  housekeeping: (pod, node) => `Housekeeping on ${node} killed the containers of deleted pod ${pod}`,
  deleted: (pod) => `Stopping container: pod ${pod} is being deleted`,
  shutdown: (pod, node) => `Stopping container: ${node} is shutting down (graceful node shutdown), pod ${pod} ends Failed`,
  liveness: (pod) => `Container of ${pod} failed its liveness probe, will be restarted`,
};

export function taintText(detail: Record<string, unknown>): string {
  return `${detail.key}${detail.value ? `=${detail.value}` : ''}:${detail.effect}`;
}

export function objectEventMessage(event: TraceEvent): string | undefined {
  const d = event.detail ?? {};
  if (typeof d.message === 'string') return d.message;
  const { name, namespace } = event.object;
  switch (event.type) {
    case 'PodCreated': return `Created pod: ${name}`;
    case 'PodScheduled': return `Successfully assigned ${namespace}/${name} to ${d.node}`;
    case 'PodRunning': return `Container running on ${d.node} with IP ${d.ip ?? '<none>'}`;
    case 'PodRestarted': return `Container restarted in place (restart ${d.restartCount}) with IP ${d.ip ?? '<none>'}`;
    case 'PodFailed': return `Pod phase Failed${d.reason ? ` (${d.reason})` : d.containerReason ? ` (container ${d.containerReason})` : ''}`;
    case 'PodReady': return 'Pod is Ready';
    case 'PodCondition': return event.reason === 'NodeNotReady' ? 'Ready=False (Node is not ready)' : 'Ready=False';
    case 'PodDeletionStarted': return `Deletion requested by ${d.by} with grace period ${d.gracePeriodSeconds}s; the object stays until the kubelet confirms`;
    case 'PodRemoved': return `Pod object removed (${d.by})`;
    case 'PodStopped': return STOP_CAUSES[String(d.cause)]?.(name, String(d.node)) ?? `Stopping container: pod ${name} is being deleted`;
    case 'TaintAdded': return `Taint ${taintText(d)} added by ${d.by}`;
    case 'TaintRemoved': return `Taint ${taintText(d)} removed by ${d.by}`;
    case 'NodeDeleted': return `Node ${name} deleted by ${d.by}`;
    case 'EndpointChanged': return d.removed
      ? `Endpoint of ${d.pod} removed`
      : `Endpoint ${d.ip} (${d.pod}) ${d.added ? 'added:' : 'now'} ready=${d.ready} serving=${d.serving} terminating=${d.terminating}`;
    case 'VolumeDetached': return `Volume ${name} detached from ${d.node} (${DETACH_CAUSES[String(d.cause)] ?? 'detach'})`;
    case 'VolumeAttached': return `Volume ${name} attached to ${d.node}`;
    default: return undefined;
  }
}
