/**
 * The CLI and the editor build the same scenario from the same files: both ask the Workspace,
 * the CLI with the files named on its command line (run from the folder), the editor with the
 * files of the workspace folder named relative to it (what WorkspaceIndex does).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from '../../src/cli/args';
import { collectFiles, readText } from '../../src/cli/files';
import { prepareSimulation, SIMULATE_OPTIONS } from '../../src/cli/simulateCommand';
import { knobsOf } from '../../src/cluster/timing';
import { relativeName, simulationChoices, workspaceSettings } from '../../src/extension/choices';
import type { Scenario } from '../../src/sim/scenario';
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
