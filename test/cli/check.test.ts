import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { describeWithCorpus } from '../support/shared';

function run(...argv: string[]) {
  const output = collectingOutput();
  const code = main(argv, output);
  return { code, stdout: output.out, stderr: output.err };
}

function tempDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-check-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

type Json = Record<string, unknown>;

/** Checks the `check --format json` contract, field by field. */
function assertCheckReportShape(report: Json): void {
  const isPosition = (p: unknown) => {
    const { line, character } = p as Json;
    return Number.isInteger(line) && (line as number) >= 0 && Number.isInteger(character) && (character as number) >= 0;
  };
  const isRange = (r: unknown) => typeof r === 'object' && r !== null && isPosition((r as Json).start) && isPosition((r as Json).end);
  const isRef = (o: unknown) => ['kind', 'name', 'namespace'].every((k) => typeof (o as Json)[k] === 'string') && Object.keys(o as Json).length === 3;
  assert.equal(report.version, 1);
  assert.deepEqual(Object.keys(report), ['version', 'errors', 'files']);
  assert.ok(Array.isArray(report.errors) && (report.errors as unknown[]).every((e) => typeof e === 'string'));
  for (const file of report.files as Json[]) {
    assert.deepEqual(Object.keys(file), ['path', 'documents', 'objects', 'findings']);
    assert.equal(typeof file.path, 'string');
    assert.ok(Number.isInteger(file.documents));
    for (const object of file.objects as Json[]) {
      assert.deepEqual(Object.keys(object), ['kind', 'name', 'namespace', 'range']);
      assert.ok(isRef({ kind: object.kind, name: object.name, namespace: object.namespace }) && isRange(object.range));
    }
    for (const finding of file.findings as Json[]) {
      assert.deepEqual(Object.keys(finding), ['ruleId', 'severity', 'message', 'range', 'object']);
      assert.match(finding.ruleId as string, /^KFS[0-9]{3}$/);
      assert.ok(['error', 'warning', 'info'].includes(finding.severity as string));
      assert.ok(typeof finding.message === 'string' && finding.message.length > 0);
      assert.ok(isRange(finding.range));
      assert.ok(finding.object === null || isRef(finding.object));
    }
  }
}

