import * as assert from 'node:assert/strict';
import { afterTheEnd } from '../../src/report/afterTheEnd';

describe('afterTheEnd: what a run schedules past its end', () => {
  it('reads a trace\'s scenario too, where a node that never returns has recoverAfterMs null', () => {
    const faults = [{ targets: ['node/a'], atMs: 0, recoverAfterMs: null }, { targets: ['node/b'], atMs: 60_000, recoverAfterMs: 600_000 }];
    const interventions = [{ kind: 'out-of-service' as const, atMs: 120_000 }, { kind: 'delete' as const, target: 'web-0', atMs: 900_000 }];
    assert.deepEqual(afterTheEnd({ durationMs: 600_000, faults, interventions }), [
      'the return of node/b at 11m is after the end of the run (10m simulated), so the run does not show it; simulate longer',
      'the deletion of web-0 at 15m is after the end of the run (10m simulated), so the run does not show it; simulate longer',
    ]);
    assert.deepEqual(afterTheEnd({ durationMs: 900_000, faults, interventions }), []);
  });
});
