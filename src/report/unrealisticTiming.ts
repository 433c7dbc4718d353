/**
 * Timing the simulator runs as given but a real cluster would not survive: a grace period so
 * short that healthy nodes go Unknown between two heartbeats. The simulator marks only the
 * nodes that fail, so the run would look better than the cluster; the front ends say so.
 */
import { leaseRenewInterval } from '../cluster/timing';
import type { TimingJson } from './contract';
import { formatDuration } from './format';

const GRACE = 'kcm.node-monitor-grace-period';
const LEASE = 'kubelet.nodeLeaseDurationSeconds';

export function unrealisticTiming(timing: Readonly<Record<string, TimingJson>>): string[] {
  const grace = timing[GRACE];
  const lease = timing[LEASE];
  if (!grace || !lease) return [];
  const renewMs = leaseRenewInterval(lease.value as number);
  if ((grace.value as number) >= renewMs) return [];
  return [`${GRACE} ${formatDuration(grace.value as number)} (${grace.source}) is shorter than the kubelets' lease renewals (every ${formatDuration(renewMs)}): a real cluster would mark its healthy nodes Unknown between two renewals and taint them; the simulator fails only the target nodes, so this run looks better than such a cluster would`];
}
