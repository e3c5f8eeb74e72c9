/**
 * A reproducer that repeats until the bug shows (`while True:` … `raise`), stopped at the sandbox's time limit,
 * ran without the failure for all that time: the bug did not show (NOT_REPRODUCED), which is not missing
 * information. A program that merely ran out of time is still NEEDS_INFO. Code written for these tests.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun, type RunObservation, repeatsUntilFailure } from "../../../src/repro/match.ts";
import type { ReportedBehaviour } from "../../../src/repro/result.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const reported: ReportedBehaviour = {
  kind: "exception",
  exceptionType: "RuntimeError",
  exceptionMessage: "lost a line after 812 tries",
  output: [],
  source: "the error output in the report",
};
const stopped: RunObservation = {
  exitCode: null,
  stoppedBy: "timeout",
  stdout: "",
  stderr: "",
  exception: null,
  durationMs: 30_000,
};
const pyLoop = [
  "import queue, threading",
  "tries = 0",
  "while True:",
  "    q = queue.Queue()",
  "    threading.Thread(target=q.put, args=(1,)).start()",
  "    if q.get(timeout=1) != 1:",
  "        raise RuntimeError(f'lost a line after {tries} tries')",
  "    tries += 1",
].join("\n");
const jsLoop =
  "let n = 0;\nfor (;;) {\n  if (Math.random() > 2) throw new Error('bad after ' + n);\n  n++;\n}\n";

describe("a reproducer that repeats until it fails", () => {
  it("is recognised in Python and JavaScript, and not without a way to fail", () => {
    expect(repeatsUntilFailure(pyLoop)).toBe(true);
    expect(repeatsUntilFailure(jsLoop)).toBe(true);
    expect(repeatsUntilFailure("while True:\n    serve()\n")).toBe(false);
    expect(repeatsUntilFailure("for x in xs:\n    raise ValueError()\n")).toBe(false);
  });

  it("stopped at the time limit, is not reproduced, and says how long it ran", () => {
    const m = matchRun(reported, stopped, [], null, { untilFailure: true });
    expect(m.kind).toBe("clean");
    expect(m.detail).toContain("ran for 30 s");
    expect(foldRuns([m, m, m]).verdict).toBe("NOT_REPRODUCED");
  });

  it("any other program stopped at the time limit is still NEEDS_INFO", () => {
    expect(matchRun(reported, stopped).kind).toBe("needs");
    const nothing: ReportedBehaviour = {
      ...reported,
      kind: "unknown",
      exceptionType: null,
      exceptionMessage: null,
    };
    expect(matchRun(nothing, stopped, [], null, { untilFailure: true }).kind).toBe("needs");
  });

  it("reads a long run of spaces in linear time", () => {
    const { ms } = cpuMs(() =>
      repeatsUntilFailure(
        `${" ".repeat(60_000)}while${" ".repeat(60_000)}(${" ".repeat(60_000)}x\nfor (${"; ".repeat(30_000)}`,
      ),
    );
    expect(ms).toBeLessThan(500);
  });
});
