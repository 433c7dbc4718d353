/**
 * The self-contained HTML report: the timeline webview's own bundle and stylesheet inlined, the
 * trace embedded as JSON (packed: packedTrace.ts), a Content Security Policy that lets only those
 * run (by nonce) and loads nothing from anywhere. The front end reads the bundle and styles; this
 * only assembles.
 */
import type { TraceReport } from './contract';
import { EMBEDDED_TRACE_ID, UNREADABLE_TRACE } from './embeddedTrace';
import { jsonChunks } from './jsonChunks';
import { packReport } from './packedTrace';

export interface ReportAssets {
  /** dist/webview/main.js */
  script: string;
  /** dist/webview/toolkit.js: the controls, which the page runs after its first paint. */
  controls: string;
  /** media/timeline.css, then media/report-theme.css (fallbacks for the --vscode-* variables). */
  styles: string[];
}

/** Must match webview/loadControls.ts CONTROLS_CODE_ID (src/report cannot import the webview). */
const CONTROLS_ID = 'kfs-controls-code';

/**
 * JSON text that cannot end its <script> element or open a comment in it: every `<`, `>` and `&`
 * as \u escapes (valid JSON, same value). So is every character past printable ASCII (U+2028 and
 * U+2029 included, for older JS parsers): one "…" in a 2 MB trace made the browser hold the whole
 * text, and parse it, as two bytes per character.
 */
function scriptSafe(json: string): string {
  return json.replace(/[<>&\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The page's script comes last, after the trace (the first paint comes about 20 ms sooner than with
 * it first). A file cut short anywhere after this check, first in the head, has lost it: once the
 * page is parsed with nothing drawn, the check says so (cut in the styles, the page has no root).
 */
function cutShortCheck(): string {
  const message = JSON.stringify(UNREADABLE_TRACE);
  return `document.addEventListener('DOMContentLoaded',function(){var r=document.getElementById('root');if(!r)document.body.textContent=${message};else if(r.children.length===1&&r.firstElementChild.tagName==='NOSCRIPT')r.textContent=${message};});`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function createNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Our bundle, made safe to inline: `<!--`, `<script` and `</script` occur in it only inside string
 * and template literals (FAST's template markers), where \x3C is the same character, and would
 * otherwise change how the HTML parser finds the end of the element.
 */
export function inlineScript(script: string): string {
  return script.replace(/<(!--|\/?script)/gi, '\\x3C$1');
}

/** A check's finding about a workload, as the page lists it under "What would shorten it". */
export interface ReportFinding {
  index: number;
  ruleId: string;
  severity: string;
  message: string;
  object: { kind: string; name: string; namespace: string };
  fixes: string[];
  /** The file as the user named it, and where in it (0-based). */
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** What the page shows: a trace, optionally a second one drawn on the same time axis, and the checks' findings. */
export interface ReportPage {
  title: string;
  report: TraceReport;
  compare?: { title: string; report: TraceReport };
  findings?: ReportFinding[];
}

export function htmlReport(page: ReportPage, assets: ReportAssets, nonce = createNonce()): string {
  return [...htmlReportPieces(page, assets, nonce)].join('');
}

/** The page in pieces, the trace a batch of events and states at a time (a large cluster's is 100 MB). */
export function* htmlReportPieces({ title, report, compare, findings }: ReportPage, assets: ReportAssets, nonce = createNonce()): Generator<string> {
  const script = inlineScript(assets.script);
  for (const style of assets.styles) if (/<\/style/i.test(style)) throw new Error('a stylesheet contains "</style" and cannot be inlined');
  const message = {
    type: 'showTrace', title, report: packReport(report),
    ...(compare ? { compare: { title: compare.title, report: packReport(compare.report) } } : {}), ...(findings ? { findings } : {}),
  };
  yield `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'">
<script nonce="${nonce}">${cutShortCheck()}</script>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${nonce}">
<meta name="generator" content="kube-failure-sim">
<title>${escapeHtml(title)}</title>
${assets.styles.map((style) => `<style nonce="${nonce}">\n${style}\n</style>`).join('\n')}
</head>
<body class="kfs-report">
<div id="root"><noscript>This report draws its timeline with JavaScript; the trace is in the script element with id ${EMBEDDED_TRACE_ID}.</noscript></div>
<script type="application/json" id="${EMBEDDED_TRACE_ID}">`;
  // Escaping replaces single UTF-16 code units, so piece by piece it writes the same text.
  for (const piece of jsonChunks(message, 4096, 3)) yield scriptSafe(piece);
  yield `</script>
<script type="text/plain" id="${CONTROLS_ID}">
${inlineScript(assets.controls)}
</script>
<script nonce="${nonce}">
${script}
</script>
</body>
</html>
`;
}
