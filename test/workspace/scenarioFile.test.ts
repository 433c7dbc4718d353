import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { PRESETS } from '../../src/cluster/presets';
import { ALL_KNOBS } from '../../src/cluster/timing';
import { NEWEST_MINOR, OLDEST_MINOR, parseKubernetesVersion } from '../../src/cluster/kubernetesVersion';
import { MAX_RUNS } from '../../src/manifest/limits';
import { FAILURE_KINDS, PLACEMENTS } from '../../src/sim/scenario';
import { scenarioSettingsProblems } from '../../src/workspace/scenarioSettings';
import { readScenarioFile, SCENARIO_SPEC_FIELDS, scenarioArguments, scenarioRun, writeScenarioFile, type ScenarioFile } from '../../src/workspace/scenarioFile';
import { REPO_ROOT } from '../support/shared';
import type { TraceReport } from '../../src/report/contract';
import { requestChoices, requestScenarioFile, type SimulationRequest } from '../../src/workspace/guidedChoices';
import { traceReport } from '../../src/report/jsonReport';
import { simulate } from '../../src/sim/simulate';
import { Workspace } from '../../src/workspace/workspace';

const FIXTURE = 'test/fixtures/scenarios/web-partition.failure-scenario.yaml';

function cli(...argv: string[]) {
  const output = collectingOutput();
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    return { code: main(argv, output), out: output.out, err: output.err };
  } finally {
    process.chdir(cwd);
  }
}

