/** The StatefulSet controller alone (SEMANTICS.md 6.2): pods put on nodes by the test, deletions made by the test. */
import * as assert from 'node:assert/strict';
import { StatefulSetController } from '../../../src/sim/statefulSet';
import { VolumeBinder } from '../../../src/sim/volumeBinding';
import { events, Harness, statefulSetYaml } from './harness';

function setup(replicas: number, policy: string, running: number[]) {
  const h = new Harness({ nodes: ['a', 'b'] });
  const sts = h.workload(statefulSetYaml('db', replicas, policy));
  const pods = running.map((ordinal) => h.runningPod(sts, ordinal % 2 ? 'b' : 'a', { ordinal }));
  new StatefulSetController(h.ctx, new VolumeBinder(h.store, [], [], []));
  return { h, sts, pods };
}

describe('statefulSet', () => {
  it('does not create db-0 while the old db-0 object exists, Terminating; creates it once the object is gone', () => {
    const { h, pods } = setup(1, 'OrderedReady', [0]);
    h.clock.at(1000, () => h.store.deletePod(pods[0], 30, 'test'));
    h.clock.at(600_000, () => h.store.removePod(pods[0], 'test'));
    h.run(700_000);
    assert.deepEqual(h.times(events.created('db-0')), [600_000]);
  });

  it('a Failed pod is deleted by the controller, then recreated under the same name', () => {
    const { h, pods } = setup(1, 'OrderedReady', [0]);
    h.clock.at(1000, () => h.store.patchPodStatus(pods[0], { phase: 'Failed', reason: 'Terminated' }));
    h.run(10_000);
    assert.deepEqual(h.events(events.removed('db-0')).map((e) => [e.t, e.detail?.by]), [[1000, 'statefulset-controller']]);
    assert.deepEqual(h.times(events.created('db-0')), [1000]);
  });

  const cases: { policy: string; created: string[] }[] = [
    { policy: 'OrderedReady', created: ['db-0'] },
    { policy: 'Parallel', created: ['db-0', 'db-2'] },
  ];
  for (const c of cases) {
    it(`${c.policy}: with db-1 Running and db-0, db-2 missing, creates ${c.created.join(' and ')}`, () => {
      const { h, sts } = setup(3, c.policy, [1]);
      // A status change of db-1 makes the controller sync.
      h.clock.at(1000, () => h.store.patchPodStatus(sts.pods[0], { restartCount: 1 }));
      h.run(10_000);
      assert.deepEqual(h.events(events.created()).map((e) => e.object.name), c.created);
    });
  }

  it('OrderedReady: a pod that is not Ready blocks the creation of higher ordinals', () => {
    const { h, pods } = setup(2, 'OrderedReady', [0]);
    h.clock.at(1000, () => h.store.markPodNotReady(pods[0], 'NodeNotReady'));
    h.run(10_000);
    assert.deepEqual(h.events(events.created()), []);
  });
});
