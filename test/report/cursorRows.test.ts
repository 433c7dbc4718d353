import * as assert from 'node:assert/strict';
import { MAX_POD_ROWS, shownPods, type PodRow } from '../../src/report/timeline/clusterAt';

describe('cursor table rows', () => {
  const pod = (i: number, status = 'Running', ready = '1/1', node = `n${i % 100}`): PodRow => ({
    namespace: 'ns', name: `p-${String(i).padStart(6, '0')}`, ready, status, restarts: 0, ip: '10.0.0.1', node, laneId: `l${i}`,
  });

  it('lists every pod up to the limit', () => {
    const pods = Array.from({ length: MAX_POD_ROWS }, (_, i) => pod(i));
    assert.deepEqual(shownPods(pods, []), { pods, hidden: 0 });
  });

  it('past the limit keeps every pod that is not Running and Ready or is on a failed node, in order, then the first others', () => {
    const pods = Array.from({ length: 3 * MAX_POD_ROWS }, (_, i) => (i % 1000 === 999 ? pod(i, 'Terminating') : i % 1000 === 998 ? pod(i, 'Running', '0/1') : pod(i)));
    pods.push(pod(99_999, 'Running', '1/1', 'down'));
    const { pods: shown, hidden } = shownPods(pods, ['down']);
    assert.equal(shown.length, MAX_POD_ROWS);
    assert.equal(hidden, pods.length - MAX_POD_ROWS);
    const notable = pods.filter((p) => p.status !== 'Running' || p.ready !== '1/1' || p.node === 'down');
    assert.equal(notable.length, 31);
    for (const p of notable) assert.ok(shown.includes(p), p.name);
    assert.deepEqual(shown, [...shown].sort((a, b) => (a.name < b.name ? -1 : 1)));
    assert.deepEqual(shown.filter((p) => !notable.includes(p)), pods.filter((p) => !notable.includes(p)).slice(0, MAX_POD_ROWS - notable.length));
  });
});
