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

  /** The earliest time tryAccept can grant a token if nothing else takes one (Infinity: never). */
  nextTokenAt(now: number): number {
    if (this.qps <= 0) return Infinity;
    const tokens = Math.min(1, this.tokens + ((now - this.last) / 1000) * this.qps);
    // Aim a little inside tryAccept's tolerance so that rounding cannot make the grant miss.
    const missing = 1 - 0.5e-9 - tokens;
    return missing <= 0 ? now : now + (missing / this.qps) * 1000;
  }
}

interface Member {
  seq: number;
  queued: boolean;
}

/**
 * A UniqueQueue: a name stays a member after it has been processed (RemoveFromQueue), so
 * that it is not queued again until it is removed explicitly (the node became Ready, or its
 * taint disappeared).
 *
 * markNodeForTainting removes and re-adds every queued node at each monitor pass, in the
 * order the pass visits nodes, so the queue is always in that order: here, by node index.
 * Removal is lazy: stale entries are skipped when the queue is drained.
 */
export class RateLimitedQueue {
  /** Min-heap of queued entries by node index. */
  private readonly heap: { name: string; order: number; seq: number }[] = [];
  private readonly members = new Map<string, Member>();
  private nextSeq = 0;
  private queued = 0;
  limiter: TokenBucket;

  constructor(qps: number, now: number) {
    this.limiter = new TokenBucket(qps, now);
  }

  get length(): number {
    return this.queued;
  }

  /** Queues a name; false if already a member. */
  add(name: string, order: number): boolean {
    if (this.members.has(name)) return false;
    const seq = this.nextSeq++;
    this.members.set(name, { seq, queued: true });
    this.push({ name, order, seq });
    this.queued++;
    return true;
  }

  /** Queued, or processed and not removed since. */
  has(name: string): boolean {
    return this.members.has(name);
  }

  remove(name: string): void {
    const member = this.members.get(name);
    if (!member) return;
    if (member.queued) this.queued--;
    this.members.delete(name);
  }

  /** Try: pops names while the limiter grants a token (each pop spends one); they stay members. */
  drain(now: number, handle: (name: string) => void): void {
    while (this.heap.length > 0) {
      const top = this.heap[0];
      const member = this.members.get(top.name);
      if (!member || member.seq !== top.seq || !member.queued) {
        this.pop();
        continue;
      }
      if (!this.limiter.tryAccept(now)) break;
      this.pop();
      member.queued = false;
      this.queued--;
      handle(top.name);
    }
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

  private push(entry: { name: string; order: number; seq: number }): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent].order <= entry.order) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && heap[child + 1].order < heap[child].order) child++;
      if (last.order <= heap[child].order) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = last;
  }
}
