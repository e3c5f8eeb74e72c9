/**
 * Text that is not a program is never run as one (issue 12, hold15): markup escaped for a page
 * (`&lt;img …&gt;`, apostrophecms/sanitize-html#558). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { codeLine } from "../../../src/repro/plain-code.ts";

describe("escaped markup", () => {
  it("is not code, in a paragraph or an indented block", () => {
    expect(codeLine("&lt;img src=1 onerror=alert('xss')&gt;")).toBeNull();
    expect(codeLine("**Actual Output**:  &lt;img src=1&gt;")).toBeNull();
    const r = parseReport(
      [
        "# attributes kept",
        "",
        "The result here.",
        "    **Actual Output**:  &lt;img src=1 onerror=alert('xss')&gt;",
      ].join("\n"),
    );
    expect(r.blocks.filter((b) => b.kind === "code")).toEqual([]);
  });

  it("must not fire: an entity inside a string, or code without one", () => {
    expect(codeLine("console.log(escape('&lt;b&gt;'))")).not.toBeNull();
    expect(codeLine("sanitize('<img src=1 onerror=x>')")).not.toBeNull();
    expect(codeLine("a && b(c)")).not.toBeNull();
  });
});
