/**
 * The workers behind the editor (src/extension/worker): the service answers what the providers
 * ask, through an in-process transport and through a real worker thread of the built bundle;
 * requests about a superseded version are answered `superseded`; simulations are superseded,
 * cancelled and stopped at their time budget by terminating their worker.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { traceReport } from '../../src/report/jsonReport';
import { simulate } from '../../src/sim/simulate';
import { defaultChoices } from '../../src/workspace/simulationChoices';
import { Workspace } from '../../src/workspace/workspace';
import { nodeWorker } from '../../src/extension/worker/nodeTransport';
import { isWorkerMessage, isWorkerResponse } from '../../src/extension/worker/protocol';
import { WorkerService } from '../../src/extension/worker/service';
import { overBudgetMessage, SimulationRunner } from '../../src/extension/worker/simulationRunner';
import { DocumentMirror, inProcessTransport, WorkerConnection, WorkerFailure, type CancelSignal } from '../../src/extension/worker/workerClient';
import { REPO_ROOT } from '../support/shared';

const FOLDER = 'file:///ws';
const URI = 'file:///ws/postgres-statefulset.yaml';
const TEXT = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'postgres-statefulset.yaml'), 'utf8');
const KUBELET_URI = 'file:///ws/cluster/kubelet-config.yaml';
const KUBELET = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'cluster', 'kubelet-config.yaml'), 'utf8');

function inProcess(mirror: DocumentMirror): WorkerConnection {
  return new WorkerConnection(() => inProcessTransport((post) => {
    const service = new WorkerService(post);
    return (message) => service.receive(message);
  }), mirror);
}

/** What the same documents give when the Workspace is called directly, as before the workers. */
function direct(): Workspace {
  const workspace = new Workspace({ overrides: [] }, (uri) => uri.slice(FOLDER.length + 1));
  workspace.setDocument(KUBELET_URI, KUBELET);
  workspace.setDocument(URI, TEXT, 1);
  return workspace;
}

function mirrorWithDocuments(): DocumentMirror {
  const mirror = new DocumentMirror();
  mirror.set(FOLDER, KUBELET_URI, KUBELET);
  mirror.set(FOLDER, URI, TEXT, 1);
  return mirror;
}

class Token implements CancelSignal {
  isCancellationRequested = false;
  private listeners: (() => void)[] = [];
  onCancellationRequested(listener: () => void) {
    this.listeners.push(listener);
    return { dispose: () => { this.listeners = this.listeners.filter((l) => l !== listener); } };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    for (const l of this.listeners) l();
  }
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof WorkerFailure, String(error));
    return error.kind;
  }
  return 'answered';
}

