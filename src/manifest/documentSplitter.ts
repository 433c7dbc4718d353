/**
 * Splits a YAML stream into one chunk per document without parsing it, so that each
 * document is parsed on its own and an edit re-parses only the chunk it touched.
 *
 * YAML forbids a line that starts with `---` or `...` (followed by a blank or the end of
 * the line) inside any node, so these lines are document boundaries wherever they occur.
 */
export interface DocumentChunk {
  /** Offset of the chunk in the file text. */
  start: number;
  end: number;
  /** 0-based line of `start`. */
  startLine: number;
  /** Line after the chunk's last line. */
  endLine: number;
}

export interface SplitResult {
  chunks: DocumentChunk[];
  /** Offset of every line start in the file (line breaks \n, \r\n and \r). */
  lineStarts: number[];
}

const enum LineKind {
  Other,
  /** Blank, comment or directive line: belongs to whichever document follows. */
  Preamble,
  DirectivesEnd,
  DocumentEnd,
}

function classifyLine(text: string, start: number, end: number): LineKind {
  let i = start;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (i === end || text.charCodeAt(i) === 35 /* # */) return LineKind.Preamble;
  if (i !== start) return LineKind.Other;
  const c = text.charCodeAt(start);
  if (c === 37 /* % */) return LineKind.Preamble;
  if ((c === 45 /* - */ || c === 46) /* . */ && end - start >= 3 &&
      text.charCodeAt(start + 1) === c && text.charCodeAt(start + 2) === c) {
    const next = start + 3 < end ? text.charCodeAt(start + 3) : 32;
    if (next === 32 || next === 9) return c === 45 ? LineKind.DirectivesEnd : LineKind.DocumentEnd;
  }
  return LineKind.Other;
}

/** Offsets where lines start; one indexOf per line in the common case of \n line breaks. */
export function findLineStarts(text: string): number[] {
  const starts = [0];
  if (text.indexOf('\r') < 0) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

export function splitDocuments(text: string): SplitResult {
  const lineStarts = findLineStarts(text);
  const chunks: DocumentChunk[] = [];
  let chunkStartLine = 0;
  let chunkHasContent = false;
  const close = (endLine: number) => {
    chunks.push({ start: lineStarts[chunkStartLine], end: lineStart(endLine), startLine: chunkStartLine, endLine });
    chunkStartLine = endLine;
  };
  const lineStart = (line: number) => (line < lineStarts.length ? lineStarts[line] : text.length);
  for (let line = 0; line < lineStarts.length; line++) {
    const start = lineStarts[line];
    const c = text.charCodeAt(start);
    // Only a line starting with "-" or "." can end a document that has content; before any
    // content, only lines starting with one of " \t#%" can be anything but content.
    if (c !== 45 && c !== 46) {
      if (chunkHasContent) continue;
      if (c !== 32 && c !== 9 && c !== 35 && c !== 37 && start < text.length && c !== 10 && c !== 13) {
        chunkHasContent = true;
        continue;
      }
    }
    let end = line + 1 < lineStarts.length ? lineStarts[line + 1] - 1 : text.length;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const kind = classifyLine(text, start, end);
    if (kind === LineKind.DirectivesEnd) {
      if (chunkHasContent) close(line);
      chunkHasContent = true;
    } else if (kind === LineKind.DocumentEnd) {
      close(line + 1);
      chunkHasContent = false;
    } else if (kind === LineKind.Other) {
      chunkHasContent = true;
    }
  }
  if (chunkStartLine < lineStarts.length && (lineStart(chunkStartLine) < text.length || chunks.length === 0)) close(lineStarts.length);
  return { chunks, lineStarts };
}
