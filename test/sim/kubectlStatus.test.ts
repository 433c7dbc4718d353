/**
 * kubectl's STATUS column as the simulator writes it (printPod, SEMANTICS.md 5): init containers,
 * and static pods' mirrors (6.5).
 */
import * as assert from 'node:assert/strict';
import { deployment, run } from './support';

const MINUTE = 60_000;
const withInit = (count: number) => `      initContainers:\n${Array.from({ length: count }, (_, i) => `      - {name: init-${i}, image: busybox}\n`).join('')}`;
const statusesOf = (result: ReturnType<typeof run>, pod: string) => result.states.filter((s) => s.object.name === pod).map((s) => s.status);

describe('kubectl STATUS', () => {
  it('a pod with two init containers starts Init:0/2, Init:1/2, PodInitializing, then Running', () => {
    const result = run([deployment('web', 1, withInit(2))], { durationMs: 8 * MINUTE });
    const replacement = result.events.find((e) => e.type === 'PodCreated' && e.t > 0)!.object.name;
    const seen = statusesOf(result, replacement).filter((s, i, all) => all[i - 1] !== s);
    assert.deepEqual(seen, ['Pending', 'Init:0/2', 'Init:1/2', 'PodInitializing', 'Running']);
  });

  it('the init containers take the pod start latency with the app containers: Running as soon as without them', () => {
    const plain = run([deployment('web', 1)], { durationMs: 8 * MINUTE }).summary.workloads[0];
    const init = run([deployment('web', 1, withInit(2))], { durationMs: 8 * MINUTE }).summary.workloads[0];
    // The same within the jitter of the extra status writes.
    assert.ok(Math.abs(init.replacementReadyMs! - plain.replacementReadyMs!) < 100, `${init.replacementReadyMs} vs ${plain.replacementReadyMs}`);
  });
});
