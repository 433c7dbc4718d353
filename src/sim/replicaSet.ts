/**
 * The ReplicaSet controller, which also runs the pods of Deployments and ReplicationControllers
 * (pkg/controller/replicaset): a pod with a deletionTimestamp or a terminal phase is no longer
 * active, so a replacement is created at once; until then nothing is replaced (SEMANTICS.md 6.1).
 */
import type { SimContext } from './context';
import type { SimWorkload } from './objects';
import type { VolumeBinder } from './volumeBinding';
import { WorkloadController } from './workloadController';

export class ReplicaSetController extends WorkloadController {
  constructor(ctx: SimContext, volumes: VolumeBinder) {
    super(ctx, volumes, 'replicaset-controller', ['Deployment', 'ReplicaSet', 'ReplicationController']);
  }

  protected sync(workload: SimWorkload): void {
    const missing = workload.desired - this.activeCount(workload) - this.pendingCreations(workload);
    for (let i = 0; i < missing; i++) this.create(workload);
  }
}
