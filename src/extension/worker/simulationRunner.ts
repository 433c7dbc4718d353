/**
 * Simulations run one at a time in their own worker, so that a long one never delays a hover.
 * A run is stopped by terminating that worker (a new one starts for the next run): when the
 * user cancels it, when a new run for the same timeline supersedes it, and when it exceeds the
 * time budget. No `vscode` here; the simulate command shows the progress.
 */
import type { TraceReport } from '../../report/contract';
import type { Params } from './protocol';
import { WorkerFailure, type WorkerConnection } from './workerClient';

/** How long a simulation may run before it is stopped (the one place this is set). */
export const SIMULATION_TIME_BUDGET_MS = 60_000;

export function overBudgetMessage(budgetMs: number): string {
  return `The simulation stopped after ${Math.round(budgetMs / 1000)} s without finishing (simulate fewer pods or a shorter duration).`;
}

export type SimulationOutcome =
  | { kind: 'done'; report: TraceReport }
  /** A newer run of the same timeline replaced it, or the user cancelled it: nothing to show. */
  | { kind: 'superseded' | 'cancelled' }
  | { kind: 'over-budget'; message: string }
  /** The input does not allow the run (an unknown target, no workload): `message` is for the user. */
  | { kind: 'input'; message: string }
  | { kind: 'failed'; message: string };

export interface SimulationRun {
  readonly outcome: Promise<SimulationOutcome>;
  cancel(): void;
}

interface Run {
  key: string;
  /** Set once the run is stopped before or while it ran. */
  stopped?: 'superseded' | 'cancelled';
  /** Stops the worker while the run is on it. */
  stop?: (kind: 'superseded' | 'cancelled') => void;
}

export class SimulationRunner {
  private readonly runs = new Set<Run>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly connection: WorkerConnection, private readonly budgetMs = SIMULATION_TIME_BUDGET_MS) {}

  /** Starts a run after the ones before it; runs with the same key (one timeline) supersede each other. */
  run(key: string, params: Params<'simulate'>): SimulationRun {
    for (const other of this.runs) if (other.key === key) this.stop(other, 'superseded');
    const run: Run = { key };
    this.runs.add(run);
    const outcome = this.queue.then(() => (run.stopped ? { kind: run.stopped } : this.execute(run, params)));
    const settled = outcome.finally(() => this.runs.delete(run));
    this.queue = settled.catch(() => undefined);
    return { outcome: settled, cancel: () => this.stop(run, 'cancelled') };
  }

  private stop(run: Run, kind: 'superseded' | 'cancelled'): void {
    if (run.stopped) return;
    run.stopped = kind;
    run.stop?.(kind);
  }

  private execute(run: Run, params: Params<'simulate'>): Promise<SimulationOutcome> {
    return new Promise<SimulationOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.connection.terminate('cancelled');
        resolve({ kind: 'over-budget', message: overBudgetMessage(this.budgetMs) });
      }, this.budgetMs);
      const finish = (outcome: SimulationOutcome) => {
        clearTimeout(timer);
        run.stop = undefined;
        resolve(outcome);
      };
      run.stop = (kind) => {
        this.connection.terminate(kind);
        finish({ kind });
      };
      this.connection.request('simulate', params).then(
        (report) => finish({ kind: 'done', report }),
        (error: unknown) => {
          if (!(error instanceof WorkerFailure)) finish({ kind: 'failed', message: String(error) });
          else if (error.kind === 'input') finish({ kind: 'input', message: error.message });
          else if (error.kind === 'internal') finish({ kind: 'failed', message: error.message });
          else finish({ kind: error.kind });
        },
      );
    });
  }
}
