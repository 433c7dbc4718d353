/**
 * The node lifecycle controller alone (SEMANTICS.md 3): passes every 5 s pinned at 1 s past
 * each multiple of 5 s, latencies zero, so every time below is exact; only the 100 ms tainting
 * loop has a random phase.
 */
import * as assert from 'node:assert/strict';
import { NodeLifecycleController } from '../../../src/sim/nodeLifecycle';
import { events, Harness } from './harness';

const PHASE = { 'sim.nodeMonitorPhase': '1s' };

function controller(nodes: string[], version = '1.29'): Harness {
  const h = new Harness({ nodes, set: PHASE, version });
  new NodeLifecycleController(h.ctx);
  return h;
}

describe('nodeLifecycle: monitor pass', () => {
  const cases: { last: number; version: string; unknown: number; why: string }[] = [
    { last: -3000, version: '1.29', unknown: 46_000, why: 'renewal first seen by the pass at 1 s; strictly after 1 s + 40 s is the pass at 46 s' },
    { last: -4500, version: '1.29', unknown: 41_000, why: 'renewal seen by the pass at -4 s; strictly after -4 s + 40 s is the pass at 41 s' },
    { last: -3000, version: '1.32', unknown: 56_000, why: 'grace 50 s from 1.32' },
  ];
  for (const c of cases) {
    it(`last renewal at ${c.last} ms, Kubernetes ${c.version}: Ready=Unknown at ${c.unknown} ms (${c.why})`, () => {
      const h = controller(['a', 'b'], c.version);
      h.runningPod(h.workload(`apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: t}\nspec: {containers: [{name: c, image: app}]}\n`), 'a');
      h.stopHeartbeats('a', c.last);
      h.run(120_000);
      assert.deepEqual(h.times(events.ready('a', 'Unknown')), [c.unknown]);
      assert.equal(h.events(events.ready('a', 'Unknown'))[0].detail?.message, 'Kubelet stopped posting node status.');
      assert.deepEqual(h.times(events.taint('a', 'NoSchedule', 'node.kubernetes.io/unreachable')), [c.unknown], 'NoSchedule follows the condition at once');
      assert.deepEqual(h.times(events.podNotReady('p')), [c.unknown], 'MarkPodsNotReady in the same pass');
      assert.deepEqual(h.times(events.reason('NodeNotReady')).filter((t) => t >= 0).slice(0, 1), [c.unknown]);
      const [noExecute] = h.times(events.taint('a', 'NoExecute', 'node.kubernetes.io/unreachable'));
      assert.ok(noExecute >= c.unknown + 5000 && noExecute < c.unknown + 5100, `NoExecute one pass later, on the 100 ms loop: ${noExecute}`);
      assert.deepEqual(h.times(events.ready('b', 'Unknown')), [], 'a node that keeps renewing stays Ready');
    });
  }

  it('a node that comes back: NoSchedule removed with Ready=True, NoExecute at the next pass, nothing queued any more', () => {
    const h = controller(['a', 'b']);
    h.stopHeartbeats('a', -3000);
    h.run(60_000);
    h.clock.at(62_000, () => {
      h.store.setLease(h.node('a'), true, 62_000, 62_000);
      h.store.setNodeReady(h.node('a'), 'True', 'KubeletReady', 'kubelet is posting ready status');
    });
    h.run(120_000);
    assert.deepEqual(h.times(events.taintRemoved('a', 'NoSchedule')), [62_000]);
    assert.deepEqual(h.times(events.taintRemoved('a', 'NoExecute')), [66_000]);
    assert.deepEqual(h.node('a').taints, []);
  });
});

describe('nodeLifecycle: tainting queue and zone states', () => {
  it('Normal zone: three nodes failing together are tainted in node order, 10 s apart (0.1 nodes/s, burst 1)', () => {
    const nodes = 'abcdefghij'.split('').map((n) => `z/${n}`);
    const h = controller(nodes);
    for (const n of ['a', 'b', 'c']) h.stopHeartbeats(n, -3000);
    h.run(150_000);
    const taints = h.events(events.taint(undefined, 'NoExecute'));
    assert.deepEqual(taints.map((e) => e.object.name), ['a', 'b', 'c']);
    const gaps = taints.slice(1).map((e, i) => e.t - taints[i].t);
    for (const gap of gaps) assert.ok(gap >= 10_000 && gap < 10_100, `gap ${gap}`);
    assert.deepEqual(h.events(events.note('PartialDisruption')), []);
  });

  it('PartialDisruption in a small zone (3 of 5 not Ready, at most 50 nodes): tainting stops, nothing is tainted', () => {
    const h = controller(['z/a', 'z/b', 'z/c', 'z/d', 'z/e']);
    for (const n of ['a', 'b', 'c']) h.stopHeartbeats(n, -3000);
    h.run(300_000);
    assert.deepEqual(h.times(events.note('PartialDisruption')), [46_000]);
    assert.equal(h.events(events.note('PartialDisruption'))[0].detail?.qps, 0);
    assert.deepEqual(h.events(events.taint(undefined, 'NoExecute')), []);
    assert.equal(h.events(events.taint(undefined, 'NoSchedule')).length, 3, 'NoSchedule taints are not rate limited');
  });

  it('FullDisruption of one zone while another is healthy: tainting at the normal rate', () => {
    const h = controller(['x/a1', 'x/a2', 'y/b1', 'y/b2']);
    for (const n of ['a1', 'a2']) h.stopHeartbeats(n, -3000);
    h.run(120_000);
    assert.deepEqual(h.times(events.note('FullDisruption')), [46_000]);
    assert.deepEqual(h.events(events.taint(undefined, 'NoExecute')).map((e) => e.object.name), ['a1', 'a2']);
  });

  it('every zone fully down (master disruption mode): no NoExecute taint is added or stays', () => {
    const h = controller(['x/a1', 'y/b1']);
    for (const n of ['a1', 'b1']) h.stopHeartbeats(n, -3000);
    h.run(600_000);
    assert.deepEqual(h.times(events.note('MasterDisruptionMode')), [46_000]);
    for (const name of ['a1', 'b1']) assert.ok(!h.node(name).taints.some((t) => t.effect === 'NoExecute'), `${name}: ${JSON.stringify(h.node(name).taints)}`);
  });
});
