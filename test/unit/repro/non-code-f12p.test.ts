/**
 * Text that is not a program is never run as one (issue 12, hold15): markup escaped for a page
 * (`&lt;img …&gt;`, apostrophecms/sanitize-html#558). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { closeTemplateFence, parseReport } from "../../../src/repro/parse-report.ts";
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

  it("is not code once the page's entities are decoded: a line opening with an HTML element", () => {
    expect(codeLine("<img src=1 onerror=alert('xss')>")).toBeNull();
    expect(codeLine("<<img<canvas>img src=1 onerror=alert('xss')>")).toBeNull();
    expect(codeLine("<script>alert(1)</script>")).toBeNull();
  });

  it("must not fire: an entity inside a string, or code without one", () => {
    expect(codeLine("console.log(escape('&lt;b&gt;'))")).not.toBeNull();
    expect(codeLine("sanitize('<img src=1 onerror=x>')")).not.toBeNull();
    expect(codeLine("a && b(c)")).not.toBeNull();
    expect(codeLine("<T>(x: T) => f(x)")).not.toBeNull();
  });
});

describe("a template's placeholder fence closed with text after its backticks", () => {
  const f = "```";
  const report = [
    "# Counter docs count wrong",
    "",
    `${f}python`,
    "# Add a code block here, if required",
    `${f} >>>`,
    "The doc says 7 where it should say 6.",
    "",
    "### Versions",
    "",
    "3.10",
    f,
  ].join("\n");

  it("is closed there: the rest is prose, not a block of code", () => {
    const r = parseReport(report);
    expect(r.blocks).toEqual([]);
    expect(r.prose.other + r.prose.environment + r.prose.actual).toContain("should say 6");
  });

  it("must not fire: a fence holding code, or closed properly", () => {
    const code = [`${f}python`, "x = 1", `${f} >>>`, "print(x)", f].join("\n");
    expect(closeTemplateFence(code)).toBe(code);
    const closed = [`${f}python`, "# placeholder", f, "", "Words."].join("\n");
    expect(closeTemplateFence(closed)).toBe(closed);
  });
});
