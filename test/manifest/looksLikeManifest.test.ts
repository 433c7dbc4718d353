import * as assert from 'node:assert/strict';
import { looksLikeManifest } from '../../src/manifest/looksLikeManifest';

describe('looksLikeManifest: which YAML files the editor analyses', () => {
  it('takes block, flow and JSON manifests, quoted keys included', () => {
    assert.ok(looksLikeManifest('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n'));
    assert.ok(looksLikeManifest('{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db}}\n'));
    assert.ok(looksLikeManifest('{\n  "apiVersion": "v1",\n  "kind": "Pod"\n}\n'));
    assert.ok(looksLikeManifest("- {'apiVersion': v1, 'kind': Service}\n"));
    assert.ok(looksLikeManifest('items:\n- apiVersion: v1\n  kind: Node\n'));
  });

  it('leaves other YAML alone', () => {
    assert.ok(!looksLikeManifest('name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n'));
    assert.ok(!looksLikeManifest('services:\n  web:\n    image: nginx\n'));
    assert.ok(!looksLikeManifest('apiVersion: v2\nname: chart\nversion: 1.0.0\n'));
    // A Helm Chart.yaml: "kind:" inside a value is no key.
    assert.ok(!looksLikeManifest('apiVersion: v2\nname: chart\ndescription: the kind: of thing\n'));
  });
});
