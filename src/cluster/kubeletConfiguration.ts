/** KubeletConfiguration fields that decide failure timing (kubelet.config.k8s.io/v1beta1). */
import { MINUTE_MS, SECOND_MS, type KnobSpec } from './knobSpec';

export const KUBELET_KNOBS = {
  nodeStatusUpdateFrequency: {
    name: 'nodeStatusUpdateFrequency', type: 'duration', defaultValue: () => 10 * SECOND_MS, min: 1,
    description: 'How often the kubelet computes node status (it posts only on change or every nodeStatusReportFrequency).',
  },
  nodeStatusReportFrequency: {
    name: 'nodeStatusReportFrequency', type: 'duration', defaultValue: () => 5 * MINUTE_MS, min: 1,
    description: 'How often the kubelet posts an unchanged node status; defaults to nodeStatusUpdateFrequency when that is set explicitly.',
  },
  nodeLeaseDurationSeconds: {
    name: 'nodeLeaseDurationSeconds', type: 'int', unit: 's', defaultValue: () => 40, min: 1,
    description: 'Node lease duration; the kubelet renews the lease every quarter of it.',
  },
  shutdownGracePeriod: {
    name: 'shutdownGracePeriod', type: 'duration', defaultValue: () => 0, min: 0,
    description: 'Graceful node shutdown: time the kubelet delays shutdown to stop pods (0 disables the feature).',
  },
  shutdownGracePeriodCriticalPods: {
    name: 'shutdownGracePeriodCriticalPods', type: 'duration', defaultValue: () => 0, min: 0,
    description: 'Part of shutdownGracePeriod reserved for critical pods.',
  },
} as const satisfies Record<string, KnobSpec<number>>;

/**
 * shutdownGracePeriod 0, or 1.20 where the GracefulNodeShutdown gate is alpha (off), leaves a
 * graceful shutdown inert: the host goes down without the kubelet noticing (SEMANTICS.md 2.4).
 */
export function inertShutdown(minor: number, shutdownGracePeriodMs: number): { gateOff: boolean } | undefined {
  const gateOff = minor < 21;
  return shutdownGracePeriodMs === 0 || gateOff ? { gateOff } : undefined;
}
