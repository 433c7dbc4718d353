import type { ManifestModel } from '../manifest/model';
import type { ClusterConfig } from '../manifest/model/clusterConfig';
import type { ManifestObject } from '../manifest/objects';
import type { Finding, Severity } from './finding';

export interface RuleContext {
  model: ManifestModel;
  objects: ManifestObject[];
  /** Cluster configuration from the other files of the same input, for rules that combine settings. */
  otherClusterConfig?: ClusterConfig;
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
