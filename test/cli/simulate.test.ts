import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { MAX_DOCUMENTS } from '../../src/manifest/limits';

function run(...argv: string[]) {
  const output = collectingOutput();
  const code = main(argv, output);
  return { code, stdout: output.out, stderr: output.err };
}

function write(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-simulate-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const DB = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: data}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;

type Json = Record<string, any>;

describe('kube-failure-sim simulate', () => {
  const dir = write({ 'app.yaml': DB });
  const file = path.join(dir, 'app.yaml');

  it('writes the JSON contract: scenario, timing with sources, events, states and a summary per workload', () => {
    const { code, stdout } = run('simulate', file, '--format', 'json', '--k8s-version', '1.31', '--duration', '10m', '--set', 'kcm.node-monitor-grace-period=30s');
    assert.equal(code, 0);
    const report: Json = JSON.parse(stdout);
    assert.deepEqual(Object.keys(report), ['version', 'scenario', 'timing', 'events', 'states', 'summary']);
    assert.equal(report.version, 1);
    assert.equal(report.scenario.failure, 'power-off');
    assert.equal(report.scenario.k8sVersion, '1.31');
    assert.equal(report.scenario.durationMs, 600_000);
    assert.deepEqual(report.timing['kcm.node-monitor-grace-period'], { value: 30_000, unit: 'ms', source: '--set' });
    assert.deepEqual(report.timing['kcm.node-monitor-period'], { value: 5000, unit: 'ms', source: 'Kubernetes 1.31 default' });
    assert.deepEqual(report.timing['apiserver.default-unreachable-toleration-seconds'], { value: 300, unit: 's', source: 'Kubernetes 1.31 default' });
    for (const event of report.events) {
      assert.ok(Number.isInteger(event.t));
      assert.deepEqual(Object.keys(event.object), ['kind', 'name', 'namespace']);
      assert.equal(typeof event.type, 'string');
      assert.equal(typeof event.reason, 'string');
      assert.equal(typeof event.message, 'string');
    }
    const types = new Set(report.events.map((e: Json) => e.type));
    for (const type of ['NodeCondition', 'TaintAdded', 'PodCondition', 'PodDeletionStarted']) assert.ok(types.has(type), type);
    const node = report.events.find((e: Json) => e.type === 'NodeCondition');
    assert.deepEqual(node.detail, { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' });
    const pod = report.states.find((s: Json) => s.object.name === 'db-0');
    assert.deepEqual(Object.keys(pod), ['object', 'from', 'to', 'status', 'ready', 'restarts', 'node', 'ip']);
    const db = report.summary.workloads.find((w: Json) => w.object.name === 'db');
    assert.deepEqual(Object.keys(db), ['object', 'desiredReplicas', 'nodeNotReadyMs', 'podsNotReadyMs', 'noExecuteTaintMs', 'podDeletionMs',
      'replacementCreatedMs', 'replacementReadyMs', 'unavailableMs', 'degradedMs', 'blackholeMs', 'duplicateMs', 'outcome', 'cause', 'pendingBeforeFailure', 'reason']);
    assert.deepEqual(db.cause, { kind: 'statefulset-identity', pod: 'db-0', node: 'worker-a1', localVolume: null });
    assert.equal(db.outcome, 'stuck');
    assert.equal(db.replacementCreatedMs, null);
    assert.ok(db.nodeNotReadyMs > 30_000 - 10_400 && db.nodeNotReadyMs < 30_000 + 5200);
    const web = report.summary.workloads.find((w: Json) => w.object.name === 'web');
    assert.ok(['unaffected', 'replaced'].includes(web.outcome));
  });

  it('gives a byte-identical trace for the same inputs and seed, and another for another seed', () => {
    const a = run('simulate', file, '--format', 'json', '--seed', '7').stdout;
    const b = run('simulate', file, '--format', 'json', '--seed', '7').stdout;
    const c = run('simulate', file, '--format', 'json', '--seed', '8').stdout;
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('says in the header what people do meanwhile, so that two runs differing only there are told apart', () => {
    const { code, stdout } = run('simulate', file, '--target', 'StatefulSet/db', '--duration', '10m', '--force-delete', 'node/worker-a1@6m', '--out-of-service-after', '7m');
    assert.equal(code, 0);
    assert.match(stdout, /\nMeanwhile: kubectl delete pod --force --grace-period=0 for every pod on node worker-a1 at 6m; out-of-service taint on the failed nodes at 7m\.\n/);
    assert.doesNotMatch(run('simulate', file, '--target', 'StatefulSet/db', '--duration', '10m').stdout, /Meanwhile/);
  });

  it('a graceful shutdown that is a power-off (shutdownGracePeriod 0s, the default) says so in the header', () => {
    const note = /\nNote: kubelet\.shutdownGracePeriod is 0s: graceful node shutdown is inert, the node goes down like a power-off/;
    assert.match(run('simulate', file, '--failure', 'graceful-shutdown', '--duration', '2m').stdout, note);
    assert.doesNotMatch(run('simulate', file, '--failure', 'graceful-shutdown', '--duration', '2m', '--set', 'kubelet.shutdownGracePeriod=30s').stdout, note);
  });

  it('says when the cluster file shows a node not Ready: the simulation starts every node Ready', () => {
    const conditions = (ready: string) => `status: {conditions: [{type: Ready, status: "${ready}"}]}`;
    const cluster = write({ 'nodes.yaml': `apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}, ${conditions('True')}}\n- {apiVersion: v1, kind: Node, metadata: {name: n2}, ${conditions('Unknown')}}\n- {apiVersion: v1, kind: Node, metadata: {name: n3}}\n` });
    const { code, stdout } = run('simulate', file, '--cluster', path.join(cluster, 'nodes.yaml'), '--duration', '2m');
    assert.equal(code, 0);
    assert.match(stdout, /\nNote: Node n2 \(Ready=Unknown\) is not Ready in \S*nodes\.yaml; the simulation starts every node Ready and healthy/);
    assert.doesNotMatch(stdout, /n1 \(Ready|n3 \(Ready/);
  });

  it('prints a kubectl --watch style timeline and a summary as text', () => {
    const { code, stdout } = run('simulate', file, '--target', 'StatefulSet/db', '--duration', '8m', '--k8s-version', '1.29');
    assert.equal(code, 0);
    assert.match(stdout, /^Failure: power-off of worker-a1 at 0s, never recovers; Kubernetes 1\.29; seed 1; 8m simulated\./);
    assert.match(stdout, /\nTiming: node-monitor-grace-period=40s, node-monitor-period=5s, nodeLeaseDurationSeconds=40, nodeStatusReportFrequency=5m, default-unreachable-toleration-seconds=300 \(Kubernetes 1\.29 defaults\)\.\n/);
    assert.match(stdout, / 0:00\.000 {2}pod\/db-0 +Running +1\/1 +0 +worker-a1 +10\.244\.0\.2/);
    assert.match(stdout, / 0:[34][0-9]\.[0-9]{3} {2}node\/worker-a1 +NotReady/);
    assert.match(stdout, / [56]:[0-9]{2}\.[0-9]{3} {2}pod\/db-0 +Terminating +1\/1/);
    assert.match(stdout, /StatefulSet\/db +1 +stuck/);
    assert.match(stdout, /db-0 stays Terminating on the unreachable node worker-a1/);
  });

  it('applies recovery, interventions and several targets', () => {
    const { stdout } = run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--force-delete', 'db-0@7m', '--duration', '9m');
    const report: Json = JSON.parse(stdout);
    assert.ok(report.events.some((e: Json) => e.type === 'Intervention' && e.reason === 'ForceDelete' && e.t === 420_000));
    assert.equal(report.summary.workloads.find((w: Json) => w.object.name === 'db').outcome, 'replaced');
    const recovered = JSON.parse(run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--recover-after', '90s').stdout);
    assert.equal(recovered.summary.workloads.find((w: Json) => w.object.name === 'db').outcome, 'recovered');
    const two = JSON.parse(run('simulate', file, '--format', 'json', '--target', 'node/worker-a1,node/worker-b1', '--duration', '2m').stdout);
    assert.deepEqual(two.summary.failedNodes, ['worker-a1', 'worker-b1']);
    // A pod name that matches no pod at its time deletes nothing: the header says so, with the names
    // then, under the command as given; so does stderr where the header is not on the terminal.
    const typo = run('simulate', file, '--target', 'StatefulSet/db', '--force-delete', 'db-1@7m', '--duration', '8m');
    assert.equal(typo.code, 0);
    const typoNote = '--force-delete db-1 at 7m: no pod of that name exists then, so nothing was deleted; did you mean db-0? Pods then: db-0, web-nzdbsrtc9f-b8h55, web-nzdbsrtc9f-zm5jx.';
    assert.ok(typo.stdout.includes(`\nMeanwhile: kubectl delete pod --force --grace-period=0 db-1 at 7m.\n`), typo.stdout.slice(0, 600));
    assert.ok(typo.stdout.includes(`\nNote: ${typoNote}\n`), typo.stdout.slice(0, 600));
    assert.equal(typo.stderr, '');
    const typoJson = run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--force-delete', 'db-1@7m', '--duration', '8m');
    assert.equal(typoJson.stderr, `kube-failure-sim: note: ${typoNote}\n`);
    assert.ok((JSON.parse(typoJson.stdout).scenario.notes as string[]).includes(typoNote));
    const found = run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--force-delete', 'db-0@7m', '--duration', '8m');
    assert.equal(found.stderr, '');
    assert.ok(!(JSON.parse(found.stdout).scenario.notes as string[]).some((n) => n.includes('nothing was deleted')));
    // After the node is back, Kind/name finds no pod to remedy: the healthy one there is left alone.
    const late = run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--recover-after', '25m', '--force-delete', 'StatefulSet/db@40m', '--duration', '45m');
    assert.equal(late.stderr, 'kube-failure-sim: note: --force-delete StatefulSet/db at 40m: no pod of it is on a node still down then, so nothing was deleted.\n');
    const events = JSON.parse(late.stdout).events as Json[];
    assert.ok(!events.some((e) => e.type === 'PodRemoved' && e.t >= 40 * 60_000), 'nothing removed at 40m');
    // A zone with no pod then is said in its own words; one the cluster lacks is an error of that flag.
    assert.match(run('simulate', file, '--target', 'StatefulSet/db', '--delete', 'zone/zone-c@7m', '--duration', '8m').stdout, /\nNote: --delete zone\/zone-c at 7m: no pod is on that zone then, so nothing was deleted\.\n/);
    assert.match(run('simulate', file, '--target', 'StatefulSet/db', '--delete', 'zone/zone-q@7m', '--duration', '8m').stderr, /^kube-failure-sim: --delete zone\/zone-q: no such zone in the cluster/);
    // The out-of-service taint and the node's deletion still act on a node that failed, back or not.
    // A Node of --cluster the API server does not serve is refused, not dropped.
    const cluster = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {apiVersion: v2, kind: Node, metadata: {name: n2}}\n' });
    const refused = run('simulate', file, '--cluster', path.join(cluster, 'nodes.yaml'));
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Node: Kubernetes does not serve v2/);
    const after = JSON.parse(run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--recover-after', '2m', '--out-of-service-after', '5m', '--delete-node-after', '6m', '--duration', '7m').stdout).events as Json[];
    assert.deepEqual(after.filter((e) => e.type === 'Intervention').map((e) => e.reason), ['OutOfService', 'DeleteNode']);
  });

  it('warns of what is scheduled after the end of the run, and still runs', () => {
    const late = run('simulate', file, '--duration', '3m', '--target', 'node/worker-a1,node/worker-b1@4m', '--recover-after', '5m', '--restart-controller-manager-at', '10m');
    assert.equal(late.code, 0);
    assert.deepEqual(late.stderr.trim().split('\n'), [
      'kube-failure-sim: the return of node/worker-a1 at 5m is after the end of the run (3m simulated), so the run does not show it; simulate longer',
      'kube-failure-sim: the failure of node/worker-b1 at 4m is after the end of the run (3m simulated), so the run does not show it; simulate longer',
      'kube-failure-sim: the controller-manager restart at 10m is after the end of the run (3m simulated), so the run does not show it; simulate longer',
    ]);
    assert.equal(run('simulate', file, '--duration', '3m', '--recover-after', '3m').stderr, '');
    const none = run('simulate', file, '--duration', '0s');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--duration must be at least 1ms/);
  });

  it('fails targets at their own times and brings them back at their own times', () => {
    const report: Json = JSON.parse(run('simulate', file, '--format', 'json', '--duration', '5m',
      '--target', 'node/worker-a1@0s,node/worker-b1@60s', '--recover-after', 'node/worker-a1@2m,node/worker-b1@30s').stdout);
    const faults = report.events.filter((e: Json) => e.type === 'Fault' || e.type === 'Recovery').map((e: Json) => [e.t, e.object.name, e.type]);
    assert.deepEqual(faults, [[0, 'worker-a1', 'Fault'], [60_000, 'worker-b1', 'Fault'], [90_000, 'worker-b1', 'Recovery'], [120_000, 'worker-a1', 'Recovery']]);
    assert.deepEqual(report.scenario.faults.map((f: Json) => [f.targets, f.failedNodes, f.atMs, f.recoverAfterMs]),
      [[['node/worker-a1'], ['worker-a1'], 0, 120_000], [['node/worker-b1'], ['worker-b1'], 60_000, 30_000]]);
    const text = run('simulate', file, '--duration', '3m', '--target', 'node/worker-a1,node/worker-b1@1m').stdout;
    assert.match(text, /^Failure: power-off of worker-a1 at 0s, never recovers; worker-b1 at 1m, never recovers; Kubernetes/);
    // Every target delayed: times count from the first failure, which is worker-a1's at 30 s.
    const delayed: Json = JSON.parse(run('simulate', file, '--format', 'json', '--duration', '3m', '--target', 'node/worker-a1@30s,node/worker-b1@90s').stdout);
    assert.deepEqual(delayed.events.filter((e: Json) => e.type === 'Fault').map((e: Json) => [e.t, e.object.name]), [[0, 'worker-a1'], [60_000, 'worker-b1']]);
    assert.deepEqual(delayed.scenario.faults.map((f: Json) => f.atMs), [0, 60_000]);
    const bad = run('simulate', file, '--target', 'node/worker-a1@soon');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--target needs NAME or NAME@DURATION items, such as node\/a@0s,node\/b@60s; got "node\/worker-a1@soon"/);
    // A node in two targets of their own times would fail again while down; in one failure together it fails once.
    const twice = run('simulate', file, '--target', 'zone/zone-a@0s,node/worker-a1@1m');
    assert.equal(twice.code, 2);
    assert.equal(twice.stderr, 'kube-failure-sim: target node/worker-a1: worker-a1 already fails as part of zone/zone-a, at that target\'s time; a node fails once, so name it in one target only.\n');
    assert.equal(run('simulate', file, '--duration', '1m', '--target', 'zone/zone-a,node/worker-a1').code, 0);
  });

  it('writes the same bytes to a file (-o) as to standard output, and says when it cannot', () => {
    const out = path.join(dir, 'out');
    for (const format of ['json', 'text']) {
      const args = ['simulate', file, '--format', format, '--duration', '10m', '--runs', '2'];
      const printed = run(...args).stdout;
      const written = run(...args, '-o', path.join(out, `report.${format}`));
      assert.equal(written.code, 0);
      assert.equal(fs.readFileSync(path.join(out, `report.${format}`), 'utf8'), printed);
      assert.match(written.stderr, new RegExp(`^Wrote .*report\\.${format} \\(${Math.round(Buffer.byteLength(printed) / 1024)} KiB\\)\n$`));
    }
    const intoDirectory = run('simulate', file, '-o', out);
    assert.equal(intoDirectory.code, 2);
    assert.match(intoDirectory.stderr, /^kube-failure-sim: cannot write .*out: EISDIR/);
  });

  it('takes the new failure modes, zone targets and graceful deletes', () => {
    const zone: Json = JSON.parse(run('simulate', file, '--format', 'json', '--failure', 'zone-outage', '--target', 'zone/zone-b', '--duration', '1m').stdout);
    assert.deepEqual(zone.summary.failedNodes, ['worker-b1', 'worker-b2']);
    const noZone = run('simulate', file, '--failure', 'zone-outage', '--target', 'zone/zone-q');
    assert.equal(noZone.code, 2);
    assert.match(noZone.stderr, /zone\/zone-q.*no such zone in the cluster/);
    const shutdown: Json = JSON.parse(run('simulate', file, '--format', 'json', '--failure', 'graceful-shutdown', '--set', 'kubelet.shutdownGracePeriod=30s', '--target', 'StatefulSet/db', '--duration', '2m').stdout);
    assert.equal(shutdown.summary.workloads.find((w: Json) => w.object.name === 'db').outcome, 'replaced');
    const deleted: Json = JSON.parse(run('simulate', file, '--format', 'json', '--target', 'StatefulSet/db', '--delete', 'db-0@1m', '--duration', '3m').stdout);
    const deletion = deleted.events.find((e: Json) => e.type === 'PodDeletionStarted' && e.object.name === 'db-0');
    assert.deepEqual([deletion.t, deletion.detail.gracePeriodSeconds, deletion.detail.by], [60_000, 30, 'kubectl delete']);
    // SEMANTICS.md 18: a StatefulSet pod deleted normally on a dead node stays Terminating and is not replaced.
    assert.equal(deleted.summary.workloads.find((w: Json) => w.object.name === 'db').outcome, 'stuck');
    const restart: Json = JSON.parse(run('simulate', file, '--format', 'json', '--restart-controller-manager-at', '2m', '--set', 'sim.leaderElectionDelay=16s', '--duration', '3m').stdout);
    assert.deepEqual(restart.events.filter((e: Json) => e.object.kind === 'Lease').map((e: Json) => [e.t, e.reason]), [[120_000, 'ControllerManagerRestart'], [136_000, 'LeaderElection']]);
    const packed: Json = JSON.parse(run('simulate', file, '--format', 'json', '--placement', 'worst', '--duration', '1m').stdout);
    assert.equal(packed.scenario.placement, 'worst');
    assert.equal(packed.summary.placement, 'worst');
    assert.match(run('simulate', file, '--placement', 'spread', '--duration', '1m').stdout, /placement spread \(each workload's pods spread/);
    const bad = run('simulate', file, '--placement', 'random');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--placement must be scheduler, worst, spread, not "random"/);
  });

  it('reads timing from cluster configuration files among the inputs, with file:line as the source', () => {
    const kcm = 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    command:\n    - kube-controller-manager\n    - --node-monitor-grace-period=25s\n';
    const withConfig = write({ 'app.yaml': DB, 'kcm.yaml': kcm });
    const report: Json = JSON.parse(run('simulate', withConfig, '--format', 'json', '--duration', '2m').stdout);
    assert.deepEqual(report.timing['kcm.node-monitor-grace-period'], { value: 25_000, unit: 'ms', source: `${path.join(withConfig, 'kcm.yaml')}:9` });
    assert.ok(!report.summary.workloads.some((w: Json) => w.object.name === 'kube-controller-manager'), 'a control-plane static pod is not a workload');
  });

  it('reports each summary time as {min, median, max} over --runs seeds', () => {
    const report: Json = JSON.parse(run('simulate', file, '--format', 'json', '--runs', '5', '--target', 'StatefulSet/db', '--duration', '7m').stdout);
    const db = report.summary.workloads.find((w: Json) => w.object.name === 'db');
    assert.deepEqual(Object.keys(db.nodeNotReadyMs), ['min', 'median', 'max']);
    assert.ok(db.nodeNotReadyMs.min <= db.nodeNotReadyMs.median && db.nodeNotReadyMs.median <= db.nodeNotReadyMs.max);
    assert.ok(db.nodeNotReadyMs.min < db.nodeNotReadyMs.max, 'seeds differ');
    assert.deepEqual(db.outcomes, { stuck: 5 });
    // As the contract has them: the cause and the pods Pending before the failure, of a run of the most frequent outcome.
    assert.equal(db.cause.kind, 'statefulset-identity');
    assert.equal(db.pendingBeforeFailure, null);
    assert.equal(report.scenario.runs, 5);
  });

  it('--profile none is the version\'s own defaults, as the editor\'s setting of that name', () => {
    const none = run('simulate', file, '--profile', 'none', '--duration', '1m', '--format', 'json');
    assert.equal(none.code, 0);
    assert.deepEqual(JSON.parse(none.stdout).timing, JSON.parse(run('simulate', file, '--duration', '1m', '--format', 'json').stdout).timing);
  });

  it('--runs N after --seed S runs seeds S..S+N-1, and says so', () => {
    const args = [file, '--target', 'StatefulSet/db', '--duration', '7m'];
    const notReady = (seed: string) => JSON.parse(run('simulate', ...args, '--format', 'json', '--seed', seed).stdout).summary.workloads.find((w: Json) => w.object.name === 'db').nodeNotReadyMs;
    const both: Json = JSON.parse(run('simulate', ...args, '--format', 'json', '--seed', '3', '--runs', '2').stdout);
    const [a, b] = [notReady('3'), notReady('4')];
    assert.notEqual(a, b);
    assert.deepEqual(both.summary.workloads.find((w: Json) => w.object.name === 'db').nodeNotReadyMs, { min: Math.min(a, b), median: Math.round((a + b) / 2), max: Math.max(a, b) });
    assert.match(run('simulate', ...args, '--seed', '3', '--runs', '2').stdout, /^OVER 2 RUNS \(seeds 3\.\.4\): min \/ median \/ max$/m);
  });

  it('simulates on Node objects given with --cluster', () => {
    const nodes = `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1, labels: {topology.kubernetes.io/zone: z1}}, status: {allocatable: {cpu: "2", memory: 4Gi, pods: "20"}}}
- {apiVersion: v1, kind: Node, metadata: {name: n2, labels: {topology.kubernetes.io/zone: z2}}, status: {allocatable: {cpu: "2", memory: 4Gi, pods: "20"}}}
`;
    const clusterDir = write({ 'nodes.yaml': nodes });
    const report: Json = JSON.parse(run('simulate', file, '--format', 'json', '--cluster', path.join(clusterDir, 'nodes.yaml'), '--duration', '1m').stdout);
    assert.deepEqual(report.scenario.cluster.nodes.map((n: Json) => n.name), ['n1', 'n2']);
  });

  it('refuses a zone outage on nodes without a zone label, which would take every such node', () => {
    const dir = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {apiVersion: v1, kind: Node, metadata: {name: n2}}\n' });
    const cluster = path.join(dir, 'nodes.yaml');
    const byNode = run('simulate', file, '--cluster', cluster, '--failure', 'zone-outage', '--target', 'node/n1');
    assert.equal(byNode.code, 2);
    assert.match(byNode.stderr, /zone-outage: n1 has no topology\.kubernetes\.io\/zone label, so it has no zone to take down/);
    const byZone = run('simulate', file, '--cluster', cluster, '--failure', 'zone-outage', '--target', 'zone/x');
    assert.match(byZone.stderr, /has no zones: no node has a topology\.kubernetes\.io\/zone label/);
    assert.doesNotMatch(byZone.stderr, /no zone\)/);
  });

  it('the header\'s timing names every knob the run sets besides the key ones; a flag the version does not have is said so in the JSON', () => {
    const { stdout } = run('simulate', file, '--duration', '1m', '--failure', 'kubelet-not-ready', '--set', 'apiserver.default-not-ready-toleration-seconds=60');
    assert.match(stdout, /^Timing: .*default-unreachable-toleration-seconds=300 \(Kubernetes 1\.\d+ defaults\); default-not-ready-toleration-seconds=60 \(--set\)\.$/m);
    const timing = JSON.parse(run('simulate', file, '--duration', '1m', '--format', 'json').stdout).timing;
    assert.match(timing['kcm.enable-taint-manager'].source, /^not a setting of Kubernetes 1\.\d+$/);
    assert.match(timing['kcm.pod-eviction-timeout'].source, /^not a setting of Kubernetes 1\.\d+$/);
    assert.equal(JSON.parse(run('simulate', file, '--duration', '1m', '--format', 'json', '--k8s-version', '1.26').stdout).timing['kcm.enable-taint-manager'].source, 'Kubernetes 1.26 default');
  });

  it('writes to standard output with -o -', () => {
    const { code, stdout } = run('simulate', file, '--duration', '1m', '-o', '-');
    assert.equal(code, 0);
    assert.match(stdout, /^Failure: power-off/);
  });

  it('says when the grace period is shorter than the lease renewals: a real cluster would mark healthy nodes Unknown, the simulator does not', () => {
    const short = run('simulate', file, '--duration', '1m', '--set', 'kcm.node-monitor-grace-period=1ms');
    assert.equal(short.code, 0);
    assert.match(short.stderr, /kcm\.node-monitor-grace-period 1ms \(--set\) is shorter than the kubelets' lease renewals \(every 10s\): a real cluster would mark its healthy nodes Unknown/);
    assert.doesNotMatch(run('simulate', file, '--duration', '1m').stderr, /lease renewals/);
  });

  it('a YAML error that hides every workload is told once, at its place, then named as the reason', () => {
    const dir = write({ 'web.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web\n' });
    const { code, stderr } = run('simulate', path.join(dir, 'web.yaml'));
    assert.equal(code, 2);
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, stderr);
    assert.match(lines[0], /web\.yaml:3:\d+ YAML syntax error: .*\(document skipped\)$/);
    assert.match(lines[1], /^kube-failure-sim: no workload was found: .*web\.yaml cannot be read past the error above\. Fix it first\.$/);
  });

  it('a file read only up to the document limit says so, and that what follows is not simulated', () => {
    const configMaps = Array.from({ length: MAX_DOCUMENTS }, (_, i) => `{apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}}\n`).join('---\n');
    const dir = write({ 'many.yaml': `${configMaps}---\n${DB}` });
    const { code, stderr } = run('simulate', path.join(dir, 'many.yaml'), '--duration', '1m');
    assert.equal(code, 2);
    assert.match(stderr, /^kube-failure-sim: \S*many\.yaml:1:1 File has more than 10,000 documents; only the first 10,000 were analysed\. The rest of the file is not simulated\.\nkube-failure-sim: The input has no workload/);
  });

  it('a document kubectl reads no object from is refused in kubectl\'s name, not as settings', () => {
    const dir = write({ 'web.yaml': `apiVersion: apps/v1\nkind:\nmetadata: {name: x}\n---\n${DB}` });
    const { code, stderr } = run('simulate', path.join(dir, 'web.yaml'));
    assert.equal(code, 1);
    assert.match(stderr, /web\.yaml:2:6 error KFS092 kind must be a non-empty string\.\nkube-failure-sim: kubectl would refuse these documents; fix them first \(nothing simulated\)\.\n$/);
  });

  it('reports a YAML error in the --cluster file at its line, not as a file without Node objects', () => {
    const clusterDir = write({ 'nodes.yaml': 'items:\n- {apiVersion: v1, kind: Node, metadata: {name: a}\n' });
    const { code, stderr } = run('simulate', file, '--cluster', path.join(clusterDir, 'nodes.yaml'));
    assert.equal(code, 2);
    assert.match(stderr, /nodes\.yaml:2:\d+: .*YAML syntax error/);
    assert.doesNotMatch(stderr, /no Node objects/);
    // A field the API server refuses, and a name given twice, are errors too.
    const bad = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "-4"}}}\n' });
    assert.match(run('simulate', file, '--cluster', path.join(bad, 'nodes.yaml')).stderr, /nodes\.yaml:4:\d+: status\.allocatable\.cpu is negative \(-4\); a resource quantity here must be 0 or more\./);
    const twice = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: a}}\n- {apiVersion: v1, kind: Node, metadata: {name: a}}\n' });
    assert.match(run('simulate', file, '--cluster', path.join(twice, 'nodes.yaml')).stderr, /nodes\.yaml:5:\d+: Node a is listed twice \(first at line 4\)/);
    // A name that is not a string is no name: the API server refuses the Node.
    const numbered = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: 12345}}\n' });
    assert.match(run('simulate', file, '--cluster', path.join(numbered, 'nodes.yaml')).stderr, /nodes\.yaml:4:\d+: The API server rejects this Node: metadata\.name must be a string; it is the number 12345/);
    // As given among the manifests (KFS094): a name that is not a DNS subdomain, or an empty one.
    const named = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: "<b>N1</b>"}}\n' });
    assert.match(run('simulate', file, '--cluster', path.join(named, 'nodes.yaml')).stderr, /nodes\.yaml:4:\d+: The API server rejects this Node: "<b>N1<\/b>" is not a valid name \(a name must be a DNS-1123 subdomain/);
    const empty = write({ 'nodes.yaml': 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: ""}}\n' });
    assert.match(run('simulate', file, '--cluster', path.join(empty, 'nodes.yaml')).stderr, /nodes\.yaml:4:\d+: The API server rejects this Node: metadata\.name is required/);
    // A folder of node files: the error names the file in it, at its line.
    const folder = write({ 'a.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: a}\n', 'b.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: b}\nmetadata: {name: c}\n' });
    const inFolder = run('simulate', file, '--cluster', folder).stderr;
    assert.ok(inFolder.startsWith(`kube-failure-sim: ${path.join(folder, 'b.yaml')}:4:1: `) && inFolder.includes('duplicated mapping key'), inFolder);
  });

  it('says when a control-plane image is of a version it does not know, and which defaults it used instead', () => {
    const kcm = 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.19.16\n    command: [kube-controller-manager]\n';
    const folder = write({ 'kcm.yaml': kcm, 'app.yaml': DB });
    const { code, stdout } = run('simulate', folder, '--duration', '1m');
    assert.equal(code, 0);
    assert.match(stdout, /\nNote: .*kcm\.yaml:7: version v1\.19\.16: Kubernetes 1\.19 is outside the versions the simulator knows \(1\.20–1\.\d+\)\. The defaults of 1\.\d+ are used\.\n/);
    // Another image that tells a version it knows: that one is used, and nothing is said of the first.
    const apiServer = kcm.replace(/kube-controller-manager/g, 'kube-apiserver').replace('v1.19.16', 'v1.30.2');
    const both = run('simulate', write({ 'a-kcm.yaml': kcm, 'b-api.yaml': apiServer, 'app.yaml': DB }), '--duration', '1m').stdout;
    assert.match(both, /; Kubernetes 1\.30;/);
    assert.doesNotMatch(both, /Note: .*v1\.19\.16/);
    // The same two images as two documents of one file.
    const oneFile = run('simulate', write({ 'control-plane.yaml': `${kcm}---\n${apiServer}`, 'app.yaml': DB }), '--duration', '1m').stdout;
    assert.match(oneFile, /; Kubernetes 1\.30;/);
    assert.doesNotMatch(oneFile, /Note: .*v1\.19\.16/);
  });

  it('rejects bad input with a clear message and exit code 2', () => {
    const cases: [string[], RegExp][] = [
      [['--failure', 'meteor'], /--failure must be power-off, kubelet-stop, partition, kubelet-not-ready, disk-failure, graceful-shutdown or zone-outage, not "meteor"/],
      [['--duration', 'forever'], /--duration must be a duration such as 90s or 5m, not "forever"/],
      [['--target', 'node/nope'], /^kube-failure-sim: --target node\/nope: no such node in the cluster \(the default .*\); nodes: worker-a1, worker-a2, worker-b1, worker-b2, worker-c1, worker-c2\.\n$/],
      [['--target', 'node/worker-a3'], /--target node\/worker-a3: no such node in the cluster .*; did you mean worker-a1\? Nodes: worker-a1, /],
      [['--target', 'Deployment/nope'], /--target Deployment\/nope: no such workload in the input; did you mean Deployment\/web\? Workloads: Deployment\/web, StatefulSet\/db\.\n$/],
      [['--set', 'kcm.node-monitor-grace-period=soon'], /kcm.node-monitor-grace-period must be a duration such as 40s or 1m30s; got "soon" \(--set\)/],
      [['--set', 'nope=1'], /Unknown setting "nope"/],
      [['--k8s-version', '1.12'], /Kubernetes 1\.12 is outside the versions the simulator knows \(1\.20–1\.36\)/],
      [['--profile', 'turbo'], /Unknown profile "turbo"/],
      // Back the instant it fails: nothing would happen, and the summary would say "recovered".
      [['--recover-after', '0s'], /^kube-failure-sim: --recover-after 0s: the node would be back the instant it fails, so nothing would happen; give a time after the failure, such as 2m\.\n$/],
      [['--target', 'node/worker-a1,node/worker-b1', '--recover-after', 'node/worker-a1@0s,node/worker-b1@2m'], /^kube-failure-sim: --recover-after node\/worker-a1@0s: the node would be back the instant it fails/],
      [['--force-delete', 'db-0'], /--force-delete needs POD@DURATION/],
      // A time that is a duration but one the simulator cannot take: said as such, not as a wrong shape.
      [['--force-delete', 'Deployment/web@-1s'], /--force-delete Deployment\/web@-1s: the time -1s is negative; times count from the failure, 0s or later/],
      [['--delete', 'Deployment/web@99999h'], /--delete Deployment\/web@99999h: 99999h is longer than the 7 days the simulator accepts/],
      [['--target', 'node/worker-a1@0s,node/worker-b1@9999999h'], /--target node\/worker-b1@9999999h: 9999999h is longer than the 7 days/],
      [['--recover-after', '9999999h'], /--recover-after 9999999h is longer than the 7 days/],
      [['--duration', '1us'], /--duration must be at least 1ms/],
      [['-o', ''], /-o needs a file name \(or - for standard output\)/],
      [['-', '--cluster', '-'], /standard input \(-\) is given for the manifests and for --cluster; it can be read once/],
      [['--runs', '0'], /--runs must be a whole number from 1 to 1000/],
      [['--seed='], /--seed must be a whole number from 0 to 2147483648/],
      [['--seed', ' '], /--seed must be a whole number from 0 to 2147483648/],
      [['--seed', '99999999999'], /--seed must be a whole number from 0 to 2147483648/],
      [['--runs', '1e1'], /--runs must be a whole number from 1 to 1000/],
      [['--target', ','], /--target names nothing; give NAME or NAME@DURATION items/],
      [['--target', 'node/worker-a1', '--recover-after', 'node/worker-b1@2m'], /^kube-failure-sim: --recover-after node\/worker-b1: has a time but is not among the targets \(node\/worker-a1\)\.\n$/],
      [['--force-delete', 'db-0@1m', '--force-delete', 'db-0@1m'], /^kube-failure-sim: --force-delete db-0@1m is given twice; give it once\n/],
      [['--restart-controller-manager-at', '1m', '--restart-controller-manager-at', '60s'], /^kube-failure-sim: --restart-controller-manager-at 60s is given twice; give each restart once\n/],
      [['--duration', ' 1m'], /--duration must be a duration such as/],
      [['--target', 'node/worker-a1@30s,node/worker-a1@0s'], /^kube-failure-sim: --target node\/worker-a1: this target is given twice; give each target once\.\n$/],
      [['--target', 'node/worker-a1,worker-a1'], /^kube-failure-sim: --target worker-a1: this is the same target as node\/worker-a1; give each target once\.\n$/],
      [['--target', 'node/worker-a1', '--recover-after', 'node/worker-a1@1m,node/worker-a1@2m'], /^kube-failure-sim: --recover-after: node\/worker-a1 is given twice; give each target one time\n/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = run('simulate', file, ...args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, message);
    }
    // A missing scenario file in the words a missing manifest gets, not Node's ENOENT.
    assert.deepEqual(run('simulate', '--scenario', 'no-such.failure-scenario.yaml'), { code: 2, stdout: '', stderr: 'kube-failure-sim: no such file or directory: no-such.failure-scenario.yaml\n' });
    const empty = write({ 'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n' });
    const { code, stderr } = run('simulate', empty);
    assert.equal(code, 2);
    assert.match(stderr, /The input has no workload/);
  });

  it('tells apart workloads of one kind and name in two namespaces: in the summary, and as a target (Kind/namespace/name)', () => {
    const web = (namespace: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ${namespace}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n`;
    const dir = write({ 'web.yaml': `${web('shop')}---\n${web('other')}` });
    const ambiguous = run('simulate', dir, '--target', 'Deployment/web');
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /Deployment web is in 2 namespaces \(shop, other\): name one, such as Deployment\/shop\/web/);
    const named = run('simulate', dir, '--target', 'Deployment/other/web', '--duration', '2m');
    assert.equal(named.code, 0, named.stderr);
    const rows = named.stdout.split('\n').filter((line) => line.startsWith('Deployment/'));
    assert.deepEqual(rows.map((line) => line.split(/\s+/)[0]), ['Deployment/other/web', 'Deployment/shop/web']);
  });

  it('never writes -o over a file it reads: a manifest (named, in a folder, through a link), the Node list, the scenario file', () => {
    const nodes = 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n';
    const dir = write({ 'db.yaml': DB, 'nodes.yaml': nodes, 's.yaml': 'apiVersion: kube-failure-sim.dev/v1alpha1\nkind: FailureScenario\nspec: {manifests: [db.yaml], duration: 1m}\n' });
    fs.symlinkSync(path.join(dir, 'db.yaml'), path.join(dir, 'link.yaml'));
    const file = (name: string) => path.join(dir, name);
    for (const [args, input] of [
      [[file('db.yaml'), '--duration', '1m', '-o', file('db.yaml')], 'db.yaml'],
      [[dir, '--format', 'json', '-o', file('db.yaml')], 'db.yaml'],
      [[file('db.yaml'), '-o', file('link.yaml')], 'db.yaml'],
      [[file('db.yaml'), '--cluster', file('nodes.yaml'), '-o', file('nodes.yaml')], 'nodes.yaml'],
      [['--scenario', file('s.yaml'), '-o', file('s.yaml')], 's.yaml'],
    ] as [string[], string][]) {
      const before = fs.readFileSync(file(input), 'utf8');
      const result = run('simulate', ...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /^kube-failure-sim: the output file .* an input of this run; the report would overwrite it\. Write it elsewhere\.\n$/);
      assert.equal(fs.readFileSync(file(input), 'utf8'), before);
    }
  });

  it('-o is an option where an option may stand: not as another option\'s value, nor after --', () => {
    const dir = write({ 'db.yaml': DB });
    const named = run('simulate', path.join(dir, 'db.yaml'), '--duration', '1m', '--target', 'node/worker-a1', '-o', path.join(dir, 'out.txt'));
    assert.equal(named.code, 0);
    assert.ok(fs.existsSync(path.join(dir, 'out.txt')));
    // After --, "-o" is a path like any other, as check reads it.
    const after = run('simulate', path.join(dir, 'db.yaml'), '--duration', '1m', '--', '-o');
    assert.match(after.stderr, /no such file or directory: -o\n/);
    assert.match(run('simulate', path.join(dir, 'db.yaml'), '-o').stderr, /^kube-failure-sim: -o needs a value/);
    // Its value joined to it, as pflag takes it.
    for (const joined of [`-o${path.join(dir, 'a.txt')}`, `-o=${path.join(dir, 'b.txt')}`]) assert.equal(run('simulate', path.join(dir, 'db.yaml'), '--duration', '1m', joined).code, 0, joined);
    assert.ok(fs.existsSync(path.join(dir, 'a.txt')) && fs.existsSync(path.join(dir, 'b.txt')));
  });

  it('says why it cannot write -o: a file in the way, a directory it may not make (never loops under /proc)', () => {
    const dir = write({ 'db.yaml': DB, 'file.txt': 'x' });
    const through = run('simulate', path.join(dir, 'db.yaml'), '--duration', '1m', '-o', path.join(dir, 'file.txt', 'out.json'));
    assert.equal(through.code, 2);
    assert.match(through.stderr, /^kube-failure-sim: cannot write .*file\.txt\/out\.json: ENOTDIR: not a directory/);
    if (fs.existsSync('/proc/self')) {
      const proc = run('simulate', path.join(dir, 'db.yaml'), '--duration', '1m', '-o', '/proc/kfs-none/out.json');
      assert.equal(proc.code, 2);
      assert.match(proc.stderr, /^kube-failure-sim: cannot write \/proc\/kfs-none\/out\.json: /);
    }
    const nested = run('simulate', path.join(dir, 'db.yaml'), '--duration', '1m', '-o', path.join(dir, 'a', 'b', 'out.txt'));
    assert.equal(nested.code, 0);
    assert.ok(fs.existsSync(path.join(dir, 'a', 'b', 'out.txt')));
  });
});

