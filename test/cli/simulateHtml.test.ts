import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { unpackReport } from '../../src/report/packedTrace';
import { REPO_ROOT } from '../support/shared';

function run(...argv: string[]) {
  const output = collectingOutput();
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    return { code: main(argv, output), stdout: output.out, stderr: output.err };
  } finally {
    process.chdir(cwd);
  }
}

describe('simulate --format html', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-html-'));
  before(function () {
    this.timeout(60_000);
    // The report inlines the webview bundle: build it from the current sources (esbuild, under a second).
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes one self-contained page with -o and says where', () => {
    const file = path.join(dir, 'report.html');
    const result = run('simulate', 'examples/web-deployment.yaml', '--duration', '10m', '--format', 'html', '-o', file);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^Wrote ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ KiB\\); open it in a browser\\n$`));
    const html = fs.readFileSync(file, 'utf8');
    assert.match(html, /<title>power-off of worker-a1: examples\/web-deployment.yaml<\/title>/);
    assert.equal(html.match(/<script\b/g)?.length, 4);
    assert.doesNotMatch(html, /\b(src|href)=["']?(https?:|\/\/)/);
    const embedded = JSON.parse(/<script type="application\/json" id="kfs-trace">(.*?)<\/script>/s.exec(html)![1]);
    assert.equal(embedded.type, 'showTrace');
    // The trace packed (src/report/packedTrace.ts): unpacked, it is what --format json writes.
    const report = unpackReport(embedded.report);
    assert.equal(JSON.stringify(report), JSON.stringify(JSON.parse(run('simulate', 'examples/web-deployment.yaml', '--duration', '10m', '--format', 'json').stdout)));
    assert.deepEqual(report.summary.failedNodes, ['worker-a1']);
    assert.equal(report.summary.workloads[0].outcome, 'replaced');
    // The checks' findings about the workload, for the summary's "What would shorten it".
    assert.ok(embedded.findings.length > 0);
    assert.ok(embedded.findings.every((f: { object: { name: string }; uri: string }) => f.object.name === 'web' && f.uri === 'examples/web-deployment.yaml'));
  });

  it('writes the same page for the same inputs, byte for byte; its nonce changes with the input', () => {
    const page = (name: string, ...extra: string[]) => {
      const file = path.join(dir, name);
      assert.equal(run('simulate', 'examples/web-deployment.yaml', '--duration', '5m', '--format', 'html', '-o', file, ...extra).code, 0);
      return fs.readFileSync(file, 'utf8');
    };
    const nonce = (html: string) => /script-src 'nonce-([0-9a-f]{32})'/.exec(html)![1];
    const first = page('a.html');
    assert.equal(page('b.html'), first);
    assert.notEqual(nonce(page('c.html', '--seed', '2')), nonce(first));
    // The same file name with one comment more: a manifest's own text changes the nonce.
    const copy = path.join(dir, 'web.yaml');
    const original = fs.readFileSync(path.join(REPO_ROOT, 'examples/web-deployment.yaml'), 'utf8');
    const nonceOf = (text: string) => {
      fs.writeFileSync(copy, text);
      assert.equal(run('simulate', copy, '--duration', '5m', '--format', 'html', '-o', path.join(dir, 'd.html')).code, 0);
      return nonce(fs.readFileSync(path.join(dir, 'd.html'), 'utf8'));
    };
    assert.notEqual(nonceOf(`${original}# edited\n`), nonceOf(original));
  });

  it('refuses several runs, which the page cannot draw', () => {
    const result = run('simulate', 'examples/web-deployment.yaml', '--format', 'html', '--runs', '3', '-o', path.join(dir, 'x.html'));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--format html draws one run/);
    assert.equal(fs.existsSync(path.join(dir, 'x.html')), false);
  });
});
