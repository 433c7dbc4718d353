/** The taint eviction controller alone (SEMANTICS.md 4): taints added by the test, latencies zero. */
import * as assert from 'node:assert/strict';
import { TaintEvictionController } from '../../../src/sim/taintEviction';
import { deploymentYaml, events, Harness } from './harness';

const UNREACHABLE = 'node.kubernetes.io/unreachable';
const NOT_READY = 'node.kubernetes.io/not-ready';

const tolerate = (seconds: number | null) => `      tolerations:
      - {key: ${UNREACHABLE}, operator: Exists, effect: NoExecute${seconds === null ? '' : `, tolerationSeconds: ${seconds}`}}
      - {key: ${NOT_READY}, operator: Exists, effect: NoExecute${seconds === null ? '' : `, tolerationSeconds: ${seconds}`}}
`;

function setup(podSpec: string): Harness {
  const h = new Harness({ nodes: ['a'] });
  h.runningPod(h.workload(deploymentYaml('web', 1, podSpec)), 'a');
  new TaintEvictionController(h.ctx);
  return h;
}

const taintAt = (h: Harness, t: number, key: string, value = '') => h.clock.at(t, () => h.store.addTaint(h.node('a'), { key, value, effect: 'NoExecute' }, 'test'));
const podName = (h: Harness) => h.store.workloads[0].pods[0].name;

describe('taintEviction', () => {
  const cases: { name: string; podSpec: string; taint: string; deletedAt: number | null }[] = [
    { name: 'default tolerations (300 s from DefaultTolerationSeconds)', podSpec: '', taint: UNREACHABLE, deletedAt: 310_000 },
    { name: 'tolerationSeconds 30', podSpec: tolerate(30), taint: UNREACHABLE, deletedAt: 40_000 },
    { name: 'tolerationSeconds 0: at once', podSpec: tolerate(0), taint: UNREACHABLE, deletedAt: 10_000 },
    { name: 'no tolerationSeconds: tolerated forever', podSpec: tolerate(null), taint: UNREACHABLE, deletedAt: null },
    { name: 'a taint nothing tolerates (out-of-service): at once', podSpec: '', taint: 'node.kubernetes.io/out-of-service', deletedAt: 10_000 },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.deletedAt === null ? 'never deleted' : `deleted at ${c.deletedAt} ms`} after a taint at 10 s`, () => {
      const h = setup(c.podSpec);
      taintAt(h, 10_000, c.taint);
      h.run(900_000);
      assert.deepEqual(h.times(events.deleting(podName(h))), c.deletedAt === null ? [] : [c.deletedAt]);
      if (c.deletedAt !== null) {
        const [marking] = h.events(events.reason('TaintManagerEviction'));
        assert.equal(marking.detail?.message, `Marking for deletion Pod t/${podName(h)}`);
        assert.deepEqual(h.events(events.reason('DeletionByTaintManager')).map((e) => e.t), [c.deletedAt], 'DisruptionTarget condition (1.26+)');
        assert.equal(h.events(events.deleting(podName(h)))[0].detail?.gracePeriodSeconds, 30, 'a normal delete with the pod\'s own grace period');
      }
    });
  }

  it('removing the taint before the deadline cancels the deletion ("Cancelling deletion")', () => {
    const h = setup('');
    taintAt(h, 10_000, UNREACHABLE);
    h.clock.at(100_000, () => h.store.removeTaint(h.node('a'), UNREACHABLE, 'NoExecute', 'test'));
    h.run(900_000);
    assert.deepEqual(h.events(events.deleting(podName(h))), []);
    assert.deepEqual(h.events(events.reason('TaintManagerEviction')).map((e) => [e.t, e.detail?.message]), [[100_000, `Cancelling deletion of Pod t/${podName(h)}`]]);
  });

  it('swapping unreachable for not-ready does not restart the clock', () => {
    const h = setup('');
    taintAt(h, 10_000, UNREACHABLE);
    h.clock.at(200_000, () => {
      h.store.addTaint(h.node('a'), { key: NOT_READY, value: '', effect: 'NoExecute' }, 'test');
      h.store.removeTaint(h.node('a'), UNREACHABLE, 'NoExecute', 'test');
    });
    h.run(900_000);
    assert.deepEqual(h.times(events.deleting(podName(h))), [310_000]);
  });

  it('before 1.26 there is no DisruptionTarget condition; before 1.29 the node lifecycle controller deletes', () => {
    const h = new Harness({ nodes: ['a'], version: '1.25' });
    h.runningPod(h.workload(deploymentYaml('web')), 'a');
    new TaintEvictionController(h.ctx);
    taintAt(h, 0, UNREACHABLE);
    h.run(400_000);
    assert.deepEqual(h.events(events.reason('DeletionByTaintManager')), []);
    assert.equal(h.events(events.reason('TaintManagerEviction'))[0].detail?.source, 'node-lifecycle-controller');
    assert.equal(h.events((e) => e.type === 'PodDeletionStarted')[0].detail?.by, 'node-lifecycle-controller');
  });
});
