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
import { impliedLoad, loadErrorIn, sameLoadError } from "../../../src/repro/load-error.ts";
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
    expect(out).toContain(
      '{\nconst shlex = ("default" in __esm2 ? __esm2.default : __esm2)\nconsole.log(shlex)',
    );
  });

  it("a require at the top level still parses, and one indented in a function keeps createRequire", () => {
    const out = asEsModule(
      "const a = require('a');\nfunction f() {\n  const b = require('b');\n  return b;\n}\n",
    )!;
    expect(parsesAsModule(out)).toBe(true);
    expect(out).toContain("  const b = require('b');");
    expect(out).toContain("const require = __createRequire(import.meta.url);");
  });

  it("a require that a chain goes on from keeps going on (no `;` added where the line had none)", () => {
    const code =
      "const argv = require('yargs')\n  .option('https', { default: false })\n  .parse();\nconsole.log(argv)\n";
    const out = asEsModule(code)!;
    expect(parsesAsModule(out)).toBe(true);
    expect(out).toContain('const argv = ("default" in __esm0 ? __esm0.default : __esm0)\n  .option(');
  });

  it("must not fire: a CommonJS file that returns at its top level has no ES-module form", () => {
    const code = "const { nanoid } = require('nanoid');\nif (true) {\nreturn nanoid(20);\n}\n";
    expect(parsesAsModule(code)).toBe(false);
    expect(asEsModule(code)).toBeNull();
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

describe("a report whose only evidence is the package's own loading failing states its program", () => {
  const node18 =
    "/workspace/reproduction.cjs:1\nconst loaded = require(\"ansi-escapes\");\n               ^\n\nError [ERR_REQUIRE_ESM]: require() of ES Module /workspace/node_modules/ansi-escapes/index.js from /workspace/reproduction.cjs not supported.\nInstead change the require of index.js in /workspace/reproduction.cjs to a dynamic import() which is available in all CommonJS modules.\n    at Object.<anonymous> (/workspace/reproduction.cjs:1:16) {\n  code: 'ERR_REQUIRE_ESM'\n}\n\nNode.js v18.20.4\n";

  it("reads Node 12's wording, a cnpm path and a Windows separator as the same failure as Node 18's", () => {
    const md =
      "# require() fails\n\nLoading the package with require gives:\n\nError [ERR_REQUIRE_ESM]: Must use import to load ES Module: xxx\\node_modules\\_ansi-escapes@5.0.0@ansi-escapes\\index.js\nrequire() of ES modules is not supported.\n";
    const e = loadErrorIn(md)!;
    expect(e).toMatchObject({ code: "ERR_REQUIRE_ESM", pkg: "ansi-escapes", file: "index.js" });
    expect(sameLoadError(e, node18)).toBe(true);
    const implied = impliedLoad(md, "ansi-escapes")!;
    expect(implied.program.files["reproduction.cjs"]).toBe('const loaded = require("ansi-escapes");\n');
    expect(implied.actual.loadError).toEqual({
      code: "ERR_REQUIRE_ESM",
      pkg: "ansi-escapes",
      file: "index.js",
    });
    const run = {
      exitCode: 1,
      stoppedBy: null,
      stdout: "",
      stderr: node18,
      exception: {
        type: "Error",
        message:
          "require() of ES Module /workspace/node_modules/ansi-escapes/index.js from /workspace/reproduction.cjs not supported.",
      },
      durationMs: 5,
    };
    expect(matchRun(implied.actual, run).kind).toBe("match");
  });

  it("reads the bare `[ERR_REQUIRE_ESM]:` line with an elided path, and a scoped package", () => {
    expect(
      loadErrorIn(
        "[ERR_REQUIRE_ESM]: require() of ES Module .../node_modules/run-jxa/index.js from [filename] not supported.",
      ),
    ).toMatchObject({ pkg: "run-jxa", file: "index.js" });
    expect(
      loadErrorIn("Error: Cannot find module '/app/node_modules/@scope/pkg/dist/index.js'"),
    ).toMatchObject({ code: "MODULE_NOT_FOUND", pkg: "@scope/pkg", file: "dist/index.js" });
  });

  it("must not fire: another package's file, a dependency failing inside the package, a module by bare name", () => {
    const md =
      "Error [ERR_REQUIRE_ESM]: require() of ES Module /x/node_modules/chalk/source/index.js not supported.";
    // The error names a file of another package than the report's.
    expect(impliedLoad(md, "ansi-escapes")).toBeNull();
    // A bare `Cannot find module 'x'` names no file of an installed package (not installed is no bug of it).
    expect(loadErrorIn("Error: Cannot find module 'ansi-escapes'")).toBeNull();
    // Prose about ES modules with no error line.
    expect(
      loadErrorIn("This package is an ES module now; require() of ES modules is not supported."),
    ).toBeNull();
  });

  it("must not fire: a run that fails loading a dependency's file is not the reported package's failure", () => {
    const e = loadErrorIn(
      "Error [ERR_REQUIRE_ESM]: require() of ES Module node_modules\\is-online\\index.js not supported.",
    )!;
    const dependency =
      "Error [ERR_REQUIRE_ESM]: require() of ES Module /workspace/node_modules/got/dist/source/index.js from /workspace/node_modules/is-online/index.js not supported.\n    at Object.<anonymous> (/workspace/node_modules/is-online/index.js:2:13)\n";
    expect(sameLoadError(e, dependency)).toBe(false);
    const implied = impliedLoad(
      "Error [ERR_REQUIRE_ESM]: require() of ES Module node_modules\\is-online\\index.js not supported.",
      "is-online",
    )!;
    const m = matchRun(implied.actual, {
      exitCode: 1,
      stoppedBy: null,
      stdout: "",
      stderr: dependency,
      exception: {
        type: "Error",
        message:
          "require() of ES Module /workspace/node_modules/got/dist/source/index.js from /workspace/node_modules/is-online/index.js not supported.",
      },
      durationMs: 5,
    });
    expect(m.kind).not.toBe("match");
    // The run that loads: no error, not reproduced.
    expect(
      matchRun(implied.actual, {
        exitCode: 0,
        stoppedBy: null,
        stdout: "",
        stderr: "",
        exception: null,
        durationMs: 5,
      }).kind,
    ).toBe("clean");
  });
});
