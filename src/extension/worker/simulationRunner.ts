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
  /** Settles the run's outcome (the first call wins). */
  settle: (outcome: SimulationOutcome) => void;
  /** Set once the run is stopped, before or while it runs. */
  stopped?: 'superseded' | 'cancelled';
  /** While the run is on the worker: stops the worker. */
  onStop?: () => void;
}

export class SimulationRunner {
  private readonly runs = new Set<Run>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly connection: WorkerConnection, private readonly budgetMs = SIMULATION_TIME_BUDGET_MS) {}

  /** Starts a run after the ones before it; runs with the same key (one timeline) supersede each other. */
  run(key: string, params: Params<'simulate'>): SimulationRun {
    for (const other of this.runs) if (other.key === key) this.stop(other, 'superseded');
    let settle!: (outcome: SimulationOutcome) => void;
    const outcome = new Promise<SimulationOutcome>((resolve) => { settle = resolve; });
    const run: Run = { key, settle };
    this.runs.add(run);
    void outcome.then(() => this.runs.delete(run));
    // The next run waits for this one to settle (stopped, over budget or done), never for a stopped worker.
    this.queue = this.queue.then(() => (run.stopped ? undefined : this.execute(run, params))).then(() => outcome);
    return { outcome, cancel: () => this.stop(run, 'cancelled') };
  }

  /** A stopped run settles at once, whether it was waiting its turn or running. */
  private stop(run: Run, kind: 'superseded' | 'cancelled'): void {
    if (run.stopped) return;
    run.stopped = kind;
    run.onStop?.();
    run.settle({ kind });
  }

  private async execute(run: Run, params: Params<'simulate'>): Promise<void> {
    const timer = setTimeout(() => {
      this.connection.terminate('cancelled');
      run.settle({ kind: 'over-budget', message: overBudgetMessage(this.budgetMs) });
    }, this.budgetMs);
    run.onStop = () => this.connection.terminate(run.stopped);
    try {
      run.settle({ kind: 'done', report: await this.connection.request('simulate', params) });
    } catch (error) {
      if (!(error instanceof WorkerFailure)) run.settle({ kind: 'failed', message: String(error) });
      else if (error.kind === 'input') run.settle({ kind: 'input', message: error.message });
      else if (error.kind === 'internal') run.settle({ kind: 'failed', message: error.message });
      else run.settle({ kind: error.kind });
    } finally {
      clearTimeout(timer);
      run.onStop = undefined;
    }
  }
}
