/**
 * An error pasted under a condition beside code commented as not raising (python/cpython#144030's shape,
 * re-worded): the error is the other setup's, the one the reporter wants; the claim is the comment's, a run
 * that completes.
 */
import { describe, expect, it } from "vitest";
import { conditionalLead, noRaiseComment } from "../../../src/repro/conditional-error.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const md = `# The pure-Python cache decorator accepts a non-callable

The accelerated version checks its argument. The fallback does not:

${f}python
import sys
sys.modules['_speedups'] = None
import caching
caching.memo()(3) # does not raise
${f}

If \`_speedups\` is available, you get:

${f}pytb
Traceback (most recent call last):
  File "t.py", line 4, in <module>
    caching.memo()(3)
TypeError: the argument must be callable
${f}
`;

describe("an error pasted under a condition, beside a line commented as not raising", () => {
  it("is the expected side; the claim is a clean run", () => {
    const exp = reportedExpectations(parseReport(md));
    expect(exp.actual.kind).toBe("exit");
    expect(exp.expectedException?.type).toBe("TypeError");
  });
  it("reads the lead and the comment", () => {
    expect(conditionalLead("If _speedups is available, you get:")).toBe(true);
    expect(conditionalLead("Running it, I get:")).toBe(false);
    expect(noRaiseComment("f(3) # does not raise")).toBe("does not raise");
    expect(noRaiseComment("f(3) // doesn't throw")).toBe("doesn't throw");
    expect(noRaiseComment("f(3) # raises TypeError")).toBeNull();
  });
  // Must not fire: the same traceback without the comment, or with a plain lead, stays the claim.
  it("keeps the traceback as the claim without the comment or the condition", () => {
    const noComment = md.replace(" # does not raise", "");
    expect(reportedExpectations(parseReport(noComment)).actual.exceptionType).toBe("TypeError");
    const plainLead = md.replace("If `_speedups` is available, you get:", "Running it, I get:");
    expect(reportedExpectations(parseReport(plainLead)).actual.exceptionType).toBe("TypeError");
  });
});

// Review rv18: "When I run this, I get:" is the reporter's own run (the claim), not another setup's; with a
// `# does not raise` comment on one line of the code and the traceback from another line, reading the traceback
// as the wanted side would turn a run that completes (a release where the bug is gone) into REPRODUCED.
describe("a lead that tells the reporter's own run is not a condition", () => {
  const own = `# memo() rejects None only sometimes

${f}python
import caching
caching.memo()(len) # does not raise
caching.memo()(None)
${f}

When I run this, I get:

${f}pytb
Traceback (most recent call last):
  File "t.py", line 3, in <module>
    caching.memo()(None)
TypeError: the argument must be callable
${f}
`;
  it("keeps the traceback as the claim", () => {
    const exp = reportedExpectations(parseReport(own));
    expect(exp.actual.kind).toBe("exception");
    expect(exp.actual.exceptionType).toBe("TypeError");
  });
  it("reads running leads as the reporter's own run", () => {
    for (const lead of [
      "When I run this, I get:",
      "When I run the code above I get:",
      "If I execute the script, I get:",
      "When running it, I see:",
      "Whenever I try it, I get:",
      "When I call `memo()(None)`, I get:",
      "Once I import it, I get:",
    ])
      expect(conditionalLead(lead), lead).toBe(false);
    expect(conditionalLead("If `_speedups` is not blocked, you get:")).toBe(true);
    expect(conditionalLead("Without the patch, you get:")).toBe(true);
  });
});
