import * as assert from 'node:assert/strict';
import { eventMessage } from '../../src/report/eventMessages';
import { eventJson } from '../../src/report/jsonReport';
import { RunStatistics, StreamingMedian } from '../../src/report/runStatistics';
import { outcomeReason } from '../../src/report/summaryText';
import { watchRows } from '../../src/report/watchRows';
import type { OutcomeCause, WorkloadSummary } from '../../src/sim/summary';
import type { TraceEvent } from '../../src/sim/trace';
import { Random } from '../../src/sim/random';

const pod = { kind: 'Pod', name: 'web-1', namespace: 'shop' };
const node = { kind: 'Node', name: 'worker-a1', namespace: '' };
const ev = (type: TraceEvent['type'], reason: string, detail?: Record<string, unknown>, object = pod, t = 0): TraceEvent => ({ t, object, type, reason, detail });

describe('report: event messages', () => {
  const cases: [TraceEvent, string][] = [
    [ev('PodCreated', 'SuccessfulCreate', { owner: 'Deployment/web', by: 'replicaset-controller' }), 'Created pod: web-1'],
    [ev('PodScheduled', 'Scheduled', { node: 'worker-b1' }), 'Successfully assigned shop/web-1 to worker-b1'],
    [ev('PodDeletionStarted', 'Terminating', { gracePeriodSeconds: 30, by: 'taint-eviction-controller' }), 'Deletion requested by taint-eviction-controller with grace period 30s; the object stays until the kubelet confirms'],
    [ev('TaintAdded', 'TaintAdded', { key: 'node.kubernetes.io/unreachable', value: '', effect: 'NoExecute', by: 'node-lifecycle-controller' }, node), 'Taint node.kubernetes.io/unreachable:NoExecute added by node-lifecycle-controller'],
    [ev('VolumeDetached', 'Detached', { node: 'worker-a1', cause: 'force-detach-timeout' }, { kind: 'PersistentVolume', name: 'disk', namespace: '' }), 'Volume disk detached from worker-a1 (force detach after 6 minutes: the node is not Ready)'],
    [ev('Fault', 'power-off', { failure: 'power-off' }, node), 'worker-a1 powered off: containers, kubelet and network are gone'],
    [ev('Intervention', 'OutOfService', { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }, node), 'kubectl taint node worker-a1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute'],
    [ev('Note', 'LastHeartbeat', { lastLeaseRenewalMs: -3200, lastStatusPostMs: -95_000 }, node), 'Heartbeats stop: the last lease renewal was 3.2s ago and the last node status post 1m35s ago'],
    [ev('Note', 'PartialDisruption', { zone: 'zone-a', qps: 0 }, { kind: 'Zone', name: 'zone-a', namespace: '' }), 'Zone zone-a is now PartialDisruption: NoExecute tainting at no rate (stopped).'],
    [ev('EndpointChanged', 'EndpointNotReady', { pod: 'web-1', ip: '10.244.0.2', ready: false, serving: false, terminating: false, added: false }, { kind: 'EndpointSlice', name: 'web', namespace: 'shop' }), 'Endpoint 10.244.0.2 (web-1) now ready=false serving=false terminating=false'],
    [ev('KubernetesEvent', 'TaintManagerEviction', { message: 'Marking for deletion Pod shop/web-1', source: 'taint-eviction-controller' }), 'Marking for deletion Pod shop/web-1'],
    // Kind/name means the workload's pods on the failed nodes, which may run elsewhere by then.
    [ev('Intervention', 'ForceDeleteSkipped', { target: 'StatefulSet/postgres' }), 'kubectl delete --force: no pod of StatefulSet/postgres is on a failed node at this time'],
    [ev('Intervention', 'DeleteSkipped', { target: 'db-0' }), 'kubectl delete: no pod db-0 exists at this time'],
    // A duration knob's value reads as a duration, not as milliseconds.
    [ev('Note', 'Assumption', { knob: 'sim.leaderElectionDelay', value: 90_000_000, source: '--set' }, { kind: 'Cluster', name: 'assumptions', namespace: '' }),
      'Assumption sim.leaderElectionDelay=25h (--set): (15–19 s on a 1.29 control plane) time from a controller-manager restart until the new leader holds the lease; random in [15 s, 19 s) unless set.'],
    [ev('Note', 'Assumption', { knob: 'sim.notReadyPodsKeepServing', value: false, source: '--set' }, { kind: 'Cluster', name: 'assumptions', namespace: '' }),
      'Assumption sim.notReadyPodsKeepServing=false (--set): (unverified) while the container runtime is down (kubelet-not-ready) the running containers keep answering.'],
  ];
  for (const [event, message] of cases) it(`${event.type}/${event.reason}: "${message}"`, () => assert.equal(eventMessage(event), message));

  it('in JSON, the Kubernetes message moves out of detail into message', () => {
    const json = eventJson(cases[10][0]);
    assert.deepEqual(json, { t: 0, object: pod, type: 'KubernetesEvent', reason: 'TaintManagerEviction', message: 'Marking for deletion Pod shop/web-1', detail: { source: 'taint-eviction-controller' } });
  });

  it('watch rows: initial states first, then each change after the event that caused it', () => {
    const rows = watchRows([ev('TaintAdded', 'TaintAdded', { key: 'k', value: '', effect: 'NoSchedule', by: 'x' }, node, 5)], [
      { object: node, from: 0, to: 5, status: 'Ready', ready: 'True', taints: [] },
      { object: node, from: 5, to: null, status: 'NotReady', ready: 'Unknown', taints: ['k:NoSchedule'] },
    ]);
    assert.deepEqual(rows.map((r) => [r.t, r.name, r.status, r.detail]), [
      [0, 'node/worker-a1', 'Ready', ''], [5, '# node/worker-a1', 'TaintAdded', 'Taint k:NoSchedule added by x'], [5, 'node/worker-a1', 'NotReady', 'taints: k:NoSchedule'],
    ]);
  });
});

