/** KFS095: misspelt and misplaced fields, told at their key, with a rename where the right name is clear. */
import * as assert from 'node:assert/strict';
import { applyEdits } from '../../src/analysis/fixEffects';
import { readManifestText } from '../../src/manifest/readManifest';
import { Workspace } from '../../src/workspace/workspace';

function analyse(text: string) {
  const workspace = new Workspace();
  workspace.setDocument('main.yaml', text);
  return { findings: workspace.analyse('main.yaml').findings.filter((f) => f.ruleId === 'KFS095'), fixes: workspace.fixes('main.yaml').filter((f) => f.finding.ruleId === 'KFS095' && !f.fix.title.startsWith('Disable ')) };
}

const keyAt = (text: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
  text.split('\n')[range.start.line].slice(range.start.character, range.end.character);

const MISTAKES = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, lables: {a: b}}
spec:
  replica: 3
  selector: {matchLabels: {app: web}}
  containers: [{name: x, image: y}]
  template:
    metadata: {labels: {app: web}}
    spec:
      image: nginx
      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSecond: 10}]
      containers:
      - name: c
        image: nginx
        readinessprobe: {httpGet: {path: /, port: 80}}
        resources: {request: {cpu: 100m}}
`;

describe('KFS095: fields Kubernetes does not know', () => {
  it('tells a near miss at its key, with the field it likely means, and a misplaced field where it belongs', () => {
    const { findings } = analyse(MISTAKES);
    assert.deepEqual(findings.map((f) => [f.range.start.line + 1, keyAt(MISTAKES, f.range), f.message.split(' kubectl apply')[0]]), [
      [3, 'lables', 'lables is not a field of the metadata of a Deployment; did you mean labels?'],
      [5, 'replica', 'replica is not a field of a Deployment\'s spec; did you mean replicas?'],
      [7, 'containers', 'containers is not a field of a Deployment\'s spec: it belongs in spec.template.spec.'],
      [11, 'image', 'image is not a field of the pod spec of a Deployment: it belongs in a container, under containers.'],
      [12, 'tolerationSecond', 'tolerationSecond is not a field of a toleration; did you mean tolerationSeconds?'],
      [16, 'readinessprobe', 'readinessprobe is not a field of a container; did you mean readinessProbe?'],
      [17, 'request', 'request is not a field of resources; did you mean requests?'],
    ]);
    assert.match(findings[4].message, /kubectl apply refuses the Deployment \(unknown field "spec\.template\.spec\.tolerations\[0\]\.tolerationSecond"\), and a client that does not validate drops the field, so it changes nothing\.$/);
    assert.ok(findings.every((f) => f.severity === 'warning'));
  });

  it('renames a near miss, and the field then counts: replicas 3, the toleration\'s seconds', () => {
    const { fixes } = analyse(MISTAKES);
    const rename = (field: string) => fixes.find((f) => f.fix.title === `Rename ${field} to ${field === 'lables' ? 'labels' : field === 'readinessprobe' ? 'readinessProbe' : `${field}s`}`)!.fix;
    let text = MISTAKES;
    for (const field of ['tolerationSecond', 'replica']) text = applyEdits(text, rename(field).edits);
    const [deployment] = readManifestText(text).model.workloads;
    assert.equal((deployment as { replicas: number }).replicas, 3);
    assert.equal(deployment.template.spec.tolerations[0].tolerationSeconds, 10);
    assert.deepEqual(analyse(text).findings.map((f) => f.message.split(' ')[0]), ['lables', 'containers', 'image', 'readinessprobe', 'request']);
    // No rename where the right name is written too: two keys of one name would not parse.
    assert.equal(analyse(MISTAKES.replace('  replica: 3', '  replicas: 2\n  replica: 3')).fixes.filter((f) => f.fix.title.startsWith('Rename replica ')).length, 0);
  });

  it('stays quiet on fields it does not know of that are no near miss (a newer API, an extension) and on patches', () => {
    const future = MISTAKES.replace(/lables/, 'labels').replace('  replica: 3', '  replicas: 3\n  someFutureField: true')
      .replace('  containers: [{name: x, image: y}]\n', '').replace('      image: nginx\n', '      futurePodField: {}\n')
      .replace('tolerationSecond', 'tolerationSeconds').replace('readinessprobe', 'readinessProbe').replace('request:', 'requests:');
    assert.deepEqual(analyse(future).findings, []);
    assert.deepEqual(analyse(`$patch: replace\n${MISTAKES}`).findings, []);
    // A custom resource of a built-in kind's name (Volcano's Job, Kruise's StatefulSet) has fields of its own.
    assert.deepEqual(analyse('apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec: {schedulerName: volcano, minAvailable: 1}\n').findings, []);
    assert.equal(analyse('apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {schedulerName: volcano, template: {spec: {containers: [{name: c, image: x}]}}}\n').findings.length, 1);
  });
});
