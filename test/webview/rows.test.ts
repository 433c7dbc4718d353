import * as assert from 'node:assert/strict';
import { buildTimeline } from '../../src/report/timeline/model';
import { layoutRows, visibleRows } from '../../webview/rows';
import { INITIAL_UI, restoreState } from '../../webview/state';
import { exampleTrace } from '../report/timelineSupport';
import { packReport } from '../../src/report/packedTrace';

describe('timeline rows', () => {
  const timeline = buildTimeline(packReport(exampleTrace('examples', '--duration', '10m')));

  it('hides unaffected workloads by default and counts them', () => {
    const layout = layoutRows(timeline, { showUnaffected: false, collapsed: new Set() });
    assert.equal(layout.hiddenWorkloads, 3);
    assert.deepEqual(layout.rows.filter((r) => r.kind === 'workload').map((r) => r.id), ['StatefulSet/streaming/kafka', 'DaemonSet/monitoring/node-exporter']);
    assert.equal(layout.rows.length, 1 + 6 + 1 + (1 + 3) + (1 + 6));
    const all = layoutRows(timeline, { showUnaffected: true, collapsed: new Set() });
    assert.equal(all.rows.filter((r) => r.kind === 'workload').length, 5);
    assert.deepEqual(all.rows.filter((r) => r.kind === 'endpoints').map((r) => r.id), ['endpoints:shop/postgres', 'endpoints:shop/web']);
  });

  it('folds a workload to its header row', () => {
    const layout = layoutRows(timeline, { showUnaffected: false, collapsed: new Set(['DaemonSet/monitoring/node-exporter']) });
    assert.deepEqual(layout.rows.slice(-2).map((r) => `${r.kind} ${r.id}`), ['pod Pod/streaming/kafka-2#0', 'workload DaemonSet/monitoring/node-exporter']);
  });

  it('finds the rows in view from the scroll position', () => {
    const layout = layoutRows(timeline, { showUnaffected: false, collapsed: new Set() });
    // section 24, six nodes of 20, section 24, workload 30, pods of 18
    assert.deepEqual(layout.offsets.slice(0, 10), [0, 24, 44, 64, 84, 104, 124, 144, 168, 198]);
    assert.deepEqual(visibleRows(layout, 0, 50), [0, 3]);
    assert.deepEqual(visibleRows(layout, 150, 40), [7, 9]);
    assert.deepEqual(visibleRows(layout, 10_000, 100), [layout.rows.length, layout.rows.length]);
  });

  it('says in the Workloads section that every workload is hidden as unaffected, instead of leaving it empty (UI audit)', () => {
    const none = buildTimeline(packReport(exampleTrace('examples/web-deployment.yaml', '--target', 'node/worker-c2', '--duration', '2m')));
    const labels = (showUnaffected: boolean) => layoutRows(none, { showUnaffected, collapsed: new Set() }).rows.filter((r) => r.kind === 'section').map((r) => (r as { label: string }).label);
    assert.deepEqual(labels(false), ['Nodes', 'Workloads: none affected (1 hidden)']);
    assert.deepEqual(labels(true), ['Nodes', 'Workloads']);
  });

  it('restores only a saved state that checks out', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '2m');
    const message = { type: 'showTrace', title: 't', report: packReport(report) };
    const ui = { ...INITIAL_UI, view: { fromMs: 0, toMs: 60_000 }, cursorMs: 5000, collapsed: ['x'] };
    assert.deepEqual(restoreState(JSON.parse(JSON.stringify({ message, ui })))?.ui, ui);
    assert.deepEqual(restoreState({ message, ui: { ...ui, view: { fromMs: 5, toMs: 1 } } })?.ui, INITIAL_UI);
    assert.equal(restoreState({ message: { ...message, type: 'other' }, ui }), undefined);
    assert.equal(restoreState('x'), undefined);
  });
});

describe('timeline rows of two compared runs', () => {
  it('titles each run and keeps the second run\'s ids apart', () => {
    const a = buildTimeline(packReport(exampleTrace('examples/web-deployment.yaml', '--duration', '10m')));
    const b = buildTimeline(packReport(exampleTrace('examples/web-deployment.yaml', '--duration', '10m', '--failure', 'partition')));
    const layout = layoutRows(a, { showUnaffected: false, collapsed: new Set(['b:Deployment/shop/web']) }, { titles: ['before', 'after'], timeline: b });
    const sections = layout.rows.filter((r) => r.kind === 'section').map((r) => `${r.run} ${r.id}`);
    assert.deepEqual(sections, ['0 section:run', '0 section:nodes', '0 section:workloads', '1 b:section:run', '1 b:section:nodes', '1 b:section:workloads']);
    // title, Nodes, six nodes, Workloads, web, its three pods and the replacement, its endpoints; B folded to its header
    assert.deepEqual(layout.runRows.map(([from, to]) => to - from), [1 + 1 + 6 + 1 + 1 + 4 + 1, 1 + 1 + 6 + 1 + 1]);
    assert.equal(layout.rows.filter((r) => r.kind === 'workload' && r.run === 1 && r.collapsed).length, 1);
    assert.equal(layout.podRow.size, 4);
  });
});
