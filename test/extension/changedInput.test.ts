/** Which edits make an open timeline out of date. */
import * as assert from 'node:assert/strict';
import { runReads } from '../../src/extension/changedInput';
import type { RunRef } from '../../webview/protocol';

describe('a timeline\'s run and the files it reads', () => {
  const folder = 'file:///work/shop';
  const run: RunRef = { document: `${folder}/web.yaml`, failure: 'power-off', targets: [] };

  it('is out of date after an edit of its manifest, or of any manifest or cluster file of its folder', () => {
    assert.ok(runReads(run, `${folder}/web.yaml`, folder));
    // A Service, a PersistentVolume or a KubeletConfiguration elsewhere in the folder changes the run too.
    assert.ok(runReads(run, `${folder}/cluster/kubelet-config.yaml`, folder));
    assert.ok(runReads(run, `${folder}/db.yml`, folder));
    assert.ok(runReads(run, `${folder}/list.json`, folder));
  });

  it('is not after an edit outside its folder, or of a file that is not YAML or JSON', () => {
    assert.ok(!runReads(run, 'file:///work/shopping/web.yaml', folder), 'a folder whose name starts the same');
    assert.ok(!runReads(run, `${folder}/README.md`, folder));
    assert.ok(!runReads(run, 'untitled:Untitled-1', folder));
  });

  it('outside any folder reads its documents alone; a scenario run reads its scenario file too', () => {
    const alone: RunRef = { ...run, document: 'file:///tmp/a.yaml', documents: ['file:///tmp/a.yaml', 'file:///tmp/b.yaml'] };
    assert.ok(runReads(alone, 'file:///tmp/b.yaml', undefined));
    assert.ok(!runReads(alone, 'file:///tmp/c.yaml', undefined));
    const scenario: RunRef = { ...run, scenario: 'file:///elsewhere/outage.failure-scenario.yaml' };
    assert.ok(runReads(scenario, 'file:///elsewhere/outage.failure-scenario.yaml', folder));
  });
});
