import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultCluster } from '../../src/cluster/clusterSpec';
import { FAILURE_KINDS } from '../../src/sim/scenario';
import {
  FAILURE_OPTIONS, interventions, PICK_SOURCE, presetOptions, requestChoices, requestScenarioFile, returnOptions, targetOptions, versionOptions, type SimulationRequest,
} from '../../src/workspace/guidedChoices';
import { readScenarioFile, scenarioRun, writeScenarioFile } from '../../src/workspace/scenarioFile';
import { simulate } from '../../src/sim/simulate';
import { Workspace } from '../../src/workspace/workspace';
import { approx } from '../../src/analysis/outageText';
import { REPO_ROOT } from '../support/shared';
import type { InputError } from '../../src/workspace/inputError';

describe('guided "Simulate Node Failure…" choices', () => {
  it('offers every failure the simulator has, in plain words', () => {
    assert.deepEqual(FAILURE_OPTIONS.map((o) => o.value), [...FAILURE_KINDS]);
    assert.deepEqual(FAILURE_OPTIONS.map((o) => o.label), ['Power off the node', 'Stop the kubelet, containers keep running', 'Cut the node off the network', 'The kubelet reports NotReady (runtime down)', 'The disk fails, the node stays Ready', 'Shut the node down gracefully', 'Lose a whole zone']);
  });

  it('offers a workload\'s node, each node and each zone as the target', () => {
    const options = targetOptions([{ kind: 'Deployment', name: 'web', namespace: 'shop' }], defaultCluster().nodes);
    assert.deepEqual(options.map((o) => `${o.label} -> ${o.value.join(',')}`), [
      'The node that runs Deployment/web -> Deployment/web',
      'Node worker-a1 -> node/worker-a1', 'Node worker-a2 -> node/worker-a2', 'Node worker-b1 -> node/worker-b1',
      'Node worker-b2 -> node/worker-b2', 'Node worker-c1 -> node/worker-c1', 'Node worker-c2 -> node/worker-c2',
      'Every node of zone-a -> node/worker-a1,node/worker-a2', 'Every node of zone-b -> node/worker-b1,node/worker-b2', 'Every node of zone-c -> node/worker-c1,node/worker-c2',
    ]);
  });

  it('asks when the node returns: never, after 1, 2, 5 or 10 minutes, or a typed time, each said against the target\'s toleration', () => {
    assert.deepEqual(returnOptions(undefined, 300).map((o) => o.value), [null, 60_000, 120_000, 300_000, 600_000, undefined]);
    const details = (seconds: number | null | undefined) => returnOptions(seconds, 300).slice(1, 5).map((o) => o.detail);
    assert.deepEqual(details(undefined), [
      'Before the default tolerationSeconds (5m) run out: pods stay where they are.', 'Before the default tolerationSeconds (5m) run out: pods stay where they are.',
      'After the default tolerationSeconds (5m): evicted pods may already be replaced.', 'After the default tolerationSeconds (5m): evicted pods may already be replaced.',
    ]);
    assert.deepEqual(details(1200).map((d) => d.split(':')[0]), Array(4).fill('Before its tolerationSeconds (20m) run out'));
    assert.match(details(null)[3], /tolerate the unreachable taint forever/);
    // The workspace gives each workload's, as the API server admits it.
    const workspace = new Workspace();
    workspace.setDocument('w.yaml', `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 1200}]\n      containers: [{name: c, image: x}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {tolerations: [{operator: Exists}], containers: [{name: c, image: x}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec: {containers: [{name: c, image: x}]}\n`);
    assert.deepEqual(workspace.unreachableTolerations('w.yaml'), { seconds: [1200, null, 300], defaultSeconds: 300 });
  });

  it('force-deletes the pods of the target workload, every pod on the target nodes or zones, or the first workload\'s by default', () => {
    assert.deepEqual(interventions('force-delete', 360_000, ['StatefulSet/db'], 'Deployment/web'), [{ kind: 'force-delete', target: 'StatefulSet/db', atMs: 360_000 }]);
    assert.deepEqual(interventions('force-delete', 360_000, ['node/worker-a1', 'zone/zone-b'], 'Deployment/web'), [
      { kind: 'force-delete', target: 'node/worker-a1', atMs: 360_000 }, { kind: 'force-delete', target: 'zone/zone-b', atMs: 360_000 },
    ]);
    assert.deepEqual(interventions('force-delete', 360_000, [], 'Deployment/web'), [{ kind: 'force-delete', target: 'Deployment/web', atMs: 360_000 }]);
    assert.deepEqual(interventions('delete-node', 600_000, ['node/worker-a1'], undefined), [{ kind: 'delete-node', atMs: 600_000 }]);
  });

  it('a force delete of a node\'s pods releases the stuck StatefulSet pod there, whichever workload comes first in the file', () => {
    const workspace = new Workspace();
    const api = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: nginx}]}\n';
    const db = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: postgres}]}\n';
    workspace.setDocument('mixed.yaml', `${api}---\n${db}`);
    const dbNode = simulate(workspace.scenario(requestChoices({ failure: 'power-off', targets: ['StatefulSet/db'], interventions: [] }, ['mixed.yaml']))).summary.failedNodes[0];
    const targets = [`node/${dbNode}`];
    const request: SimulationRequest = { failure: 'power-off', targets, interventions: interventions('force-delete', 360_000, targets, 'Deployment/api') };
    const result = simulate(workspace.scenario(requestChoices(request, ['mixed.yaml'])));
    assert.ok(result.events.some((e) => e.reason === 'ForceDelete' && e.object.name === 'db-0'));
    assert.ok(!result.events.some((e) => e.reason === 'ForceDeleteSkipped'));
    assert.equal(result.summary.workloads.find((w) => w.object.name === 'db')!.outcome, 'replaced');
  });

  it('offers whole zones only for a zone outage: a workload\'s zone or a zone by name', () => {
    const options = targetOptions([{ kind: 'Deployment', name: 'web', namespace: 'shop' }], defaultCluster().nodes, 'zone-outage');
    assert.deepEqual(options.map((o) => `${o.label} -> ${o.value.join(',')}`), [
      'The zone of the node that runs Deployment/web -> Deployment/web',
      'Zone zone-a -> zone/zone-a', 'Zone zone-b -> zone/zone-b', 'Zone zone-c -> zone/zone-c',
    ]);
    // Nodes without zone labels have no zone to take down: nothing is offered (the picks say why).
    const unzoned = defaultCluster().nodes.map((n) => ({ name: n.name, labels: { 'kubernetes.io/hostname': n.name } }));
    assert.deepEqual(targetOptions([{ kind: 'Deployment', name: 'web', namespace: 'shop' }], unzoned, 'zone-outage'), []);
  });

  it('names a workload that two namespaces share by Kind/namespace/name, a target the simulator runs', () => {
    const workspace = new Workspace();
    const deployment = (namespace: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ${namespace}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n`;
    workspace.setDocument('web.yaml', `${deployment('blue')}---\n${deployment('green')}`);
    const workloads = workspace.read('web.yaml').model.workloads.map((w) => ({ kind: w.kind, name: w.name, namespace: w.namespace }));
    const options = targetOptions(workloads, defaultCluster().nodes);
    assert.deepEqual(options.slice(0, 2).map((o) => o.value), [['Deployment/blue/web'], ['Deployment/green/web']]);
    const request: SimulationRequest = { failure: 'power-off', targets: options[1].value, interventions: interventions('force-delete', 60_000, options[1].value, undefined) };
    const scenario = workspace.scenario(requestChoices(request, ['web.yaml']));
    assert.equal(scenario.workloads.length, 2);
    assert.deepEqual(scenario.interventions, [{ kind: 'force-delete', target: 'Deployment/green/web', atMs: 60_000 }]);
    // The node that fails is green's, whatever blue's is.
    const result = simulate(scenario);
    const green = result.states.find((s) => s.object.kind === 'Pod' && s.object.namespace === 'green');
    assert.deepEqual(result.summary.failedNodes, [green!.node]);
  });

  it('a picked run (a CodeLens\'s) lasts until a long toleration of a dead node runs out, as the CodeLens counts it; a chosen duration stays', () => {
    const workspace = new Workspace();
    const tolerating = (seconds: number) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: ${seconds}}]\n      containers: [{name: c, image: nginx}]\n`;
    const request: SimulationRequest = { failure: 'power-off', targets: ['Deployment/web'], interventions: [] };
    workspace.setDocument('web.yaml', tolerating(1200));
    assert.equal(workspace.scenario(requestChoices(request, ['web.yaml'])).durationMs, 30 * 60_000);
    const result = simulate(workspace.scenario(requestChoices(request, ['web.yaml'])));
    assert.equal(result.summary.workloads[0].outcome, 'replaced');
    assert.equal(workspace.lenses('web.yaml')[0].title.replace(/ \(back.*/, ''), `If its node fails: down ~${approx(result.summary.workloads[0].unavailableMs)}`);
    assert.equal(workspace.scenario(requestChoices({ ...request, durationMs: 10 * 60_000 }, ['web.yaml'])).durationMs, 10 * 60_000);
    // The default toleration needs no more than the default 20 minutes; a day-long one, the 2 hours the CodeLens simulates.
    workspace.setDocument('web.yaml', tolerating(300));
    assert.equal(workspace.scenario(requestChoices(request, ['web.yaml'])).durationMs, 20 * 60_000);
    workspace.setDocument('web.yaml', tolerating(86_400));
    assert.equal(workspace.scenario(requestChoices(request, ['web.yaml'])).durationMs, 2 * 3600_000);
  });

  it('a manifest whose only workload the YAML parser cannot read: the run points at the syntax error, and its Service is not called selectorless', () => {
    const workspace = new Workspace();
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  bad: \'unterminated\n  replicas: 1\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n';
    workspace.setDocument('web.yaml', text);
    assert.throws(() => workspace.scenario(requestChoices({ failure: 'power-off', targets: [], interventions: [] }, ['web.yaml'])),
      (error: InputError) => /^YAML syntax error: .* at line 6: the YAML cannot be read there, so no workload was found\. Fix it first\.$/.test(error.problem) && error.at?.uri === 'web.yaml' && error.at.range.start.line === 5);
    assert.deepEqual(workspace.analyse('web.yaml').findings.filter((f) => f.ruleId === 'KFS054'), []);
    // Without the broken document, the Service alone has nothing to compare with; beside a workload of other labels it selects nothing.
    workspace.setDocument('web.yaml', text.slice(text.indexOf('---\n') + 4));
    assert.equal(workspace.analyse('web.yaml').findings.filter((f) => f.ruleId === 'KFS054').length, 0);
    workspace.setDocument('api.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: api}]}\n');
    assert.equal(workspace.analyse('web.yaml').findings.filter((f) => f.ruleId === 'KFS054').length, 1);
  });

  it('a version setting the simulator cannot use is said as such in the first option, not taken for an empty one', () => {
    assert.match(versionOptions('1.99')[0].detail!, /\(your setting kubeFailureSim\.kubernetesVersion "1\.99" cannot be used: Kubernetes 1\.99 is outside the versions the simulator knows \(1\.20–1\.\d+\)\)\.$/);
    assert.match(versionOptions('')[0].detail!, /\(setting kubeFailureSim\.kubernetesVersion is empty\)\.$/);
  });

  it('offers the Kubernetes versions with their grace period, the setting\'s first', () => {
    const fromSetting = versionOptions('1.31');
    assert.deepEqual(fromSetting.slice(0, 3).map((o) => [o.value, o.label, o.detail]), [
      ['1.31', 'Kubernetes 1.31 (node-monitor-grace-period 40s)', 'Your setting kubeFailureSim.kubernetesVersion.'],
      ['1.36', 'Kubernetes 1.36 (node-monitor-grace-period 50s)', 'Nodes are marked Unknown after 50s without a heartbeat (from 1.32).'],
      ['1.35', 'Kubernetes 1.35 (node-monitor-grace-period 50s)', 'Nodes are marked Unknown after 50s without a heartbeat (from 1.32).'],
    ]);
    assert.equal(fromSetting.length, 17);
    const none = versionOptions('');
    assert.deepEqual([none[0].value, none[0].label, none[1].value, none.length], ['', 'The newest version: Kubernetes 1.36 (node-monitor-grace-period 50s)', '1.36', 18]);
    // The folder's files say a version: the first option names it, as the run will take it, and where it is written; it is not offered twice.
    const folder = versionOptions('', { version: '1.29', source: 'cluster/kube-controller-manager.yaml:22' });
    assert.deepEqual([folder[0].value, folder[0].label, folder[0].detail], ['', 'The folder\'s version: Kubernetes 1.29 (node-monitor-grace-period 40s)', 'From cluster/kube-controller-manager.yaml:22 (setting kubeFailureSim.kubernetesVersion is empty).']);
    assert.equal(folder.filter((o) => o.label.includes('Kubernetes 1.29')).length, 1);
    assert.equal(folder.length, 17);
  });

  it('offers the presets in plain words with their values, the setting\'s first', () => {
    assert.deepEqual(presetOptions('fast').map((o) => `${o.value}: ${o.label}: ${o.detail}`), [
      'fast: Fast failure detection (preset fast): nodeStatusUpdateFrequency 4s, node-monitor-period 2s, node-monitor-grace-period 20s — your setting kubeFailureSim.profile',
      'none: The version\'s defaults (no preset): kubelet and kube-controller-manager as the Kubernetes version ships them',
      'default: Common defaults (preset default): nodeStatusUpdateFrequency 10s, node-monitor-period 5s, node-monitor-grace-period 40s',
      'medium: Medium failure detection (preset medium): nodeStatusUpdateFrequency 20s, node-monitor-period 5s, node-monitor-grace-period 2m',
      'slow: Slow failure detection (preset slow): nodeStatusUpdateFrequency 1m, node-monitor-period 5s, node-monitor-grace-period 5m',
    ]);
  });

  it('runs the picked version and preset over the settings ("none": no preset whatever the settings say)', () => {
    const base: SimulationRequest = { failure: 'power-off', targets: [], interventions: [] };
    assert.deepEqual(requestChoices({ ...base, kubernetesVersion: '1.30', profile: 'slow' }).timing, { version: { value: '1.30', source: PICK_SOURCE }, profile: 'slow' });
    assert.deepEqual(requestChoices({ ...base, profile: 'none' }).timing, { version: undefined, profile: null });
    assert.equal(requestChoices(base).timing, undefined);
  });

  it('runs 20 minutes, or until 5 minutes after a later return or intervention', () => {
    const base: SimulationRequest = { failure: 'power-off', targets: [], interventions: [] };
    assert.equal(requestChoices(base).durationMs, 20 * 60_000);
    assert.equal(requestChoices({ ...base, recoverAfterMs: 10 * 60_000 }).durationMs, 20 * 60_000);
    assert.equal(requestChoices({ ...base, recoverAfterMs: 30 * 60_000 }).durationMs, 35 * 60_000);
    assert.equal(requestChoices({ ...base, interventions: [{ kind: 'out-of-service', atMs: 40 * 60_000 }] }).durationMs, 45 * 60_000);
    assert.equal(requestChoices({ ...base, recoverAfterMs: 30 * 60_000, durationMs: 25 * 60_000 }).durationMs, 25 * 60_000);
    assert.equal(requestScenarioFile('x', ['x.yaml'], { ...base, recoverAfterMs: 30 * 60_000 }).duration, '35m');
  });

  it('saves the answers as a scenario file that reads back as the same choices', () => {
    const request: SimulationRequest = {
      failure: 'kubelet-stop', targets: ['StatefulSet/db'], recoverAfterMs: 90_000,
      interventions: [{ kind: 'force-delete', target: 'StatefulSet/db', atMs: 360_000 }, { kind: 'out-of-service', atMs: 420_000 }, { kind: 'restart-controller-manager', atMs: 60_000 }],
      durationMs: 1_200_000, kubernetesVersion: '1.31', profile: 'fast', placement: 'spread', seed: 3,
    };
    const file = writeScenarioFile(requestScenarioFile('db', ['db.yaml'], request));
    const { scenario, problems } = readScenarioFile(file);
    assert.deepEqual(problems, []);
    const { timing, ...fromFile } = scenarioRun(scenario!, 'db.failure-scenario.yaml').choices;
    const { timing: picked, ...fromPicks } = requestChoices(request, ['file:///db.yaml']);
    assert.deepEqual(fromPicks, {
      failure: 'kubelet-stop', targets: ['StatefulSet/db'], preFailureMs: 0, recoverAfterMs: 90_000, interventions: request.interventions,
      durationMs: 1_200_000, placement: 'spread', seed: 3, documents: ['file:///db.yaml'],
    });
    assert.deepEqual({ ...fromFile, documents: ['file:///db.yaml'] }, { ...fromPicks, failAtMs: {}, recoverAfterMsByTarget: undefined, clusterText: undefined });
    assert.deepEqual([timing?.version?.value, timing?.profile, picked?.version?.value, picked?.profile], ['1.31', 'fast', '1.31', 'fast']);
  });
  it('the folder\'s version is what its files say, whatever the settings, with where it is written', () => {
    const manager = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'cluster', 'kube-controller-manager.yaml'), 'utf8');
    const workspace = new Workspace({ version: { value: '1.31', source: 'setting' }, overrides: [] });
    assert.equal(workspace.folderVersion(), undefined);
    workspace.setDocument('file:///w/kcm.yaml', manager);
    assert.deepEqual(workspace.folderVersion(), { version: '1.29', source: 'file:///w/kcm.yaml:16' });
  });
});