describe('the analysis worker (in-process transport)', () => {
  const address = { folder: FOLDER, uri: URI, version: 1 };

  it('answers what the providers ask with what the Workspace gives, across the files of the folder', async () => {
    const mirror = mirrorWithDocuments();
    const connection = inProcess(mirror);
    const expected = direct();
    const { findings } = await connection.request('analyse', address);
    assert.deepEqual(findings, structuredClone(expected.analyse(URI).findings));
    assert.ok(findings.some((f) => f.ruleId === 'KFS002'));
    const position = { line: 20, character: 13 };
    assert.deepEqual(await connection.request('hover', { ...address, position }), expected.hover(URI, position));
    assert.deepEqual(await connection.request('lenses', address), structuredClone(expected.lenses(URI)));
    const range = { start: position, end: position };
    assert.deepEqual(await connection.request('fixes', { ...address, range, preferredOnly: false }), structuredClone(expected.fixes(URI, range)));
    assert.deepEqual(await connection.request('summary', address), { workloads: [{ kind: 'StatefulSet', name: 'postgres', namespace: 'shop' }], unreachableTolerations: { seconds: [300], defaultSeconds: 300 }, nodes: [] });
    // The guided picks offer the folder's Node objects, in whichever file they are, and a saved scenario lists the files a run reads.
    mirror.set(FOLDER, 'file:///ws/nodes.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {topology.kubernetes.io/zone: z1}}\n');
    assert.deepEqual((await connection.request('summary', address)).nodes, [{ name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } }]);
    // A file with a Service of the simulated pods is read for it, with its other workloads; one whose Service selects other pods, or of workloads alone, is not.
    const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: postgres-read, namespace: shop}\nspec: {selector: {app: postgres}, ports: [{port: 5432}]}\n';
    mirror.set(FOLDER, 'file:///ws/other.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: other}\nspec: {selector: {app: other}, ports: [{port: 80}]}\n');
    const api = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: nginx}]}\n';
    mirror.set(FOLDER, 'file:///ws/api.yaml', `${service}---\n${api}`);
    mirror.set(FOLDER, 'file:///ws/jobs.yaml', api.replace(/api/g, 'jobs'));
    assert.deepEqual(await connection.request('contextFiles', address), [{ uri: KUBELET_URI, workloads: 0 }, { uri: 'file:///ws/nodes.yaml', workloads: 0 }, { uri: 'file:///ws/api.yaml', workloads: 1 }]);
    const object = expected.read(URI).objects.find((o) => o.kind === 'StatefulSet')!;
    const located = await connection.request('locate', { ...address, object: { kind: object.kind, name: object.name, namespace: object.namespace } });
    assert.deepEqual(located, object.sourceMap.valueRange('metadata.name'));
    assert.deepEqual(await connection.request('settingsProblems', {}), []);
    connection.terminate();
  });

  it('reads a document whose bytes on disk are not UTF-8 as the CLI does: one KFS090 where the editor shows U+FFFD, nothing analysed; as UTF-8 again once the editor says so', async () => {
    const mirror = new DocumentMirror();
    const connection = inProcess(mirror);
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: caf\uFFFD\n';
    const at = { folder: FOLDER, uri: 'file:///ws/latin1.yaml', version: 3 };
    mirror.set(FOLDER, at.uri, text, 3, { offset: text.indexOf('\uFFFD'), byte: 0xe9, byteOffset: 45 });
    const { findings } = await connection.request('analyse', at);
    assert.deepEqual(findings.map((f) => `${f.ruleId} ${f.range.start.line}:${f.range.start.character} ${f.message.slice(0, 62)}`), ['KFS090 3:11 Not UTF-8 text: byte 0xE9 at offset 45 is not valid UTF-8, and']);
    // The same version, no longer marked (the file was saved as UTF-8): read as its text.
    mirror.set(FOLDER, at.uri, text, 3);
    assert.ok(!(await connection.request('analyse', at)).findings.some((f) => f.ruleId === 'KFS090'));
  });

  it('builds a scenario file\'s run without simulating it: what stops it, with the field it is about', async () => {
    const connection = inProcess(new DocumentMirror());
    const files = [{ uri: 'file:///ws/web.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n' }];
    const choices = { ...defaultChoices(), targets: ['Deployment/nope'] };
    const problem = await connection.request('scenarioProblem', { folder: FOLDER, choices, files });
    assert.deepEqual([problem?.choice, problem?.value], ['target', 'Deployment/nope']);
    assert.match(problem!.message, /^target Deployment\/nope: no such workload in the input; .*Deployment\/web/);
    assert.equal(await connection.request('scenarioProblem', { folder: FOLDER, choices: { ...choices, targets: ['Deployment/web'] }, files }), null);
  });

  it('takes settings and new versions from the mirror before each request', async () => {
    const mirror = mirrorWithDocuments();
    const connection = inProcess(mirror);
    assert.ok((await connection.request('analyse', address)).findings.some((f) => f.ruleId === 'KFS002'));
    mirror.set(FOLDER, URI, TEXT.replace('replicas: 1', 'replicas: 2'), 2);
    const after = await connection.request('analyse', { ...address, version: 2 });
    assert.ok(!after.findings.some((f) => f.ruleId === 'KFS002'));
    mirror.setSettings({ overrides: [], profile: 'no-such-preset' });
    assert.equal((await connection.request('settingsProblems', {})).length, 1);
    connection.terminate();
  });

  it('answers `superseded` for a version the user has since edited, without analysing it', async () => {
    const mirror = mirrorWithDocuments();
    const connection = inProcess(mirror);
    const old = connection.request('analyse', address);
    mirror.set(FOLDER, URI, TEXT.replace('replicas: 1', 'replicas: 2'), 2);
    const current = connection.request('analyse', { ...address, version: 2 });
    assert.equal(await failureOf(old), 'superseded');
    assert.ok(!(await current).findings.some((f) => f.ruleId === 'KFS002'));
    connection.terminate();
  });

  it('drops a request whose token was cancelled, and fails open requests when the worker is stopped', async () => {
    const connection = inProcess(mirrorWithDocuments());
    const token = new Token();
    const hover = connection.request('hover', { ...address, position: { line: 20, character: 13 } }, token);
    token.cancel();
    assert.equal(await failureOf(hover), 'cancelled');
    const pending = connection.request('analyse', address);
    connection.terminate();
    assert.equal(await failureOf(pending), 'cancelled');
    assert.equal(connection.running, false);
    // The next request starts a new worker, which gets every document again.
    assert.ok((await connection.request('analyse', address)).findings.length > 0);
    connection.terminate();
  });

  it('checks messages on receipt', () => {
    assert.ok(isWorkerMessage({ type: 'setDocument', folder: '', uri: 'a', text: 'x', version: -1 }));
    assert.ok(isWorkerMessage({ type: 'setDocument', folder: '', uri: 'a', text: 'x', version: 2, notUtf8: { offset: 0, byte: 233, byteOffset: 0 } }));
    assert.ok(!isWorkerMessage({ type: 'setDocument', folder: '', uri: 'a', text: 'x', version: 2, notUtf8: { offset: -1, byte: 233, byteOffset: 0 } }));
    assert.ok(isWorkerMessage({ id: 1, type: 'hover', folder: '', uri: 'a', version: 3, position: { line: 0, character: 1 } }));
    assert.ok(!isWorkerMessage({ id: 1, type: 'hover', folder: '', uri: 'a', version: 3 }));
    assert.ok(!isWorkerMessage({ id: 1, type: 'eval', code: '1' }));
    assert.ok(!isWorkerMessage({ type: 'setDocument', folder: '', uri: 'a', version: 1 }));
    assert.ok(isWorkerResponse({ id: 1, ok: false, kind: 'superseded', message: '' }));
    assert.ok(!isWorkerResponse({ id: 1, ok: false, kind: 'other', message: '' }));
    const answers: unknown[] = [];
    const service = new WorkerService((r) => answers.push(r));
    service.receive({ id: 7, type: 'analyse' });
    assert.deepEqual(answers, [{ id: 7, ok: false, kind: 'internal', message: 'Malformed request.' }]);
  });

  it('simulates the folder as the Workspace does', async () => {
    const connection = inProcess(mirrorWithDocuments());
    const choices = { ...defaultChoices(), documents: [URI] };
    const report = await connection.request('simulate', { folder: FOLDER, choices, inputs: ['postgres-statefulset.yaml'] });
    const workspace = direct();
    const scenario = workspace.scenario(choices);
    assert.deepEqual(report, structuredClone(traceReport(scenario, ['postgres-statefulset.yaml'], simulate(scenario))));
    assert.equal(await failureOf(connection.request('simulate', { folder: FOLDER, choices: { ...choices, targets: ['Deployment/none'] }, inputs: [] })), 'input');
    connection.terminate();
  });

  it("runs a scenario file's listed files alone, as simulate --scenario does, and refuses what the API server would reject", async () => {
    const mirror = mirrorWithDocuments();
    const connection = inProcess(mirror);
    const choices = defaultChoices();
    // The folder's KubeletConfiguration is not among the files: its settings do not count.
    const listed = await connection.request('simulate', { folder: FOLDER, choices, inputs: ['postgres-statefulset.yaml'], files: [{ uri: URI, text: new TextEncoder().encode(TEXT) }] });
    const alone = new Workspace({ overrides: [] }, (uri) => uri.slice(FOLDER.length + 1));
    alone.setDocument(URI, TEXT);
    const scenario = alone.scenario(choices);
    assert.deepEqual(listed, structuredClone(traceReport(scenario, ['postgres-statefulset.yaml'], simulate(scenario))));
    const folderRun = await connection.request('simulate', { folder: FOLDER, choices, inputs: [] });
    assert.ok(Object.values(folderRun.timing).some((knob) => knob.source.startsWith('cluster/kubelet-config.yaml:')));
    assert.ok(!Object.values(listed.timing).some((knob) => knob.source.includes('kubelet-config.yaml')));

    const rejected = TEXT.replace(/matchLabels:\n(\s+)app: postgres/, 'matchLabels:\n$1app: other');
    assert.notEqual(rejected, TEXT);
    const failure = await connection.request('simulate', { folder: FOLDER, choices, inputs: [], files: [{ uri: URI, text: rejected }] }).then(() => undefined, (error: unknown) => error);
    assert.ok(failure instanceof WorkerFailure && failure.kind === 'input', String(failure));
    assert.match(failure.message, /^postgres-statefulset\.yaml:\d+: .*[^.]\. The API server would reject it; fix it first \(nothing simulated\)\.$/);
    // A guided run of the folder runs the text as written, and its header says what the API server would reject.
    mirror.set(FOLDER, URI, rejected, 2);
    const guided = await connection.request('simulate', { folder: FOLDER, choices: { ...choices, documents: [URI] }, inputs: [] });
    const rejection = failure.message.replace(/\. The API server would reject it; fix it first \(nothing simulated\)\.$/, '');
    assert.deepEqual(guided.scenario.notes.slice(-1), [`${rejection}. The API server would reject it: this run simulates the text as written, which kubectl apply would not store.`]);
    // A control-plane static pod's bad flag is its component's to refuse, not the API server's.
    const kcm = 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.29.7\n    command: [kube-controller-manager, --node-monitor-grace-periode=20s]\n';
    const flagFailure = await connection.request('simulate', { folder: FOLDER, choices, inputs: [], files: [{ uri: URI, text: TEXT }, { uri: `${FOLDER}/kcm.yaml`, text: kcm }] }).then(() => undefined, (error: unknown) => error);
    assert.ok(flagFailure instanceof WorkerFailure && flagFailure.kind === 'input', String(flagFailure));
    assert.match(flagFailure.message, /^kcm\.yaml:8: kube-controller-manager has no flag --node-monitor-grace-periode; .*\. kube-controller-manager would not start with it; fix it first \(nothing simulated\)\.$/);
    connection.terminate();
  });
});

