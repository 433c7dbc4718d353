import * as assert from 'node:assert/strict';
import { Workspace } from '../../src/workspace/workspace';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
`;
const kcm = (grace: string) => `apiVersion: v1
kind: Pod
metadata: {name: kube-controller-manager, namespace: kube-system, labels: {component: kube-controller-manager}}
spec:
  containers:
    - name: kube-controller-manager
      image: registry.k8s.io/kube-controller-manager:v1.31.0
      command: [kube-controller-manager, --node-monitor-grace-period=${grace}]
`;

describe('workspace context revision (what other documents depend on)', () => {
  it('moves when a controller-manager flag changes, and the other document\'s hover shows the new figure', () => {
    const workspace = new Workspace();
    workspace.setDocument('file:///web.yaml', DEPLOYMENT, 1);
    workspace.setDocument('file:///kcm.yaml', kcm('20s'), 1);
    const hover = () => workspace.hover('file:///web.yaml', { line: 4, character: 4 })!.markdown;
    assert.match(hover(), /`node-monitor-grace-period=20s`/);
    const before = workspace.contextRevision;
    workspace.setDocument('file:///kcm.yaml', kcm('40s'), 2);
    assert.notEqual(workspace.contextRevision, before);
    assert.match(hover(), /`node-monitor-grace-period=40s`/);
  });

  it('stays put for the same text again and for an edit inside a workload\'s containers', () => {
    const workspace = new Workspace();
    workspace.setDocument('file:///web.yaml', DEPLOYMENT, 1);
    const before = workspace.contextRevision;
    workspace.setDocument('file:///web.yaml', DEPLOYMENT, 1);
    workspace.setDocument('file:///web.yaml', DEPLOYMENT.replace('nginx:1.27', 'nginx:1.28'), 2);
    assert.equal(workspace.contextRevision, before);
  });
});
