import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { timelineData } from '../../src/extension/timelineData';
import { simulate } from '../../src/sim/simulate';
import { isHostMessage, isWebviewMessage } from '../../webview/protocol';
import { deployment, scenarioOf } from '../sim/support';
import { REPO_ROOT } from '../support/shared';

describe('timeline webview data', () => {
  const scenario = scenarioOf([deployment('web', 2), deployment('<img src=x onerror=alert(1)>', 1)], { durationMs: 10 * 60_000 });
  const data = timelineData(scenario, simulate(scenario), 'app.yaml');

  it('carries a summary per workload and the watch rows in time order', () => {
    assert.deepEqual(data.summary.map((s) => s.workload), ['Deployment/web', 'Deployment/<img src=x onerror=alert(1)>']);
    assert.match(data.title, /^power-off of worker-\w+: app\.yaml$/);
    assert.ok(data.rows.length > 0);
    for (let i = 1; i < data.rows.length; i++) assert.ok(data.rows[i - 1].t <= data.rows[i].t, `row ${i} goes back in time`);
    assert.ok(data.rows.some((r) => r.event && r.status === 'NodeNotReady'));
    assert.ok(data.rows.some((r) => !r.event && r.name.startsWith('pod/') && r.status === 'Terminating'));
  });

  it('passes the receiver check after a JSON round trip, and malformed messages do not', () => {
    assert.ok(isHostMessage(JSON.parse(JSON.stringify({ type: 'showTimeline', data }))));
    assert.equal(isHostMessage({ type: 'showTimeline', data: { ...data, rows: [{ ...data.rows[0], t: '5' }] } }), false);
    assert.equal(isHostMessage({ type: 'showTimeline', data: { ...data, summary: [{ workload: 1 }] } }), false);
    assert.equal(isHostMessage({ type: 'other', data }), false);
    assert.equal(isHostMessage(null), false);
    assert.ok(isWebviewMessage({ type: 'rerun' }));
    assert.equal(isWebviewMessage({ type: 'eval', code: 'x' }), false);
  });

  it('renders every string as text: the webview never writes HTML', () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, 'webview', 'main.ts'), 'utf8');
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
    assert.match(source, /textContent/);
  });
});
