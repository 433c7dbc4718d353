/**
 * Statistics over Monte-Carlo runs, accumulated as each run finishes so that memory does not
 * grow with the number of runs: min and max exactly, the median with the P² estimator (exact
 * up to five runs; Jain and Chlamtac, "The P² algorithm for dynamic calculation of quantiles
 * and histograms without storing observations", CACM 1985).
 */
import type { Outcome, WorkloadSummary } from '../sim/summary';

export const TIME_FIELDS = ['nodeNotReadyMs', 'podsNotReadyMs', 'noExecuteTaintMs', 'podDeletionMs', 'replacementCreatedMs', 'replacementReadyMs', 'unavailableMs', 'degradedMs', 'blackholeMs', 'duplicateMs'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];

export interface Stat {
  min: number | null;
  median: number | null;
  max: number | null;
}

/** The running median of a stream (P² with p = 0.5): five markers, constant memory. */
export class StreamingMedian {
  private readonly heights: number[] = [];
  private readonly positions = [1, 2, 3, 4, 5];
  private readonly desired = [1, 2, 3, 4, 5];
  private static readonly INCREMENTS = [0, 0.25, 0.5, 0.75, 1];
  count = 0;
  min = Infinity;
  max = -Infinity;

  add(x: number): void {
    this.count++;
    this.min = Math.min(this.min, x);
    this.max = Math.max(this.max, x);
    const q = this.heights;
    if (this.count <= 5) {
      q.push(x);
      q.sort((a, b) => a - b);
      return;
    }
    const n = this.positions;
    let k: number;
    if (x < q[0]) {
      q[0] = x;
      k = 0;
    } else if (x >= q[4]) {
      q[4] = x;
      k = 3;
    } else {
      k = 0;
      while (k < 3 && x >= q[k + 1]) k++;
    }
    for (let i = k + 1; i < 5; i++) n[i]++;
    for (let i = 0; i < 5; i++) this.desired[i] += StreamingMedian.INCREMENTS[i];
    for (let i = 1; i <= 3; i++) {
      const d = this.desired[i] - n[i];
      if ((d >= 1 && n[i + 1] - n[i] > 1) || (d <= -1 && n[i - 1] - n[i] < -1)) {
        const s = Math.sign(d);
        const parabolic = q[i] + (s / (n[i + 1] - n[i - 1])) * ((n[i] - n[i - 1] + s) * (q[i + 1] - q[i]) / (n[i + 1] - n[i]) + (n[i + 1] - n[i] - s) * (q[i] - q[i - 1]) / (n[i] - n[i - 1]));
        q[i] = q[i - 1] < parabolic && parabolic < q[i + 1] ? parabolic : q[i] + s * (q[i + s] - q[i]) / (n[i + s] - n[i]);
        n[i] += s;
      }
    }
  }

  get median(): number | null {
    if (this.count === 0) return null;
    const q = this.heights;
    if (this.count > 5) return Math.round(q[2]);
    const mid = q.length >> 1;
    return q.length % 2 ? q[mid] : Math.round((q[mid - 1] + q[mid]) / 2);
  }

  stat(): Stat {
    return this.count === 0 ? { min: null, median: null, max: null } : { min: this.min, median: this.median, max: this.max };
  }
}

interface WorkloadAccumulator {
  first: WorkloadSummary;
  times: Record<TimeField, StreamingMedian>;
  outcomes: Partial<Record<Outcome, number>>;
  /** The first run's summary of each outcome, for its reason. */
  exampleOf: Partial<Record<Outcome, WorkloadSummary>>;
}

export interface WorkloadStatistics {
  object: WorkloadSummary['object'];
  desiredReplicas: number;
  times: Record<TimeField, Stat>;
  /** The most frequent outcome, and how many runs ended in each. */
  outcome: Outcome;
  outcomes: Partial<Record<Outcome, number>>;
  /** A run that ended in the most frequent outcome. */
  example: WorkloadSummary;
}

export class RunStatistics {
  runs = 0;
  private readonly workloads: WorkloadAccumulator[] = [];

  /** Adds one run's summary; workloads come in the same order in every run. */
  add(workloads: readonly WorkloadSummary[]): void {
    this.runs++;
    workloads.forEach((summary, i) => {
      let acc = this.workloads[i];
      if (!acc) {
        acc = { first: summary, times: Object.fromEntries(TIME_FIELDS.map((f) => [f, new StreamingMedian()])) as Record<TimeField, StreamingMedian>, outcomes: {}, exampleOf: {} };
        this.workloads[i] = acc;
      }
      for (const field of TIME_FIELDS) {
        const value = summary[field];
        if (value !== null) acc.times[field].add(value);
      }
      acc.outcomes[summary.outcome] = (acc.outcomes[summary.outcome] ?? 0) + 1;
      acc.exampleOf[summary.outcome] ??= summary;
    });
  }

  result(): WorkloadStatistics[] {
    return this.workloads.map((acc) => {
      const outcome = (Object.entries(acc.outcomes) as [Outcome, number][]).sort((a, b) => b[1] - a[1])[0][0];
      return {
        object: acc.first.object,
        desiredReplicas: acc.first.desiredReplicas,
        times: Object.fromEntries(TIME_FIELDS.map((f) => [f, acc.times[f].stat()])) as Record<TimeField, Stat>,
        outcome,
        outcomes: acc.outcomes,
        example: acc.exampleOf[outcome]!,
      };
    });
  }
}
