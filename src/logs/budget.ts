/**
 * The host-time budget of a log parse (RETRACE_HOST_LIMITS `logTimeMs` plus `logMsPerMb` per MiB fed so far, in host
 * CPU): each call runs under V8's watchdog with what is left of it, and the first call that runs out stops the parse
 * for good (`stopped`, with the line it stopped in and why). Apart from the engine so that `retrace parse-log`'s
 * reading thread (src/cli/parse-log-worker.ts) holds its own share of the work to the same budget without loading
 * the parsers.
 */
import { hostLimits } from "../core/host-limits.ts";
import { withinTimeLimit } from "../core/time-limit.ts";

export interface Stopped {
  line: number;
  reason: string;
}

export interface HostBudget {
  /** Runs `what` with the budget left for `fed` characters of input; `line` says where it stopped, if it does. */
  run(what: () => void, fed: number, line: () => number): void;
  readonly stopped: Stopped | null;
}

export function createHostBudget(): HostBudget {
  const limits = hostLimits();
  const MiB = 1024 * 1024;
  let spent = 0;
  let stopped: Stopped | null = null;
  return {
    get stopped() {
      return stopped;
    },
    run(what, fed, line) {
      if (stopped) return;
      const allowed = limits.logTimeMs + (limits.logMsPerMb * fed) / MiB - spent;
      // The budget is host CPU, not wall clock: a busy host does not use it up, so it can be tight (a plain log
      // costs 0.1–0.3 s of CPU per MiB, a one-line JUnit report of failing testcases about 1 s). The watchdog counts wall clock, which
      // runs at least as fast as this thread's CPU time, so no call spends more CPU than is left.
      const started = process.cpuUsage();
      const wallStart = performance.now();
      const r = withinTimeLimit(what, Math.max(1, allowed));
      const used = process.cpuUsage(started);
      const usedMs = (used.user + used.system) / 1000;
      spent += usedMs;
      // A batch the watchdog stopped with less than half its allowance spent was starved by a busy host: the
      // parser's state is part-way through it, so it cannot run again, but the reason names the host, not the log.
      const starved = !r.ok && r.reason === "timeout" && usedMs < 0.5 * allowed;
      if (!r.ok)
        stopped = {
          line: line(),
          reason: starved
            ? `the host was too busy to parse the log within its budget (RETRACE_HOST_LIMITS logTimeMs ${limits.logTimeMs} + logMsPerMb ${limits.logMsPerMb} per MiB, in CPU time): it got ${Math.round(usedMs)} ms of CPU in ${Math.round(performance.now() - wallStart)} ms; run it again when the host is less loaded`
            : r.reason === "timeout"
              ? `parsing took longer than the host allows for a log of this size (RETRACE_HOST_LIMITS logTimeMs ${limits.logTimeMs} + logMsPerMb ${limits.logMsPerMb} per MiB)`
              : "a line nests deeper than the parser's stack allows",
        };
    },
  };
}
