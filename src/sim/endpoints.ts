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
  /**
   * One API client per worker (--concurrent-service-endpoint-syncs, 5 by default): Services sync
   * side by side, each worker writing one Service's changes at a time.
   */
  private readonly workers: ApiClient[];
  /** Services queued for a sync and the pods that changed since (the real queue holds Service keys, each once). */
  private readonly queued = new Map<SimService, Set<SimPod>>();

  constructor(private readonly ctx: SimContext) {
    const { store } = ctx;
    const random = ctx.random.fork('endpointslice-controller');
    this.workers = Array.from({ length: SERVICE_SYNC_WORKERS }, () => new ApiClient(ctx, random));
    const leader = leaderOf(ctx);
    const informer = new Informer<SimService>(ctx, random, (service) => {
      const pods = this.queued.get(service)!;
      this.queued.delete(service);
      if (leader.leading) this.syncService(service, pods);
    });
    const queue = (service: SimService, pod: SimPod) => {
      let pods = this.queued.get(service);
      if (!pods) {
        this.queued.set(service, (pods = new Set()));
        informer.notify(service);
      }
      pods.add(pod);
    };
    const changed = (pod: SimPod) => {
      for (const service of this.servicesOf(pod)) queue(service, pod);
    };
    // A new leader syncs every Service against the pods it lists: endpoints of pods removed while none led go too.
    leader.onAcquired(() => {
      for (const pod of store.livePods()) changed(pod);
      for (const service of store.services) for (const pod of service.endpoints.keys()) if (pod.removed) queue(service, pod);
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
    store.onPod(changed);
  }

  /** Every pod has an owner (a bare Pod owns itself), whose Services were matched once. */
  private servicesOf(pod: SimPod): SimService[] {
    return pod.owner?.services ?? [];
  }

  /**
   * syncService: every change of the Service's endpoints since its last sync, in one write by the
   * worker free first (pkg/controller/endpointslice/endpointslice_controller.go: pod changes queue
   * the Service's key; a worker reconciles all its pods into its EndpointSlices). Written pod by
   * pod, the endpoints of a zone's 50,000 pods going NotReady lagged minutes behind the pods.
   */
  private syncService(service: SimService, pods: Set<SimPod>): void {
    const changes = [...pods].filter((pod) => !sameEndpoint(service.endpoints.get(pod), endpointFor(pod, service)));
    if (changes.length === 0) return;
    const worker = this.workers.reduce((free, w) => (w.idleAt < free.idleAt ? w : free));
    worker.write(() => {
      for (const pod of changes) {
        const now = endpointFor(pod, service);
        if (!sameEndpoint(service.endpoints.get(pod), now)) this.ctx.store.setEndpoint(service, pod, now);
      }
    });
  }
}

/** kube-controller-manager --concurrent-service-endpoint-syncs, its default. */
const SERVICE_SYNC_WORKERS = 5;

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
