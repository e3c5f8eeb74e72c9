/**
 * Two classes of false REPRODUCED (issue 12): a claim that is a timestamp erased by the `<time>` mask, and the
 * good transcript of a two-version report taken as the claim. Reports written here, in those shapes.
 */
import { describe, expect, it } from "vitest";
import {
  foldRuns,
  matchRun,
  messagesAgree,
  outputAppears,
  type RunObservation,
} from "../../../src/repro/match.ts";
import { timeIsTheClaim } from "../../../src/repro/normalize.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { errorWanted } from "../../../src/repro/two-versions.ts";
import { run } from "./observed-run.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));
const verdict = (md: string, r: RunObservation) => {
  const exp = read(md);
  return foldRuns([matchRun(exp.actual, r, exp.expectedOutput, exp.expectedException)]);
};

describe("a timestamp that is the whole claim is compared as written", () => {
  const dateReport = `# Parsing a time with a date format gives a bogus date\n\n${f}js\nconst when = require("when");\nwhen.parse(' 09:30', 'DD.MM.YYYY').format()\n${f}\n\nActual:\n\n${f}\n"0001-09-30T00:00:00+02:00"\n${f}\n\nExpected:\n\n${f}\n"Invalid format"\n${f}\n`;

  it("a run printing another date is not a reproduction", () => {
    const m = verdict(dateReport, run({ stdout: "'2031-09-30T00:00:00+00:00'\n" }));
    expect(m.verdict).not.toBe("REPRODUCED");
    expect(m.verdict).toBe("NOT_REPRODUCED");
  });

  it("the same date, printed, still reproduces", () => {
    const m = verdict(dateReport, run({ stdout: "'0001-09-30T00:00:00+02:00'\n" }));
    expect(m.verdict).toBe("REPRODUCED");
  });

  it("which lines are only a timestamp", () => {
    expect(timeIsTheClaim('"0000-04-17T00:00:00+08:00"')).toBe(true);
    expect(timeIsTheClaim("Moment<2020-01-01T00:00:00+00:00>")).toBe(true);
    expect(timeIsTheClaim("[Date: 2020-01-01 10:00:00]")).toBe(true);
    expect(timeIsTheClaim("12:30:00")).toBe(true);
    expect(timeIsTheClaim("2024-01-02 03:04:05 ERROR boom")).toBe(false);
    expect(timeIsTheClaim("[12:00:01] worker 3 stopped")).toBe(false);
    expect(timeIsTheClaim("no time here")).toBe(false);
  });

  it("the bare clock time of a date library is data, a logger's line keeps its timestamp masked", () => {
    expect(outputAppears(["12:30:00"], "18:45:10\n")).toBe(false);
    expect(outputAppears(["12:30:00"], "12:30:00\n")).toBe(true);
    expect(outputAppears(["2024-01-02 03:04:05 ERROR boom"], "2026-11-26 23:01:59 ERROR boom\n")).toBe(true);
    // Paths in a timestamp claim are still masked.
    expect(
      outputAppears(["/home/me/x.log 2020-01-01T00:00:00Z"], "/workspace/x.log 2020-01-01T00:00:00Z\n"),
    ).toBe(true);
  });

  it("a message that is only a timestamp is compared as written; one with words keeps it masked", () => {
    expect(messagesAgree("2020-01-01T00:00:00Z", "2031-05-05T10:00:00Z")).toBe(false);
    expect(messagesAgree("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z")).toBe(true);
    expect(
      messagesAgree("deadline 2020-01-01T00:00:00Z passed", "deadline 2031-05-05T10:00:00Z passed"),
    ).toBe(true);
  });

  it("counter-example: a logger's line with a volatile timestamp still reproduces", () => {
    const md = `# The worker logs an error on start\n\n${f}python\nimport logging\nlogging.basicConfig(format="%(asctime)s %(levelname)s %(message)s")\nlogging.error("boom")\n${f}\n\nOutput:\n\n${f}\n2024-01-02 03:04:05,123 ERROR boom\n${f}\n`;
    const m = verdict(md, run({ stderr: "2026-11-26 23:05:51,042 ERROR boom\n" }));
    expect(m.verdict).toBe("REPRODUCED");
  });
});

