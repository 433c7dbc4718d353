/** The pod garbage collector alone (SEMANTICS.md 7.1): every 20 s from a random phase. */
import * as assert from 'node:assert/strict';
import { newPod } from '../../../src/sim/podFactory';
import { PodGarbageCollector } from '../../../src/sim/podGC';
import { deploymentYaml, events, Harness } from './harness';

function setup() {
  const h = new Harness({ nodes: ['a', 'b'] });
  const pod = h.runningPod(h.workload(deploymentYaml('web')), 'a');
  new PodGarbageCollector(h.ctx);
  return { h, pod };
}

describe('podGC', () => {
  it('out-of-service taint on a NotReady node: its terminating pod is marked Failed and force-deleted within 20 s', () => {
    const { h, pod } = setup();
    h.clock.at(1000, () => {
      h.store.setNodeReady(h.node('a'), 'Unknown', 'NodeStatusUnknown', '');
      h.store.deletePod(pod, 30, 'test');
      h.store.addTaint(h.node('a'), { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }, 'test');
    });
    h.run(60_000);
    const [removed] = h.events(events.removed(pod.name));
    assert.ok(removed.t > 1000 && removed.t <= 21_010, `removed at ${removed.t}`);
    assert.equal(removed.detail?.by, 'pod garbage collector');
    assert.ok(h.events((e) => e.type === 'PodFailed' && e.object.name === pod.name).length === 1);
  });

  it('the same taint on a Ready node: the pod stays', () => {
    const { h, pod } = setup();
    h.clock.at(1000, () => {
      h.store.deletePod(pod, 30, 'test');
      h.store.addTaint(h.node('a'), { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }, 'test');
    });
    h.run(120_000);
    assert.deepEqual(h.events(events.removed(pod.name)), []);
  });

  it('a deleted Node: its pods are force-deleted 40 to 80 s later with DeletionByPodGC', () => {
    const { h, pod } = setup();
    h.clock.at(1000, () => h.store.deleteNode(h.node('a'), 'test'));
    h.run(200_000);
    const [removed] = h.times(events.removed(pod.name));
    assert.ok(removed >= 41_000 && removed <= 81_020, `removed at ${removed}`);
    assert.deepEqual(h.events(events.reason('DeletionByPodGC')).map((e) => e.detail?.message), ['PodGC: node no longer exists']);
  });

  it('a pod bound to the deleted Node after its pods were collected waits a quarantine of its own', () => {
    const { h, pod } = setup();
    h.clock.at(1000, () => h.store.deleteNode(h.node('a'), 'test'));
    const pinned = h.workload(deploymentYaml('pinned', 1, '      nodeName: a\n'));
    let late = pod;
    h.clock.at(100_000, () => {
      late = newPod(pinned, h.store.uid(), h.clock.now, []);
      h.store.createPod(late, 'test');
    });
    h.run(300_000);
    assert.ok(h.times(events.removed(pod.name))[0] < 100_000);
    assert.equal(late.nodeName, 'a');
    const [removed] = h.times(events.removed(late.name));
    assert.ok(removed >= 140_000 && removed <= 180_040, `removed at ${removed}`);
  });

  it('the pass that collects a deleted Node\'s pods queues it again: a pod bound there within the next 40 s goes when that comes due', () => {
    const { h, pod } = setup();
    h.clock.at(1000, () => h.store.deleteNode(h.node('a'), 'test'));
    const pinned = h.workload(deploymentYaml('pinned', 1, '      nodeName: a\n'));
    const late = newPod(pinned, h.store.uid(), 0, []);
    h.store.onPod((p, change) => {
      if (p === pod && change === 'removed') h.clock.after(25_000, () => h.store.createPod(late, 'test'));
    });
    h.run(300_000);
    const [first] = h.times(events.removed(pod.name));
    // Queued again at the collecting pass (first), due 40 s later, at the second pass after it.
    const [removed] = h.times(events.removed(late.name));
    assert.ok(removed - first >= 40_000 && removed - first <= 40_100, `removed ${removed - first} ms after the first collection`);
  });
});
