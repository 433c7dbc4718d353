/** Before/after comparisons of a timeline panel, as saved and restored across a window reload. */
import * as assert from 'node:assert/strict';
import { beforeAfter, restored } from '../../src/extension/comparison';
import type { HostMessage } from '../../webview/protocol';

const run = (title: string, unavailableMs: number): HostMessage => ({ type: 'trace', title, report: { marker: unavailableMs } } as unknown as HostMessage);

describe('timeline comparisons', () => {
  const before = run('power-off of worker-a1: web.yaml (no preset)', 0);
  const after = run('power-off of worker-a1: web.yaml (no preset)', 356_000);

  it('before → after: the earlier run is A, the current text B, with the checks of the current text', () => {
    const findings = [{ index: 0, ruleId: 'KFS002' }] as unknown as HostMessage['findings'];
    const withChecks = beforeAfter({ ...after, findings }, before);
    assert.deepEqual([withChecks.findings, withChecks.compare?.findings], [undefined, findings]);
    assert.deepEqual(restored(withChecks).alone.findings, findings);
    const shown = beforeAfter(after, before);
    assert.equal(shown.title, 'Before the last Run Again: power-off of worker-a1: web.yaml (no preset)');
    assert.equal(shown.report, before.report);
    assert.deepEqual(shown.compare, { title: 'After it (the current text): power-off of worker-a1: web.yaml (no preset)', report: after.report });
  });

  it('a panel restored showing before → after knows its own run (B) and the one before (A), each titled once', () => {
    const { alone, previous } = restored(beforeAfter(after, before));
    assert.deepEqual([alone.title, alone.report, alone.compare], [after.title, after.report, undefined]);
    assert.deepEqual([previous?.title, previous?.report], [before.title, before.report]);
    // Compared again after the reload: the same two runs, the prefixes once.
    assert.deepEqual(beforeAfter(alone, previous!), beforeAfter(after, before));
    // A panel that compares with another timeline, or none, is its own run.
    const other = { ...after, compare: { title: 'partition of worker-a1: web.yaml', report: before.report } } as HostMessage;
    assert.deepEqual(restored(other), { alone: after });
  });
});
