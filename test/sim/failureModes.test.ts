/**
 * The failure modes beyond a dead node (SEMANTICS.md 2.4, 11, 13.5, 18), each as a story with
 * the times the spec gives, and the honest outcomes of the summary.
 */
import * as assert from 'node:assert/strict';
import { simulate, type SimulationResult } from '../../src/sim/simulate';
import { daemonSet, deployment, firstTime, is, messageOf, reasonOf, run, scenarioOf, service } from './support';

const MINUTE = 60_000;
// Upper ends of the latencies SEMANTICS.md 13.1 names (watch, write) and the simulator's pass duration.
const WATCH = 100;
const WRITE = 50;
const PASS = 20;
const TAINT_LOOP = 100;
const STATUS_SYNC = 10_400; // nodeStatusUpdateFrequency 10 s with 4 % jitter

const statefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: truth}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: postgres:16}]
`;
const bare = 'apiVersion: v1\nkind: Pod\nmetadata: {name: solo, namespace: truth}\nspec:\n  containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n';
const summaryOf = (result: SimulationResult, name: string) => result.summary.workloads.find((w) => w.object.name === name)!;
const on = (node: string) => ({ targets: [`node/${node}`] });

describe('failure modes', () => {
  describe('kubelet-not-ready: the runtime is down, the lease stays fresh (SEMANTICS.md 13.5, 18)', () => {
    const result = run([deployment('web', 1), service('web')], { failure: 'kubelet-not-ready', ...on('worker-a1'), durationMs: 8 * MINUTE });
    const notReady = firstTime(result, (e) => e.type === 'NodeCondition' && e.object.name === 'worker-a1' && e.detail?.status === 'False')!;

    it('the kubelet posts Ready=False (KubeletNotReady) at the status sync after it notices: its last good runtime check 30 s old (25–30 s); the node never goes Unknown', () => {
      assert.ok(notReady >= 25_000 && notReady <= 30_000 + STATUS_SYNC + WRITE, `Ready=False at ${notReady}`);
      assert.equal(result.events.find((e) => e.type === 'NodeCondition' && e.detail?.status === 'False')!.reason, 'KubeletNotReady');
      assert.equal(firstTime(result, is.nodeUnknown('worker-a1')), null);
    });

    it('not-ready:NoSchedule at once, not-ready:NoExecute in the pass that first sees Ready=False', () => {
      const noSchedule = firstTime(result, is.taint('worker-a1', 'node.kubernetes.io/not-ready', 'NoSchedule'))!;
      const noExecute = firstTime(result, is.taint('worker-a1', 'node.kubernetes.io/not-ready', 'NoExecute'))!;
      assert.ok(noSchedule - notReady >= 0 && noSchedule - notReady <= WATCH + WRITE, `NoSchedule ${noSchedule - notReady} ms after`);
      // Same pass: at most one monitor period (5 s) plus the pass, the 100 ms loop and a write; the recording saw 1–3.5 s.
      assert.ok(noExecute - notReady >= 0 && noExecute - notReady <= 5000 + PASS + TAINT_LOOP + WATCH + WRITE, `NoExecute ${noExecute - notReady} ms after`);
      assert.equal(firstTime(result, is.taint('worker-a1', 'node.kubernetes.io/unreachable', 'NoExecute')), null);
    });

    it('pods are never marked NotReady by the controller: endpoints stay ready until the deletion 300 s after the taint', () => {
      const web = summaryOf(result, 'web');
      // Ready=False only when the kubelet stops the deleted pod, never at the node's transition.
      assert.ok(web.podsNotReadyMs! > web.podDeletionMs!, `pods NotReady at ${web.podsNotReadyMs}`);
      assert.ok(!result.events.some((e) => e.type === 'PodCondition' && e.reason === 'NodeNotReady'));
      const noExecute = firstTime(result, is.taint('worker-a1', 'node.kubernetes.io/not-ready', 'NoExecute'))!;
      assert.ok(web.podDeletionMs! - noExecute >= 300_000 && web.podDeletionMs! - noExecute <= 301_000, `${web.podDeletionMs! - noExecute}`);
      const endpointChanges = result.events.filter((e) => e.type === 'EndpointChanged' && e.t >= 0 && e.object.name === 'web' && !e.detail?.added);
      const first = endpointChanges[0];
      assert.ok(first.t >= web.podDeletionMs!, `the endpoint first changes at ${first.t}`);
      assert.deepEqual([first.detail?.ready, first.detail?.serving, first.detail?.terminating], [false, true, true]);
      // Down only from the stop of the old pod to the replacement's Ready: with no ready endpoint left
      // kube-proxy routes to the serving terminating one (ProxyTerminatingEndpoints, SEMANTICS.md 9)
      // until the live kubelet stops it; then, for the milliseconds until its object goes, to nothing.
      assert.ok(web.unavailableMs > 0 && web.unavailableMs < 10_000, `down ${web.unavailableMs} ms`);
      assert.ok(web.blackholeMs < 100, `black-holed ${web.blackholeMs} ms`);
      // Before the fallback (1.25) down from the deletion itself: longer by the old pod's stop.
      const old = summaryOf(run([deployment('web', 1), service('web')], { failure: 'kubelet-not-ready', ...on('worker-a1'), durationMs: 8 * MINUTE, version: '1.25' }), 'web');
      assert.ok(old.unavailableMs > web.unavailableMs + 500, `down ${old.unavailableMs} ms on 1.25, ${web.unavailableMs} ms now`);
      // A headless Service has no kube-proxy: DNS answers with ready endpoints only, so no fallback either.
      const headless = summaryOf(run([deployment('web', 1), service('web').replace('spec: {', 'spec: {clusterIP: None, ')], { failure: 'kubelet-not-ready', ...on('worker-a1'), durationMs: 8 * MINUTE }), 'web');
      // (the same down time but for the endpoint writes' latencies)
      assert.ok(Math.abs(headless.unavailableMs - old.unavailableMs) <= WATCH + WRITE, `headless ${headless.unavailableMs} ms, 1.25 ${old.unavailableMs} ms`);
    });

    it('the live kubelet removes the deleted pods within seconds, so the StatefulSet recreates db-0', () => {
      const result = run([statefulSet], { failure: 'kubelet-not-ready', targets: ['StatefulSet/db'], durationMs: 8 * MINUTE });
      const deleted = firstTime(result, is.podDeleting('db-0'))!;
      const removed = firstTime(result, is.podRemoved('db-0'))!;
      assert.ok(removed - deleted > 0 && removed - deleted <= 1000 + 3 * (WATCH + WRITE), `removed ${removed - deleted} ms after`);
      assert.equal(result.events.filter((e) => e.type === 'PodCreated' && e.object.name === 'db-0').length, 1);
      assert.equal(summaryOf(result, 'db').outcome, 'replaced');
      assert.ok(result.events.some((e) => e.type === 'Note' && e.reason === 'Assumption' && e.detail?.knob === 'sim.notReadyPodsKeepServing'));
    });

    it('assumed otherwise (sim.notReadyKubeletSyncsPods=false, a kubelet whose runtime is down skips pod sync): db-0 stays Terminating until the runtime is back', () => {
      const set = { 'sim.notReadyKubeletSyncsPods': 'false' };
      const result = run([statefulSet], { failure: 'kubelet-not-ready', targets: ['StatefulSet/db'], durationMs: 8 * MINUTE, set });
      assert.ok(firstTime(result, is.podDeleting('db-0'))! > 0);
      assert.equal(firstTime(result, is.podRemoved('db-0')), null);
      const db = summaryOf(result, 'db');
      assert.equal(db.outcome, 'stuck');
      assert.match(reasonOf(db), /^db-0 stays Terminating on worker-\w\d, whose kubelet stops no pod while its container runtime is down, a StatefulSet never creates a second db-0/);
      assert.ok(result.events.some((e) => e.type === 'Note' && e.reason === 'Assumption' && e.detail?.knob === 'sim.notReadyKubeletSyncsPods' && e.detail.value === false));
      // The runtime back at 7 min: the kubelet carries out the deletion, and the StatefulSet creates db-0 again.
      const back = run([statefulSet], { failure: 'kubelet-not-ready', targets: ['StatefulSet/db'], recoverAfterMs: 7 * MINUTE, durationMs: 10 * MINUTE, set });
      const removed = firstTime(back, is.podRemoved('db-0'))!;
      assert.ok(removed > 7 * MINUTE && removed < 7 * MINUTE + 45_000, `removed at ${removed}`);
      assert.equal(summaryOf(back, 'db').outcome, 'replaced');
    });

    it('with a ReadWriteOnce claim: the live kubelet unmounts, so the volume detaches at once (no 6-minute force detach) and db-0 runs elsewhere', () => {
      const claim = '  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
      const result = run([statefulSet + claim], { failure: 'kubelet-not-ready', targets: ['StatefulSet/db'], durationMs: 8 * MINUTE });
      const removed = firstTime(result, is.podRemoved('db-0'))!;
      const detached = result.events.find((e) => e.type === 'VolumeDetached')!;
      assert.equal(detached.detail?.cause, 'unmounted');
      assert.ok(detached.t - removed <= 1000 + 3 * (WATCH + WRITE), `detached ${detached.t - removed} ms after the pod object went`);
      const db = summaryOf(result, 'db');
      assert.equal(db.outcome, 'replaced');
      assert.ok(db.replacementReadyMs! - removed < MINUTE, `Ready ${db.replacementReadyMs! - removed} ms after`);
    });

    it('when the runtime returns before the eviction, the taints go and nothing is replaced', () => {
      const back = run([deployment('web', 1)], { failure: 'kubelet-not-ready', recoverAfterMs: 2 * MINUTE, durationMs: 8 * MINUTE });
      const web = summaryOf(back, 'web');
      assert.equal(web.outcome, 'recovered');
      assert.equal(web.podDeletionMs, null);
      assert.ok(back.events.some((e) => e.type === 'TaintRemoved' && e.detail?.key === 'node.kubernetes.io/not-ready' && e.detail?.effect === 'NoExecute'));
    });

    it('with the assumption turned off, the pods stop answering while the API still routes to them', () => {
      const off = run([deployment('web', 1), service('web')], { failure: 'kubelet-not-ready', durationMs: 3 * MINUTE, set: { 'sim.notReadyPodsKeepServing': 'false' } });
      const web = summaryOf(off, 'web');
      assert.equal(web.unavailableMs, 3 * MINUTE);
      assert.equal(web.blackholeMs, 3 * MINUTE);
      assert.equal(web.outcome, 'awaiting-eviction');
      assert.match(reasonOf(web), /has not been evicted yet/);
    });
  });

  describe('disk-failure: Ready but broken (SEMANTICS.md 11)', () => {
    const probes = `      containers:
      - name: c
        image: nginx
        readinessProbe: {httpGet: {path: /, port: 80}}
        livenessProbe: {httpGet: {path: /, port: 80}}
