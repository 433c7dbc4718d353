import { LineIndex } from './lineIndex';
import { toPath, type Path, type PathSegment } from './path';
import type { Range } from './range';
import { EVENT_ID, scalarKey, type Event, type ScalarEvent } from './yaml';

export const enum NodeKind {
  Scalar,
  Mapping,
  Sequence,
  Alias,
}

/** One YAML node with its offsets in the parsed text (end-exclusive). */
export interface SourceNode {
  kind: NodeKind;
  /** Value range: from the first node property (tag, anchor) or the value, quotes and block indicators included. */
  start: number;
  end: number;
  /** Key range when the node is a mapping value, else -1. */
  keyStart: number;
  keyEnd: number;
  /** Scalar style (1 plain, 2 single, 3 double, 4 literal, 5 folded); 0 for other kinds. */
  style: number;
  // Every node has all fields (undefined where they do not apply): one object shape.
  entries?: Map<string, SourceNode>;
  items?: SourceNode[];
  /** Nodes merged into a mapping with `<<` (YAML 1.1 merge keys), in priority order. */
  merges?: SourceNode[];
  /** For aliases: the anchored node. */
  target?: SourceNode;
  /** An alias of the document refers to this node: what is written here is also read there. */
  aliased: boolean;
}

export interface OffsetRange {
  start: number;
  end: number;
}

/**
 * A view of one document's node tree positioned in a file: ranges are the tree's offsets
 * shifted by the line where the document's chunk starts, so a cached tree is reused as-is
 * when lines above it change.
 */
export class SourceMap {
  constructor(
    readonly root: SourceNode | undefined,
    private readonly lines: LineIndex,
    readonly lineOffset: number,
    /** Offset of the parsed text in the file. */
    readonly baseOffset: number,
  ) {}

  /** The node at a path, following aliases and merge keys like the constructed value does. */
  node(path: string | Path): SourceNode | undefined {
    let node = this.root;
    for (const segment of toPath(path)) {
      if (!node) return undefined;
      node = child(resolve(node), segment);
    }
    return node;
  }

  /** The range of the value at the path. */
  valueRange(path: string | Path): Range | undefined {
    const node = this.node(path);
    return node && this.toRange(node.start, node.end);
  }

  /** The range of the key at the path; undefined for sequence items and the root. */
  keyRange(path: string | Path): Range | undefined {
    const node = this.node(path);
    return node && node.keyStart >= 0 ? this.toRange(node.keyStart, node.keyEnd) : undefined;
  }

  /** Where a field is written, to underline the field itself: its key, or for a list item or a missing field the closest range. */
  keyOrClosestRange(path: string | Path): Range {
    return this.keyRange(path) ?? this.closestRange(path);
  }

  /**
   * The best range to underline for a path that may not exist: its value if present, otherwise
   * the key of the deepest ancestor that exists (where the missing field would be written).
   */
  closestRange(path: string | Path): Range {
    let deepest = this.root;
    let found = true;
    for (const segment of toPath(path)) {
      const next = deepest && child(resolve(deepest), segment);
      if (!next) {
        found = false;
        break;
      }
      deepest = next;
    }
    if (!deepest) return this.toRange(0, 0);
    if (!found && deepest.keyStart >= 0) return this.toRange(deepest.keyStart, deepest.keyEnd);
    return this.toRange(deepest.start, deepest.end);
  }

  /** The text of a plain scalar as written (YAML reads 1.10 as 1.1 and 010 as 8); undefined for any other node. */
  plainText(path: string | Path): string | undefined {
    const node = this.node(path);
    if (!node || node.kind !== NodeKind.Scalar || node.style !== 1) return undefined;
    const text = this.lines.text.slice(node.start, node.end);
    // A tag or an anchor before the value: the hint would quote them too.
    return /^[!&]/.test(text) ? undefined : text;
  }

  /** Offsets in the file (for tests and for slicing the source). */
  valueOffsets(path: string | Path): OffsetRange | undefined {
    const node = this.node(path);
    return node && { start: this.baseOffset + node.start, end: this.baseOffset + node.end };
  }

  keyOffsets(path: string | Path): OffsetRange | undefined {
    const node = this.node(path);
    return node && node.keyStart >= 0 ? { start: this.baseOffset + node.keyStart, end: this.baseOffset + node.keyEnd } : undefined;
  }

  /**
   * The node at a path written in the document itself: undefined when the path goes through an
   * alias or a merge key (an edit there would change the anchored node, elsewhere), or through a
   * node an alias refers to (an edit there would also change what the alias reads).
   */
  writtenNode(path: string | Path): SourceNode | undefined {
    let node = this.root;
    for (const segment of toPath(path)) {
      if (!node || node.kind === NodeKind.Alias || node.aliased) return undefined;
      node = typeof segment === 'number' ? node.items?.[segment] : node.entries?.get(segment);
    }
    return node && node.kind !== NodeKind.Alias && !node.aliased ? node : undefined;
  }

