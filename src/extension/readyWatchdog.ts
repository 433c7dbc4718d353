/**
 * Loads a webview's page again while its script has not said `ready`. In VS Code for the Web a
 * webview's first requests can miss its service worker and go to the network (offline:
 * net::ERR_NAME_NOT_RESOLVED for the bundle and the stylesheet): the page then stays at its
 * placeholder for good. A page that is loaded again asks the service worker, which by then is
 * there. No vscode import: the panel wires it (timelinePanel.ts).
 */

export interface WatchdogTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const GLOBAL_TIMERS: WatchdogTimers = { set: (callback, ms) => setTimeout(callback, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

/**
 * The wait for the first load's `ready`; each load after it waits twice as long as the one before.
 * On a busy machine a page can take seconds to load, and loading it again throws that work away.
 */
export const READY_TIMEOUT_MS = 4000;
/** Loads after the first, before the watchdog gives up and says so. */
export const MAX_RELOADS = 3;

export class ReadyWatchdog {
  private handle: unknown;
  private reloads = 0;
  private disposed = false;
  /** The number of the page last set: a `ready` from a page it replaced says nothing of it. */
  private load = 1;

  /**
   * `reload` sets page number `load` again; `visible` says whether the webview can run its script
   * now (a hidden one is torn down and loads when shown); `giveUp` is told once the reloads are spent.
   */
  constructor(private readonly reload: (load: number) => void, private readonly visible: () => boolean, private readonly giveUp: () => void, private readonly timers: WatchdogTimers = GLOBAL_TIMERS) {}

  /** The number of the page last set (1 until a reload). */
  get currentLoad(): number {
    return this.load;
  }

  /** The page was set, or the webview was shown again (and loads it anew): a `ready` is due. */
  expectReady(): void {
    if (this.disposed) return;
    this.timers.clear(this.handle);
    this.handle = this.timers.set(() => this.overdue(), READY_TIMEOUT_MS * 2 ** this.reloads);
  }

  /**
   * A page said `ready`; true if it is the page last set (no number: it is), whose run is then
   * due. An earlier page can still say it while the next one loads, which may yet fail.
   */
  ready(load = this.load): boolean {
    if (load !== this.load) return false;
    this.timers.clear(this.handle);
    this.handle = undefined;
    this.reloads = 0;
    return true;
  }

  dispose(): void {
    this.disposed = true;
    this.timers.clear(this.handle);
  }

  private overdue(): void {
    this.handle = undefined;
    // Hidden: it loads when shown, and expectReady() watches that load.
    if (this.disposed || !this.visible()) return;
    if (this.reloads === MAX_RELOADS) {
      this.giveUp();
      return;
    }
    this.reloads++;
    this.load++;
    this.reload(this.load);
    this.expectReady();
  }
}
