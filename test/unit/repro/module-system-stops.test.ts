/**
 * A run that stops on Node's module system, where the report claims something else, is the sandbox's Node or the
 * installed release, never a partial reproduction: `require()` of an ES-module-only release (ERR_REQUIRE_ESM), an
 * import by URL (a CDN's), and `require(...).default is not a function` (the release's exports are not what the code
 * calls). Two real reports were PARTIAL on these (hold23-npm-es-toolkit-1399, hold23-npm-strip-json-comments-64,
 * tainted). The ES-module retry also reads a bundler-style interop line and a `require()` inside an expression.
 * Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { missingApi } from "../../../src/repro/attempt.ts";
import { asEsModule } from "../../../src/repro/esm-retry.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const fence = "```";
const throwsUnquoted = reportedExpectations(
  parseReport(
    `# parse throws\n\nThe code below throws:\n\n${fence}js\nconst f = require('pkg');\nf('x');\n${fence}\n`,
  ),
).actual;
const failing = (type: string, message: string) =>
  run({ exitCode: 1, exception: { type, message }, stderr: `${type}: ${message}\n` });

describe("a module-system stop is no partial reproduction", () => {
  it("ERR_REQUIRE_ESM, a URL import and a missing export of the release ask, never PARTIAL", () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        "Error",
        "require() of ES Module /workspace/node_modules/pkg/index.js from /workspace/reproduction.cjs not supported.",
        /ES-module-only release/,
      ],
      [
        "Error",
        "Only URLs with a scheme in: file, data, and node are supported by the default ESM loader. Received protocol 'https:'",
        /imports a module by URL/,
      ],
      ["TypeError", "require(...).default is not a function", /calls `require\(\.\.\.\)\.default`/],
      ["TypeError", "(0 , _pkg.default) is not a function", /calls `\(0 , _pkg\.default\)`/],
    ];
    for (const [type, message, detail] of cases) {
      const m = matchRun(throwsUnquoted, failing(type, message));
      expect(m.kind, message).toBe("needs");
      expect(m.detail).toMatch(detail);
      expect(foldRuns([m]).verdict).toBe("NEEDS_INFO");
    }
  });

  it("counter-examples: a library's own TypeError stays a failure of the run; ERR_REQUIRE_ESM claimed is matched", () => {
    const own = matchRun(
      throwsUnquoted,
      failing("TypeError", "Cannot read properties of undefined (reading 'x')"),
    );
    expect(own.kind).not.toBe("needs");
    const claimed = reportedExpectations(
      parseReport(
        `# cannot require\n\n${fence}js\nrequire('pkg');\n${fence}\n\n${fence}\nError [ERR_REQUIRE_ESM]: require() of ES Module /app/node_modules/pkg/index.js from /app/a.js not supported.\n${fence}\n`,
      ),
    ).actual;
    const m = matchRun(
      claimed,
      failing(
        "Error",
        "require() of ES Module /workspace/node_modules/pkg/index.js from /workspace/a.cjs not supported.",
      ),
    );
    expect(m.kind).not.toBe("needs");
  });

  it("missingApi reads the call that loads the package, so no older release is taken on it", () => {
    for (const message of [
      "require(...).default is not a function",
      "(0 , _x.default) is not a function",
      "x.safeLoad is not a function",
    ])
      expect(missingApi({ exception: { type: "TypeError", message } } as never), message).not.toBeNull();
    expect(
      missingApi({ exception: { type: "TypeError", message: "f(...).then is not a function" } } as never),
    ).toBeNull();
  });
});

describe("the ES-module retry", () => {
  it("reads a bundler-style interop binding and a require() inside an expression", () => {
    const out = asEsModule(
      [
        "const _default = (m) => (m && m.__esModule ? m.default : m);",
        'const lodashEs = _default(require("lodash-es"));',
        "console.log(JSON.parse(require('strip').default('{}')), require('./data.json'));",
      ].join("\n"),
    )!;
    expect(out).toContain('import * as __esm0 from "lodash-es";');
    expect(out).toContain('const lodashEs = ("default" in __esm0 ? __esm0.default : __esm0);');
    expect(out).toContain('import * as __esm1 from "strip";');
    expect(out).toContain("JSON.parse(__esm1.default('{}'))");
    // A JSON file keeps `require`, served by createRequire.
    expect(out).toContain("require('./data.json')");
    expect(out).toContain("const require = __createRequire(import.meta.url);");
  });

  it("counter-example: no require at all is nothing to rewrite", () => {
    expect(asEsModule("console.log(JSON.parse('{}'))")).toBeNull();
  });
});
