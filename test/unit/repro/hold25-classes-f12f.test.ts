/**
 * Classes the fresh hold25 reports showed missing (issue 12, fixer f12f), each with counter-examples that keep
 * their reading. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
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