`;
    const probed = deployment('api', 1, '').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', probes);
    const result = run([probed, service('api'), deployment('plain', 1), service('plain')], { failure: 'disk-failure', targets: ['Deployment/api', 'Deployment/plain'], durationMs: 20 * MINUTE });

    it('the node stays Ready with no taints, and nothing is evicted or replaced', () => {
      assert.equal(result.events.filter((e) => e.t >= 0 && (e.type === 'NodeCondition' || e.type === 'TaintAdded' || e.type === 'PodDeletionStarted' || e.type === 'PodCreated')).length, 0);
    });

    it('the readiness probe fails after failureThreshold periods (21–31 s) and the endpoint goes', () => {
      const api = summaryOf(result, 'api');
      // SEMANTICS.md 10: U(0, period) + (F − 1)·period + timeout with the defaults 10 s, 3, 1 s.
      assert.ok(api.podsNotReadyMs! >= 21_000 && api.podsNotReadyMs! <= 31_000 + WRITE, `NotReady at ${api.podsNotReadyMs}`);
      const endpoint = result.events.find((e) => e.type === 'EndpointChanged' && e.object.name === 'api' && e.t >= 0)!;
      assert.equal(endpoint.detail?.ready, false);
      assert.ok(endpoint.t - api.podsNotReadyMs! <= WATCH + WRITE);
      // Until the EndpointSlice says not ready: kube-proxy routes by the slice, not by the pod.
      assert.equal(api.blackholeMs, endpoint.t);
    });

    it('the liveness probe restarts the hung container in a loop with a growing backoff (CrashLoopBackOff)', () => {
      const restarts = result.events.filter((e) => e.type === 'PodRestarted' && e.object.name.startsWith('api-')).map((e) => e.t);
      assert.ok(restarts.length >= 5, `${restarts.length} restarts`);
      // First restart at once after the kill, then 10 s, 20 s, 40 s ... of backoff on top of the probe's detection time.
      const gaps = restarts.slice(1).map((t, i) => t - restarts[i]);
      for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i] > gaps[i - 1] - 10_000, `gaps ${gaps}`);
      assert.ok(result.states.some((s) => s.object.name.startsWith('api-') && s.status === 'CrashLoopBackOff'));
      const api = summaryOf(result, 'api');
      assert.equal(api.outcome, 'stuck');
      assert.deepEqual([api.cause.kind, (api.cause as { podReady: boolean }).podReady], ['node-ready-but-broken', false]);
    });

    it('each restart after a back-off B waits for the pod worker\'s next look, every 10–15 s from the kill: B to B + 15 s after it, not exactly B', () => {
      const api = (e: { object: { name: string } }) => e.object.name.startsWith('api-');
      const kills = result.events.filter((e) => api(e) && e.type === 'PodStopped' && e.detail?.cause === 'liveness').map((e) => e.t);
      const starts = result.events.filter((e) => api(e) && e.type === 'PodRestarted').map((e) => e.t);
      assert.ok(kills.length >= 6, `${kills.length} kills`);
      // Each restart's write reaches the API after the kubelet's write latency.
      const waits = kills.slice(0, starts.length).map((kill, i) => starts[i] - kill - WRITE);
      const backOffs = waits.map((_, i) => (i === 0 ? 0 : Math.min(10_000 * 2 ** (i - 1), 300_000)));
      waits.forEach((wait, i) => assert.ok(wait >= backOffs[i] - WRITE && wait < backOffs[i] + 15_000 + WRITE, `restart ${i + 1}: ${wait} ms after its kill, back-off ${backOffs[i]} ms`));
      assert.ok(waits.slice(1).some((wait, i) => wait > backOffs[i + 1] + 1000), `restarts at their back-offs' ends exactly: ${waits}`);
    });

    it('the first liveness kill comes failureThreshold periods after the disk fails: initialDelaySeconds counts from a container\'s start, long past', () => {
      const delayed = deployment('slow', 1, '').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', probes.replace('livenessProbe: {httpGet: {path: /, port: 80}}', 'livenessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 20}'));
      const killed = run([delayed], { failure: 'disk-failure', durationMs: 5 * MINUTE }).events.find((e) => e.type === 'PodStopped' && e.detail?.cause === 'liveness')!;
      // SEMANTICS.md 10: U(0, period) + (F − 1)·period + timeout = 21–31 s, then the container's exit.
      assert.ok(killed.t >= 21_000 && killed.t <= 31_000 + 2 * WRITE, `killed at ${killed.t}`);
    });

    it('a healed disk does not cut the back-off short: the container starts again when it ends, in its sandbox, with its IP', () => {
      const healed = run([probed], { failure: 'disk-failure', durationMs: 15 * MINUTE, recoverAfterMs: 12 * MINUTE });
      const pod = healed.states.filter((s) => s.object.kind === 'Pod');
      const backOff = pod.filter((s) => s.status === 'CrashLoopBackOff' && s.from < 12 * MINUTE).at(-1)!;
      const restartedAfter = healed.events.find((e) => e.type === 'PodRestarted' && e.t > 12 * MINUTE)!;
      // By the 7th restart the back-off is at its 300 s cap; the container starts at its end (plus the start latency).
      assert.ok(restartedAfter.t - backOff.from >= 300_000, `restarted ${restartedAfter.t - backOff.from} ms after the back-off began`);
      assert.deepEqual([...new Set(pod.filter((s) => s.ip !== '<none>').map((s) => s.ip))].length, 1, 'one IP throughout');
      const [summary] = healed.summary.workloads;
      assert.deepEqual([summary.outcome, (summary.cause as { newIp: boolean }).newIp], ['recovered', false]);
    });

    it('a healed disk: the pod is Ready again at its readiness probe\'s next success, within one period', () => {
      const readinessOnly = deployment('api', 1, '').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', '      containers: [{name: c, image: nginx, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}}]\n');
      const readyAgain = [1, 2, 3, 4, 5].map((seed) => {
        const healed = run([readinessOnly], { failure: 'disk-failure', durationMs: 6 * MINUTE, recoverAfterMs: 3 * MINUTE, seed });
        return healed.events.find((e) => e.type === 'PodReady' && e.t > 3 * MINUTE)!.t - 3 * MINUTE;
      });
      assert.ok(readyAgain.every((ms) => ms >= 0 && ms <= 5000 + WRITE) && readyAgain.some((ms) => ms > 1000), `Ready ${readyAgain} ms after the disk healed`);
    });

    it('TCP probes keep passing: the kernel completes the handshake for the hung app, so it stays Ready and is never restarted (KFS023)', () => {
      const tcp = deployment('tcp', 1, '').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', probes.replace(/httpGet: \{path: \/, port: 80\}/g, 'tcpSocket: {port: 80}'));
      const hung = run([tcp, service('tcp')], { failure: 'disk-failure', durationMs: 10 * MINUTE });
      assert.equal(hung.events.filter((e) => e.t >= 0 && (e.type === 'PodRestarted' || e.type === 'PodStopped' || e.type === 'PodCondition')).length, 0);
      const summary = summaryOf(hung, 'tcp');
      assert.deepEqual([summary.outcome, summary.blackholeMs], ['stuck', 10 * MINUTE]);
    });

    const job = (restartPolicy: string) => `apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: truth}
spec:
  backoffLimit: 2
  template:
    spec:
      restartPolicy: ${restartPolicy}
      nodeSelector: {kubernetes.io/hostname: worker-a1}
      containers:
      - {name: c, image: app, livenessProbe: {exec: {command: [cat, /tmp/ok]}, periodSeconds: 5, failureThreshold: 1}}
`;

    it('restartPolicy Never: the container the liveness probe kills is not started again; the pod ends Failed and the Job replaces it', () => {
      const never = run([job('Never')], { failure: 'disk-failure', targets: ['node/worker-a1'], durationMs: 3 * MINUTE });
      assert.equal(never.events.filter((e) => e.type === 'PodRestarted').length, 0);
      const failed = never.events.filter((e) => e.type === 'PodFailed');
      assert.ok(failed.length >= 1 && failed[0].t < 10_000, `failed at ${failed.map((e) => e.t)}`);
      assert.ok(!never.states.some((s) => s.status === 'CrashLoopBackOff'));
      assert.ok(never.events.some((e) => e.type === 'PodCreated' && e.t > failed[0].t), 'a replacement');
    });

    it('restartPolicy OnFailure: the restarts count towards backoffLimit, and the Job fails when they reach it (pastBackoffLimitOnFailure)', () => {
      const onFailure = run([job('OnFailure')], { failure: 'disk-failure', targets: ['node/worker-a1'], durationMs: 5 * MINUTE });
      const restarts = onFailure.events.filter((e) => e.type === 'PodRestarted').map((e) => e.t);
      const jobFailed = onFailure.events.find((e) => e.reason === 'BackoffLimitExceeded')!;
      assert.equal(restarts.length, 2, `restarts at ${restarts}`);
      assert.ok(jobFailed.t > restarts[1] && jobFailed.t - restarts[1] < 1000, `failed ${jobFailed.t - restarts[1]} ms after the second restart`);
      assert.equal(onFailure.summary.workloads[0].cause.kind, 'job-failed');
    });

    it('assumed otherwise (sim.diskFailureRestartsHang=false): the restarted container passes its readiness probe and serves again', () => {
      const answers = run([probed, service('api')], { failure: 'disk-failure', durationMs: 5 * MINUTE, set: { 'sim.diskFailureRestartsHang': 'false' } });
      const restarted = answers.events.filter((e) => e.type === 'PodRestarted').map((e) => e.t);
      assert.equal(restarted.length, 1, `restarts at ${restarted}`);
      const readyAgain = answers.events.find((e) => e.type === 'PodReady' && e.t > restarted[0])!;
      // The readiness probe's first success after the start: within one period (10 s).
      assert.ok(readyAgain.t - restarted[0] <= 10_000 + WRITE, `Ready ${readyAgain.t - restarted[0]} ms after the restart`);
      const api = summaryOf(answers, 'api');
      assert.equal(api.outcome, 'recovered');
      // Down from the hang to the endpoint the EndpointSlice controller marks ready again.
      assert.ok(api.unavailableMs! >= readyAgain.t && api.unavailableMs! <= readyAgain.t + WATCH + WRITE, `down ${api.unavailableMs}`);
      assert.match(reasonOf(api), /restarted it once, and the restarted container answers/);
    });

    it('with a startup probe, a restarted container that hangs is killed by it, after its own failureThreshold periods, not by the liveness probe', () => {
      const startup = deployment('slowstart', 1, '').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n',
        probes.replace('livenessProbe:', 'startupProbe: {httpGet: {path: /, port: 80}, failureThreshold: 12}\n        livenessProbe:'));
      const hung = run([startup], { failure: 'disk-failure', durationMs: 10 * MINUTE });
      const restarted = hung.events.filter((e) => e.type === 'PodRestarted').map((e) => e.t);
      const killed = hung.events.filter((e) => e.type === 'PodStopped').map((e) => e.t);
      assert.ok(restarted.length >= 2, `restarts at ${restarted}`);
      // The second kill: U(0, 10 s) + 11 periods + the 1 s timeout after the restart (liveness would take 21–31 s).
      const gap = killed[1] - restarted[0];
      assert.ok(gap >= 111_000 && gap <= 121_000 + 2 * WRITE, `killed ${gap} ms after its restart`);
      // A TCP startup probe the hung app passes (the kernel answers): the liveness probe goes on killing it.
      const tcpStartup = startup.replace('startupProbe: {httpGet: {path: /, port: 80}, failureThreshold: 12}', 'startupProbe: {tcpSocket: {port: 80}, failureThreshold: 12}');
      assert.ok(run([tcpStartup], { failure: 'disk-failure', durationMs: 10 * MINUTE }).events.filter((e) => e.type === 'PodRestarted').length >= 4);
      // A TCP readiness probe passes too: the restarted, hung pod is Ready again between kills (its traffic black-holed).
      const tcpReady = run([tcpStartup.replace('readinessProbe: {httpGet: {path: /, port: 80}}', 'readinessProbe: {tcpSocket: {port: 80}}')], { failure: 'disk-failure', durationMs: 6 * MINUTE });
      const firstRestart = tcpReady.events.find((e) => e.type === 'PodRestarted')!.t;
      assert.ok(tcpReady.events.some((e) => e.type === 'PodReady' && e.t > firstRestart), 'Ready after a restart');
    });

    it('a new pod on the failed disk hangs as a restarted container does: never Ready, its liveness probe kills it in a loop', () => {
      const pinned = probed.replace('    spec:\n      containers:', '    spec:\n      nodeSelector: {kubernetes.io/hostname: worker-a1}\n      containers:');
      const replaced = run([pinned, service('api')], { failure: 'disk-failure', targets: ['node/worker-a1'], durationMs: 8 * MINUTE, interventions: [{ kind: 'delete', target: 'Deployment/api', atMs: 2 * MINUTE }] });
      const fresh = replaced.events.find((e) => e.type === 'PodCreated' && e.t >= 2 * MINUTE)!.object.name;
      assert.ok(replaced.states.some((st) => st.object.name === fresh && st.status === 'Running'));
      assert.ok(!replaced.states.some((st) => st.object.name === fresh && st.ready === '1/1'), 'the new pod is never Ready');
      assert.ok(replaced.states.some((st) => st.object.name === fresh && st.status === 'CrashLoopBackOff'));
      // Its first kill waits for the liveness probe's failureThreshold periods from the start, not from the disk's failure.
      const started = replaced.states.find((st) => st.object.name === fresh && st.status === 'Running')!.from;
      const [firstRestart] = replaced.events.filter((e) => e.type === 'PodRestarted' && e.object.name === fresh).map((e) => e.t);
      assert.ok(firstRestart - started >= 20_000 && firstRestart - started <= 31_000 + 3 * WRITE + 1000, `first restart ${firstRestart - started} ms after the start`);
      assert.equal(summaryOf(replaced, 'api').outcome, 'stuck');
    });

    it('two replicas on the broken node: the summary names the first and counts the other', () => {
      const both = summaryOf(run([probed.replace('replicas: 1', 'replicas: 2')], { failure: 'disk-failure', placement: 'worst', durationMs: 5 * MINUTE }), 'api');
      assert.equal(both.cause.kind, 'node-ready-but-broken');
      assert.equal(both.cause.alsoWaiting, 1);
      assert.match(reasonOf(both), /no controller evicts or replaces api-\S+: .* One more of its pods stays bound to a failed node too\.$/);
      assert.equal(summaryOf(result, 'api').cause.alsoWaiting, undefined);
    });

    it('without probes the pod stays Ready in the API: traffic is black-holed for the whole run', () => {
      const plain = summaryOf(result, 'plain');
      assert.equal(plain.outcome, 'stuck');
      assert.equal(plain.blackholeMs, 20 * MINUTE);
      assert.equal(plain.unavailableMs, 20 * MINUTE);
      assert.match(reasonOf(plain), /stays Ready .*no controller evicts or replaces .*still looks Ready, so any Service in front of it keeps sending it traffic/);
    });
  });

  describe('graceful-shutdown: the kubelet stops its pods first (SEMANTICS.md 2.4)', () => {
    const set = { 'kubelet.shutdownGracePeriod': '30s', 'kubelet.shutdownGracePeriodCriticalPods': '10s' };
    // Placed first for its system priority, on worker-a2: web goes to worker-a1, the node tainted first.
    const critical = deployment('agent', 1, '      priorityClassName: system-node-critical\n      nodeSelector: {kubernetes.io/hostname: worker-a2}\n');
    // The nodes of web, db and agent shut down together.
    const result = run([deployment('web', 1), statefulSet, critical, daemonSet],
      { failure: 'graceful-shutdown', targets: ['node/worker-a2', 'Deployment/web', 'StatefulSet/db'], durationMs: 10 * MINUTE, set, version: '1.31' });

    it('Ready=False "node is shutting down" at once', () => {
      const ready = result.events.find((e) => e.type === 'NodeCondition' && e.object.name === 'worker-a1' && e.t >= 0)!;
      assert.deepEqual([ready.detail?.status, ready.detail?.message], ['False', 'node is shutting down']);
      assert.ok(ready.t <= 2 * WRITE);
    });

    it('pods end Failed with reason Terminated and a DisruptionTarget; regular pods before critical ones', () => {
      const failed = result.events.filter((e) => e.type === 'PodFailed');
      const web = failed.find((e) => e.object.name.startsWith('web-'))!;
      const agent = failed.find((e) => e.object.name.startsWith('agent-'))!;
      assert.equal(web.detail?.reason, 'Terminated');
      // containerStopLatency 1 s (within the 20 s grace of regular pods), then the critical group.
      assert.ok(web.t >= 1000 && web.t <= 1000 + 2 * WRITE, `web Failed at ${web.t}`);
      assert.ok(agent.t >= 2000 && agent.t <= 2000 + 2 * WRITE, `agent Failed at ${agent.t}`);
      assert.ok(result.events.some((e) => e.type === 'PodCondition' && e.reason === 'TerminationByKubelet' && e.object.name === web.object.name));
      assert.match(messageOf(result.events.find((e) => e.reason === 'TerminationByKubelet')!), /Pod was terminated in response to imminent node shutdown\./);
    });

    it('kubectl shows Error for a container killed at the end of its grace (a shell as PID 1), Completed for one that stops on SIGTERM', () => {
      const shell = deployment('shell', 1, '      nodeSelector: {kubernetes.io/hostname: worker-a1}\n').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', '      containers: [{name: c, image: app, command: [sh, -c, "cd /srv && python app.py"]}]\n');
      const stopped = run([deployment('web', 1), shell], { failure: 'graceful-shutdown', targets: ['node/worker-a1', 'Deployment/web'], durationMs: MINUTE, set, version: '1.31' });
      const statusOf = (prefix: string) => stopped.states.filter((s) => s.object.name.startsWith(prefix) && s.from >= 0).map((s) => s.status);
      assert.ok(statusOf('shell-').includes('Error'), statusOf('shell-').join());
      assert.ok(statusOf('web-').includes('Completed'), statusOf('web-').join());
      // sleep as PID 1 has no SIGTERM handler: it is killed at the end of its grace too.
      const sleeper = deployment('sleeper', 1, '      nodeSelector: {kubernetes.io/hostname: worker-a1}\n').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', '      containers: [{name: c, image: busybox, command: [sleep, "3600"]}]\n');
      const slept = run([sleeper], { failure: 'graceful-shutdown', targets: ['node/worker-a1'], durationMs: MINUTE, set, version: '1.31' });
      const failedAt = slept.events.find((e) => e.type === 'PodFailed')!.t;
      assert.ok(failedAt >= 19_000 && failedAt <= 20_100, `stopped at ${failedAt} ms, the regular pods' 20 s`);
      assert.ok(slept.states.some((st) => st.object.name.startsWith('sleeper-') && st.status === 'Error'));
      // A run-to-completion container stopped by SIGTERM is taken to have no handler (exit 143), as when its pod is deleted.
      const batch = 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      nodeSelector: {kubernetes.io/hostname: worker-a1}\n      containers: [{name: c, image: app}]\n';
      const job = run([batch], { failure: 'graceful-shutdown', targets: ['node/worker-a1'], durationMs: MINUTE, set, version: '1.31' });
      assert.ok(job.states.some((st) => st.object.name.startsWith('batch-') && st.status === 'Error'), job.states.filter((st) => st.object.kind === 'Pod').map((st) => st.status).join());
    });

    it('a system priority value counts as critical too (IsCriticalPod), like the system priority classes', () => {
      const byValue = deployment('agent', 1, '      priority: 2000001000\n      nodeSelector: {kubernetes.io/hostname: worker-a1}\n');
      const stopped = run([deployment('web', 1), byValue], { failure: 'graceful-shutdown', targets: ['node/worker-a1', 'Deployment/web'], durationMs: MINUTE, set, version: '1.31' });
      const agent = stopped.events.find((e) => e.type === 'PodFailed' && e.object.name.startsWith('agent-'))!;
      assert.ok(agent.t >= 2000, `agent Failed at ${agent.t}, with the critical group`);
    });

    it('the taint manager deletes the Failed pod 300 s after the NoExecute taint, and the API server removes a terminal pod at once (grace 0)', () => {
      const web = result.events.find((e) => e.type === 'PodFailed' && e.object.name.startsWith('web-'))!.object.name;
      const taint = result.events.find((e) => e.type === 'TaintAdded' && e.object.name === 'worker-a1' && e.detail?.effect === 'NoExecute')!.t;
      const removed = result.events.find((e) => e.type === 'PodRemoved' && e.object.name === web)!;
      assert.equal(removed.detail?.by, 'taint-eviction-controller');
      assert.ok(removed.t >= taint + 300_000 && removed.t <= taint + 300_000 + 3 * (WATCH + WRITE), `removed at ${removed.t}`);
      assert.ok(!result.events.some((e) => e.type === 'PodDeletionStarted' && e.object.name === web), 'no Terminating phase for a Failed pod');
      const last = result.states.filter((s) => s.object.name === web).at(-1)!;
      // kubectl shows the container's terminated reason: Completed for a program that exits on SIGTERM.
      assert.deepEqual([last.status, last.to], ['Completed', removed.t]);
    });

    it('the Deployment replaces at once and the StatefulSet deletes and recreates db-0; the DaemonSet pod waits for its node', () => {
      const web = summaryOf(result, 'web');
      assert.equal(web.outcome, 'replaced');
      assert.ok(web.replacementCreatedMs! < 1000 + 3 * (WATCH + WRITE), `replacement at ${web.replacementCreatedMs}`);
      assert.equal(summaryOf(result, 'db').outcome, 'replaced');
      assert.ok(summaryOf(result, 'db').replacementReadyMs! < 15_000);
      assert.equal(summaryOf(result, 'ds').outcome, 'waits-for-node');
    });

    it('no pod stays Running on the node once it is down; it goes Unknown after the grace period from its last heartbeat', () => {
      const running = result.states.filter((s) => s.node === 'worker-a1' && s.object.kind === 'Pod' && s.to === null && s.status === 'Running');
      assert.deepEqual(running, []);
      const unknown = firstTime(result, is.nodeUnknown('worker-a1'))!;
      // The kubelet releases its inhibitor lock once every pod has stopped (about 1 s here), and the host goes down then
      // (processShutdownEvent). Its last heartbeat is the status post that said it was shutting down: the controller notices
      // it at its next 5 s pass and writes Unknown at the first pass more than G later (SEMANTICS.md 13.1).
      const off = result.events.find((e) => e.reason === 'LastHeartbeat' && e.object.name === 'worker-a1')!;
      assert.ok(off.t < 5_000, `powered off at ${off.t}`);
      const heartbeat = Math.max(Number(off.detail?.lastLeaseRenewalMs), Number(off.detail?.lastStatusPostMs));
      assert.ok(unknown >= heartbeat + 40_000 && unknown <= heartbeat + 50_000 + PASS + WATCH + WRITE, `Unknown at ${unknown}, heartbeat at ${heartbeat}`);
      // Assumed otherwise (sim.shutdownHoldsGracePeriod=true), the host stays up for the whole shutdownGracePeriod.
      const held = run([deployment('web', 1)], { failure: 'graceful-shutdown', targets: ['node/worker-a1'], durationMs: 3 * MINUTE, set: { ...set, 'sim.shutdownHoldsGracePeriod': 'true' }, version: '1.31' });
      assert.equal(held.events.find((e) => e.reason === 'LastHeartbeat' && e.object.name === 'worker-a1')!.t, 30_000);
    });

    it('the summary says the replaced pod ended Failed (Terminated) at its time, and when the Failed object was deleted', () => {
      const web = summaryOf(result, 'web');
      const failed = result.events.find((e) => e.type === 'PodFailed' && e.object.name.startsWith('web-'))!;
      assert.ok(web.cause.kind === 'replaced');
      assert.deepEqual(web.cause.failed, { pod: failed.object.name, reason: 'Terminated', containerReason: 'Completed', atMs: failed.t });
      // The not-ready taint swapped for unreachable once the heartbeats stop keeps the eviction's clock: no taint added anew.
      assert.ok(result.events.some((e) => e.type === 'TaintAdded' && e.detail?.key === 'node.kubernetes.io/unreachable' && e.detail?.effect === 'NoExecute'));
      assert.equal(web.cause.retaintedMs, null);
      assert.match(reasonOf(web), /^Its pod on worker-a1 was stopped by the kubelet and ended Failed \(Terminated\) at 1\.0\d\ds and replaced on worker-\w\d, Ready at \d+\.\d+s; the Failed object was deleted at 5m2\.\d+s; down \d+\.\d+s in all\.$/);
    });

    it('a node back before its shutdown ends: the shutdown is cancelled, its pods stay Failed and the node is Ready once they are stopped', () => {
      const slow = deployment('slow', 1, '      terminationGracePeriodSeconds: 60\n').replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', '      containers: [{name: c, image: busybox, command: [sleep, "3600"]}]\n');
      const cancelled = run([slow], { failure: 'graceful-shutdown', targets: ['node/worker-a1'], durationMs: 5 * MINUTE, recoverAfterMs: 5000, set: { 'kubelet.shutdownGracePeriod': '60s', 'kubelet.shutdownGracePeriodCriticalPods': '0s' }, version: '1.31' });
      const stopped = cancelled.events.find((e) => e.type === 'PodFailed' && e.object.name.startsWith('slow-'))!;
      assert.ok(stopped.t > 50_000, `stopped at ${stopped.t}`);
      const ready = cancelled.events.filter((e) => e.type === 'NodeCondition' && e.object.name === 'worker-a1').map((e) => [e.t, e.detail?.status]);
      assert.equal(ready.at(-1)![1], 'True');
      assert.ok(Number(ready.at(-1)![0]) >= stopped.t && Number(ready.at(-1)![0]) <= stopped.t + 11_000, `Ready at ${ready.at(-1)![0]}`);
      // The host never powers off, and the returned node's event says the shutdown was cancelled.
      assert.ok(!cancelled.events.some((e) => e.reason === 'LastHeartbeat'));
      assert.equal(cancelled.events.find((e) => e.reason === 'NodeReturned')!.detail?.cancelled, true);
    });

    it('a bare Pod stopped by the shutdown is "lost": Failed, deleted by the taint manager, not restarted when the node returns', () => {
      const back = run([bare], { failure: 'graceful-shutdown', durationMs: 10 * MINUTE, recoverAfterMs: 7 * MINUTE, set, version: '1.31' });
      const solo = summaryOf(back, 'solo');
      assert.equal(solo.outcome, 'lost');
      // A terminal pod is removed as soon as the taint manager deletes it, 300 s after the NoExecute taint (pkg/registry/core/pod/strategy.go CheckGracefulDelete).
      const removed = firstTime(back, is.podRemoved('solo'))!;
      assert.ok(removed >= 5 * MINUTE && removed <= 5 * MINUTE + 2000 + 3 * (WATCH + WRITE), `removed at ${removed}`);
      assert.ok(solo.cause.kind === 'bare-pod-lost' && !solo.cause.removedByKubelet);
      assert.match(reasonOf(solo), /^A bare Pod is never recreated: solo ended Failed \(Terminated\) on worker-a1 at 1\.0\d\ds and is not restarted; its object was deleted at 5m2\.\d+s, and nothing runs it again although worker-a1 is Ready again; run it under a Deployment or StatefulSet\.$/);
    });

    it('in 1.20 the feature gate is off (alpha): the node goes down like a power-off, whatever shutdownGracePeriod says', () => {
      const alpha = run([deployment('web', 1)], { failure: 'graceful-shutdown', durationMs: MINUTE, set, version: '1.20' });
      assert.equal(alpha.events.filter((e) => e.type === 'PodFailed').length, 0);
      assert.match(messageOf(alpha.events.find((e) => e.reason === 'GracefulShutdownInert')!), /^In Kubernetes 1\.20 graceful node shutdown is alpha/);
    });

    it('before 1.22 the reason was Shutdown', () => {
      const old = run([deployment('web', 1)], { failure: 'graceful-shutdown', durationMs: MINUTE, set, version: '1.21' });
      assert.equal(old.events.find((e) => e.type === 'PodFailed')!.detail?.reason, 'Shutdown');
    });

    it('shutdownGracePeriodByPodPriority turns it on too: the groups\' seconds add up, those from system-critical priority up are the critical part', () => {
      const kubelet = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriodByPodPriority:\n- {priority: 0, shutdownGracePeriodSeconds: 60}\n- {priority: 2000000000, shutdownGracePeriodSeconds: 20}\n';
      const scenario = scenarioOf([kubelet, deployment('web', 1)], { failure: 'graceful-shutdown', durationMs: MINUTE, version: '1.31' });
      const { shutdownGracePeriod, shutdownGracePeriodCriticalPods } = scenario.timing.kubelet;
      assert.deepEqual([shutdownGracePeriod.value, shutdownGracePeriodCriticalPods.value, shutdownGracePeriod.source], [80_000, 20_000, 'doc0.yaml:4']);
      const stopped = simulate(scenario);
      assert.ok(!stopped.events.some((e) => e.reason === 'GracefulShutdownInert'));
      assert.ok(stopped.events.find((e) => e.type === 'PodFailed')!.t < 2000);
    });

    it('with shutdownGracePeriod 0 (the default) the feature is inert: the node goes down like a power-off', () => {
      const inert = run([deployment('web', 1)], { failure: 'graceful-shutdown', durationMs: 8 * MINUTE });
      assert.ok(inert.events.some((e) => e.type === 'Note' && e.reason === 'GracefulShutdownInert'));
      // The shutdown's own assumption does not apply, and the fault does not claim the kubelet stops pods.
      assert.ok(!inert.events.some((e) => e.reason === 'Assumption'));
      assert.equal(messageOf(inert.events.find((e) => e.type === 'Fault')!), 'worker-a1 shutting down, unnoticed by its kubelet: the host powers off');
      assert.equal(inert.events.filter((e) => e.type === 'PodFailed').length, 0);
      assert.ok(summaryOf(inert, 'web').podDeletionMs! > 5 * MINUTE);
    });
  });

  describe('a live kubelet stopping a pod waits for its preStop hook, and for the grace period under a shell (SEMANTICS.md 10)', () => {
    const stateful = (containers: string) => statefulSet.replace('      containers: [{name: c, image: postgres:16}]\n', `      terminationGracePeriodSeconds: 90\n${containers}`);
    const removedAfterReturn = (containers: string) => {
      const result = run([stateful(containers)], { failure: 'partition', targets: ['StatefulSet/db'], recoverAfterMs: 7 * MINUTE, durationMs: 12 * MINUTE });
      return firstTime(result, is.podRemoved('db-0'))! - 7 * MINUTE;
    };

    it('a preStop sleep 60 of a 90 s grace: the object goes about 61 s after the partition heals, not 1 s', () => {
      const afterMs = removedAfterReturn('      containers:\n      - name: c\n        image: redis\n        lifecycle: {preStop: {exec: {command: [sh, -c, "sleep 60"]}}}\n');
      assert.ok(afterMs >= 61_000 && afterMs <= 61_000 + 3 * (WATCH + WRITE) + 1000, `removed ${afterMs} ms after the return`);
      assert.ok(removedAfterReturn('      containers: [{name: c, image: redis}]\n') < 3000, 'a program that stops on SIGTERM goes at once');
    });

    it('a shell as PID 1 ignores SIGTERM: the whole grace period; a preStop longer than the grace gets 2 s more', () => {
      const shell = removedAfterReturn('      containers: [{name: c, image: app, command: [sh, -c, "cd /srv && python app.py"]}]\n');
      assert.ok(shell >= 90_000 && shell <= 90_000 + 3 * (WATCH + WRITE) + 1000, `removed ${shell} ms after the return`);
      const long = removedAfterReturn('      containers:\n      - name: c\n        image: redis\n        lifecycle: {preStop: {sleep: {seconds: 120}}}\n');
      assert.ok(long >= 92_000 && long <= 92_000 + 3 * (WATCH + WRITE) + 1000, `removed ${long} ms after the return`);
    });

    it('in a graceful shutdown a preStop sleep takes its time within the group\'s grace', () => {
      const set = { 'kubelet.shutdownGracePeriod': '30s', 'kubelet.shutdownGracePeriodCriticalPods': '10s' };
      const hook = deployment('web', 1).replace('      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n', '      containers:\n      - name: c\n        image: nginx\n        lifecycle: {preStop: {exec: {command: [sleep, "15"]}}}\n');
      const failed = run([hook], { failure: 'graceful-shutdown', targets: ['Deployment/web'], durationMs: MINUTE, set, version: '1.31' }).events.find((e) => e.type === 'PodFailed')!;
      assert.ok(failed.t >= 15_000 && failed.t <= 15_000 + 2 * WRITE + 1000, `Failed at ${failed.t}`);
    });
  });

  it('kubectl delete of a pod on a healthy node is what the summary tells for its workload: when and where, and its replacement', () => {
    const result = run([deployment('web', 1), statefulSet], { targets: ['Deployment/web'], durationMs: 3 * MINUTE, interventions: [{ kind: 'delete', target: 'db-0', atMs: 10_000 }] });
    const db = summaryOf(result, 'db');
    assert.equal(db.podDeletionMs, 10_000);
    assert.equal(db.outcome, 'replaced');
    assert.match(reasonOf(db), /^Its pod on worker-\S+ was deleted at 10s and replaced on worker-/);
  });

  describe('zone-outage', () => {
    it('--target zone/NAME powers off every node of the zone; FullDisruption; nodes tainted 10 s apart', () => {
      const result = run([daemonSet], { failure: 'zone-outage', targets: ['zone/zone-b'], durationMs: 3 * MINUTE, version: '1.36' });
      assert.deepEqual(result.summary.failedNodes, ['worker-b1', 'worker-b2']);
      assert.ok(result.events.some((e) => e.type === 'Note' && e.reason === 'FullDisruption' && e.detail?.zone === 'zone-b'));
      const taints = result.events.filter((e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute').map((e) => e.t);
      assert.equal(taints.length, 2);
      assert.ok(taints[1] - taints[0] >= 9900 && taints[1] - taints[0] <= 10_150, `${taints}`);
    });

    it('without a target, the zone of the first workload\'s first pod', () => {
      const result = run([deployment('web', 1)], { failure: 'zone-outage', durationMs: MINUTE });
      assert.deepEqual(result.summary.failedNodes, ['worker-a1', 'worker-a2']);
    });
  });

  describe('honest outcomes', () => {
    it('a bare Pod deleted while its node was down is "lost" once the node returns and the kubelet removes the object', () => {
      const result = run([bare], { durationMs: 10 * MINUTE, recoverAfterMs: 7 * MINUTE });
      const solo = summaryOf(result, 'solo');
      assert.equal(solo.outcome, 'lost');
      const removed = firstTime(result, is.podRemoved('solo'))!;
      assert.ok(removed >= 7 * MINUTE && removed <= 7 * MINUTE + 3 * (WATCH + WRITE), `removed at ${removed}`);
      assert.ok(solo.cause.kind === 'bare-pod-lost' && solo.cause.removedMs === removed && solo.cause.removedByKubelet && solo.cause.nodeBack);
      assert.match(reasonOf(solo), /^A bare Pod is never recreated: solo was deleted at 5m4\d\.\d+s; its object was removed at 7m0\.\d+s by the kubelet of worker-a1, and nothing runs it again although worker-a1 is Ready again; run it under a Deployment or StatefulSet\.$/);
    });

    it('staggered failures: a pod whose node came back in time is not counted among the replaced ones', () => {
      // Three replicas spread over the nodes; worker-b1 fails a minute after worker-a1, which returns at 2m, before any eviction.
      const targets = ['node/worker-a1', 'node/worker-b1'];
      const result = run([deployment('web', 3)], { targets, failAtMs: { 'node/worker-b1': MINUTE }, recoverAfterMsByTarget: { 'node/worker-a1': 2 * MINUTE }, durationMs: 10 * MINUTE });
      const web = summaryOf(result, 'web');
      const onNode = (node: string) => result.states.find((s) => s.object.kind === 'Pod' && s.from <= 0 && s.node === node)!.object.name;
      assert.equal(firstTime(result, is.podDeleting(onNode('worker-a1'))), null);
      assert.notEqual(firstTime(result, is.podDeleting(onNode('worker-b1'))), null);
      assert.equal(web.outcome, 'replaced');
      assert.ok(web.cause.kind === 'replaced');
      assert.deepEqual([web.cause.pods, web.cause.nodes, web.cause.backOn], [1, ['worker-b1'], ['worker-a1']]);
      // worker-b1's pod goes tolerationSeconds (300 s) after its node's NoExecute taint, itself about 40 s after its failure at 1m.
      assert.ok(web.podDeletionMs! > 6 * MINUTE && web.podDeletionMs! < 7 * MINUTE, `deleted at ${web.podDeletionMs}`);
      assert.match(reasonOf(web), /^Its pod on worker-b1 was deleted at 6m\d+\.\d+s and replaced on worker-\w+, Ready at 6m\d+\.\d+s; what ran on worker-a1 came back with the node; down 0s in all\.$/);
    });

    it('a bare Pod on a node that is still down stays Terminating after its deletion ("stuck")', () => {
      const result = run([bare], { durationMs: 10 * MINUTE });
      assert.equal(summaryOf(result, 'solo').outcome, 'stuck');
      assert.equal(reasonOf(summaryOf(result, 'solo')), 'A bare Pod is never recreated: solo stays Terminating on worker-a1 until the node returns; run it under a Deployment or StatefulSet.');
    });

    it('a pod that tolerates unreachable forever is "tolerated", even after 2 hours', () => {
      const forever = deployment('web', 1, '      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]\n');
      const result = run([forever], { durationMs: 120 * MINUTE });
      const web = summaryOf(result, 'web');
      assert.equal(web.outcome, 'tolerated');
      assert.equal(web.podDeletionMs, null);
      assert.match(reasonOf(web), /tolerates node\.kubernetes\.io\/unreachable:NoExecute forever .*never evicted/);
      assert.doesNotMatch(reasonOf(web), /simulate longer/);
      // A toleration longer than any run (int64's largest tolerationSeconds) is as good as forever; 7 days is not.
      const longest = run([deployment('web', 1, '      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 9223372036854775807}]\n')], { durationMs: 10 * MINUTE });
      assert.equal(summaryOf(longest, 'web').outcome, 'tolerated');
      assert.match(reasonOf(summaryOf(longest, 'web')), /tolerates node\.kubernetes\.io\/unreachable:NoExecute for longer than any run \(its tolerationSeconds is more than 7 days\): in effect it is never evicted/);
      const week = run([deployment('web', 1, '      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 604800}]\n')], { durationMs: 10 * MINUTE });
      assert.equal(summaryOf(week, 'web').outcome, 'awaiting-eviction');
    });

    it('a DaemonSet pod waits for its node whatever it tolerates, and says whether it still answers', () => {
      const result = run([daemonSet], { failure: 'kubelet-not-ready', durationMs: 8 * MINUTE, version: '1.36', targets: ['node/worker-a1'] });
      const ds = summaryOf(result, 'ds');
      assert.equal(ds.outcome, 'waits-for-node');
      assert.match(reasonOf(ds), /never evicted or moved and still answers on worker-a1/);
      // numberReady counts only nodes the DaemonSet should run on: the Ready pod on the tainted node is not counted (6/6, then 5/5, never 6/5).
      const readies = result.states.filter((s) => s.object.kind === 'DaemonSet').map((s) => s.ready);
      assert.deepEqual(readies, ['6/6', '5/5']);
    });

    it('a run that ends before the node is marked NotReady is "awaiting-eviction" (not noticed yet), not a Ready-but-broken node', () => {
      const short = summaryOf(run([deployment('web', 1)], { durationMs: 30_000 }), 'web');
      assert.equal(short.outcome, 'awaiting-eviction');
      assert.ok(short.cause.kind === 'not-noticed-yet' && short.cause.lastRenewalMs < 0, JSON.stringify(short.cause));
      assert.doesNotMatch(reasonOf(short), /keeps renewing|cordon/);
    });

    it('a pod with a time-limited toleration that has not run out is "awaiting-eviction"', () => {
      const result = run([deployment('web', 1)], { durationMs: 2 * MINUTE });
      assert.equal(summaryOf(result, 'web').outcome, 'awaiting-eviction');
    });

    it('pods Pending before the failure are reported apart from what the failure did', () => {
      const huge = deployment('big', 2, '      nodeSelector: {kubernetes.io/hostname: worker-c2}\n').replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: "3"}}}');
      const result = run([deployment('web', 1), huge], { durationMs: 2 * MINUTE });
      const big = summaryOf(result, 'big');
      assert.equal(big.outcome, 'unaffected');
      assert.equal(big.pendingBeforeFailure?.pods, 1);
      assert.match(reasonOf(big), /Apart from the failure: big-[a-z0-9-]+ was already Pending before it: 0\/6 nodes are available: .*Insufficient cpu/);
      assert.equal(summaryOf(result, 'web').pendingBeforeFailure, null);
      // Its times are what the failure did: short of desired before it, it lost nothing.
      assert.deepEqual([big.unavailableMs, big.degradedMs], [0, 0]);
      const none = summaryOf(run([deployment('web', 1), deployment('huge', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: "64"}}}')], { durationMs: 2 * MINUTE }), 'huge');
      assert.deepEqual([none.outcome, none.pendingBeforeFailure?.pods, none.unavailableMs, none.degradedMs], ['unaffected', 1, 0, 0]);
      // The pod it did serve with, lost to the failure (its replacement can only go back to the dead node): down for the whole run.
      const pinned = huge.replace('worker-c2', 'worker-a1');
      const lost = summaryOf(run([pinned], { targets: ['node/worker-a1'], durationMs: 2 * MINUTE }), 'big');
      assert.deepEqual([lost.pendingBeforeFailure?.pods, lost.unavailableMs, lost.degradedMs], [1, 2 * MINUTE, 2 * MINUTE]);
    });
  });
});
