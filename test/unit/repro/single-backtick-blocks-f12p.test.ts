/**
 * Code wrapped in single backticks across blank lines is one block (issue 12, hold15, python/cpython#93184):
 * Markdown ends an inline span at a blank line, so without this the imports on the first line were lost.
 * Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseReport, singleBacktickBlocks } from "../../../src/repro/parse-report.ts";

describe("single backticks around paragraphs", () => {
  const report = [
    "# pack gives 6 bytes",
    "",
    "An example:",
    "",
    "`from struct import *",
    "",
    "data = pack('BH', 1, 2)",
    "",
    "print(len(data))`",
    "",
    "It prints 6.",
  ].join("\n");

  it("become one fenced block holding every line", () => {
    const r = parseReport(report);
    const code = r.blocks.filter((b) => b.kind === "code");
    expect(code).toHaveLength(1);
    expect(code[0]!.value).toBe("from struct import *\n\ndata = pack('BH', 1, 2)\n\nprint(len(data))");
    expect(code[0]!.language).toBe("python");
  });

  it("must not fire: a span closed on its own line, one paragraph, or text inside a fence", () => {
    const same = "Call `f(1)` and\n\n`g(2)` then.";
    expect(singleBacktickBlocks(same)).toBe(same);
    const oneParagraph = "`a = 1\nb = 2`";
    expect(singleBacktickBlocks(oneParagraph)).toBe(oneParagraph);
    const fenced = "```\n`a = 1\n\nb = 2`\n```";
    expect(singleBacktickBlocks(fenced)).toBe(fenced);
    const heading = "`a = 1\n\n## Next\n\nb = 2`";
    expect(singleBacktickBlocks(heading)).toBe(heading);
  });
});

describe("lines pasted without a fence under 'The output:'", () => {
  const code = ["# sizes", "", "```python", "print('size:', 10)", "print('size:', 8)", "```", ""];

  it("are what the code printed", () => {
    const r = parseReport([...code, "The output:", "", "size: 10", "size: 8"].join("\n"));
    const out = r.blocks.filter((b) => b.kind === "output");
    expect(out.map((b) => b.value)).toEqual(["size: 10\nsize: 8"]);
  });

  it("must not fire: one line, sentences, inline code, or no code before", () => {
    const kinds = (md: string[]) => parseReport(md.join("\n")).blocks.map((b) => b.kind);
    expect(kinds([...code, "The output:", "", "size: 10"])).toEqual(["code"]);
    expect(
      kinds([
        ...code,
        "It gives:",
        "",
        "The wrong size for the first call here.",
        "The second one is right as far as I can tell.",
      ]),
    ).toEqual(["code"]);
    expect(kinds([...code, "It prints:", "", "size `10`", "size 8"])).toEqual(["code"]);
    expect(kinds(["# sizes", "", "The output:", "", "size: 10", "size: 8"])).toEqual([]);
  });
});
