/** kube-apiserver flags that decide failure timing: the DefaultTolerationSeconds admission plugin's values. */
import type { KnobSpec } from './knobSpec';

export const API_SERVER_KNOBS = {
  defaultNotReadyTolerationSeconds: {
    name: 'default-not-ready-toleration-seconds', type: 'int', unit: 's', defaultValue: () => 300, min: 0,
    description: 'tolerationSeconds that DefaultTolerationSeconds adds for the not-ready NoExecute taint.',
  },
  defaultUnreachableTolerationSeconds: {
    name: 'default-unreachable-toleration-seconds', type: 'int', unit: 's', defaultValue: () => 300, min: 0,
    description: 'tolerationSeconds that DefaultTolerationSeconds adds for the unreachable NoExecute taint.',
  },
} as const satisfies Record<string, KnobSpec<number>>;
