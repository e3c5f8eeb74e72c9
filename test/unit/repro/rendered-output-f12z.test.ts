/**
 * Unfenced output as the page renders it (python/cpython#97504's shape, re-worded): statements pasted without a
 * fence under Expected/Actual headings, the call's echoed string on the next line, letters marked with strong
 * emphasis (`**d**ogs`), which the page shows as "dogs".
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { echoedStringLine } from "../../../src/repro/plain-code.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const md = `# title() lowercases too much

Calling title() on a mixed string lowercases letters it should keep.

# Expected Behavior :
s= "big Red fox"
s.swapfirst()
"Big Red fox"

# Actual Behavior :
s= "big Red fox"
s.swapfirst()
"Big **r**ed fox"
`;

describe("a string echoed under an unfenced call", () => {
  it("is the call's value, with strong emphasis rendered away", () => {
    expect(echoedStringLine("s.swapfirst()", '"Big **r**ed fox"')).toBe('"Big red fox"');
    expect(echoedStringLine("s.swapfirst()", "'a __b__ c'")).toBe("'a b c'");
  });
  it("reads the Actual block's echoed line as the claim", () => {
    const exp = reportedExpectations(parseReport(md));
    expect(exp.actual.output).toEqual(['"Big red fox"']);
  });
  // Must not fire: an assignment, a print, a line that is not one quoted string.
  it("leaves other lines alone", () => {
    expect(echoedStringLine('s = "x"', '"y"')).toBeNull();
    expect(echoedStringLine("print(s)", '"y"')).toBeNull();
    expect(echoedStringLine("s.upper()", '"y" and more')).toBeNull();
    expect(echoedStringLine("s.upper()", "Some words of prose.")).toBeNull();
  });
});
