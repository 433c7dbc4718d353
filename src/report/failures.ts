/** What each failure does to a node, in plain words (for the CLI header, events and the editor's picks). */
import type { FailureKind } from '../sim/scenario';

export const FAILURE_DESCRIPTIONS: Readonly<Record<FailureKind, string>> = {
  'power-off': 'powered off: containers, kubelet and network are gone',
  'kubelet-stop': 'kubelet stopped: its containers keep running',
  partition: 'network partition: the node is cut off, its kubelet and containers keep running',
};

export const RECOVERY_DESCRIPTIONS: Readonly<Record<FailureKind, string>> = {
  'power-off': 'powered on again; the kubelet starts',
  'kubelet-stop': 'kubelet running again',
  partition: 'network restored',
};
