/**
 * One block showing a run per version, each output under its version's line (issue 12, hold21's false REPRODUCED,
 * python/cpython#138804's shape: a shell loop echoing `3.10` … `3.14` before each run's last line). The outputs are
 * two-versions sides: the one the title or words name as broken is the claim, the others how it works; a run that
 * prints a good side's line is NOT_REPRODUCED, never "as reported". Reports written here.
 */
import { describe, expect, it } from "vitest";
import { matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { versionSegments } from "../../../src/repro/version-lines.ts";
import { run } from "./observed-run.ts";

const f = "```";
const loop = (title: string, prose: string, lines: string) =>
  `# ${title}\n\n${prose}\n\n${f}python\nimport textwrap\n\ntextwrap.dedent(7)\n${f}\n\nIn the shell:\n${f}bash\n$ for v in 10 11 12 13; do echo "3.$v"; uv run --python 3.$v t.py 2>&1 | tail -n 1; done\n${lines}\n${f}\n`;
const perVersion = [
  "3.10",
  "TypeError: expected str, got int",
  "3.11",
  "TypeError: expected str, got int",
  "3.12",
  "TypeError: expected str, got int",
  "3.13",
  "ValueError: bad value 7",
].join("\n");

describe("a block with an output per version line", () => {
  const md = loop(
    "textwrap.dedent raises another exception in 3.13",
    "Before it was TypeError, now it is ValueError.",
    perVersion,
  );

  it("takes the version the title names as the claim and the release before it as the good side", () => {
    const e = reportedExpectations(parseReport(md));
    expect(e.actual.kind).toBe("exception");
    expect(e.actual.exceptionType).toBe("ValueError");
    expect(e.twoVersions?.bad?.label).toBe("3.13");
    expect(e.twoVersions?.good?.label).toBe("3.12");
    expect(e.expectedException).toEqual({ type: "TypeError", message: "expected str, got int" });
    expect(e.actual.source).toContain("`3.10`, `3.11`, `3.12` show the expected behaviour");
  });

  it("a run printing a good side's line is NOT_REPRODUCED, said so; the bad side's error reproduces", () => {
    const e = reportedExpectations(parseReport(md));
    const good = matchRun(
      e.actual,
      run({
        exitCode: 1,
        stderr: "TypeError: expected str, got int\n",
        exception: { type: "TypeError", message: "expected str, got int" },
      }),
      e.expectedOutput,
      e.expectedException,
    );
    expect(good.kind).toBe("clean");
    expect(good.detail).toContain("the error the report shows as the correct behaviour");
    const bad = matchRun(
      e.actual,
      run({
        exitCode: 1,
        stderr: "ValueError: bad value 7\n",
        exception: { type: "ValueError", message: "bad value 7" },
      }),
      e.expectedOutput,
      e.expectedException,
    );
    expect(bad.kind).not.toBe("clean");
  });

  it("takes the sides at or after the release the words say it broke in", () => {
    const lines = ["Python 3.10.4", "'a'", "Python 3.11.9", "'b'", "Python 3.12.2", "'b'"].join("\n");
    const md2 = `# regression in Python 3.11+\n\nThis is fine on 3.10 but fails on 3.11 and newer.\n\n${f}python\nprint(repr(f()))\n${f}\n\n${f}\n${lines}\n${f}\n`;
    const e = reportedExpectations(parseReport(md2));
    expect(e.twoVersions?.bad?.label).toBe("3.11.9");
    expect(e.twoVersions?.good?.label).toBe("3.10.4");
    expect(e.actual.output).toEqual(["'b'"]);
    expect(e.expectedOutput).toEqual(["'a'"]);
  });

  it("reads package versions the same way", () => {
    const lines = ["left-pad@1.2.0", "'00x'", "left-pad@1.3.0", "'x'"].join("\n");
    const md3 = `# padding lost in left-pad 1.3.0\n\n${f}js\nconsole.log(require('left-pad')('x', 3, '0'))\n${f}\n\n${f}\n${lines}\n${f}\n`;
    const e = reportedExpectations(parseReport(md3));
    expect(e.twoVersions?.bad?.label).toBe("left-pad@1.3.0");
    expect(e.actual.output).toEqual(["'x'"]);
  });
});

describe("must not fire", () => {
  it("a block whose only version line is the bad one", () => {
    expect(versionSegments("3.13\nValueError: bad value 7", "In the shell:")).toBeNull();
    const md = loop("dedent breaks in 3.13", "It raises now.", "3.13\nValueError: bad value 7");
    expect(reportedExpectations(parseReport(md)).twoVersions).toBeNull();
  });

  it("per-version outputs that are all the same", () => {
    const same = ["3.10", "TypeError: x", "3.11", "TypeError: x", "3.12", "TypeError: x"].join("\n");
    const e = reportedExpectations(parseReport(loop("dedent raises TypeError on 3.12", "It raises.", same)));
    expect(e.twoVersions).toBeNull();
    const pkgSame = versionSegments("foo@1.0.0\n1\nfoo@2.0.0\n1", null);
    expect(pkgSame).not.toBeNull();
    const md = `# foo 2.0.0 prints 1\n\n${f}js\nconsole.log(require('foo')())\n${f}\n\n${f}\nfoo@1.0.0\n1\nfoo@2.0.0\n1\n${f}\n`;
    expect(reportedExpectations(parseReport(md)).twoVersions).toBeNull();
  });

  it("numbers a program prints, with no word of versions, and mixed kinds of labels", () => {
    expect(versionSegments("1.5\nabove\n2.5\nbelow", "It prints:")).toBeNull();
    expect(versionSegments("3.10\nok\nPython 3.11.2\nbad", "versions")).toBeNull();
    expect(versionSegments("3.10\n3.11\nok", "versions")).toBeNull();
  });
});
