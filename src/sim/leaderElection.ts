/**
 * kube-controller-manager's leader election (client-go leaderelection with the default
 * leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s). When the leader is lost, every
 * controller of the manager stops and forgets what it held in memory (eviction timers, node
 * health, rate limiters); the new leader takes the lease once the old one has expired and its
 * controllers rebuild their state from the API (SEMANTICS.md 4, 13.5, 18).
 */
export class ControllerManagerLease {
  leading = true;
  private readonly lost: (() => void)[] = [];
  private readonly acquired: (() => void)[] = [];

  /** A controller's reaction to losing the lease: drop what it held in memory. */
  onLost(handler: () => void): void {
    this.lost.push(handler);
  }

  /** A controller's start under the new leader: rebuild from the API. */
  onAcquired(handler: () => void): void {
    this.acquired.push(handler);
  }

  lose(): void {
    if (!this.leading) return;
    this.leading = false;
    for (const handler of this.lost) handler();
  }

  acquire(): void {
    if (this.leading) return;
    this.leading = true;
    for (const handler of this.acquired) handler();
  }
}
