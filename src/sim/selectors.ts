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

/** The label every namespace carries with its name (1.22 on): the only namespace label the input tells. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * Whether an inter-pod (anti-)affinity term looks at pods of `namespace`: the union of its
 * namespaces and those its namespaceSelector selects; with neither, the namespace of the pod that
 * has the term (`own`). A namespace's labels are taken to be its name label only.
 */
export function termCoversNamespace(term: PodAffinityTerm, own: string, namespace: string): boolean {
  if (term.namespaces.length === 0 && term.namespaceSelector === undefined) return namespace === own;
  return term.namespaces.includes(namespace) || (term.namespaceSelector !== undefined && matchesLabelSelector(term.namespaceSelector, { [NAMESPACE_NAME_LABEL]: namespace }));
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
