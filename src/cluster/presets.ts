/**
 * Named timing presets: the kubelet and kube-controller-manager settings of the seed table
 * (../shared/seeds/004: default, fast, medium, slow). A preset sets its values explicitly,
 * as a cluster configured that way would, so kubelet.nodeStatusReportFrequency follows
 * kubelet.nodeStatusUpdateFrequency (SEMANTICS.md 1).
 */
export const PRESETS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  default: {
    'kubelet.nodeStatusUpdateFrequency': '10s',
    'kcm.node-monitor-period': '5s',
    'kcm.node-monitor-grace-period': '40s',
    'kcm.pod-eviction-timeout': '5m',
  },
  fast: {
    'kubelet.nodeStatusUpdateFrequency': '4s',
    'kcm.node-monitor-period': '2s',
    'kcm.node-monitor-grace-period': '20s',
    'kcm.pod-eviction-timeout': '30s',
  },
  medium: {
    'kubelet.nodeStatusUpdateFrequency': '20s',
    'kcm.node-monitor-period': '5s',
    'kcm.node-monitor-grace-period': '2m',
    'kcm.pod-eviction-timeout': '1m',
  },
  slow: {
    'kubelet.nodeStatusUpdateFrequency': '1m',
    'kcm.node-monitor-period': '5s',
    'kcm.node-monitor-grace-period': '5m',
    'kcm.pod-eviction-timeout': '1m',
  },
};
