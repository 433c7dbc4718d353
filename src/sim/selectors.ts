/** Label selectors and node selector terms, as the API defines their matching. */
import type { LabelSelector, NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm } from '../manifest/model/types';

export function matchesLabelSelector(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const key in selector.matchLabels) if (labels[key] !== selector.matchLabels[key]) return false;
  for (const e of selector.matchExpressions) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const value = labels[e.key];
    switch (e.operator) {
      case 'In': if (!has || !e.values.includes(value)) return false; break;
      case 'NotIn': if (has && e.values.includes(value)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
    }
  }
  return true;
}

/** The label every namespace carries with its name (1.22 on). */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Labels of the namespaces the input declares (Namespace objects), with the name label the API server sets on each. */
export type NamespaceLabels = ReadonlyMap<string, Readonly<Record<string, string>>>;

export function namespaceLabels(namespaces: readonly { name: string; labels: Record<string, string> }[]): NamespaceLabels {
  return new Map(namespaces.map((n) => [n.name, { ...n.labels, [NAMESPACE_NAME_LABEL]: n.name }]));
}

const NO_NAMESPACES: NamespaceLabels = new Map();

/**
 * The namespaces whose pods an inter-pod (anti-)affinity term looks at, as a test: the union of its
 * namespaces and those its namespaceSelector selects (`withSelector`: the feature is on, 1.22);
 * with neither, the namespace of the pod that has the term (`own`). A namespace the input declares
 * is selected by its labels; of one it does not declare only the name is known, so a requirement on
 * another label is assumed to hold for the pod's own namespace and no other.
 */
export function termNamespaces(term: PodAffinityTerm, own: string, withSelector = true, declared: NamespaceLabels = NO_NAMESPACES): (namespace: string) => boolean {
  const selector = withSelector ? term.namespaceSelector : undefined;
  if (term.namespaces.length === 0 && selector === undefined) return (namespace) => namespace === own;
  if (selector === undefined) return (namespace) => term.namespaces.includes(namespace);
  // Built once per term: the scheduler asks about every pod of the cluster.
  const byName = (key: string) => key === NAMESPACE_NAME_LABEL;
  const named: LabelSelector = {
    matchLabels: Object.fromEntries(Object.entries(selector.matchLabels).filter(([key]) => byName(key))),
    matchExpressions: selector.matchExpressions.filter((e) => byName(e.key)),
  };
  const byOtherLabels = Object.keys(selector.matchLabels).some((key) => !byName(key)) || selector.matchExpressions.some((e) => !byName(e.key));
  return (namespace) => {
    if (term.namespaces.includes(namespace)) return true;
    const labels = declared.get(namespace);
    if (labels) return matchesLabelSelector(selector, labels);
    return matchesLabelSelector(named, { [NAMESPACE_NAME_LABEL]: namespace }) && (!byOtherLabels || namespace === own);
  };
}

/** A map selector (Service, ReplicationController, nodeSelector): every pair must match; empty selects nothing for Services. */
export function matchesMap(selector: Record<string, string>, labels: Record<string, string>): boolean {
  for (const key in selector) if (labels[key] !== selector[key]) return false;
  return true;
}

function matchesRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  switch (r.operator) {
    case 'In': return value !== undefined && r.values.includes(value);
    case 'NotIn': return value === undefined || !r.values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    case 'Gt': return value !== undefined && Number(value) > Number(r.values[0]);
    case 'Lt': return value !== undefined && Number(value) < Number(r.values[0]);
  }
}

/** Terms are ORed, requirements inside a term ANDed; an empty list matches every node. */
export function matchesNodeSelectorTerms(terms: readonly NodeSelectorTerm[], nodeName: string, labels: Record<string, string>): boolean {
  if (terms.length === 0) return true;
  return terms.some((term) =>
    (term.matchExpressions.length > 0 || term.matchFields.length > 0)
    && term.matchExpressions.every((r) => matchesRequirement(r, labels[r.key]))
    && term.matchFields.every((r) => matchesRequirement(r, r.key === 'metadata.name' ? nodeName : undefined)));
}
