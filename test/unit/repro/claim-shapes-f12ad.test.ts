/**
 * Shapes in which a report states the wrong value that were read as "the report does not say which output or
 * error is wrong" (issue 12, hold21 misses), and blocks that are never the code to run. Reports written here.
 */
import { describe, expect, it } from "vitest";
import { annotate } from "../../../src/repro/annotations.ts";
import { claimAbove } from "../../../src/repro/claim-above.ts";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { NPM_GLOBALS } from "../../../src/repro/known-modules.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";

describe("the annotation on the line closing a call over several lines", () => {
  it("is the whole call's claim, echoed", () => {
    const a = annotate(
      "const eq = require('eq')\n\neq(\n\tnew Set([1]),\n\tnew Set([1]),\n) // false",
      "javascript",
    );
    expect(a.checks).toEqual([
      expect.objectContaining({ role: "actual", kind: "output", value: "false", line: 3 }),
    ]);
    expect(a.code).toContain("_echo(eq(\n\tnew Set([1]),\n\tnew Set([1]),\n));");
  });
  it("a plain comment there is no claim", () => {
    const a = annotate("eq(\n  1,\n) // see the docs for more", "javascript");
    expect(a.checks).toEqual([]);
  });
});

describe("a comment over the statement it describes", () => {
  it("'should returns true, but returns false' gives both sides of the call under it", () => {
    const a = annotate(
      "const x = [1]\n\n// should returns true, but returns false\neq( x, [1] )",
      "javascript",
    );
    expect(a.checks.map((c) => [c.role, c.value])).toEqual([
      ["actual", "false"],
      ["expected", "true"],
    ]);
    expect(a.code).toContain("_echo(eq( x, [1] ));");
  });
  it("needs literal values and a statement under it", () => {
    expect(claimAbove("should be fast, but is slow", "f()")).toBeNull();
    expect(claimAbove("should return 1 but returns 2", "")).toBeNull();
    expect(claimAbove("should return 1 but returns 2", "// more")).toBeNull();
    expect(claimAbove("should return 1 but returns 2", "f()")).toEqual({ actual: "2", expected: "1" });
  });
});

describe("`// output = …` under a call", () => {
  it("is the call's claimed output", () => {
    const a = annotate("t.render('a {{b}}', o);\n// output = \"a x\"", "javascript");
    expect(a.checks).toEqual([expect.objectContaining({ role: "actual", value: '"a x"' })]);
  });
});

describe("a printed token under 'What the console shows:'", () => {
  it("is the actual output", () => {
    const md = `# decode does nothing\n\n${f}js\nconsole.log(lib.decode('a+%22b%22'))\n${f}\n\nWhat the console shows:\na+%22b%22\n`;
    const e = reportedExpectations(parseReport(md));
    expect(e.actual.output).toEqual(["a+%22b%22"]);
  });
  it("a word or a call there is not", () => {
    const md = `# decode does nothing\n\n${f}js\nconsole.log(lib.decode('x'))\n${f}\n\nWhat the console shows:\nnothing\n`;
    expect(reportedExpectations(parseReport(md)).actual.output).toEqual([]);
  });
});

describe("a unified diff", () => {
  it("is a diff block, never code", () => {
    const patch = "diff --git a/index.js b/index.js\n--- a/index.js\n+++ b/index.js\n@@ -1,2 +1,2 @@\n-a\n+b";
    expect(classifyBlock("", patch).kind).toBe("diff");
    expect(classifyBlock("diff", "@@ -3 +3 @@\n-x\n+y").kind).toBe("diff");
    expect(classifyBlock("js", "const a = b - -c;\n--- not a header").kind).toBe("code");
  });
});

describe("conventional bindings", () => {
  it("`dust` is dustjs-linkedin", () => {
    expect(NPM_GLOBALS.dust).toBe("dustjs-linkedin");
  });
});

describe("Node's uncaught-error header (`/path/file.js:215` over the source line)", () => {
  it("is error output, never code", () => {
    const v =
      "/app/node_modules/x/src/a.js:215\n            throw new Error('Row contains mismatched quotes!');";
    expect(classifyBlock("", v).kind).toBe("error-output");
    expect(classifyBlock("js", "/app/a.js:3\nthrow e;\n^\n\nError: boom").kind).toBe("error-output");
  });
  it("a path alone, or code after a comment path, is not", () => {
    expect(classifyBlock("", "/app/a.js:3").kind).not.toBe("error-output");
    expect(classifyBlock("js", "// /app/a.js:3\nconst a = 1;").kind).toBe("code");
  });
});
