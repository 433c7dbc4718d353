/**
 * Control-plane write load of the kubelets' heartbeats (SEMANTICS.md 12): one Lease renewal per
 * node every quarter of nodeLeaseDurationSeconds, and one node status update (the whole Node
 * object) per node every nodeStatusReportFrequency while nothing changes. Numbers only.
 */
import type { TimingConfiguration } from './timing';

export interface HeartbeatLoad {
  nodes: number;
  leaseWritesPerSecond: number;
  statusWritesPerSecond: number;
  writesPerMinute: number;
  bytesPerSecond: number;
}

export function heartbeatLoad(nodes: number, timing: TimingConfiguration): HeartbeatLoad {
  const { derived, simulator } = timing;
  const leaseWritesPerSecond = nodes * derived.leaseWritesPerNodePerSecond;
  const statusWritesPerSecond = nodes * derived.statusWritesPerNodePerSecond;
  return {
    nodes,
    leaseWritesPerSecond,
    statusWritesPerSecond,
    writesPerMinute: 60 * (leaseWritesPerSecond + statusWritesPerSecond),
    bytesPerSecond: leaseWritesPerSecond * simulator.leaseObjectBytes.value + statusWritesPerSecond * simulator.nodeObjectBytes.value,
  };
}
