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
    leaseWritesPerSecond: rounded(leaseWritesPerSecond),
    statusWritesPerSecond: rounded(statusWritesPerSecond),
    writesPerMinute: rounded(60 * (leaseWritesPerSecond + statusWritesPerSecond)),
    bytesPerSecond: rounded(leaseWritesPerSecond * simulator.leaseObjectBytes.value + statusWritesPerSecond * simulator.nodeObjectBytes.value),
  };
}

/** Six decimals: rates of thirds read 3.333333, not 3.3333333333333335, and 31000 not 30999.999999999996. */
function rounded(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
