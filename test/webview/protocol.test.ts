import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { traceReport } from '../../src/report/jsonReport';
import { simulate } from '../../src/sim/simulate';
import { packReport } from '../../src/report/packedTrace';
import { isHostMessage, isHostNotice, isPackedTrace, isRunRef, isWebviewMessage } from '../../webview/protocol';
import { deployment, scenarioOf } from '../sim/support';
import { REPO_ROOT } from '../support/shared';

describe('webview protocol', () => {
  const scenario = scenarioOf([deployment('web', 2), deployment('<img src=x onerror=alert(1)>', 1)], { durationMs: 10 * 60_000 });
  const report = traceReport(scenario, ['app.yaml'], simulate(scenario));
  const packed = packReport(report);
  const message = { type: 'showTrace', title: 'power-off: app.yaml', report: packed };

  it('carries the trace JSON itself, packed, which passes the receiver check after a JSON round trip', () => {
    assert.ok(isHostMessage(JSON.parse(JSON.stringify(message))));
  });

  it('keeps a run\'s version, preset, placement and seed, checked on receipt', () => {
    const run = { document: 'file:///app.yaml', failure: 'power-off', targets: [], kubernetesVersion: '1.31', profile: 'fast', placement: 'spread', seed: 3 };
    assert.ok(isRunRef(run));
    assert.ok(isHostMessage({ ...message, run }));
    for (const broken of [{ kubernetesVersion: 1.31 }, { profile: null }, { placement: 2 }, { seed: 1.5 }, { seed: -1 }]) assert.ok(!isRunRef({ ...run, ...broken }), JSON.stringify(broken));
  });

  it('tells a page its run is out of date with a notice of one field, which is no trace', () => {
    assert.ok(isHostNotice({ type: 'inputChanged' }));
    for (const other of [{ type: 'inputChanged', extra: 1 }, { type: 'changed' }, 'inputChanged', null]) assert.ok(!isHostNotice(other), JSON.stringify(other));
    assert.ok(!isHostMessage({ type: 'inputChanged' }));
  });

  it('rejects malformed messages', () => {
    const broken = JSON.parse(JSON.stringify(message));
    broken.report.events[0][0] = '5';
    assert.equal(isHostMessage(broken), false);
    assert.equal(isHostMessage({ ...message, report: { ...packed, rest: { ...packed.rest, summary: { workloads: [{ object: 1 }] } } } }), false);
    assert.equal(isHostMessage({ ...message, report }), false, 'an unpacked report');
    assert.equal(isHostMessage({ ...message, type: 'other' }), false);
    assert.equal(isHostMessage(null), false);
    assert.ok(isWebviewMessage({ type: 'rerun' }));
    assert.ok(isWebviewMessage({ type: 'ready' }));
    assert.ok(isWebviewMessage({ type: 'ready', load: 2 }));
    assert.equal(isWebviewMessage({ type: 'ready', load: '2' }), false);
    assert.equal(isWebviewMessage({ type: 'ready', load: 1.5 }), false);
    assert.equal(isWebviewMessage({ type: 'ready', other: 2 }), false);
    assert.ok(isWebviewMessage({ type: 'reveal', object: { kind: 'Deployment', name: 'web', namespace: 'shop' }, pod: 'web-abc' }));
    assert.equal(isWebviewMessage({ type: 'reveal', object: { kind: 'Deployment', name: 5, namespace: 'shop' } }), false);
    assert.equal(isWebviewMessage({ type: 'rerun', extra: 'x' }), false);
    assert.equal(isWebviewMessage({ type: 'eval', code: 'x' }), false);
    const run = { document: 'file:///a.yaml', failure: 'power-off', targets: ['Deployment/web'], recoverAfterMs: 60_000, interventions: [{ kind: 'force-delete', target: 'web-0', atMs: 360_000 }] };
    assert.ok(isHostMessage({ ...message, run }));
    assert.equal(isHostMessage({ ...message, run: { ...run, targets: 'Deployment/web' } }), false);
    assert.equal(isHostMessage({ ...message, run: { ...run, interventions: [{ kind: 'force-delete', atMs: '6m' }] } }), false);
  });

  it('refuses a packed trace whose indices point outside its tables, or whose rows are cut short', () => {
    const copy = () => JSON.parse(JSON.stringify(packed)) as typeof packed;
    assert.ok(isPackedTrace(copy()));
    const cases: [string, (p: typeof packed) => void][] = [
      ['a state of an object past the table', (p) => (p.states[0] = p.objects.length / 3)],
      ['a state whose status is no string', (p) => (p.states[3] = p.strings.length)],
      ['a state whose start is text', (p) => ((p.states as unknown[])[1] = '0')],
      ['a state cut short', (p) => p.states.pop()],
      ['taints that are no list', (p) => (p.states[8] = p.lists.length)],
      ['an object named by a fraction', (p) => (p.objects[1] = 0.5)],
      ['a list with a negative index', (p) => p.lists.push([-1])],
      ['a string table with a number', (p) => ((p.strings as unknown[]).push(1))],
      ['an event of no object', (p) => (p.events[0][1] = -1)],
      ['an event whose message is neither 0 nor text', (p) => (p.events[0][4] = 1)],
      ['an event with fewer detail values than keys', (p) => p.events.find((e) => e.length > 6)!.pop()],
      ['a detail value that is an undefined string', (p) => (p.events.find((e) => e.length > 6)![6] = p.strings.length)],
      ['an event that is no array', (p) => ((p.events as unknown[])[0] = { t: 0 })],
      // The page compares indices: a second copy of a string or an object would split what is one.
      ['a string twice in the table', (p) => p.strings.push(p.strings[0])],
      ['an object twice in the table', (p) => p.objects.push(p.objects[0], p.objects[1], p.objects[2])],
      // Detail values end up in text: an object that cannot become text would throw there.
      ['a detail value that cannot become text', (p) => (p.events.find((e) => e.length > 6)![6] = [{ toString: 0, valueOf: 0 }])],
      ['a detail value nested past any use', (p) => (p.events.find((e) => e.length > 6)![6] = [JSON.parse(`${'['.repeat(20)}1${']'.repeat(20)}`)])],
      // What the header reads.
      ['a header setting missing', (p) => delete (p.rest.timing as Record<string, unknown>)['kcm.node-monitor-grace-period']],
      ['a setting whose value is an object', (p) => ((p.rest.timing['kubelet.nodeLeaseDurationSeconds'] as unknown as Record<string, unknown>).value = { toString: 0 })],
      ['no notes', (p) => delete (p.rest.scenario as Partial<typeof p.rest.scenario>).notes],
      ['a fault without its nodes', (p) => ((p.rest.scenario as unknown as Record<string, unknown>).faults = [{ targets: [], atMs: 0, recoverAfterMs: null }])],
      ['a failure that is no text', (p) => ((p.rest.scenario as unknown as Record<string, unknown>).failure = { toString: 0 })],
    ];
    for (const [what, breakIt] of cases) {
      const p = copy();
      breakIt(p);
      assert.equal(isPackedTrace(p), false, what);
    }
  });

  it('the webview renders every string as text and imports nothing from the simulator or the extension', () => {
    for (const file of fs.readdirSync(path.join(REPO_ROOT, 'webview')).filter((f) => f.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(REPO_ROOT, 'webview', file), 'utf8');
      assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/, file);
      assert.doesNotMatch(source, /from '\.\.\/src\/(sim|extension)\//, file);
    }
  });

  it('imports the UI toolkit in webview/toolkit.ts only, and names its elements in webview/controls.ts only', () => {
    const files = fs.readdirSync(path.join(REPO_ROOT, 'webview')).filter((f) => f.endsWith('.ts'));
    const using = (pattern: RegExp) => files.filter((file) => pattern.test(fs.readFileSync(path.join(REPO_ROOT, 'webview', file), 'utf8')));
    assert.deepEqual(using(/@vscode\/webview-ui-toolkit/), ['toolkit.ts']);
    assert.deepEqual(using(/createElement\('vscode-/), ['controls.ts']);
  });
});
