/**
 * Time for the loop engine. The engine never reads `Date.now()` itself: it takes a `Clock`, so tests can
 * drive time by hand and every bound on wall time is deterministic under test.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once `ms` milliseconds have passed on this clock; returns a function that cancels the timer. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** The real clock: `Date.now()` and unref'd `setTimeout` (a pending deadline never keeps a process alive). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const handle = setTimeout(fn, Math.max(0, ms));
    if (typeof handle === "object" && handle !== null && "unref" in handle) handle.unref();
    return () => clearTimeout(handle);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that only moves when told to. `advance(ms)` fires due timers in order, each at its own instant
 * (so a timer callback that reads `now()` sees exactly its deadline).
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: PendingTimer[] = [];
  private seq = 0;

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer: PendingTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance needs a non-negative number of ms, got ${ms}`);
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }
}
