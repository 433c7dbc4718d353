/**
 * The discrete-event core: integer milliseconds, one queue (a binary heap), ties broken by
 * insertion order. Time enters the simulator only through this clock.
 */
export type Task = () => void;

export class EventQueue {
  private times: number[] = [];
  private seqs: number[] = [];
  private tasks: Task[] = [];
  private nextSeq = 0;

  push(time: number, task: Task): void {
    const times = this.times;
    const seqs = this.seqs;
    const tasks = this.tasks;
    const seq = this.nextSeq++;
    let i = tasks.length;
    times.push(time);
    seqs.push(seq);
    tasks.push(task);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (times[parent] < time || (times[parent] === time && seqs[parent] < seq)) break;
      times[i] = times[parent];
      seqs[i] = seqs[parent];
      tasks[i] = tasks[parent];
      i = parent;
    }
    times[i] = time;
    seqs[i] = seq;
    tasks[i] = task;
  }

  peekTime(): number {
    return this.tasks.length > 0 ? this.times[0] : Infinity;
  }

  /** Removes the earliest task; the caller reads its time with peekTime first. */
  pop(): Task {
    const times = this.times;
    const seqs = this.seqs;
    const tasks = this.tasks;
    const top = tasks[0];
    const lastTime = times.pop()!;
    const lastSeq = seqs.pop()!;
    const lastTask = tasks.pop()!;
    const n = tasks.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && (times[child + 1] < times[child] || (times[child + 1] === times[child] && seqs[child + 1] < seqs[child]))) child++;
        if (lastTime < times[child] || (lastTime === times[child] && lastSeq < seqs[child])) break;
        times[i] = times[child];
        seqs[i] = seqs[child];
        tasks[i] = tasks[child];
        i = child;
      }
      times[i] = lastTime;
      seqs[i] = lastSeq;
      tasks[i] = lastTask;
    }
    return top;
  }
}

export class Clock {
  now: number;
  private readonly queue = new EventQueue();
  /** Tasks run so far (for benchmarks). */
  executed = 0;

  constructor(start: number) {
    this.now = start;
  }

  at(time: number, task: Task): void {
    this.queue.push(Math.max(Math.round(time), this.now), task);
  }

  after(delay: number, task: Task): void {
    this.at(this.now + delay, task);
  }

  /** Runs every task due up to and including `end`; the clock ends at `end`. */
  runUntil(end: number): void {
    while (this.queue.peekTime() <= end) {
      this.now = this.queue.peekTime();
      this.queue.pop()();
      this.executed++;
    }
    this.now = end;
  }
}