describe('kube-failure-sim check', () => {
  it('prints file:line:col severity RULE message, 1-based, and exits 1 on an error finding', () => {
    const dir = tempDir({ 'bad.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n   x: 1\n' });
    const { code, stdout, stderr } = run('check', path.join(dir, 'bad.yaml'));
    assert.equal(code, 1);
    assert.equal(stdout, `${path.join(dir, 'bad.yaml')}:5:5 error KFS090 YAML syntax error: bad indentation of a mapping entry.\n`);
    assert.match(stderr, /1 file checked: 1 error, 0 warnings, 0 info/);
  });

  it('exits 0 when findings are only warnings, walking directories for .yaml and .yml, and 1 on an error', () => {
    const deployment = (replicas: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n`;
    const dir = tempDir({ 'a/web.yml': deployment('1'), 'a/readme.txt': 'not yaml', 'b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n' });
    const { code, stdout } = run('check', dir);
    assert.equal(code, 0);
    assert.match(stdout, /a[/\\]web\.yml:5:13 warning KFS002 Down for about 5m5[0-9]s if its node fails/);
    const bad = tempDir({ 'web.yaml': deployment('"2"') });
    const rejected = run('check', bad);
    assert.equal(rejected.code, 1);
    assert.match(rejected.stdout, /web\.yaml:5:13 error KFS092 spec\.replicas must be a whole number; it is the string "2"\./);
  });

  it('follows symbolic links when walking a folder, reads a file reached twice once, survives a link loop and names a dangling link', function () {
    if (process.platform === 'win32') this.skip();
    const shared = tempDir({ 'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n' });
    const dir = tempDir({ 'own.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' });
    fs.symlinkSync(path.join(shared, 'pod.yaml'), path.join(dir, 'linked.yaml'));
    fs.symlinkSync(path.join(dir, 'linked.yaml'), path.join(dir, 'twice.yaml'));
    fs.symlinkSync(shared, path.join(dir, 'sub'));
    fs.symlinkSync(dir, path.join(dir, 'loop'));
    fs.symlinkSync(path.join(dir, 'gone.yaml'), path.join(dir, 'dangling.yaml'));
    const { code, stdout, stderr } = run('check', dir);
    assert.equal(code, 2, stderr);
    assert.equal(stdout.match(/KFS003/g)?.length, 1, stdout);
    assert.match(stdout, /linked\.yaml:\d+:\d+ warning KFS003/);
    assert.match(stderr, /dangling\.yaml is a symbolic link to nothing; skipped/);
    assert.match(stderr, /2 files checked/);
    // A loop named on the command line is named as one.
    fs.symlinkSync(path.join(dir, 'ring-b'), path.join(dir, 'ring-a'));
    fs.symlinkSync(path.join(dir, 'ring-a'), path.join(dir, 'ring-b'));
    assert.match(run('check', path.join(dir, 'ring-a')).stderr, /^kube-failure-sim: a loop of symbolic links: .*ring-a\n/);
    // Reached by walking the folder, a loop is named as one too; the JSON report carries what standard error says.
    fs.symlinkSync(path.join(dir, 'self.yaml'), path.join(dir, 'self.yaml'));
    const json = run('check', '--format', 'json', dir);
    assert.equal(json.code, 2);
    const { errors } = JSON.parse(json.stdout);
    assert.deepEqual(errors, json.stderr.trimEnd().split('\n').map((line) => line.replace(/^kube-failure-sim: /, '')));
    assert.ok(errors.some((e: string) => /dangling\.yaml is a symbolic link to nothing; skipped$/.test(e)));
    assert.ok(errors.some((e: string) => /self\.yaml is a loop of symbolic links; skipped$/.test(e)), errors.join('\n'));
  });

  it('writes the JSON contract with objects, ranges and findings', () => {
    const dir = tempDir({ 'db.yaml': 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n  namespace: data\nspec:\n  replicas: -1\n' });
    const { code, stdout } = run('check', '--format', 'json', path.join(dir, 'db.yaml'));
    assert.equal(code, 1);
    const report = JSON.parse(stdout);
    assertCheckReportShape(report);
    assert.deepEqual(report.files[0].objects, [{
      kind: 'StatefulSet', name: 'db', namespace: 'data',
      range: { start: { line: 0, character: 0 }, end: { line: 6, character: 14 } },
    }]);
    assert.deepEqual(report.files[0].findings.find((f: Json) => f.ruleId === 'KFS092'), {
      ruleId: 'KFS092', severity: 'error', message: 'spec.replicas is -1; it must be ≥ 0.',
      range: { start: { line: 6, character: 12 }, end: { line: 6, character: 14 } },
      object: { kind: 'StatefulSet', name: 'db', namespace: 'data' },
    });
  });

  it('exits 2 for usage errors and for missing files, still checking the others', () => {
    assert.equal(run('check').code, 2);
    assert.equal(run('check', '--format', 'xml', '.').code, 2);
    assert.equal(run('check', '--frobnicate').code, 2);
    assert.equal(run('frobnicate').code, 2);
    // A short option check does not have is a usage error, not a path named "-o".
    const short = run('check', '.', '-o', 'x.sarif');
    assert.deepEqual([short.code, short.stdout], [2, '']);
    assert.match(short.stderr, /^kube-failure-sim: unknown option -o\n/);
    const dir = tempDir({ 'ok.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n' });
    const { code, stderr } = run('check', '--format', 'json', path.join(dir, 'ok.yaml'), path.join(dir, 'missing.yaml'));
    assert.equal(code, 2);
    assert.match(stderr, /no such file or directory: .*missing\.yaml/);
  });
});

describeWithCorpus('check --format json over ../shared/corpus', (files) => {
  it('gives valid JSON in the contract shape for every file, without a crash', function () {
    this.timeout(120_000);
    for (const file of files) {
      const { code, stdout, stderr } = run('check', '--format', 'json', file);
      assert.ok(code === 0 || code === 1, `${file}: exit ${code} ${stderr}`);
      const report = JSON.parse(stdout);
      assertCheckReportShape(report);
      assert.equal(report.files.length, 1);
    }
  });
});

describe('kube-failure-sim output in a terminal', () => {
  it('writes control characters and bidirectional overrides from a manifest as \\u escapes, in text and in JSON', () => {
    const dir = tempDir({ 'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: "\\e[2K\\r\\e[1Ax\\u202E", image: x}]}\n' });
    const text = run('check', dir).stdout;
    assert.match(text, /Container \\u001b\[2K\\u000d\\u001b\[1Ax\\u202e has no memory limit/);
    assert.doesNotMatch(text, /[\u001b\r\u202e]/);
    const json = run('check', dir, '--format', 'json').stdout;
    assert.doesNotMatch(json, /[\u001b\r\u202e]/);
    const names = JSON.stringify(JSON.parse(json)).match(/Container (.*?) has no memory limit/)![1];
    assert.equal(JSON.parse(`"${names}"`), '\u001b[2K\r\u001b[1Ax\u202e', 'the same characters once read as JSON');
  });

  it('keeps one line per finding: a line break in a name cannot add a finding line of its own', () => {
    const dir = tempDir({ 'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: "c\\nsrc/main.ts:1:1 error KFS050 injected", image: x, ports: [{containerPort: 80}]}]}\n' });
    const lines = run('check', dir).stdout.trimEnd().split('\n');
    assert.ok(lines.every((line) => line.startsWith(path.join(dir, 'pod.yaml')) || /^\d+ files? checked/.test(line)), lines.join('\n'));
    assert.ok(lines.some((line) => line.includes('Container c\\u000asrc/main.ts:1:1 error KFS050 injected')));
  });
});
