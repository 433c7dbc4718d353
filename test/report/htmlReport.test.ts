import * as assert from 'node:assert/strict';
import { escapeHtml, htmlReport, inlineScript } from '../../src/report/htmlReport';
import { unpackReport, type PackedReport } from '../../src/report/packedTrace';
import { exampleTrace } from './timelineSupport';

const HOSTILE = '</script><script>alert(1)</script><!-- \u2028\u2029 & "quotes" … é 😀';

describe('HTML report', () => {
  it('inlines the bundle with every "<!--", "<script" and "</script" made harmless', () => {
    assert.equal(inlineScript('const t = `<!--${m}-->`; const s = "</SCRIPT>";'), 'const t = `\\x3C!--${m}-->`; const s = "\\x3C/SCRIPT>";');
    assert.equal(escapeHtml('<a href="x">&\''), '&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
  });

  it('is one page: a CSP meta with the nonce, nonce on every script and style, the trace as JSON (packed), nothing fetched', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '2m');
    const html = htmlReport({ title: `power-off: ${HOSTILE}`, report }, { script: 'window.x = "<!--";', controls: 'window.y = "</script>";', styles: ['body { color: red }', 'p {}'] }, 'abc123');
    assert.equal(html.match(/http-equiv="Content-Security-Policy"/g)?.length, 1);
    assert.match(html, /content="default-src 'none'; style-src 'nonce-abc123'; script-src 'nonce-abc123'; base-uri 'none'; form-action 'none'"/);
    assert.equal(html.match(/<script nonce="abc123">/g)?.length, 2, 'the check for a file cut short, and the bundle');
    assert.equal(html.match(/<style nonce="abc123">/g)?.length, 2);
    assert.equal(html.match(/<script\b/g)?.length, 4, 'the check for a file cut short, the JSON, the inert copy of the controls and the bundle, nothing else');
    assert.equal(html.match(/<\/script>/g)?.length, 4);
    assert.match(html, /<script type="text\/plain" id="kfs-controls-code">\nwindow.y = "\\x3C\/script>";\n<\/script>/);
    assert.doesNotMatch(html, /\b(src|href)=/);
    assert.match(html, /<title>power-off: &#60;\/script&#62;&#60;script&#62;alert\(1\)/);
    const embedded = /<script type="application\/json" id="kfs-trace">(.*?)<\/script>/s.exec(html);
    assert.ok(embedded);
    // JSON that cannot end its script element, in printable ASCII: the page keeps it as one byte per character.
    assert.match(embedded[1], /^[\x20-\x7e]*$/);
    assert.doesNotMatch(embedded[1], /[<>&]/);
    const message = JSON.parse(embedded[1]) as { report: PackedReport };
    assert.deepEqual({ ...message, report: unpackReport(message.report) }, { type: 'showTrace', title: `power-off: ${HOSTILE}`, report });
  });
});
