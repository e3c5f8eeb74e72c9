import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import type { TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { tapDiagnostics } from "../../../src/fix/test-runner/index.ts";
import { assertTestsCouldRun, missingModules } from "../../../src/fix/unreadable-run.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const run = (outputTail: string, over: Partial<TestRunResult> = {}): TestRunResult => ({
  script: "python3 -m pytest",
  tests: [{ id: "tests/test_x.py", outcome: "error", message: "collection failure" }],
  exitCode: 2,
  stoppedBy: null,
  durationMs: 10,
  reportSource: "file",
  reportFormat: "junit",
  reportFound: true,
  counts: { passed: 0, failed: 1, skipped: 0 },
  problems: [],
  complete: true,
  outputTail,
  ...over,
});
const command = { framework: "pytest" as const, command: "python3 -m pytest", detectedBy: "--test" };

describe("missingModules", () => {
  it("reads Python's and Node's missing-module lines, scoped packages and submodules", () => {
    const found = missingModules(
      run(
        [
          "\u001b[1m\u001b[31mE   ModuleNotFoundError: No module named 'yaml.loader'\u001b[0m",
          "Error: Cannot find module '@acme/units/convert'",
          "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'lodash' imported from /workspace/a.mjs",
          "Error: Cannot find module './local'",
          "Error: Cannot find module 'node:missing'",
          'Error: Failed to resolve import "date-fns/addDays" from "test/a.test.ts". Does the file exist?',
          'Error: Failed to resolve import "./missing" from "test/a.test.ts". Does the file exist?',
        ].join("\n"),
      ),
    );
    expect(found[0]?.line).toBe("E   ModuleNotFoundError: No module named 'yaml.loader'");
    expect(found.map((m) => [m.ecosystem, m.name, m.top])).toEqual([
      ["python", "yaml.loader", "yaml"],
      ["javascript", "@acme/units/convert", "@acme/units"],
      ["javascript", "lodash", "lodash"],
      ["javascript", "date-fns/addDays", "date-fns"],
    ]);
  });

  it("node:test's TAP report carries a test file's own stderr in its comments: read there too", () => {
    const report = [
      "TAP version 13",
      "# Error: Cannot find module 'zzz-not-a-package'",
      "# Require stack:",
      "# - /workspace/test/a.test.js",
      "# Subtest: /workspace/test/a.test.js",
      "not ok 1 - /workspace/test/a.test.js",
      "  ---",
      "  error: 'test failed'",
      "  ...",
      "1..1",
      "# tests 1",
      "# fail 1",
      "# duration_ms 4230.35",
    ].join("\n");
    const diagnostics = tapDiagnostics(report);
    expect(diagnostics).toBe(
      "Error: Cannot find module 'zzz-not-a-package'\nRequire stack:\n- /workspace/test/a.test.js",
    );
    expect(missingModules(run(diagnostics)).map((m) => m.name)).toEqual(["zzz-not-a-package"]);
  });
});

describe("assertTestsCouldRun", () => {
  it("refuses a base run stopped by a third-party module the sandbox lacks", async () => {
    const ws = memoryWorkspace({ "calc.py": "x = 1\n" });
    await expect(
      assertTestsCouldRun(command, run("E   ModuleNotFoundError: No module named 'yaml'"), ws),
    ).rejects.toBeInstanceOf(InfrastructureError);
  });

  it("keeps as evidence a failing import of the repository's own module (the patch may add the name)", async () => {
    const ws = memoryWorkspace({ "shop/__init__.py": "", "src/inventory/__init__.py": "" });
    await expect(
      assertTestsCouldRun(command, run("E   ModuleNotFoundError: No module named 'shop.pricing'"), ws),
    ).resolves.toBeUndefined();
    await expect(
      assertTestsCouldRun(command, run("E   ModuleNotFoundError: No module named 'inventory'"), ws),
    ).resolves.toBeUndefined();
  });

  it("says nothing about a green run or one the sandbox stopped", async () => {
    const ws = memoryWorkspace({});
    const line = "ModuleNotFoundError: No module named 'yaml'";
    await expect(
      assertTestsCouldRun(command, run(line, { exitCode: 0, tests: [{ id: "t", outcome: "passed" }] }), ws),
    ).resolves.toBeUndefined();
    await expect(
      assertTestsCouldRun(command, run(line, { stoppedBy: "timeout" }), ws),
    ).resolves.toBeUndefined();
  });
});
