import { splitDocuments } from './documentSplitter';
import { LineIndex } from './lineIndex';
import { LIMIT_REACHED, SYNTAX_ERROR, TEMPLATE_DETECTED, type ManifestProblem } from './problem';
import type { Range } from './range';
import { SourceMap, buildSourceTrees, type SourceNode } from './sourceMap';
import { findExcessiveAliasing, findRecursiveAlias } from './aliasExpansion';
import { findTemplateExpression } from './templates';
import { formatCount } from './formatCount';
import { MAX_DEPTH, MAX_DOCUMENTS, MAX_FILE_CHARS } from './limits';
import { EVENT_ID, isSyntaxError, parseYaml, type YamlSyntaxError } from './yaml';

export interface ParsedDocument {
  /** 0-based index of the document in the file. */
  index: number;
  value: unknown;
  /** Range of the document's content: its first key to its last value. */
  range: Range;
  sourceMap: SourceMap;
}

export interface ParsedFile {
  text: string;
  lines: LineIndex;
  documents: ParsedDocument[];
  /** YAML errors, a detected template, limits reached. */
  problems: ManifestProblem[];
}

export interface ParseLimits {
  maxDocuments: number;
  maxChars: number;
}

export const DEFAULT_LIMITS: ParseLimits = { maxDocuments: MAX_DOCUMENTS, maxChars: MAX_FILE_CHARS };

/** What parsing one chunk of text gave; cached by the chunk's text. */
interface ChunkParse {
  lines: LineIndex;
  roots: (SourceNode | undefined)[];
  values: unknown[];
  error?: YamlSyntaxError;
  templateOffset: number;
}

/**
 * Parses a file one document at a time and remembers each document's parse by its text, so
 * that re-parsing after an edit only parses the documents whose text changed. One instance
 * per file; the cache holds only the documents of the last parse.
 */
export class ManifestParser {
  private cache = new Map<string, ChunkParse>();

  constructor(private readonly limits: ParseLimits = DEFAULT_LIMITS) {}

  /** Number of chunks parsed (not taken from the cache) by the last call, for tests and benchmarks. */
  lastParsedChunks = 0;

  parse(input: string): ParsedFile {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    const split = splitDocuments(text);
    const lines = new LineIndex(text, split.lineStarts);
    const problems: ManifestProblem[] = [];
    const documents: ParsedDocument[] = [];
    const nextCache = new Map<string, ChunkParse>();
    this.lastParsedChunks = 0;

    let chunks = split.chunks;
    if (text.length > this.limits.maxChars) {
      chunks = chunks.filter((chunk) => chunk.end <= this.limits.maxChars);
      problems.push(limitProblem(lines, `File is larger than ${formatCount(this.limits.maxChars)} characters; only the documents within the first ${formatCount(this.limits.maxChars)} characters were analysed.`));
    }

    let templateAt = -1;
    let documentCount = 0;
    for (const chunk of chunks) {
      // Past the limit nothing more is parsed: the finding below says so.
      if (documentCount > this.limits.maxDocuments) break;
      const chunkText = bomBeforeMarker(text.slice(chunk.start, chunk.end));
      let parsed = nextCache.get(chunkText) ?? this.cache.get(chunkText);
      if (!parsed) {
        const chunkLineStarts = split.lineStarts.slice(chunk.startLine, chunk.endLine).map((offset) => offset - chunk.start);
        parsed = parseChunk(chunkText, new LineIndex(chunkText, chunkLineStarts));
        this.lastParsedChunks++;
      }
      nextCache.set(chunkText, parsed);
      if (parsed.templateOffset >= 0 && templateAt < 0) templateAt = chunk.start + parsed.templateOffset;
      if (parsed.error) {
        problems.push(errorProblem(lines, chunk.start + parsed.error.offset, parsed.error));
        continue;
      }
      parsed.roots.forEach((root, i) => {
        if (++documentCount > this.limits.maxDocuments) return;
        const sourceMap = new SourceMap(root, parsed.lines, chunk.startLine, chunk.start);
        const range = root ? sourceMap.toRange(root.start, root.end) : lines.range(chunk.start, chunk.start);
        documents.push({ index: documents.length, value: parsed.values[i], range, sourceMap });
      });
    }
    this.cache = nextCache;

    if (templateAt >= 0) {
      const problem: ManifestProblem = {
        ruleId: TEMPLATE_DETECTED, severity: 'info', range: wordRange(lines, templateAt),
        message: 'Template expression ({{ ... }}) in the YAML structure: this looks like a Helm chart or a file to be rendered first; it was not analysed. Run the simulator on the rendered manifests (helm template ...).',
      };
      return { text, lines, documents: [], problems: [problem, ...problems.filter((p) => p.ruleId === LIMIT_REACHED)] };
    }
    if (documentCount > this.limits.maxDocuments) {
      problems.push(limitProblem(lines, `File has more than ${formatCount(this.limits.maxDocuments)} documents; only the first ${formatCount(this.limits.maxDocuments)} were analysed.`));
    }
    return { text, lines, documents, problems };
  }
}

/** A file that is not parsed at all (its bytes are not UTF-8): one KFS090 at `offset`, the text kept for positions. */
export function unparsedFile(text: string, offset: number, message: string): ParsedFile {
  const lines = new LineIndex(text);
  const range = lines.range(offset, Math.min(offset + 1, text.length));
  return { text, lines, documents: [], problems: [{ ruleId: SYNTAX_ERROR, severity: 'error', range, message }] };
}

/** Parses one file without keeping a cache (the CLI's case). */
export function parseManifestText(text: string, limits?: ParseLimits): ParsedFile {
  return new ManifestParser(limits).parse(text);
}

