/** The simulator's own modelling parameters: latencies SEMANTICS.md 13.1 names, and phases it draws at random. */
import { SECOND_MS, type KnobSpec } from './knobSpec';

export const SIMULATOR_KNOBS = {
  podStartLatency: {
    name: 'podStartLatency', type: 'duration', defaultValue: () => 5 * SECOND_MS, min: 0,
    description: 'Time from binding to a running container (image pull, sandbox, start).',
  },
  containerStopLatency: {
    name: 'containerStopLatency', type: 'duration', defaultValue: () => 1 * SECOND_MS, min: 0,
    description: 'Time a container takes to exit after SIGTERM (capped by its grace period).',
  },
  apiWriteLatency: {
    name: 'apiWriteLatency', type: 'duration', defaultValue: () => 5, min: 0,
    description: 'Mean latency of one API write (each write takes 0.5–1.5 times this).',
  },
  watchLatency: {
    name: 'watchLatency', type: 'duration', defaultValue: () => 5, min: 0,
    description: 'Mean delay before a controller sees a change (0.5–1.5 times this).',
  },
  nodeMonitorPassDuration: {
    name: 'nodeMonitorPassDuration', type: 'duration', defaultValue: () => 20, min: 0,
    description: 'Duration of one node-monitor pass for a small cluster; the next pass starts node-monitor-period after it ends.',
  },
  volumeAttachLatency: {
    name: 'volumeAttachLatency', type: 'duration', defaultValue: () => 10 * SECOND_MS, min: 0,
    description: 'Time to attach a network volume to a node once it is free (cloud disk attach).',
  },
  // Assumptions where SEMANTICS.md marks a fact unverified [U]: named, overridable, and noted in the trace when they matter.
  notReadyPodsKeepServing: {
    name: 'notReadyPodsKeepServing', type: 'bool', defaultValue: () => true,
    description: 'Assumption (unverified): while the container runtime is down (kubelet-not-ready) the running containers keep answering.',
  },
  notReadyKubeletSyncsPods: {
    name: 'notReadyKubeletSyncsPods', type: 'bool', defaultValue: () => true,
    description: 'Assumption (seen on a 1.29 control plane with a scripted kubelet): a kubelet posting Ready=False (kubelet-not-ready) still stops the pods deleted on its node and removes their objects; false: as a kubelet whose container runtime is down, which skips pod synchronization until it is back (syncLoop, runtimeErrors, pkg/kubelet/kubelet.go), so they stay Terminating.',
  },
  shutdownHoldsGracePeriod: {
    name: 'shutdownHoldsGracePeriod', type: 'bool', defaultValue: () => false,
    description: 'Assumption (the Kubernetes documentation is silent): in a graceful shutdown the host powers off as soon as the kubelet has stopped every pod, when it releases its inhibitor lock (processShutdownEvent, pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go); true: it stays up until shutdownGracePeriod ends.',
  },
  diskFailureRestartsHang: {
    name: 'diskFailureRestartsHang', type: 'bool', defaultValue: () => true,
    description: 'Assumption (unverified): on a failed disk a container restarted by its liveness probe, or a new pod\'s container started there, starts but hangs; false: it serves.',
  },
  leaderElectionDelay: {
    name: 'leaderElectionDelay', type: 'duration', defaultValue: (): number | null => null, min: 0,
    description: 'Assumption (15–19 s on a 1.29 control plane): time from a controller-manager restart until the new leader holds the lease; random in [15 s, 19 s) unless set.',
  },
  // Object sizes for the control-plane load (SEMANTICS.md 12: a Lease of a few hundred bytes, a Node of 10–20 KB).
  leaseObjectBytes: {
    name: 'leaseObjectBytes', type: 'int', defaultValue: () => 300, min: 1,
    description: 'Assumption (a Lease is a few hundred bytes): bytes one Lease renewal writes to etcd.',
  },
  nodeObjectBytes: {
    name: 'nodeObjectBytes', type: 'int', defaultValue: () => 15_000, min: 1,
    description: 'Assumption (a Node object is 10–20 KB): bytes one node status update writes (the whole Node object, image list capped at 50).',
  },
  // Phases drawn at random in each run unless pinned (to replay a recording).
  lastLeaseRenewalAge: {
    name: 'lastLeaseRenewalAge', type: 'duration', defaultValue: (): number | null => null, min: 0,
    description: 'Age of the failed node\'s last lease renewal at the failure instant; random in [0, renew interval) unless set.',
  },
  lastStatusPostAge: {
    name: 'lastStatusPostAge', type: 'duration', defaultValue: (): number | null => null, min: 0,
    description: 'Age of the failed node\'s last node status post at the failure instant; random in [0, report frequency) unless set.',
  },
  nodeMonitorPhase: {
    name: 'nodeMonitorPhase', type: 'duration', defaultValue: (): number | null => null, min: 0,
    description: 'Time from the failure to the next node-monitor pass; random in [0, node-monitor-period) unless set.',
  },
} as const satisfies Record<string, KnobSpec>;
