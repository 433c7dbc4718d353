/** What a user chooses for one simulation run; the workspace turns it into a scenario. */
import type { TimingSetting } from '../cluster/timing';
import type { Node } from '../manifest/model/types';
import { DEFAULT_DURATION_MS, type FailureKind, type Intervention, type Placement } from '../sim/scenario';

export interface SimulationChoices {
  failure: FailureKind;
  /** node/NAME, zone/NAME, or Kind/name for the node of that workload's first pod; empty: the node of the first running pod of the first workload that has one. */
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
  /** A duration nobody chose (a guided or CodeLens run): longer where the workloads tolerate a dead node longer, to show the eviction the CodeLens counts. */
  lengthenForTolerations?: boolean;
  seed: number;
  /** The documents whose workloads are simulated; undefined: all. Supporting objects come from every document. */
  documents?: string[];
  /** Node objects to simulate on instead of the workspace's own (or the default cluster). */
  cluster?: { nodes: Node[]; source: string };
  /** The same as a file's content (`--cluster`, a scenario's cluster, read by the front end): the workspace parses it. */
  clusterText?: ClusterText;
  /** This run's own version, preset and knobs (a guided pick, a scenario file), applied over the front end's settings. */
  timing?: RunTiming;
}

export interface ClusterText {
  /** As read by the front end: bytes are checked to be UTF-8 by the workspace, as manifests are. */
  texts: (string | Uint8Array)[];
  /** The file as the user sees it (relative to the folder, or to where the CLI runs). */
  source: string;
  /** The file of each text, when `source` is a folder: an error in one names it. */
  files?: string[];
}

export interface RunTiming {
  /** The front end's settings do not apply at all (a scenario file: the same run in every front end). */
  replacesSettings?: boolean;
  version?: { value: string; source: string };
  /** A preset; null: none, whatever the settings say. */
  profile?: string | null;
  /** Knob overrides, after the settings' own. */
  overrides?: TimingSetting[];
}


/** The default run: a power-off of the first workload's node, watched for 20 minutes, seed 1. */
export function defaultChoices(): SimulationChoices {
  return { failure: 'power-off', targets: [], preFailureMs: 0, interventions: [], durationMs: DEFAULT_DURATION_MS, seed: 1 };
}
