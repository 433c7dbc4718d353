/**
 * The CLI and the editor build the same scenario from the same files: both ask the Workspace,
 * the CLI with the files named on its command line (run from the folder), the editor with the
 * files of the workspace folder named relative to it (what WorkspaceIndex does).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from '../../src/cli/args';
import { collectFiles, readText } from '../../src/cli/files';
import { prepareScenario, prepareSimulation, SIMULATE_OPTIONS } from '../../src/cli/simulateCommand';
import { knobsOf } from '../../src/cluster/timing';
import { relativeName, simulationChoices, workspaceSettings } from '../../src/extension/choices';
import type { Scenario } from '../../src/sim/scenario';
import { readScenarioFile, scenarioRun } from '../../src/workspace/scenarioFile';
import { Workspace } from '../../src/workspace/workspace';
import { REPO_ROOT } from '../support/shared';

const EXAMPLES = path.join(REPO_ROOT, 'examples');

function editorScenario(profile: string, target: string): Scenario {
  const folder = pathToFileURL(EXAMPLES).toString();
  const workspace = new Workspace(workspaceSettings({ kubernetesVersion: '', profile }), (uri) => relativeName(folder, uri));
  for (const file of collectFiles(['.'], EXAMPLES).files) workspace.setDocument(pathToFileURL(file.absolutePath!).toString(), readText(file));
  return workspace.scenario(simulationChoices({ failure: 'power-off', target }));
}

function cliScenario(args: string[]): Scenario {
  return prepareSimulation(parseArgs(['.', ...args], SIMULATE_OPTIONS), EXAMPLES).scenario;
}

const timingOf = (scenario: Scenario) => knobsOf(scenario.timing).map(({ ref, knob }) => [ref.qualifiedName, knob.value, knob.source]);

describe('the CLI and the editor build the same scenario from the same folder', () => {
  for (const profile of ['none', 'fast']) {
    it(`examples/, profile ${profile}: the same timing values and sources, workloads, cluster and failure`, () => {
      const cli = cliScenario(['--target', 'Deployment/web', ...(profile === 'none' ? [] : ['--profile', profile])]);
      const editor = editorScenario(profile, 'Deployment/web');
      assert.deepEqual(timingOf(editor), timingOf(cli));
      assert.equal(editor.timing.versionSource, cli.timing.versionSource);
      assert.deepEqual(editor.timing.notes, cli.timing.notes);
      assert.deepEqual(editor.workloads.map((w) => `${w.kind}/${w.name}`), cli.workloads.map((w) => `${w.kind}/${w.name}`));
      assert.deepEqual(editor.cluster, cli.cluster);
      assert.deepEqual([editor.faults, editor.durationMs, editor.seed], [cli.faults, cli.durationMs, cli.seed]);
    });
  }

  it('the controller-manager manifest next to the workloads sets the grace period, with its file:line', () => {
    const { controllerManager } = editorScenario('none', 'Deployment/web').timing;
    assert.deepEqual([controllerManager.nodeMonitorGracePeriod.value, controllerManager.nodeMonitorGracePeriod.source], [20_000, 'cluster/kube-controller-manager.yaml:22']);
  });
});

/**
 * A scenario file gives the same run in both front ends: the CLI reads it from disk
 * (simulate --scenario); the editor reads it and its cluster file as text, src/workspace turns
 * it into choices (scenarioRun), and the worker's Workspace parses the cluster and applies the
 * file's timing instead of the editor's settings, which must not leak in.
 */
describe('the CLI and the editor build the same scenario from the same scenario file', () => {
  const FILE = 'test/fixtures/scenarios/full.failure-scenario.yaml';

  function editorScenarioFromFile(settings: { kubernetesVersion: string; profile: string; timing?: Record<string, unknown> }): Scenario {
    const folder = pathToFileURL(REPO_ROOT).toString();
    const name = (p: string) => relativeName(folder, pathToFileURL(path.join(REPO_ROOT, p)).toString());
    const { scenario } = readScenarioFile(fs.readFileSync(path.join(REPO_ROOT, FILE), 'utf8'));
    const workspace = new Workspace(workspaceSettings(settings), (uri) => relativeName(folder, uri));
    for (const file of collectFiles(['examples'], REPO_ROOT).files) workspace.setDocument(pathToFileURL(file.absolutePath!).toString(), readText(file));
    const cluster = { texts: [fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/scenarios/zones.nodes.yaml'), 'utf8')], source: name('test/fixtures/scenarios/zones.nodes.yaml') };
    return workspace.scenario(scenarioRun(scenario!, name(FILE), cluster).choices);
  }

  it('the same timing values and sources, cluster, faults, interventions, placement, time before the failure and seed, whatever the editor\'s settings', () => {
    const prepared = prepareScenario(FILE, REPO_ROOT);
    assert.ok('prepared' in prepared);
    const cli = prepared.prepared.scenario;
    for (const settings of [{ kubernetesVersion: '', profile: 'none' }, { kubernetesVersion: '1.35', profile: 'slow', timing: { 'kcm.node-monitor-period': '10s' } }]) {
      const editor = editorScenarioFromFile(settings);
      assert.deepEqual(timingOf(editor), timingOf(cli));
      assert.deepEqual([editor.timing.versionSource, editor.timing.notes], [cli.timing.versionSource, cli.timing.notes]);
      assert.deepEqual(editor.workloads.map((w) => `${w.kind}/${w.name}`), cli.workloads.map((w) => `${w.kind}/${w.name}`));
      assert.deepEqual(editor.cluster, cli.cluster);
      assert.deepEqual([editor.faults, editor.interventions, editor.placement, editor.preFailureMs, editor.durationMs, editor.seed],
        [cli.faults, cli.interventions, cli.placement, cli.preFailureMs, cli.durationMs, cli.seed]);
    }
    // Written out: what the file says, with its sources.
    assert.deepEqual([cli.timing.versionSource, cli.placement, cli.preFailureMs, cli.seed, cli.cluster.source, cli.cluster.nodes.map((n) => n.name)],
      [FILE, 'spread', 30_000, 7, 'test/fixtures/scenarios/zones.nodes.yaml', ['east-1', 'east-2', 'west-1', 'west-2']]);
    assert.deepEqual(cli.faults, [
      { kind: 'kubelet-stop', targets: ['node/east-1'], atMs: 0, recoverAfterMs: 240_000 },
      { kind: 'kubelet-stop', targets: ['node/west-1'], atMs: 60_000, recoverAfterMs: 540_000 },
    ]);
    const { apiServer, kubelet } = cli.timing;
    assert.deepEqual([apiServer.defaultUnreachableTolerationSeconds.value, apiServer.defaultUnreachableTolerationSeconds.source], [120, FILE]);
    assert.deepEqual([kubelet.nodeLeaseDurationSeconds.source], ['Kubernetes 1.30 default']);
  });
});
