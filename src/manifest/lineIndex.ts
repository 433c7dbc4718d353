import { findLineStarts } from './documentSplitter';
import type { Position, Range } from './range';

/**
 * Maps string offsets to line/character positions. Line breaks are \n, \r\n and a lone \r,
 * the same set YAML and VS Code recognise, so positions agree with the editor.
 */
export class LineIndex {
  private readonly lineStarts: number[];

  /** `lineStarts` when the caller has them already (the document splitter does). */
  constructor(readonly text: string, lineStarts?: number[]) {
    this.lineStarts = lineStarts ?? findLineStarts(text);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  lineStart(line: number): number {
    return this.lineStarts[Math.max(0, Math.min(line, this.lineStarts.length - 1))];
  }

  /** End of the line's content, before its line break. */
  lineEnd(line: number): number {
    if (line + 1 >= this.lineStarts.length) return this.text.length;
    let end = this.lineStarts[line + 1] - 1;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineOf(offset: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number, lineOffset = 0): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(clamped);
    return { line: line + lineOffset, character: clamped - this.lineStarts[line] };
  }

  range(start: number, end: number, lineOffset = 0): Range {
    return { start: this.position(start, lineOffset), end: this.position(end, lineOffset) };
  }

  offset(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    return Math.min(this.lineStarts[position.line] + position.character, this.lineEnd(position.line));
  }
}
