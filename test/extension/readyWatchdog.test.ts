/** The timeline panel's watchdog (src/extension/readyWatchdog.ts): a page whose script never says ready is loaded again. */
import * as assert from 'node:assert/strict';
import { MAX_RELOADS, READY_TIMEOUT_MS, ReadyWatchdog, type WatchdogTimers } from '../../src/extension/readyWatchdog';

/** Timers that run when the test advances the clock. */
class FakeTimers implements WatchdogTimers {
  now = 0;
  private pending = new Map<number, { at: number; callback: () => void }>();
  private next = 1;

  set(callback: () => void, ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, { at: this.now + ms, callback });
    return handle;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = until;
  }
}

function watched(visible = () => true) {
  const timers = new FakeTimers();
  const log: string[] = [];
  const watchdog = new ReadyWatchdog((load) => log.push(`load ${load} at ${timers.now}`), visible, () => log.push(`gave up at ${timers.now}`), timers);
  return { timers, log, watchdog };
}

describe('timeline panel: a page whose script never starts is loaded again', () => {
  it('leaves a page that says ready alone', () => {
    const { timers, log, watchdog } = watched();
    watchdog.expectReady();
    timers.advance(300);
    watchdog.ready();
    timers.advance(60_000);
    assert.deepEqual(log, []);
  });

  it('loads a silent page again, each time waiting twice as long, and says so once the tries are spent', () => {
    const { timers, log, watchdog } = watched();
    assert.equal(watchdog.currentLoad, 1);
    watchdog.expectReady();
    timers.advance(600_000);
    const t = READY_TIMEOUT_MS;
    assert.equal(MAX_RELOADS, 3);
    assert.deepEqual(log, [`load 2 at ${t}`, `load 3 at ${3 * t}`, `load 4 at ${7 * t}`, `gave up at ${15 * t}`]);
  });

  it('stops once the reloaded page says ready, and starts counting anew for a later load', () => {
    const { timers, log, watchdog } = watched();
    watchdog.expectReady();
    timers.advance(READY_TIMEOUT_MS + 500);
    assert.equal(watchdog.ready(2), true);
    timers.advance(600_000);
    assert.deepEqual(log, [`load 2 at ${READY_TIMEOUT_MS}`]);
    // Shown again after being hidden: its page loads anew, and a silent one is reloaded MAX_RELOADS times again, first after the shortest wait.
    const shown = timers.now;
    watchdog.expectReady();
    timers.advance(READY_TIMEOUT_MS);
    assert.equal(log.at(-1), `load 3 at ${shown + READY_TIMEOUT_MS}`);
    timers.advance(600_000);
    assert.equal(log.filter((l) => l.startsWith('load')).length, 1 + MAX_RELOADS);
  });

  it('takes no ready from a page a later load replaced: that one may never load', () => {
    const { timers, log, watchdog } = watched();
    watchdog.expectReady();
    timers.advance(READY_TIMEOUT_MS);
    // Page 1 was slow, not dead: it says ready while page 2 loads, and its run would go with it.
    assert.equal(watchdog.ready(1), false);
    timers.advance(2 * READY_TIMEOUT_MS);
    assert.deepEqual(log, [`load 2 at ${READY_TIMEOUT_MS}`, `load 3 at ${3 * READY_TIMEOUT_MS}`]);
    // A ready without a number is the current page's.
    assert.equal(watchdog.ready(), true);
    timers.advance(600_000);
    assert.equal(log.length, 2);
  });

  it('does not reload a hidden panel, whose page loads when it is shown; nor a disposed one', () => {
    let visible = false;
    const { timers, log, watchdog } = watched(() => visible);
    watchdog.expectReady();
    timers.advance(60_000);
    assert.deepEqual(log, []);
    visible = true;
    watchdog.expectReady();
    watchdog.dispose();
    timers.advance(60_000);
    watchdog.expectReady();
    timers.advance(60_000);
    assert.deepEqual(log, []);
  });
});