describe('report: outcome sentences', () => {
  const summary = (cause: OutcomeCause): WorkloadSummary => ({
    object: { kind: 'StatefulSet', name: 'db', namespace: 'shop' }, desiredReplicas: 1, nodeNotReadyMs: 41_000, podsNotReadyMs: 41_000,
    noExecuteTaintMs: 46_000, podDeletionMs: 346_000, replacementCreatedMs: 346_010, replacementReadyMs: 352_000,
    unavailableMs: 352_000, degradedMs: 352_000, blackholeMs: 0, duplicateMs: 0, outcome: 'stuck', cause, pendingBeforeFailure: null,
  });
  const cases: [OutcomeCause, string][] = [
    [{ kind: 'statefulset-identity', pod: 'db-0', node: 'worker-a1', localVolume: null }, 'db-0 stays Terminating on the unreachable node worker-a1: a StatefulSet never creates a second db-0 while the old object exists. To release it, once you are sure the node is off (a pod still running there would run twice), force-delete the pod (kubectl delete pod --force --grace-period=0), delete the Node object, or taint the node node.kubernetes.io/out-of-service=nodeshutdown:NoExecute.'],
    [{ kind: 'replaced', pods: 1, nodes: ['worker-a1'], replacedOn: ['worker-b1'], failed: null, backOn: [], lastDeletionMs: null, retaintedMs: null }, 'Its pod on worker-a1 was deleted at 5m46s and replaced on worker-b1, Ready at 5m52s; down 5m52s in all.'],
    [{ kind: 'replaced', pods: 17, nodes: Array.from({ length: 17 }, (_, i) => `a${i}`), replacedOn: Array.from({ length: 17 }, (_, i) => `b${i}`), failed: null, backOn: [], lastDeletionMs: null, retaintedMs: null },
      'Its pods on 17 failed nodes were deleted at 5m46s and replaced on 17 nodes: b0, b1, b2, …, the last Ready at 5m52s; down 5m52s in all.'],
    [{ kind: 'replaced', pods: 2, nodes: ['worker-a1', 'worker-a2'], replacedOn: ['worker-b1'], failed: null, backOn: [], lastDeletionMs: 356_000, retaintedMs: null },
      'Its pods on worker-a1, worker-a2 were deleted from 5m46s to 5m56s and replaced on worker-b1, the last Ready at 5m52s; down 5m52s in all.'],
    [{ kind: 'replaced', pods: 1, nodes: ['worker-b1'], replacedOn: ['worker-b2'], failed: null, backOn: ['worker-a1'], lastDeletionMs: null, retaintedMs: null }, 'Its pod on worker-b1 was deleted at 5m46s and replaced on worker-b2, Ready at 5m52s; what ran on worker-a1 came back with the node; down 5m52s in all.'],
    [{ kind: 'daemon-pod-waits', pod: 'ds-x1', node: 'worker-a1', nodes: ['worker-a1'], serving: false }, 'DaemonSet pods belong to their node: ds-x1 is never evicted or moved and serves again only when worker-a1 recovers (expected for a DaemonSet).'],
    [{ kind: 'daemon-pod-waits', pod: 'ds-x1', node: 'worker-a1', nodes: ['worker-a1', 'worker-a2'], serving: false }, 'DaemonSet pods belong to their node: its pods on worker-a1, worker-a2 are never evicted or moved and serve again only when their node recovers (expected for a DaemonSet).'],
    [{ kind: 'recovered', nodes: ['worker-a1'], pod: 'db-0', pods: 1, daemon: false, restarted: false, newIp: false }, 'worker-a1 came back before db-0 was replaced: it was re-adopted by the kubelet; down 5m52s in all.'],
    [{ kind: 'recovered', nodes: ['worker-a1', 'worker-a2'], pod: 'web-1', pods: 3, daemon: false, restarted: true, newIp: true }, 'worker-a1, worker-a2 came back before 3 pods (web-1, ...) were replaced: they restarted in place with a new IP; down 5m52s in all.'],
    [{ kind: 'recovered', nodes: ['worker-a1'], pod: 'ds-x1', pods: 1, daemon: true, restarted: false, newIp: false }, 'worker-a1 came back and ds-x1 was re-adopted by the kubelet; down 5m52s in all.'],
    [{ kind: 'bare-pod-lost', pod: 'db', node: 'worker-a1', failed: null, removedMs: 420_116, removedByKubelet: true, nodeBack: true }, 'A bare Pod is never recreated: db was deleted at 5m46s; its object was removed at 7m0.116s by the kubelet of worker-a1, and nothing runs it again although worker-a1 is Ready again; run it under a Deployment or StatefulSet.'],
    [{ kind: 'not-evicted-yet', pod: 'db-0', node: 'worker-a1', status: 'Running', serving: false, retaintedMs: null }, 'db-0 still counts as running on worker-a1 (Running in the API) at the end: it has not been evicted yet (tolerationSeconds counts from the NoExecute taint at 46s); simulate longer to see what follows.'],
    [{ kind: 'not-evicted-yet', pod: 'db-0', node: 'worker-a1', status: 'Running', serving: false, retaintedMs: null, alsoWaiting: 2 }, 'db-0 still counts as running on worker-a1 (Running in the API) at the end: it has not been evicted yet (tolerationSeconds counts from the NoExecute taint at 46s); simulate longer to see what follows. 2 more of its pods stay bound to a failed node too.'],
    [{ kind: 'not-noticed-yet', pod: 'db-0', node: 'worker-a1', lastRenewalMs: -5_099 }, 'worker-a1 still shows Ready at the end: its kubelet last renewed the lease 5.099s before the failure, and the node lifecycle controller marks it NotReady only once node-monitor-grace-period has passed without a renewal, then evicts db-0 tolerationSeconds after its NoExecute taint; simulate longer to see what follows.'],
    [{ kind: 'not-on-failed-nodes', failedNodes: Array.from({ length: 7 }, (_, i) => `n${i}`) }, 'None of its pods ran on the 7 failed nodes.'],
    [{ kind: 'node-ready-but-broken', pod: 'web-1', node: 'worker-a1', podReady: true, readinessProbe: true, restarts: 1, answers: true },
      'worker-a1 stays Ready (its kubelet keeps renewing the lease), so no controller evicts or replaces web-1: its liveness probe restarted it once, and the restarted container answers (sim.diskFailureRestartsHang false); down 5m52s in all. The node stays broken: cordon and drain it.'],
    [{ kind: 'node-ready-but-broken', pod: 'web-1', node: 'worker-a1', podReady: false, readinessProbe: false, restarts: 3, answers: false },
      'worker-a1 stays Ready (its kubelet keeps renewing the lease), so no controller evicts or replaces web-1: it is Ready=False (its container is down between restarts), so Services stop sending it traffic, its liveness probe restarted it 3 times; something outside Kubernetes must cordon and drain the node.'],
  ];
  for (const [cause, sentence] of cases) it(cause.kind, () => assert.equal(outcomeReason(summary(cause)), sentence));

  it('a Failed pod replaced without deletion: "not deleted" until something deletes it, then when', () => {
    const failed: OutcomeCause = { kind: 'replaced', pods: 1, nodes: ['worker-a1'], replacedOn: ['worker-b1'], failed: { pod: 'db-0', reason: 'Terminated', containerReason: null, atMs: 1_008 }, backOn: [], lastDeletionMs: null, retaintedMs: null };
    assert.equal(outcomeReason({ ...summary(failed), podDeletionMs: null }), 'Its pod on worker-a1 was stopped by the kubelet and ended Failed (Terminated) at 1.008s, not deleted, and replaced on worker-b1, Ready at 5m52s; down 5m52s in all.');
    assert.equal(outcomeReason({ ...summary(failed), podDeletionMs: 302_006, replacementReadyMs: 7_546, unavailableMs: 0 }), 'Its pod on worker-a1 was stopped by the kubelet and ended Failed (Terminated) at 1.008s and replaced on worker-b1, Ready at 7.546s; the Failed object was deleted at 5m2.006s; down 0s in all.');
    // A StatefulSet deletes its Failed pod at once, before the replacement runs.
    assert.equal(outcomeReason({ ...summary(failed), podDeletionMs: 1_018, replacementReadyMs: 19_957, unavailableMs: 18_957 }), 'Its pod on worker-a1 was stopped by the kubelet and ended Failed (Terminated) at 1.008s, its object deleted at 1.018s, and replaced on worker-b1, Ready at 19.957s; down 18.957s in all.');
  });

  it('a bare Pod deleted by a controller, not by its kubelet once back', () => {
    const lost: OutcomeCause = { kind: 'bare-pod-lost', pod: 'db', node: 'worker-a1', failed: { pod: 'db', reason: 'Terminated', containerReason: null, atMs: 1_008 }, removedMs: 302_006, removedByKubelet: false, nodeBack: true };
    assert.equal(outcomeReason(summary(lost)), 'A bare Pod is never recreated: db ended Failed (Terminated) on worker-a1 at 1.008s and is not restarted; its object was deleted at 5m2.006s, and nothing runs it again although worker-a1 is Ready again; run it under a Deployment or StatefulSet.');
  });

  it('a pod tolerating the taint forever: the advice fits its kind (an eviction brings back no bare Pod, nor a StatefulSet pod)', () => {
    const forever: OutcomeCause = { kind: 'tolerates-forever', pod: 'db-0', node: 'worker-a1', taint: 'node.kubernetes.io/unreachable:NoExecute', serving: false };
    const of = (kind: string) => outcomeReason({ ...summary(forever), object: { kind, name: 'db', namespace: 'shop' } });
    assert.match(of('Deployment'), /serves nothing until the node returns; give the toleration tolerationSeconds to have it replaced\.$/);
    assert.match(of('StatefulSet'), /; with tolerationSeconds it would be deleted, then stay Terminating until the node returns or someone force-deletes it \(a StatefulSet creates no pod of the same name before\)\.$/);
    assert.match(of('Pod'), /; a bare Pod is never recreated, so an eviction would only lose it for good\.$/);
  });

  it('pods Pending before the failure are reported apart from what the failure did', () => {
    const text = outcomeReason({ ...summary({ kind: 'not-on-failed-nodes', failedNodes: ['n0'] }), pendingBeforeFailure: { pods: 2, pod: 'db-1', message: '0/6 nodes are available: 6 Insufficient cpu.' } });
    assert.equal(text, 'None of its pods ran on n0. Apart from the failure: 2 pods (db-1, ...) were already Pending before it: 0/6 nodes are available: 6 Insufficient cpu.');
  });
});

