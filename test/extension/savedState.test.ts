import * as assert from 'node:assert/strict';
import { savedMessage } from '../../src/extension/savedState';
import { packReport } from '../../src/report/packedTrace';
import { isHostMessage } from '../../webview/protocol';
import { exampleTrace } from '../report/timelineSupport';

describe('a timeline panel\'s saved state after a window reload', () => {
  const report = exampleTrace('examples/web-deployment.yaml', '--duration', '2m');

  it('shows a panel saved before the trace was packed: its reports are packed, then checked like any message', () => {
    const old = JSON.parse(JSON.stringify({ message: { type: 'showTrace', title: 't', report, compare: { title: 'c', report } }, ui: {} })) as unknown;
    const message = savedMessage(old) as { report: unknown; compare: { report: unknown } };
    assert.ok(isHostMessage(message));
    assert.deepEqual(message.report, JSON.parse(JSON.stringify(packReport(report))));
    assert.deepEqual(message.compare.report, message.report);
  });

  it('leaves a packed message as it is, and what is no message for the check to refuse', () => {
    const packed = { type: 'showTrace', title: 't', report: packReport(report) };
    assert.deepEqual(savedMessage({ message: packed }), packed);
    for (const state of [undefined, null, 'x', {}, { message: 5 }, { message: { type: 'showTrace', title: 't', report: { events: [null], states: [] } } }]) {
      assert.equal(isHostMessage(savedMessage(state)), false, JSON.stringify(state));
    }
  });
});
