import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Sarif from 'sarif';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { version } from '../../package.json';
import { CORPUS_DIR, describeWithCorpus, REPO_ROOT } from '../support/shared';

const EXAMPLES = path.join(REPO_ROOT, 'examples');
const POSTGRES = path.join(EXAMPLES, 'postgres-statefulset.yaml');

function run(argv: string[], stdin?: string) {
  const output = collectingOutput(stdin);
  const code = main(argv, output);
  return { code, stdout: output.out, stderr: output.err };
}

function tempFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-options-'));
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

const ruleIds = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => line.split(' ')[2]);

describe('check: standard input, severity, rules and settings', () => {
  it('reads standard input for -, naming it <stdin>, with the same findings as the file', () => {
    const text = fs.readFileSync(POSTGRES, 'utf8');
    const fromFile = run(['check', POSTGRES]);
    const fromStdin = run(['check', '-'], text);
    assert.equal(fromStdin.code, fromFile.code);
    assert.ok(fromStdin.stdout.length > 0);
    assert.equal(fromStdin.stdout, fromFile.stdout.split(path.relative(process.cwd(), POSTGRES)).join('<stdin>'));
    assert.match(fromStdin.stderr, /^1 file checked/);
  });

  it('fails with nothing to check: an empty standard input (a helm template that failed before the pipe), a folder without YAML', () => {
    const empty = run(['check', '-'], '');
    assert.deepEqual([empty.code, empty.stdout, empty.stderr], [2, '', 'kube-failure-sim: nothing to check: standard input is empty\n']);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-empty-'));
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a manifest');
    const none = run(['check', folder]);
    assert.deepEqual([none.code, none.stderr], [2, `kube-failure-sim: nothing to check: no .yaml or .yml file in ${folder}\n`]);
  });

  it('prints only findings at least as severe as --severity, with exit codes unchanged', () => {
    const all = ruleIds(run(['check', POSTGRES]).stdout);
    assert.ok(all.includes('KFS041'), 'the example has an info finding');
    const warnings = run(['check', '--severity', 'warning', POSTGRES]);
    assert.deepEqual(ruleIds(warnings.stdout), all.filter((id) => id !== 'KFS041' && id !== 'KFS008'));
    assert.equal(warnings.code, 0);
    // The summary counts what it leaves out, so it does not read as a cleaner run.
    assert.match(warnings.stderr, /\d+ warnings?, 0 info \(\d+ info below --severity warning not shown\)\n$/);
    assert.doesNotMatch(run(['check', POSTGRES]).stderr, /not shown/);
    assert.equal(run(['check', '--severity', 'error', POSTGRES]).stdout, '');
    assert.equal(run(['check', '--severity', 'fatal', POSTGRES]).code, 2);
  });

  it('does not run rules named by --disable (repeatable, comma-separated) and refuses unknown ids with suggestions', () => {
    const ids = ruleIds(run(['check', '--disable', 'KFS001,kfs002', '--disable', 'KFS041', POSTGRES]).stdout);
    assert.ok(ids.length > 0);
    for (const id of ['KFS001', 'KFS002', 'KFS041']) assert.ok(!ids.includes(id), id);
    const unknown = run(['check', '--disable', 'KFS0O2', POSTGRES]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--disable KFS0O2: no such rule; did you mean KFS002\?/);
    // The rules offered are those that can be disabled.
    assert.doesNotMatch(run(['check', '--disable', 'KFS999', POSTGRES]).stderr, /KFS090|KFS093/);
    // A file that could not be read must not pass as one without findings; an empty id is no id.
    const unread = run(['check', '--disable', 'KFS090', POSTGRES]);
    assert.equal(unread.code, 2);
    assert.match(unread.stderr, /--disable KFS090: KFS090 reports a file that could not be read \(a YAML syntax error\); it cannot be disabled/);
    assert.equal(run(['check', '--disable', 'KFS093', POSTGRES]).code, 2);
    assert.match(run(['check', '--disable', '', POSTGRES]).stderr, /--disable needs rule ids/);
    assert.equal(run(['check', '--disable', 'KFS041,', POSTGRES]).code, 0, 'a trailing comma is harmless');
    // A knob given twice to --set is a usage error, as any repeated option.
    const twice = run(['check', '--set', 'kcm.node-monitor-grace-period=20s', '--set', 'kcm.node-monitor-grace-period=30s', POSTGRES]);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /--set kcm\.node-monitor-grace-period is given twice; give each knob once/);
  });

  it('takes --k8s-version, --profile and --set into the simulated numbers, and refuses values it does not know', () => {
    const message = (args: string[]) => run(['check', ...args, POSTGRES]).stdout.split('\n').find((l) => l.includes(' KFS008 '))!;
    assert.match(message([]), /Kubernetes 1\.36 default\): a pod on a failed node is deleted about 5m5\ds after the failure/);
    assert.match(message(['--k8s-version', '1.29']), /Kubernetes 1\.29 default\)/);
    assert.match(message(['--set', 'apiserver.default-unreachable-toleration-seconds=60']), /--set\): a pod on a failed node is deleted about 1m5\ds after/);
    assert.match(message(['--profile', 'fast']), /deleted about 5m2\ds after the failure/);
    const badVersion = run(['check', '--k8s-version', '1.99', POSTGRES]);
    assert.equal(badVersion.code, 2);
    assert.match(badVersion.stderr, /--k8s-version 1\.99: Kubernetes 1\.99 is outside the versions the simulator knows/);
    const badProfile = run(['check', '--profile', 'fats', POSTGRES]);
    assert.equal(badProfile.code, 2);
    assert.match(badProfile.stderr, /profile "fats".*fast/);
    assert.equal(run(['check', '--set', 'kcm.node-monitor-grace-perod=20s', POSTGRES]).code, 2);
  });

  it('reports a billion-laughs document as KFS093 at the alias, quickly', () => {
    const levels = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'data:', '  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 30; i++) levels.push(`  l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(',')}]`);
    const { code, stdout } = run(['check', tempFile('bomb.yaml', `${levels.join('\n')}\n`)]);
    assert.equal(code, 1);
    assert.match(stdout, /bomb\.yaml:8:\d+ error KFS093 Document not analysed: kubectl and the API server reject it \(go-yaml: document contains excessive aliasing/);
  });
});

