import type { ClusterSpec } from '../cluster/clusterSpec';
import type { TimingConfiguration } from '../cluster/timing';
import type { ManifestModel } from '../manifest/model';
import type { Sourced, Workload } from '../manifest/model/types';
import type { ManifestObject } from '../manifest/objects';
import type { SourceLocation } from '../manifest/range';
import type { ReadManifest } from '../manifest/readManifest';
import type { Finding, Severity } from './finding';
import type { NotSimulated } from './notSimulated';
import type { WorkloadSimulations } from './workloadSimulation';

export interface RuleContext {
  /** The document being checked, read up to its model. */
  document: ReadManifest;
  /** Every object of the workspace folder (or CLI run), this document's included. */
  workspace: ManifestModel;
  /** The timing of the workspace: version defaults, preset, cluster files, overrides. */
  timing: TimingConfiguration;
  /** The nodes simulations run on: the workspace's Node objects, or the default cluster. */
  cluster: ClusterSpec;
  /** Per-workload default scenarios, cached across analyses. */
  simulations: Pick<WorkloadSimulations, 'outcome'>;
  /** Workloads of the document whose default scenario is not simulated, and why (notSimulated.ts). */
  unsimulated: ReadonlyMap<Sourced<Workload>, NotSimulated>;
  /** Where an object of the workspace is written (for related information). */
  locate(object: ManifestObject): SourceLocation | undefined;
}

/** What the catalogue says of a rule (RULES.md): also the metadata of SARIF output and settings. */
export interface RuleInfo {
  /** Stable forever. */
  id: string;
  title: string;
  defaultSeverity: Severity;
  /** Kubernetes documentation that backs the rule. */
  docs: string;
}

export interface Rule extends RuleInfo {
  check(context: RuleContext): Finding[];
}
