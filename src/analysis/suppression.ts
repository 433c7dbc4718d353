/**
 * Suppression in the manifest itself (RULES.md): `# kfs-disable-next-line KFS002` for the next
 * line, `# kfs-disable KFS010` for the rest of the YAML document, and the annotation
 * `kube-failure-sim/ignore: "KFS002,KFS010"` for the object it is on.
 */
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
  const { text, lines, documents } = document.parsed;
  const suppressions: Suppression[] = [];
  if (text.includes('kfs-disable')) {
    for (let line = 0; line < lines.lineCount; line++) {
      const match = COMMENT.exec(text.slice(lines.lineStart(line), lines.lineEnd(line)));
      if (!match) continue;
      const ids = new Set(match[2].split(/[\s,]+/).filter(Boolean));
      if (match[1]) {
        suppressions.push({ ids, fromLine: line + 1, toLine: line + 1 });
        continue;
      }
      // The document the comment is in, or whose content it precedes; up to the start of the one after it.
      const owner = documents.findIndex((d) => d.range.end.line >= line);
      const next = owner < 0 ? undefined : documents[owner + 1];
      suppressions.push({ ids, fromLine: line, toLine: next ? next.range.start.line - 1 : lines.lineCount });
    }
  }
  const annotated = document.objects.flatMap((object) => {
    const annotations = (object.value.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations;
    const value = annotations?.[IGNORE_ANNOTATION];
    return typeof value === 'string' ? [{ ids: new Set(value.split(/[\s,]+/).filter(Boolean)), fromLine: object.range.start.line, toLine: object.range.end.line }] : [];
  });
  const all = [...suppressions, ...annotated];
  return (finding) => all.some((s) => s.ids.has(finding.ruleId) && finding.range.start.line >= s.fromLine && finding.range.start.line <= s.toLine);
}

/** "Disable KFSxxx for this line" and "for this document": a comment at the finding's indentation, or before the document's first line. */
export function suppressionFixes(document: ReadManifest, finding: Finding): Fix[] {
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
