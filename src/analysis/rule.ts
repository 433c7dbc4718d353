import type { TimingConfiguration } from '../cluster/timing';
import type { ManifestModel } from '../manifest/model';
import type { ReadManifest } from '../manifest/readManifest';
import type { Finding, Severity } from './finding';

export interface RuleContext {
  /** The document being checked, read up to its model. */
  document: ReadManifest;
  /** Every object of the workspace folder (or CLI run), this document's included. */
  workspace: ManifestModel;
  /** The timing of the workspace: version defaults, preset, cluster files, overrides. */
  timing: TimingConfiguration;
}

export interface Rule {
  /** Stable forever (RULES.md). */
  id: string;
  title: string;
  defaultSeverity: Severity;
  /** Kubernetes documentation that backs the rule. */
  docs: string;
  check(context: RuleContext): Finding[];
}
