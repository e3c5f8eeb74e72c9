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
