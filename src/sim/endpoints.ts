/**
 * The EndpointSlice controller (staging/src/k8s.io/endpointslice): one endpoint per pod of a
 * Service that has an IP and is not terminal, with serving = pod Ready, terminating =
 * deletionTimestamp set, ready = publishNotReadyAddresses || (serving && !terminating)
 * (SEMANTICS.md 9).
 */
import { leaderOf, type SimContext } from './context';
import { ApiClient, Informer } from './latency';
import type { EndpointState, SimPod, SimService } from './objects';

export class EndpointSliceController {
  private readonly client: ApiClient;

  constructor(private readonly ctx: SimContext) {
    const { store } = ctx;
    const random = ctx.random.fork('endpointslice-controller');
    this.client = new ApiClient(ctx, random);
    const leader = leaderOf(ctx);
    const informer = new Informer<SimPod>(ctx, random, (pod) => leader.leading && this.syncPod(pod));
    leader.onAcquired(() => {
      for (const pod of store.livePods()) if (this.servicesOf(pod).length > 0) informer.notify(pod);
    });
    // The initial list: endpoints of the pods running before the failure, walked once.
    const initial = new Map(store.services.map((s) => [s, new Map<SimPod, EndpointState>()]));
    for (const pod of store.livePods()) {
      for (const service of this.servicesOf(pod)) {
        const endpoint = endpointFor(pod, service);
        if (endpoint) initial.get(service)!.set(pod, endpoint);
      }
    }
    for (const [service, endpoints] of initial) store.initEndpoints(service, endpoints);
    store.onPod((pod) => {
      if (this.servicesOf(pod).length > 0) informer.notify(pod);
    });
  }

  /** Every pod has an owner (a bare Pod owns itself), whose Services were matched once. */
  private servicesOf(pod: SimPod): SimService[] {
    return pod.owner?.services ?? [];
  }

  private syncPod(pod: SimPod): void {
    for (const service of this.servicesOf(pod)) {
      if (sameEndpoint(service.endpoints.get(pod), endpointFor(pod, service))) continue;
      this.client.write(() => {
        const now = endpointFor(pod, service);
        if (!sameEndpoint(service.endpoints.get(pod), now)) this.ctx.store.setEndpoint(service, pod, now);
      });
    }
  }
}

/** podToEndpoint, or undefined when the pod is not an endpoint (no IP, terminal, gone). */
export function endpointFor(pod: SimPod, service: SimService): EndpointState | undefined {
  if (pod.removed || !pod.ip || pod.phase === 'Failed' || pod.phase === 'Succeeded') return undefined;
  const serving = pod.readyCondition;
  const terminating = pod.deletionTimestamp !== undefined;
  const ready = service.publishNotReadyAddresses || (serving && !terminating);
  return ENDPOINT_STATES[(ready ? 4 : 0) + (serving ? 2 : 0) + (terminating ? 1 : 0)];
}

/** The eight endpoint conditions, shared by every endpoint (they are never changed, only replaced). */
const ENDPOINT_STATES: readonly EndpointState[] = Array.from({ length: 8 }, (_, i) => Object.freeze({ ready: (i & 4) !== 0, serving: (i & 2) !== 0, terminating: (i & 1) !== 0 }));

function sameEndpoint(a: EndpointState | undefined, b: EndpointState | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ready === b.ready && a.serving === b.serving && a.terminating === b.terminating;
}
