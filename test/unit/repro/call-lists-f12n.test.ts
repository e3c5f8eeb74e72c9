/**
 * A fence without a language holding only calls with an arrow and a value (`f('a') --> false`), under a code block
 * that defines or calls `f`: the report's calls and what each gave. Read as code in that block's language, each
 * arrow a value comment, so the calls run and their values are checked. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const report = (code: string, list: string, fence = "") =>
  `# isEven is wrong\n\n${f}js\n${code}\n${f}\n\n${f}${fence}\n${list}\n${f}\n`;

describe("a list of calls with arrows", () => {
  it("runs the calls and checks each value", () => {
    // URLs in the arguments: read alone, the block is not recognised as code (it was output before this rule).
    const md = report(
      "function isShort(url) {\n  url.length < 5;\n}",
      "isShort('https://a.hu') --> false\nisShort('b.hu') --> false",
    );
    const parsed = parseReport(md);
    expect(parsed.blocks[1]?.kind).toBe("code");
    expect(parsed.blocks[1]?.checks.map((c) => [c.code, c.value])).toEqual([
      ["isShort('https://a.hu')", "false"],
      ["isShort('b.hu')", "false"],
    ]);
    const program = completeProgram(parsed, reportedExpectations(parsed).invocation)!;
    expect(program.files[program.entry]).toContain("_echo(isShort('https://a.hu'));");
    expect(reportedExpectations(parsed).actual.output).toEqual(["false", "false"]);
  });

  it("→ and ==> arrows, a method call on a name the code uses", () => {
    const md = report(
      "const v = require('validator');\nv.isURL('x');",
      "v.isURL('https://a.hu') → false\nv.isURL('b.hu') ==> false",
    );
    expect(parseReport(md).blocks[1]?.kind).toBe("code");
  });

  it("must not fire: a callee no code block names, a line that is not a call, or a fence with a language", () => {
    const code = "function isShort(url) {\n  url.length < 5;\n}";
    const list = "isShort('https://a.hu') --> false\nisShort('b.hu') --> false";
    expect(parseReport(report(code, list.replace(/isShort/g, "isLong"))).blocks[1]?.kind).toBe("output");
    expect(parseReport(report(code, `${list}\nit printed false twice`)).blocks[1]?.kind).toBe("output");
    expect(parseReport(report(code, list, "text")).blocks[1]?.kind).not.toBe("code");
    // A printed trace with arrows is output, not calls.
    expect(parseReport(report(code, "step 1 --> step 2")).blocks[1]?.kind).toBe("output");
  });
});
