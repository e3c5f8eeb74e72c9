/**
 * A report that says the process itself dies — a segfault, an abort, "takes down the interpreter", "no error
 * message at all, I land back at the command line" — claims something an ordinary exception is not: a run that
 * raises a `TypeError` with its traceback shows the runtime working as it should, not the crash.
 */
import type { RaisedException } from "./outcome.ts";

// Words that name a crash of the runtime itself. "Crashes the process" or "crashes node" is not among them: Node
// users say so of an uncaught exception, which is an error of the language.
const PROCESS_CRASH =
  /\b(?:seg(?:mentation)?[ -]?fault\w*|core\s+dumped|access\s+violation|fatal\s+python\s+error|(?:takes?|took|taking|brings?|brought|bringing)\s+down\s+the\s+(?:\w+\s+)?interpreter|interpreter\s+(?:itself\s+)?(?:crash(?:es|ed)?|dies|died|aborts?|aborted)|crash(?:es|ed)?\s+the\s+(?:\w+\s+)?interpreter)\b/i;
/** A clause that says the crash should not happen or no longer does. */
const NOT_HAPPENING =
  /\b(?:should(?:n't| not)?|must not|would|used to|no longer|instead of|rather than|not)\s+(?:\w+\s+){0,3}$/i;

/** The report's words claim a crash of the process itself, not an error the language reports. */
export function claimsProcessCrash(prose: string): boolean {
  for (const m of prose.matchAll(new RegExp(PROCESS_CRASH.source, "gi"))) {
    const before = prose.slice(Math.max(0, (m.index ?? 0) - 40), m.index ?? 0);
    if (!NOT_HAPPENING.test(before.split(/[.!?;\n]/).pop() ?? "")) return true;
  }
  return false;
}

/**
 * A run compared with a claimed crash of the process: killed by a signal (status 128 + n, or the sandbox's report
 * of one) is the crash; an ordinary exception is not it. Null when the run says neither (let the usual rules speak).
 */
/** What the crash rule reads of a run (a `RunObservation` of match.ts, which calls this: no import back). */
export interface CrashObservation {
  stoppedBy: unknown;
  exception: Pick<RaisedException, "type" | "message"> | null | undefined;
  exitCode: number | null;
}

export function crashMatch(run: CrashObservation): { kind: "match" | "clean"; detail: string } | null {
  if (run.stoppedBy !== null) return null;
  if (run.exception)
    return {
      kind: "clean",
      detail: `the report describes the process itself crashing with no error of the language; the run raised the ordinary \`${run.exception.type}${run.exception.message ? `: ${run.exception.message}` : ""}\` and the runtime stayed up to report it: no crash (fixed here, or never broken on this runtime)`,
    };
  // The signals a crashing runtime raises on itself (ILL, ABRT, BUS, FPE, SEGV); never KILL or TERM, which the
  // sandbox sends when it stops a run.
  const signal = run.exitCode !== null ? run.exitCode - 128 : 0;
  if ([4, 6, 7, 8, 11].includes(signal))
    return {
      kind: "match",
      detail: `the process died with status ${run.exitCode} (signal ${signal}) and no error of the language, as reported`,
    };
  return null;
}
