/**
 * The node lifecycle controller's per-zone tainting queue (pkg/controller/nodelifecycle/
 * scheduler/rate_limited_queue.go): a unique FIFO drained through a token bucket
 * (flowcontrol.NewTokenBucketRateLimiter(qps, burst 1)), whose limiter is swapped when the
 * zone's state changes.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  /** qps <= 0 never grants a token (flowcontrol.NewFakeNeverRateLimiter). */
  constructor(readonly qps: number, now: number) {
    this.tokens = qps > 0 ? 1 : 0;
    this.last = now;
  }

  tryAccept(now: number): boolean {
    if (this.qps <= 0) return false;
    this.tokens = Math.min(1, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens >= 1 - 1e-9) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
}

/**
 * A UniqueQueue: a name stays a member after it has been processed (RemoveFromQueue), so
 * that it is not queued again until it is removed explicitly (the node became Ready, or its
 * taint disappeared).
 */
export class RateLimitedQueue {
  private readonly items: string[] = [];
  private readonly members = new Set<string>();
  limiter: TokenBucket;

  constructor(qps: number, now: number) {
    this.limiter = new TokenBucket(qps, now);
  }

  get length(): number {
    return this.items.length;
  }

  /** Adds at the back; false if already a member. */
  add(name: string): boolean {
    if (this.members.has(name)) return false;
    this.members.add(name);
    this.items.push(name);
    return true;
  }

  remove(name: string): void {
    if (!this.members.delete(name)) return;
    const at = this.items.indexOf(name);
    if (at >= 0) this.items.splice(at, 1);
  }

  has(name: string): boolean {
    return this.members.has(name);
  }

  /** Try: pops names while the limiter grants a token (each pop spends one); they stay members. */
  drain(now: number, handle: (name: string) => void): void {
    while (this.items.length > 0 && this.limiter.tryAccept(now)) handle(this.items.shift()!);
  }

  /**
   * SwapLimiter: a new limiter for a new rate. If the old one had no token left, the new one
   * starts with its token spent (so leaving "stop" does not taint at once).
   */
  swapLimiter(qps: number, now: number): void {
    if (this.limiter.qps === qps) return;
    const next = new TokenBucket(qps, now);
    if (qps > 0 && !this.limiter.tryAccept(now)) next.tryAccept(now);
    this.limiter = next;
  }
}
