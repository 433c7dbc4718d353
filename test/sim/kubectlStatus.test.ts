/**
 * kubectl's STATUS column as the simulator writes it (printPod, SEMANTICS.md 5): init containers,
 * and static pods' mirrors (6.5).
 */
import * as assert from 'node:assert/strict';
import { deployment, reasonOf, run } from './support';

const MINUTE = 60_000;
const withInit = (count: number) => `      initContainers:\n${Array.from({ length: count }, (_, i) => `      - {name: init-${i}, image: busybox}\n`).join('')}`;
const statusesOf = (result: ReturnType<typeof run>, pod: string) => result.states.filter((s) => s.object.name === pod).map((s) => s.status);

describe('kubectl STATUS', () => {
  it('a pod with two init containers starts Init:0/2, Init:1/2, PodInitializing, then Running', () => {
    const result = run([deployment('web', 1, withInit(2))], { durationMs: 8 * MINUTE });
    const replacement = result.events.find((e) => e.type === 'PodCreated' && e.t > 0)!.object.name;
    const seen = statusesOf(result, replacement).filter((s, i, all) => all[i - 1] !== s);
    assert.deepEqual(seen, ['Pending', 'Init:0/2', 'Init:1/2', 'PodInitializing', 'Running']);
  });

  it('RESTARTS after a reboot adds up the app containers and native sidecars, not the init containers that ran to completion (printPod)', () => {
    const twoPlusInit = deployment('web', 1, withInit(1)).replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', '      containers: [{name: a, image: app}, {name: b, image: app}]\n');
    const withSidecar = twoPlusInit.replace('      - {name: init-0, image: busybox}\n', '      - {name: init-0, image: busybox}\n      - {name: proxy, image: envoy, restartPolicy: Always}\n');
    for (const [yaml, expected] of [[twoPlusInit, ['Running', '2/2', 2]], [withSidecar, ['Running', '3/3', 3]]] as const) {
      const result = run([yaml], { durationMs: 4 * MINUTE, recoverAfterMs: 2 * MINUTE });
      const pod = result.states.find((s) => s.object.kind === 'Pod' && s.from === 0)!.object.name;
      const last = result.states.filter((s) => s.object.name === pod).at(-1)!;
      assert.deepEqual([last.status, last.ready, last.restarts], expected);
    }
  });

  it('the init containers take the pod start latency with the app containers: Running as soon as without them', () => {
    const plain = run([deployment('web', 1)], { durationMs: 8 * MINUTE }).summary.workloads[0];
    const init = run([deployment('web', 1, withInit(2))], { durationMs: 8 * MINUTE }).summary.workloads[0];
    // The same within the jitter of the extra status writes.
    assert.ok(Math.abs(init.replacementReadyMs! - plain.replacementReadyMs!) < 100, `${init.replacementReadyMs} vs ${plain.replacementReadyMs}`);
  });

  it('NAME: a long Deployment\'s pod names are cut as the API server\'s name generator cuts them, to 63 characters', () => {
    const name = 'payments-reconciliation-worker-for-eu-west-and-us-east';
    const result = run([deployment(name, 2)], { durationMs: 8 * MINUTE });
    const pods = [...new Set(result.states.filter((s) => s.object.kind === 'Pod').map((s) => s.object.name))];
    assert.equal(pods.length, 3, pods.join());
    for (const pod of pods) assert.match(pod, new RegExp(`^${name}-[a-z0-9]{3}[a-z0-9]{5}$`), `${pod} (${pod.length})`);
  });

  describe('a static pod\'s mirror (SEMANTICS.md 6.5)', () => {
    const mirror = (how: string) => `apiVersion: v1
kind: Pod
metadata:
  name: etcd-worker-a1
  namespace: kube-system
${how}spec:
  nodeName: worker-a1
  containers: [{name: etcd, image: etcd}]
`;
    const annotated = mirror('  annotations: {kubernetes.io/config.mirror: abc123}\n');
    const owned = mirror('  ownerReferences: [{apiVersion: v1, kind: Node, name: worker-a1, uid: u1}]\n');

    it('waits for its node, is never rescheduled, and is not told to run under a Deployment', () => {
      for (const yaml of [annotated, owned]) {
        const result = run([yaml], { targets: ['node/worker-a1'], durationMs: 10 * MINUTE });
        const summary = result.summary.workloads[0];
        assert.equal(summary.outcome, 'waits-for-node');
        assert.equal(result.events.filter((e) => e.type === 'PodCreated' && e.t > 0).length, 0);
        // The kubelet gives a static pod a toleration of every NoExecute taint (applyDefaults): no taint evicts the mirror object.
        assert.equal(reasonOf(summary), 'etcd-worker-a1 is the mirror of a static pod: only the kubelet of worker-a1 runs it and it is never rescheduled elsewhere (expected for a static pod); it serves again only when worker-a1 returns (the mirror object in the API: Running).');
        assert.ok(!result.events.some((e) => e.type === 'PodDeletionStarted'));
      }
    });

    it('tolerating every NoExecute taint changes nothing: it is not told tolerationSeconds would have it replaced', () => {
      const tolerant = mirror('  annotations: {kubernetes.io/config.mirror: abc123}\n').replace('  nodeName: worker-a1\n', '  nodeName: worker-a1\n  tolerations: [{operator: Exists, effect: NoExecute}]\n');
      const summary = run([tolerant], { targets: ['node/worker-a1'], durationMs: 10 * MINUTE }).summary.workloads[0];
      assert.equal(summary.outcome, 'waits-for-node');
      assert.match(reasonOf(summary), /^etcd-worker-a1 is the mirror of a static pod: only the kubelet of worker-a1 runs it .*\(the mirror object in the API: Running\)\.$/);
    });

    it('when the node returns the outcome is "recovered" (the kubelet runs the static pod again)', () => {
      const result = run([annotated], { targets: ['node/worker-a1'], durationMs: 10 * MINUTE, recoverAfterMs: 7 * MINUTE });
      const summary = result.summary.workloads[0];
      assert.equal(summary.outcome, 'recovered');
      assert.match(reasonOf(summary), /worker-a1 is back, and its kubelet runs the static pod again and recreates the mirror object/);
      // The mirror object was never evicted; back at 7m, the kubelet runs the pod again under the same object.
      assert.deepEqual(result.events.filter((e) => e.type === 'PodCreated' && e.t > 0), []);
      assert.ok(summary.unavailableMs >= 7 * MINUTE && summary.unavailableMs < 7 * MINUTE + 10_000, `down ${summary.unavailableMs} ms`);
    });

    it('after a graceful shutdown and a reboot it runs again: its manifest file has no terminal status (the timeline agrees with "recovered")', () => {
      const set = { 'kubelet.shutdownGracePeriod': '30s', 'kubelet.shutdownGracePeriodCriticalPods': '10s' };
      const result = run([annotated], { failure: 'graceful-shutdown', targets: ['node/worker-a1'], durationMs: 10 * MINUTE, recoverAfterMs: 3 * MINUTE, set, version: '1.31' });
      const states = result.states.filter((s) => s.object.name === 'etcd-worker-a1').map((s) => s.status);
      assert.equal(states[1], 'Completed');
      assert.equal(states.at(-1), 'Running');
      assert.equal(result.summary.workloads[0].outcome, 'recovered');
    });
  });
});
