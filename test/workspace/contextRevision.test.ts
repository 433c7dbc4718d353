import * as assert from 'node:assert/strict';
import { Workspace } from '../../src/workspace/workspace';
import { deployment } from '../sim/support';

/** A Deployment serving port 80, and a Service of its own that selects `app: api` from another document. */
const WEB = `${deployment('web', 2).replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, ports: [{containerPort: 80}]}')}---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: truth}
spec: {selector: {app: api}, ports: [{port: 80}]}
`;
const service = (selects: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: truth}\nspec: {selector: {app: ${selects}}, ports: [{port: 80}]}\n`;
const kubelet = (leaseSeconds: number) => `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: ${leaseSeconds}\n`;
const kcm = (grace: string) => `apiVersion: v1
kind: Pod
metadata: {name: kube-controller-manager, namespace: kube-system, labels: {component: kube-controller-manager}}
spec:
  containers:
    - name: kube-controller-manager
      image: registry.k8s.io/kube-controller-manager:v1.31.0
      command: [kube-controller-manager, --node-monitor-grace-period=${grace}]
`;

const autoscaler = (minReplicas: number) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: truth}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, minReplicas: ${minReplicas}, maxReplicas: 5}
`;

const findingsOf = (workspace: Workspace) => workspace.analyse('web.yaml').findings.map((f) => `${f.ruleId} ${f.message}`);

/** web.yaml's findings in a workspace made afresh with another document's text (none: undefined). */
function fresh(other: string | undefined): string[] {
  const workspace = new Workspace();
  workspace.setDocument('web.yaml', WEB, 1);
  if (other !== undefined) workspace.setDocument('other.yaml', other, 1);
  return findingsOf(workspace);
}

describe('workspace context revision (what other documents depend on)', () => {
  // Each edit in other.yaml changes web.yaml's findings: a cached analysis that missed it would keep the old ones.
  const edits: [string, string, string | undefined][] = [
    ['a Service stops selecting the Deployment', service('web'), service('nothing')],
    ['a Deployment changes the labels a Service of web.yaml selects', deployment('api', 1), deployment('api', 1).replace(/app: api/g, 'app: api2')],
    ['a KubeletConfiguration field changes', kubelet(40), kubelet(20)],
    ['a controller-manager flag changes', kcm('20s'), kcm('40s')],
    ['the controller-manager manifest is removed', kcm('20s'), undefined],
    ['an autoscaler\'s minReplicas changes', autoscaler(2), autoscaler(1)],
  ];
  for (const [what, before, after] of edits) {
    it(`moves when ${what}, and the other document's findings are those of a fresh workspace`, () => {
      assert.notDeepEqual(fresh(after), fresh(before), 'the edit changes web.yaml\'s findings');
      const workspace = new Workspace();
      workspace.setDocument('web.yaml', WEB, 1);
      workspace.setDocument('other.yaml', before!, 1);
      assert.deepEqual(findingsOf(workspace), fresh(before));
      const revision = workspace.contextRevision;
      if (after === undefined) workspace.removeDocument('other.yaml');
      else workspace.setDocument('other.yaml', after, 2);
      assert.notEqual(workspace.contextRevision, revision);
      assert.deepEqual(findingsOf(workspace), fresh(after));
    });
  }

  it('moves when the labels of a Namespace that a namespaceSelector of web.yaml picks by change', () => {
    const spread = WEB.replace('    spec:\n', `    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, namespaceSelector: {matchLabels: {team: web}}}
`);
    const namespace = (team: string) => `apiVersion: v1\nkind: Namespace\nmetadata: {name: truth, labels: {team: ${team}}}\n`;
    const workspace = new Workspace();
    workspace.setDocument('web.yaml', spread, 1);
    workspace.setDocument('namespaces.yaml', namespace('web'), 1);
    const kfs010 = () => findingsOf(workspace).filter((f) => f.startsWith('KFS010'));
    assert.deepEqual(kfs010(), []);
    assert.deepEqual(workspace.contextDocuments(['web.yaml']), ['namespaces.yaml']);
    const revision = workspace.contextRevision;
    workspace.setDocument('namespaces.yaml', namespace('db'), 2);
    assert.notEqual(workspace.contextRevision, revision);
    assert.equal(kfs010().length, 1);
    // A workload without such a term runs without the Namespace objects.
    workspace.setDocument('web.yaml', WEB, 2);
    assert.deepEqual(workspace.contextDocuments(['web.yaml']), []);
  });

  it('the other document\'s hover shows a controller-manager flag\'s new value', () => {
    const workspace = new Workspace();
    workspace.setDocument('web.yaml', WEB, 1);
    workspace.setDocument('kcm.yaml', kcm('20s'), 1);
    const hover = () => workspace.hover('web.yaml', { line: 4, character: 4 })!.markdown;
    assert.match(hover(), /`node-monitor-grace-period=20s`/);
    workspace.setDocument('kcm.yaml', kcm('40s'), 2);
    assert.match(hover(), /`node-monitor-grace-period=40s`/);
  });

  it('stays put for the same text at a new version and for an edit inside a workload\'s containers', () => {
    const workspace = new Workspace();
    workspace.setDocument('web.yaml', WEB, 1);
    const revision = workspace.contextRevision;
    workspace.setDocument('web.yaml', WEB, 2);
    workspace.setDocument('web.yaml', WEB.replace('pause:3.9', 'pause:3.10'), 3);
    assert.equal(workspace.contextRevision, revision);
  });
});
