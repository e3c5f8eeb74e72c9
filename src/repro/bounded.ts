/**
 * Host-side parsing with a bound on time, not only on bytes. The markdown parser's cost grows faster than
 * the input on some texts (`[*` or `*a_` repeated: quadratic; `>` repeated: one nesting level per character,
 * until the stack overflows), so a size cap alone does not bound it. A synchronous call runs inside
 * `vm.runInContext` with a `timeout`: V8's watchdog stops it, whatever it is doing, when the time is up (the
 * functions it calls run on the same isolate, so the limit covers them too), and a stack overflow is caught.
 * No worker or child process is needed, so it works the same from source, from the compiled CLI and in the
 * Action's single-file bundle.
 */
import { DEFAULT_HOST_LIMITS } from "../core/host-limits.ts";

export { type Bounded, withinTimeLimit } from "../core/time-limit.ts";

/**
 * GitHub's own limit for an issue body: longer input is refused before anything reads it. The default of the
 * operator's RETRACE_HOST_LIMITS reportChars (`hostLimits().reportChars` is the value in force).
 */
export const MAX_REPORT_CHARS = DEFAULT_HOST_LIMITS.reportChars;

/** Time the host may spend reading one report (sanitize, parse, what was reported): RETRACE_HOST_LIMITS
 * parseTimeMs's default. */
export const PARSE_TIME_LIMIT_MS = DEFAULT_HOST_LIMITS.parseTimeMs;
