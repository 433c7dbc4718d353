/**
 * Suppression in the manifest itself (RULES.md): `# kfs-disable-next-line KFS002` for the next
 * line, `# kfs-disable KFS010` for the rest of the YAML document, and the annotation
 * `kube-failure-sim/ignore: "KFS002,KFS010"` for the object it is on.
 */
import type { ReadManifest } from '../manifest/readManifest';
import type { Finding } from './finding';

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
    const documentStarts = documents.map((d) => d.range.start.line);
    for (let line = 0; line < lines.lineCount; line++) {
      const match = COMMENT.exec(text.slice(lines.lineStart(line), lines.lineEnd(line)));
      if (!match) continue;
      const ids = new Set(match[2].split(/[\s,]+/).filter(Boolean));
      if (match[1]) suppressions.push({ ids, fromLine: line + 1, toLine: line + 1 });
      else suppressions.push({ ids, fromLine: line, toLine: (documentStarts.find((start) => start > line) ?? lines.lineCount) - 1 });
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