  /** The deepest path whose key or value contains the file offset, and whether the offset is on the key. */
  pathAt(fileOffset: number): { path: PathSegment[]; onKey: boolean } | undefined {
    const offset = fileOffset - this.baseOffset;
    let node = this.root;
    if (!node || offset < node.start || offset > node.end) return undefined;
    const path: PathSegment[] = [];
    let onKey = false;
    for (;;) {
      let next: { segment: PathSegment; node: SourceNode } | undefined;
      if (node.entries) {
        for (const [key, value] of node.entries) {
          if ((offset >= value.keyStart && offset <= value.keyEnd) || (offset >= value.start && offset <= value.end && value.start < value.end)) {
            next = { segment: key, node: value };
            onKey = offset >= value.keyStart && offset <= value.keyEnd;
            break;
          }
        }
      } else if (node.items) {
        node.items.forEach((item, i) => {
          if (!next && offset >= item.start && offset <= item.end) next = { segment: i, node: item };
        });
        onKey = false;
      }
      if (!next) return { path, onKey };
      path.push(next.segment);
      if (onKey) return { path, onKey };
      node = next.node;
    }
  }

  /** A map rooted at a sub-node (the items of a `kind: List`). */
  subMap(path: string | Path): SourceMap | undefined {
    const node = this.node(path);
    return node && new SourceMap(resolve(node), this.lines, this.lineOffset, this.baseOffset);
  }

  toRange(start: number, end: number): Range {
    return this.lines.range(start, end, this.lineOffset);
  }

  /** Every scalar written in the document (not reached through an alias), with its path. */
  *scalars(): Generator<{ path: PathSegment[]; node: SourceNode }> {
    if (!this.root) return;
    const stack: { node: SourceNode; path: PathSegment[] }[] = [{ node: this.root, path: [] }];
    while (stack.length > 0) {
      const { node, path } = stack.pop()!;
      if (node.kind === NodeKind.Scalar) yield { path, node };
      else if (node.entries) for (const [key, value] of node.entries) stack.push({ node: value, path: [...path, key] });
      else if (node.items) node.items.forEach((item, index) => stack.push({ node: item, path: [...path, index] }));
    }
  }
}

function resolve(node: SourceNode): SourceNode {
  let current = node;
  for (let hops = 0; current.kind === NodeKind.Alias && current.target && hops < 100; hops++) current = current.target;
  return current;
}

function child(node: SourceNode, segment: PathSegment): SourceNode | undefined {
  if (typeof segment === 'number') return node.items?.[segment];
  const own = node.entries?.get(segment);
  if (own || !node.merges) return own;
  for (const merged of node.merges) {
    const found = child(resolve(merged), segment);
    if (found) return found;
  }
  return undefined;
}

/** Builds the node tree of each document in an event stream. */
export function buildSourceTrees(source: string, events: Event[]): (SourceNode | undefined)[] {
  const builder = new TreeBuilder(source, events);
  const roots: (SourceNode | undefined)[] = [];
  while (builder.index < events.length) {
    const event = events[builder.index++];
    if (event.type !== EVENT_ID.DOCUMENT) continue;
    builder.anchors.clear();
    const first = events[builder.index];
    roots.push(first && first.type !== EVENT_ID.POP ? builder.node(0) : undefined);
    if (events[builder.index]?.type === EVENT_ID.POP) builder.index++;
  }
  return roots;
}

class TreeBuilder {
  index = 0;
  readonly anchors = new Map<string, SourceNode>();

  constructor(private readonly source: string, private readonly events: Event[]) {}

