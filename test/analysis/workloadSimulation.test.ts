import * as assert from 'node:assert/strict';
import { Workspace } from '../../src/workspace/workspace';
import { deployment } from '../sim/support';
import { WorkloadSimulations } from '../../src/analysis/workloadSimulation';
import { DEFAULT_VERSION, parseKubernetesVersion, type KubernetesVersion } from '../../src/cluster/kubernetesVersion';
import { resolveTiming } from '../../src/cluster/timing';
import { readManifestText } from '../../src/manifest/readManifest';

/** A file of `count` Deployments w0, w1, … of `replicas` each. */
const deployments = (count: number, replicas: number) => Array.from({ length: count }, (_, i) => deployment(`w${i}`, replicas)).join('---\n');

describe('per-workload simulations behind the findings', () => {
  it('are cached by the workload text and the timing: typing elsewhere simulates nothing again', () => {
    const workspace = new Workspace();
    workspace.setDocument('a.yaml', `${deployment('a', 1)}---\n${deployment('b', 1)}`);
    workspace.setDocument('notes.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata: {x: "1"}\n');
    workspace.analyse('a.yaml');
    const first = workspace.simulations.runs;
    assert.equal(first, 2, 'one default scenario for each single-replica Deployment');

    workspace.setDocument('notes.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata: {x: "12"}\n');
    workspace.analyse('a.yaml');
    assert.equal(workspace.simulations.runs, first, 'an edit in another document');

    // A comment is no change to the workload: its parsed value is the same.
    workspace.setDocument('a.yaml', `${deployment('a', 1)}---\n# a comment\n${deployment('b', 1)}`);
    workspace.analyse('a.yaml');
    assert.equal(workspace.simulations.runs, first, 'a comment');

    // Editing b simulates b again, not a: as many runs as b alone takes in a fresh workspace.
    const alone = new Workspace();
    alone.setDocument('b.yaml', deployment('b', 2));
    alone.analyse('b.yaml');
    workspace.setDocument('a.yaml', `${deployment('a', 1)}---\n${deployment('b', 2)}`);
    workspace.analyse('a.yaml');
    const afterEdit = workspace.simulations.runs;
    assert.equal(afterEdit - first, alone.simulations.runs);

    // Other timing is other numbers: everything is simulated again, as a fresh workspace with that timing would.
    const settings = { overrides: [{ name: 'apiserver.default-unreachable-toleration-seconds', value: '60', source: 'test' }] };
    const retimed = new Workspace(settings);
    retimed.setDocument('a.yaml', `${deployment('a', 1)}---\n${deployment('b', 2)}`);
    retimed.analyse('a.yaml');
    workspace.setSettings(settings);
    workspace.analyse('a.yaml');
    assert.equal(workspace.simulations.runs - afterEdit, retimed.simulations.runs);
  });

  it('stay within the budget: a file past its 300th workload simulates no more of them', () => {
    const workspace = new Workspace();
    workspace.setDocument('many.yaml', deployments(320, 1));
    const { findings } = workspace.analyse('many.yaml');
    const limit = findings.find((f) => f.ruleId === 'KFS093');
    assert.equal(limit?.message, 'This file has 320 workloads; node-failure findings are simulated for its first 300, from here on they are not. Split the file, or run kube-failure-sim simulate on it.');
    assert.equal(limit?.object?.name, 'w300');
    assert.ok(!findings.some((f) => f.ruleId === 'KFS002' && f.object?.name === 'w310'));
    assert.ok(findings.some((f) => f.ruleId === 'KFS002' && f.object?.name === 'w10'));
  });

  it('stay within the budget: a file past its 10,000th pod simulates no more workloads (2,000 pods each would take minutes)', () => {
    const workspace = new Workspace();
    workspace.setDocument('big.yaml', deployments(8, 2000));
    const { findings } = workspace.analyse('big.yaml');
    const limit = findings.find((f) => f.ruleId === 'KFS093');
    assert.equal(limit?.message, 'This file asks for more than 10,000 pods; node-failure findings are simulated for its workloads up to that many pods, from here on they are not. Split the file, or run kube-failure-sim simulate on it.');
    assert.equal(limit?.object?.name, 'w5');
    // As many runs as the first five workloads alone take.
    const firstFive = new Workspace();
    firstFive.setDocument('big.yaml', deployments(5, 2000));
    firstFive.analyse('big.yaml');
    assert.equal(workspace.simulations.runs, firstFive.simulations.runs);
    const titles = workspace.lenses('big.yaml').map((l) => l.title);
    assert.doesNotMatch(titles[4], /not simulated/);
    // One lens for the workloads past the budget, at the first of them: a lens each slowed typing in a file of thousands.
    assert.deepEqual(titles.slice(5), ['If its node fails: not simulated here: the first 10,000 pods of a file are (this and the 2 after it are not)']);
  });

  it('say in the CodeLens why a workload has no numbers: too many pods here, more than a cluster runs, a rejected field', () => {
    const workspace = new Workspace();
    workspace.setDocument('sizes.yaml', [deployment('big', 5000), deployment('huge', 200_000), deployment('bad', -1)].join('---\n'));
    assert.deepEqual(workspace.lenses('sizes.yaml').map((l) => l.title), [
      'If its node fails: not simulated here: 5,000 pods (more than 2,000)',
      'If its node fails: not simulated: 200,000 pods is more than a cluster runs',
      'If its node fails: not simulated: fix the field the API server rejects first',
    ]);
    assert.equal(workspace.simulations.runs, 0);
  });

  it('simulate no workload that a rule finds the API server rejects (a StatefulSet whose selector misses its template): only the rejection is reported', () => {
    const workspace = new Workspace();
    const rejected = deployment('db', 1).replace('kind: Deployment', 'kind: StatefulSet').replace('spec:\n', 'spec:\n  serviceName: db\n').replace('matchLabels: {app: db}', 'matchLabels: {app: other}');
    assert.match(rejected, /matchLabels: \{app: other\}/);
    workspace.setDocument('db.yaml', rejected);
    assert.deepEqual(workspace.lenses('db.yaml').map((l) => l.title), ['If its node fails: not simulated: fix the field the API server rejects first']);
    const findings = workspace.analyse('db.yaml').findings.map((f) => f.ruleId);
    assert.ok(findings.includes('KFS053'));
    assert.deepEqual(findings.filter((id) => /^KFS0(0\d|1[0-2])$/.test(id)), [], 'no node-failure finding');
    assert.equal(workspace.simulations.runs, 0);
  });
});

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec: {containers: [{name: c, image: nginx, readinessProbe: {httpGet: {path: /, port: 80}}}]}
`;
const service = (name: string, namespace: string, selector: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: ${namespace}}\nspec: {selector: ${selector}, ports: [{port: 80}]}\n`;
const timing = resolveTiming({ version: parseKubernetesVersion(DEFAULT_VERSION) as KubernetesVersion, settings: [] });

function outcomeOf(documents: string[]) {
  const model = readManifestText(documents.join('---\n')).model;
  return new WorkloadSimulations().outcome(model.workloads.find((w) => w.name === 'web')!, model, timing)!.summary;
}

describe('analysis: one workload\'s default scenario', () => {
  it('runs with the Services in front of its pods, and the others change nothing', () => {
    const own = outcomeOf([WEB, service('web', 'shop', '{app: web}')]);
    assert.ok(own.blackholeMs > 0, 'its Service routes to the dead pod until the endpoint goes');
    assert.equal(outcomeOf([WEB]).blackholeMs, 0);
    const unrelated = [
      ...Array.from({ length: 50 }, (_, i) => service(`other-${i}`, 'shop', `{app: other-${i}}`)),
      service('elsewhere', 'other', '{app: web}'),
      service('no-selector', 'shop', '{}'),
      service('narrower', 'shop', '{app: web, tier: back}'),
    ];
    assert.deepEqual(outcomeOf([WEB, ...unrelated, service('web', 'shop', '{app: web}')]), own);
    // A second Service selecting the pods by another label counts too.
    assert.ok(outcomeOf([WEB, ...unrelated, service('front', 'shop', '{tier: front}')]).blackholeMs > 0);
  });
});
