/**
 * Minimal edits of a YAML document for quick fixes: a value replaced, an entry added to a
 * mapping, items appended to a sequence, each at the indentation the document already uses,
 * with its line endings, every other byte unchanged. Nodes reached through an alias or a merge
 * key are not edited (the edit would land on the anchor, elsewhere): those fixes are not offered.
 */
import type { LineIndex } from '../manifest/lineIndex';
import type { Path, PathSegment } from '../manifest/path';
import { NodeKind, type SourceMap, type SourceNode } from '../manifest/sourceMap';
import type { TextEdit } from './finding';

export type YamlValue = string | number | boolean | YamlValue[] | { [key: string]: YamlValue };

const PLAIN = /^[A-Za-z0-9_/][A-Za-z0-9_./ -]*$/;
/** What YAML 1.1 reads as a boolean, null, a number (any base, `_` separators, base 60) or a timestamp. */
const AMBIGUOUS = /^(true|false|yes|no|on|off|y|n|null|~|[-+]?(0b[01_]+|0o?[0-7_]+|0x[0-9a-f_]+|[0-9][0-9_]*(:[0-5]?[0-9])*(\.[0-9_]*)?(e[-+]?[0-9]+)?|\.[0-9_]+(e[-+]?[0-9]+)?|\.(inf|nan))|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*)$/i;

/** A scalar as YAML text: numbers and booleans as they are, strings plain when safe, else double-quoted. */
export function scalarText(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  return PLAIN.test(value) && !AMBIGUOUS.test(value) && !value.endsWith(' ') ? value : JSON.stringify(value);
}

function flowText(value: YamlValue): string {
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${scalarText(k)}: ${flowText(v)}`).join(', ')}}`;
  return scalarText(value);
}

/** The file's line break, found once per file (an editor is made per fix, and files can be megabytes). */
const lineBreaks = new WeakMap<LineIndex, string>();

export class DocumentEditor {
  private readonly eol: string;
  private readonly unit: number;
  /** Whether block sequence items sit at their key's column (`key:\n- a`) rather than indented. */
  private readonly flushSequences: boolean;

  constructor(private readonly text: string, private readonly lines: LineIndex, private readonly map: SourceMap) {
    let eol = lineBreaks.get(lines);
    if (eol === undefined) lineBreaks.set(lines, (eol = text.includes('\r\n') ? '\r\n' : '\n'));
    this.eol = eol;
    const style = detectStyle(map.root, (offset) => this.column(this.base(offset)), (node) => this.isFlow(node), (item) => this.dashColumn(item));
    this.unit = style.unit;
    this.flushSequences = style.flushSequences;
  }

  /** Replaces the value at a path (written in this document) with YAML text. */
  replaceValue(path: Path, newText: string): TextEdit | undefined {
    const node = this.map.writtenNode(path);
    if (!node) return undefined;
    return this.edit(node.start, node.end, `${this.gluedToIndicator(node) ? ' ' : ''}${newText}`);
  }

  /** Sets `key` in the mapping at `mapPath`: replaces its value, or adds the entry (creating missing parent mappings). */
  /** `first`: a new block entry goes above the mapping's first one (where `replicas` is read), not below its last. */
  setEntry(mapPath: Path, key: string, value: YamlValue, position: 'first' | 'last' = 'last'): TextEdit | undefined {
    const mapping = this.map.writtenNode(mapPath);
    if (!mapping) {
      if (mapPath.length === 0 || typeof mapPath[mapPath.length - 1] !== 'string') return undefined;
      return this.setEntry(mapPath.slice(0, -1), mapPath[mapPath.length - 1] as string, { [key]: value });
    }
    if (mapping.kind === NodeKind.Scalar && this.isEmptyScalar(mapping)) {
      return this.replaceValue(mapPath, flowText({ [key]: value }));
    }
    if (mapping.kind !== NodeKind.Mapping || !mapping.entries || mapping.merges) return undefined;
    const existing = mapping.entries.get(key);
    if (existing) {
      if (existing.kind === NodeKind.Scalar || typeof value !== 'object') return this.replaceValue([...mapPath, key], flowText(value));
      return undefined;
    }
    if (this.isFlow(mapping)) {
      const close = this.base(mapping.end) - 1;
      return this.edit(close, close, `${this.flowSeparator(close, mapping.entries.size === 0)}${scalarText(key)}: ${flowText(value)}`, true);
    }
    const first = [...mapping.entries.values()][0];
    const column = first ? this.keyColumn(first) : this.column(this.base(mapping.start));
    const lines = this.entryLines(key, value, column);
    if (position === 'first' && first) {
      // Only where the first key starts its line (not after a sequence's dash).
      const keyAt = this.base(first.keyStart);
      const lineStart = this.lines.lineStart(this.lines.lineOf(keyAt));
      if (this.text.slice(lineStart, keyAt).trim() === '') return this.edit(lineStart, lineStart, `${lines.join(this.eol)}${this.eol}`, true);
    }
    return this.insertLines(mapping, lines);
  }

