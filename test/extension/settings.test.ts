/** The editor's settings: package.json declares what the code reads, and the vscode-free half maps them as documented. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_RULE_INFO, LENS_RULE } from '../../src/analysis/rules';
import { ALL_KNOBS } from '../../src/cluster/timing';
import { PRESETS } from '../../src/cluster/presets';
import { invalidRuleSettings, isSimulateArguments, ruleLevel, workspaceSettings } from '../../src/extension/choices';
import { Workspace } from '../../src/workspace/workspace';
import { TIMELINE_VIEW_TYPE } from '../../webview/protocol';
import { REPO_ROOT } from '../support/shared';

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const properties: Record<string, Record<string, unknown>> = manifest.contributes.configuration.properties;

describe('extension settings', () => {
  it('activates when VS Code revives a timeline panel after a reload', () => {
    assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${TIMELINE_VIEW_TYPE}`), manifest.activationEvents.join(', '));
  });

  it('describes every setting in Markdown', () => {
    for (const [name, schema] of Object.entries(properties)) {
      assert.ok(typeof schema.markdownDescription === 'string' && schema.markdownDescription.length > 20, name);
    }
  });

  it('offers exactly the CLI\'s knob names for timing overrides, the presets, and every rule that reports a finding', () => {
    const timing = properties['kubeFailureSim.timing'];
    assert.deepEqual(Object.keys(timing.properties as object), ALL_KNOBS.map((k) => k.qualifiedName));
    assert.deepEqual(properties['kubeFailureSim.profile'].enum, ['none', ...Object.keys(PRESETS)]);
    const rules = Object.keys(properties['kubeFailureSim.rules'].properties as object);
    assert.deepEqual(rules, ALL_RULE_INFO.filter((r) => r !== LENS_RULE).map((r) => r.id));
  });

  it('maps settings to the workspace: version and preset with their source, timing overrides, rules turned off', () => {
    const settings = workspaceSettings({
      kubernetesVersion: '1.29', profile: 'fast',
      timing: { 'kcm.node-monitor-grace-period': '20s', 'apiserver.default-unreachable-toleration-seconds': 60 },
      rules: { kfs041: 'off', KFS002: 'error' },
    });
    assert.deepEqual(settings.version, { value: '1.29', source: 'setting kubeFailureSim.kubernetesVersion' });
    assert.equal(settings.profile, 'fast');
    assert.deepEqual(settings.disabledRules, ['KFS041']);
    const workspace = new Workspace(settings);
    const timing = workspace.timing();
    assert.equal(timing.controllerManager.nodeMonitorGracePeriod.value, 20_000);
    assert.equal(timing.controllerManager.nodeMonitorGracePeriod.source, 'setting kubeFailureSim.timing');
    assert.equal(timing.apiServer.defaultUnreachableTolerationSeconds.value, 60);
    assert.deepEqual(workspace.settingsProblems(), []);
    assert.equal(workspaceSettings({ kubernetesVersion: '', profile: 'none' }).profile, undefined);
  });

  it('says which setting it cannot use, and what it would accept', () => {
    const problems = new Workspace(workspaceSettings({ kubernetesVersion: '2.0', profile: 'none', timing: { 'kcm.node-monitor-grace-perod': '20s' } })).settingsProblems();
    assert.equal(problems.length, 2);
    assert.match(problems.map((p) => p.message).join('\n'), /2\.0.*not a Kubernetes version/);
    assert.match(problems.map((p) => p.message).join('\n'), /kcm\.node-monitor-grace-perod.*node-monitor-grace-period/);
    assert.deepEqual(invalidRuleSettings({ KFS002: 'loud', KFS999: 'off', kfs041: 'hint', KFS090: 'off' }, ALL_RULE_INFO.map((r) => r.id)), [
      'KFS002: "loud" is not one of off, error, warning, information, hint', '"KFS999" is not a rule id', 'KFS090 cannot be off: it says a file could not be read',
    ]);
    // Nor is it: a YAML syntax error still shows, at its own severity.
    assert.equal(ruleLevel('KFS090', 'error', { KFS090: 'off' }), 'error');
    assert.deepEqual(workspaceSettings({ kubernetesVersion: '', profile: 'none', rules: { KFS090: 'off', KFS002: 'off' } }).disabledRules, ['KFS002']);
  });

  it('shows a finding at the level set for its rule, else errors and warnings as such, advice as hints, input notes as information', () => {
    assert.equal(ruleLevel('KFS002', 'warning'), 'warning');
    assert.equal(ruleLevel('KFS092', 'error'), 'error');
    assert.equal(ruleLevel('KFS041', 'info'), 'hint');
    assert.equal(ruleLevel('KFS091', 'info'), 'information');
    assert.equal(ruleLevel('KFS002', 'warning', { kfs002: 'error' }), 'error');
    assert.equal(ruleLevel('KFS041', 'info', { KFS041: 'off' }), 'off');
    assert.equal(ruleLevel('KFS041', 'info', { KFS041: 'loud' }), 'hint');
  });

  it('accepts only well-formed simulate command arguments', () => {
    assert.ok(isSimulateArguments({ uri: 'file:///a.yaml', target: 'StatefulSet/db' }));
    assert.ok(isSimulateArguments({}));
    assert.ok(!isSimulateArguments({ target: 3 }));
    assert.ok(!isSimulateArguments('StatefulSet/db'));
    assert.ok(!isSimulateArguments(null));
  });
});
