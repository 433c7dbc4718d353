/**
 * kubectl STATUS by version: up to 1.26, with --enable-taint-manager=false, the legacy path of
 * the node lifecycle controller deletes pods pod-eviction-timeout after the node stopped
 * reporting and marks them NodeLost, which kubectl shows as Unknown; otherwise Terminating
 * (SEMANTICS.md 3.7, 5, 13.4).
 */
import * as assert from 'node:assert/strict';
import { daemonSet, deployment, firstTime, is, messageOf, reasonOf, run } from './support';

const MINUTE = 60_000;
const PASS = 5000 + 20 + 100 + 2 * (100 + 50);

describe('legacy eviction (up to 1.26, --enable-taint-manager=false)', () => {
  const legacy = run([deployment('web', 1), daemonSet], { version: '1.26', durationMs: 10 * MINUTE, set: { 'kcm.enable-taint-manager': 'false' } });
  const node = legacy.summary.failedNodes[0];
  const web = legacy.summary.workloads.find((w) => w.object.name === 'web')!;
  const heartbeat = legacy.events.find((e) => e.reason === 'LastHeartbeat')!;
  const lastSeen = Math.max(Number(heartbeat.detail!.lastLeaseRenewalMs), Number(heartbeat.detail!.lastStatusPostMs));

  it('no NoExecute taint; pods deleted pod-eviction-timeout (5m) after the controller last saw a heartbeat', () => {
    assert.equal(legacy.events.filter((e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute').length, 0);
    assert.equal(firstTime(legacy, is.taint(node, 'node.kubernetes.io/unreachable', 'NoSchedule')) !== null, true);
    // probeTimestamp is the first pass after the last heartbeat (≤ one pass later); deletion at the first pass after it + 5m.
    assert.ok(web.podDeletionMs! > lastSeen + 5 * MINUTE && web.podDeletionMs! <= lastSeen + 5 * MINUTE + 2 * PASS, `deleted at ${web.podDeletionMs}, last heartbeat ${lastSeen}`);
    assert.match(messageOf(legacy.events.find((e) => e.reason === 'NodeControllerEviction')!), /^Marking for deletion Pod web-.* from Node worker-a1$/);
    assert.equal(web.outcome, 'replaced');
  });

  it('kubectl shows the deleted pod as Unknown (reason NodeLost), not Terminating; daemon pods are skipped', () => {
    const original = legacy.states.find((s) => s.object.name.startsWith('web-') && s.from === 0)!.object.name;
    const last = legacy.states.filter((s) => s.object.name === original).at(-1)!;
    assert.deepEqual([last.status, last.to], ['Unknown', null]);
    const dsPod = legacy.states.find((s) => s.object.name.startsWith('ds-') && s.node === node)!.object.name;
    assert.equal(firstTime(legacy, is.podDeleting(dsPod)), null);
  });

  it('kubectl shows Unknown for the NodeLost pod whatever its phase: pod GC marking it Failed before removing it prints no "NodeLost"', () => {
    const gone = run([deployment('web', 1)], { version: '1.26', durationMs: 9 * MINUTE, set: { 'kcm.enable-taint-manager': 'false' }, interventions: [{ kind: 'delete-node', atMs: 7 * MINUTE }] });
    const original = gone.states.find((s) => s.object.name.startsWith('web-') && s.from === 0)!.object.name;
    const statuses = gone.states.filter((s) => s.object.name === original).map((s) => s.status);
    assert.ok(statuses.includes('Unknown'), statuses.join());
    assert.ok(!statuses.includes('NodeLost'), statuses.join());
  });

  it('a StatefulSet pod stuck on this path is summarised as kubectl shows it: Unknown, not Terminating', () => {
    const sts = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: truth}\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: pg}]}\n';
    const [db] = run([sts], { version: '1.25', durationMs: 8 * MINUTE, set: { 'kcm.enable-taint-manager': 'false' } }).summary.workloads;
    assert.deepEqual([db.outcome, db.cause.kind, (db.cause as { shownAs?: string }).shownAs], ['stuck', 'statefulset-identity', 'Unknown']);
    assert.match(reasonOf(db), /^db-0 stays deleted but shown Unknown \(kubectl prints Unknown for a deleted pod with reason NodeLost\) on the unreachable node worker-a1: /);
  });

  it('--pod-eviction-timeout applies on this path and is not noted as ignored', () => {
    const short = run([deployment('web', 1)], { version: '1.26', durationMs: 5 * MINUTE, set: { 'kcm.enable-taint-manager': 'false', 'kcm.pod-eviction-timeout': '1m' } });
    const s = short.summary.workloads[0];
    assert.ok(s.podDeletionMs! < 2 * MINUTE, `deleted at ${s.podDeletionMs}`);
    assert.ok(!short.events.some((e) => e.type === 'Note' && /pod-eviction-timeout/.test(messageOf(e))));
  });

  it('from 1.27 the flag is gone: noted as having no effect, and pods go Terminating after the taint', () => {
    const modern = run([deployment('web', 1)], { version: '1.27', durationMs: 7 * MINUTE, set: { 'kcm.enable-taint-manager': 'false' } });
    assert.ok(modern.events.some((e) => e.type === 'Note' && /enable-taint-manager was removed in Kubernetes 1\.27/.test(messageOf(e))));
    const original = modern.states.find((s) => s.object.name.startsWith('web-') && s.from === 0)!.object.name;
    assert.equal(modern.states.filter((s) => s.object.name === original).at(-1)!.status, 'Terminating');
  });
});
