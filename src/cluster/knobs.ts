/**
 * Every setting that decides failure timing, named after its component's own name with a
 * prefix: `kubelet.<KubeletConfiguration field>`, `kcm.<kube-controller-manager flag>`,
 * `apiserver.<kube-apiserver flag>`, and `sim.<name>` for the simulator's modelling parameters.
 * Defaults by Kubernetes version follow SEMANTICS.md sections 1 and 14.
 */
export type KnobType = 'duration' | 'number' | 'int' | 'bool';

export interface KnobDefinition {
  name: string;
  type: KnobType;
  /** Unit of the value: durations are in ms; some knobs count seconds. */
  unit?: 'ms' | 's';
  /** Default for a Kubernetes minor version; durations in ms; null: drawn at random in each run. */
  defaultValue(minor: number): number | boolean | null;
  description: string;
  /** Set when the knob is accepted but changes nothing in these versions. */
  noEffect?(minor: number): string | undefined;
  /** Allowed range for numbers (inclusive). */
  min?: number;
  max?: number;
}

const constant = (value: number | boolean | null) => () => value;
const S = 1000;
const MIN = 60 * S;

export const KNOBS: readonly KnobDefinition[] = [
  { name: 'kubelet.nodeStatusUpdateFrequency', type: 'duration', defaultValue: constant(10 * S), min: 1,
    description: 'How often the kubelet computes node status (it posts only on change or every nodeStatusReportFrequency).' },
  { name: 'kubelet.nodeStatusReportFrequency', type: 'duration', defaultValue: constant(5 * MIN), min: 1,
    description: 'How often the kubelet posts an unchanged node status; defaults to nodeStatusUpdateFrequency when that is set explicitly.' },
  { name: 'kubelet.nodeLeaseDurationSeconds', type: 'int', unit: 's', defaultValue: constant(40), min: 1,
    description: 'Node lease duration; the kubelet renews the lease every quarter of it.' },
  { name: 'kubelet.shutdownGracePeriod', type: 'duration', defaultValue: constant(0), min: 0,
    description: 'Graceful node shutdown: time the kubelet delays shutdown to stop pods (0 disables the feature).' },
  { name: 'kubelet.shutdownGracePeriodCriticalPods', type: 'duration', defaultValue: constant(0), min: 0,
    description: 'Part of shutdownGracePeriod reserved for critical pods.' },
  { name: 'kcm.node-monitor-period', type: 'duration', defaultValue: constant(5 * S), min: 1,
    description: 'How often the node lifecycle controller checks node health.' },
  { name: 'kcm.node-monitor-grace-period', type: 'duration', defaultValue: (minor) => (minor >= 32 ? 50 * S : 40 * S), min: 1,
    description: 'Time without a heartbeat after which a node is marked Ready=Unknown (40s up to 1.31, 50s from 1.32).' },
  { name: 'kcm.node-startup-grace-period', type: 'duration', defaultValue: constant(60 * S), min: 1,
    description: 'Grace period for a node that has never posted status.' },
  { name: 'kcm.node-eviction-rate', type: 'number', defaultValue: constant(0.1), min: 0,
    description: 'Nodes per second whose pods start being evicted (NoExecute-tainted), per zone.' },
  { name: 'kcm.secondary-node-eviction-rate', type: 'number', defaultValue: constant(0.01), min: 0,
    description: 'Tainting rate in a partially disrupted zone larger than large-cluster-size-threshold.' },
  { name: 'kcm.unhealthy-zone-threshold', type: 'number', defaultValue: constant(0.55), min: 0, max: 1,
    description: 'Fraction of not-Ready nodes (and more than 2) that makes a zone PartialDisruption.' },
  { name: 'kcm.large-cluster-size-threshold', type: 'int', defaultValue: constant(50), min: 0,
    description: 'Zones with at most this many nodes stop evicting in PartialDisruption.' },
  { name: 'kcm.terminated-pod-gc-threshold', type: 'int', defaultValue: constant(12500), min: 0,
    description: 'Terminated pods kept before pod GC deletes the oldest.' },
  { name: 'kcm.pod-eviction-timeout', type: 'duration', defaultValue: constant(5 * MIN), min: 0,
    description: 'Legacy eviction delay.',
    noEffect: (minor) => minor >= 27
      ? `--pod-eviction-timeout was removed in Kubernetes 1.27 and has no effect; the eviction delay is the pod's tolerationSeconds (apiserver --default-unreachable-toleration-seconds).`
      : `--pod-eviction-timeout is ignored with taint-based eviction (the default since 1.13); the eviction delay is the pod's tolerationSeconds (apiserver --default-unreachable-toleration-seconds).` },
  { name: 'kcm.disable-force-detach-on-timeout', type: 'bool', defaultValue: constant(false),
    description: 'Disables the attach-detach controller\'s force detach after 6 minutes (flag from 1.30).',
    noEffect: (minor) => (minor < 30 ? '--disable-force-detach-on-timeout exists only from Kubernetes 1.30.' : undefined) },
  { name: 'apiserver.default-not-ready-toleration-seconds', type: 'int', unit: 's', defaultValue: constant(300), min: 0,
    description: 'tolerationSeconds that DefaultTolerationSeconds adds for the not-ready NoExecute taint.' },
  { name: 'apiserver.default-unreachable-toleration-seconds', type: 'int', unit: 's', defaultValue: constant(300), min: 0,
    description: 'tolerationSeconds that DefaultTolerationSeconds adds for the unreachable NoExecute taint.' },
  { name: 'sim.podStartLatency', type: 'duration', defaultValue: constant(5 * S), min: 0,
    description: 'Time from binding to a running container (image pull, sandbox, start).' },
  { name: 'sim.containerStopLatency', type: 'duration', defaultValue: constant(1 * S), min: 0,
    description: 'Time a container takes to exit after SIGTERM (capped by its grace period).' },
  { name: 'sim.apiWriteLatency', type: 'duration', defaultValue: constant(5), min: 0,
    description: 'Mean latency of one API write (each write takes 0.5–1.5 times this).' },
  { name: 'sim.watchLatency', type: 'duration', defaultValue: constant(5), min: 0,
    description: 'Mean delay before a controller sees a change (0.5–1.5 times this).' },
  { name: 'sim.nodeMonitorPassDuration', type: 'duration', defaultValue: constant(20), min: 0,
    description: 'Duration of one node-monitor pass for a small cluster; the next pass starts node-monitor-period after it ends. Grows by 0.1 ms per node.' },
  { name: 'sim.volumeAttachLatency', type: 'duration', defaultValue: constant(10 * S), min: 0,
    description: 'Time to attach a network volume to a node once it is free (cloud disk attach).' },
  { name: 'sim.lastLeaseRenewalAge', type: 'duration', defaultValue: constant(null), min: 0,
    description: 'Age of the failed node\'s last lease renewal at the failure instant; random in [0, renew interval) unless set.' },
  { name: 'sim.lastStatusPostAge', type: 'duration', defaultValue: constant(null), min: 0,
    description: 'Age of the failed node\'s last node status post at the failure instant; random in [0, report frequency) unless set.' },
  { name: 'sim.nodeMonitorPhase', type: 'duration', defaultValue: constant(null), min: 0,
    description: 'Time from the failure to the next node-monitor pass; random in [0, node-monitor-period) unless set.' },
];

export const KNOB_BY_NAME: ReadonlyMap<string, KnobDefinition> = new Map(KNOBS.map((k) => [k.name, k]));
