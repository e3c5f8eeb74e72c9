/**
 * Classes the fresh hold25 reports showed missing (issue 12, fixer f12f), each with counter-examples that keep
 * their reading. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { outputAppears } from "../../../src/repro/match.ts";
import { installedPackagePaths } from "../../../src/repro/own-package-path.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";

describe("a path into the reporter's node_modules names the package", () => {
  it("`require('./node_modules/<pkg>')`, scoped, inner paths, `../` steps, imports", () => {
    expect(installedPackagePaths("const q = require('./node_modules/qs');\n").code).toBe(
      "const q = require('qs');\n",
    );
    expect(installedPackagePaths('const s = require("../../node_modules/@acme/tool/lib/a.js");\n')).toEqual({
      code: 'const s = require("@acme/tool/lib/a.js");\n',
      read: ["../../node_modules/@acme/tool/lib/a.js"],
    });
    expect(installedPackagePaths("import x from './node_modules/left-pad/';\n").code).toBe(
      "import x from 'left-pad';\n",
    );
  });
  it("leaves the reporter's own files, commands and nested copies", () => {
    for (const c of [
      "const u = require('./utils');\n",
      "const c = require('./node_modules_cache/x');\n",
      "const b = require('./node_modules/.bin/tool');\n",
      "const v = require('./vendor/node_modules/qs');\n",
      "const q = require('qs');\n",
      "const p = '/srv/app/node_modules/qs';\n",
    ])
      expect(installedPackagePaths(c)).toEqual({ code: c, read: [] });
  });
  it("installs the package the path names and says so", () => {
    const md = `# isOdd is wrong\n\n${f}sh\nnpm i odd-check@2.0.0\n${f}\n\n${f}js\nconst lib = require('./node_modules/odd-check')\nconsole.log(lib.isOdd(3))\n${f}\n\n# Expected\ntrue\n\n# Actual\nfalse\n`;
    const parsed = parseReport(md);
    const program = completeProgram(parsed, reportedExpectations(parsed).invocation)!;
    expect(program.dependencies).toEqual(["odd-check"]);
    expect(program.files[program.entry]).toContain("require('odd-check')");
    expect(program.completions.join("\n")).toMatch(/path into the reporter's `node_modules`/);
  });
});

describe("a value printed by an older Node's inspect, compared by content", () => {
  // An old REPL's layout: the first key on the brace's line, a bare `[Function]`.
  const reported = ["{ start: '10.0.0.0',", "  end: '10.0.0.255',", "  size: 256,", "  has: [Function] }"];
  const node18 = "{\n  start: '10.0.0.0',\n  end: '10.0.0.255',\n  size: 256,\n  has: [Function: has]\n}\n";
  it("matches Node 18's printing of the same value (layout and the function's name aside)", () => {
    expect(outputAppears(reported, node18)).toBe(true);
    expect(outputAppears(reported, node18.replace("[Function: has]", "[AsyncFunction: has]"))).toBe(true);
    expect(outputAppears(reported, node18.replace("[Function: has]", "[Function (anonymous)]"))).toBe(true);
  });
  it("a different value is still not the reported output", () => {
    expect(outputAppears(reported, node18.replace("'10.0.0.255'", "'10.0.0.127'"))).toBe(false);
    expect(outputAppears(reported, node18.replace("size: 256", "size: 128"))).toBe(false);
    // Not a function at all where the report printed one.
    expect(outputAppears(reported, node18.replace("[Function: has]", "true"))).toBe(false);
    expect(outputAppears(reported, node18.replace("[Function: has]", "[Object]"))).toBe(false);
    // A key missing.
    expect(outputAppears(reported, node18.replace("  size: 256,\n", ""))).toBe(false);
  });
  it("a report that names its functions keeps the names compared", () => {
    const named = ["{ check: [Function: check], size: 2 }"];
    expect(outputAppears(named, "{ check: [Function: check], size: 2 }\n")).toBe(true);
    expect(outputAppears(named, "{ check: [Function: verify], size: 2 }\n")).toBe(false);
    // One named, one bare: the report's printer names functions, so the bare one is not read as any name.
    expect(
      outputAppears(["{ a: [Function: a],", "  b: [Function] }"], "{ a: [Function: a], b: [Function: b] }\n"),
    ).toBe(false);
  });
});

describe("a native crash pasted in a code fence is output", () => {
  it("glibc's failed assert, a fatal signal, a C library abort: error output, whatever the fence", () => {
    for (const [fence, text] of [
      ["python", "python3: Objects/listobject.c:42: list_resize: Assertion `n >= 0' failed."],
      ["python", "python: Modules/x.c:7: f: Assertion `ok' failed.\nAborted (core dumped)"],
      ["js", "node: ../src/node_file.cc:1010: void f(): Assertion `(argc) == (3)' failed.\nAborted"],
      ["python", "Segmentation fault (core dumped)"],
      ["python", "free(): invalid pointer\nAborted (core dumped)"],
      ["python", "*** stack smashing detected ***: terminated"],
    ] as const)
      expect(classifyBlock(fence, text).kind).toBe("error-output");
  });
  it("code that mentions such words stays code", () => {
    for (const text of [
      "assert n >= 0, 'Assertion failed.'",
      "print('python: x.c:1: f: Assertion `a` failed.')",
      "aborted = run()\nprint(aborted)",
      "free(ptr)",
      "while x:\n    0 if 1 else 0",
    ])
      expect(classifyBlock("python", text).kind).toBe("code");
  });
  it("the report's code runs and the pasted assertion is the reported error", () => {
    const md = `# assertion in the compiler\n\n${f}python\ncompile("while 1:\\n    pass\\n", "t", "exec")\n${f}\n\noutput (Python 3.12.0rc3+):\n${f}python\npython: Python/flowgraph.c:9: f: Assertion \`0 <= oparg' failed.\n${f}\n`;
    const parsed = parseReport(md);
    expect(parsed.blocks.map((b) => b.kind)).toEqual(["code", "error-output"]);
    const program = completeProgram(parsed, reportedExpectations(parsed).invocation)!;
    expect(program.files[program.entry]).toContain("compile(");
    expect(program.files[program.entry]).not.toContain("flowgraph");
  });
});
