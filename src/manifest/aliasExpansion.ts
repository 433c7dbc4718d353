/**
 * The "billion laughs" guard of go-yaml v2, which kubectl and the API server decode YAML with
 * (sigs.k8s.io/yaml): a document fails with "document contains excessive aliasing" when nodes
 * decoded through aliases outnumber the others beyond a ratio that shrinks as the document
 * grows (yaml.v2 decode.go, allowedAliasRatio). js-yaml shares aliased values instead of
 * copying them, so such a document parses cheaply here but explodes in whatever walks its
 * value; this finds it from the node tree, with expanded sizes memoised per node, in time
 * linear in the written nodes.
 */
import { ALIAS_RATIO_RANGE } from './limits';
import { NodeKind, type SourceNode } from './sourceMap';

const { low: RATIO_RANGE_LOW, high: RATIO_RANGE_HIGH } = ALIAS_RATIO_RANGE;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - RATIO_RANGE_LOW) / (RATIO_RANGE_HIGH - RATIO_RANGE_LOW));
}

function excessive(decodeCount: number, aliasCount: number): boolean {
  return aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount);
}

export interface ExcessiveAliasing {
  /** The alias whose expansion crosses the limit. */
  alias: SourceNode;
  /** Nodes the document decodes to up to and including that expansion. */
  decodedNodes: number;
}

/** The first alias at which go-yaml v2 would give up on the document, if any. */
export function findExcessiveAliasing(root: SourceNode | undefined): ExcessiveAliasing | undefined {
  if (!root) return undefined;
  const sizes = new Map<SourceNode, number>();
  // Decoded nodes of a subtree with aliases expanded (a mapping entry decodes its key too).
  const size = (node: SourceNode): number => {
    const known = sizes.get(node);
    if (known !== undefined) return known;
    sizes.set(node, 1); // an alias cycle (not valid YAML anchors, but cheap to guard) counts once
    let total = 1;
    if (node.kind === NodeKind.Alias) total += node.target ? size(node.target) : 0;
    for (const child of node.entries?.values() ?? []) total += 1 + size(child);
    for (const item of node.items ?? []) total += size(item);
    for (const merged of node.merges ?? []) total += 1 + size(merged);
    sizes.set(node, total);
    return total;
  };
  // Walk the written tree in order; only alias expansions raise the aliased share, and within one
  // expansion both counts grow together, so checking after each expansion finds the first failure.
  let decodeCount = 1; // the document node
  let aliasCount = 0;
  const stack: SourceNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    decodeCount += node.keyStart >= 0 ? 2 : 1; // a mapping value's key is decoded just before it
    if (node.kind === NodeKind.Alias) {
      const expanded = node.target ? size(node.target) : 0;
      decodeCount += expanded;
      aliasCount += expanded;
      if (excessive(decodeCount, aliasCount)) return { alias: node, decodedNodes: decodeCount };
      continue;
    }
    const children = [...(node.entries?.values() ?? []), ...(node.items ?? []), ...(node.merges ?? [])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return undefined;
}

/**
 * An alias inside the node its anchor names (`&r {x: *r}`, or a merge key of it): go-yaml v2
 * refuses it ("anchor 'r' value contains itself"), while js-yaml builds a value that contains
 * itself, which no walk of the value ends. Found on the written tree, each node once.
 */
export function findRecursiveAlias(root: SourceNode | undefined): SourceNode | undefined {
  if (!root) return undefined;
  const onPath = new Set<SourceNode>();
  // Each node is pushed twice: to enter it (its children follow) and, below them, to leave it.
  const stack: { node: SourceNode; leave: boolean }[] = [{ node: root, leave: false }];
  while (stack.length > 0) {
    const { node, leave } = stack.pop()!;
    if (leave) {
      onPath.delete(node);
      continue;
    }
    if (node.kind === NodeKind.Alias && node.target && onPath.has(node.target)) return node;
    if ((node.merges ?? []).some((merged) => onPath.has(merged))) return node;
    onPath.add(node);
    stack.push({ node, leave: true });
    for (const child of [...(node.entries?.values() ?? []), ...(node.items ?? []), ...(node.merges ?? [])]) stack.push({ node: child, leave: false });
  }
  return undefined;
}
