/** What a user chooses for one simulation run; the workspace turns it into a scenario. */
import type { Node } from '../manifest/model/types';
import { DEFAULT_DURATION_MS, type FailureKind, type Intervention, type Placement } from '../sim/scenario';

export interface SimulationChoices {
  failure: FailureKind;
  /** node/NAME, zone/NAME, or Kind/name for the node of that workload's first pod; empty: the node of the first workload's first pod. */
  targets: string[];
  /** Normal operation shown before the failure. */
  preFailureMs: number;
  recoverAfterMs?: number;
  /** Per target (as written in `targets`): it fails this long after the first failure instead of at 0. */
  failAtMs?: Record<string, number>;
  /** Per target: it returns this long after its own failure (overrides recoverAfterMs). */
  recoverAfterMsByTarget?: Record<string, number>;
  interventions: Intervention[];
  /** How pods are placed: as kube-scheduler scores nodes (default), packed (worst), or spread. */
  placement?: Placement;
  durationMs: number;
  seed: number;
  /** The documents whose workloads are simulated; undefined: all. Supporting objects come from every document. */
  documents?: string[];
  /** Node objects to simulate on instead of the workspace's own (or the default cluster). */
  cluster?: { nodes: Node[]; source: string };
}


/** The default run: a power-off of the first workload's node, watched for 20 minutes, seed 1. */
export function defaultChoices(): SimulationChoices {
  return { failure: 'power-off', targets: [], preFailureMs: 0, interventions: [], durationMs: DEFAULT_DURATION_MS, seed: 1 };
}
