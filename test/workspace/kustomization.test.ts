import * as assert from 'node:assert/strict';
import { resolve } from '../../src/workspace/kustomization';
import { Workspace } from '../../src/workspace/workspace';

/** A strategic-merge patch: a Deployment without selector or image, which is an error as an object of its own. */
const PATCH = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - {name: web, resources: {limits: {memory: 256Mi}}}
`;
const BASE = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;
const overlay = (field: string) => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../base]
${field}
`;

const rules = (workspace: Workspace, uri: string) => workspace.analyse(uri).findings.map((f) => f.ruleId);

describe('kustomize patch files', () => {
  it('a file a kustomization lists as a patch is one KFS091 naming it, not an object the API server rejects', () => {
    for (const field of ['patches:\n- path: replicas.yaml', 'patchesStrategicMerge: [./replicas.yaml]', 'patchesJson6902:\n- {target: {kind: Deployment, name: web}, path: replicas.yaml}']) {
      const workspace = new Workspace();
      workspace.setDocument('kus/base/deploy.yaml', BASE);
      workspace.setDocument('kus/overlays/prod/replicas.yaml', PATCH);
      workspace.setDocument('kus/overlays/prod/kustomization.yaml', overlay(field));
      const [finding, ...others] = workspace.analyse('kus/overlays/prod/replicas.yaml').findings;
      assert.deepEqual(others, [], field);
      assert.equal(finding.ruleId, 'KFS091');
      assert.equal(finding.severity, 'info');
      assert.deepEqual(finding.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 19 } });
      assert.match(finding.message, new RegExp(`^This file is a kustomize patch: kus/overlays/prod/kustomization.yaml lists it in ${field.split(':')[0]},.* kubectl kustomize kus/overlays/prod > rendered.yaml\\.$`));
      // Only the base's Deployment is simulated.
      assert.deepEqual(workspace.model().workloads.map((w) => workspace.locate(w.source)?.uri), ['kus/base/deploy.yaml']);
    }
  });

  it('follows the kustomization: listed after the patch was read, edited, removed', () => {
    const workspace = new Workspace();
    workspace.setDocument('o/replicas.yaml', PATCH);
    assert.ok(rules(workspace, 'o/replicas.yaml').includes('KFS094'));
    // A kustomization without kind, found by its file name.
    workspace.setDocument('o/kustomization.yaml', 'patches:\n- path: replicas.yaml\n');
    assert.deepEqual(rules(workspace, 'o/replicas.yaml'), ['KFS091']);
    assert.equal(workspace.model().workloads.length, 0);
    workspace.setDocument('o/kustomization.yaml', 'patches:\n- path: other.yaml\n');
    assert.ok(rules(workspace, 'o/replicas.yaml').includes('KFS094'));
    workspace.setDocument('o/kustomization.yaml', 'patches:\n- path: replicas.yaml\n');
    assert.deepEqual(rules(workspace, 'o/replicas.yaml'), ['KFS091']);
    workspace.removeDocument('o/kustomization.yaml');
    assert.ok(rules(workspace, 'o/replicas.yaml').includes('KFS094'));
  });

  it('an inline patch, a resource and a file of another name list nothing', () => {
    const workspace = new Workspace();
    workspace.setDocument('o/replicas.yaml', PATCH);
    workspace.setDocument('o/kustomization.yaml', `resources: [replicas.yaml]\npatchesStrategicMerge:\n- |\n  apiVersion: apps/v1\n  kind: Deployment\n`);
    workspace.setDocument('o/notes.yaml', 'patches:\n- path: replicas.yaml\n');
    assert.ok(rules(workspace, 'o/replicas.yaml').includes('KFS094'));
  });

  it('resolves paths against the kustomization, for file paths and URIs', () => {
    assert.equal(resolve('kus/overlays/prod/kustomization.yaml', 'replicas.yaml'), 'kus/overlays/prod/replicas.yaml');
    assert.equal(resolve('/repo/overlays/prod/kustomization.yaml', '../../patches/./a.yaml'), '/repo/patches/a.yaml');
    assert.equal(resolve('file:///repo/o/kustomization.yaml', '../p.yaml'), 'file:///repo/p.yaml');
    assert.equal(resolve('file:///my%20repo/o/kustomization.yaml', 'patches/more replicas.yaml'), 'file:///my%20repo/o/patches/more%20replicas.yaml');
    assert.equal(resolve('my repo/kustomization.yaml', 'more replicas.yaml'), 'my repo/more replicas.yaml');
    assert.equal(resolve('file:///kustomization.yaml', '../../p.yaml'), 'file:///p.yaml');
    assert.equal(resolve('kustomization.yaml', '../p.yaml'), '../p.yaml');
    assert.equal(resolve('a/kustomization.yaml', '../../p.yaml'), '../p.yaml');
  });
});