describe("two transcripts: an error the report says used to be raised is the expected behaviour", () => {
  const session = (version: string, result: string) =>
    `${f}\nPython ${version} (main, Jan 1 2025, 00:00:00) [GCC 12.2.0] on linux\n>>> import tally\n>>> tally.parse("7 %")\n${result}\n${f}`;
  const traceback = `Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n  File "/usr/lib/python3/tally.py", line 9, in parse\n    raise ValueError("bad percent")\nValueError: bad percent`;
  const regression = `# \`tally.parse\` stopped raising \`ValueError: bad percent\`\n\nOn 3.12.4 and 3.12.3 \`tally.parse\` does not raise \`ValueError: bad percent\` any more\n${session("3.12.4", "7")}\n\nwhereas 3.12.2 did raise it:\n${session("3.12.2", traceback)}\nand so did 3.9, for example.\n`;

  it("the clean transcript is the claim and the error the expected behaviour", () => {
    const exp = read(regression);
    expect(exp.twoVersions?.bad?.label).toBe("3.12.4");
    expect(exp.twoVersions?.good?.label).toBe("3.12.2");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["7"] });
    expect(exp.expectedException).toMatchObject({ type: "ValueError", message: "bad percent" });
  });

  it("a run raising that error is NOT_REPRODUCED: it shows the behaviour the report calls correct", () => {
    const m = verdict(
      regression,
      run({ exitCode: 1, stderr: traceback, exception: { type: "ValueError", message: "bad percent" } }),
    );
    expect(m.verdict).toBe("NOT_REPRODUCED");
    expect(m.detail).toMatch(/behaviour the report calls correct/);
  });

  it("a run returning the value reproduces", () => {
    expect(verdict(regression, run({ stdout: "7\n" })).verdict).toBe("REPRODUCED");
  });

  it("the words alone decide when the error is not named ('used to', 'did raise it', 'no longer')", () => {
    const md = `# tally.parse regression\n\nOn 3.12.4 the call no longer complains:\n${session("3.12.4", "7")}\n\n3.12.2 did raise it:\n${session("3.12.2", traceback)}\n`;
    const exp = read(md);
    expect(exp.twoVersions?.bad?.label).toBe("3.12.4");
    expect(exp.actual.kind).toBe("output");
  });

  it("phrases that mark the error as wanted", () => {
    expect(errorWanted("ValueError", "`f` stopped raising `ValueError: x`")).toBe(true);
    expect(errorWanted("ValueError", "it no longer raises ValueError")).toBe(true);
    expect(errorWanted("ValueError", "f does not raise ValueError: bad any more")).toBe(true);
    expect(errorWanted("ValueError", "f should raise ValueError here")).toBe(true);
    expect(errorWanted("ValueError", "since 3.12 f raises ValueError; 3.11 did not raise it")).toBe(false);
    expect(errorWanted("ValueError", "f should not raise ValueError")).toBe(false);
  });

  it("counter-example: the new version raises and the old did not — the error stays the claim", () => {
    const md = `# tally.parse raises since 3.12.4\n\nSince upgrading, 3.12.4 raises \`ValueError: bad percent\`:\n${session("3.12.4", traceback)}\n\n3.12.2 did not raise it:\n${session("3.12.2", "7")}\n`;
    const exp = read(md);
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "ValueError" });
    const m = verdict(
      md,
      run({ exitCode: 1, stderr: traceback, exception: { type: "ValueError", message: "bad percent" } }),
    );
    expect(m.verdict).toBe("REPRODUCED");
    expect(verdict(md, run({ stdout: "7\n" })).verdict).toBe("NOT_REPRODUCED");
  });
});

describe("blanks that pad a quoted string are part of its value (hold13-py-format-micropython1708's class)", () => {
  it("a padded repr is not the unpadded one the report shows", () => {
    const printed = "'        foo         '\n'foo                 '\n'                 foo'\n";
    expect(outputAppears(["'foo'", "'foo'", "'foo'"], printed)).toBe(false);
    expect(outputAppears(["'foo'"], "'foo'\n")).toBe(true);
  });

  it("the same padding written by the reporter still matches, with either quote", () => {
    expect(outputAppears(['"   1"'], "'   1'\n")).toBe(true);
    expect(outputAppears(["'a  b'"], "'a  b'\n")).toBe(true);
    expect(outputAppears(["'a  b'"], "'a b'\n")).toBe(false);
  });

  it("a single blank between words still meets the value printed bare or quoted", () => {
    expect(outputAppears(["Hello world"], "'Hello world'\n")).toBe(true);
    expect(outputAppears(["{ a: 'x y' }"], "{a: 'x y'}\n")).toBe(true);
  });

  it("a whole report: unpadded strings claimed, padded strings printed → not reproduced", () => {
    const md = `# str.format ignores width for strings\n\n${f}python\n>>> str.format("{:^8}", "foo")\n'foo'\n${f}\n`;
    const m = verdict(md, run({ stdout: "'  foo   '\n" }));
    expect(m.verdict).not.toBe("REPRODUCED");
    expect(verdict(md, run({ stdout: "'foo'\n" })).verdict).toBe("REPRODUCED");
  });
});
