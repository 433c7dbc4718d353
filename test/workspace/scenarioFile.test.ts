import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { PRESETS } from '../../src/cluster/presets';
import { FAILURE_KINDS } from '../../src/sim/scenario';
import { readScenarioFile, SCENARIO_SPEC_FIELDS, scenarioArguments, writeScenarioFile, type ScenarioFile } from '../../src/workspace/scenarioFile';
import { REPO_ROOT } from '../support/shared';

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
      '9: an intervention is {forceDelete: {pod: NAME or Kind/name, at: D}}, {outOfService: {at: D}} or {deleteNode: {at: D}}',
    ]);
    assert.match(readScenarioFile('kind: Deployment\napiVersion: apps/v1\nmetadata: {name: x}\n').problems[0].message, /no FailureScenario document/);
  });

  it('writes a file that reads back as the same choices, whatever the names', () => {
    const scenario: ScenarioFile = {
      name: 'db: "force" <delete>', manifests: ['db.yaml', 'dir with space/'], failure: 'power-off', targets: ['StatefulSet/db'], at: '30s',
      interventions: [{ forceDelete: { pod: 'db-0', at: '6m' } }, { outOfService: { at: '7m' } }, { deleteNode: { at: '8m' } }],
      duration: '20m', profile: 'fast', kubernetesVersion: '1.30', set: { 'kubelet.nodeStatusUpdateFrequency': '4s' }, cluster: 'nodes.yaml', seed: 7,
    };
    assert.deepEqual(readScenarioFile(writeScenarioFile(scenario)), { scenario, problems: [] });
  });

  it('runs from the CLI like the same flags', () => {
    const fromFile = cli('simulate', '--scenario', FIXTURE, '--format', 'json');
    assert.equal(fromFile.code, 0, fromFile.err);
    const fromFlags = cli('simulate', 'examples/web-deployment.yaml', '--failure', 'partition', '--target', 'Deployment/web', '--recover-after', '8m',
      '--duration', '12m', '--k8s-version', '1.31', '--set', 'kcm.node-monitor-grace-period=40s', '--format', 'json');
    assert.equal(fromFile.out, fromFlags.out);
    const twice = cli('simulate', '--scenario', FIXTURE, '--failure', 'power-off');
    assert.equal(twice.code, 2);
    assert.match(twice.err, /--failure is set by test\/fixtures\/scenarios\/web-partition.failure-scenario.yaml/);
  });

  it('has a JSON schema for editors that knows the same fields, failures and presets', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'media', 'failure-scenario.schema.json'), 'utf8'));
    const spec = schema.properties.spec;
    assert.deepEqual(Object.keys(spec.properties), [...SCENARIO_SPEC_FIELDS]);
    assert.deepEqual(spec.properties.failure.enum, [...FAILURE_KINDS]);
    assert.deepEqual(spec.properties.profile.enum, Object.keys(PRESETS));
    const validation = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.yamlValidation;
    assert.deepEqual(validation, [{ fileMatch: ['*.failure-scenario.yaml', '*.failure-scenario.yml'], url: './media/failure-scenario.schema.json' }]);
  });
});