describe('the workers as worker threads (dist/worker.js)', function () {
  this.timeout(60_000);
  const bundle = path.join(REPO_ROOT, 'dist', 'worker.js');
  before(() => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT });
  });

  it('answers an analysis from a real worker thread', async () => {
    const connection = new WorkerConnection(() => nodeWorker(bundle, 'analysis'), mirrorWithDocuments());
    const { findings } = await connection.request('analyse', { folder: FOLDER, uri: URI, version: 1 });
    assert.deepEqual(findings, structuredClone(direct().analyse(URI).findings));
    connection.terminate();
  });

  const choices = { ...defaultChoices(), documents: [URI] };
  const params = (delayMs?: number) => ({ folder: FOLDER, choices, inputs: ['postgres-statefulset.yaml'], delayMs });

  it('stops a simulation that exceeds its time budget, and runs the next one in a new worker', async () => {
    const connection = new WorkerConnection(() => nodeWorker(bundle, 'simulation'), mirrorWithDocuments());
    const runner = new SimulationRunner(connection, 300);
    const started = Date.now();
    const outcome = await runner.run('a', params(20_000)).outcome;
    assert.deepEqual(outcome, { kind: 'over-budget', message: overBudgetMessage(300) });
    assert.equal(overBudgetMessage(60_000), 'The simulation stopped after 60 s without finishing (simulate fewer pods or a shorter duration).');
    assert.ok(Date.now() - started < 5000, 'stopped at the budget, not after the 20 s the worker was busy');
    const next = await runner.run('a', params()).outcome;
    assert.equal(next.kind, 'done');
    connection.terminate();
  });

  it('supersedes a run of the same timeline, queues a run of another, and cancels on request', async () => {
    const connection = new WorkerConnection(() => nodeWorker(bundle, 'simulation'), mirrorWithDocuments());
    const runner = new SimulationRunner(connection, 30_000);
    const first = runner.run('timeline', params(20_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const other = runner.run('other timeline', params());
    const second = runner.run('timeline', params());
    assert.deepEqual(await first.outcome, { kind: 'superseded' });
    assert.equal((await other.outcome).kind, 'done');
    assert.equal((await second.outcome).kind, 'done');
    // A run waiting its turn settles as soon as it is superseded.
    const blocking = runner.run('blocking', params(1_000));
    const waiting = runner.run('queued', params());
    const replacing = runner.run('queued', params());
    assert.deepEqual(await Promise.race([waiting.outcome, blocking.outcome.then(() => 'the blocking run finished first')]), { kind: 'superseded' });
    assert.equal((await replacing.outcome).kind, 'done');
    const long = runner.run('timeline', params(20_000));
    setTimeout(() => long.cancel(), 200);
    const started = Date.now();
    assert.deepEqual(await long.outcome, { kind: 'cancelled' });
    assert.ok(Date.now() - started < 5000);
    connection.terminate();
  });
});
