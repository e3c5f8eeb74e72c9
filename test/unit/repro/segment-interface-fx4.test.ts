/**
 * Marked parts (`# works` / `# fails`) and an exception raised at a line of the failing part (issue 12, rv23 / fx4):
 * the code calling what the installed release does not have (a missing attribute, a keyword or an argument count
 * the callee does not take, a name), raised at the report's own line, is a version question, never REPRODUCED. An
 * exception raised inside the library's code, or by a built-in at the failing line, is still the reported failure.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const fence = "```";
const CODE = [
  "import lib",
  "",
  "# works",
  "x = lib.parse('a')",
  "",
  "# fails",
  "y = lib.parse_many(['a','b'])",
].join("\n");
const md = `# parse_many fails\n\n${fence}python\n${CODE}\n${fence}\n`;
const reported = reportedExpectations(parseReport(md)).actual;

const ownFrame = (line: number, code: string) =>
  `  File "/workspace/reproduction.py", line ${line}, in <module>\n    ${code}\n`;
const raised = (stderr: string, type: string, message: string) =>
  matchRun(
    reported,
    run({
      exitCode: 1,
      stderr: `Traceback (most recent call last):\n${stderr}${type}: ${message}\n`,
      exception: { type, message },
    }),
  );

describe("marked parts: an interface the installed release lacks is not the reported failure", () => {
  it("reads the marks", () => {
    expect(reported.kind).toBe("error-unspecified");
    expect(reported.segments?.failing).toEqual(["y = lib.parse_many(['a','b'])"]);
  });

  it("must not fire: a missing module attribute at the failing line (the release lacks parse_many)", () => {
    const m = raised(
      ownFrame(7, "y = lib.parse_many(['a','b'])"),
      "AttributeError",
      "module 'lib' has no attribute 'parse_many'",
    );
    expect(m.kind).not.toBe("match");
    expect(foldRuns([m]).verdict).not.toBe("REPRODUCED");
    expect(m.question).toMatch(/Which version/);
  });

  it("must not fire: a call-signature TypeError raised at the failing line", () => {
    for (const message of [
      "parse() got an unexpected keyword argument 'strict'",
      "parse_many() takes 1 positional argument but 2 were given",
      "parse_many() missing 1 required positional argument: 'opts'",
    ]) {
      const m = raised(ownFrame(7, "y = lib.parse_many(['a','b'])"), "TypeError", message);
      expect(foldRuns([m]).verdict, message).not.toBe("REPRODUCED");
    }
  });

  it("must not fire: a name the code does not have, at the failing line", () => {
    const m = raised(ownFrame(7, "y = lib.parse_many(['a','b'])"), "NameError", "name 'lib' is not defined");
    expect(foldRuns([m]).verdict).not.toBe("REPRODUCED");
  });

  it("counter-example: a real exception thrown inside the library's code, in the failing part, is REPRODUCED", () => {
    const m = raised(
      `${ownFrame(7, "y = lib.parse_many(['a','b'])")}  File "/usr/local/lib/python3.11/site-packages/lib/core.py", line 40, in parse_many\n    raise ValueError(item)\n`,
      "ValueError",
      "b",
    );
    expect(m.kind).toBe("match");
    expect(foldRuns([m]).verdict).toBe("REPRODUCED");
  });

  it("counter-example: an AttributeError raised inside the library's code is the library's failure", () => {
    const m = raised(
      `${ownFrame(7, "y = lib.parse_many(['a','b'])")}  File "/usr/local/lib/python3.11/site-packages/lib/core.py", line 41, in parse_many\n    return self._cache.get(x)\n`,
      "AttributeError",
      "'Parser' object has no attribute '_cache'",
    );
    expect(m.kind).toBe("match");
  });

  it("counter-example: a built-in raising at the failing line (no library frame, C code) is REPRODUCED", () => {
    const m = raised(
      ownFrame(7, "y = lib.parse_many(['a','b'])"),
      "RuntimeError",
      "dictionary changed size during iteration",
    );
    expect(m.kind).toBe("match");
    const none = raised(
      ownFrame(7, "y = lib.parse_many(['a','b'])"),
      "AttributeError",
      "'NoneType' object has no attribute 'group'",
    );
    expect(none.kind).toBe("match");
  });
});
