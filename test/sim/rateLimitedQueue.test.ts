import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { RateLimitedQueue, TokenBucket } from '../../src/sim/rateLimitedQueue';

function bucketAfter(qps: number, takenAt: number[]): TokenBucket {
  const bucket = new TokenBucket(qps, 0);
  for (const t of takenAt) bucket.tryAccept(t);
  return bucket;
}

describe('node lifecycle rate-limited queue', () => {
  it('TokenBucket.nextTokenAt is the first instant tryAccept grants (the tainting loop sleeps until then)', () => {
    fc.assert(fc.property(
      fc.double({ min: 0.01, max: 50, noNaN: true }),
      fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 5 }).map((ts) => ts.sort((a, b) => a - b)),
      (qps, takenAt) => {
        const now = takenAt.at(-1) ?? 0;
        const at = bucketAfter(qps, takenAt).nextTokenAt(now);
        assert.ok(at >= now);
        assert.equal(bucketAfter(qps, takenAt).tryAccept(at), true, `no token at ${at}`);
        if (at - 1 >= now) assert.equal(bucketAfter(qps, takenAt).tryAccept(at - 1), false, `token already at ${at - 1}`);
      },
    ), { numRuns: 1000 });
  });

  it('a stopped limiter (qps 0) never grants', () => {
    const bucket = new TokenBucket(0, 0);
    assert.equal(bucket.nextTokenAt(5), Infinity);
    assert.equal(bucket.tryAccept(1e9), false);
  });

  it('drains in node order, one name per token, and keeps processed names as members until removed', () => {
    const queue = new RateLimitedQueue(0.1, 0);
    queue.add('c', 2);
    queue.add('a', 0);
    queue.add('b', 1);
    const drained: string[] = [];
    queue.drain(0, (n) => drained.push(n));
    queue.drain(5_000, (n) => drained.push(n));
    queue.drain(10_000, (n) => drained.push(n));
    assert.deepEqual(drained, ['a', 'b']);
    assert.equal(queue.add('a', 0), false);
    queue.remove('a');
    assert.equal(queue.add('a', 0), true);
    assert.equal(queue.length, 2);
  });
});