describe('CLI manners', () => {
  it('prints a command\'s help for -h or --help anywhere among its options, and for help COMMAND', () => {
    for (const argv of [['check', 'examples', '-h'], ['check', '--help'], ['help', 'check'], ['check', '--format', 'json', '--help']]) {
      const { code, stdout } = run(argv);
      assert.equal(code, 0, argv.join(' '));
      assert.match(stdout, /^Usage: kube-failure-sim check PATH\.\.\. \[options\]/, argv.join(' '));
    }
    assert.match(run(['simulate', 'x.yaml', '-h']).stdout, /^Usage: kube-failure-sim simulate/);
    assert.match(run(['--help']).stdout, /^Usage: kube-failure-sim <command>/);
    // No command at all is a usage error: the usage goes to standard error.
    const bare = run([]);
    assert.deepEqual([bare.code, bare.stdout], [2, '']);
    assert.match(bare.stderr, /^Usage: kube-failure-sim <command>/);
    // After --, -h is a file name.
    assert.match(run(['check', '--', '-h']).stderr, /no such file or directory: -h/);
    // An empty path is refused, not read as the current folder.
    for (const args of [['check', ''], ['simulate', 'examples', '--cluster', '']]) {
      const empty = run(args);
      assert.equal(empty.code, 2, args.join(' '));
      assert.match(empty.stderr, /^kube-failure-sim: an empty path names no file or folder \(use \. for the current folder\)\n/);
    }
    // A name of spaces is a name: it is looked for.
    assert.match(run(['check', ' ']).stderr, /no such file or directory:  \n/);
  });

  it('keeps every command\'s help within 100 columns, so that it reads in a terminal of that width', () => {
    for (const command of ['', 'check', 'simulate', 'load']) {
      const { code, stdout } = run(command ? [command, '--help'] : ['--help']);
      assert.equal(code, 0, command);
      const long = stdout.split('\n').filter((line) => line.length > 100);
      assert.deepEqual(long, [], `${command || 'kube-failure-sim'} --help`);
    }
  });

  it('prints its version', () => {
    assert.deepEqual(run(['--version']), { code: 0, stdout: `kube-failure-sim ${version}\n`, stderr: '' });
  });

  it('prints the general usage for help -h, help --help and help help', () => {
    for (const argv of [['help', '-h'], ['help', '--help'], ['help', 'help'], ['help']]) {
      const { code, stdout, stderr } = run(argv);
      assert.deepEqual([code, stderr], [0, ''], argv.join(' '));
      assert.match(stdout, /^Usage: kube-failure-sim <command> \[options\]\n/, argv.join(' '));
    }
    assert.match(run(['help', 'nonsense']).stderr, /unknown command "nonsense"/);
  });

  it('prints its version after a command, before any file is read', () => {
    for (const argv of [['simulate', '--version'], ['check', '--version'], ['load', '--version'], ['check', 'missing.yaml', '--version']]) {
      assert.deepEqual(run(argv), { code: 0, stdout: `kube-failure-sim ${version}\n`, stderr: '' }, argv.join(' '));
    }
    // After --, --version is a file name.
    assert.match(run(['check', '--', '--version']).stderr, /no such file or directory: --version/);
  });

  it('simulate refuses, with check\'s findings, what the API server would reject', () => {
    const file = tempFile('bad.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: three\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: other}}\n    spec: {containers: [{name: web, image: nginx}]}\n');
    const checked = run(['check', file]).stdout.split('\n').filter((l) => / error (KFS092|KFS094) /.test(l));
    assert.equal(checked.length, 2);
    const { code, stdout, stderr } = run(['simulate', file]);
    assert.equal(code, 1);
    assert.deepEqual(stderr.split('\n').filter((l) => / error KFS/.test(l)), checked);
    assert.match(stderr, /the API server would reject these objects; fix them first \(nothing simulated\)/);
    // Standard output holds the report or nothing, whatever the format.
    assert.equal(stdout, '');
    assert.equal(run(['simulate', file, '--format', 'json']).stdout, '');
  });

  it('simulate blames a control-plane static pod\'s bad flag on that component, not on the API server, which accepts any command line', () => {
    const kcm = tempFile('kcm.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.29.7\n    command: [kube-controller-manager, --node-monitor-grace-period=-20s]\n');
    const web = tempFile('web.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n');
    const { code, stderr } = run(['simulate', web, kcm]);
    assert.equal(code, 1);
    assert.match(stderr, /kube-failure-sim: kube-controller-manager would not start with these flags; fix them first \(nothing simulated\)\.\n$/);
    // A misspelt flag stops the component too; an item that is no string is the API server's to refuse.
    const misspelt = tempFile('kcm.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.29.7\n    command: [kube-controller-manager, --node-monitor-grace-periode=20s, 5]\n');
    const both = run(['simulate', web, misspelt]);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /has no flag --node-monitor-grace-periode; did you mean --node-monitor-grace-period\?/);
    assert.match(both.stderr, /kube-failure-sim: kube-controller-manager would not start with these flags; the API server would reject these objects; fix them first \(nothing simulated\)\.\n$/);
    // kubeadm's extraArgs are the component's flags too; a value kubeadm cannot decode is kubeadm's to refuse.
    const kubeadm = (value: string) => run(['simulate', web, tempFile('kubeadm.yaml', `apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    default-unreachable-toleration-seconds: ${value}\n`)]).stderr;
    assert.match(kubeadm('"-5"'), /kube-failure-sim: kube-apiserver would not start with these flags; fix them first/);
    assert.match(kubeadm('30'), /kube-failure-sim: kubeadm would refuse these settings; fix them first/);
  });

  it('simulate on a file that is only a Helm template says it skipped the template', () => {
    const file = tempFile('deployment.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n');
    const { code, stderr } = run(['simulate', file]);
    assert.equal(code, 2);
    assert.match(stderr, /The input has no workload .* Skipped a template \(.*deployment\.yaml\): render it first, such as helm template \. \| kube-failure-sim simulate -/);
    // Beside a manifest that simulates, the template is still named as skipped.
    const beside = run(['simulate', file, POSTGRES, '--duration', '1m']);
    assert.equal(beside.code, 0);
    assert.match(beside.stderr, /deployment\.yaml:4:9 Template expression .* \(document skipped\)/);
  });

  it('simulate names both places of a workload written twice, and gives no template hint for it', () => {
    const file = tempFile('a.yaml', fs.readFileSync(POSTGRES, 'utf8'));
    const dir = path.dirname(file);
    fs.copyFileSync(file, path.join(dir, 'b.yaml'));
    fs.writeFileSync(path.join(dir, 'chart.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n');
    const { code, stderr } = run(['simulate', dir]);
    assert.equal(code, 2);
    // The template is named as skipped; the error is the duplicate alone, with no hint to render templates.
    assert.match(stderr, /^kube-failure-sim: \S*chart\.yaml:4:9 Template expression .*\(document skipped\)\nkube-failure-sim: \S*b\.yaml:\d+:\d+: StatefulSet \S+ appears twice in the input \(first at \S*a\.yaml:\d+\)\.\n$/);
  });

  it('simulate reads standard input', () => {
    const { code, stdout } = run(['simulate', '-', '--format', 'json', '--duration', '2m'], fs.readFileSync(POSTGRES, 'utf8'));
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout).scenario.inputs, ['<stdin>']);
  });
});

