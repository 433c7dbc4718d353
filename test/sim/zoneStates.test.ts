/**
 * Zone states as SEMANTICS.md 3.6 and 18 record them, reached with failures at their own times
 * (`--target node/X@D`, per-target `--recover-after`): Normal, PartialDisruption in a small zone,
 * FullDisruption, and all zones down with its exit.
 */
import * as assert from 'node:assert/strict';
import { daemonSet, deployment, reasonOf, run, zonedCluster } from './support';

const MINUTE = 60_000;
const TOKEN_MS = 10_000; // --node-eviction-rate 0.1/s
const SLACK = 5000 + 20 + 100 + 100 + 50; // one monitor pass, its duration, the taint loop, watch and write

const noExecuteTaints = (result: ReturnType<typeof run>) => result.events.filter((e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute');

describe('zone states with staggered failures (SEMANTICS.md 3.6, 18)', () => {
  it('a small zone turning PartialDisruption: the nodes tainted while it was Normal keep their taints, the rest are never tainted', () => {
    const cluster = zonedCluster({ a: ['a1', 'a2', 'a3', 'a4', 'a5'], b: ['b1', 'b2'] });
    const result = run([daemonSet, deployment('web', 1, '      nodeSelector: {kubernetes.io/hostname: a3}\n')], {
      cluster, targets: ['node/a1', 'node/a2', 'node/a3'], failAtMs: { 'node/a1': 0, 'node/a2': MINUTE, 'node/a3': 2 * MINUTE }, durationMs: 12 * MINUTE,
    });
    assert.deepEqual(noExecuteTaints(result).map((e) => e.object.name), ['a1', 'a2']);
    const partial = result.events.find((e) => e.type === 'Note' && e.reason === 'PartialDisruption')!;
    assert.deepEqual([partial.detail?.zone, partial.detail?.qps], ['a', 0]);
    // 3 of 5 not Ready (> 2 and ≥ 55 %) once a3 is Unknown, about G after its failure.
    assert.ok(partial.t > 2 * MINUTE + 29_000 && partial.t < 2 * MINUTE + 46_000, `PartialDisruption at ${partial.t}`);
    const web = result.summary.workloads.find((w) => w.object.name === 'web')!;
    assert.equal(web.outcome, 'stuck');
    assert.match(reasonOf(web), /Zone a is in PartialDisruption .* never evicted while that lasts/);
    assert.equal(result.events.filter((e) => e.type === 'PodDeletionStarted' && e.detail?.node === 'a3').length, 0);
  });

  it('the zone state is the reason also when another pod of the workload, on a node tainted before it, was replaced', () => {
    const cluster = zonedCluster({ a: ['a1', 'a2', 'a3', 'a4'], b: ['b1', 'b2'], c: ['c1', 'c2'] });
    const result = run([deployment('web', 8)], {
      cluster, targets: ['node/a1', 'node/a2', 'node/a3'], failAtMs: { 'node/a1': 0, 'node/a2': 10_000, 'node/a3': 20_000 }, durationMs: 15 * MINUTE,
    });
    const web = result.summary.workloads[0];
    assert.ok(result.events.some((e) => e.type === 'PodDeletionStarted' && e.detail?.node === 'a1'), 'a1 was tainted while the zone was Normal');
    assert.equal(web.outcome, 'stuck');
    assert.match(reasonOf(web), /Zone a is in PartialDisruption .* never evicted while that lasts/);
  });

  it('--node-eviction-rate=0: a Normal zone taints nothing NoExecute, and the summary says the pod is never evicted (not "simulate longer")', () => {
    const result = run([deployment('web', 1)], { set: { 'kcm.node-eviction-rate': 0 }, durationMs: 20 * MINUTE });
    assert.equal(noExecuteTaints(result).length, 0);
    const web = result.summary.workloads[0];
    assert.equal(web.outcome, 'stuck');
    assert.deepEqual([web.cause.kind, web.cause.kind === 'evictions-stopped' && web.cause.state], ['evictions-stopped', 'Normal']);
    assert.match(reasonOf(web), /^kube-controller-manager's --node-eviction-rate is 0, so the node lifecycle controller never taints a node of zone \S+ \(Normal\) NoExecute: web-\S+ on \S+ is never evicted/);
    // At the default rate the zone's start is no event: a trace without the knob is as before.
    assert.ok(!run([deployment('web', 1)], { durationMs: MINUTE }).events.some((e) => e.object.kind === 'Zone'));
  });

  it('the same three failures in a zone of 10 stay Normal: every node tainted, the queue 10 s apart at most', () => {
    const cluster = zonedCluster({ a: Array.from({ length: 10 }, (_, i) => `a${i + 1}`) });
    const result = run([daemonSet], { cluster, targets: ['node/a1', 'node/a2', 'node/a3'], failAtMs: { 'node/a2': 3000, 'node/a3': 6000 }, durationMs: 3 * MINUTE });
    assert.ok(!result.events.some((e) => e.type === 'Note' && e.reason === 'PartialDisruption'));
    assert.equal(noExecuteTaints(result).length, 3);
  });

  it('all zones down, then one node back: master disruption mode ends; the dead node is tainted about 10 s after the exit and evicted 300 s later', () => {
    const cluster = zonedCluster({ a: ['a1'], b: ['b1'] });
    const result = run([deployment('web', 1, '      nodeSelector: {kubernetes.io/hostname: a1}\n')], {
      cluster, targets: ['node/a1', 'node/b1'], recoverAfterMsByTarget: { 'node/b1': 3 * MINUTE }, durationMs: 12 * MINUTE,
    });
    const enter = result.events.find((e) => e.reason === 'MasterDisruptionMode')!;
    const exit = result.events.find((e) => e.reason === 'MasterDisruptionModeExit')!;
    assert.ok(enter.t < exit.t && exit.t > 3 * MINUTE && exit.t < 3 * MINUTE + 2 * SLACK, `exit at ${exit.t}`);
    const taints = noExecuteTaints(result).filter((e) => e.object.name === 'a1');
    const afterExit = taints.filter((e) => e.t > exit.t);
    assert.equal(afterExit.length, 1);
    // The new limiter starts with its token spent (SEMANTICS.md 18).
    assert.ok(afterExit[0].t - exit.t >= TOKEN_MS - 200 && afterExit[0].t - exit.t <= TOKEN_MS + SLACK, `tainted ${afterExit[0].t - exit.t} ms after the exit`);
    const web = result.summary.workloads.find((w) => w.object.name === 'web')!;
    assert.ok(web.podDeletionMs! - afterExit[0].t >= 300_000 && web.podDeletionMs! - afterExit[0].t <= 301_000, `deleted ${web.podDeletionMs! - afterExit[0].t} ms after the taint`);
  });

  it('all zones down, then one zone back: every node still dead is tainted after the exit, its zone\'s queue 10 s apart', () => {
    const cluster = zonedCluster({ a: ['a1', 'a2'], b: ['b1', 'b2'], c: ['c1', 'c2'] });
    const result = run([daemonSet, deployment('web', 6)], {
      cluster, targets: ['zone/a', 'zone/b', 'zone/c'], recoverAfterMsByTarget: { 'zone/c': 3 * MINUTE }, durationMs: 12 * MINUTE,
    });
    const exit = result.events.find((e) => e.reason === 'MasterDisruptionModeExit')!;
    const afterExit = noExecuteTaints(result).filter((e) => e.t > exit.t);
    assert.deepEqual(afterExit.map((e) => e.object.name).sort(), ['a1', 'a2', 'b1', 'b2']);
    for (const zone of ['a', 'b']) {
      const [first, second] = afterExit.filter((e) => e.object.name.startsWith(zone)).map((e) => e.t - exit.t);
      assert.ok(first >= TOKEN_MS - 200 && first <= TOKEN_MS + SLACK && second - first >= TOKEN_MS - 200 && second - first <= TOKEN_MS + 200, `zone ${zone} tainted ${first}, ${second} ms after the exit`);
    }
    const evicted = new Set(result.events.filter((e) => e.type === 'PodDeletionStarted' && e.detail?.by === 'taint-eviction-controller').map((e) => e.detail?.node));
    assert.deepEqual([...evicted].sort(), ['a1', 'a2', 'b1', 'b2']);
  });
});
