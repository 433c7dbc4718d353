/**
 * SEMANTICS.md 13.2: the default case (kubelet dead at t = 0, one node in a quiet zone, a pod
 * with the default 300 s tolerations) for G = 40 s (Kubernetes 1.31) and G = 50 s (1.32),
 * over many seeds: every run inside the table's windows, and the runs spread over them.
 */
import * as assert from 'node:assert/strict';
import { deployment, firstTime, is, run } from './support';

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
// Watch and write latencies (SEMANTICS.md 13.1, upper ends) and the simulator's pass duration.
const SMALL = 100 + 50 + 20;

for (const { version, grace } of [{ version: '1.31', grace: 40_000 }, { version: '1.32', grace: 50_000 }]) {
  describe(`default timeline, G = ${grace / 1000} s (Kubernetes ${version}), ${SEEDS.length} seeds`, () => {
    type Run = { seed: number; heartbeat: { lastLeaseRenewalMs: number; lastStatusPostMs: number }; unknown: number; podNotReady: number; noSchedule: number; noExecute: number; deletion: number; created: number };
    let runs: Run[] = [];
    before(() => {
      runs = SEEDS.map((seed) => {
      const result = run([deployment('web', 1)], { version, seed, targets: ['Deployment/web'], durationMs: 7 * 60_000 });
      const node = result.summary.failedNodes[0];
      const heartbeat = result.events.find((e) => e.type === 'Note' && e.reason === 'LastHeartbeat')!.detail as { lastLeaseRenewalMs: number; lastStatusPostMs: number };
      const pod = result.states.find((s) => s.object.kind === 'Pod' && s.from === 0 && s.node === node)!.object.name;
      const replacement = result.events.find((e) => e.type === 'PodCreated' && e.t > 0)?.object.name;
      return {
        seed,
        heartbeat,
        unknown: firstTime(result, is.nodeUnknown(node))!,
        podNotReady: firstTime(result, is.podNotReady(pod))!,
        noSchedule: firstTime(result, is.taint(node, 'node.kubernetes.io/unreachable', 'NoSchedule'))!,
        noExecute: firstTime(result, is.taint(node, 'node.kubernetes.io/unreachable', 'NoExecute'))!,
        deletion: firstTime(result, is.podDeleting(pod))!,
        created: firstTime(result, (e) => e.type === 'PodCreated' && e.object.name === replacement)!,
      };
      });
    });

    it('#0: the last lease renewal is up to one jittered renew interval (10.4 s) before the failure', () => {
      for (const r of runs) assert.ok(r.heartbeat.lastLeaseRenewalMs <= 0 && r.heartbeat.lastLeaseRenewalMs >= -10_400, `seed ${r.seed}: ${r.heartbeat.lastLeaseRenewalMs}`);
    });

    it('#2: Ready=Unknown in [G - 10.4 s, G + 5 s), later only when a status post was the last heartbeat', () => {
      for (const r of runs) {
        const statusLast = r.heartbeat.lastStatusPostMs > r.heartbeat.lastLeaseRenewalMs - 5000;
        assert.ok(r.unknown > Math.max(r.heartbeat.lastLeaseRenewalMs, r.heartbeat.lastStatusPostMs) + grace, `seed ${r.seed}: ${r.unknown}`);
        assert.ok(r.unknown >= grace - 10_400 && r.unknown < grace + 5000 + SMALL + (statusLast ? 5000 : 0), `seed ${r.seed}: Unknown at ${r.unknown} ms`);
      }
    });

    it('#2 spread: the runs cover the window (mean about G - 2.6 s)', () => {
      const times = runs.map((r) => r.unknown);
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      assert.ok(Math.min(...times) < grace - 7000, `earliest ${Math.min(...times)}`);
      assert.ok(Math.max(...times) > grace + 2000, `latest ${Math.max(...times)}`);
      assert.ok(Math.abs(mean - (grace - 2600)) < 1500, `mean ${mean}`);
    });

    it('#3, #4: pods NotReady and the NoSchedule taint within milliseconds of Unknown', () => {
      for (const r of runs) {
        assert.ok(r.podNotReady - r.unknown >= 0 && r.podNotReady - r.unknown <= SMALL, `seed ${r.seed}`);
        assert.ok(r.noSchedule - r.unknown >= 0 && r.noSchedule - r.unknown <= SMALL, `seed ${r.seed}`);
      }
    });

    it('#5: the NoExecute taint one monitor pass after Unknown (+ up to 100 ms of the tainting loop)', () => {
      for (const r of runs) assert.ok(r.noExecute - r.unknown >= 5000 && r.noExecute - r.unknown <= 5000 + 100 + SMALL, `seed ${r.seed}: ${r.noExecute - r.unknown}`);
    });

    it('#7: deletion 300 s after the taint is observed; #8: the replacement at once', () => {
      for (const r of runs) {
        assert.ok(r.deletion - r.noExecute >= 300_000 && r.deletion - r.noExecute <= 300_000 + SMALL, `seed ${r.seed}: ${r.deletion - r.noExecute}`);
        assert.ok(r.created - r.deletion >= 0 && r.created - r.deletion <= SMALL, `seed ${r.seed}`);
      }
      const deletions = runs.map((r) => r.deletion);
      assert.ok(Math.min(...deletions) >= grace - 10_400 + 305_000, `earliest deletion ${Math.min(...deletions)}`);
      assert.ok(Math.max(...deletions) <= grace + 5000 + 305_000 + 5000 + 2 * SMALL, `latest deletion ${Math.max(...deletions)}`);
    });
  });
}
