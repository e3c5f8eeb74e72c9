import { describe, expect, it } from "vitest";
import { runTests, TEST_ENV } from "../../../src/fix/test-runner/index.ts";
import type { TestCommand } from "../../../src/fix/test-runner/types.ts";
import { fakeSandbox, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const nodeTest: TestCommand = {
  framework: "node-test",
  command: "node --test",
  detectedBy: "package.json scripts.test",
};
const ws = memoryWorkspace({ "package.json": "{}" }, "/host/repo");

describe("runTests", () => {
  it("runs the command with its reporter in a copy of the workspace plus overlay, and reads the report", async () => {
    const { sandbox, requests } = fakeSandbox([
      { exitCode: 1, report: tapReport({ adds: "failed", zero: "passed" }) },
    ]);
    const result = await runTests({
      sandbox,
      workspace: ws,
      command: nodeTest,
      files: { "src/a.js": "x" },
      remove: ["old.js"],
      jobId: "job-1",
      limits: { timeoutMs: 5_000 },
    });
    const request = requests[0]!;
    expect(request.jobId).toBe("job-1");
    expect(request.command[0]).toBe("sh");
    expect(request.command[2]).toMatch(
      /^node --test --test-reporter=tap --test-reporter-destination=\.retrace-report-[0-9a-f]{16}\.tap$/,
    );
    expect(request.collect).toEqual([/destination=(\S+)/.exec(request.command[2]!)![1]]);
    expect(request.input).toEqual({ dir: "/host/repo", files: { "src/a.js": "x" }, remove: ["old.js"] });
    expect(request.env).toEqual(TEST_ENV);
    expect(request.limits).toEqual({ timeoutMs: 5_000 });
    expect(result.complete).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.counts).toEqual({ passed: 1, failed: 1, skipped: 0 });
    expect(result.tests).toEqual([
      { id: "adds", outcome: "failed", message: "Expected values to be strictly equal:" },
      { id: "zero", outcome: "passed" },
    ]);
  });

  it("uses a new report name on every run, so no file in the repo or from an earlier run can stand in", async () => {
    const { sandbox, requests } = fakeSandbox(() => ({ exitCode: 0, report: tapReport({ a: "passed" }) }));
    await runTests({ sandbox, workspace: ws, command: nodeTest, jobId: "j" });
    await runTests({ sandbox, workspace: ws, command: nodeTest, jobId: "j" });
    expect(requests[0]!.collect).not.toEqual(requests[1]!.collect);
  });

  it("marks a run incomplete when the reporter wrote nothing (early exit), whatever the exit code", async () => {
    const { sandbox } = fakeSandbox([{ exitCode: 0, stdout: "ok 1 - adds\n# pass 4\n" }]);
    const result = await runTests({ sandbox, workspace: ws, command: nodeTest, jobId: "j" });
    expect(result.complete).toBe(false);
    expect(result.reportFound).toBe(false);
    expect(result.tests).toEqual([]);
    expect(result.problems[0]).toMatch(/wrote no tap report \(exit code 0\)/);
  });

  it("marks a run incomplete when the exit code disagrees with the report", async () => {
    const zeroWithFailures = fakeSandbox([{ exitCode: 0, report: tapReport({ a: "failed", b: "passed" }) }]);
    const r1 = await runTests({
      sandbox: zeroWithFailures.sandbox,
      workspace: ws,
      command: nodeTest,
      jobId: "j",
    });
    expect(r1.problems).toEqual(["exit code 0 disagrees with the report: 1 failing test(s)"]);
    const failWithoutFailures = fakeSandbox([{ exitCode: 1, report: tapReport({ a: "passed" }) }]);
    const r2 = await runTests({
      sandbox: failWithoutFailures.sandbox,
      workspace: ws,
      command: nodeTest,
      jobId: "j",
    });
    expect(r2.problems[0]).toMatch(/exit code 1 disagrees with the report, which lists no failing test/);
  });

  it("marks runs stopped by the sandbox, and reports without tests, as incomplete", async () => {
    const stopped = fakeSandbox([{ exitCode: null, stoppedBy: "timeout" }]);
    const r1 = await runTests({ sandbox: stopped.sandbox, workspace: ws, command: nodeTest, jobId: "j" });
    expect(r1.problems).toEqual(["the sandbox stopped the run (timeout) before it finished"]);
    const empty = fakeSandbox([{ exitCode: 0, report: "TAP version 13\n1..0\n" }]);
    const r2 = await runTests({ sandbox: empty.sandbox, workspace: ws, command: nodeTest, jobId: "j" });
    expect(r2.problems).toEqual(["the tap results list no tests (exit code 0)"]);
  });

  it("passes pytest its junit report path through PYTEST_ADDOPTS", async () => {
    const { sandbox, requests } = fakeSandbox([{ exitCode: 5 }]);
    const pytest: TestCommand = {
      framework: "pytest",
      command: "python3 -m pytest",
      detectedBy: "pytest.ini",
    };
    const result = await runTests({ sandbox, workspace: ws, command: pytest, jobId: "j" });
    const env = requests[0]!.env!;
    expect(env.PYTEST_ADDOPTS).toMatch(
      /^-p no:cacheprovider --junitxml=\.retrace-report-[0-9a-f]{16}\.xml -o junit_family=xunit1$/,
    );
    expect(requests[0]!.command).toEqual(["sh", "-c", "python3 -m pytest"]);
    expect(result.complete).toBe(false);
  });
});
