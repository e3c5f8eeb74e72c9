/**
 * Labelled input and result lines in a report with no code (issue 12, hold21 "no code" misses): `string > \`x\``
 * then `result > \`y\``. Written here for other packages; the must-not-fire cases first.
 */
import { describe, expect, it } from "vitest";
import { readProseCall } from "../../../src/repro/prose-call.ts";

const fence = "```";

describe("labelled input and result lines (prose-call.ts)", () => {
  it("must not fire: a result line with no input line, or an input line with no result", () => {
    expect(readProseCall("Slugs are wrong", "# Slugs are wrong\n\nresult > `a-b`\n", "slugify")).toBeNull();
    expect(
      readProseCall("Slugs are wrong", "# Slugs are wrong\n\ninput: `A B`\n\nexpected: `a-b`\n", "slugify"),
    ).toBeNull();
  });

  it("must not fire: two input lines (which one gives the result?)", () => {
    const md = "# Slugs\n\ninput: `A B`\ninput: `C D`\nresult: `a b`\n";
    expect(readProseCall("Slugs", md, "slugify")).toBeNull();
  });

  it("must not fire: the result line stands in an Expected section (the wanted value, not the claim)", () => {
    const md = "# Slugs\n\ninput: `A B`\n\n### Expected behaviour\n\nresult: `a-b`\n";
    expect(readProseCall("Slugs", md, "slugify")).toBeNull();
  });

  it("must not fire: an input that reads as code is a statement, not a string", () => {
    const md = "# Slugs\n\ninput: `slug('A B')`\nresult: `a b`\n";
    expect(readProseCall("Slugs", md, "slugify")).toBeNull();
  });

  it("must not fire: a result line above its input, or far below it", () => {
    expect(readProseCall("Slugs", "# Slugs\n\nresult: `a b`\ninput: `A B`\n", "slugify")).toBeNull();
    const far = `# Slugs\n\ninput: \`A B\`\n\n${"words\n".repeat(8)}\nresult: \`a b\`\n`;
    expect(readProseCall("Slugs", far, "slugify")).toBeNull();
  });

  it("must not fire: a feature request's example (`Output:` with no Expected line is the wanted result)", () => {
    const md = [
      "# Handle apostrophes",
      "",
      "Please make `slugify` handle apostrophes, like this:",
      "",
      "Input: `john O' connor`",
      "Output: `john-o-connor`",
    ].join("\n");
    expect(readProseCall("Handle apostrophes", md, "slugify")).toBeNull();
    const result = md.replace("Output:", "Result:");
    expect(readProseCall("Handle apostrophes", result, "slugify")).toBeNull();
    const returns = md.replace("Output:", "Returns:");
    expect(readProseCall("Handle apostrophes", returns, "slugify")).toBeNull();
  });

  it("a label that says what happened claims without an Expected line; `Output:` claims beside one", () => {
    const actual = "# Apostrophes\n\nInput: `john O' connor`\nGot: `john-o-39-connor`\n";
    const a = readProseCall("Apostrophes", actual, "slugify");
    expect(a?.kind === "plan" ? a.plan.calls.map((c) => c.claimed) : null).toEqual(["john-o-39-connor"]);
    const withExpected =
      "# Apostrophes\n\nInput: `john O' connor`\nExpected: `john-o-connor`\nOutput: `john-o-39-connor`\n";
    const b = readProseCall("Apostrophes", withExpected, "slugify");
    expect(b?.kind === "plan" ? b.plan.calls.map((c) => c.claimed) : null).toEqual(["john-o-39-connor"]);
  });

  it("reads `string > x`, skips the expected line, and claims the result line's value", () => {
    const md = [
      "# Some accents are dropped",
      "",
      "version `1.2.0`",
      "",
      "### Example",
      "text > `Crème brûlée`",
      "",
      "expected (I think) > `creme-brulee`",
      "",
      "result > `crme-brle`",
    ].join("\n");
    const r = readProseCall("Some accents are dropped", md, "slugify");
    expect(r?.kind).toBe("plan");
    if (r?.kind !== "plan") return;
    expect(r.plan.names).toEqual([]);
    expect(r.plan.calls).toEqual([
      { label: '"Crème brûlée"', args: '"Crème brûlée"', claimed: "crme-brle", side: "bad" },
    ]);
  });

  it("reads bold labels with a colon, quoted values, and keeps the report's named function", () => {
    const md = `# \`toSnake\` loses digits\n\n**Input:** "abc2Def"\n\n**Actual:** "abc_def"\n\nNo ${fence}code${fence} here.\n`;
    const r = readProseCall("`toSnake` loses digits", md, "case-x");
    expect(r?.kind).toBe("plan");
    if (r?.kind !== "plan") return;
    expect(r.plan.names).toEqual(["toSnake"]);
    expect(r.plan.calls.map((c) => [c.args, c.claimed])).toEqual([['"abc2Def"', "abc_def"]]);
  });
});