  /** Builds the node at `index`; `scanFrom` is the end of the previous token (to find block scalar indicators). */
  node(scanFrom: number): SourceNode {
    const event = this.events[this.index++];
    switch (event.type) {
      case EVENT_ID.SCALAR:
        return this.remember(event, this.scalar(event, scanFrom));
      case EVENT_ID.ALIAS: {
        const name = this.source.slice(event.anchorStart, event.anchorEnd);
        const target = this.anchors.get(name);
        if (target) target.aliased = true;
        return {
          kind: NodeKind.Alias, start: event.anchorStart - 1, end: event.anchorEnd, keyStart: -1, keyEnd: -1, style: 0,
          entries: undefined, items: undefined, merges: undefined, target, aliased: false,
        };
      }
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        const isMapping = event.type === EVENT_ID.MAPPING;
        const node: SourceNode = {
          kind: isMapping ? NodeKind.Mapping : NodeKind.Sequence,
          start: propertyStart(event) ?? event.start, end: event.start, keyStart: -1, keyEnd: -1, style: 0,
          entries: undefined, items: undefined, merges: undefined, target: undefined, aliased: false,
        };
        this.remember(event, node);
        const isFlow = event.style === 2;
        const bodyStart = event.start + (isFlow || !isMapping ? 1 : 0);
        const lastEnd = isMapping ? this.mappingBody(node, bodyStart) : this.sequenceBody(node, bodyStart);
        node.end = isFlow ? closingBracket(this.source, lastEnd) : lastEnd;
        return node;
      }
      default:
        throw new Error(`unexpected YAML event ${event.type} at ${this.index - 1}`);
    }
  }

  /** Reads entries up to the closing POP; returns the end of the last content. */
  private mappingBody(node: SourceNode, bodyStart: number): number {
    const entries = new Map<string, SourceNode>();
    node.entries = entries;
    let lastEnd = bodyStart;
    while (this.index < this.events.length && this.events[this.index].type !== EVENT_ID.POP) {
      const keyEvent = this.events[this.index];
      const key = this.node(lastEnd);
      const value = this.node(key.end);
      value.keyStart = key.start;
      value.keyEnd = key.end;
      if (keyEvent.type === EVENT_ID.SCALAR && key.kind === NodeKind.Scalar) {
        const name = scalarKey(this.source, keyEvent);
        if (name === '<<' && keyEvent.style === 1) (node.merges ??= []).push(...(value.items ?? [value]));
        else entries.set(name, value);
      }
      lastEnd = contentEnd(this.source, value);
    }
    this.index++;
    return lastEnd;
  }

  private sequenceBody(node: SourceNode, bodyStart: number): number {
    const items: SourceNode[] = [];
    node.items = items;
    let lastEnd = bodyStart;
    while (this.index < this.events.length && this.events[this.index].type !== EVENT_ID.POP) {
      const item = this.node(lastEnd);
      items.push(item);
      lastEnd = contentEnd(this.source, item);
    }
    this.index++;
    return lastEnd;
  }

  private scalar(event: ScalarEvent, scanFrom: number): SourceNode {
    const node: SourceNode = {
      kind: NodeKind.Scalar, start: 0, end: 0, keyStart: -1, keyEnd: -1, style: event.style,
      entries: undefined, items: undefined, merges: undefined, target: undefined, aliased: false,
    };
    const properties = propertyStart(event);
    if (event.valueStart < 0) {
      const at = emptyValueOffset(this.source, Math.max(scanFrom, propertyEnd(event)));
      node.start = properties ?? at;
      node.end = Math.max(at, node.start);
    } else if (event.style === 2 || event.style === 3) {
      node.start = properties ?? event.valueStart - 1;
      node.end = event.valueEnd + 1;
    } else if (event.style === 4 || event.style === 5) {
      node.start = properties ?? blockIndicator(this.source, Math.max(scanFrom, propertyEnd(event)), event.valueStart);
      node.end = event.valueEnd;
    } else {
      node.start = properties ?? event.valueStart;
      node.end = event.valueEnd;
    }
    return node;
  }

  private remember(event: { anchorStart: number; anchorEnd: number }, node: SourceNode): SourceNode {
    if (event.anchorStart >= 0) this.anchors.set(this.source.slice(event.anchorStart, event.anchorEnd), node);
    return node;
  }
}

interface Properties {
  anchorStart: number;
  anchorEnd: number;
  tagStart: number;
  tagEnd: number;
}

function propertyStart(event: Properties): number | undefined {
  const anchor = event.anchorStart >= 0 ? event.anchorStart - 1 : Infinity;
  const tag = event.tagStart >= 0 ? event.tagStart : Infinity;
  const start = Math.min(anchor, tag);
  return start === Infinity ? undefined : start;
}

function propertyEnd(event: Properties): number {
  return Math.max(event.anchorEnd, event.tagEnd, -1);
}

/** Where an empty value sits: just after the `:`, `-` or `?` that introduced it. */
function emptyValueOffset(source: string, from: number): number {
  let i = Math.max(0, from);
  while (i < source.length && (source[i] === ' ' || source[i] === '\t')) i++;
  if (source[i] === ':' || source[i] === '-' || source[i] === '?') i++;
  return i;
}

/** The `|` or `>` that opens a block scalar whose content starts at `contentStart`. */
function blockIndicator(source: string, from: number, contentStart: number): number {
  for (let i = Math.max(0, from); i < contentStart; i++) {
    const c = source[i];
    if (c === '|' || c === '>') return i;
    if (c === '#' && (i === 0 || /\s/.test(source[i - 1]))) {
      while (i < contentStart && source[i] !== '\n' && source[i] !== '\r') i++;
    }
  }
  return contentStart;
}

/** End of a node's visible content: block scalars carry their trailing line breaks, which a range should not. */
function contentEnd(source: string, node: SourceNode): number {
  if (node.style !== 4 && node.style !== 5) return node.end;
  let end = node.end;
  while (end > node.start && /\s/.test(source[end - 1])) end--;
  return end;
}

/** The offset just after the `]` or `}` that closes a flow collection whose last content ends at `from`. */
function closingBracket(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === ']' || c === '}') return i + 1;
    if (c === '#' && /\s/.test(source[i - 1] ?? ' ')) {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    }
  }
  return source.length;
}
