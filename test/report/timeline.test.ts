import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { clusterAt, spanAt } from '../../src/report/timeline/clusterAt';
import { buildTimeline, type PodLane, type Timeline } from '../../src/report/timeline/model';
import { PodOwners } from '../../src/report/timeline/podOwners';
import { podStatusCategory } from '../../src/report/timeline/statusCategory';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exampleTrace } from './timelineSupport';
import { packReport } from '../../src/report/packedTrace';

const bars = (pod: PodLane) => pod.bars.map((b) => `${b.fromMs}-${b.toMs ?? 'end'} ${b.status} ${b.category}`);
const workload = (timeline: Timeline, id: string) => {
  const found = timeline.workloads.find((w) => w.id === id);
  assert.ok(found, `no workload ${id}`);
  return found;
};

describe('timeline of the examples (power-off of the node of kafka-0, 10 minutes)', () => {
  const timeline = buildTimeline(packReport(exampleTrace('examples', '--duration', '10m')));

  it('has a lane per node, the failed node first, with its Ready condition and taints', () => {
    assert.deepEqual(timeline.nodes.map((n) => n.name), ['worker-a1', 'worker-a2', 'worker-b1', 'worker-b2', 'worker-c1', 'worker-c2']);
    const [failed] = timeline.nodes;
    assert.equal(failed.failed, true);
    assert.equal(failed.zone, 'zone-a');
    assert.deepEqual(failed.bands.map((b) => `${b.fromMs}-${b.toMs ?? 'end'} ${b.condition}`), ['0-23008 True', '23008-23020 Unknown', '23020-25092 Unknown', '25092-end Unknown']);
    assert.deepEqual(failed.taints, [
      { t: 23020, taint: 'node.kubernetes.io/unreachable:NoSchedule', added: true },
      { t: 25092, taint: 'node.kubernetes.io/unreachable:NoExecute', added: true },
    ]);
  });

  it('groups the pods under their workloads, by the names the controllers give them', () => {
    assert.deepEqual(timeline.workloads.map((w) => `${w.id} ${w.pods.length} ${w.affected ? 'affected' : 'unaffected'}`), [
      'StatefulSet/streaming/kafka 3 affected',
      'DaemonSet/monitoring/node-exporter 6 affected',
      'Deployment/tools/license-server 1 unaffected',
      'StatefulSet/shop/postgres 1 unaffected',
      'Deployment/shop/web 3 unaffected',
    ]);
    assert.deepEqual(timeline.otherPods, []);
  });

  it('colours each pod bar by its kubectl STATUS and marks the time its node was down', () => {
    const kafka0 = workload(timeline, 'StatefulSet/streaming/kafka').pods[0];
    assert.equal(kafka0.ref.name, 'kafka-0');
    assert.deepEqual(bars(kafka0), ['0-325103 Running ready', '325103-end Terminating terminating']);
    // Down from the power-off itself, though the API says Ready until 23 s.
    assert.deepEqual(kafka0.nodeDown, [{ fromMs: 0, toMs: null }]);
    assert.deepEqual(kafka0.events.map((e) => `${e.t} ${e.reason}`), ['23017 NodeNotReady', '325096 TaintManagerEviction', '325099 DeletionByTaintManager', '325103 Terminating']);
  });

  it('keeps a pod\'s node down after the Node object is deleted: the machine did not come back', () => {
    const deleted = buildTimeline(packReport(exampleTrace('examples', '--duration', '8m', '--delete-node-after', '3m')));
    const [failed] = deleted.nodes;
    assert.equal(failed.bands.at(-1)!.toMs, 180_000);
    const kafka0 = workload(deleted, 'StatefulSet/streaming/kafka').pods[0];
    const removed = kafka0.bars.at(-1)!.toMs!;
    assert.ok(removed > 180_000, `kafka-0 removed at ${removed}`);
    assert.deepEqual(kafka0.nodeDown, [{ fromMs: 0, toMs: removed }]);
  });

  it('marks a pod down from the failure when its node stops answering at once, from NotReady when only the kubelet stopped', () => {
    const podOnFailedNode = (failure: string) => {
      const trace = buildTimeline(packReport(exampleTrace('examples/web-deployment.yaml', '--failure', failure, '--duration', '3m')));
      const node = trace.nodes.find((n) => n.failed)!;
      return { node, pod: workload(trace, 'Deployment/shop/web').pods.find((p) => p.bars[0].node === node.name)! };
    };
    // A dead disk: the node stays Ready and the app does not answer.
    const disk = podOnFailedNode('disk-failure');
    assert.ok(disk.node.bands.every((b) => b.condition === 'True'));
    assert.deepEqual(disk.pod.nodeDown, [{ fromMs: 0, toMs: null }]);
    // A stopped kubelet: the containers keep serving until the node is marked NotReady.
    const stopped = podOnFailedNode('kubelet-stop');
    const notReady = stopped.node.bands.find((b) => b.condition !== 'True')!.fromMs;
    assert.ok(notReady > 30_000);
    assert.deepEqual(stopped.pod.nodeDown, [{ fromMs: notReady, toMs: null }]);
  });

  it('steps the READY count of each workload', () => {
    assert.deepEqual(workload(timeline, 'StatefulSet/streaming/kafka').readySteps, [
      { fromMs: 0, toMs: 23017, ready: 3, total: 3 },
      { fromMs: 23017, toMs: null, ready: 2, total: 3 },
    ]);
  });

  it('labels the key moments of the failure', () => {
    assert.deepEqual(timeline.keyMoments.map((m) => `${m.t} ${m.label}`), ['0 power-off worker-a1', '23008 NotReady', '25092 NoExecute taint', '325103 Deletion']);
    // Nodes that fail or return together are one moment, so that NotReady and the taint keep their room on the axis.
    const zone = buildTimeline(packReport(exampleTrace('examples/web-deployment.yaml', '--failure', 'zone-outage', '--target', 'zone/zone-a', '--recover-after', '8m', '--duration', '10m')));
    assert.deepEqual(zone.keyMoments.filter((m) => m.kind === 'failure' || m.kind === 'recovery').map((m) => `${m.t} ${m.label}`), ['0 zone-outage of 2 nodes', '480000 2 nodes back']);
  });

  it('shows kubectl get pods,nodes as of 400 s: kafka-0 Terminating on the NotReady node', () => {
    const at = clusterAt(timeline, 400_000);
    assert.equal(at.pods.length, 14);
    assert.deepEqual(at.pods.find((p) => p.name === 'kafka-0'), {
      namespace: 'streaming', name: 'kafka-0', ready: '1/1', status: 'Terminating', restarts: 0, node: 'worker-a1', ip: '10.244.0.2', laneId: 'Pod/streaming/kafka-0#0',
    });
    assert.deepEqual(at.pods.filter((p) => p.status !== 'Running').map((p) => p.name), ['kafka-0']);
    assert.deepEqual(at.nodes.map((n) => `${n.name} ${n.status}`), ['worker-a1 NotReady', 'worker-a2 Ready', 'worker-b1 Ready', 'worker-b2 Ready', 'worker-c1 Ready', 'worker-c2 Ready']);
    assert.equal(at.nodes[0].taints, 'node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute');
    assert.equal(clusterAt(timeline, 325_102).pods.find((p) => p.name === 'kafka-0')?.status, 'Running');
    assert.equal(clusterAt(timeline, 325_103).pods.find((p) => p.name === 'kafka-0')?.status, 'Terminating');
  });
});