  /** Adds entries none of which the mapping at `mapPath` has yet, in one edit after its last entry; undefined if one is there. */
  addEntries(mapPath: Path, entries: Record<string, YamlValue>): TextEdit | undefined {
    const mapping = this.map.writtenNode(mapPath);
    if (!mapping || mapping.kind !== NodeKind.Mapping || !mapping.entries || mapping.merges || mapping.entries.size === 0) return undefined;
    const pairs = Object.entries(entries);
    if (pairs.some(([key]) => mapping.entries!.has(key))) return undefined;
    if (this.isFlow(mapping)) {
      const close = this.base(mapping.end) - 1;
      return this.edit(close, close, `${this.flowSeparator(close, false)}${pairs.map(([k, v]) => `${scalarText(k)}: ${flowText(v)}`).join(', ')}`, true);
    }
    const column = this.keyColumn([...mapping.entries.values()][0]);
    return this.insertLines(mapping, pairs.flatMap(([k, v]) => this.entryLines(k, v, column)));
  }

  /** Appends items to the sequence at `path`; creates it (`key: [items]` in block style) when missing. */
  appendItems(path: Path, items: YamlValue[]): TextEdit | undefined {
    const sequence = this.map.writtenNode(path);
    const key = path[path.length - 1];
    if (!sequence) return typeof key === 'string' ? this.setEntry(path.slice(0, -1), key, items) : undefined;
    if (sequence.kind !== NodeKind.Sequence || !sequence.items) return undefined;
    if (this.isFlow(sequence)) {
      const close = this.base(sequence.end) - 1;
      return this.edit(close, close, this.flowSeparator(close, sequence.items.length === 0) + items.map(flowText).join(', '), true);
    }
    const dash = this.dashColumn(sequence.items[0]);
    return this.insertLines(sequence, items.flatMap((item) => this.itemLines(item, dash)));
  }

  private entryLines(key: string, value: YamlValue, column: number): string[] {
    const pad = ' '.repeat(column);
    if (Array.isArray(value)) {
      if (value.length === 0) return [`${pad}${scalarText(key)}: []`];
      const dash = column + (this.flushSequences ? 0 : this.unit);
      return [`${pad}${scalarText(key)}:`, ...value.flatMap((item) => this.itemLines(item, dash))];
    }
    if (typeof value === 'object') {
      const entries = Object.entries(value);
      if (entries.length === 0) return [`${pad}${scalarText(key)}: {}`];
      return [`${pad}${scalarText(key)}:`, ...entries.flatMap(([k, v]) => this.entryLines(k, v, column + this.unit))];
    }
    return [`${pad}${scalarText(key)}: ${scalarText(value)}`];
  }

  private itemLines(item: YamlValue, dashColumn: number): string[] {
    const pad = ' '.repeat(dashColumn);
    if (typeof item !== 'object' || Array.isArray(item) || Object.keys(item).length === 0) return [`${pad}- ${flowText(item)}`];
    const lines = Object.entries(item).flatMap(([k, v]) => this.entryLines(k, v, dashColumn + 2));
    return [`${pad}- ${lines[0].slice(dashColumn + 2)}`, ...lines.slice(1)];
  }

  /** What goes before a new entry of a flow collection: nothing in an empty one, a space after a trailing comma, else a comma. */
  private flowSeparator(close: number, empty: boolean): string {
    if (empty) return '';
    return this.text[this.lastCodeBefore(close)] === ',' ? ' ' : ', ';
  }

  /** The last character before `offset` that is neither blank nor part of a comment (a flow collection's lines may end in one). */
  private lastCodeBefore(offset: number): number {
    for (let line = this.lines.lineOf(offset); line >= 0; line--) {
      const start = this.lines.lineStart(line);
      const end = Math.min(offset, start + this.lineText(line).length);
      const code = this.text.slice(start, commentStart(this.text, start, end)).trimEnd();
      if (code.length > 0) return start + code.length - 1;
    }
    return -1;
  }