describe('report: statistics over runs', () => {
  it('the median is exact up to five runs', () => {
    const m = new StreamingMedian();
    for (const x of [50, 10, 40]) m.add(x);
    assert.deepEqual(m.stat(), { min: 10, median: 40, max: 50 });
    m.add(20);
    assert.equal(m.median, 30);
  });

  it('the P² estimate of a 2,001-value median is within 1 % of the exact one, in constant memory', () => {
    const random = new Random(7);
    const values = Array.from({ length: 2001 }, () => Math.round(30_000 + 15_000 * random.next() + 5000 * random.next()));
    const m = new StreamingMedian();
    for (const x of values) m.add(x);
    const exact = [...values].sort((a, b) => a - b)[1000];
    assert.ok(Math.abs(m.median! - exact) / exact < 0.01, `estimate ${m.median}, exact ${exact}`);
    assert.deepEqual([m.min, m.max], [Math.min(...values), Math.max(...values)]);
  });

  it('counts outcomes per workload and keeps the most frequent one', () => {
    const stats = new RunStatistics();
    const base = { object: { kind: 'Deployment', name: 'web', namespace: 'd' }, desiredReplicas: 1, nodeNotReadyMs: 1, podsNotReadyMs: null, noExecuteTaintMs: null, podDeletionMs: null, replacementCreatedMs: null, replacementReadyMs: null, unavailableMs: 0, degradedMs: 0, blackholeMs: 0, duplicateMs: 0, pendingBeforeFailure: null };
    stats.add([{ ...base, outcome: 'recovered', cause: { kind: 'recovered', nodes: ['a'], pod: 'web-1', pods: 1, daemon: false, restarted: false, newIp: false } }]);
    stats.add([{ ...base, nodeNotReadyMs: 3, outcome: 'stuck', cause: { kind: 'short-of-replicas', nodes: ['a'] } }]);
    stats.add([{ ...base, nodeNotReadyMs: 2, outcome: 'stuck', cause: { kind: 'short-of-replicas', nodes: ['a'] } }]);
    const [web] = stats.result();
    assert.deepEqual([web.outcome, web.outcomes, web.times.nodeNotReadyMs, web.times.podDeletionMs], ['stuck', { recovered: 1, stuck: 2 }, { min: 1, median: 2, max: 3 }, { min: null, median: null, max: null }]);
  });
});
