/**
 * Classes from the hold8 misses (issue 12, fixer f12d): actual and expected values stated outside the code and
 * outside sentences — a lone value under an Actual heading, a label line over a value line, a block whose lead
 * says "what I actually got:" — comments giving both sides (`# expected output: X, actual output: Y`), and a
 * report that states only the expected value. Every report here is written for these tests; each rule has a
 * case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../../src/repro/annotations.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { claimsProcessCrash } from "../../../src/repro/process-crash.ts";
import { statedSides, statedValue } from "../../../src/repro/stated-sides.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));
const ran = (stdout: string) => ({
  exitCode: 0,
  stoppedBy: null,
  stdout,
  stderr: "",
  exception: null,
  durationMs: 5,
});
const unknown = {
  kind: "unknown" as const,
  exceptionType: null,
  exceptionMessage: null,
  output: [],
  source: "t",
};

describe("a lone value under an Actual / Expected heading (issue template)", () => {
  const md = [
    "# singular of 'octopus'",
    "",
    "## Steps to Reproduce",
    "",
    f,
    "const words = require('wordsmith');",
    "words.singular('octopi');",
    f,
    "",
    "## Expected Outcome",
    "",
    '"octopus"',
    "",
    "## Actual Outcome",
    "",
    '"octopu"',
  ].join("\n");

  it("is the claim and its expectation", () => {
    const e = read(md);
    expect(e.actual.kind).toBe("output");
    expect(e.actual.output).toEqual(['"octopu"']);
    expect(e.expectedOutput).toEqual(['"octopus"']);
  });

  it("is not read from a sentence under the heading", () => {
    const e = read(md.replace('"octopu"', "It drops the last letter, as far as I can tell."));
    expect(e.actual.kind).toBe("unknown");
  });
});

describe("a label line over a value line", () => {
  it("reads `output` then an inline value as the actual output", () => {
    const md = ["# format", "", "`console.log(fmt(1234.5))`", "output", "`1,234.49`"].join("\n");
    const e = read(md);
    expect(e.actual.output).toEqual(["1,234.49"]);
  });

  it("does not take a statement in backticks as the value", () => {
    expect(statedValue("`console.log(fmt(1))`")).toBeNull();
    expect(statedValue("`x = f()`")).toBeNull();
    expect(statedValue("`1,234.49`")).toBe("1,234.49");
    const md = ["# format", "", "Result", "`console.log(fmt(1234.5))`"].join("\n");
    expect(statedSides(parseReport(md))).toBeNull();
  });

  it("does not take a label followed by prose", () => {
    const md = ["# format", "", "`fmt(1234.5)`", "", "Output", "", "is wrong by a cent"].join("\n");
    expect(statedSides(parseReport(md))).toBeNull();
  });
});

describe("a block its lead names as what the reporter actually got", () => {
  const md = [
    "# tabs",
    "",
    `${f}js`,
    "const rows = table.parse('a\\tb\\nc\\td');",
    "console.log(rows)",
    f,
    "What I expected:",
    `${f}js`,
    "[ [ 'a', 'b' ], [ 'c', 'd' ] ]",
    f,
    "and what I actually got:",
    `${f}js`,
    "[ [ 'a\\tb' ], [ 'c', 'd' ] ]",
    f,
  ].join("\n");

  it("is the claim, and the block led by 'expected' the expectation", () => {
    const e = read(md);
    expect(e.actual.output).toEqual(["[ [ 'a\\tb' ], [ 'c', 'd' ] ]"]);
    expect(e.expectedOutput).toEqual(["[ [ 'a', 'b' ], [ 'c', 'd' ] ]"]);
  });

  it("is never a program, whatever its lead says", () => {
    const code = md.replace("[ [ 'a\\tb' ], [ 'c', 'd' ] ]", "const x = [1];\nconsole.log(x)");
    const e = read(code);
    expect(e.actual.output).not.toContain("console.log(x)");
  });
});

describe("a comment giving both sides", () => {
  it("takes the actual side as the claim and the expected side as the value wanted", () => {
    expect(parseAnnotation(" expected output: 'XXXX', actual output: 'z'")).toEqual({
      role: "actual",
      kind: "output",
      value: "'z'",
      flagged: true,
    });
  });

  it("reads a line whose two sides agree as no claim, and does not let its value decide the verdict", () => {
    expect(parseAnnotation(" expected output: 'XXXX', actual output: 'XXXX'")).toBeNull();
    const md = [
      "# sub ignores the flag",
      "",
      `${f}python`,
      "import re",
      "# expected output: 'XXXX', actual output: 'z'",
      'print(re.sub("z ", "XXXX", "z", re.X))',
      "# expected output: 'XXXX', actual output: 'XXXX'",
      'print(re.sub("z", "XXXX", "z", re.X))',
      f,
    ].join("\n");
    const e = read(md);
    expect(e.actual.output).toEqual(["'z'"]);
    const m = matchRun(e.actual, ran("z\nXXXX\n"), e.expectedOutput);
    expect(foldRuns([m, m, m]).verdict).toBe("REPRODUCED");
    const fixed = matchRun(e.actual, ran("XXXX\nXXXX\n"), e.expectedOutput);
    expect(foldRuns([fixed, fixed, fixed]).verdict).toBe("NOT_REPRODUCED");
  });

  it("leaves an expected-only comment as it was", () => {
    expect(parseAnnotation(" expected: 'XXXX'")?.role).toBe("expected");
  });
});

describe("a report that states only the expected value", () => {
  it("is NOT_REPRODUCED when the run prints that value as a line", () => {
    const m = matchRun(unknown, ran("9007199254740991\n"), ["9007199254740991"]);
    expect(m.kind).toBe("clean");
    expect(foldRuns([m, m, m]).verdict).toBe("NOT_REPRODUCED");
  });

  it("still asks when the run prints something else (the wrong value is not stated)", () => {
    const m = matchRun(unknown, ran("9007199254740990\n"), ["9007199254740991"]);
    expect(m.kind).toBe("no-expectation");
    expect(foldRuns([m, m, m]).verdict).toBe("NEEDS_INFO");
  });

  it("does not count the value inside a longer line", () => {
    const m = matchRun(unknown, ran("got 9007199254740991 and more\n"), ["9007199254740991"]);
    expect(m.kind).toBe("no-expectation");
  });
});

describe("a report that says the interpreter itself crashes", () => {
  const md = (words: string) =>
    [
      "# insort with a string key",
      "",
      "**Crash report**",
      "",
      words,
      "",
      f,
      "import bisect",
      "bisect.insort([], {'a': 1}, key='a')",
      f,
    ].join("\n");
  const raised = {
    exitCode: 1,
    stoppedBy: null,
    stdout: "",
    stderr: "Traceback (most recent call last):\nTypeError: 'str' object is not callable\n",
    exception: { type: "TypeError", message: "'str' object is not callable" },
    durationMs: 5,
  };
  const segv = { exitCode: 139, stoppedBy: null, stdout: "", stderr: "", exception: null, durationMs: 5 };

  it("is a crash of the process: an ordinary exception is NOT_REPRODUCED, a segfault REPRODUCED", () => {
    const e = read(md("Running this takes down the interactive interpreter; no error message at all."));
    expect(e.actual.kind).toBe("error-unspecified");
    expect(e.actual.processCrash).toBe(true);
    const m = matchRun(e.actual, raised);
    expect(foldRuns([m, m, m]).verdict).toBe("NOT_REPRODUCED");
    const s = matchRun(e.actual, segv);
    expect(foldRuns([s, s, s]).verdict).toBe("REPRODUCED");
  });

  it("never counts the sandbox's own kill (status 137) as the crash", () => {
    const e = read(md("It segfaults."));
    const k = matchRun(e.actual, { ...segv, exitCode: 137 });
    expect(foldRuns([k, k, k]).verdict).not.toBe("REPRODUCED");
  });

  it("is not read from 'crashes the process' (an uncaught exception, as Node users say)", () => {
    const e = read(md("Calling it with a string crashes the node process."));
    expect(e.actual.processCrash).toBeUndefined();
    const m = matchRun(e.actual, raised);
    expect(foldRuns([m, m, m]).verdict).toBe("PARTIAL");
  });

  it("is not read from a sentence saying it should not crash the interpreter", () => {
    expect(claimsProcessCrash("A bad key should not crash the interpreter.")).toBe(false);
    expect(claimsProcessCrash("This crashes the interpreter.")).toBe(true);
  });
});

describe("a run that printed every claimed line, otherwise, then died on a name the report never defines", () => {
  const claim = {
    kind: "output" as const,
    exceptionType: null,
    exceptionMessage: null,
    output: ["'unicorn'", "undefined"],
    source: "t",
  };
  const died = (stdout: string) => ({
    exitCode: 1,
    stoppedBy: null,
    stdout,
    stderr: "ReferenceError: ret is not defined\n",
    exception: { type: "ReferenceError", message: "ret is not defined" },
    durationMs: 5,
  });

  it("is NOT_REPRODUCED: the claim's lines ran and did not show it (a patch fragment failed after them)", () => {
    const m = matchRun(claim, died("'unicorn'\n'unicorn'\n"));
    expect(m.kind).toBe("clean");
    expect(foldRuns([m, m, m]).verdict).toBe("NOT_REPRODUCED");
  });

  it("stays PARTIAL when the run died before printing the rest of the claim (the report's own typo)", () => {
    const m = matchRun(claim, died("'unicorn'\n"));
    expect(foldRuns([m, m, m]).verdict).toBe("PARTIAL");
  });

  it("does not fire when the lines printed are the claimed ones", () => {
    const m = matchRun(claim, died("'unicorn'\nundefined\n"));
    expect(m.kind).not.toBe("clean");
    expect(foldRuns([m, m, m]).verdict).not.toBe("NOT_REPRODUCED");
  });
});
