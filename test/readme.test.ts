/** README.md against package.json and the scripts it names. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './support/shared';

const readme = () => fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const manifest = () => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

describe('README.md', () => {
  it('has the settings tables that scripts/settingsTable.mjs generates from package.json', async () => {
    const script = await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'settingsTable.mjs')).href);
    const text = readme();
    assert.equal(text, script.withSettingsTables(text, manifest()), 'README.md is out of step with package.json: run node scripts/settingsTable.mjs');
    for (const name of Object.keys(manifest().contributes.configuration.properties)) assert.ok(text.includes(`| \`${name}\` |`), name);
  });

  it('keeps the quick start true: the scripts it runs exist', () => {
    const text = readme();
    assert.ok(text.includes('```sh\nnpm ci && npm run demo\nnpm test\n```'));
    const scripts = manifest().scripts;
    for (const name of ['demo', 'test', 'package', 'test:e2e']) assert.ok(scripts[name], name);
    assert.ok(text.includes('code --install-extension kube-failure-sim.vsix'));
    assert.match(scripts.package, /--out kube-failure-sim\.vsix/);
  });

  it('shows only images that exist', () => {
    const images = [...readme().matchAll(/(?:!\[[^\]]*\]\(|<img [^>]*src=")([^)"\s]+)/g)].map((m) => m[1]);
    assert.ok(images.length > 0);
    for (const image of images) assert.ok(fs.existsSync(path.join(REPO_ROOT, image)), image);
  });
});
