/**
 * The CPU time of a computation, for tests that bound its cost: a wall clock measures the machine's load too (CI
 * and shared hosts run at load 30+, where a 2 s wall bound failed at 4.2 s on a parse that costs well under one).
 * `process.cpuUsage()` counts the whole process (user + system), which is the test's alone: vitest runs each file
 * in a forked process of its own and a file's tests one after another. Not for code that waits (timers, child
 * processes, sockets, Docker): that time is no CPU of this process, so keep a wall clock there.
 */
export function cpuMs<T>(fn: () => T): { value: T; ms: number } {
  const c0 = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(c0);
  return { value, ms: (used.user + used.system) / 1000 };
}

/** `cpuMs` for a promise that does no I/O (in-memory ports resolved at once): the CPU up to its settling. */
export async function cpuMsAsync<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const c0 = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(c0);
  return { value, ms: (used.user + used.system) / 1000 };
}
