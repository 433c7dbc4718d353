/**
 * Suppression in the manifest itself (RULES.md): `# kfs-disable-next-line KFS002` for the next
 * line, `# kfs-disable KFS010` for the whole YAML document it is in, and the annotation
 * `kube-failure-sim/ignore: "KFS002,KFS010"` for the object it is on.
 */
import { LIMIT_REACHED, SYNTAX_ERROR } from '../manifest/problem';
import type { ReadManifest } from '../manifest/readManifest';
import type { Finding, Fix } from './finding';

const COMMENT = /^[ \t]*#[ \t]*kfs-disable(-next-line)?[ \t]+((?:KFS[0-9]{3}[ \t]*,?[ \t]*)+)/;
export const IGNORE_ANNOTATION = 'kube-failure-sim/ignore';

interface Suppression {
  ids: Set<string>;
  fromLine: number;
  toLine: number;
}

export function suppressedBy(document: ReadManifest): (finding: Finding) => boolean {
  const { text, lines } = document.parsed;
  const suppressions: Suppression[] = [];
  let starts: number[] | undefined;
  if (text.includes('kfs-disable')) {
    for (let line = 0; line < lines.lineCount; line++) {
      const match = COMMENT.exec(text.slice(lines.lineStart(line), lines.lineEnd(line)));
      if (!match) continue;
      const ids = new Set(match[2].split(/[\s,]+/).filter(Boolean));
      if (match[1]) {
        suppressions.push({ ids, fromLine: line + 1, toLine: line + 1 });
        continue;
      }
      // The whole document the comment is in: from its --- (or the file's start) to the next one.
      starts ??= documentStarts(document);
      const owner = starts.filter((start) => start <= line).length - 1;
      suppressions.push({ ids, fromLine: starts[owner] ?? 0, toLine: owner + 1 < starts.length ? starts[owner + 1] - 1 : lines.lineCount });
    }
  }
  const annotated = document.objects.flatMap((object) => {
    const annotations = (object.value.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations;
    const value = annotations?.[IGNORE_ANNOTATION];
    return typeof value === 'string' ? [{ ids: new Set(value.split(/[\s,]+/).filter(Boolean)), fromLine: object.range.start.line, toLine: object.range.end.line }] : [];
  });
  const all = [...suppressions, ...annotated];
  return (finding) => !unreadable(finding) && all.some((s) => s.ids.has(finding.ruleId) && finding.range.start.line >= s.fromLine && finding.range.start.line <= s.toLine);
}

/**
 * The line each document starts on: the file's first line, then each later document's `---`
 * (a comment before it belongs to the document above), else the line after the `...` that ended
 * the document above, else its first line.
 */
function documentStarts(document: ReadManifest): number[] {
  const { text, lines, documents } = document.parsed;
  return documents.map((d, i) => {
    if (i === 0) return 0;
    let afterEnd: number | undefined;
    for (let line = documents[i - 1].range.end.line; line <= d.range.start.line; line++) {
      const lineText = text.slice(lines.lineStart(line), lines.lineEnd(line));
      if (/^---(\s|$)/.test(lineText)) return line;
      if (/^\.\.\.(\s|$)/.test(lineText)) afterEnd = line + 1;
    }
    return afterEnd ?? d.range.start.line;
  });
}

/**
 * A file or document the reader could not read (KFS090, and KFS093 from the parser, which names no
 * object): said whatever a comment asks, as --disable and the rule settings refuse to silence it.
 * A KFS093 about one object (a count past a limit, the analysis's budget) can be silenced.
 */
function unreadable(finding: Finding): boolean {
  return finding.ruleId === SYNTAX_ERROR || (finding.ruleId === LIMIT_REACHED && finding.object === undefined);
}

/** "Disable KFSxxx for this line" and "for this document": a comment at the finding's indentation, or before the document's first line. */
export function suppressionFixes(document: ReadManifest, finding: Finding): Fix[] {
  if (unreadable(finding)) return [];
  const { text, lines, documents } = document.parsed;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const line = finding.range.start.line;
  const lineText = text.slice(lines.lineStart(line), lines.lineEnd(line));
  const indent = /^[ \t]*/.exec(lineText)![0];
  const at = (l: number) => ({ line: l, character: 0 });
  const owner = [...documents].reverse().find((d) => d.range.start.line <= line);
  const documentLine = owner?.range.start.line ?? 0;
  return [
    { title: `Disable ${finding.ruleId} for this line`, edits: [{ range: { start: at(line), end: at(line) }, newText: `${indent}# kfs-disable-next-line ${finding.ruleId}${eol}` }] },
    { title: `Disable ${finding.ruleId} for this document`, edits: [{ range: { start: at(documentLine), end: at(documentLine) }, newText: `# kfs-disable ${finding.ruleId}${eol}` }] },
  ];
}
