/**
 * A synchronous call with a time limit. It runs inside `vm.runInContext` with a `timeout`: V8's watchdog stops
 * it, whatever it is doing (a regular expression backtracking included), when the time is up (the functions it
 * calls run on the same isolate, so the limit covers them too), and a stack overflow is caught. No worker or
 * child process is needed, so it works the same from source, from the compiled CLI and in the Action's
 * single-file bundle. Used where the host parses hostile text whose cost a size cap alone does not bound
 * (reports: `src/repro/bounded.ts`; CI logs and run outputs: `src/logs/engine.ts`).
 */
import vm from "node:vm";

export type Bounded<T> = { ok: true; value: T } | { ok: false; reason: "timeout" | "stack"; message: string };

// The context's `run` is set once and calls whatever `current` holds. Assigning a new function to a property of
// the context's global on every call (as this did first) cost the 50 MB parse-log bench 35% more peak RSS (220 vs
// 160 MB) and about 30% more CPU: measured side by side, the only change being where the function is stored.
let current: (() => void) | undefined;
const context = vm.createContext({ run: () => current?.() });
const script = new vm.Script("run()");

/** Calls `fn` with a time limit; a timeout or a stack overflow is a value, never an exception. */
export function withinTimeLimit<T>(fn: () => T, timeoutMs: number): Bounded<T> {
  let value: T | undefined;
  const outer = current;
  current = () => {
    value = fn();
  };
  try {
    script.runInContext(context, { timeout: Math.max(1, Math.floor(timeoutMs)) });
    return { ok: true, value: value as T };
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT")
      return { ok: false, reason: "timeout", message: `took longer than ${timeoutMs} ms` };
    if (error instanceof RangeError || /Maximum call stack size/.test(String(error)))
      return { ok: false, reason: "stack", message: "nests deeper than the parser's stack allows" };
    throw error;
  } finally {
    current = outer;
  }
}

/** A call's timeout is its own cost only if it had at least this share of its limit in CPU time; less: starved. */
const STARVED_SHARE = 0.5;
/** A starved call runs once more, its watchdog at most this many times the limit in wall clock. */
const RETRY_WALL_FACTOR = 4;

export type CpuBounded<T> = Bounded<T> | { ok: false; reason: "busy"; message: string };

/** Host CPU (user + system) spent since `start`, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * A synchronous call with a limit on the host CPU it spends, not on the wall clock. V8's watchdog counts wall
 * clock, so on a loaded host a cheap call ran out of its time and an ordinary report was refused as unreadable
 * (ninth red team: a 51 KB report, 139 ms of CPU, refused under a 1,000 ms limit while the host was busy). So a
 * timeout counts as the call's own cost only when it had at least half the limit in CPU; a call that had less
 * was starved, and runs once more for what the first attempt left of the limit, its watchdog at the wall-clock
 * time its share of the CPU predicts for that (at most 4 times it; the two attempts' CPU stays near the limit
 * while the host's load holds, and can reach more only if the load drops during the retry). Starved twice, the answer is `busy`: the caller reports the host, never the input. `fn`
 * must be pure (it may run twice). `process.cpuUsage` counts the whole process, so other threads' work counts
 * against the call, never for it.
 */
export function withinCpuTime<T>(fn: () => T, cpuMs: number): CpuBounded<T> {
  let wallMs = cpuMs;
  // The CPU the call may still take: the retry gets what the first attempt left, so a starved call does not cost
  // one and a half limits (issue 14: a 65,536-character report cost 2.9 s of CPU under a 1.8 s limit this way).
  let left = cpuMs;
  for (let attempt = 0; ; attempt++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const r = withinTimeLimit(fn, wallMs);
    if (r.ok || r.reason !== "timeout") return r;
    const used = cpuMsSince(cpu);
    const wall = performance.now() - started;
    // Named by the limit the caller set (CPU ms), not by the retry's watchdog (wall clock).
    if (used >= left * STARVED_SHARE) return { ...r, message: `took longer than ${cpuMs} ms` };
    if (attempt === 1)
      return {
        ok: false,
        reason: "busy",
        message: `the host was too busy: it got ${Math.round(used)} ms of CPU in ${Math.round(wall)} ms, twice`,
      };
    left = Math.max(1, left - used);
    // The wall clock the host's share of the CPU predicts for what is left (a watchdog counts wall clock only).
    wallMs = Math.min(left * RETRY_WALL_FACTOR, (left * wall) / Math.max(used, 1));
  }
}

/**
 * `fn`'s value and the host CPU (user + system, whole process) it took, in ms: what a budget shared by several
 * bounded calls (a report's parse, expectations and completion) subtracts after each.
 */
export function measuredCpu<T>(fn: () => T): [T, number] {
  const start = process.cpuUsage();
  const value = fn();
  return [value, cpuMsSince(start)];
}
