/**
 * The EndpointSlice controller (staging/src/k8s.io/endpointslice): one endpoint per pod of a
 * Service that has an IP and is not terminal, with serving = pod Ready, terminating =
 * deletionTimestamp set, ready = publishNotReadyAddresses || (serving && !terminating)
 * (SEMANTICS.md 9).
 */
import type { SimContext } from './context';
import { ApiClient, Informer } from './latency';
import type { EndpointState, SimPod, SimService } from './objects';

export class EndpointSliceController {
  private readonly client: ApiClient;

  constructor(private readonly ctx: SimContext) {
    const { store, clock, timing } = ctx;
    const random = ctx.random.fork('endpointslice-controller');
    this.client = new ApiClient(clock, random, timing.apiWriteLatencyMs);
    const informer = new Informer<SimPod>(clock, random, timing.watchLatencyMs, (pod) => this.syncPod(pod));
    // The initial list: endpoints of the pods running before the failure.
    for (const pod of store.livePods()) {
      for (const service of this.servicesOf(pod)) {
        const endpoint = endpointFor(pod, service);
        if (endpoint) setEndpoint(service, pod, endpoint);
      }
    }
    for (const service of store.services) this.recordState(service);
    store.onPod((pod) => {
      if (this.servicesOf(pod).length > 0) informer.notify(pod);
    });
  }

  /** Every pod has an owner (a bare Pod owns itself), whose Services were matched once. */
  private servicesOf(pod: SimPod): SimService[] {
    return pod.owner?.services ?? [];
  }

  private syncPod(pod: SimPod): void {
    const { store } = this.ctx;
    for (const service of this.servicesOf(pod)) {
      const wanted = endpointFor(pod, service);
      const current = service.endpoints.get(pod);
      if (sameEndpoint(current, wanted)) continue;
      this.client.write(() => {
        const now = endpointFor(pod, service);
        const before = service.endpoints.get(pod);
        if (sameEndpoint(before, now)) return;
        setEndpoint(service, pod, now);
        const ref = service.ref;
        const message = now
          ? `Endpoint ${pod.ip} (${pod.name}) ${before ? 'now' : 'added:'} ready=${now.ready} serving=${now.serving} terminating=${now.terminating}`
          : `Endpoint of ${pod.name} removed`;
        store.event(ref, 'EndpointChanged', now ? (now.ready ? 'EndpointReady' : 'EndpointNotReady') : 'EndpointRemoved', message, {
          pod: pod.name, ip: pod.ip ?? null, ...(now ?? { removed: true }),
        });
        this.recordState(service);
      });
    }
  }

  private recordState(service: SimService): void {
    const ready = service.readyEndpoints;
    this.ctx.store.trace.state(service, { status: `${ready}/${service.endpoints.size} ready`, ready: `${ready}/${service.endpoints.size}` });
  }
}

function setEndpoint(service: SimService, pod: SimPod, endpoint: EndpointState | undefined): void {
  if (service.endpoints.get(pod)?.ready) service.readyEndpoints--;
  if (endpoint) service.endpoints.set(pod, endpoint);
  else service.endpoints.delete(pod);
  if (endpoint?.ready) service.readyEndpoints++;
}

/** podToEndpoint, or undefined when the pod is not an endpoint (no IP, terminal, gone). */
export function endpointFor(pod: SimPod, service: SimService): EndpointState | undefined {
  if (pod.removed || !pod.ip || pod.phase === 'Failed' || pod.phase === 'Succeeded') return undefined;
  const serving = pod.readyCondition;
  const terminating = pod.deletionTimestamp !== undefined;
  return { ready: service.publishNotReadyAddresses || (serving && !terminating), serving, terminating };
}

function sameEndpoint(a: EndpointState | undefined, b: EndpointState | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ready === b.ready && a.serving === b.serving && a.terminating === b.terminating;
}
