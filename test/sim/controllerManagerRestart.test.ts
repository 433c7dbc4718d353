/**
 * kube-controller-manager restarting during an outage (SEMANTICS.md 4, 13.5, 18): the leader is
 * lost, the new one holds the lease 15–19 s later, rebuilds its state from the API and starts
 * the eviction timers again; Ready conditions and NoSchedule taints stay as they are.
 */
import * as assert from 'node:assert/strict';
import { formatDuration } from '../../src/manifest/duration';
import { deployment, firstTime, is, messageOf, reasonOf, run, service, statefulSet, withVolume } from './support';

const MINUTE = 60_000;
const SLACK = 5000 + 20 + 100 + 2 * (100 + 50); // one monitor pass, its duration, the taint loop, watches and writes

describe('controller-manager restart during an outage', () => {
  const restartAt = 2 * MINUTE;
  const result = run([deployment('web', 1)], { durationMs: 10 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: restartAt }] });
  const elected = result.events.find((e) => e.reason === 'LeaderElection')!;
  const node = result.summary.failedNodes[0];

  it('the new leader holds the lease 15–19 s after the restart', () => {
    assert.ok(elected.t - restartAt >= 15_000 && elected.t - restartAt < 19_000, `elected ${elected.t - restartAt} ms after`);
    assert.ok(result.events.some((e) => e.type === 'Note' && e.reason === 'Assumption' && e.detail?.knob === 'sim.leaderElectionDelay'));
    assert.equal(messageOf(elected), `new kube-controller-manager leader became leader, ${formatDuration(elected.t - restartAt)} after the restart`);
  });

  it('it writes the NoExecute taint again with a new timeAdded; Ready and the NoSchedule taint stay', () => {
    const readded = result.events.filter((e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute');
    assert.equal(readded.length, 2);
    assert.ok(readded[0].t < restartAt && readded[1].t >= elected.t && readded[1].t <= elected.t + SLACK, `taints at ${readded.map((e) => e.t)}`);
    assert.equal(result.events.filter((e) => e.type === 'TaintRemoved' && e.detail?.effect === 'NoSchedule').length, 0);
    assert.equal(result.events.filter((e) => e.type === 'NodeCondition' && e.object.name === node).length, 1);
  });

  it('the 300 s toleration starts again under the new leader: deletion about 300 s after the takeover, not after the first taint', () => {
    const web = result.summary.workloads[0];
    const firstTaint = web.noExecuteTaintMs!;
    assert.ok(web.podDeletionMs! >= elected.t + 300_000 && web.podDeletionMs! <= elected.t + 300_000 + SLACK, `deleted ${web.podDeletionMs! - elected.t} ms after the takeover`);
    assert.ok(web.podDeletionMs! - firstTaint > 300_000 + 60_000);
    assert.equal(web.outcome, 'replaced');
  });

  it('the summary names the takeover the deletion counted from, and the taint it wrote anew; a run ending before it says the wait counts from there', () => {
    const readded = result.events.filter((e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute')[1].t;
    const web = result.summary.workloads[0];
    assert.ok(web.cause.kind === 'replaced' && web.cause.retaintedMs === readded && web.cause.takeoverMs === elected.t);
    // The deletion comes 300 s after the takeover, a moment before 300 s after the taint written anew: the text names both.
    assert.ok(web.podDeletionMs! < readded + 300_000, `deleted ${web.podDeletionMs! - readded} ms after the taint written anew`);
    const counted = `tolerationSeconds counted again from the new kube-controller-manager leader's takeover at ${formatDuration(elected.t)} (it added the NoExecute taint anew at ${formatDuration(readded)})`;
    assert.ok(reasonOf(web).startsWith(`Its pod on ${result.summary.failedNodes[0]} was deleted at ${formatDuration(web.podDeletionMs!)} (${counted}) and replaced`), reasonOf(web));
    const shortRun = run([deployment('web', 1)], { durationMs: 6 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: restartAt }] });
    const short = shortRun.summary.workloads[0];
    const shortTakeover = shortRun.events.find((e) => e.reason === 'LeaderElection')!.t;
    assert.ok(short.cause.kind === 'not-evicted-yet' && short.cause.retaintedMs !== null && short.cause.takeoverMs === shortTakeover);
    assert.match(reasonOf(short), /: its tolerationSeconds 300 counts from the new kube-controller-manager leader's takeover at (2m1\d\.\d+)s \(it added the NoExecute taint anew at 2m1\d\.\d+s\), so it is evicted at about 7m1\d\.\d+s, after the end of the run; simulate longer/);
    // The run that goes on deletes the pod then, within the controller's write latency.
    assert.ok(short.cause.kind === 'not-evicted-yet' && short.cause.evictionAtMs === shortTakeover + 300_000);
    assert.ok(web.podDeletionMs! - short.cause.evictionAtMs >= 0 && web.podDeletionMs! - short.cause.evictionAtMs < 100, `deleted ${web.podDeletionMs! - short.cause.evictionAtMs} ms after the predicted time`);
    // Without a restart, no taint is added anew.
    const plain = run([deployment('web', 1)], { durationMs: 10 * MINUTE }).summary.workloads[0];
    assert.ok(plain.cause.kind === 'replaced' && plain.cause.retaintedMs === null);
  });

  it('a restart before the node goes Unknown gives it another full grace period from the takeover', () => {
    const early = run([deployment('web', 1)], { durationMs: 4 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: 10_000 }], set: { 'sim.leaderElectionDelay': '17s' } });
    const takeover = early.events.find((e) => e.reason === 'LeaderElection')!.t;
    assert.equal(takeover, 27_000);
    const unknown = firstTime(early, is.nodeUnknown(early.summary.failedNodes[0]))!;
    // Strictly after probeTimestamp (the takeover's first pass) + 40 s, at the next pass.
    assert.ok(unknown > takeover + 40_000 && unknown <= takeover + 40_000 + SLACK, `Unknown ${unknown - takeover} ms after the takeover`);
  });

  it('while no leader holds the lease nothing is evicted or replaced', () => {
    const toleration = deployment('web', 1, `      tolerations:
      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
`);
    const gap = run([toleration], { durationMs: 5 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: 60_000 }], set: { 'sim.leaderElectionDelay': '15s', 'sim.nodeMonitorPhase': '0s', 'sim.lastLeaseRenewalAge': '0s' } });
    const web = gap.summary.workloads[0];
    // Tainted about 45 s after the failure; the 30 s toleration would have run out at about 75 s, inside the gap.
    assert.ok(web.noExecuteTaintMs! < 60_000);
    assert.ok(web.podDeletionMs! >= 75_000 + 30_000, `deleted at ${web.podDeletionMs}`);
    assert.ok(web.replacementCreatedMs! >= web.podDeletionMs!);
  });

  it('a run that ends before a new leader holds the lease says so, not "simulate longer"', () => {
    const leaderless = run([deployment('web', 1)], { durationMs: 10 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: MINUTE }], set: { 'sim.leaderElectionDelay': '25h' } });
    const web = leaderless.summary.workloads[0];
    assert.equal(web.outcome, 'awaiting-eviction');
    assert.ok(web.cause.kind === 'not-evicted-yet' && web.cause.leaderlessSinceMs === MINUTE, JSON.stringify(web.cause));
    assert.match(reasonOf(web), /; but kube-controller-manager restarted at 1m and no new leader holds its lease by the end \(sim\.leaderElectionDelay\), so no controller marks, taints or evicts anything until one does\.$/);
    // Once a leader holds the lease again, the wait is an ordinary one.
    assert.equal((result.summary.workloads[0].cause as { leaderlessSinceMs?: number }).leaderlessSinceMs, undefined);
  });

  it('a second restart before the new leader takes over: one takeover, when the old lease runs out as the first restart had it', () => {
    const twice = run([deployment('web', 1)], { durationMs: 5 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: 30_000 }, { kind: 'restart-controller-manager', atMs: 40_000 }], set: { 'sim.leaderElectionDelay': '17s' } });
    assert.deepEqual(twice.events.filter((e) => e.reason === 'LeaderElection').map((e) => e.t), [47_000]);
  });

  it('a node back while no leader holds the lease loses its NoSchedule taint to the new leader (its informer adds every node)', () => {
    const back = run([deployment('web', 1)], { durationMs: 15 * MINUTE, recoverAfterMs: 410_000, interventions: [{ kind: 'restart-controller-manager', atMs: 400_000 }] });
    const node = back.summary.failedNodes[0];
    const removed = firstTime(back, (e) => e.type === 'TaintRemoved' && e.object.name === node && e.detail?.effect === 'NoSchedule');
    const elected = back.events.find((e) => e.reason === 'LeaderElection')!.t;
    assert.ok(removed !== null && removed >= elected && removed - elected <= SLACK, `NoSchedule removed at ${removed}, leader at ${elected}`);
    assert.ok(!back.states.filter((s) => s.object.name === node).at(-1)!.taints?.length, 'no taint left');
  });

  it('a pod removed while no leader holds the lease loses its endpoint when the new leader syncs its Service', () => {
    const gap = run([deployment('web', 1), service('web')], {
      failure: 'kubelet-not-ready', targets: ['Deployment/web'], durationMs: 3 * MINUTE, set: { 'sim.leaderElectionDelay': '15s' },
      interventions: [{ kind: 'restart-controller-manager', atMs: 55_000 }, { kind: 'delete', target: 'Deployment/web', atMs: MINUTE }],
    });
    const pod = gap.events.find((e) => e.reason === 'Delete')!.object.name;
    const removed = firstTime(gap, is.podRemoved(pod))!;
    const elected = gap.events.find((e) => e.reason === 'LeaderElection')!.t;
    assert.ok(removed < elected, `removed at ${removed}, leader at ${elected}`);
    const endpointGone = firstTime(gap, (e) => e.reason === 'EndpointRemoved' && e.detail?.pod === pod);
    assert.ok(endpointGone !== null && endpointGone >= elected && endpointGone - elected <= SLACK, `endpoint removed at ${endpointGone}`);
    const slice = gap.states.filter((st) => st.object.kind === 'EndpointSlice').at(-1)!;
    assert.equal(slice.status, '1/1 ready');
  });

  const database = statefulSet('pg', withVolume);

  it('the attach-detach controller forgets its detach request: the 6-minute force detach counts from the new leader, and nothing detaches without one', () => {
    const restarted = run([database], {
      durationMs: 16 * MINUTE, set: { 'sim.leaderElectionDelay': '15s' },
      interventions: [{ kind: 'force-delete', target: 'pg-0', atMs: MINUTE }, { kind: 'restart-controller-manager', atMs: 3 * MINUTE }],
    });
    const elected = restarted.events.find((e) => e.reason === 'LeaderElection')!.t;
    const detached = firstTime(restarted, (e) => e.reason === 'Detached')!;
    assert.ok(detached >= elected + 6 * MINUTE && detached <= elected + 6 * MINUTE + SLACK, `detached at ${detached}, leader at ${elected}`);
    // A restart just before the timer ends: no detach or attach while no leader holds the lease.
    const late = run([database], {
      durationMs: 16 * MINUTE, set: { 'sim.leaderElectionDelay': '15s' },
      interventions: [{ kind: 'force-delete', target: 'pg-0', atMs: MINUTE }, { kind: 'restart-controller-manager', atMs: 6 * MINUTE + 55_000 }],
    });
    const lateElected = late.events.find((e) => e.reason === 'LeaderElection')!.t;
    for (const reason of ['Detached', 'Attached']) {
      const at = firstTime(late, (e) => e.reason === reason)!;
      assert.ok(at >= lateElected + 6 * MINUTE, `${reason} at ${at}, leader at ${lateElected}`);
    }
  });

  it('pod GC quarantines a deleted node again under the new leader', () => {
    const gc = run([database], {
      durationMs: 5 * MINUTE, set: { 'sim.leaderElectionDelay': '15s' },
      interventions: [{ kind: 'delete-node', atMs: MINUTE }, { kind: 'restart-controller-manager', atMs: 85_000 }],
    });
    const elected = gc.events.find((e) => e.reason === 'LeaderElection')!.t;
    const removed = firstTime(gc, is.podRemoved('pg-0'))!;
    assert.ok(removed >= elected + 40_000 && removed <= elected + 80_000 + SLACK, `removed at ${removed}, leader at ${elected}`);
  });
});
