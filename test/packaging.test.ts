/** What the .vsix holds: `vsce ls` and a real `vsce package` into a temporary folder. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './support/shared';

const VSCE = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
const vsce = (...args: string[]) => execFileSync(process.execPath, [VSCE, ...args], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Everything the .vsix may hold. */
const ALLOWED = [
  /^package\.json$/, /^README\.md$/, /^CHANGELOG\.md$/, /^LICENSE$/,
  /^dist\/extension\.js$/, /^dist\/web\/extension\.js$/, /^dist\/(web\/)?worker\.js$/, /^dist\/webview\/(main|toolkit)\.js$/,
  /^media\/icon\.png$/, /^media\/[\w.-]+\.(css|json)$/, /^media\/walkthrough\/[\w-]+\.(md|yaml)$/,
];
const MAX_VSIX_BYTES = 1024 * 1024;

describe('packaging (.vsix)', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-vsix-'));
  const vsix = path.join(dir, 'kube-failure-sim.vsix');
  let files: string[];
  before(() => {
    // vsce runs vscode:prepublish (the production build, a few seconds), so the bundles exist for `ls` too.
    vsce('package', '--no-dependencies', '--out', vsix);
    files = vsce('ls', '--no-dependencies').split('\n').map((l) => l.trim()).filter(Boolean).sort();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds only the bundles, media, icon, README, CHANGELOG, LICENSE and package.json', () => {
    assert.deepEqual(files.filter((f) => !ALLOWED.some((re) => re.test(f))), []);
    for (const forbidden of ['src/', 'test/', 'out/', 'node_modules/', 'examples/', 'scripts/', 'webview/', 'bench/']) {
      assert.deepEqual(files.filter((f) => f.startsWith(forbidden)), [], forbidden);
    }
  });

  it('holds every file package.json points to', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    const referenced = [
      manifest.main, manifest.browser, manifest.icon, 'CHANGELOG.md', 'LICENSE', 'dist/worker.js', 'dist/web/worker.js', 'dist/webview/main.js', 'dist/webview/toolkit.js', 'media/timeline.css',
      ...manifest.contributes.yamlValidation.map((v: { url: string }) => v.url),
      ...manifest.contributes.walkthroughs.flatMap((w: { steps: { media: { markdown: string } }[] }) => w.steps.map((s) => s.media.markdown)),
      'media/walkthrough/postgres-statefulset.yaml',
    ].map((f: string) => f.replace(/^\.\//, ''));
    for (const file of referenced) assert.ok(files.includes(file), file);
  });

  it(`packages to at most ${MAX_VSIX_BYTES / 1024} KiB`, () => {
    const bytes = fs.statSync(vsix).size;
    assert.ok(bytes <= MAX_VSIX_BYTES, `${bytes} bytes`);
  });
});
