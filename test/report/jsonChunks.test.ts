import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonChunks } from '../../src/report/jsonChunks';
import { exampleTrace } from './timelineSupport';

describe('report: JSON in pieces', () => {
  it('joins to exactly what JSON.stringify writes, whatever the value, the batch size and the depth', () => {
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('tree'), { maxLength: 12 }), fc.dictionary(fc.string(), tie('tree'), { maxKeys: 5 })),
    }));
    fc.assert(fc.property(tree, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 4 }), (value, batch, depth) => {
      assert.equal([...jsonChunks(value, batch, depth)].join(''), JSON.stringify(value));
    }));
    assert.equal([...jsonChunks({ gone: undefined, f: () => 1, kept: [undefined, 1], at: new Date(0) }, 1)].join(''), '{"kept":[null,1],"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('writes a trace report a batch of events and states at a time', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '10m');
    const pieces = [...jsonChunks(report, 10)];
    assert.equal(pieces.join(''), JSON.stringify(report));
    const batches = (n: number) => (n > 10 ? Math.ceil(n / 10) : 0);
    assert.ok(batches(report.states.length) > 1);
    // After the first batch, each further batch of ten starts a piece.
    assert.equal(pieces.filter((p) => p.startsWith(',{"t":')).length, batches(report.events.length) - 1);
    assert.equal(pieces.filter((p) => p.startsWith(',{"object":')).length, batches(report.states.length) - 1);
  });
});
