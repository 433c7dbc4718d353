import type { SimContext } from './context';
import type { Clock, Task } from './engine';
import type { Random } from './random';

/**
 * A controller's view of changes: delivered after a watch latency, in the order they
 * happened (an informer is a FIFO).
 */
export class Informer<T> {
  private lastDelivery = -Infinity;
  private readonly clock: Clock;
  private readonly meanLatencyMs: number;

  constructor(ctx: SimContext, private readonly random: Random, private readonly handler: (item: T) => void) {
    this.clock = ctx.clock;
    this.meanLatencyMs = ctx.timing.simulator.watchLatency.value;
  }

  notify(item: T): void {
    const at = Math.max(this.clock.now + this.random.latency(this.meanLatencyMs), this.lastDelivery);
    this.lastDelivery = at;
    this.clock.at(at, () => this.handler(item));
  }
}

/** A component's API client: its writes reach the store one after another, each after a write latency. */
export class ApiClient {
  private busyUntil = -Infinity;
  private readonly clock: Clock;
  private readonly meanLatencyMs: number;

  constructor(ctx: SimContext, private readonly random: Random) {
    this.clock = ctx.clock;
    this.meanLatencyMs = ctx.timing.simulator.apiWriteLatency.value;
  }

  /** Schedules a write; returns when it will take effect. */
  write(task: Task): number {
    const at = Math.max(this.clock.now, this.busyUntil) + this.random.latency(this.meanLatencyMs);
    this.busyUntil = at;
    this.clock.at(at, task);
    return at;
  }

  /** When the last queued write takes effect. */
  get idleAt(): number {
    return Math.max(this.busyUntil, this.clock.now);
  }
}
