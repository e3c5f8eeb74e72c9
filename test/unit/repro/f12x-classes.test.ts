/**
 * Issue 12, hold17/hold18 classes (f12x): a message or data block in a code fence is not the code; a REPL
 * excerpt cut mid-statement; a release whose own file does not parse here; the package named by its own
 * relative path; a comment annotation in Chinese. Reports and runs written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../../src/repro/annotations.ts";
import { classifyBlock, csvLines, messageLines } from "../../../src/repro/classify-block.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { matchRun } from "../../../src/repro/match.ts";
import { ownPackagePaths } from "../../../src/repro/own-package-path.ts";
import { packageParseFailure } from "../../../src/repro/package-syntax.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { parseTranscript } from "../../../src/repro/transcript.ts";
import { run } from "./observed-run.ts";

describe("a message or a data line in a code fence", () => {
  it("an error message whose name is words is error output, not code", () => {
    const msg = "Parse Error: expected: '\"' got: 'Q'. at 'Qux\"\",\"Ab";
    expect(messageLines(msg)).toBe(true);
    expect(classifyBlock("javascript", msg).kind).toBe("error-output");
    expect(classifyBlock("python", "Fatal error: could not open the file").kind).toBe("error-output");
  });

  it("rows of quoted CSV fields are data, not code", () => {
    const row = '"id-1-2","me@example.org","Ann "Quo"","Lee"';
    expect(csvLines(row)).toBe(true);
    expect(classifyBlock("javascript", row).kind).toBe("output");
  });

  it("must not fire: code that mentions an error, calls with strings, assigns", () => {
    expect(messageLines('console.log("Parse Error: x")')).toBe(false);
    expect(messageLines("TypeError: x is not a function")).toBe(false);
    expect(classifyBlock("javascript", 'throw new Error("Parse Error: bad")').kind).toBe("code");
    expect(csvLines('f("a","b","c")')).toBe(false);
    expect(csvLines('x = "a","b","c"')).toBe(false);
    expect(csvLines('"a","b"')).toBe(false);
    expect(classifyBlock("javascript", 'parse("a","b","c");').kind).toBe("code");
  });

  it("the report's code is the block that is code, whichever came first", () => {
    const f = "```";
    const r = parseReport(
      [
        "# quotes",
        "",
        `${f} javascript`,
        "Parse Error: expected: '\"' got: 'Q'. at 'Qux\"\",\"Ab",
        f,
        "",
        "The line:",
        "",
        `${f} javascript`,
        '"id-1-2","me@example.org","Ann "Quo"","Lee"',
        f,
        "",
        `${f} javascript`,
        "const parsed = parse(text);",
        f,
      ].join("\n"),
    );
    expect(r.blocks.map((b) => b.kind)).toEqual(["error-output", "output", "code"]);
  });
});

describe("a REPL session cut mid-statement", () => {
  it("drops the last input left open with nothing after it", () => {
    const t = parseTranscript(
      [
        '> const m = require("m")',
        "undefined",
        '> m("a\\n{}+")',
        "Uncaught:",
        "Error: bad",
        '> m("a\\n{}+',
      ].join("\n"),
      "node",
    );
    expect(t.inputs).toEqual(['const m = require("m")', 'm("a\\n{}+")']);
    const py = parseTranscript([">>> f(1)", "2", ">>> f([1,"].join("\n"), "python");
    expect(py.inputs).toEqual(["f(1)"]);
  });

  it("must not fire: a whole last input, or an open one that printed something", () => {
    expect(parseTranscript(["> f(1)", "2", "> f(2)"].join("\n"), "node").inputs).toEqual(["f(1)", "f(2)"]);
    expect(parseTranscript(["> f(1", "Uncaught SyntaxError: missing )"].join("\n"), "node").inputs).toEqual([
      "f(1",
    ]);
    expect(parseTranscript([">>> g('a')"].join("\n"), "python").inputs).toEqual(["g('a')"]);
  });
});

describe("a release whose own file does not parse on this Node", () => {
  const stderr = [
    "/workspace/node_modules/numfmt/lib/index.es.js:244",
    "export default numfmt;",
    "^^^^^^",
    "",
    "SyntaxError: Unexpected token 'export'",
    "    at internalCompileFunction (node:internal/vm:76:18)",
    "    at wrapSafe (node:internal/modules/cjs/loader:1283:20)",
    "    at Object.<anonymous> (/workspace/reproduction.cjs:1:16)",
  ].join("\n");
  const failed = run({
    exitCode: 1,
    stderr,
    exception: { type: "SyntaxError", message: "Unexpected token 'export'" },
  });

  it("is the package's file, never a question about the report's code", () => {
    expect(packageParseFailure(failed)).toEqual({
      pkg: "numfmt",
      file: "lib/index.es.js",
      source: "export default numfmt;",
    });
    const m = matchRun({ kind: "output", output: ["NaN"] } as never, failed);
    expect(m.kind).toBe("needs");
    expect(m.detail).toContain("`numfmt` does not load on this runtime");
    expect(m.detail).not.toContain("the report's code does not parse");
  });

  it("must not fire: a run-time SyntaxError inside the package, or the report's own file", () => {
    const jsonErr = run({
      exitCode: 1,
      stderr: [
        "/workspace/node_modules/cfg/index.js:12",
        "    throw err;",
        "    ^",
        "",
        "SyntaxError: Unexpected token } in JSON at position 3",
        "    at JSON.parse (<anonymous>)",
        "    at load (/workspace/node_modules/cfg/index.js:10:17)",
      ].join("\n"),
      exception: { type: "SyntaxError", message: "Unexpected token } in JSON at position 3" },
    });
    expect(packageParseFailure(jsonErr)).toBeNull();
    const own = run({
      exitCode: 1,
      stderr:
        "/workspace/reproduction.cjs:3\nexport default f;\n^^^^^^\n\nSyntaxError: Unexpected token 'export'",
      exception: { type: "SyntaxError", message: "Unexpected token 'export'" },
    });
    expect(packageParseFailure(own)).toBeNull();
  });
});

describe("the package named by its own relative path", () => {
  it("binds `..`, `../`, `./`, `../index` to the repository's package", () => {
    expect(ownPackagePaths("var merge = require('../')", "deepmerge")).toBe(
      "var merge = require('deepmerge')",
    );
    expect(ownPackagePaths('const m = require("..");', "deepmerge")).toBe('const m = require("deepmerge");');
    expect(ownPackagePaths("import x from './index.js'", "@s/x")).toBe("import x from '@s/x'");
    expect(ownPackagePaths("const y = require('../index')", "y")).toBe("const y = require('y')");
  });

  it("must not fire: another relative file, or no repository package", () => {
    expect(ownPackagePaths("require('./helper')", "deepmerge")).toBe("require('./helper')");
    expect(ownPackagePaths("require('../lib/x')", "deepmerge")).toBe("require('../lib/x')");
    expect(ownPackagePaths("require('../')", undefined)).toBe("require('../')");
  });

  it("runs the installed package in the program", () => {
    const f = "```";
    const r = parseReport(
      ["# arrays", "", f, "var merge = require('../')", "console.log(merge({}, {}))", f].join("\n"),
    );
    const p = completeProgram(r, null, "deepmerge")!;
    expect(Object.values(p.files).join("\n")).toContain("require('deepmerge')");
    expect(p.dependencies).toContain("deepmerge");
    const alone = completeProgram(r, null)!;
    expect(Object.values(alone.files).join("\n")).toContain("require('../')");
  });
});

describe("a comment annotation in Chinese", () => {
  it("`// 输出 NaN` states the output", () => {
    expect(parseAnnotation("输出 NaN")).toMatchObject({ role: "actual", kind: "output", value: "NaN" });
    expect(parseAnnotation("结果：3")).toMatchObject({ role: "actual", value: "3" });
  });
  it("must not fire: the word inside a sentence", () => {
    expect(parseAnnotation("输出结果很奇怪")?.value).not.toBe("结果很奇怪");
  });
});

describe("the report's own `export` (class named in the brief; the case's cause was the package's file)", () => {
  it("runs code with a top-level export as an ES module", () => {
    const f = "```";
    const r = parseReport(
      [
        "# x",
        "",
        `${f}js`,
        "function fmt(x) { return String(x); }",
        "console.log(fmt(1)); // 1",
        "export default fmt;",
        f,
      ].join("\n"),
    );
    const p = completeProgram(r, null)!;
    expect(p.moduleFormat).toBe("esm");
    expect(p.entry).toMatch(/\.mjs$/);
  });
});
