/** Who refuses what a rejection finding names: each front end words it in its own sentence. */
import { KUBECTL } from '../manifest/problem';
import type { Finding } from './finding';

export type Refuser =
  /** A control-plane component does not start with its static pod's or kubeadm's command line. */
  | { component: string }
  | 'api-server' | 'kubelet' | 'kubeadm'
  /** A document it reads no object from (no kind, no apiVersion). */
  | 'kubectl'
  /** A setting of a flag (no object): it cannot be used. */
  | 'none';

export function refuserOf(finding: Finding): Refuser {
  if (finding.refusedBy === KUBECTL) return 'kubectl';
  if (finding.refusedBy) return { component: finding.refusedBy };
  if (!finding.object) return 'none';
  if (finding.object.kind === 'KubeletConfiguration') return 'kubelet';
  if (finding.object.kind === 'ClusterConfiguration') return 'kubeadm';
  return 'api-server';
}
