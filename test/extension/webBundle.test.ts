/** The web extension's bundle (package.json "browser") loads in a browser: it requires vscode and nothing else. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/shared';

describe('web extension bundle', () => {
  let bundle: string;
  before(() => {
    // From the current sources, as the browser tests do (esbuild, about a second).
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT });
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    assert.equal(manifest.browser, './dist/web/extension.js');
    bundle = fs.readFileSync(path.join(REPO_ROOT, 'dist', 'web', 'extension.js'), 'utf8');
  });

  it('requires or imports no Node built-in, only vscode', () => {
    // A CommonJS bundle: every module it loads at run time is a require() or an import() call.
    const modules = new Set([
      ...[...bundle.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]),
      ...[...bundle.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]),
    ]);
    // vscode alone: no Node built-in (fs, node:path, ...) and nothing else the web host cannot load.
    assert.deepEqual([...modules], ['vscode']);
  });

  it('uses no Node global', () => {
    for (const global of ['__dirname', '__filename', 'process.', 'Buffer.', 'setImmediate(']) assert.ok(!bundle.includes(global), global);
  });
});
