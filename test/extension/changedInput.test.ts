/** Which edits make an open timeline out of date. */
import * as assert from 'node:assert/strict';
import { runReads } from '../../src/extension/changedInput';
import type { RunRef } from '../../webview/protocol';

describe('a timeline\'s run and the files it reads', () => {
  const folder = 'file:///work/shop';
  const run: RunRef = { document: `${folder}/web.yaml`, failure: 'power-off', targets: [] };
  const yes = () => true;
  const no = () => false;

  it('is out of date after an edit of its manifest, or of any manifest or cluster file of its folder', () => {
    assert.ok(runReads(run, `${folder}/web.yaml`, folder, yes));
    // A Service, a PersistentVolume or a KubeletConfiguration elsewhere in the folder changes the run too.
    assert.ok(runReads(run, `${folder}/cluster/kubelet-config.yaml`, folder, yes));
    assert.ok(runReads(run, `${folder}/db.yml`, folder, yes));
    assert.ok(runReads(run, `${folder}/list.json`, folder, yes));
  });

  it('is not after an edit of a file of its folder that holds no Kubernetes object (notes.json), asked only of those', () => {
    assert.ok(!runReads(run, `${folder}/notes.json`, folder, no));
    assert.ok(runReads(run, `${folder}/web.yaml`, folder, () => assert.fail('its own document is read whatever it holds')));
  });

  it('is not after an edit outside its folder, or of a file that is not YAML or JSON', () => {
    assert.ok(!runReads(run, 'file:///work/shopping/web.yaml', folder, yes), 'a folder whose name starts the same');
    assert.ok(!runReads(run, `${folder}/README.md`, folder, yes));
    assert.ok(!runReads(run, 'untitled:Untitled-1', folder, yes));
  });

  it('outside any folder reads its documents alone; a scenario run reads its scenario file too', () => {
    const alone: RunRef = { ...run, document: 'file:///tmp/a.yaml', documents: ['file:///tmp/a.yaml', 'file:///tmp/b.yaml'] };
    assert.ok(runReads(alone, 'file:///tmp/b.yaml', undefined, no));
    assert.ok(!runReads(alone, 'file:///tmp/c.yaml', undefined, yes));
    const scenario: RunRef = { ...run, scenario: 'file:///elsewhere/outage.failure-scenario.yaml' };
    assert.ok(runReads(scenario, 'file:///elsewhere/outage.failure-scenario.yaml', folder, no));
  });
});
