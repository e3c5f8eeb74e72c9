/**
 * Per-repository concurrency (`limits.concurrentJobs`): how many jobs of one repository run at once in this
 * App process. A job that finds its repository full is deferred (it stays `received` in the store, so a restart
 * still finds it) and gets the slot handed over directly when a job of the same repository finishes, so a
 * newer job can never overtake it.
 */
export class RepoSlots {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, string[]>();
  private readonly handedOver = new Set<string>();

  /** Take a slot for `jobId` in `repo`; false when `limit` jobs of the repository already hold one. */
  tryAcquire(repo: string, jobId: string, limit: number): boolean {
    if (this.handedOver.delete(jobId)) return true;
    const n = this.running.get(repo) ?? 0;
    if (n >= limit || (this.waiting.get(repo)?.length ?? 0) > 0) return false;
    this.running.set(repo, n + 1);
    return true;
  }

  /** Park a job until a slot of its repository frees up. */
  defer(repo: string, jobId: string): void {
    const list = this.waiting.get(repo) ?? [];
    if (!list.includes(jobId)) list.push(jobId);
    this.waiting.set(repo, list);
  }

  /** Give the slot back. Returns the deferred job it was handed to (to enqueue again), if any. */
  release(repo: string): string | null {
    const list = this.waiting.get(repo);
    const next = list?.shift();
    if (list && list.length === 0) this.waiting.delete(repo);
    if (next !== undefined) {
      this.handedOver.add(next);
      return next;
    }
    const n = (this.running.get(repo) ?? 1) - 1;
    if (n <= 0) this.running.delete(repo);
    else this.running.set(repo, n);
    return null;
  }

  /** A job that was handed a slot ended before using it (e.g. its config failed to load): pass the slot on. */
  forfeit(repo: string, jobId: string): string | null {
    return this.handedOver.delete(jobId) ? this.release(repo) : null;
  }

  /** Jobs of a repository holding a slot (for tests and the health endpoint). */
  runningIn(repo: string): number {
    return this.running.get(repo) ?? 0;
  }

  /** Jobs of a repository waiting for a slot. */
  waitingIn(repo: string): number {
    return this.waiting.get(repo)?.length ?? 0;
  }
}
