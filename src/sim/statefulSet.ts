/**
 * The StatefulSet controller (pkg/controller/statefulset): pods have stable names, so pod-N is
 * created only once no object named pod-N exists, Terminating ones included. With
 * OrderedReady, processing stops at the first pod that is missing, terminating or not
 * Running and Ready (SEMANTICS.md 6.2).
 */
import type { StatefulSet } from '../manifest/model/types';
import type { SimContext } from './context';
import type { SimPod, SimWorkload } from './objects';
import type { PodChange } from './store';
import type { VolumeBinder } from './volumeBinding';
import { WorkloadController } from './workloadController';

export class StatefulSetController extends WorkloadController {
  private readonly creating = new Set<string>();

  constructor(ctx: SimContext, volumes: VolumeBinder) {
    super(ctx, volumes, 'statefulset-controller', ['StatefulSet']);
    ctx.store.onPod((pod, change) => {
      if (change === 'created') this.creating.delete(pod.name);
    });
  }

  /** OrderedReady also waits for pods to become Ready. */
  protected override cares(pod: SimPod, change: PodChange): boolean {
    return super.cares(pod, change) || change === 'ready';
  }

  protected sync(workload: SimWorkload): void {
    const spec = workload.spec as StatefulSet;
    const monotonic = spec.podManagementPolicy === 'OrderedReady';
    const byOrdinal = new Map<number, SimPod>();
    for (const pod of workload.pods) if (!pod.removed && pod.ordinal !== undefined) byOrdinal.set(pod.ordinal, pod);
    for (let ordinal = 0; ordinal < spec.replicas; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (!pod) {
        const name = `${workload.name}-${ordinal}`;
        if (!this.creating.has(name)) {
          this.creating.add(name);
          this.create(workload, ordinal);
        }
        if (monotonic) return;
        continue;
      }
      if (pod.phase === 'Failed' || pod.phase === 'Succeeded') {
        // A failed pod is deleted; its successor is created once the object is gone.
        if (pod.deletionTimestamp === undefined) this.client.write(() => this.ctx.store.deletePod(pod, 0, 'statefulset-controller'));
        if (monotonic) return;
        continue;
      }
      if (monotonic && (pod.deletionTimestamp !== undefined || !(pod.phase === 'Running' && pod.readyCondition))) return;
    }
  }
}
