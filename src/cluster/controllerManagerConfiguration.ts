/** kube-controller-manager flags that decide failure timing (NodeLifecycleControllerConfiguration and friends). */
import { MINUTE_MS, SECOND_MS, type KnobSpec } from './knobSpec';
import { MAX_INT32, MIN_INT32 } from '../manifest/limits';

export const CONTROLLER_MANAGER_KNOBS = {
  nodeMonitorPeriod: {
    name: 'node-monitor-period', type: 'duration', defaultValue: () => 5 * SECOND_MS, min: 1,
    description: 'How often the node lifecycle controller checks node health.',
  },
  nodeMonitorGracePeriod: {
    name: 'node-monitor-grace-period', type: 'duration', defaultValue: (minor: number) => (minor >= 32 ? 50 * SECOND_MS : 40 * SECOND_MS), min: 1,
    description: 'Time without a heartbeat after which a node is marked Ready=Unknown (40s up to 1.31, 50s from 1.32).',
  },
  nodeStartupGracePeriod: {
    name: 'node-startup-grace-period', type: 'duration', defaultValue: () => 60 * SECOND_MS, min: 1,
    description: 'Grace period for a node that has never posted status.',
  },
  nodeEvictionRate: {
    name: 'node-eviction-rate', type: 'number', defaultValue: () => 0.1, min: 0,
    description: 'Nodes per second whose pods start being evicted (NoExecute-tainted), per zone.',
  },
  secondaryNodeEvictionRate: {
    name: 'secondary-node-eviction-rate', type: 'number', defaultValue: () => 0.01, min: 0,
    description: 'Tainting rate in a partially disrupted zone larger than large-cluster-size-threshold.',
  },
  unhealthyZoneThreshold: {
    name: 'unhealthy-zone-threshold', type: 'number', defaultValue: () => 0.55, min: 0, max: 1,
    description: 'Fraction of not-Ready nodes (and more than 2) that makes a zone PartialDisruption.',
  },
  largeClusterSizeThreshold: {
    name: 'large-cluster-size-threshold', type: 'int', defaultValue: () => 50, min: MIN_INT32, max: MAX_INT32,
    description: 'Zones with at most this many nodes stop evicting in PartialDisruption (≤ 0: every zone is large).',
  },
  terminatedPodGcThreshold: {
    name: 'terminated-pod-gc-threshold', type: 'int', defaultValue: () => 12500, min: MIN_INT32, max: MAX_INT32,
    description: 'Terminated pods kept before pod GC deletes the oldest (≤ 0: never deleted).',
  },
  podEvictionTimeout: {
    name: 'pod-eviction-timeout', type: 'duration', defaultValue: () => 5 * MINUTE_MS, min: 0,
    description: 'Legacy eviction delay.',
    removedIn: 27,
    noEffect: (minor: number) => (minor >= 27
      ? `--pod-eviction-timeout was removed in Kubernetes 1.27: a real kube-controller-manager does not start with it (unknown flag), and the simulation ignores it; the eviction delay is the pod's tolerationSeconds (apiserver --default-unreachable-toleration-seconds).`
      : `--pod-eviction-timeout is ignored with taint-based eviction (the default since 1.13); the eviction delay is the pod's tolerationSeconds (apiserver --default-unreachable-toleration-seconds).`),
  },
  enableTaintManager: {
    name: 'enable-taint-manager', type: 'bool', defaultValue: () => true,
    description: 'Taint-based eviction; false (up to 1.26) selects the legacy path that deletes pods pod-eviction-timeout after the node stopped reporting, with status reason NodeLost.',
    removedIn: 27,
    noEffect: (minor: number) => (minor >= 27 ? '--enable-taint-manager was removed in Kubernetes 1.27: a real kube-controller-manager does not start with it (unknown flag), and the simulation ignores it; taint-based eviction always runs.' : undefined),
  },
  disableForceDetachOnTimeout: {
    name: 'disable-force-detach-on-timeout', type: 'bool', defaultValue: () => false,
    description: 'Disables the attach-detach controller\'s force detach after 6 minutes (flag from 1.30).',
    noEffect: (minor: number) => (minor < 30 ? '--disable-force-detach-on-timeout exists only from Kubernetes 1.30: an older kube-controller-manager does not start with it (unknown flag), and the simulation ignores it.' : undefined),
    requires: { minor: 30, problem: '--disable-force-detach-on-timeout exists only from Kubernetes 1.30: kube-controller-manager does not start with it (unknown flag)' },
  },
} as const satisfies Record<string, KnobSpec>;

/** The legacy eviction path of SEMANTICS.md 3.7: up to 1.26, with --enable-taint-manager=false. */
export function legacyPodEviction(minor: number, enableTaintManager: boolean): boolean {
  return minor <= 26 && !enableTaintManager;
}