describe('scenario files (FailureScenario)', () => {
  it('reads the choices of a scenario file', () => {
    const { scenario, problems } = readScenarioFile(fs.readFileSync(path.join(REPO_ROOT, FIXTURE), 'utf8'));
    assert.deepEqual(problems, []);
    assert.deepEqual(scenario, {
      name: 'web-partition', manifests: ['../../../examples/web-deployment.yaml'], failure: 'partition', targets: ['Deployment/web'],
      recoverAfter: '8m', duration: '12m', kubernetesVersion: '1.31', set: { 'kcm.node-monitor-grace-period': '40s' }, seed: 1,
    });
    assert.deepEqual(scenarioArguments(scenario!).flags, [
      '--failure', 'partition', '--target', 'Deployment/web', '--recover-after', '8m', '--duration', '12m', '--k8s-version', '1.31',
      '--set', 'kcm.node-monitor-grace-period=40s', '--seed', '1',
    ]);
  });

  it('reports each problem at its line', () => {
    const text = [
      'apiVersion: kube-failure-sim.dev/v1alpha1',
      'kind: FailureScenario',
      'metadata: {name: broken}',
      'spec:',
      '  manifests: [app.yaml]',
      '  failure: meltdown',
      '  duration: ten minutes',
      '  kubernetesVersion: 1.30',
      '  interventions: [{forceDelete: {at: 5m}}]',
      '  colour: red',
    ].join('\n');
    const { scenario, problems } = readScenarioFile(text);
    assert.equal(scenario, undefined);
    assert.deepEqual(problems.map((p) => `${p.range.start.line + 1}: ${p.message.split(';')[0]}`), [
      '10: unknown field colour',
      '6: failure must be one of power-off, kubelet-stop, partition, kubelet-not-ready, disk-failure, graceful-shutdown, zone-outage',
      '7: duration must be a duration such as 90s or 5m',
      '8: kubernetesVersion must be a quoted string, such as "1.30"',
      '9: forceDelete needs the pods: a pod name, a workload or a node or zone, as in {pod: NAME, Kind/name, node/NAME or zone/NAME, at: D}',
    ]);
    assert.match(readScenarioFile('kind: Deployment\napiVersion: apps/v1\nmetadata: {name: x}\n').problems[0].message, /no FailureScenario document/);
    // A misspelt field is underlined at its key, at the top level too.
    const colour = problems.find((p) => p.message.startsWith('unknown field colour'))!;
    assert.deepEqual([colour.range.start.character, colour.range.end.character], [2, 8]);
    const spek = readScenarioFile(['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'spek: {duration: 2m}', 'spec: {manifests: [app.yaml]}'].join('\n'));
    assert.deepEqual(spek.problems.map((p) => [p.range.start.line, p.range.start.character, p.message]), [[2, 0, 'unknown field spek; a FailureScenario has apiVersion, kind, metadata, spec']]);
    const zero = readScenarioFile(text.replace('duration: ten minutes', 'duration: 0s')).problems.find((p) => p.range.start.line === 6);
    assert.match(zero?.message ?? '', /^duration must be at least 1ms/);
    // check reports them too, as KFS092 errors at the same lines: CI catches a broken scenario before simulate --scenario does.
    const workspace = new Workspace();
    workspace.setDocument('scenario.yaml', text);
    assert.deepEqual(workspace.analyse('scenario.yaml').findings.map((f) => [f.ruleId, f.severity, f.range.start.line + 1]).sort((a, b) => Number(a[2]) - Number(b[2])),
      [['KFS092', 'error', 6], ['KFS092', 'error', 7], ['KFS092', 'error', 8], ['KFS092', 'error', 9], ['KFS092', 'error', 10]]);
  });

  it('writes a file that reads back as the same choices, whatever the names', () => {
    const scenario: ScenarioFile = {
      name: 'db: "force" <delete>', manifests: ['db.yaml', 'dir with space/'], failure: 'power-off', targets: ['StatefulSet/db'], at: '30s',
      interventions: [{ forceDelete: { pod: 'db-0', at: '6m' } }, { outOfService: { at: '7m' } }, { deleteNode: { at: '8m' } }],
      duration: '20m', profile: 'fast', kubernetesVersion: '1.30', set: { 'kubelet.nodeStatusUpdateFrequency': '4s' }, cluster: 'nodes.yaml', seed: 7,
    };
    const { locate: _locate, ...read } = readScenarioFile(writeScenarioFile(scenario));
    assert.deepEqual(read, { scenario, problems: [] });
  });

  it('mirrors every simulate flag: staggered targets, recovery per target, graceful deletes, a controller-manager restart, placement, runs', () => {
    const scenario: ScenarioFile = {
      name: 'all', manifests: ['app.yaml'], failure: 'partition', targets: ['node/a', 'node/b@60s'], recoverAfter: { 'node/a': '2m', 'node/b': '10m' },
      interventions: [{ delete: { pod: 'Deployment/web', at: '1m' } }, { restartControllerManager: { at: '3m' } }, { restartControllerManager: { at: '5m' } }],
      placement: 'worst', duration: '15m', seed: 2, runs: 5,
    };
    const { locate: _locate, ...read } = readScenarioFile(writeScenarioFile(scenario));
    assert.deepEqual(read, { scenario, problems: [] });
    assert.deepEqual(scenarioArguments(scenario).flags, [
      '--failure', 'partition', '--target', 'node/a,node/b@60s', '--recover-after', 'node/a@2m,node/b@10m', '--delete', 'Deployment/web@1m',
      '--restart-controller-manager-at', '3m', '--restart-controller-manager-at', '5m', '--placement', 'worst', '--duration', '15m', '--seed', '2', '--runs', '5',
    ]);
    const { choices, runs } = scenarioRun(scenario, 'all.failure-scenario.yaml');
    assert.equal(runs, 5);
    assert.deepEqual(
      [choices.targets, choices.failAtMs, choices.recoverAfterMs, choices.recoverAfterMsByTarget, choices.interventions, choices.placement, choices.durationMs, choices.seed],
      [['node/a', 'node/b'], { 'node/b': 60_000 }, undefined, { 'node/a': 120_000, 'node/b': 600_000 },
        [{ kind: 'delete', target: 'Deployment/web', atMs: 60_000 }, { kind: 'restart-controller-manager', atMs: 180_000 }, { kind: 'restart-controller-manager', atMs: 300_000 }],
        'worst', 900_000, 2],
    );
  });

  it('marks every unknown version, preset and knob at its line at once, as a run would refuse each', () => {
    const read = readScenarioFile(['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: x}', 'spec:', '  manifests: [a.yaml]',
      '  kubernetesVersion: "1.99"', '  profile: turbo', '  set: {kcm.node-monitor-grace-perod: 40s, kubelet.nodeStatusUpdateFrequency: soon}'].join('\n'));
    const problems = scenarioSettingsProblems(read.scenario!, read.locate, 'x.failure-scenario.yaml').map((p) => `${p.range.start.line + 1}:${p.range.start.character + 1} ${p.message}`);
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0], /^6:22 version 1\.99: Kubernetes 1\.99 is outside the versions the simulator knows/);
    assert.match(problems[1], /^7:12 Unknown profile "turbo"/);
    assert.match(problems[2], /^8:39 Unknown setting "kcm\.node-monitor-grace-perod" \(x\.failure-scenario\.yaml\); did you mean kcm\.node-monitor-grace-period\?/);
    assert.match(problems[3], /^8:\d+ kubelet\.nodeStatusUpdateFrequency must be a duration/);
    const fine = readScenarioFile('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: [a.yaml]\n  kubernetesVersion: "1.30"\n  profile: fast\n');
    assert.deepEqual(scenarioSettingsProblems(fine.scenario!, fine.locate, 'f'), []);
  });

  it('reports what the new fields cannot be', () => {
    const spec = (...lines: string[]) => readScenarioFile(['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: x}', 'spec:', '  manifests: [a.yaml]', ...lines].join('\n')).problems.map((p) => `${p.range.start.line + 1}: ${p.message}`);
    assert.deepEqual(spec('  targets: [node/a, node/b@soon]'), ['6: the time after @ in node/b@soon must be a duration such as 90s or 5m; got "soon"']);
    assert.deepEqual(spec('  targets: node/a'), ['6: targets must be a list such as [Deployment/web] or [node/worker-a1, node/worker-b1@60s]']);
    // As --recover-after node/a@2m: a target left out never returns.
    assert.deepEqual(spec('  targets: [node/a, node/b]', '  recoverAfter: {node/a: 2m}'), []);
    const read = (text: string) => readScenarioFile(text).problems.map((p) => `${p.range.start.line + 1}: ${p.message}`);
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: [a.yaml, "-"]\n'), ['4: "-" (standard input) cannot be listed in a scenario file: name the files']);
    // An empty list is said as such, not as something that is not a list.
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: []\n'), ['4: manifests lists nothing; name at least one file or folder, relative to this file']);
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: a.yaml\n'), ['4: manifests must be a list of files or folders, relative to this file']);
    // An empty path is not this file's folder read whole.
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: [a.yaml, ""]\n  cluster: ""\n'), ["4: an empty path names no file or folder (write . for this file's folder)", "5: an empty path names no file or folder (write . for this file's folder)"]);
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nmetadata: {name: 12}\nspec: {manifests: [a.yaml]}\n'), ['3: metadata.name must be a string; quote it']);
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nmetadata: foo\nspec: {manifests: [a.yaml]}\n'), ['3: metadata must be a mapping, such as {name: web-partition}']);
    assert.deepEqual(read('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nmetadata:\nspec: {manifests: [a.yaml]}\n'), [], 'an empty metadata is no metadata');
    // Nested past the parser's limit: the limit is the problem, not a missing document.
    const deep = read(`apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec: {manifests: [a.yaml], set: ${'['.repeat(120)}${']'.repeat(120)}}\n`);
    assert.equal(deep.length, 1);
    assert.match(deep[0], /^3: .*nest/i);
    assert.deepEqual(spec('  targets: [node/a]', '  recoverAfter: {node/c: 2m}'), ['7: recoverAfter names node/c, which is not among the targets (node/a)']);
    assert.deepEqual(spec('  recoverAfter: {worker-a1: 2m}'), ['6: recoverAfter names worker-a1, but the file lists no targets: name them in targets, or give one duration for the default target (recoverAfter: 2m)']);
    assert.deepEqual(spec('  placement: random', '  runs: 0'), ['6: placement must be one of scheduler, worst, spread', '7: runs must be a whole number from 1 to 1000']);
    // The bound --seed has: a file and its command line run the same seed.
    assert.deepEqual(spec('  seed: 2147483649'), ['6: seed must be a whole number from 0 to 2147483648']);
    assert.deepEqual(spec('  interventions: [{outOfService: {at: 1m}}, {outOfService: {at: 2m}}]'), ['6: outOfService is given twice; the failed nodes are tainted once']);
  });

  it('points at the list item, knob or field at fault, and says what is wrong with it', () => {
    const spec = (...lines: string[]) => readScenarioFile(['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: x}', 'spec:', '  manifests: [a.yaml]', ...lines].join('\n'))
      .problems.map((p) => `${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.message}`);
    assert.deepEqual(spec('  targets:', '    - node/a', '    - node/b@-5s'), ['8:7: the time after @ in node/b@-5s must be a duration such as 90s or 5m; got "-5s"']);
    assert.deepEqual(spec('  targets:', '    - node/a', '    - "@60s"'), ['8:7: @60s names no target before its @; a target is node/NAME, zone/NAME or Kind/name, optionally with @D (it fails D after the first), such as node/worker-b1@60s']);
    assert.deepEqual(spec('  targets: [node/a, node/b]', '  recoverAfter:', '    node/a: 2m', '    node/b: later'), ['9:13: recoverAfter of node/b must be a duration such as 90s or 5m; got "later"']);
    assert.deepEqual(spec('  set:', '    kcm.node-monitor-period: 5s', '    kcm.node-monitor-grace-period: [40s]'), ['8:36: set: kcm.node-monitor-grace-period must have one value (a duration, number or true/false), not a list or mapping']);
    assert.deepEqual(spec('  interventions:', '    - outOfService: {at: 1m}', '    - forceDelete: {pod: web-0, at: 30}'), ['8:37: forceDelete.at must be a duration such as 90s or 5m; got 30']);
    assert.deepEqual(spec('  interventions:', '    - drain: {at: 1m}'), [`7:7: unknown intervention drain; an intervention is one of {forceDelete: {pod: NAME, Kind/name, node/NAME or zone/NAME, at: D}}, {delete: {pod: …, at: D}}, {outOfService: {at: D}}, {deleteNode: {at: D}} or {restartControllerManager: {at: D}}`]);
    assert.deepEqual(spec('  interventions:', '    - deleteNode: {at: 1m, pod: web-0}'), ['7:33: deleteNode has no field pod; it is {at: D}']);
    // As the flags say it: the limit, not a syntax the value has.
    assert.deepEqual(spec('  duration: 169h'), ['6:13: duration is 169h, longer than the 7 days the simulator accepts']);
    assert.deepEqual(spec('  recoverAfter: 200h'), ['6:17: recoverAfter is 200h, longer than the 7 days the simulator accepts, or one per target such as {node/worker-a1: 2m}']);
  });

  it('refuses a second scenario in one file, which would be ignored', () => {
    const doc = ['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: x}', 'spec:', '  manifests: [a.yaml]'];
    const { problems } = readScenarioFile([...doc, '---', ...doc].join('\n'));
    assert.deepEqual(problems.map((p) => `${p.range.start.line + 1}: ${p.message.split(':')[0]}`), ['8: a second FailureScenario in this file']);
  });

  it('refuses absolute paths, which both front ends would have joined to the file\'s folder', () => {
    const problems = (manifests: string, cluster: string) => readScenarioFile(['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: x}', 'spec:',
      `  manifests: ${manifests}`, `  cluster: ${cluster}`].join('\n')).problems.map((p) => `${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.message.split(';')[0]}`);
    assert.deepEqual(problems('[a.yaml, /etc/passwd]', '"C:\\\\nodes.yaml"'), ['5:23: /etc/passwd is an absolute path', '6:12: C:\\nodes.yaml is an absolute path']);
    assert.deepEqual(problems('[a.yaml, ../shared/b.yaml]', 'cluster/nodes.yaml'), []);
  });

  it('runs from the CLI like the same flags, with the file as the source of its timing settings', () => {
    const fromFile = cli('simulate', '--scenario', FIXTURE, '--format', 'json');
    assert.equal(fromFile.code, 0, fromFile.err);
    const fromFlags = cli('simulate', 'examples/web-deployment.yaml', '--failure', 'partition', '--target', 'Deployment/web', '--recover-after', '8m',
      '--duration', '12m', '--k8s-version', '1.31', '--set', 'kcm.node-monitor-grace-period=40s', '--format', 'json');
    assert.equal(fromFile.out, fromFlags.out.replaceAll('"--set"', `"${FIXTURE}"`).replaceAll('"--k8s-version"', `"${FIXTURE}"`));
    assert.equal(JSON.parse(fromFile.out).timing['kcm.node-monitor-grace-period'].source, FIXTURE);
    const twice = cli('simulate', '--scenario', FIXTURE, '--failure', 'power-off');
    assert.equal(twice.code, 2);
    assert.match(twice.err, /--failure is set by test\/fixtures\/scenarios\/web-partition.failure-scenario.yaml/);
    const beside = cli('simulate', '--scenario', FIXTURE, '--placement', 'worst');
    assert.equal(beside.code, 2);
    assert.match(beside.err, /--placement cannot be given with --scenario; write it in test\/fixtures\/scenarios\/web-partition.failure-scenario.yaml/);
  });

  it('reports what only the run finds (a missing manifest, an unknown node or workload) at its line in the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-scenario-'));
    try {
      fs.writeFileSync(path.join(dir, 'web.yaml'), fs.readFileSync(path.join(REPO_ROOT, 'examples', 'web-deployment.yaml')));
      const run = (...spec: string[]) => {
        const file = path.join(dir, 's.yaml');
        fs.writeFileSync(file, ['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: s}', 'spec:', ...spec, ''].join('\n'));
        const result = cli('simulate', '--scenario', file);
        assert.equal(result.code, 2);
        return result.err.replace(/^kube-failure-sim: \S*s\.yaml:/, 's.yaml:').trimEnd();
      };
      assert.equal(run('  manifests: [web.yaml, gone.yaml]'), `s.yaml:5:25: no such file or directory: ${path.relative(REPO_ROOT, path.join(dir, 'gone.yaml'))}`);
      // At its own item: old/web.yaml is not web.yaml.
      assert.equal(run('  manifests:', '  - web.yaml', '  - old/web.yaml'), `s.yaml:7:5: no such file or directory: ${path.relative(REPO_ROOT, path.join(dir, 'old', 'web.yaml'))}`);
      assert.match(run('  manifests: [web.yaml]', '  targets: [node/worker-a1, node/worker-z9@1m]'), /^s\.yaml:6:29: target node\/worker-z9: no such node in the cluster/);
      assert.match(run('  manifests: [web.yaml]', '  interventions:', '  - delete: {pod: Deployment/web, at: 1m}', '  - forceDelete: {pod: Deployment/nope, at: 2m}'),
        /^s\.yaml:8:5: force-delete Deployment\/nope: no such workload in the input; did you mean Deployment\/web\?/);
      // At the knob's value, not at the first knob of set.
      assert.match(run('  manifests: [web.yaml]', '  set:', '    kcm.node-monitor-grace-period: 20s', '    kcm.node-monitor-period: five'),
        /^s\.yaml:8:30: kcm\.node-monitor-period must be a duration such as 40s or 1m30s; got "five"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs mixed interventions, a file named "-" and repeated items as the same flags would (audit)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-scenario-'));
    try {
      fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'postgres-statefulset.yaml'), path.join(dir, '-'));
      const file = path.join(dir, 's.yaml');
      const write = (...spec: string[]) => fs.writeFileSync(file, ['apiVersion: kube-failure-sim.dev/v1alpha1', 'kind: FailureScenario', 'metadata: {name: s}', 'spec:', ...spec, ''].join('\n'));
      // "./-" is the file named "-" beside the scenario, not standard input.
      write('  manifests: [./-]', '  targets: [StatefulSet/postgres]', '  duration: 8m', '  interventions:', '  - deleteNode: {at: 6m}', '  - delete: {pod: postgres-0, at: 6m}');
      const fromFile = cli('simulate', '--scenario', file, '--format', 'json');
      assert.equal(fromFile.code, 0, fromFile.err);
      const fromFlags = cli('simulate', path.join(dir, '-'), '--target', 'StatefulSet/postgres', '--duration', '8m', '--delete-node-after', '6m', '--delete', 'postgres-0@6m', '--format', 'json');
      assert.equal(fromFlags.code, 0, fromFlags.err);
      const run = (json: string) => {
        const report = JSON.parse(json) as TraceReport;
        return { interventions: report.scenario.interventions, events: report.events, summary: report.summary };
      };
      assert.deepEqual(run(fromFile.out), run(fromFlags.out), 'the same interventions, in the same order, and the same run');
      write('  manifests: [./-]', '  duration: 0.4ms');
      assert.match(cli('simulate', '--scenario', file).err, /s\.yaml:6:13 duration must be at least 1ms/);
      write('  manifests: [./-]', '  interventions:', '  - forceDelete: {pod: postgres-0, at: 6m}', '  - forceDelete: {pod: postgres-0, at: 360s}', '  - restartControllerManager: {at: 1m}', '  - restartControllerManager: {at: 60s}');
      assert.deepEqual(cli('simulate', '--scenario', file).err.trimEnd().split('\n').map((line) => line.replace(/^.*s\.yaml:/, '')), [
        '8:5 forceDelete is given twice (the same pods at the same time); give it once',
        '10:5 restartControllerManager is given twice (the same time); give it once',
      ]);
      // A target given twice is refused at its second place; a refused target does not make recoverAfter's names strays.
      write('  manifests: [./-]', '  targets:', '  - StatefulSet/postgres', '  - StatefulSet/postgres@1m');
      assert.match(cli('simulate', '--scenario', file).err, /s\.yaml:8:5: target StatefulSet\/postgres: this target is given twice/);
      write('  manifests: [./-]', '  targets: [node/worker-a1, 5]', '  recoverAfter: {node/worker-a1: 2m}');
      assert.deepEqual(cli('simulate', '--scenario', file).err.trimEnd().split('\n').length, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says a FailureScenario without an apiVersion lacks it, at its kind', () => {
    assert.deepEqual(readScenarioFile('metadata: {name: s}\nkind: FailureScenario\nspec: {manifests: [a.yaml]}\n').problems.map((p) => `${p.range.start.line + 1}: ${p.message}`),
      ['2: this FailureScenario has no apiVersion: write apiVersion: kube-failure-sim.dev/v1alpha1 (as a string) above its kind']);
  });

  it('refuses a seed or runs written otherwise than in decimal digits, which YAML 1.1 and 1.2 read differently (017: 15 or 17)', () => {
    const read = (value: string) => readScenarioFile(`apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: [a.yaml]\n  seed: ${value}\n  runs: ${value}\n`);
    assert.deepEqual([read('17').scenario?.seed, read('17 # a comment').scenario?.runs], [17, 17]);
    assert.equal(read('0x11').scenario?.seed, 17, 'hexadecimal reads alike in both');
    for (const written of ['017', '1_7', '0b11', '+0x11']) {
      assert.deepEqual(read(written).problems.map((p) => `${p.range.start.line + 1}: ${p.message.split(':')[0]}`), ['6: write runs as a plain decimal number', '5: write seed as a plain decimal number'], written);
    }
  });

  it('runs every choice of a full scenario file from the CLI: cluster file, preset, version, knob, time before, seed and runs', () => {
    const full = cli('simulate', '--scenario', 'test/fixtures/scenarios/full.failure-scenario.yaml', '--format', 'json');
    assert.equal(full.code, 0, full.err);
    const { scenario, timing } = JSON.parse(full.out);
    assert.deepEqual(
      [scenario.failedNodes, scenario.preFailureMs, scenario.placement, scenario.profile, scenario.k8sVersion, scenario.seed, scenario.runs, scenario.cluster.source],
      [['east-1', 'west-1'], 30_000, 'spread', 'fast', '1.30', 7, 3, 'test/fixtures/scenarios/zones.nodes.yaml'],
    );
    assert.deepEqual(timing['apiserver.default-unreachable-toleration-seconds'], { value: 120, unit: 's', source: 'test/fixtures/scenarios/full.failure-scenario.yaml' });
  });

  it("a scenario saved from an editor's run gives the CLI the same run: the files the run read, its version, preset and settings", () => {
    const dir = fs.mkdtempSync(path.join(REPO_ROOT, 'test', '.tmp-scenario-'));
    try {
      const example = (name: string) => fs.readFileSync(path.join(REPO_ROOT, 'examples', name), 'utf8');
      const files: Record<string, string> = {
        // The manifest simulated; its Service, the Node objects and the cluster configuration in files of their own.
        'web.yaml': example('web-deployment.yaml').split(/^---$/m).filter((doc) => !/^kind: Service$/m.test(doc)).join('---'),
        'web-service.yaml': example('web-deployment.yaml').split(/^---$/m).filter((doc) => /^kind: Service$/m.test(doc)).join('---'),
        'cluster/kube-controller-manager.yaml': example('cluster/kube-controller-manager.yaml'),
        'my cluster/kubelet config.yaml': example('cluster/kubelet-config.yaml'),
        'nodes.yaml': fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'scenarios', 'zones.nodes.yaml'), 'utf8'),
        // Read by the editor's run for nothing: not listed, nor another app's Service and claim (the CLI would simulate that app too).
        'other.yaml': example('node-exporter-daemonset.yaml'),
        'api.yaml': example('web-deployment.yaml').replace(/\bweb\b/g, 'api').concat('---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: api-data, namespace: shop}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n'),
      };
      const editor = new Workspace({ overrides: [{ name: 'kcm.node-eviction-rate', value: '0.5', source: 'setting kubeFailureSim.timing' }], profile: 'fast' });
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
        editor.setDocument(name, text);
      }
      const request: SimulationRequest = { failure: 'power-off', targets: [], interventions: [], durationMs: 10 * 60_000 };
      const scenario = editor.scenario(requestChoices(request, ['web.yaml']));
      const editorRun = JSON.parse(JSON.stringify(traceReport(scenario, ['web.yaml'], simulate(scenario)))) as TraceReport;
      const context = editor.contextDocuments(['web.yaml']);
      assert.deepEqual(context, ['web-service.yaml', 'cluster/kube-controller-manager.yaml', 'my cluster/kubelet config.yaml', 'nodes.yaml']);
      const file = path.join(dir, 'web.failure-scenario.yaml');
      fs.writeFileSync(file, writeScenarioFile(requestScenarioFile('web', ['web.yaml', ...context], request, {
        k8sVersion: editorRun.scenario.k8sVersion, profile: editorRun.scenario.profile, timing: { 'kcm.node-eviction-rate': '0.5' },
      })));
      const result = cli('simulate', '--scenario', path.relative(REPO_ROOT, file), '--format', 'json');
      assert.equal(result.code, 0, result.err);
      const saved = JSON.parse(result.out) as TraceReport;
      const values = (r: TraceReport) => Object.fromEntries(Object.entries(r.timing).map(([k, v]) => [k, v.value]));
      assert.deepEqual(values(saved), values(editorRun));
      assert.deepEqual([saved.scenario.k8sVersion, saved.scenario.profile, saved.timing['kcm.node-eviction-rate'].value], [editorRun.scenario.k8sVersion, 'fast', 0.5]);
      assert.deepEqual([saved.states, saved.events.map((e) => e.message), saved.summary], [editorRun.states, editorRun.events.map((e) => e.message), editorRun.summary]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws the first of a file\'s runs as an HTML report, as the editor does, and says so', () => {
    const html = cli('simulate', '--scenario', 'test/fixtures/scenarios/full.failure-scenario.yaml', '--format', 'html');
    assert.equal(html.code, 0, html.err);
    assert.match(html.err, /full\.failure-scenario\.yaml asks for 3 runs; --format html draws the first \(seed 7\)/);
    assert.match(html.out, /^<!DOCTYPE html>/);
  });

  it('has a JSON schema for editors that knows the same fields, failures and presets', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'media', 'failure-scenario.schema.json'), 'utf8'));
    const spec = schema.properties.spec;
    assert.deepEqual(Object.keys(spec.properties), [...SCENARIO_SPEC_FIELDS]);
    assert.deepEqual(spec.properties.failure.enum, [...FAILURE_KINDS]);
    assert.deepEqual(spec.properties.profile.enum, [...Object.keys(PRESETS), 'none']);
    const none = readScenarioFile('apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec:\n  manifests: [web.yaml]\n  profile: none\n').scenario!;
    assert.equal(scenarioRun(none, 's.yaml').choices.timing?.profile, undefined, 'none, as --profile none: no preset');
    assert.deepEqual(spec.properties.set.propertyNames.enum, ALL_KNOBS.map((k) => k.qualifiedName));
    assert.deepEqual(spec.properties.manifests.items.not, { const: '-' });
    const version = new RegExp(spec.properties.kubernetesVersion.pattern, 'u');
    const versions = ['1.30', 'v1.30.2', '1.30.2-gke.1', ' 1.30', `1.${OLDEST_MINOR}`, `1.${NEWEST_MINOR}`, `1.${OLDEST_MINOR - 1}`, `1.${NEWEST_MINOR + 1}`, '1.3', '2.1', 'latest'];
    assert.deepEqual(versions.map((v) => version.test(v)), versions.map((v) => typeof parseKubernetesVersion(v) === 'object'));
    assert.deepEqual(spec.properties.placement.enum, [...PLACEMENTS]);
    assert.deepEqual(spec.properties.interventions.items.oneOf.map((o: { required: string[] }) => o.required[0]), ['forceDelete', 'delete', 'outOfService', 'deleteNode', 'restartControllerManager']);
    assert.deepEqual(spec.properties.recoverAfter.oneOf.map((o: { type?: string }) => o.type ?? 'duration'), ['duration', 'object']);
    assert.deepEqual([spec.properties.runs.minimum, spec.properties.runs.maximum], [1, MAX_RUNS]);
    // The schema and the reader agree on what they both can tell: durations, targets, a zero duration, recoverAfter keys.
    const accepts = (field: string, value: unknown) => readScenarioFile(`apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nmetadata: {name: s}\nspec:\n  manifests: [web.yaml]\n${field === 'targets' ? '' : '  targets: [node/a, node/b]\n'}  ${field}: ${JSON.stringify(value)}\n`).problems.length === 0;
    const durationPattern = new RegExp(schema.definitions.duration.pattern, 'u');
    const durations = ['90s', '1h30m', '+5m', '5µs', '5μs', '.5s', '5.s', '0', '168h', '-5m', '5', 'm', '', '1.5.5s', '5 m', '.s', 'soon'];
    assert.deepEqual(durations.map((d) => durationPattern.test(d)), durations.map((d) => accepts('at', d)));
    assert.deepEqual(durations.filter((d) => accepts('at', d)), ['90s', '1h30m', '+5m', '5µs', '5μs', '.5s', '5.s', '0', '168h']);
    const targetPattern = new RegExp(spec.properties.targets.items.pattern, 'u');
    const targets = ['node/a', 'node/b@60s', 'Deployment/web@1m30s', 'worker-a1', 'node/b@+5m', 'node/b@soon', '@1m', ''];
    assert.deepEqual(targets.map((t) => targetPattern.test(t)), targets.map((t) => accepts('targets', [t])));
    const zero = new RegExp(spec.properties.duration.allOf[1].not.pattern, 'u');
    assert.deepEqual(['0', '0s', '0.0m', '+0h', '1s', '0.5s'].map((d) => !zero.test(d)), ['0', '0s', '0.0m', '+0h', '1s', '0.5s'].map((d) => accepts('duration', d)));
    const key = new RegExp(spec.properties.recoverAfter.oneOf[1].propertyNames.pattern, 'u');
    assert.deepEqual([key.test('node/a'), key.test('node/a@1m')], [accepts('recoverAfter', { 'node/a': '1m' }), accepts('recoverAfter', { 'node/a@1m': '1m' })]);
    // metadata: a mapping, or empty.
    assert.deepEqual(schema.properties.metadata.type, ['object', 'null']);
    const validation = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.yamlValidation;
    assert.deepEqual(validation, [{ fileMatch: ['*.failure-scenario.yaml', '*.failure-scenario.yml'], url: './media/failure-scenario.schema.json' }]);
  });
});
