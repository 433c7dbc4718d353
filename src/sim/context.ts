/** What every component of one simulation shares: the clock, the store, randomness and timing. */
import type { TimingProfile } from '../cluster/timing';
import type { Clock } from './engine';
import type { Random } from './random';
import type { Store } from './store';

/** The timing knobs as numbers (ms unless named otherwise). */
export interface Timing {
  minor: number;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  leaseRenewIntervalMs: number;
  nodeMonitorPeriodMs: number;
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  unhealthyZoneThreshold: number;
  largeClusterSizeThreshold: number;
  notReadyTolerationSeconds: number;
  unreachableTolerationSeconds: number;
  disableForceDetachOnTimeout: boolean;
  podStartLatencyMs: number;
  containerStopLatencyMs: number;
  apiWriteLatencyMs: number;
  watchLatencyMs: number;
  nodeMonitorPassDurationMs: number;
  volumeAttachLatencyMs: number;
  lastLeaseRenewalAgeMs: number | null;
  lastStatusPostAgeMs: number | null;
  nodeMonitorPhaseMs: number | null;
}

export function timingValues(profile: TimingProfile): Timing {
  const num = (name: string): number => {
    const value = profile.knobs[name]?.value;
    if (typeof value !== 'number') throw new Error(`timing knob ${name} is not a number`);
    return value;
  };
  const optional = (name: string): number | null => {
    const value = profile.knobs[name]?.value;
    return typeof value === 'number' ? value : null;
  };
  return {
    minor: profile.version.minor,
    nodeStatusUpdateFrequencyMs: num('kubelet.nodeStatusUpdateFrequency'),
    nodeStatusReportFrequencyMs: num('kubelet.nodeStatusReportFrequency'),
    // pkg/kubelet: the lease is renewed every quarter of its duration.
    leaseRenewIntervalMs: num('kubelet.nodeLeaseDurationSeconds') * 250,
    nodeMonitorPeriodMs: num('kcm.node-monitor-period'),
    nodeMonitorGracePeriodMs: num('kcm.node-monitor-grace-period'),
    nodeStartupGracePeriodMs: num('kcm.node-startup-grace-period'),
    nodeEvictionRate: num('kcm.node-eviction-rate'),
    secondaryNodeEvictionRate: num('kcm.secondary-node-eviction-rate'),
    unhealthyZoneThreshold: num('kcm.unhealthy-zone-threshold'),
    largeClusterSizeThreshold: num('kcm.large-cluster-size-threshold'),
    notReadyTolerationSeconds: num('apiserver.default-not-ready-toleration-seconds'),
    unreachableTolerationSeconds: num('apiserver.default-unreachable-toleration-seconds'),
    disableForceDetachOnTimeout: profile.knobs['kcm.disable-force-detach-on-timeout']?.value === true && profile.version.minor >= 30,
    podStartLatencyMs: num('sim.podStartLatency'),
    containerStopLatencyMs: num('sim.containerStopLatency'),
    apiWriteLatencyMs: num('sim.apiWriteLatency'),
    watchLatencyMs: num('sim.watchLatency'),
    nodeMonitorPassDurationMs: num('sim.nodeMonitorPassDuration'),
    volumeAttachLatencyMs: num('sim.volumeAttachLatency'),
    lastLeaseRenewalAgeMs: optional('sim.lastLeaseRenewalAge'),
    lastStatusPostAgeMs: optional('sim.lastStatusPostAge'),
    nodeMonitorPhaseMs: optional('sim.nodeMonitorPhase'),
  };
}

export interface SimContext {
  clock: Clock;
  store: Store;
  random: Random;
  timing: Timing;
}

/** Feature gates by version that change failure behaviour (SEMANTICS.md 14). */
export const features = {
  /** DisruptionTarget pod condition (PodDisruptionConditions beta-on 1.26). */
  disruptionConditions: (minor: number) => minor >= 26,
  /** Out-of-service taint handled by pod GC and the attach-detach controller (beta-on 1.26, GA 1.28). */
  outOfServiceVolumeDetach: (minor: number) => minor >= 26,
  /** The taint eviction controller runs as its own controller (1.29). */
  separateTaintEvictionController: (minor: number) => minor >= 29,
};