describe('timeline of a partition of the node of web, healed after 8 minutes', () => {
  const timeline = buildTimeline(packReport(exampleTrace('examples/web-deployment.yaml', '--failure', 'partition', '--recover-after', '8m', '--duration', '12m')));
  const web = workload(timeline, 'Deployment/shop/web');

  it('links the replacement to the pod it replaces', () => {
    const replacement = web.pods.find((p) => p.ref.name === 'web-9jwrnbzhwc-rk2wb');
    assert.ok(replacement);
    assert.equal(replacement.replaces, 'Pod/shop/web-9jwrnbzhwc-hzmd6#0');
    assert.deepEqual(bars(replacement), [
      '352216-352226 Pending pending', '352226-352237 Pending pending', '352237-357237 ContainerCreating creating',
      '357237-358703 Running unready', '358703-end Running ready',
    ]);
    const replaced = web.pods.find((p) => p.ref.name === 'web-9jwrnbzhwc-hzmd6')!;
    assert.equal(replaced.removedMs, 481010);
    assert.deepEqual(replaced.nodeDown, [{ fromMs: 0, toMs: 481010 }]);
    assert.equal(web.pods.filter((p) => p.replaces !== null).length, 1);
  });

  it('attaches the Service endpoints to the workload whose pods they list', () => {
    assert.deepEqual(web.endpoints.map((e) => e.ref.name), ['web']);
    assert.deepEqual(web.endpoints[0].steps.map((s) => `${s.fromMs} ${s.ready}/${s.total}`), ['0 3/3', '47159 2/3', '357245 2/4', '358712 3/4', '481017 3/3']);
  });

  it('labels replacement Ready and the node coming back', () => {
    assert.deepEqual(timeline.keyMoments.map((m) => `${m.t} ${m.label}`), [
      '0 partition worker-a1', '47143 NotReady', '52192 NoExecute taint', '352203 Deletion', '358703 Replacement Ready', '480000 worker-a1 back',
    ]);
  });
});

