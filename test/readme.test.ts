/** README.md against package.json, the rule registry, the input limits and the scripts it names. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALL_RULE_INFO } from '../src/analysis/rules';
import * as limits from '../src/manifest/limits';
import { REPO_ROOT } from './support/shared';

const readme = () => fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const manifest = () => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const count = (n: number) => n.toLocaleString('en-US');

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

  it('lists every rule of the registry with its default severity and title', () => {
    const rows = [...readme().matchAll(/^\| (KFS\d{3}) \| (\w+) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    assert.deepEqual(rows, ALL_RULE_INFO.map((r) => [r.id, r.defaultSeverity, r.title]));
  });

  it('states the input limits that src/manifest/limits.ts enforces', () => {
    const text = readme();
    const row = (name: string) => text.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? '';
    assert.match(row('documents in a file'), new RegExp(`\\| ${count(limits.MAX_DOCUMENTS)} \\|`));
    assert.match(row('nesting depth'), new RegExp(`\\| ${limits.MAX_DEPTH} \\|`));
    assert.match(row('aliases per document'), new RegExp(`\\| ${count(limits.MAX_ALIASES_PER_DOCUMENT)} \\|`));
    assert.match(row('file size (CLI)'), new RegExp(`\\| ${limits.MAX_FILE_BYTES / 1024 / 1024} MiB \\|`));
    assert.match(row('parsed text of a file'), new RegExp(`\\| ${limits.MAX_FILE_CHARS / 1024 / 1024} Mi characters \\|`));
    assert.match(row('int32 fields (`replicas`, `parallelism`)'), new RegExp(`\\| ${count(limits.MAX_INT32)} \\|`));
    assert.match(row('pods of one workload, and pods of one run'), new RegExp(`\\| ${count(limits.CLUSTER_ENVELOPE.maxPods)} .*${count(limits.CLUSTER_ENVELOPE.maxNodes)} nodes, ${limits.CLUSTER_ENVELOPE.maxPodsPerNode} pods`));
    assert.match(row('nodes of a cluster (`--cluster`)'), new RegExp(`\\| ${count(limits.CLUSTER_ENVELOPE.maxNodes)} \\|`));
    assert.match(row('pods × simulated hours'), new RegExp(`\\| ${count(limits.MAX_POD_HOURS)} `));
    assert.match(row('simulated time'), new RegExp(`\\| ${limits.MAX_DURATION_MS / 86_400_000} days \\|`));
    assert.match(row('`load --nodes`'), new RegExp(`\\| ${count(limits.MAX_LOAD_NODES)} \\|`));
    assert.match(row('`--runs`'), new RegExp(`\\| ${count(limits.MAX_RUNS)} \\|`));
    assert.match(row('pods of one workload simulated for findings'), new RegExp(`\\| ${count(limits.MAX_ANALYSED_PODS_PER_WORKLOAD)} \\|`));
    assert.match(row('workloads of one file simulated for findings'), new RegExp(`\\| ${count(limits.MAX_SIMULATED_WORKLOADS_PER_FILE)} \\|`));
    assert.match(row('pods of one file simulated for findings'), new RegExp(`\\| ${count(limits.MAX_ANALYSED_PODS_PER_FILE)}, in file order \\|`));
    assert.match(row('files of a folder the editor reads in the background'), new RegExp(`\\| ${count(limits.MAX_INDEXED_FILES)} files, ${limits.MAX_INDEXED_BYTES / 1024 / 1024} MiB each \\|`));
  });
});
