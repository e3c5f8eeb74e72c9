/**
 * Issue 12, hold12 classes (f12l): Retrace's own rewrites must not turn code that parses into code that does not,
 * and a parse error names the report's line, not the wrapper Retrace put around it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { asEsModule } from "../../../src/repro/esm-retry.ts";
import { matchRun, reportForm } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { type QuestionInput, runQuestions } from "../../../src/repro/questions.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

/** Whether `code` parses as an ES module (Node's own parser, nothing run). */
function parsesAsModule(code: string): boolean {
  const file = join(mkdtempSync(join(tmpdir(), "f12l-")), "m.mjs");
  writeFileSync(file, code);
  try {
    execFileSync(process.execPath, ["--check", file], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

describe("the ES-module rerun keeps code that parsed parseable", () => {
  it("hoists the import of a require that sits in a block (each snippet in its own scope)", () => {
    const code = [
      "{",
      'const util = require("node:util");',
      'let shlex = require("shlex");',
      "console.log(util.inspect(shlex));",
      "}",
      "",
      "{",
      'const shlex = require("shlex")',
      "console.log(shlex)",
      "}",
    ].join("\n");
    const out = asEsModule(code)!;
    expect(out).not.toBeNull();
    expect(parsesAsModule(out)).toBe(true);
    // Each block keeps its own binding, from its own import.
    expect(out).toContain('import * as __esm0 from "node:util";');
    expect(out).toContain('import * as __esm2 from "shlex";');
    expect(out).toContain('{\nconst util = ("default" in __esm0 ? __esm0.default : __esm0);');
    expect(out).toContain('{\nconst shlex = ("default" in __esm2 ? __esm2.default : __esm2);');
  });

  it("a require at the top level still parses, and one indented in a function keeps createRequire", () => {
    const out = asEsModule(
      "const a = require('a');\nfunction f() {\n  const b = require('b');\n  return b;\n}\n",
    )!;
    expect(parsesAsModule(out)).toBe(true);
    expect(out).toContain("  const b = require('b');");
    expect(out).toContain("const require = __createRequire(import.meta.url);");
  });

  it("must not fire: a program with no require binding, or already an ES module, is left alone", () => {
    expect(asEsModule("{\nconsole.log(require.resolve('x'))\n}")).toBeNull();
    expect(asEsModule("import a from 'a';\n{\nconst b = require('b');\n}")).toBeNull();
  });
});

describe("a parse error names the report's line, not Retrace's echo around it", () => {
  it("takes off the echo of a bare expression and the echo after a statement", () => {
    expect(reportForm("_echo(round(...));")).toBe("round(...)");
    expect(reportForm("_echo(.toBeA('number'))")).toBe(".toBeA('number')");
    expect(reportForm("let x = f(1 +); _echo(x);")).toBe("let x = f(1 +)");
  });

  it("must not fire: a line Retrace did not wrap is quoted as it is", () => {
    expect(reportForm("print(x +)")).toBe("print(x +)");
    expect(reportForm("_echo(a)) + (b")).toBe("_echo(a)) + (b");
  });

  it("the run's question quotes the report's line and its number", () => {
    const markdown = "# round\n\nround(...)\n\nrounds 123.41526375 down.\n";
    const report = parseReport(markdown);
    const match = matchRun(
      { kind: "output", exceptionType: null, exceptionMessage: null, output: ["x"], source: "test" },
      {
        exitCode: 1,
        stoppedBy: null,
        stdout: "",
        stderr:
          "file:///workspace/reproduction.mjs:9\n_echo(round(...));\n                   ^\n\nSyntaxError: Unexpected token ')'\n    at ModuleLoader.moduleStrategy (node:internal/modules/esm/translators:118:18)\n\nNode.js v18.20.4\n",
        exception: { type: "SyntaxError", message: "Unexpected token ')'" },
        durationMs: 5,
      },
    );
    expect(match.detail).toBe(
      "the report's code does not parse: `round(...)` (SyntaxError: Unexpected token ')')",
    );
    const input: QuestionInput = {
      report,
      expectations: reportedExpectations(report),
      markdown,
      text: markdown,
      package: null,
    };
    const [q] = runQuestions(
      input,
      { verdict: "NEEDS_INFO", badLine: match.badLine!, questions: [match.question!] },
      "",
    );
    expect(q).toMatch(/^Line 3 of the report does not parse: `round\(\.\.\.\)`/);
  });
});
