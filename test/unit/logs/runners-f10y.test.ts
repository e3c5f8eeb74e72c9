/**
 * Runner shapes added on branch f10y (misses and misplaced failures of the hold31 corpus, tainted once scored). Each
 * log is written here for a small kiln library of our own, in the runners' byte layout; each rule has a case where it
 * must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("mocha: a spec file that threw while loading (a describe body), before any test ran", () => {
  const load = (bottom: string[]) =>
    [
      "TypeError: Cannot read properties of undefined (reading 'heat')",
      "    at Suite.<anonymous> (file:///home/me/kiln/test/unit/kiln-spec.js:12:20)",
      "    at Object.create (/home/me/kiln/node_modules/mocha/lib/interfaces/common.js:148:19)",
      "    at context.describe.context.context (/home/me/kiln/node_modules/mocha/lib/interfaces/bdd.js:42:27)",
      ...bottom,
      'ERROR: "test:unit" exited with 1.',
    ].join("\n");
  it("is the file's failure (no test id), placed at the stack's first frame in it: ESM and CommonJS loaders", () => {
    expect(
      found(
        load([
          "    at file:///home/me/kiln/test/unit/kiln-spec.js:3:1",
          "    at ModuleJob.run (node:internal/modules/esm/module_job:194:25)",
        ]),
      ),
    ).toEqual([[null, "test/unit/kiln-spec.js", 12]]);
    expect(
      found(
        load([
          "    at Object.<anonymous> (/home/me/kiln/test/unit/kiln-spec.js:3:1)",
          "    at Module._compile (node:internal/modules/cjs/loader:1256:14)",
        ]),
      ),
    ).toEqual([[null, "test/unit/kiln-spec.js", 12]]);
  });
  it("must not fire without mocha's interface frames (an application's crash) or without the loader (a running test)", () => {
    const app = [
      "TypeError: Cannot read properties of undefined (reading 'heat')",
      "    at fire (file:///home/me/kiln/src/kiln.js:12:20)",
      "    at file:///home/me/kiln/src/main.js:3:1",
      "    at ModuleJob.run (node:internal/modules/esm/module_job:194:25)",
    ].join("\n");
    expect(found(app).filter((f) => f[0] === null && f[1] === "src/main.js")).toEqual([]);
    const running = load([
      "    at Context.<anonymous> (file:///home/me/kiln/test/unit/kiln-spec.js:20:5)",
      "    at callFn (/home/me/kiln/node_modules/mocha/lib/runnable.js:366:21)",
    ]);
    expect(found(running)).toEqual([]);
  });
});

describe("vows: the spec reporter's broken vow", () => {
  const log = (frame: string) =>
    [
      "  firing",
      "    ✓ heats up",
      "  firing with a cold kiln",
      "    ✗ and glazes the pot",
      "      TypeError: Cannot read property 'glaze' of undefined",
      "      at Object.firing with a cold kiln.and glazes the pot (/home/me/kiln/test/kiln-test.js:49:45)",
      frame,
    ].join("\n");
  it("is `context > vow`, placed at the first project frame, when vows' own frames are in its block", () => {
    expect(found(log("      at runTest (/home/me/kiln/node_modules/vows/lib/vows.js:135:26)"))).toEqual([
      ["firing with a cold kiln > and glazes the pot", "test/kiln-test.js", 49],
    ]);
  });
  it("must not fire on a `✗` line with neither vows' frames nor vows' `Broken` summary", () => {
    expect(
      found(log("      at run (/home/me/kiln/lib/runner.js:10:2)")).filter((f) =>
        String(f[0]).includes(" > "),
      ),
    ).toEqual([]);
    const summarized = `${log("      at run (/home/me/kiln/lib/runner.js:10:2)")}\n\n  ✗ Broken » 1 honored ∙ 1 broken\n`;
    expect(found(summarized)).toEqual([
      ["firing with a cold kiln > and glazes the pot", "/home/me/kiln/test/kiln-test.js", 49],
    ]);
  });
});

describe("node:test TAP: subtests cancelled by their parent", () => {
  const log = (parentYaml: string[]) =>
    [
      "TAP version 13",
      "# Subtest: kiln",
      "    # Subtest: fires",
      "    not ok 1 - fires",
      "      ---",
      "      duration_ms: 0",
      "      location: '/builds/me/kiln/test/kiln.test.js:9:3'",
      "      failureType: 'cancelledByParent'",
      "      error: 'test did not finish before its parent and was cancelled'",
      "      code: 'ERR_TEST_FAILURE'",
      "      ...",
      "    1..1",
      "not ok 1 - kiln",
      "  ---",
      "  duration_ms: 0.2",
      "  type: 'suite'",
      "  location: '/builds/me/kiln/test/kiln.test.js:4:1'",
      ...parentYaml,
      "  ...",
      "1..1",
      "# tests 1",
      "# fail 0",
      "# cancelled 1",
    ].join("\n");
  it("take the place of their parent's failed hook (its stack's first project frame)", () => {
    const hook = [
      "  failureType: 'hookFailed'",
      "  error: 'no clay'",
      "  code: 'ERR_TEST_FAILURE'",
      "  stack: |-",
      "    openKiln (file:///builds/me/kiln/kiln.js:7:20)",
      "    SuiteContext.<anonymous> (file:///builds/me/kiln/test/kiln.test.js:6:14)",
      "    TestHook.runInAsyncScope (node:async_hooks:206:9)",
    ];
    expect(found(log(hook))).toEqual([["kiln > fires", "kiln.js", 7]]);
  });
  it("must not move them when the parent failed otherwise (its subtests): their own `location:`", () => {
    const subtests = [
      "  failureType: 'subtestsFailed'",
      "  error: '1 subtest failed'",
      "  code: 'ERR_TEST_FAILURE'",
    ];
    expect(found(log(subtests))).toEqual([["kiln > fires", "test/kiln.test.js", 9]]);
  });
});

describe("Karma's progress reporter: a frame on a machine's absolute path", () => {
  const log = (path: string) =>
    [
      `Chrome 45.0.2421 (Linux) Kiln fires the pot FAILED`,
      "    TypeError: Cannot read property 'length' of undefined",
      `        at null.<anonymous> (${path}:20:31)`,
      "Chrome 45.0.2421 (Linux): Executed 1 of 1 (1 FAILED) ERROR (0.191 secs / 0.056 secs)",
    ].join("\n");
  it("is taken from its topmost source or test directory", () => {
    expect(found(log("/home/me/workspace/kiln/test/spec/kiln.js"))).toEqual([
      ["Kiln fires the pot", "test/spec/kiln.js", 20],
    ]);
  });
  it("is kept as printed when it has no such directory (never reduced to its base name)", () => {
    expect(found(log("/home/me/workspace/kiln/web/kiln.js"))).toEqual([
      ["Kiln fires the pot", "/home/me/workspace/kiln/web/kiln.js", 20],
    ]);
  });
});

describe("automake test-suite.log: a section's failed assert places its test", () => {
  const log = (assertLine: string) =>
    [
      "# TOTAL: 2",
      "# PASS:  1",
      "# FAIL:  1",
      "",
      "FAIL: tests/test_fire",
      "=====================",
      "",
      assertLine,
      "FAIL tests/test_fire (exit status: 134)",
      "",
    ].join("\n");
  it("at the assert's file and line (glibc's `prog: file.c:N: func: Assertion `…' failed.`)", () => {
    expect(
      found(log("lt-test_fire: tests/test_fire.cpp:48: int main(): Assertion `rc == 0' failed.")),
    ).toEqual([["tests/test_fire", "tests/test_fire.cpp", 48]]);
  });
  it("must not place it by a path leaving the build directory, nor by an assert outside a section", () => {
    expect(
      found(log("lt-test_fire: ../../tests/test_fire.cpp:48: int main(): Assertion `rc == 0' failed.")),
    ).toEqual([["tests/test_fire", null, null]]);
    const noSection = [
      "lt-test_fire: tests/test_fire.cpp:48: int main(): Assertion `rc == 0' failed.",
      "FAIL: tests/test_fire",
      "# TOTAL: 1",
      "# FAIL:  1",
    ].join("\n");
    expect(found(noSection).map((f) => f[1])).not.toContain("tests/test_fire.cpp");
  });
});

describe("go test in a Bazel test.log: the target's package is the test file's directory", () => {
  const log = (header: string) =>
    [
      header,
      "-----------------------------------------------------------------------------",
      "--- FAIL: TestFire (0.03s)",
      "    kiln_test.go:89: too cold",
      "FAIL",
    ].join("\n");
  it("puts go's base file name under the package of `Executing tests from //pkg:target`", () => {
    expect(found(log("Executing tests from //go/lib/kiln:go_default_test"))).toEqual([
      ["TestFire", "go/lib/kiln/kiln_test.go", 89],
    ]);
  });
  it("must not for another repository's target (`@repo//…`) or without the header: the base name as printed", () => {
    expect(found(log("Executing tests from @kiln//go/lib/kiln:go_default_test"))).toEqual([
      ["TestFire", "kiln_test.go", 89],
    ]);
    expect(found(log("Executing tests"))).toEqual([["TestFire", "kiln_test.go", 89]]);
  });
});