/** Text of a file by SARIF artifact URI, relative to the run's source root. */
function fileOf(log: Sarif.Log, location: Sarif.PhysicalLocation): string {
  const { uri, uriBaseId } = location.artifactLocation!;
  const base = uriBaseId ? log.runs[0].originalUriBaseIds![uriBaseId].uri! : undefined;
  return fs.readFileSync(fileURLToPath(new URL(uri!, base)), 'utf8');
}

function assertRegionInside(text: string, region: Sarif.Region, where: string): void {
  const lines = text.split(/\r?\n/);
  const { startLine, startColumn, endLine, endColumn } = region as Required<Sarif.Region>;
  assert.ok(startLine >= 1 && endLine >= startLine && endLine <= lines.length, `${where}: lines ${startLine}-${endLine} of ${lines.length}`);
  assert.ok(startColumn >= 1 && startColumn <= lines[startLine - 1].length + 1, `${where}: start column ${startColumn}`);
  assert.ok(endColumn >= 1 && endColumn <= lines[endLine - 1].length + 1, `${where}: end column ${endColumn}`);
  assert.ok(endLine > startLine || endColumn >= startColumn, `${where}: region ends before it starts`);
}

function assertSarifInsideFiles(log: Sarif.Log): number {
  assert.equal(log.version, '2.1.0');
  const [sarifRun] = log.runs;
  const rules = sarifRun.tool.driver.rules!;
  const texts = new Map<string, string>();
  const textOf = (location: Sarif.PhysicalLocation) => {
    const key = `${location.artifactLocation!.uriBaseId}:${location.artifactLocation!.uri}`;
    if (!texts.has(key)) texts.set(key, fileOf(log, location));
    return texts.get(key)!;
  };
  for (const [i, result] of sarifRun.results!.entries()) {
    assert.equal(rules[result.ruleIndex!]?.id, result.ruleId, `result ${i}: rule ${result.ruleId} declared at its index`);
    for (const location of [...result.locations!, ...(result.relatedLocations ?? [])]) {
      assertRegionInside(textOf(location.physicalLocation!), location.physicalLocation!.region!, `${result.ruleId} in ${location.physicalLocation!.artifactLocation!.uri}`);
    }
    for (const fix of result.fixes ?? []) {
      for (const change of fix.artifactChanges) {
        for (const replacement of change.replacements) assertRegionInside(textOf({ artifactLocation: change.artifactLocation }), replacement.deletedRegion, `fix of ${result.ruleId}`);
      }
    }
  }
  return sarifRun.results!.length;
}

