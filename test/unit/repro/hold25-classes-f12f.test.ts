/**
 * Classes the fresh hold25 reports showed missing (issue 12, fixer f12f), each with counter-examples that keep
 * their reading. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
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
