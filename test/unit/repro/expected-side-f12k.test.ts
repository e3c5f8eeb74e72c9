/**
 * A block the report gives as the right behaviour is never its claim (issue 12, hold12's two false REPRODUCED):
 * a block introduced as what the reference implementation, another version or the expected outcome does
 * ("whereas CPython raises:", "it correctly gives:", "in 3.10 it works:"), and an error shown under "Expected"
 * while the Actual section says no error happens. Reports written here, in those shapes.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun, type RunObservation } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { referenceLead } from "../../../src/repro/reference-lead.ts";
import { reportedExpectations, statedNoError } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));
const verdict = (md: string, r: RunObservation) => {
  const exp = read(md);
  return foldRuns([matchRun(exp.actual, r, exp.expectedOutput, exp.expectedException)]);
};
const raised = (type: string, message: string) =>
  run({
    stderr: `Traceback (most recent call last):\n  File "/w/main.py", line 4, in <module>\n    f()\n${type}: ${message}\n`,
    exitCode: 1,
    exception: { type, message },
  });

describe("a lead that introduces the right behaviour", () => {
  it("reads which leads introduce the expected side", () => {
    expect(
      referenceLead("On Skulpt this snippet runs to the end without complaint, whereas CPython 3.12 raises:"),
    ).toBe(true);
    expect(referenceLead("CPython correctly gives:")).toBe(true);
    expect(referenceLead("With version 2.3 it works:")).toBe(true);
    expect(referenceLead("Expected (as in Node 16):")).toBe(true);
    expect(referenceLead("Before the upgrade it used to print:")).toBe(true);
    expect(referenceLead("What it should print:")).toBe(true);
  });

  it("does not fire on a lead that introduces the reported behaviour", () => {
    // The last clause introduces the block: here the bad side.
    expect(referenceLead("It works on Node 16, but Node 18 prints:")).toBe(false);
    expect(referenceLead("On 3.10 this is fine, while 3.11 raises:")).toBe(false);
    expect(referenceLead("Expected `2`, but I get:")).toBe(false);
    expect(referenceLead("This does not work correctly:")).toBe(false);
    expect(referenceLead("It incorrectly gives:")).toBe(false);
    expect(referenceLead("CPython raises:")).toBe(false);
    expect(referenceLead("Running it gives:")).toBe(false);
    // CPython named alone, with no other implementation before it, is no contrast.
    expect(referenceLead("I ran it with CPython 3.11, which raises:")).toBe(false);
    // Not a lead at all (no colon): prose that goes on.
    expect(referenceLead("whereas CPython raises a TypeError")).toBe(false);
    expect(referenceLead(null)).toBe(false);
  });

  const skulpt = `# Skulpt lets __len__ return a float\n\n${f}python\nclass Box:\n    def __len__(self):\n        return 2.5\n\nlen(Box())\n${f}\n\nOn Skulpt this snippet runs to the end without complaint, whereas CPython 3.12 raises:\n\n${f}\nTypeError: 'float' object cannot be interpreted as an integer\n${f}\n`;

  it("the reference implementation's error is the expected side, and the claim is the clean run", () => {
    const exp = read(skulpt);
    expect(exp.actual.kind).toBe("exit");
    expect(exp.actual.exitCode).toBe(0);
    expect(exp.expectedException?.type).toBe("TypeError");
  });

  it("a run that raises the reference error is NOT_REPRODUCED, never REPRODUCED", () => {
    const m = verdict(skulpt, raised("TypeError", "'float' object cannot be interpreted as an integer"));
    expect(m.verdict).toBe("NOT_REPRODUCED");
  });

  it("a run that completes shows the claim", () => {
    expect(verdict(skulpt, run({ stdout: "", exitCode: 0 })).verdict).toBe("REPRODUCED");
  });

  it("the same error introduced as what happens stays the claim", () => {
    const md = skulpt.replace(
      "On Skulpt this snippet runs to the end without complaint, whereas CPython 3.12 raises:",
      "Running it on CPython 3.12 raises:",
    );
    const exp = read(md);
    expect(exp.actual.kind).toBe("exception");
    expect(exp.actual.exceptionType).toBe("TypeError");
    expect(
      verdict(md, raised("TypeError", "'float' object cannot be interpreted as an integer")).verdict,
    ).toBe("REPRODUCED");
  });

  it("output a lead calls the old, right result is not the claim", () => {
    const md = `# groupBy changed after the upgrade\n\n    const byKind = groupBy(rows, 'kind')\n\nused to give me something like this:\n\n    { fruit: [Array], veg: [Array] }\n\nSince the upgrade I get this instead:\n\n    { undefined: [ 'k', 'i', 'n', 'd' ] }\n`;
    const exp = read(md);
    expect(exp.actual.output).toEqual(["{ undefined: [ 'k', 'i', 'n', 'd' ] }"]);
    expect(exp.expectedOutput).toEqual(["{ fruit: [Array], veg: [Array] }"]);
  });
});

describe("an error shown under Expected, and 'no error' as the actual behaviour", () => {
  const md = `# A walrus in a comprehension's iterable compiles on 3.13\n\n## Steps\n\n${f}python\nrows = [y for x in (y := [1, 2])]\n${f}\n\nWith Python 3.11:\n\n${f}bash\npython3.11 -m py_compile walrus.py\n${f}\n\n**Expected:**\n\n${f}\n  File "walrus.py", line 1\n    rows = [y for x in (y := [1, 2])]\n                        ^^^^^^^^^^^\nSyntaxError: assignment expression cannot be used in a comprehension iterable expression\n${f}\n\n**Actual:** no error, exit code 0.\n\n## Description\n\nPython 3.11 raises a SyntaxError here, which is right.\n`;

  it("the claim is the clean run, and the description's SyntaxError is the expected one", () => {
    const exp = read(md);
    expect(exp.actual.kind).toBe("exit");
    expect(exp.expectedException?.type).toBe("SyntaxError");
  });

  it("an exception named in the description that the report shows as expected is not the claim", () => {
    // Without the Actual line, the description still names the SyntaxError the Expected block shows.
    const exp = read(md.replace("**Actual:** no error, exit code 0.\n", ""));
    expect(exp.actual.kind === "exception" && exp.actual.exceptionType === "SyntaxError").toBe(false);
  });

  it("an exception named in the description stays the claim when nothing is shown as expected", () => {
    const plain = `# Loading a config raises\n\n${f}python\nimport cfg\ncfg.load("a.ini")\n${f}\n\nLoading it raises a KeyError on the section name.\n`;
    expect(read(plain).actual.exceptionType).toBe("KeyError");
  });
});

describe("words that say the code completes without an error", () => {
  it("read as a claim", () => {
    expect(statedNoError("On MicroPython this finishes without any exception.", false)?.kind).toBe("exit");
    expect(statedNoError("MicroPython raises no exception here.", false)?.kind).toBe("exit");
    expect(statedNoError("Actual: no error, exit code 0.", true)?.kind).toBe("exit");
  });

  it("not when the clause says it should, names a version, or is a condition", () => {
    expect(statedNoError("It should finish without any exception.", false)).toBeNull();
    expect(statedNoError("I expected it to compile without errors.", false)).toBeNull();
    expect(statedNoError("On 3.10 it runs without error.", false)).toBeNull();
    expect(statedNoError("When the file exists it runs without errors.", false)).toBeNull();
    // "no error message" is about the message, not the error.
    expect(statedNoError("Actual: it crashes with no error message.", true)).toBeNull();
    // The clean run set against a failure of the same code is the contrast, not the claim.
    expect(
      statedNoError("The parser runs without error on small files, but crashes on large ones.", false),
    ).toBeNull();
    // Set against another runtime it stays the claim.
    expect(
      statedNoError("Here it runs without any exception, whereas CPython 3.12 raises a TypeError.", false)
        ?.kind,
    ).toBe("exit");
    // A bare "no error" counts only in the Actual section.
    expect(statedNoError("Step 2: no error, then step 3 fails.", false)).toBeNull();
  });
});
