import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from './support/shared';

const CORE = ['src/manifest', 'src/cluster', 'src/sim', 'src/report', 'src/analysis', 'src/workspace'];
const FORBIDDEN_IMPORT = /(?:from\s+|require\()\s*['"](vscode|node:[\w/]+|fs|path|os|child_process|crypto|util|events|stream|http|https|url|worker_threads|perf_hooks)['"]/;
const FORBIDDEN_GLOBAL = /\b(process\.|Buffer\.|__dirname|__filename|require\()/;

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? tsFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('layering (ARCHITECTURE.md)', () => {
  it('keeps vscode and Node built-ins out of every layer below the front ends', () => {
    const offenders: string[] = [];
    for (const file of CORE.flatMap((dir) => tsFiles(path.join(REPO_ROOT, dir)))) {
      fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (FORBIDDEN_IMPORT.test(line) || FORBIDDEN_GLOBAL.test(line)) offenders.push(`${path.relative(REPO_ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offenders, []);
  });

  it('keeps the webview free of extension code', () => {
    const offenders = tsFiles(path.join(REPO_ROOT, 'webview')).filter((file) => /from\s+['"][./]*\/src\/extension|from\s+['"]vscode['"]/.test(fs.readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('keeps the simulator out of the webview: no code of src/sim or src/extension is in its bundles (types are erased)', async () => {
    // What esbuild puts in the bundles the webview ships, whatever the quotes or form of an import.
    const { metafile } = await build({
      entryPoints: ['webview/main.ts', 'webview/toolkit.ts'].map((f) => path.join(REPO_ROOT, f)),
      absWorkingDir: REPO_ROOT, bundle: true, write: false, metafile: true, outdir: 'out-unused', platform: 'browser', format: 'iife', logLevel: 'silent',
    });
    const inputs = Object.keys(metafile.inputs);
    assert.ok(inputs.includes('src/report/timeline/model.ts'), 'the timeline model is in the bundle');
    assert.deepEqual(inputs.filter((f) => f.startsWith('src/sim/') || f.startsWith('src/extension/')), []);
  });
});

describe('layers import only downwards (ARCHITECTURE.md)', () => {
  // Lowest first; a module may import from its own layer and those before it.
  const ORDER = ['manifest', 'cluster', 'sim', 'report', 'analysis', 'workspace'];
  it('manifest < cluster < sim < report < analysis < workspace', () => {
    const offenders: string[] = [];
    for (const layer of ORDER) {
      for (const file of tsFiles(path.join(REPO_ROOT, 'src', layer))) {
        for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/)+)([a-z]+)\//g)) {
          const target = match[2];
          if (ORDER.indexOf(target) > ORDER.indexOf(layer)) offenders.push(`${path.relative(REPO_ROOT, file)} imports src/${target}`);
        }
      }
    }
    assert.deepEqual(offenders, []);
  });
});
