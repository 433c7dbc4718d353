/**
 * The users' stories behind the product (../shared/seeds) and the recovery paths of
 * SEMANTICS.md 13.3 and 18, each as a scenario with the outcome written out.
 */
import * as assert from 'node:assert/strict';
import type { SimulationResult } from '../../src/sim/simulate';
import { daemonSet, deployment, firstTime, flatCluster, is, messageOf, reasonOf, run, statefulSet, withVolume, zonedCluster } from './support';

const summaryOf = (result: SimulationResult, name: string) => result.summary.workloads.find((w) => w.object.name === name)!;
const MINUTE = 60_000;

describe('stories: what happens to each kind of workload', () => {
  it('a StatefulSet pod on a powered-off node is never recreated: db-0 stays Terminating', () => {
    const result = run([statefulSet('db')], { durationMs: 30 * MINUTE });
    assert.ok(firstTime(result, is.podDeleting('db-0'))! > 5 * MINUTE);
    assert.equal(result.events.filter((e) => e.type === 'PodCreated').length, 0);
    const db = summaryOf(result, 'db');
    assert.equal(db.outcome, 'stuck');
    assert.match(reasonOf(db), /db-0 stays Terminating on the unreachable node .*never creates a second db-0.*force-delete.*out-of-service/);
    assert.equal(db.unavailableMs, 30 * MINUTE);
    const last = result.states.filter((s) => s.object.name === 'db-0').at(-1)!;
    assert.deepEqual([last.status, last.ready, last.to], ['Terminating', '1/1', null]);
  });

  it('... and in 1.25 the out-of-service taint releases nothing (its gate is off): the summary does not advise it', () => {
    const result = run([statefulSet('db')], { durationMs: 8 * MINUTE, version: '1.25', interventions: [{ kind: 'out-of-service', atMs: 3 * MINUTE }] });
    assert.equal(result.events.filter((e) => e.type === 'PodCreated').length, 0);
    assert.match(reasonOf(summaryOf(result, 'db')), /To release it, once you are sure the node is off \(a pod still running there would run twice\), force-delete the pod \(kubectl delete pod --force --grace-period=0\) or delete the Node object \(the out-of-service taint does nothing before Kubernetes 1\.26, its feature gate off\)\.$/);
  });

  it('... and behind a Service with publishNotReadyAddresses its endpoint stays ready: traffic is black-holed until the object goes', () => {
    const service = (publish: boolean) => `apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: shop}\nspec:\n  clusterIP: None\n  publishNotReadyAddresses: ${publish}\n  selector: {app: db}\n  ports: [{port: 5432}]\n`;
    const blackhole = (publish: boolean) => run([statefulSet('db'), service(publish)], { durationMs: 10 * MINUTE });
    const published = blackhole(true);
    // The EndpointSlice keeps db-0 ready=true (SEMANTICS.md 9): DNS and kube-proxy route to the dead pod all along.
    assert.ok(!published.events.some((e) => e.type === 'EndpointChanged' && e.t >= 0 && e.detail?.ready === false));
    assert.equal(summaryOf(published, 'db').blackholeMs, 10 * MINUTE);
    // Without it, only until the node lifecycle controller marks db-0 NotReady and the slice says so.
    const plainRun = blackhole(false);
    const plain = summaryOf(plainRun, 'db');
    assert.equal(plain.blackholeMs, firstTime(plainRun, (e) => e.type === 'EndpointChanged' && e.t >= 0 && e.detail?.ready === false));
    assert.ok(plain.blackholeMs - plain.podsNotReadyMs! <= 150, `${plain.blackholeMs - plain.podsNotReadyMs!} ms after the pod's Ready=False`);
  });

  it('... until someone force-deletes it: then db-0 is created again and runs elsewhere', () => {
    const result = run([statefulSet('db')], { durationMs: 30 * MINUTE, interventions: [{ kind: 'force-delete', target: 'db-0', atMs: 10 * MINUTE }] });
    const recreated = result.events.filter((e) => e.type === 'PodCreated' && e.object.name === 'db-0');
    assert.equal(recreated.length, 1);
    assert.ok(recreated[0].t > 10 * MINUTE && recreated[0].t < 10 * MINUTE + 1000, `recreated at ${recreated[0].t}`);
    const db = summaryOf(result, 'db');
    assert.equal(db.outcome, 'replaced');
    assert.ok(db.replacementReadyMs! > 10 * MINUTE && db.replacementReadyMs! < 10 * MINUTE + 10_000);
  });

  it('... or the node gets the out-of-service taint: pod GC removes db-0 within 20 s and its volume detaches at once', () => {
    const result = run([statefulSet('db', withVolume)], { durationMs: 30 * MINUTE, interventions: [{ kind: 'out-of-service', atMs: 10 * MINUTE }] });
    const removed = firstTime(result, is.podRemoved('db-0'))!;
    assert.ok(removed > 10 * MINUTE && removed <= 10 * MINUTE + 20_500, `removed at ${removed}`);
    const detached = result.events.find((e) => e.type === 'VolumeDetached')!;
    assert.match(messageOf(detached), /out-of-service/);
    assert.ok(detached.t - removed < 1000);
    const db = summaryOf(result, 'db');
    assert.equal(db.outcome, 'replaced');
    assert.ok(db.replacementReadyMs! < removed + 30_000, `ready at ${db.replacementReadyMs}`);
  });

  it('a replacement\'s SuccessfulCreate names the controller that creates it: a Deployment\'s pods come from the replicaset-controller', () => {
    const creators = (yaml: string) => run([yaml], { durationMs: 8 * 60_000 }).events.filter((e) => e.type === 'PodCreated' && e.t >= 0).map((e) => e.detail?.by);
    assert.deepEqual([...new Set(creators(deployment('web', 1)))], ['replicaset-controller']);
  });

  it('a hostNetwork DaemonSet pod has its node\'s IP, which a reboot does not change', () => {
    const hostNetwork = daemonSet.replace('    spec:\n', '    spec:\n      hostNetwork: true\n');
    const result = run([hostNetwork], { targets: ['node/worker-a1'], recoverAfterMs: 7 * MINUTE, durationMs: 10 * MINUTE });
    const onA1 = result.states.filter((s) => s.object.kind === 'Pod' && s.node === 'worker-a1' && s.ip !== '<none>').map((s) => s.ip);
    assert.deepEqual([...new Set(onA1)], ['10.0.0.4']);
    const onB1 = result.states.find((s) => s.object.kind === 'Pod' && s.node === 'worker-b1');
    assert.notEqual(onB1?.ip, '10.0.0.4');
    const ds = summaryOf(result, 'ds');
    assert.equal(ds.outcome, 'recovered');
    assert.match(reasonOf(ds), /restarted in place;/);
  });

  it('the out-of-service taint evicts at once: the summary does not speak of tolerationSeconds counted again from it', () => {
    const result = run([deployment('web', 1)], { durationMs: 10 * MINUTE, interventions: [{ kind: 'out-of-service', atMs: 2 * MINUTE }] });
    const web = summaryOf(result, 'web');
    assert.equal(web.outcome, 'replaced');
    assert.ok(web.podDeletionMs! >= 2 * MINUTE && web.podDeletionMs! < 2 * MINUTE + 1000, `deleted at ${web.podDeletionMs}`);
    assert.doesNotMatch(reasonOf(web), /tolerationSeconds|anew/);
  });

  it('a force-deleted StatefulSet pod with a ReadWriteOnce volume waits for the 6-minute force detach (Multi-Attach)', () => {
    const result = run([statefulSet('db', withVolume)], { durationMs: 30 * MINUTE, interventions: [{ kind: 'force-delete', target: 'StatefulSet/db', atMs: 8 * MINUTE }] });
    const multiAttach = result.events.find((e) => e.reason === 'FailedAttachVolume')!;
    assert.match(messageOf(multiAttach), /Multi-Attach error for volume "pvc-shop-data-db-0" Volume is already exclusively attached to one node and can't be attached to another/);
    const detached = result.events.find((e) => e.type === 'VolumeDetached')!;
    assert.match(messageOf(detached), /force detach after 6 minutes/);
    assert.ok(detached.t >= 14 * MINUTE && detached.t < 14 * MINUTE + 1000, `detached at ${detached.t}`);
    assert.equal(summaryOf(result, 'db').outcome, 'replaced');
  });

  it('a disk written in the pod spec (awsElasticBlockStore) attaches to one node at a time: the replacement waits for the force detach 6 minutes after the old pod is gone', () => {
    const inline = deployment('db', 1).replace('      containers:', '      volumes: [{name: data, awsElasticBlockStore: {volumeID: vol-0abc, fsType: ext4}}]\n      containers:');
    const result = run([inline], { durationMs: 30 * MINUTE, interventions: [{ kind: 'force-delete', target: 'Deployment/db', atMs: 8 * MINUTE }] });
    const multiAttach = result.events.find((e) => e.reason === 'FailedAttachVolume')!;
    assert.match(messageOf(multiAttach), /Multi-Attach error for volume "awsElasticBlockStore vol-0abc"/);
    const detached = result.events.find((e) => e.type === 'VolumeDetached')!;
    assert.ok(detached.t >= 14 * MINUTE && detached.t < 14 * MINUTE + 1000, `detached at ${detached.t}`);
    const db = summaryOf(result, 'db');
    assert.ok(db.replacementReadyMs! > detached.t, `Ready at ${db.replacementReadyMs}`);
    // CSI migration makes an EBS volume ReadWriteOnce even read-only; a read-only GCE disk ReadOnlyMany, and inline
    // iSCSI has no access mode at all: those two attach anywhere at once.
    const failedAttaches = (text: string) => run([text], { durationMs: 30 * MINUTE, interventions: [{ kind: 'force-delete', target: 'Deployment/db', atMs: 8 * MINUTE }] })
      .events.filter((e) => e.reason === 'FailedAttachVolume').length;
    assert.ok(failedAttaches(inline.replace('fsType: ext4', 'readOnly: true')) > 0);
    assert.equal(failedAttaches(inline.replace('awsElasticBlockStore: {volumeID: vol-0abc, fsType: ext4}', 'gcePersistentDisk: {pdName: models, readOnly: true}')), 0);
    assert.equal(failedAttaches(inline.replace('awsElasticBlockStore: {volumeID: vol-0abc, fsType: ext4}', "iscsi: {targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0}")), 0);
  });

  it('a template volume named like a volumeClaimTemplate mounts the per-pod claim instead (updateStorage): replicas do not share one ReadWriteOnce claim', () => {
    // The shape of kubernetes/examples' cockroachdb: a pod volume datadir with claimName datadir beside the claim template datadir.
    const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  serviceName: db
  replicas: 3
  podManagementPolicy: Parallel
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: cockroach}]
      volumes: [{name: datadir, persistentVolumeClaim: {claimName: datadir}}]
  volumeClaimTemplates:
  - metadata: {name: datadir}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;
    const result = run([sts], { durationMs: 2 * MINUTE });
    const running = result.states.filter((s) => s.object.kind === 'Pod' && s.from === 0 && s.status === 'Running');
    assert.deepEqual(running.map((s) => s.object.name).sort(), ['db-0', 'db-1', 'db-2']);
    assert.equal(result.events.filter((e) => e.reason === 'FailedAttachVolume').length, 0);
  });

  it('deleting the Node object does not start the 6-minute force detach: it starts once pod GC has made the old pod terminal (SEMANTICS.md 7.3)', () => {
    const pvc = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: truth}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    const app = deployment('app', 1, '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n');
    const result = run([pvc, app], { durationMs: 20 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 8 * MINUTE }] });
    const terminal = result.events.find((e) => e.type === 'PodCondition' && e.reason === 'DeletionByPodGC')!.t;
    assert.ok(terminal > 8 * MINUTE + 40_000, `pod GC at ${terminal}`);
    const detached = result.events.find((e) => e.type === 'VolumeDetached')!.t;
    assert.ok(detached >= terminal + 6 * MINUTE && detached <= terminal + 6 * MINUTE + 1000, `detached ${detached - terminal} ms after the pod went terminal`);
  });

  it('a node deleted, then registered again by its returning kubelet: the ReadWriteOnce volume detaches at once and the StatefulSet recovers', () => {
    const result = run([statefulSet('db', withVolume)], { durationMs: 20 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 7 * MINUTE }], recoverAfterMs: 9 * MINUTE });
    const registered = result.events.find((e) => e.reason === 'RegisteredNode')!.t;
    const detached = result.events.find((e) => e.type === 'VolumeDetached')!;
    assert.equal(detached.detail?.cause, 'unmounted');
    assert.ok(detached.t > registered && detached.t - registered < 2000, `detached ${detached.t - registered} ms after the node registered again`);
    const db = summaryOf(result, 'db');
    assert.equal(db.outcome, 'replaced');
    assert.ok(db.replacementReadyMs! < registered + 30_000, `Ready at ${db.replacementReadyMs}`);
  });

  it('a force-deleted StatefulSet pod whose volume waits for the force detach: the summary gives its time, or says it never comes when it is disabled', () => {
    const forceDeleted = { durationMs: 10 * MINUTE, interventions: [{ kind: 'force-delete' as const, target: 'db-0', atMs: 7 * MINUTE }] };
    const waiting = summaryOf(run([statefulSet('db', withVolume)], { ...forceDeleted, version: '1.29' }), 'db');
    assert.equal(waiting.outcome, 'stuck');
    assert.match(reasonOf(waiting), /the old pod object is gone, and the attach-detach controller force-detaches the volume 6 minutes later, at 13m0\.0\d+s, after the end of the run, unless the out-of-service taint/);
    assert.doesNotMatch(reasonOf(waiting), /force-delete the pod/);
    const disabled = summaryOf(run([statefulSet('db', withVolume)], { ...forceDeleted, durationMs: 20 * MINUTE, version: '1.30', set: { 'kcm.disable-force-detach-on-timeout': 'true' } }), 'db');
    assert.match(reasonOf(disabled), /--disable-force-detach-on-timeout, so it is never force-detached: only worker-\w+ coming back or the out-of-service taint .* releases it\.$/);
  });

  it('pod GC deletes the pods of a deleted Node, marking them Failed first only from 1.26 (PodDisruptionConditions)', () => {
    const failedStates = (version: string) => {
      const result = run([deployment('web', 1)], { durationMs: 5 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 2 * MINUTE }], version });
      assert.ok(result.events.some((e) => e.type === 'PodRemoved' && e.t > 2 * MINUTE), `${version}: the pod removed`);
      return result.states.filter((st) => st.object.kind === 'Pod' && st.status === 'Failed').length;
    };
    assert.equal(failedStates('1.25'), 0);
    assert.ok(failedStates('1.26') > 0);
  });

  it('a DaemonSet whose every node fails is unavailable until they return, though its status stops counting them', () => {
    const zoneA = daemonSet.replace('    spec:\n', '    spec:\n      nodeSelector: {topology.kubernetes.io/zone: zone-a}\n');
    const ds = summaryOf(run([zoneA], { failure: 'zone-outage', targets: ['zone/zone-a'], durationMs: 10 * MINUTE }), 'ds');
    assert.equal(ds.unavailableMs, 10 * MINUTE);
    assert.equal(ds.degradedMs, 10 * MINUTE);
  });

  it('a volume force-detached and attached to a second node that fails too: the summary does not repeat the first force detach', () => {
    const pvc = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: truth}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    const app = deployment('app', 1, '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n');
    const result = run([pvc, app], { cluster: flatCluster(['n1', 'n2', 'n3']), targets: ['node/n1', 'node/n2'], failAtMs: { 'node/n2': 14 * MINUTE },
      interventions: [{ kind: 'force-delete', target: 'Deployment/app', atMs: 7 * MINUTE }], durationMs: 24 * MINUTE });
    const detached = result.events.filter((e) => e.type === 'VolumeDetached');
    assert.equal(detached.length, 1);
    assert.ok(result.events.some((e) => e.type === 'VolumeAttached' && e.detail?.node === 'n2' && e.t > detached[0].t));
    const summary = summaryOf(result, 'app');
    assert.doesNotMatch(reasonOf(summary), /force-detaches the volume 6 minutes later/);
  });

  it('a node deleted while its pods wait out their toleration, then registered again untainted: the evictions are cancelled', () => {
    const result = run([deployment('web', 1)], { durationMs: 10 * MINUTE, interventions: [{ kind: 'delete-node', atMs: MINUTE }], recoverAfterMs: 90_000 });
    const registered = result.events.find((e) => e.reason === 'RegisteredNode')!.t;
    const cancelled = result.events.find((e) => e.reason === 'TaintManagerEviction' && /^Cancelling deletion/.test(messageOf(e)));
    assert.ok(cancelled && cancelled.t - registered < 1000, `cancelled at ${cancelled?.t}`);
    assert.ok(!result.events.some((e) => e.reason === 'TaintManagerEviction' && /^Marking for deletion/.test(messageOf(e))));
    assert.equal(summaryOf(result, 'web').outcome, 'recovered');
  });

  it('a Deployment with a ReadWriteOnce claim: the replacement hangs in ContainerCreating while the old pod object exists', () => {
    const pvc = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: truth}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    const app = deployment('app', 1, '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n');
    const result = run([pvc, app], { durationMs: 20 * MINUTE });
    const summary = summaryOf(result, 'app');
    assert.equal(summary.outcome, 'stuck');
    assert.match(reasonOf(summary), /waits in ContainerCreating .*ReadWriteOnce volume pvc-truth-data is still attached to/);
    assert.match(messageOf(result.events.find((e) => e.reason === 'FailedAttachVolume')!), /Volume is already used by pod\(s\) app-/);
  });

  it('a Deployment a HorizontalPodAutoscaler owns runs its minReplicas, as the editor\'s lens counts it; at replicas 0 the autoscaler is off', () => {
    const hpa = (min: number) => `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web-hpa, namespace: truth}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: ${min}\n  maxReplicas: 10\n`;
    const result = run([deployment('web', 1), hpa(3)], { durationMs: MINUTE });
    assert.equal(summaryOf(result, 'web').desiredReplicas, 3);
    assert.equal(result.states.filter((s) => s.object.kind === 'Pod' && s.from === 0 && s.status === 'Running').length, 3);
    assert.match(messageOf(result.events.find((e) => e.reason === 'Autoscaled')!), /^HorizontalPodAutoscaler web-hpa owns the replica count: simulated with its minReplicas 3, the fewest pods it keeps \(spec\.replicas is 1\)\.$/);
    // Scaled to 0 (ScalingDisabled): no pod, so no node of it to fail.
    assert.throws(() => run([deployment('web', 0), hpa(3)], { durationMs: MINUTE }), /No pod runs before the failure/);
  });

  it('a Deployment pinned by nodeSelector to the dead node stays Pending with the scheduler message', () => {
    const result = run([deployment('license', 1, '      nodeSelector: {kubernetes.io/hostname: worker-a2}\n')], { durationMs: 10 * MINUTE });
    const license = summaryOf(result, 'license');
    assert.deepEqual(result.summary.failedNodes, ['worker-a2']);
    assert.equal(license.outcome, 'pending');
    assert.match(reasonOf(license), /stays Pending: 0\/6 nodes are available: 1 node\(s\) had untolerated taint \{node\.kubernetes\.io\/unreachable: \}, 5 node\(s\) didn't match Pod's node affinity\/selector\. preemption: 0\/6 nodes are available: 6 Preemption is not helpful for scheduling\./);
  });

  it('a healed partition: the kubelet that kept running posts Ready at its next status sync (0-10.4 s) and the pods\' Ready at its status manager\'s next batch (0-10 s); a restarted one within 100 ms', () => {
    const readyAfter = (failure: 'partition' | 'kubelet-stop', seed: number) => {
      const result = run([deployment('web', 1)], { failure, durationMs: 5 * MINUTE, recoverAfterMs: 2 * MINUTE, seed });
      const node = result.events.find((e) => e.type === 'NodeCondition' && e.detail?.status === 'True' && e.t > 2 * MINUTE)!.t - 2 * MINUTE;
      const pod = result.events.find((e) => e.type === 'PodReady' && e.t > 2 * MINUTE)!.t - 2 * MINUTE;
      return { node, pod };
    };
    const healed = [1, 2, 3, 4, 5, 6].map((seed) => readyAfter('partition', seed));
    assert.ok(healed.every(({ node, pod }) => node <= 10_400 + 100 && pod <= 10_000 + 100), JSON.stringify(healed));
    assert.ok(healed.some(({ node }) => node > 1000) && healed.some(({ pod }) => pod > 1000), `not all at once: ${JSON.stringify(healed)}`);
    const restarted = readyAfter('kubelet-stop', 1);
    assert.ok(restarted.node >= 100 && restarted.node < 200, `kubelet restarted: Ready ${restarted.node} ms after`);
    // Without a readiness probe the restarted kubelet posts the pod Ready with its first status.
    assert.ok(restarted.pod < 200, `pod Ready ${restarted.pod} ms after`);
  });

  it('a replacement is Ready after successThreshold successful readiness checks in a row, one period apart', () => {
    const probed = deployment('web', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: nginx, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 10, successThreshold: 3}}');
    const result = run([probed], { durationMs: 10 * MINUTE });
    const replacement = result.events.find((e) => e.type === 'PodCreated' && e.t > 0)!.object.name;
    const running = result.events.find((e) => e.type === 'PodRunning' && e.object.name === replacement)!.t;
    const ready = result.events.find((e) => e.type === 'PodReady' && e.object.name === replacement)!.t;
    assert.ok(ready - running >= 20_000 && ready - running <= 30_000 + 200, `Ready ${ready - running} ms after Running`);
  });

  it('a startup probe holds Ready back until its first success; the readiness probe starts only then, on its own ticks (SEMANTICS.md 10)', () => {
    const readyAfterRunning = (probes: string) => [1, 2, 3, 4, 5, 6].map((seed) => {
      const result = run([deployment('web', 1).replace('image: registry.k8s.io/pause:3.9}', `image: nginx, ${probes}}`)], { durationMs: 10 * MINUTE, seed });
      const replacement = result.events.find((e) => e.type === 'PodCreated' && e.t > 0)!.object.name;
      const running = result.events.find((e) => e.type === 'PodRunning' && e.object.name === replacement)!.t;
      return result.events.find((e) => e.type === 'PodReady' && e.object.name === replacement)!.t - running;
    });
    // Alone: its first check after initialDelaySeconds, at a random point of its period.
    const startupOnly = readyAfterRunning('startupProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 20, periodSeconds: 10}');
    assert.ok(startupOnly.every((ms) => ms >= 20_000 && ms <= 30_000 + 200) && new Set(startupOnly).size > 1, JSON.stringify(startupOnly));
    // With a readiness probe of 5 s: its first tick after the startup success, whatever its own initial delay.
    const both = readyAfterRunning('startupProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 20, periodSeconds: 10}, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}');
    assert.ok(both.every((ms) => ms >= 20_000 && ms <= 35_000 + 200), JSON.stringify(both));
  });

  it('a healed disk: the pod is Ready again after successThreshold successful checks, the failures having reset the run', () => {
    const probed = deployment('web', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: nginx, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 10, successThreshold: 3}}');
    const result = run([probed], { failure: 'disk-failure', recoverAfterMs: 3 * MINUTE, durationMs: 6 * MINUTE });
    const ready = result.events.find((e) => e.type === 'PodReady' && e.t > 3 * MINUTE)!.t - 3 * MINUTE;
    assert.ok(ready >= 20_000 && ready <= 30_000 + 200, `Ready ${ready} ms after the disk healed`);
  });

  it('a restarted kubelet has no probe results: a pod the controller marked NotReady is Ready again at its readiness probe\'s first success, a random part of its period after the restart', () => {
    const probed = deployment('web', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: nginx, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 30}}');
    const podReady = [1, 2, 3, 4, 5, 6].map((seed) => {
      const result = run([probed], { failure: 'kubelet-stop', durationMs: 5 * MINUTE, recoverAfterMs: 2 * MINUTE, seed });
      return result.events.find((e) => e.type === 'PodReady' && e.t > 2 * MINUTE)!.t - 2 * MINUTE;
    });
    assert.ok(podReady.every((ms) => ms >= 0 && ms <= 30_000 + 200), JSON.stringify(podReady));
    assert.ok(podReady.some((ms) => ms > 5000), `not at once: ${JSON.stringify(podReady)}`);
  });

  it('a healed partition stays healed when the kubelet\'s status post comes before its lease retry: the post is a heartbeat, and an Unknown written across it is put back', () => {
    // The fast preset (grace 20 s, status every 4 s): the lease retry (up to 7 s) often comes after the post.
    const ends = [1, 2, 3, 4, 5].map((seed) => {
      const result = run([deployment('web', 1)], { failure: 'partition', profile: 'fast', durationMs: 20 * MINUTE, recoverAfterMs: 8 * MINUTE, seed });
      const node = result.states.filter((st) => st.object.kind === 'Node' && st.object.name === result.summary.failedNodes[0]);
      const unknownAfter = result.events.filter((e) => e.type === 'NodeCondition' && e.detail?.status === 'Unknown' && e.t > 8 * MINUTE).map((e) => e.t);
      return { ready: node[node.length - 1].ready, unknownAfter };
    });
    assert.ok(ends.every((e) => e.ready === 'True' && e.unknownAfter.length === 0), JSON.stringify(ends));
  });

  it('a node that returns before eviction gets its pod back in place: Unknown, then Running with a new IP and one restart', () => {
    const result = run([deployment('web', 1)], { durationMs: 10 * MINUTE, recoverAfterMs: 2 * MINUTE });
    const web = summaryOf(result, 'web');
    assert.equal(web.outcome, 'recovered');
    assert.equal(web.podDeletionMs, null);
    assert.equal(result.events.filter((e) => e.type === 'PodCreated').length, 0);
    const pod = result.states.find((s) => s.object.kind === 'Pod')!.object.name;
    const states = result.states.filter((s) => s.object.name === pod);
    assert.deepEqual(states.map((s) => [s.status, s.ready, s.restarts, s.ip]), [
      ['Running', '1/1', 0, '10.244.0.2'],
      ['Unknown', '0/1', 0, '<none>'],
      ['Running', '1/1', 1, '10.244.0.3'],
    ]);
    assert.ok(result.events.some((e) => e.reason === 'TaintManagerEviction' && /Cancelling deletion/.test(messageOf(e))));
    const noExecuteRemoved = firstTime(result, (e) => e.type === 'TaintRemoved' && e.detail?.effect === 'NoExecute')!;
    const noScheduleRemoved = firstTime(result, (e) => e.type === 'TaintRemoved' && e.detail?.effect === 'NoSchedule')!;
    assert.ok(noScheduleRemoved < noExecuteRemoved, 'NoSchedule goes with Ready=True, NoExecute at the next monitor pass');
  });

  it('a node that returns after eviction: its kubelet removes the old pod; the replacement stays', () => {
    const result = run([deployment('web', 1)], { durationMs: 15 * MINUTE, recoverAfterMs: 10 * MINUTE });
    const web = summaryOf(result, 'web');
    assert.equal(web.outcome, 'replaced');
    const original = result.states.find((s) => s.object.kind === 'Pod' && s.from === 0)!.object.name;
    const removed = result.events.find((e) => e.type === 'PodRemoved' && e.object.name === original)!;
    assert.match(messageOf(removed), /kubelet on worker-a1 confirmed the deletion/);
    assert.ok(removed.t > 10 * MINUTE && removed.t < 10 * MINUTE + 5000);
    assert.ok(web.replacementReadyMs! < 10 * MINUTE);
  });

  it('a kubelet stop leaves the containers running: no blackhole, but duplicates once the replacement runs', () => {
    const result = run([deployment('web', 1), 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: truth}\nspec: {selector: {app: web}}\n'],
      { failure: 'kubelet-stop', durationMs: 10 * MINUTE });
    const web = summaryOf(result, 'web');
    assert.equal(web.blackholeMs, 0);
    assert.equal(web.outcome, 'replaced');
    assert.ok(web.duplicateMs > 0, 'the old container still runs next to the replacement');
    assert.equal(result.events.filter((e) => e.type === 'PodStopped').length, 0);
    // The pod answered until its endpoint went not ready after the controller marked it NotReady; then nothing served until the replacement's was ready.
    const notReady = firstTime(result, (e) => e.type === 'EndpointChanged' && e.t >= 0 && e.detail?.ready === false)!;
    const ready = firstTime(result, (e) => e.type === 'EndpointChanged' && e.t > notReady && e.detail?.ready === true)!;
    assert.equal(web.unavailableMs, ready - notReady);
  });

  it('a power-off black-holes traffic until the pod is marked NotReady and its endpoint with it', () => {
    const result = run([deployment('web', 2), 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: truth}\nspec: {selector: {app: web}}\n'], { durationMs: 10 * MINUTE });
    const web = summaryOf(result, 'web');
    const notReady = firstTime(result, (e) => e.type === 'EndpointChanged' && e.t >= 0 && e.detail?.ready === false)!;
    assert.equal(web.blackholeMs, notReady);
    assert.ok(notReady - web.podsNotReadyMs! <= 150, `${notReady - web.podsNotReadyMs!} ms after the pod's Ready=False`);
    assert.equal(web.unavailableMs, 0);
    assert.equal(web.degradedMs, firstTime(result, (e) => e.type === 'EndpointChanged' && e.t > notReady && e.detail?.ready === true));
  });

  it('traffic follows the EndpointSlice, not the pod: with the controller manager restarting, a pod NotReady is black-holed until the new leader writes its endpoint', () => {
    const probed = deployment('web', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: nginx, readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}}');
    const result = run([probed, 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: truth}\nspec: {selector: {app: web}}\n'],
      { failure: 'disk-failure', durationMs: 2 * MINUTE, interventions: [{ kind: 'restart-controller-manager', atMs: 10_000 }] });
    const web = summaryOf(result, 'web');
    const endpointGone = firstTime(result, (e) => e.type === 'EndpointChanged' && e.t >= 0 && e.detail?.ready === false)!;
    assert.ok(endpointGone - web.podsNotReadyMs! > 5000, `the endpoint at ${endpointGone}, the pod's Ready=False at ${web.podsNotReadyMs}`);
    assert.equal(web.blackholeMs, endpointGone);
  });

  it('a DaemonSet pod on a dead node is never deleted and the DaemonSet makes no new pod', () => {
    const result = run([daemonSet], { durationMs: 20 * MINUTE, version: '1.36' });
    const ds = summaryOf(result, 'ds');
    assert.equal(ds.desiredReplicas, 6);
    assert.equal(ds.podDeletionMs, null);
    assert.equal(ds.outcome, 'waits-for-node');
    assert.match(reasonOf(ds), /never evicted or moved/);
    assert.equal(result.events.filter((e) => e.type === 'PodCreated').length, 0);
    // Its status no longer counts the tainted node (SEMANTICS.md 18, recorded: desired=41 ready=41 → 40/40).
    const states = result.states.filter((st) => st.object.kind === 'DaemonSet' && st.from > 0);
    assert.deepEqual(states.map((st) => st.ready), ['5/6', '5/5']);
    // Degraded while it had fewer ready than desired: until the dead node left its desired count, as kubectl shows it.
    assert.equal(ds.degradedMs, states[1].from);
    assert.equal(ds.unavailableMs, 0);
  });

  it('a DaemonSet pod that a graceful shutdown left Failed is deleted by its controller, and a new one runs when the node is back', () => {
    const set = { 'kubelet.shutdownGracePeriod': '30s', 'kubelet.shutdownGracePeriodCriticalPods': '10s' };
    const result = run([daemonSet], { failure: 'graceful-shutdown', targets: ['node/worker-a1'], recoverAfterMs: 5 * MINUTE, durationMs: 8 * MINUTE, set, version: '1.36' });
    const failed = result.events.find((e) => e.type === 'PodFailed')!;
    const removed = result.events.find((e) => e.type === 'PodRemoved' && e.object.name === failed.object.name)!;
    assert.equal(removed.detail?.by, 'daemonset-controller');
    assert.ok(removed.t - failed.t < 1000, `removed ${removed.t - failed.t} ms after it failed`);
    assert.match(messageOf(result.events.find((e) => e.reason === 'FailedDaemonPod')!), /^Found failed daemon pod \S+ on node worker-a1, will try to kill it$/);
    const created = result.events.filter((e) => e.type === 'PodCreated' && e.detail?.node !== null).map((e) => e.t);
    assert.equal(created.length, 1);
    assert.ok(created[0] >= 5 * MINUTE, `the new daemon pod at ${created[0]}, once the node is Ready`);
    assert.equal(summaryOf(result, 'ds').outcome, 'replaced');
  });

  it('a bare Pod is deleted and never recreated', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: truth}\nspec: {containers: [{name: c, image: busybox}]}\n';
    const result = run([pod], { durationMs: 10 * MINUTE });
    assert.equal(summaryOf(result, 'tool').outcome, 'stuck');
    assert.match(reasonOf(summaryOf(result, 'tool')), /A bare Pod is never recreated/);
  });

  it('a Job replaces its evicted pod and counts a failure: at once from 1.28, whose backoff counts from the pod\'s Ready=False minutes before; 10 s later before', () => {
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}\n';
    const gap = (version: string) => {
      const summary = summaryOf(run([job], { durationMs: 10 * MINUTE, version }), 'batch');
      assert.equal(summary.outcome, 'replaced');
      return summary.replacementCreatedMs! - summary.podDeletionMs!;
    };
    assert.ok(gap('1.29') < 1000, `1.29: ${gap('1.29')} ms`);
    assert.ok(gap('1.27') >= 10_000 && gap('1.27') < 11_000, `1.27: ${gap('1.27')} ms`);
  });

  it('a Job with podReplacementPolicy Failed waits for a terminal phase where its feature gate is on (1.29), and replaces at deletion where it is not (1.28)', () => {
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec: {podReplacementPolicy: Failed, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}\n';
    const created = (version: string) => run([job], { durationMs: 10 * MINUTE, version }).events.filter((e) => e.type === 'PodCreated' && e.t > 0).length;
    assert.equal(created('1.29'), 0);
    assert.equal(created('1.28'), 1);
    // The summary says why no pod replaces it, and what releases it.
    const waiting = run([job], { durationMs: 10 * MINUTE, version: '1.29' }).summary.workloads[0];
    assert.equal(waiting.cause.kind, 'job-awaits-terminal-phase');
    assert.match(reasonOf(waiting), /^batch-\w+ stays Terminating on worker-a1, and the Job replaces a pod only once it is Failed \(podReplacementPolicy: Failed\): a node that is down never writes that phase\. Pod GC writes it once the Node object is deleted/);
  });

  it('a returning kubelet writes the deleted Job pod\'s terminal phase before removing it (1.27 on): a Job that waits for one counts the failure', () => {
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec: {backoffLimit: 0, podReplacementPolicy: Failed, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}\n';
    const result = run([job], { failure: 'kubelet-stop', recoverAfterMs: 8 * MINUTE, durationMs: 12 * MINUTE, version: '1.31' });
    const removed = result.events.find((e) => e.type === 'PodRemoved')!;
    assert.ok(removed.t > 8 * MINUTE);
    assert.equal(result.states.filter((s) => s.object.name === removed.object.name).at(-1)!.status, 'Error');
    const failed = result.events.find((e) => e.reason === 'BackoffLimitExceeded')!;
    assert.ok(failed.t >= removed.t - 10 && failed.t < removed.t + 1000, `failed at ${failed.t}, pod removed at ${removed.t}`);
    assert.equal(result.events.filter((e) => e.type === 'PodCreated' && e.t > 0).length, 0);
  });

  it('a Job\'s podFailurePolicy decides on a pod that failed with its node: Ignore on DisruptionTarget replaces it without counting, FailJob fails the Job', () => {
    const job = (action: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec:\n  backoffLimit: 0\n  podFailurePolicy:\n    rules:\n    - {action: ${action}, onPodConditions: [{type: DisruptionTarget}]}\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}\n`;
    // The node is deleted: pod GC marks the orphan Failed with DisruptionTarget (SEMANTICS.md 7.1).
    const options = { durationMs: 12 * MINUTE, interventions: [{ kind: 'delete-node' as const, atMs: 7 * MINUTE }] };
    const ignored = run([job('Ignore')], options);
    assert.ok(!ignored.events.some((e) => e.reason === 'BackoffLimitExceeded'));
    const failed = ignored.events.find((e) => e.type === 'PodFailed')!;
    const replacement = ignored.events.find((e) => e.type === 'PodCreated' && e.t > 0)!;
    // Its backoff counts from when the pod finished: the node lifecycle controller marked it NotReady minutes before.
    assert.ok(replacement.t > failed.t && replacement.t - failed.t < 1000, `replaced ${replacement.t - failed.t} ms after the failure`);
    assert.equal(summaryOf(ignored, 'batch').outcome, 'replaced');
    // Pods that fail now delay the next ones, ignored or not: two failures, 20 s (newBackoffRecord takes every failed pod).
    const kubelet = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriod: 30s\nshutdownGracePeriodCriticalPods: 10s\n';
    const six = job('Ignore').replace('  backoffLimit: 0\n', '  backoffLimit: 0\n  parallelism: 6\n  completions: 6\n');
    const shutdown = run([kubelet, six], { failure: 'graceful-shutdown', targets: ['zone/zone-a'], durationMs: 3 * MINUTE });
    const lastFailed = Math.max(...shutdown.events.filter((e) => e.type === 'PodFailed').map((e) => e.t));
    const created = shutdown.events.filter((e) => e.type === 'PodCreated' && e.t > 0).map((e) => e.t);
    assert.equal(created.length, 2);
    assert.ok(Math.min(...created) - lastFailed >= 19_900 && Math.min(...created) - lastFailed < 21_000, `replaced ${Math.min(...created) - lastFailed} ms after the failures`);
    assert.ok(!shutdown.events.some((e) => e.reason === 'BackoffLimitExceeded'));
    const failJob = run([job('FailJob')], options);
    const policy = failJob.events.find((e) => e.reason === 'PodFailurePolicy')!;
    assert.match(messageOf(policy), /has condition DisruptionTarget matching FailJob rule at index 0$/);
    assert.ok(!failJob.events.some((e) => e.type === 'PodCreated' && e.t > 0));
    assert.match(reasonOf(summaryOf(failJob, 'batch')), /^The Job failed at 7m\d+\.\d+s \(PodFailurePolicy: Pod truth\/batch-\w+ has condition DisruptionTarget matching FailJob rule at index 0\): it creates no more pods/);
    // Before 1.26 the policy's gate is off: the failure counts and backoffLimit 0 fails the Job.
    assert.ok(run([job('Ignore')], { ...options, version: '1.25' }).events.some((e) => e.reason === 'BackoffLimitExceeded'));
  });

  it('a Job\'s podFailurePolicy matches the exit code the kubelet reports for a container it stopped; a pod lost with its node has none', () => {
    const job = (rules: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec:\n  backoffLimit: 6\n  podFailurePolicy:\n    rules:\n${rules}  template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}\n`;
    const nonZero = '    - {action: FailJob, onExitCodes: {operator: NotIn, values: [0]}}\n';
    const set = { 'kubelet.shutdownGracePeriod': '30s', 'kubelet.shutdownGracePeriodCriticalPods': '10s' };
    // A graceful shutdown stops the container: SIGTERM, exit 143 for a run-to-completion container (kubelet.ts exitCode).
    const stopped = run([job(nonZero)], { failure: 'graceful-shutdown', durationMs: 3 * MINUTE, set });
    assert.match(messageOf(stopped.events.find((e) => e.reason === 'PodFailurePolicy')!), /^Container main for pod truth\/batch-\w+ failed with exit code 143 matching FailJob rule at index 0$/);
    assert.ok(!stopped.events.some((e) => e.type === 'PodCreated' && e.t > 0));
    // Rules decide in order: an Ignore on the shutdown's DisruptionTarget first, and the pod is replaced.
    const ignoredFirst = run([job(`    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n${nonZero}`)], { failure: 'graceful-shutdown', durationMs: 3 * MINUTE, set });
    assert.ok(!ignoredFirst.events.some((e) => e.reason === 'PodFailurePolicy'));
    assert.ok(ignoredFirst.events.some((e) => e.type === 'PodCreated' && e.t > 0));
    // In and a container name: 143 is not 137, and a name the pod does not have matches nothing.
    for (const rule of ['    - {action: FailJob, onExitCodes: {operator: In, values: [137]}}\n', '    - {action: FailJob, onExitCodes: {containerName: sidecar, operator: NotIn, values: [0]}}\n']) {
      assert.ok(!run([job(rule)], { failure: 'graceful-shutdown', durationMs: 3 * MINUTE, set }).events.some((e) => e.reason === 'PodFailurePolicy'), rule);
    }
    // Powered off: the pod is deleted with the node's containers lost, so no exit code matches.
    const lost = run([job(nonZero)], { durationMs: 12 * MINUTE, interventions: [{ kind: 'delete-node' as const, atMs: 7 * MINUTE }] });
    assert.ok(!lost.events.some((e) => e.reason === 'PodFailurePolicy'));
    // Of two containers, the message names the first of the kubelet's containerStatuses, sorted by name.
    const two = job(nonZero).replace('containers: [{name: main, image: busybox}]', 'containers: [{name: worker, image: busybox}, {name: agent, image: busybox}]');
    assert.match(messageOf(run([two], { failure: 'graceful-shutdown', durationMs: 3 * MINUTE, set }).events.find((e) => e.reason === 'PodFailurePolicy')!), /^Container agent for pod/);
    // Back after a reboot, a restartPolicy Never pod's lost containers report 255 (containerd): NotIn [0] fails the Job.
    const rebooted = run([job(nonZero)], { durationMs: 5 * MINUTE, recoverAfterMs: MINUTE });
    assert.match(messageOf(rebooted.events.find((e) => e.reason === 'PodFailurePolicy')!), /failed with exit code 255 matching FailJob rule at index 0$/);
  });

  it('a Job runs no more pods than completions, and past its backoffLimit it fails and deletes its active pods', () => {
    const job = (spec: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec: {${spec}, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}\n`;
    const capped = run([job('parallelism: 3, completions: 2')], { durationMs: 2 * MINUTE });
    assert.equal(new Set(capped.states.filter((s) => s.object.kind === 'Pod').map((s) => s.object.name)).size, 2);
    assert.equal(summaryOf(capped, 'batch').desiredReplicas, 2);
    const failed = run([job('parallelism: 3, backoffLimit: 0')], { durationMs: 10 * MINUTE, placement: 'spread' });
    const exceeded = failed.events.find((e) => e.reason === 'BackoffLimitExceeded')!;
    const deleted = failed.events.filter((e) => e.type === 'PodDeletionStarted' && e.detail?.by === 'job-controller');
    assert.equal(deleted.length, 2, 'the two pods on healthy nodes');
    assert.ok(deleted.every((e) => e.t > exceeded.t && e.t < exceeded.t + 1000));
    assert.match(reasonOf(summaryOf(failed, 'batch')), /^The Job failed at \d+m\d+\.\d+s \(BackoffLimitExceeded: Job has reached the specified backoff limit\)/);
  });

  it('after a reboot a Job pod with restartPolicy Never is not started again: Failed (kubectl: Unknown) and replaced; with OnFailure it restarts in place', () => {
    const job = (policy: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec: {template: {spec: {restartPolicy: ${policy}, containers: [{name: c, image: busybox}]}}}\n`;
    const never = run([job('Never')], { durationMs: 10 * MINUTE, recoverAfterMs: 2 * MINUTE });
    const original = never.states.find((s) => s.object.kind === 'Pod' && s.from === 0)!.object.name;
    assert.deepEqual(never.states.filter((s) => s.object.name === original).map((s) => [s.status, s.ready, s.restarts]), [['Running', '1/1', 0], ['Unknown', '0/1', 0]]);
    const failed = never.events.find((e) => e.type === 'PodFailed' && e.object.name === original)!;
    assert.ok(failed.t > 2 * MINUTE && failed.t < 2 * MINUTE + 5000, `failed at ${failed.t}`);
    const created = never.events.find((e) => e.type === 'PodCreated' && e.t > 0)!;
    assert.ok(created.t - failed.t >= 10_000 && created.t - failed.t < 11_000, 'the Job replaces it after its failure backoff');
    assert.equal(summaryOf(never, 'batch').outcome, 'replaced');
    assert.match(reasonOf(summaryOf(never, 'batch')), /^Its pod on worker-a1 ended Failed after a reboot \(restartPolicy Never: the lost containers are not started again\) at 2m0\.\d+s, was not deleted, and replaced on /);
    assert.equal(messageOf(failed), 'Pod phase Failed (container Unknown)');

    const onFailure = run([job('OnFailure')], { durationMs: 10 * MINUTE, recoverAfterMs: 2 * MINUTE });
    const pod = onFailure.states.find((s) => s.object.kind === 'Pod')!.object.name;
    assert.deepEqual(onFailure.states.filter((s) => s.object.name === pod).map((s) => [s.status, s.restarts]), [['Running', 0], ['Unknown', 0], ['Running', 1]]);
    assert.equal(onFailure.events.filter((e) => e.type === 'PodCreated').length, 0);
  });

  it('the out-of-service taint evicts a DaemonSet pod (its default tolerations leave it out): the summary says so, not "never evicted"', () => {
    const result = run([daemonSet], { durationMs: 5 * MINUTE, interventions: [{ kind: 'out-of-service', atMs: 2 * MINUTE }] });
    const [summary] = result.summary.workloads;
    const removed = result.events.find((e) => e.type === 'PodRemoved' && e.t > 2 * MINUTE)!;
    assert.equal(summary.outcome, 'waits-for-node');
    assert.deepEqual(summary.cause, { kind: 'daemon-out-of-service', pod: removed.object.name, node: 'worker-a1', removedMs: removed.t });
    assert.match(reasonOf(summary), /^\S+ does not tolerate the out-of-service taint on worker-a1 .*: it was evicted and its object removed at 2m\d+\.\d+s, and the DaemonSet runs no pod there while the taint stays/);
  });

  it('a DaemonSet pod evicted by a written toleration with seconds, or deleted by kubectl: the summary says so, not "never evicted"', () => {
    const equal = daemonSet.replace('    spec:\n', '    spec:\n      tolerations: [{key: node.kubernetes.io/unreachable, operator: Equal, effect: NoExecute, tolerationSeconds: 60}]\n');
    const evicted = run([equal], { durationMs: 5 * MINUTE });
    const [summary] = evicted.summary.workloads;
    const taint = firstTime(evicted, is.taint('worker-a1', 'node.kubernetes.io/unreachable', 'NoExecute'))!;
    const deletion = evicted.events.find((e) => e.type === 'PodDeletionStarted')!;
    assert.ok(Math.abs(deletion.t - taint - 60_000) < 100, `deleted ${deletion.t - taint} ms after the taint`);
    assert.deepEqual([summary.outcome, summary.cause], ['waits-for-node', { kind: 'daemon-pod-deleted', pod: deletion.object.name, node: 'worker-a1', deletedMs: deletion.t, tolerationSeconds: 60 }]);
    assert.match(reasonOf(summary), /^\S+ was evicted from worker-a1 at 1m\d\d\.\d+s: its written toleration of the taint has tolerationSeconds 60, .* it runs again when worker-a1 recovers\.$/);
    const deleted = run([daemonSet], { durationMs: 5 * MINUTE, interventions: [{ kind: 'force-delete', target: 'DaemonSet/ds', atMs: 2 * MINUTE }] });
    assert.match(reasonOf(deleted.summary.workloads[0]), /^\S+ on worker-a1 was deleted at 2m\S*\. The DaemonSet runs no pod on worker-a1 while it is tainted/);
    // Deleted by kubectl before its written toleration ran out: not "evicted".
    const before = run([equal.replace('tolerationSeconds: 60', 'tolerationSeconds: 900')], { durationMs: 5 * MINUTE, interventions: [{ kind: 'force-delete', target: 'DaemonSet/ds', atMs: 2 * MINUTE }] });
    assert.match(reasonOf(before.summary.workloads[0]), /^\S+ on worker-a1 was deleted at 2m\S*\./);
  });

  it('deleting the Node object leaves its DaemonSet pod to pod GC: the DaemonSet controller deletes only unscheduled pods of missing nodes', () => {
    const result = run([daemonSet], { durationMs: 12 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 6 * MINUTE }] });
    const onNode = result.states.find((s) => s.object.kind === 'Pod' && s.node === 'worker-a1')!.object.name;
    assert.deepEqual(result.events.filter((e) => e.type === 'PodDeletionStarted' && e.object.name === onNode), []);
    const removed = result.events.find((e) => e.type === 'PodRemoved' && e.object.name === onNode)!;
    assert.match(messageOf(removed), /pod garbage collector/);
    assert.ok(removed.t >= 6 * MINUTE + 40_000 && removed.t <= 6 * MINUTE + 80_000, `removed at ${removed.t}`);
    const agent = result.summary.workloads.find((w) => w.object.kind === 'DaemonSet')!;
    assert.equal(agent.outcome, 'lost');
    assert.match(reasonOf(agent), /^Its pod \S+ went with the Node object of worker-a1 \(pod GC removed it at 6m\d+\.\d+s\): the DaemonSet runs on the nodes that remain/);
  });

  it('a deleted node whose kubelet starts again registers anew and gets its daemon pod back; one that kept running across a partition does not (SEMANTICS.md 2.5)', () => {
    const deleted = { interventions: [{ kind: 'delete-node' as const, atMs: 6 * MINUTE }], recoverAfterMs: 8 * MINUTE, durationMs: 12 * MINUTE };
    for (const failure of ['power-off', 'kubelet-stop'] as const) {
      const result = run([daemonSet], { ...deleted, failure });
      const registered = result.events.find((e) => e.reason === 'RegisteredNode' && e.object.name === 'worker-a1')!;
      assert.ok(registered.t >= 8 * MINUTE && registered.t < 8 * MINUTE + 1000, `${failure}: registered at ${registered?.t}`);
      const last = result.states.filter((s) => s.object.kind === 'Node' && s.object.name === 'worker-a1').at(-1)!;
      assert.deepEqual([last.status, last.to], ['Ready', null], failure);
      const back = result.states.filter((s) => s.object.kind === 'Pod' && s.node === 'worker-a1' && s.from > 8 * MINUTE && s.status === 'Running');
      assert.equal(back.length, 1, `${failure}: a daemon pod runs on worker-a1 again`);
      // The zone counts the node again: no disruption note after it is back.
      assert.deepEqual(result.events.filter((e) => e.type === 'Note' && /Disruption/.test(e.reason) && e.t > registered.t).map((e) => e.reason), [], failure);
    }
    const partitioned = run([daemonSet], { ...deleted, failure: 'partition' });
    assert.ok(!partitioned.events.some((e) => e.reason === 'RegisteredNode'));
    assert.equal(partitioned.states.filter((s) => s.object.kind === 'Node' && s.object.name === 'worker-a1').at(-1)!.to, 6 * MINUTE);
  });

  it('deleting the Node object: pod GC removes its pods after the 40 s quarantine and the StatefulSet recovers', () => {
    const result = run([statefulSet('db')], { durationMs: 20 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 2 * MINUTE }] });
    const removed = result.events.find((e) => e.type === 'PodRemoved' && e.object.name === 'db-0')!;
    assert.match(messageOf(removed), /pod garbage collector/);
    assert.ok(removed.t >= 2 * MINUTE + 40_000 && removed.t <= 2 * MINUTE + 80_000, `removed at ${removed.t}`);
    assert.ok(result.events.some((e) => e.type === 'PodCondition' && e.reason === 'DeletionByPodGC'));
    const db = summaryOf(result, 'db');
    assert.equal(db.outcome, 'replaced');
    // Pod GC sets phase Failed on its way to deleting the pod: a deletion, not a pod that ended Failed and stayed.
    assert.ok(db.cause.kind === 'replaced' && db.cause.failed === null);
    assert.ok(db.podDeletionMs !== null && db.podDeletionMs <= removed.t);
    assert.match(reasonOf(db), /^Its pod on worker-a1 was deleted at 2m\d+\.\d+s and replaced on/);
  });

  it('a StatefulSet on local PVs: after a force delete the replacement is Pending on the dead node\'s taint only', () => {
    const pv = 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: local-a1}\nspec: {accessModes: [ReadWriteOnce], storageClassName: local, local: {path: /mnt}, nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [worker-a1]}]}]}}}\n';
    const sc = 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n';
    const pending = (version: string) => {
      const result = run([sc, pv, statefulSet('db', withVolume.replace('accessModes: [ReadWriteOnce]', 'accessModes: [ReadWriteOnce], storageClassName: local'))],
        { durationMs: 15 * MINUTE, interventions: [{ kind: 'force-delete', target: 'db-0', atMs: 7 * MINUTE }], version });
      const db = summaryOf(result, 'db');
      assert.equal(db.outcome, 'pending');
      return reasonOf(db).replace(/^.*?: (?=0\/6)/, '');
    };
    // VolumeBinding's PreFilter narrows the nodes to the volume's one; how the other five are counted changed by version.
    assert.equal(pending('1.29'), '0/6 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/6 nodes are available: 1 Preemption is not helpful for scheduling.');
    assert.equal(pending('1.30'), '0/6 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 5 node is filtered out by the prefilter result. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.');
    assert.equal(pending('1.36'), "0/6 nodes are available: 1 node(s) had untolerated taint(s), 5 node(s) didn't satisfy plugin(s) [VolumeBinding]. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.");
  });

  it('a whole zone powered off: FullDisruption, the zone\'s nodes tainted 10 s apart (0.1 nodes/s, on the 100 ms loop)', () => {
    const cluster = zonedCluster({ a: ['a1', 'a2', 'a3', 'a4'], b: ['b1', 'b2'] });
    const result = run([daemonSet], { cluster, targets: ['node/a1', 'node/a2', 'node/a3', 'node/a4'], durationMs: 5 * MINUTE });
    const taints = result.events.filter((e) => e.type === 'TaintAdded' && e.detail?.effect === 'NoExecute').map((e) => e.t).sort((x, y) => x - y);
    assert.equal(taints.length, 4);
    for (let i = 1; i < taints.length; i++) {
      const gap = taints[i] - taints[i - 1];
      assert.ok(gap >= 9900 && gap <= 10_150, `gap ${gap}`);
    }
    assert.ok(result.events.some((e) => e.type === 'Note' && e.reason === 'FullDisruption'));
  });

  it('a zone whose only Node object is deleted is forgotten, not made Normal (handleDisruption drops it)', () => {
    const cluster = zonedCluster({ a: ['a1', 'a2', 'a3', 'a4'], b: ['b1'] });
    const result = run([deployment('web', 2)], { cluster, targets: ['node/b1', 'node/a1'], durationMs: 5 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 2 * MINUTE }] });
    const zoneB = result.events.filter((e) => e.type === 'Note' && e.object.name === 'b').map((e) => e.reason);
    assert.deepEqual(zoneB, ['FullDisruption']);
  });

  it('a zone of 10 nodes and 600 pods behind 20 Services powered off: every endpoint goes not-ready within 20 ms of its pod\'s Ready=False (SEMANTICS.md 18), as the EndpointSlice controller syncs per Service', () => {
    const zones = { a: Array.from({ length: 10 }, (_, i) => `a${i}`), b: Array.from({ length: 10 }, (_, i) => `b${i}`) };
    const service = (name: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: truth}\nspec: {selector: {app: ${name}}, ports: [{port: 80}]}\n`;
    const apps = Array.from({ length: 20 }, (_, i) => `app${i}`);
    const result = run(apps.flatMap((name) => [deployment(name, 60), service(name)]), { cluster: zonedCluster(zones), targets: zones.a.map((n) => `node/${n}`), durationMs: 2 * MINUTE });
    const notReadyAt = new Map(result.events.filter((e) => e.type === 'PodCondition' && e.detail?.status === 'False').map((e) => [e.object.name, e.t]));
    assert.ok(notReadyAt.size >= 500, `${notReadyAt.size} pods went NotReady`);
    const lags = result.events.filter((e) => e.type === 'EndpointChanged' && e.detail?.ready === false && notReadyAt.has(e.detail.pod as string)).map((e) => e.t - notReadyAt.get(e.detail!.pod as string)!);
    assert.equal(lags.length, notReadyAt.size);
    assert.ok(Math.max(...lags) <= 20, `endpoint lag up to ${Math.max(...lags)} ms`);
  });

  it('all zones down: master disruption mode, no NoExecute taints stay and nothing is evicted', () => {
    const cluster = zonedCluster({ a: ['a1'], b: ['b1'] });
    const result = run([deployment('web', 2)], { cluster, targets: ['node/a1', 'node/b1'], durationMs: 15 * MINUTE });
    assert.ok(result.events.some((e) => e.reason === 'MasterDisruptionMode'));
    assert.equal(result.events.filter((e) => e.type === 'PodDeletionStarted').length, 0);
    const final = result.states.filter((s) => s.object.kind === 'Node' && s.to === null);
    for (const node of final) assert.ok(!(node.taints ?? []).some((t) => t.endsWith(':NoExecute')), `${node.object.name}: ${node.taints}`);
  });

  it('--pod-eviction-timeout is accepted, noted as having no effect, and changes nothing', () => {
    const withFlag = run([deployment('web', 1)], { durationMs: 8 * MINUTE, set: { 'kcm.pod-eviction-timeout': '30s' } });
    assert.ok(withFlag.events.some((e) => e.type === 'Note' && /pod-eviction-timeout was removed in Kubernetes 1\.27: a real kube-controller-manager does not start with it \(unknown flag\), and the simulation ignores it/.test(messageOf(e))));
    // Deletion 300 s (the default tolerationSeconds) after the NoExecute taint, not 30 s after anything.
    const web = summaryOf(withFlag, 'web');
    assert.ok(web.podDeletionMs! - web.noExecuteTaintMs! >= 300_000 && web.podDeletionMs! - web.noExecuteTaintMs! <= 300_200, `${web.podDeletionMs! - web.noExecuteTaintMs!}`);
  });
});

describe('interventions of one instant', () => {
  it('act in one order whatever order they are listed in (a scenario file keeps its own, the CLI groups them by kind)', () => {
    const MINUTE = 60_000;
    const at = 5 * MINUTE;
    const listed = [{ kind: 'delete-node' as const, atMs: at }, { kind: 'force-delete' as const, target: 'StatefulSet/db', atMs: at }, { kind: 'restart-controller-manager' as const, atMs: at }, { kind: 'out-of-service' as const, atMs: at }];
    const byKind = [listed[1], listed[3], listed[0], listed[2]];
    const trace = (interventions: typeof listed) => JSON.stringify(run([statefulSet('db')], { durationMs: 12 * MINUTE, interventions }));
    assert.equal(trace(listed), trace(byKind));
  });
});
