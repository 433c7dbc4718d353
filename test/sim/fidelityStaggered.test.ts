/**
 * Fidelity of staggered failures: each recorded run failed its nodes one after another, 20–25 s
 * apart, on one cluster of about 40 nodes in one zone (../shared/ground-truth README). Here a
 * whole run is one simulation with `--target node/X@offset` per recording, so the nodes fail
 * at the recorded offsets and stay down together. Each node's transitions, measured from its
 * own failure, must match its recording within the jitter SEMANTICS.md 13.1 allows (the lease
 * phase is not pinned here, so Ready=Unknown may move within one renew interval and one monitor
 * pass); the gaps between transitions are checked tightly: the zone stays Normal, so no node's
 * taint waits for another's token, and each eviction runs on its own clock.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/shared';
import { daemonSet, deployment, firstTime, flatCluster, is, run } from './support';

interface Recording {
  id: string;
  scenario: string;
  gracePeriodSeconds: number;
  failedNode: string;
  failureEpochMs?: number;
  nodeReadyUnknownS: number;
  taintNoExecuteS: number;
  podDeletionS: number | null;
}

const { recordings } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'ground-truth.json'), 'utf8')) as { recordings: Recording[] };

const MONITOR_PERIOD = 5000;
const PASS_DURATION = 20;
const WATCH = 100;
const WRITE = 50;
const TAINT_LOOP = 100;
const RENEW_JITTERED = 10_400;

/** The recording's workload, pinned to its node (replacements are checked by the single-failure fidelity tests). */
function workloadOf(recording: Recording): string[] {
  const node = recording.failedNode;
  const name = recording.id.split('/')[1];
  const pin = `      nodeSelector: {kubernetes.io/hostname: ${node}}\n`;
  switch (recording.scenario) {
    case 'b': return [deployment(`dep-${name}`, 1, `${pin}      tolerations:
      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
`)];
    case 'd': return [];
    case 'e': return [`apiVersion: v1\nkind: Pod\nmetadata: {name: pod-${name}, namespace: truth}\nspec:\n  nodeName: ${node}\n  containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n`];
    default: return [deployment(`dep-${name}`, 1, pin)];
  }
}

for (const runName of ['run1', 'run2', 'run3']) {
  const inRun = recordings.filter((r) => r.id.startsWith(`${runName}/`) && r.failureEpochMs !== undefined).sort((a, b) => a.failureEpochMs! - b.failureEpochMs!);
  const start = inRun[0].failureEpochMs!;
  const offsetMs = (r: Recording) => r.failureEpochMs! - start;

  describe(`fidelity of staggered failures: ${runName}, ${inRun.length} nodes failing one after another over ${Math.round(offsetMs(inRun.at(-1)!) / 1000)} s`, () => {
    const names = inRun.map((r) => r.failedNode);
    for (let i = 1; names.length < 40; i++) names.push(`${runName}-h${String(i).padStart(2, '0')}`);
    const set: Record<string, string> = { 'sim.podStartLatency': '1.5s' };
    if (runName === 'run1') set['kubelet.nodeStatusReportFrequency'] = '10s';
    const targets = inRun.map((r) => `node/${r.failedNode}`);
    const failAtMs = Object.fromEntries(inRun.map((r) => [`node/${r.failedNode}`, offsetMs(r)]));
    const durationMs = offsetMs(inRun.at(-1)!) + 400_000;
    const results = [1, 2, 3].map((seed) => run([...inRun.flatMap(workloadOf), daemonSet], { cluster: flatCluster(names), targets, failAtMs, durationMs, set, seed }));

    it('the zone stays Normal (never more than 55 % of its nodes down), so nothing waits for a token', () => {
      for (const result of results) assert.ok(!result.events.some((e) => e.type === 'Note' && (e.reason === 'PartialDisruption' || e.reason === 'FullDisruption')));
    });

    for (const recording of inRun) {
      it(`${recording.id} failing at +${(offsetMs(recording) / 1000).toFixed(1)} s: its own transitions as recorded`, () => {
        const node = recording.failedNode;
        const failedAt = offsetMs(recording);
        const grace = recording.gracePeriodSeconds * 1000;
        // SEMANTICS.md 13.1: Unknown G − 10.4 s … G + 5 s after the failure (plus a status post's extra pass and the latencies).
        const low = grace - RENEW_JITTERED;
        const high = grace + 2 * MONITOR_PERIOD + PASS_DURATION + WATCH + WRITE;
        for (const result of results) {
          const unknown = firstTime(result, is.nodeUnknown(node))! - failedAt;
          assert.ok(unknown >= low && unknown <= high, `${node}: Unknown ${unknown} ms after its failure, allowed [${low}, ${high}]`);
          assert.ok(Math.abs(unknown - recording.nodeReadyUnknownS * 1000) <= high - low, `${node}: Unknown ${unknown} ms, recorded ${recording.nodeReadyUnknownS * 1000} ms`);
          const noExecute = firstTime(result, is.taint(node, 'node.kubernetes.io/unreachable', 'NoExecute'))! - failedAt;
          const recordedGap = (recording.taintNoExecuteS - recording.nodeReadyUnknownS) * 1000;
          assert.ok(Math.abs(noExecute - unknown - recordedGap) <= PASS_DURATION + TAINT_LOOP + WATCH + WRITE, `${node}: NoExecute ${noExecute - unknown} ms after Unknown, recorded ${recordedGap} ms`);
          const original = result.states.find((s) => s.object.kind === 'Pod' && s.from === 0 && s.node === node && !s.object.name.startsWith('ds-'));
          if (recording.podDeletionS === null || !original) continue;
          const deletion = firstTime(result, (e) => is.podDeleting(original.object.name)(e))! - failedAt;
          const recordedDeletionGap = (recording.podDeletionS - recording.taintNoExecuteS) * 1000;
          assert.ok(Math.abs(deletion - noExecute - recordedDeletionGap) <= 1000, `${node}: deletion ${deletion - noExecute} ms after the taint, recorded ${recordedDeletionGap} ms`);
        }
        const dsPod = results[0].states.find((s) => s.object.kind === 'Pod' && s.from === 0 && s.node === node && s.object.name.startsWith('ds-'))!;
        assert.equal(firstTime(results[0], is.podDeleting(dsPod.object.name)), null, 'DaemonSet pod never deleted');
      });
    }
  });
}