describe('key moments as the summary counts them', () => {
  it('a graceful shutdown\'s removals are the Deletion moment, at the summary\'s podDeletionMs', () => {
    const report = exampleTrace('examples', '--failure', 'graceful-shutdown', '--set', 'kubelet.shutdownGracePeriod=30s', '--duration', '5m');
    const first = Math.min(...report.summary.workloads.flatMap((w) => (w.podDeletionMs === null ? [] : [w.podDeletionMs])));
    assert.ok(!report.events.some((e) => e.type === 'PodDeletionStarted' && e.t <= first), 'no graceful deletion by then: removals only');
    assert.deepEqual(buildTimeline(packReport(report)).keyMoments.filter((m) => m.kind === 'deletion').map((m) => m.t), [first]);
  });

  it('interventions of one instant are one moment even with another moment between them', () => {
    const report = exampleTrace('examples/postgres-statefulset.yaml', '--target', 'node/worker-a1,node/worker-b1', '--delete-node-after', '4m', '--duration', '6m');
    const labels = buildTimeline(packReport(report)).keyMoments.filter((m) => m.t === 240_000).map((m) => m.label);
    assert.deepEqual(labels.filter((l) => l.startsWith('DeleteNode')), ['DeleteNode ×2']);
  });
});

describe('timeline of a StatefulSet pod force-deleted at 400 s', () => {
  const timeline = buildTimeline(packReport(exampleTrace('examples/postgres-statefulset.yaml', '--duration', '10m', '--force-delete', 'postgres-0@400s')));
  const postgres = workload(timeline, 'StatefulSet/shop/postgres');

  it('draws the new postgres-0 as a second pod object that replaces the first', () => {
    assert.deepEqual(postgres.pods.map((p) => `${p.id} ${p.createdMs}-${p.removedMs ?? 'end'} replaces ${p.replaces}`), [
      'Pod/shop/postgres-0#0 0-400000 replaces null',
      'Pod/shop/postgres-0#1 400014-end replaces Pod/shop/postgres-0#0',
    ]);
    assert.deepEqual(postgres.pods[0].events.map((e) => e.reason).slice(-2), ['ForceDelete', 'Deleted']);
    assert.deepEqual(postgres.pods[1].events.map((e) => e.reason), ['SuccessfulCreate', 'Scheduled', 'FailedAttachVolume']);
  });

  it('has no postgres-0 in the table between the deletion and the new object, then the new one', () => {
    assert.deepEqual(clusterAt(timeline, 400_000).pods, []);
    assert.deepEqual(clusterAt(timeline, 400_020).pods.map((p) => `${p.name} ${p.status} ${p.node} ${p.laneId}`), ['postgres-0 Pending <none> Pod/shop/postgres-0#1']);
    assert.deepEqual(clusterAt(timeline, 500_000).pods.map((p) => `${p.name} ${p.status} ${p.node}`), ['postgres-0 ContainerCreating worker-a2']);
    assert.deepEqual(timeline.keyMoments.map((m) => m.label), ['power-off worker-a1', 'NotReady', 'NoExecute taint', 'Deletion', 'ForceDelete']);
  });
});

describe('timeline of a bare Pod on a powered-off node', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-bare-')), 'pod.yaml');
  fs.writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: lonely, namespace: tools}\nspec: {containers: [{name: c, image: busybox}]}\n');
  const report = exampleTrace(file, '--duration', '10m');
  const timeline = buildTimeline(packReport(report));

  it('steps its READY line down when the node lifecycle controller marks it NotReady, though kubectl\'s READY still says 1/1', () => {
    const notReady = report.events.find((e) => e.type === 'PodCondition' && e.reason === 'NodeNotReady')!.t;
    const steps = workload(timeline, 'Pod/tools/lonely').readySteps.map((s) => `${s.fromMs}-${s.toMs ?? 'end'} ${s.ready}/${s.total}`);
    assert.equal(steps[0], `0-${notReady} 1/1`);
    assert.ok(steps.slice(1).every((s) => s.endsWith(' 0/1')), steps.join(', '));
  });
});

