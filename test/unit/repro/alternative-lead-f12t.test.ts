/**
 * Two transcripts, one introduced as another Python implementation's console ("In the Brython console on master:")
 * and one as CPython's: CPython is the reference, so the other implementation's result is the reported one, even
 * when the CPython side is the one ending in an error (issue 12: without it, CPython's error was taken as the bug
 * and a run raising it read as REPRODUCED). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const report = (otherLead: string) =>
  [
    "# strptime accepts a five-digit year",
    "",
    otherLead,
    `${f}python`,
    ">>> datetime.strptime('1.1.10000', '%d.%m.%Y')",
    "datetime.datetime(1000, 1, 1, 0, 0)",
    f,
    "In the CPython 3.10.4 console:",
    `${f}python`,
    ">>> datetime.strptime('1.1.10000', '%d.%m.%Y')",
    "Traceback (most recent call last):",
    '  File "<stdin>", line 1, in <module>',
    "ValueError: unconverted data remains: 0",
    f,
    "",
  ].join("\n");

describe("a transcript introduced as another Python implementation's", () => {
  it("is the reported side; CPython's error is the reference", () => {
    const e = reportedExpectations(parseReport(report("In the Brython console on master:")));
    expect(e.twoVersions?.why).toMatch(/is another Python implementation than CPython/);
    expect(e.actual).toMatchObject({ kind: "output", output: ["datetime.datetime(1000, 1, 1, 0, 0)"] });
  });

  it("must not fire: an introduction naming no other implementation leaves the error as the reported side", () => {
    const e = reportedExpectations(parseReport(report("In the console on my laptop:")));
    expect(e.twoVersions?.why ?? "").not.toMatch(/another Python implementation/);
    expect(e.actual).toMatchObject({ kind: "exception", exceptionType: "ValueError" });
  });
});
