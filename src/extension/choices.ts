/**
 * The editor's settings and picks in the workspace's terms. No `vscode` here, so tests can check
 * that the editor and the CLI build the same scenario from the same files.
 */
import { ALWAYS_REPORTED } from '../manifest/problem';
import type { FailureKind } from '../sim/scenario';
import { defaultChoices, type SimulationChoices } from '../workspace/simulationChoices';
import type { WorkspaceSettings } from '../workspace/workspace';

export interface SettingValues {
  /** kubeFailureSim.kubernetesVersion; empty: the input's or the newest known. */
  kubernetesVersion: string;
  /** kubeFailureSim.profile; "none": the version's defaults. */
  profile: string;
  /** kubeFailureSim.timing: knob (the CLI's --set names) → value. */
  timing?: Record<string, unknown>;
  /** kubeFailureSim.rules: rule id → off or a severity. */
  rules?: Record<string, unknown>;
}

/** How a finding shows in the editor: a diagnostic severity, or not at all. */
export type RuleLevel = 'off' | 'error' | 'warning' | 'information' | 'hint';
const RULE_LEVELS: readonly RuleLevel[] = ['off', 'error', 'warning', 'information', 'hint'];

export function workspaceSettings(values: SettingValues): WorkspaceSettings {
  return {
    version: values.kubernetesVersion ? { value: values.kubernetesVersion, source: 'setting kubeFailureSim.kubernetesVersion' } : undefined,
    profile: values.profile === 'none' ? undefined : values.profile,
    // Values go to the workspace as written; it says which knob or value it cannot use (settingsProblems).
    overrides: Object.entries(values.timing ?? {}).map(([name, value]) => ({ name, value: String(value), source: 'setting kubeFailureSim.timing' })),
    disabledRules: Object.entries(values.rules ?? {}).filter(([, level]) => level === 'off').map(([id]) => id.toUpperCase()).filter((id) => !ALWAYS_REPORTED.includes(id)),
  };
}

/**
 * The level a finding shows at: the user's setting for its rule, else its own severity, with
 * the rules' advice (info) as hints so that the Problems panel holds what needs action; the
 * input notes (a skipped template, a limit) stay visible as information.
 */
export function ruleLevel(ruleId: string, severity: 'error' | 'warning' | 'info', rules: Record<string, unknown> = {}): RuleLevel {
  const chosen = Object.entries(rules).find(([id]) => id.toUpperCase() === ruleId)?.[1];
  if (typeof chosen === 'string' && (RULE_LEVELS as readonly string[]).includes(chosen) && !(chosen === 'off' && ALWAYS_REPORTED.includes(ruleId))) return chosen as RuleLevel;
  if (severity !== 'info') return severity;
  return ruleId === 'KFS091' || ruleId === 'KFS093' ? 'information' : 'hint';
}

/** Setting entries that name no rule or no level, for one warning to the user. */
export function invalidRuleSettings(rules: Record<string, unknown>, knownIds: readonly string[]): string[] {
  return Object.entries(rules).flatMap(([id, level]) => {
    if (!knownIds.includes(id.toUpperCase())) return [`"${id}" is not a rule id`];
    if (typeof level !== 'string' || !(RULE_LEVELS as readonly string[]).includes(level)) return [`${id}: "${String(level)}" is not one of ${RULE_LEVELS.join(', ')}`];
    if (level === 'off' && ALWAYS_REPORTED.includes(id.toUpperCase())) return [`${id} cannot be off: it says a file could not be read`];
    return [];
  });
}

/** The arguments of the simulate command when a CodeLens, hover or the status bar runs it. */
export interface SimulateArguments {
  /** The document (a URI string); the active editor's when absent. */
  uri?: string;
  /** Kind/name of the workload whose node fails. */
  target?: string;
}

export function isSimulateArguments(value: unknown): value is SimulateArguments {
  if (typeof value !== 'object' || value === null) return false;
  const { uri, target } = value as Record<string, unknown>;
  return (uri === undefined || typeof uri === 'string') && (target === undefined || typeof target === 'string');
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
