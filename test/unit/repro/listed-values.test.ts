/**
 * Issue templates that put an emoji before their headings ("### ✔️ Expected result", "### ❌ Actual result") and
 * reports that list the values under them one per line, each named (`total is "12.50"`). Reports written for
 * these tests.
 */
import { describe, expect, it } from "vitest";
import { matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { listedValues } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const f = "```";
const report = [
  "# price formatting drops the cents",
  "",
  "## 🐛 Steps",
  "",
  `${f}js`,
  "const fmt = require('pricefmt');",
  "const a = fmt(12.5, 'USD');",
  "const b = fmt(3, 'EUR');",
  "console.log(a);",
  "console.log(b);",
  f,
  "",
  "### ✅ Expected result",
  "",
  '- a is "$12.50"',
  '- b is "€3.00"',
  "",
  "### 💥 Actual result",
  "",
  '- a is "$12.5"',
  '- b is "€3"',
  "",
].join("\n");

describe("headings after an emoji", () => {
  it("open their sections like the words alone", () => {
    const r = parseReport(report);
    expect(r.prose.expected).toContain('"$12.50"');
    expect(r.prose.actual).toContain('"$12.5"');
    expect(r.blocks[0]?.section).toBe("steps");
  });
});

describe("values listed one per line under Actual and Expected", () => {
  it("are the reported and the expected output", () => {
    const e = reportedExpectations(parseReport(report));
    expect(e.actual).toMatchObject({ kind: "output", output: ["$12.5", "€3"] });
    expect(e.expectedOutput).toEqual(["$12.50", "€3.00"]);
  });

  it("reads only whole lines that name a value, not sentences", () => {
    expect(listedValues('total is "7"\nresult: true\nn = 3\n')).toEqual(["7", "true", "3"]);
    expect(
      listedValues("This is wrong since 2.0 and it is 3 times slower\nthe value is what I said"),
    ).toEqual([]);
  });

  it("a run that prints the first listed value and then dies on the report's own typo is a partial reproduction", () => {
    const e = reportedExpectations(parseReport(report));
    const m = matchRun(
      e.actual,
      {
        exitCode: 1,
        stoppedBy: null,
        stdout: "$12.5\n",
        stderr: "ReferenceError: log is not defined\n    at Object.<anonymous> (/workspace/r.cjs:5:9)\n",
        exception: { type: "ReferenceError", message: "log is not defined" },
        durationMs: 5,
      },
      e.expectedOutput,
    );
    expect(m.kind).toBe("different-failure");
  });

  it("a line of spaces is read in linear time", () => {
    const { ms } = cpuMs(() =>
      listedValues(`total is "7"${" ".repeat(60_000)}x\n${"a".repeat(60)} is ${" ".repeat(60_000)}!`),
    );
    expect(ms).toBeLessThan(500);
  });
});