describe('check --format sarif', () => {
  it('encodes a backslash in a file name outside Windows, where it is not a separator', function () {
    if (path.sep === '\\') this.skip();
    const file = tempFile('we\\b.yaml', fs.readFileSync(POSTGRES, 'utf8'));
    const cwd = process.cwd();
    process.chdir(path.dirname(file));
    try {
      const log = JSON.parse(run(['check', '--format', 'sarif', 'we\\b.yaml']).stdout) as Sarif.Log;
      assert.equal(log.runs[0].results![0].locations![0].physicalLocation!.artifactLocation!.uri, 'we%5Cb.yaml');
    } finally {
      process.chdir(cwd);
    }
  });

  it('declares every rule with its docs and gives exact regions, related locations and fixes', () => {
    const { code, stdout } = run(['check', '--format', 'sarif', POSTGRES], undefined);
    assert.equal(code, 0);
    const log = JSON.parse(stdout) as Sarif.Log;
    const rules = log.runs[0].tool.driver.rules!;
    assert.ok(rules.every((r) => /^KFS\d{3}$/.test(r.id) && r.helpUri?.startsWith('https://') && r.shortDescription?.text));
    assert.deepEqual(rules.map((r) => r.id), [...rules.map((r) => r.id)].sort());
    assert.ok(assertSarifInsideFiles(log) > 0);
    const json = JSON.parse(run(['check', '--format', 'json', POSTGRES]).stdout);
    const results = log.runs[0].results!;
    assert.deepEqual(results.map((r) => r.ruleId), json.files[0].findings.map((f: { ruleId: string }) => f.ruleId));
    const single = results.find((r) => r.ruleId === 'KFS002')!;
    const finding = json.files[0].findings.find((f: { ruleId: string }) => f.ruleId === 'KFS002');
    assert.deepEqual(single.locations![0].physicalLocation!.region, {
      startLine: finding.range.start.line + 1, startColumn: finding.range.start.character + 1, endLine: finding.range.end.line + 1, endColumn: finding.range.end.character + 1,
    });
    assert.match(single.fixes![0].description!.text!, /replicas: 2/);
    assert.equal(single.fixes![0].artifactChanges[0].replacements[0].insertedContent!.text, '2');
    assertSarifInsideFiles(JSON.parse(run(['check', '--format', 'sarif', EXAMPLES]).stdout));
  });

  it('gives each result its finding\'s own level: KFS093 is a note by default, a warning for a replica count beyond any cluster', () => {
    const deployment = (name: string, replicas: number) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: nginx}]}\n`;
    const file = tempFile('limits.yaml', `${deployment('huge', 200000)}---\n${deployment('large', 3000)}`);
    const log = JSON.parse(run(['check', '--format', 'sarif', file]).stdout) as Sarif.Log;
    const rule = log.runs[0].tool.driver.rules!.find((r) => r.id === 'KFS093')!;
    assert.equal(rule.defaultConfiguration!.level, 'note');
    const limits = log.runs[0].results!.filter((r) => r.ruleId === 'KFS093');
    assert.deepEqual(limits.map((r) => [r.level, r.locations![0].physicalLocation!.region!.startLine]), [['warning', 5], ['note', 15]]);
  });

  it('points from a finding to the object in another file that explains it', () => {
    const app = tempFile('app.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n  selector: {matchLabels: {app: app}}\n  template:\n    metadata: {labels: {app: app}}\n    spec:\n      containers: [{name: app, image: nginx}]\n      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n');
    fs.writeFileSync(path.join(path.dirname(app), 'pvc.yaml'), 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n');
    const log = JSON.parse(run(['check', '--format', 'sarif', path.dirname(app)]).stdout) as Sarif.Log;
    assertSarifInsideFiles(log);
    const rwo = log.runs[0].results!.find((r) => r.ruleId === 'KFS011')!;
    assert.match(rwo.relatedLocations![0].physicalLocation!.artifactLocation!.uri!, /pvc\.yaml$/);
    assert.equal(rwo.relatedLocations![0].message!.text, 'PersistentVolumeClaim data: ReadWriteOnce');
  });
});

describeWithCorpus('check --format sarif over ../shared/corpus', () => {
  it('gives SARIF whose regions are inside the files and whose rule ids are declared', function () {
    this.timeout(300_000);
    const { code, stdout, stderr } = run(['check', '--format', 'sarif', CORPUS_DIR]);
    assert.ok(code === 0 || code === 1, stderr);
    assert.ok(assertSarifInsideFiles(JSON.parse(stdout)) > 100);
  });
});
