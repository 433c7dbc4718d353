import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonChunks } from '../../src/report/jsonChunks';
import { exampleTrace } from './timelineSupport';

describe('report: JSON in pieces', () => {
  it('joins to exactly what JSON.stringify writes, whatever the object and the batch size', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 30 }))), fc.integer({ min: 1, max: 8 }), (value, batch) => {
      assert.equal([...jsonChunks(value, batch)].join(''), JSON.stringify(value));
    }));
    assert.equal([...jsonChunks({ gone: undefined, f: () => 1, kept: [undefined, 1] }, 1)].join(''), '{"kept":[null,1]}');
  });

  it('writes a trace report a batch of events and states at a time', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '10m');
    const pieces = [...jsonChunks(report, 10)];
    assert.equal(pieces.join(''), JSON.stringify(report));
    const batches = (n: number) => (n > 10 ? Math.ceil(n / 10) : 0);
    assert.ok(batches(report.states.length) > 1);
    assert.equal(pieces.filter((p) => p.startsWith('[{') || p.startsWith(',{')).length, batches(report.events.length) + batches(report.states.length));
  });
});
