/**
 * The timeline's data preparation from a recorded trace, so that these expectations move only
 * when src/report/timeline changes, not when the simulator does. The fixture was produced once by
 *
 *   node dist/cli.js simulate examples/web-deployment.yaml examples/postgres-statefulset.yaml \
 *     --target node/worker-a1 --duration 8m --recover-after 7m --format json \
 *     > test/fixtures/traces/web-postgres-power-off.json
 *
 * worker-a1 (web's first pod) powers off at 0 and is back at 7m; postgres-0 runs on worker-a2.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TraceReport } from '../../src/report/contract';
import { clusterAt } from '../../src/report/timeline/clusterAt';
import { buildTimeline, type Span, type Timeline } from '../../src/report/timeline/model';
import { isPackedTrace } from '../../webview/protocol';
import { REPO_ROOT } from '../support/shared';
import { packReport } from '../../src/report/packedTrace';

const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/traces/web-postgres-power-off.json');
const span = (s: Span) => `${s.fromMs}-${s.toMs ?? 'end'}`;

describe('timeline data preparation from a recorded trace (power-off of worker-a1, back after 7m)', () => {
  const report: unknown = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
  let timeline: Timeline;
  before(() => {
    const packed = packReport(report as TraceReport);
    assert.ok(isPackedTrace(JSON.parse(JSON.stringify(packed))), 'the fixture, packed, passes the webview\'s receiver check');
    timeline = buildTimeline(packed);
  });

  it('spans the run and names the failed node', () => {
    assert.deepEqual([timeline.startMs, timeline.endMs, timeline.failedNodes], [0, 480_000, ['worker-a1']]);
  });

  it('has a node lane per node, the failed one first, with its Ready condition bands and taint markers', () => {
    assert.deepEqual(timeline.nodes.map((n) => `${n.name} ${n.zone} ${n.failed ? 'failed' : 'ok'}`), [
      'worker-a1 zone-a failed', 'worker-a2 zone-a ok', 'worker-b1 zone-b ok', 'worker-b2 zone-b ok', 'worker-c1 zone-c ok', 'worker-c2 zone-c ok',
    ]);
    const [a1, a2] = timeline.nodes;
    assert.deepEqual(a1.bands.map((b) => `${span(b)} ${b.status} ${b.condition} ${b.taints.length}`), [
      '0-47143 Ready True 0', '47143-47155 NotReady Unknown 0', '47155-52192 NotReady Unknown 1', '52192-420104 NotReady Unknown 2',
      '420104-420114 Ready True 2', '420114-423659 Ready True 1', '423659-end Ready True 0',
    ]);
    assert.deepEqual(a1.taints.map((t) => `${t.t} ${t.added ? '+' : '-'}${t.taint}`), [
      '47155 +node.kubernetes.io/unreachable:NoSchedule', '52192 +node.kubernetes.io/unreachable:NoExecute',
      '420114 -node.kubernetes.io/unreachable:NoSchedule', '423659 -node.kubernetes.io/unreachable:NoExecute',
    ]);
    assert.deepEqual(a1.events.map((e) => `${e.t} ${e.reason}`), [
      '0 power-off', '0 LastHeartbeat', '47143 NodeStatusUnknown', '47146 NodeNotReady', '47155 TaintAdded', '52192 TaintAdded',
      '420000 NodeReturned', '420104 KubeletReady', '420114 TaintRemoved', '423659 TaintRemoved',
    ]);
    assert.deepEqual([a2.bands.map(span), a2.taints, a2.events], [['0-end'], [], []]);
  });

  it('groups pods under their workloads, the affected one first, with bars by kubectl STATUS and the replacement linked', () => {
    assert.deepEqual(timeline.workloads.map((w) => `${w.id} ${w.affected ? 'affected' : 'unaffected'} ${w.summary?.outcome}`), [
      'Deployment/shop/web affected replaced', 'StatefulSet/shop/postgres unaffected unaffected',
    ]);
    const [web, postgres] = timeline.workloads;
    assert.deepEqual(web.pods.map((p) => `${p.id} ${p.createdMs}-${p.removedMs ?? 'end'}${p.onFailedNode ? ' on-failed-node' : ''}${p.replaces ? ` replaces ${p.replaces}` : ''}`), [
      'Pod/shop/web-9jwrnbzhwc-45fjh#0 0-end',
      'Pod/shop/web-9jwrnbzhwc-7f9rx#0 0-end',
      'Pod/shop/web-9jwrnbzhwc-hzmd6#0 0-420116 on-failed-node',
      'Pod/shop/web-9jwrnbzhwc-rk2wb#0 352216-end replaces Pod/shop/web-9jwrnbzhwc-hzmd6#0',
    ]);
    const [, , evicted, replacement] = web.pods;
    assert.deepEqual(evicted.bars.map((b) => `${span(b)} ${b.status} ${b.ready} ${b.category} ${b.node}`), [
      '0-352203 Running 1/1 ready worker-a1', '352203-420110 Terminating 1/1 terminating worker-a1', '420110-420116 Terminating 0/1 terminating worker-a1',
    ]);
    assert.deepEqual(evicted.nodeDown.map(span), ['0-420104']);
    assert.deepEqual(replacement.bars.map((b) => `${span(b)} ${b.status} ${b.ready} ${b.category} ${b.node}`), [
      '352216-352226 Pending 0/1 pending <none>', '352226-352237 Pending 0/1 pending worker-a2', '352237-357237 ContainerCreating 0/1 creating worker-a2',
      '357237-358703 Running 0/1 unready worker-a2', '358703-end Running 1/1 ready worker-a2',
    ]);
    assert.deepEqual(web.readySteps.map((s) => `${span(s)} ${s.ready}/${s.total}`), ['0-47152 3/3', '47152-358703 2/3', '358703-end 3/3']);
    assert.deepEqual(web.endpoints.map((e) => [e.ref.name, e.steps.map((s) => `${span(s)} ${s.ready}/${s.total}`)]), [
      ['web', ['0-47159 3/3', '47159-357246 2/3', '357246-358713 2/4', '358713-420120 3/4', '420120-end 3/3']],
    ]);
    assert.deepEqual(postgres.pods.map((p) => p.bars.map((b) => `${span(b)} ${b.status} ${b.node}`)), [['0-end Running worker-a2']]);
    assert.deepEqual([timeline.otherPods, timeline.otherEndpoints], [[], []]);
  });

  it('marks the key moments of the failure', () => {
    assert.deepEqual(timeline.keyMoments.map((m) => `${m.t} ${m.kind} ${m.label}`), [
      '0 failure power-off worker-a1', '47143 not-ready NotReady', '52192 taint NoExecute taint', '352203 deletion Deletion',
      '358703 replacement-ready Replacement Ready', '420000 recovery worker-a1 back',
    ]);
  });

  it('gives the kubectl get pods,nodes table as of t: a state that begins at t counts, one that ends at t does not', () => {
    const table = (t: number) => {
      const at = clusterAt(timeline, t);
      return [...at.pods.map((p) => `${p.name} ${p.ready} ${p.status} ${p.node}`), ...at.nodes.filter((n) => n.name === 'worker-a1').map((n) => `${n.name} ${n.status} ${n.taints}`)];
    };
    const steady = ['postgres-0 1/1 Running worker-a2', 'web-9jwrnbzhwc-45fjh 1/1 Running worker-c1', 'web-9jwrnbzhwc-7f9rx 1/1 Running worker-b1'];
    assert.deepEqual(table(0), [...steady, 'web-9jwrnbzhwc-hzmd6 1/1 Running worker-a1', 'worker-a1 Ready <none>']);
    assert.deepEqual(table(60_000), [...steady, 'web-9jwrnbzhwc-hzmd6 1/1 Running worker-a1',
      'worker-a1 NotReady node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute']);
    assert.deepEqual(table(352_203).slice(3, 4), ['web-9jwrnbzhwc-hzmd6 1/1 Terminating worker-a1']);
    assert.deepEqual(table(352_215).length, 5, 'the replacement is not created yet');
    assert.deepEqual(table(356_000).slice(3, 5), ['web-9jwrnbzhwc-hzmd6 1/1 Terminating worker-a1', 'web-9jwrnbzhwc-rk2wb 0/1 ContainerCreating worker-a2']);
    assert.deepEqual(table(420_112).slice(3), [
      'web-9jwrnbzhwc-hzmd6 0/1 Terminating worker-a1', 'web-9jwrnbzhwc-rk2wb 1/1 Running worker-a2',
      'worker-a1 Ready node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute',
    ]);
    assert.deepEqual(table(420_116), [...steady, 'web-9jwrnbzhwc-rk2wb 1/1 Running worker-a2', 'worker-a1 Ready node.kubernetes.io/unreachable:NoExecute']);
    assert.equal(clusterAt(timeline, 60_000).nodes.length, 6);
  });
});