describe('timeline building blocks', () => {
  it('maps kubectl STATUS strings to bar colours', () => {
    assert.deepEqual(
      [['Running', '1/1'], ['Running', '0/1'], ['Pending', '0/1'], ['ContainerCreating', '0/1'], ['Init:0/1', '0/1'], ['Terminating', '1/1'], ['Unknown', '1/1'], ['Error', '0/1'], ['CrashLoopBackOff', '0/1'], ['Completed', '0/1']]
        .map(([status, ready]) => podStatusCategory(status, ready)),
      ['ready', 'unready', 'pending', 'creating', 'creating', 'terminating', 'unknown', 'failed', 'failed', 'succeeded'],
    );
  });

  it('tells the owners of pods apart when one workload name starts another', () => {
    const owners = new PodOwners([
      { kind: 'Deployment', namespace: 'a', name: 'web' },
      { kind: 'Deployment', namespace: 'a', name: 'web-api' },
      { kind: 'StatefulSet', namespace: 'a', name: 'db' },
      { kind: 'Pod', namespace: 'a', name: 'debug' },
    ], [{ t: 5, object: { kind: 'Pod', namespace: 'a', name: 'odd-name' }, type: 'PodCreated', reason: 'SuccessfulCreate', message: '', detail: { owner: 'StatefulSet/db' } }]);
    const owner = (name: string, namespace = 'a') => owners.ownerOf({ kind: 'Pod', namespace, name });
    assert.equal(owner('web-7d4b9c8f5d-x2x9k'), 'Deployment/a/web');
    assert.equal(owner('web-api-7d4b9c8f5d-x2x9k'), 'Deployment/a/web-api');
    assert.equal(owner('db-0'), 'StatefulSet/a/db');
    assert.equal(owner('db-backup-0'), null);
    assert.equal(owner('debug'), 'Pod/a/debug');
    assert.equal(owner('odd-name'), 'StatefulSet/a/db');
    assert.equal(owner('web-7d4b9c8f5d-x2x9k', 'b'), null);
  });

  it('finds the owners of pods whose generated names were cut to 63 characters', () => {
    const long = 'payments-reconciliation-worker-for-eu-west-and-us-east'; // 54: with its hash, past 58
    const longer = `${'x'.repeat(60)}`;
    const owners = new PodOwners([
      { kind: 'Deployment', namespace: 'a', name: long },
      { kind: 'DaemonSet', namespace: 'a', name: longer },
      { kind: 'StatefulSet', namespace: 'a', name: long.slice(0, 50) },
    ], []);
    const owner = (name: string) => owners.ownerOf({ kind: 'Pod', namespace: 'a', name });
    assert.equal(owner(`${`${long}-7d4b9c8f5d-`.slice(0, 58)}x2x9k`), `Deployment/a/${long}`);
    assert.equal(owner(`${longer.slice(0, 58)}x2x9k`), `DaemonSet/a/${longer}`);
    assert.equal(owner(`${long.slice(0, 50)}-0`), `StatefulSet/a/${long.slice(0, 50)}`);
    assert.equal(owner(`${long.slice(0, 40)}-other-name-of-the-same-start-x2x9k`.padEnd(63, 'a')), null);
  });

  it('gives each pod the owner of the longest workload name its name starts with and whose pods are named so (property)', () => {
    // The rule the owners follow, written as the scan it is: every workload, longest name first.
    const named = (kind: string, rest: string) => ({ Pod: /^$/, StatefulSet: /^-\d+$/, Deployment: /^-[a-z0-9]+-[a-z0-9]{5}$/ }[kind] ?? /^-[a-z0-9]{5}$/).test(rest);
    const word = fc.stringMatching(/^[a-c0-9]{1,3}$/);
    const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join('-'));
    const workloadArb = fc.record({ kind: fc.constantFrom('Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'Pod'), namespace: fc.constantFrom('a', 'b'), name });
    // A pod's name starts with a workload's name (or some other name), its end as one of the controllers would make it, or not.
    const podArb = fc.tuple(fc.option(fc.nat(), { nil: undefined }), name, fc.constantFrom('', '-0', '-12', '-ab1c2', '-7d4b9-ab1c2', '-x-ab1c2', '-abc', '-'), fc.constantFrom('a', 'b'));
    fc.assert(fc.property(fc.array(workloadArb, { minLength: 1, maxLength: 12 }), fc.array(podArb, { maxLength: 12 }), (workloads, podArbs) => {
      const pods = podArbs.map(([pick, other, end, namespace]) => ({ kind: 'Pod', namespace, name: (pick === undefined ? other : workloads[pick % workloads.length].name) + end }));
      const owners = new PodOwners(workloads, []);
      const byLength = [...workloads].sort((x, y) => y.name.length - x.name.length);
      for (const pod of pods) {
        const expected = byLength.find((w) => w.namespace === pod.namespace && pod.name.startsWith(w.name) && named(w.kind, pod.name.slice(w.name.length)));
        assert.equal(owners.ownerOf(pod), expected ? `${expected.kind}/${expected.namespace}/${expected.name}` : null, pod.name);
      }
    }), { numRuns: 300 });
  });

  it('finds the state at t: a state that starts at t counts, one that ends at t does not', () => {
    const spans = [{ fromMs: 0, toMs: 10, v: 'a' }, { fromMs: 10, toMs: 20, v: 'b' }, { fromMs: 30, toMs: null, v: 'c' }];
    assert.deepEqual([-1, 0, 9, 10, 20, 25, 30, 1e9].map((t) => spanAt(spans, t)?.v ?? '-'), ['-', 'a', 'a', 'b', '-', '-', 'c', 'c']);
  });
});