  /**
   * New lines after the last line of a block collection; after a keep-chomping block scalar
   * (`|+`) that ends it, after its trailing blank lines, which belong to its value.
   */
  private insertLines(collection: SourceNode, lines: string[]): TextEdit {
    let endLine = this.lines.lineOf(this.base(collection.end) - 1);
    if (this.endsWithKeptLines(collection)) {
      while (endLine + 1 < this.lines.lineCount && this.lineText(endLine + 1).trim() === '') endLine++;
    }
    const nextLineStart = endLine + 1 < this.lines.lineCount ? this.lines.lineStart(endLine + 1) : this.text.length;
    const atEnd = nextLineStart === this.text.length && !this.text.endsWith('\n');
    const insertAt = atEnd ? this.text.length : nextLineStart;
    const body = lines.join(this.eol);
    return this.edit(insertAt, insertAt, atEnd ? `${this.eol}${body}` : `${body}${this.eol}`, true);
  }

  private endsWithKeptLines(collection: SourceNode): boolean {
    let last: SourceNode | undefined = collection;
    for (let depth = 0; last && depth < 100 && (last.entries || last.items); depth++) {
      last = last.entries ? [...last.entries.values()].at(-1) : last.items!.at(-1);
    }
    if (!last || (last.style !== 4 && last.style !== 5)) return false;
    const header = this.text.slice(this.base(last.start), this.text.indexOf('\n', this.base(last.start)));
    return /^[^#]*[|>][0-9]?\+/.test(header);
  }

  private lineText(line: number): string {
    const start = this.lines.lineStart(line);
    const next = line + 1 < this.lines.lineCount ? this.lines.lineStart(line + 1) : this.text.length;
    return this.text.slice(start, next);
  }

  private dashColumn(item: SourceNode): number {
    let i = this.base(item.start) - 1;
    while (i > 0 && this.text[i] !== '-') i--;
    return this.column(i);
  }

  /** Where an entry's key starts its line: at its `?` when it is an explicit key (`? containers`). */
  private keyColumn(entry: SourceNode): number {
    const keyAt = this.base(entry.keyStart);
    const lineStart = this.lines.lineStart(this.lines.lineOf(keyAt));
    const explicit = /^(\s*)\?\s+$/.exec(this.text.slice(lineStart, keyAt));
    return explicit ? explicit[1].length : this.column(keyAt);
  }

  /** `key:` or `-` with nothing after it: a value written there needs a space before it. */
  private gluedToIndicator(node: SourceNode): boolean {
    const before = this.text[this.base(node.start) - 1];
    return (before === ':' || before === '-') && this.isEmptyScalar(node);
  }

  /** `key:` with nothing after it, or null / ~. */
  private isEmptyScalar(node: SourceNode): boolean {
    const text = this.text.slice(this.base(node.start), this.base(node.end)).trim();
    return text === '' || text === 'null' || text === '~';
  }

  private isFlow(node: SourceNode): boolean {
    const c = this.text[this.base(node.start)];
    return c === '{' || c === '[';
  }

  private base(offset: number): number {
    return this.map.baseOffset + offset;
  }

  private column(fileOffset: number): number {
    return fileOffset - this.lines.lineStart(this.lines.lineOf(fileOffset));
  }

  private edit(start: number, end: number, newText: string, fileOffsets = false): TextEdit {
    const from = fileOffsets ? start : this.base(start);
    const to = fileOffsets ? end : this.base(end);
    return { range: this.lines.range(from, to), newText };
  }
}

/** Where a comment starts in text[start, end): a # at the line's start or after a blank, outside quotes; `end` if none. */
function commentStart(text: string, start: number, end: number): number {
  let quote = '';
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && !(quote === '"' && text[i - 1] === '\\')) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === start || /\s/.test(text[i - 1]))) return i;
  }
  return end;
}

/** The document's indentation unit and sequence style, from its first nested mapping and sequence. */
function detectStyle(root: SourceNode | undefined, column: (offset: number) => number, isFlow: (node: SourceNode) => boolean, dashColumn: (item: SourceNode) => number): { unit: number; flushSequences: boolean } {
  let unit: number | undefined;
  let flush: boolean | undefined;
  const visit = (node: SourceNode, parentKeyColumn: number | undefined, depth: number) => {
    if (depth > 20 || (unit !== undefined && flush !== undefined) || isFlow(node)) return;
    if (node.entries) {
      for (const value of node.entries.values()) {
        const keyColumn = column(value.keyStart);
        if (unit === undefined && parentKeyColumn !== undefined && keyColumn > parentKeyColumn) unit = keyColumn - parentKeyColumn;
        // Where the dash is, whatever follows it (`-   name:`).
        if (flush === undefined && value.kind === NodeKind.Sequence && value.items?.length && !isFlow(value)) flush = dashColumn(value.items[0]) <= keyColumn;
        visit(value, keyColumn, depth + 1);
      }
    } else if (node.items) {
      for (const item of node.items) visit(item, parentKeyColumn, depth + 1);
    }
  };
  if (root) visit(root, undefined, 0);
  return { unit: unit ?? 2, flushSequences: flush ?? false };
}

export type { PathSegment };
