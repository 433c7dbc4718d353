/**
 * The editor's settings and picks in the workspace's terms. No `vscode` here, so tests can check
 * that the editor and the CLI build the same scenario from the same files.
 */
import type { FailureKind } from '../sim/scenario';
import { defaultChoices, type SimulationChoices } from '../workspace/simulationChoices';
import type { WorkspaceSettings } from '../workspace/workspace';

export interface SettingValues {
  /** kubeFailureSim.kubernetesVersion; empty: the input's or the newest known. */
  kubernetesVersion: string;
  /** kubeFailureSim.profile; "none": the version's defaults. */
  profile: string;
}

export function workspaceSettings(values: SettingValues): WorkspaceSettings {
  return {
    version: values.kubernetesVersion ? { value: values.kubernetesVersion, source: 'setting kubeFailureSim.kubernetesVersion' } : undefined,
    profile: values.profile === 'none' ? undefined : values.profile,
    overrides: [],
  };
}

export interface SimulationPicks {
  failure: FailureKind;
  /** Kind/name of the workload whose node fails; undefined: the first workload's. */
  target?: string;
  /** The document whose workloads are simulated; undefined: every document of the folder. */
  document?: string;
}

export function simulationChoices(picks: SimulationPicks): SimulationChoices {
  return {
    ...defaultChoices(),
    failure: picks.failure,
    targets: picks.target ? [picks.target] : [],
    documents: picks.document === undefined ? undefined : [picks.document],
  };
}

/** A document's name in sources: its path relative to the folder ("cluster/kcm.yaml"), like the CLI run from that folder. */
export function relativeName(folderUri: string | undefined, uri: string): string {
  if (folderUri) {
    const prefix = folderUri.endsWith('/') ? folderUri : `${folderUri}/`;
    if (uri.startsWith(prefix)) return decodeURIComponent(uri.slice(prefix.length));
  }
  const slash = uri.lastIndexOf('/');
  return decodeURIComponent(slash >= 0 ? uri.slice(slash + 1) : uri);
}
