/** What each failure does to a node, in plain words (for the CLI header, events and the editor's picks). */
import type { FailureKind } from '../sim/scenario';

export const FAILURE_DESCRIPTIONS: Readonly<Record<FailureKind, string>> = {
  'power-off': 'powered off: containers, kubelet and network are gone',
  'kubelet-stop': 'kubelet stopped: its containers keep running',
  partition: 'network partition: the node is cut off, its kubelet and containers keep running',
  'kubelet-not-ready': 'container runtime down: the kubelet renews its lease but reports Ready=False',
  'disk-failure': 'disk failed: the kubelet renews its lease and the node stays Ready, but its containers hang',
  'graceful-shutdown': 'shutting down: the kubelet stops its pods within shutdownGracePeriod, then the host powers off',
  'zone-outage': 'powered off with the rest of its zone',
};

export const RECOVERY_DESCRIPTIONS: Readonly<Record<FailureKind, string>> = {
  'power-off': 'powered on again; the kubelet starts',
  'kubelet-stop': 'kubelet running again',
  partition: 'network restored',
  'kubelet-not-ready': 'container runtime running again',
  'disk-failure': 'disk working again',
  'graceful-shutdown': 'powered on again; the kubelet starts',
  'zone-outage': 'powered on again with its zone; the kubelet starts',
};
