/** What every component of one simulation shares: the clock, the store, randomness and timing. */
import type { TimingConfiguration } from '../cluster/timing';
import type { Clock } from './engine';
import { ControllerManagerLease } from './leaderElection';
import type { Random } from './random';
import type { Store } from './store';

export interface SimContext {
  clock: Clock;
  store: Store;
  random: Random;
  timing: TimingConfiguration;
  /** kube-controller-manager's leadership; absent: it leads throughout (a controller tested alone). */
  leader?: ControllerManagerLease;
}

/** The controller manager's leadership of a context (leading throughout when the test gave none). */
export function leaderOf(ctx: SimContext): ControllerManagerLease {
  return (ctx.leader ??= new ControllerManagerLease());
}

/** Feature gates by version that change failure behaviour (SEMANTICS.md 14). */
export const features = {
  /** DisruptionTarget pod condition (PodDisruptionConditions beta-on 1.26). */
  disruptionConditions: (minor: number) => minor >= 26,
  /** Out-of-service taint handled by pod GC and the attach-detach controller (beta-on 1.26, GA 1.28). */
  outOfServiceVolumeDetach: (minor: number) => minor >= 26,
  /** The taint eviction controller runs as its own controller (1.29). */
  separateTaintEvictionController: (minor: number) => minor >= 29,
  /** A Job's podFailurePolicy is honoured (JobPodFailurePolicy beta-on 1.26): it waits for a failed pod's terminal phase. */
  jobPodFailurePolicy: (minor: number) => minor >= 26,
  /** A Job's podReplacementPolicy exists and is honoured (JobPodReplacementPolicy alpha 1.28, beta-on 1.29; SEMANTICS.md 6.4). */
  jobPodReplacementPolicy: (minor: number) => minor >= 29,
  /** The Job backoff counts from the failed pod's finish time (backoff_utils.go getFinishedTime), not from when the controller saw it (1.28). */
  jobBackoffFromFinishTime: (minor: number) => minor >= 28,
  /** kube-proxy routes to serving terminating endpoints when a Service has no ready one (ProxyTerminatingEndpoints beta-on 1.26, GA 1.28). */
  proxyTerminatingEndpoints: (minor: number) => minor >= 26,
  /** The kubelet writes a deleted pod's terminal phase before it removes the object (1.27, PR #115331; SEMANTICS.md 2.5); static pods excepted. */
  kubeletTerminalPhaseOnDelete: (minor: number) => minor >= 27,
  /** A topology spread constraint's nodeTaintsPolicy (NodeInclusionPolicyInPodTopologySpread beta-on 1.26); off, the API server drops it. */
  nodeInclusionPolicy: (minor: number) => minor >= 26,
  /** A topology spread constraint's minDomains (MinDomainsInPodTopologySpread beta-on 1.27); off, the API server drops it. */
  minDomains: (minor: number) => minor >= 27,
  /** A pod affinity term's namespaceSelector (PodAffinityNamespaceSelector beta-on 1.22); off, the API server drops it. */
  podAffinityNamespaceSelector: (minor: number) => minor >= 22,
  /** --disable-force-detach-on-timeout exists (1.30). */
  disableForceDetachFlag: (minor: number) => minor >= 30,
};