/**
 * kubectl reads each document of a file on its own, and go-yaml skips a byte order mark at the
 * start of each (files concatenated from editors that write one). YAML allows one only before a
 * document's `---`: moved there (the length is kept, so the offsets after it hold), js-yaml skips it.
 */
function bomBeforeMarker(chunk: string): string {
  const match = /^((?:[ \t]*(?:#.*)?\r?\n)*---[ \t]*(?:#.*)?\r?\n)\uFEFF/.exec(chunk);
  return match ? `\uFEFF${match[1]}${chunk.slice(match[0].length)}` : chunk;
}

function parseChunk(text: string, lines: LineIndex): ChunkParse {
  const result = parseYaml(text);
  if (isSyntaxError(result)) {
    return { lines, roots: [], values: [], error: result, templateOffset: findTemplateExpression(text, undefined) };
  }
  const roots = buildSourceTrees(text, result.events);
  // Without an alias nothing is decoded twice: most files need no walk for aliasing.
  const hasAlias = result.events.some((event) => event.type === EVENT_ID.ALIAS);
  for (const root of hasAlias ? roots : []) {
    const recursive = findRecursiveAlias(root);
    if (recursive) {
      const name = text.slice(recursive.start, recursive.end).replace(/^\*/, '');
      const error = { kind: 'aliasing' as const, message: `anchor '${name}' value contains itself`, offset: recursive.start, length: recursive.end - recursive.start };
      return { lines, roots: [], values: [], error, templateOffset: -1 };
    }
    const bomb = findExcessiveAliasing(root);
    if (bomb) {
      const message = `document contains excessive aliasing: with this alias it decodes to ${formatCount(bomb.decodedNodes)} nodes, most of them copies`;
      const error = { kind: 'aliasing' as const, message, offset: bomb.alias.start, length: bomb.alias.end - bomb.alias.start };
      return { lines, roots: [], values: [], error, templateOffset: -1 };
    }
  }
  return {
    lines,
    roots,
    values: result.values,
    templateOffset: findTemplateExpression(text, result.events),
  };
}

function errorProblem(lines: LineIndex, offset: number, error: YamlSyntaxError): ManifestProblem {
  const range = error.length === undefined ? wordRange(lines, offset) : lines.range(offset, offset + error.length);
  if (error.kind === 'aliasing') {
    return { ruleId: LIMIT_REACHED, severity: 'error', range, message: `Document not analysed: kubectl and the API server reject it (go-yaml: ${error.message}); write the values out instead of nesting aliases.` };
  }
  if (error.kind === 'limit') {
    const what = /maxDepth/.test(error.message) ? `nests deeper than ${MAX_DEPTH} levels` : 'uses too many aliases or merge keys';
    return { ruleId: LIMIT_REACHED, severity: 'info', range, message: `Document not analysed: it ${what} (${error.message}).` };
  }
  // A flow collection left open ("bad: [x, y") ends where the next line's indentation gives up: the opening is what to fix.
  const opener = /^deficient indentation/.test(error.message) ? unclosedFlowBefore(lines, offset) : undefined;
  if (opener !== undefined) {
    const bracket = lines.text[opener];
    return { ruleId: SYNTAX_ERROR, severity: 'error', range: lines.range(opener, opener + 1),
      message: `YAML syntax error: this ${bracket} is never closed with ${bracket === '[' ? ']' : '}'}; the parser gives up at line ${lines.lineOf(offset) + 1} (${error.message}).` };
  }
  // The second of two equal keys, named: the first is easy to find from it.
  if (error.message === 'duplicated mapping key') {
    const key = lines.text.slice(lines.offset(range.start), lines.offset(range.end)).replace(/:$/, '');
    return { ruleId: SYNTAX_ERROR, severity: 'error', range, message: `YAML syntax error: duplicated mapping key ${JSON.stringify(key)} (here, its second time in one mapping).` };
  }
  return { ruleId: SYNTAX_ERROR, severity: 'error', range, message: `YAML syntax error: ${error.message}.` };
}

/**
 * The last [ or { left open on the lines before `offset` (at most 50, within its document),
 * outside quotes and comments; undefined when every one is closed on its line.
 */
function unclosedFlowBefore(lines: LineIndex, offset: number): number | undefined {
  const errorLine = lines.lineOf(offset);
  for (let line = errorLine; line >= Math.max(0, errorLine - 50); line--) {
    const start = lines.lineStart(line);
    const text = lines.text.slice(start, line === errorLine ? offset : lines.lineEnd(line));
    if (line < errorLine && /^(---|\.\.\.)(\s|$)/.test(text)) return undefined;
    const open: number[] = [];
    let quote = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) break;
      else if (c === '[' || c === '{') open.push(start + i);
      else if ((c === ']' || c === '}') && open.length > 0) open.pop();
    }
    if (open.length > 0) return open[open.length - 1];
  }
  return undefined;
}

function limitProblem(lines: LineIndex, message: string): ManifestProblem {
  return { ruleId: LIMIT_REACHED, severity: 'info', range: lines.range(0, Math.min(lines.lineEnd(0), lines.text.length)), message };
}

/** The token at an offset (up to the next blank), so that an error underlines something visible. */
function wordRange(lines: LineIndex, offset: number): Range {
  const text = lines.text;
  let start = Math.min(offset, text.length);
  if (start === text.length && start > 0) start--;
  // Never between the two characters of a CRLF: that is no position of the line.
  if (start > 0 && text[start] === '\n' && text[start - 1] === '\r') start--;
  let end = start;
  while (end < text.length && !/\s/.test(text[end])) end++;
  if (end === start && start < text.length && text[start] !== '\n' && text[start] !== '\r') end++;
  return lines.range(start, end);
}
