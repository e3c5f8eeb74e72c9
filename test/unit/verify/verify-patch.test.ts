import { describe, expect, it } from "vitest";
import { CancelledError } from "../../../src/core/errors.ts";
import type { TestCommand } from "../../../src/fix/test-runner-types.ts";
import { compareRuns, verifyPatch } from "../../../src/fix/verify.ts";
import { PolicyConfig } from "../../../src/policy/config.ts";
import { fakeSandbox, tapReport } from "./fake-sandbox.ts";
import { memoryWorkspace } from "./memory-workspace.ts";

const policy = PolicyConfig.parse({});
const command: TestCommand = { framework: "node-test", command: "node --test", detectedBy: "--test" };
const files = {
  "package.json": JSON.stringify({ scripts: { test: "node --test" } }),
  "src/calc.js": "exports.add = (a, b) => a - b;\nexports.sub = (a, b) => a - b;\n",
  "test/calc.test.js": "// tests\n",
};
const fix =
  "--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1,2 +1,2 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;\n exports.sub = (a, b) => a - b;\n";
const base = { exitCode: 1, report: tapReport({ adds: "failed", subtracts: "passed" }) };
const fixed = { exitCode: 0, report: tapReport({ adds: "passed", subtracts: "passed" }) };

describe("verifyPatch", () => {
  it("VERIFIED: fail→pass, nothing regressed, repeated runs agree; base runs get no overlay, patched runs do", async () => {
    const { sandbox, requests } = fakeSandbox([base, base, fixed, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("VERIFIED");
    expect(result.failToPass).toEqual(["adds"]);
    expect(result.passToFail).toEqual([]);
    expect(result.stillFailing).toEqual([]);
    expect(result.runs.map((r) => `${r.phase}${r.index}`)).toEqual([
      "base1",
      "base2",
      "patched1",
      "patched2",
    ]);
    expect(result.changedFiles).toEqual(["src/calc.js"]);
    expect(result.testCommand).toBe("node --test");
    expect(result.tests).toEqual([
      { id: "adds", before: "failed", after: "passed" },
      { id: "subtracts", before: "passed", after: "passed" },
    ]);
    expect(requests[0]!.input).toEqual({ dir: "/repo" });
    expect(requests[2]!.input?.files?.["src/calc.js"]).toContain("a + b");
    expect(result.baseline).toHaveLength(2);
  });

  it("BLOCKED: the gate stops the patch before any sandbox run", async () => {
    const { sandbox, requests } = fakeSandbox([]);
    const patch =
      "--- a/test/calc.test.js\n+++ b/test/calc.test.js\n@@ -1 +1,2 @@\n // tests\n+test.skip('adds', () => {});\n";
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("BLOCKED");
    expect(requests).toHaveLength(0);
    expect(result.violations.map((v) => v.rule)).toContain("forbidden-paths");
    expect(result.reasons.some((r) => r.startsWith("policy forbidden-paths: test/calc.test.js"))).toBe(true);
  });

  it("REJECTED: a patch that does not apply is never run", async () => {
    const { sandbox, requests } = fakeSandbox([]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix.replace("-exports.add = (a, b) => a - b;", "-exports.add = (a, b) => a * b;"),
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(result.reasons[0]).toMatch(/^the patch does not apply: hunk 1 of 1 .* src\/calc.js/);
    expect(requests).toHaveLength(0);
  });

  it("REJECTED: a test that passed before fails after", async () => {
    const broken = { exitCode: 1, report: tapReport({ adds: "passed", subtracts: "failed" }) };
    const { sandbox } = fakeSandbox([base, base, broken, broken]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(result.failToPass).toEqual(["adds"]);
    expect(result.passToFail).toEqual(["subtracts"]);
    expect(result.reasons).toContain(
      "1 test(s) passing on the base no longer pass after the patch: subtracts (failed)",
    );
  });

  it("REJECTED as unstable when the repeated patched runs disagree, with counts", async () => {
    const { sandbox } = fakeSandbox([base, base, fixed, base]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(result.unstable).toEqual([{ id: "adds", phase: "patched", counts: { passed: 1, failed: 1 } }]);
    expect(result.stillFailing).toEqual(["adds"]);
    expect(result.reasons[0]).toBe(
      "unstable: 1 test(s) gave different outcomes on repeated runs of the same code: adds (patched: failed 1/2, passed 1/2)",
    );
  });

  it("REJECTED when the patched run exits early without a report; later runs are skipped", async () => {
    const { sandbox, requests } = fakeSandbox([base, base, { exitCode: 0, stdout: "# pass 2\n" }]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(requests).toHaveLength(3);
    expect(result.reasons[0]).toMatch(
      /^patched run 1 did not complete: the test command wrote no tap report/,
    );
    expect(result.stillFailing).toEqual(["adds"]);
  });

  it("REJECTED when nothing fails on the base, without running the patch", async () => {
    const { sandbox, requests } = fakeSandbox([fixed, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(requests).toHaveLength(2);
    expect(result.reasons).toEqual(["no test fails on the base: there is no failure for the patch to fix"]);
  });

  it("reuses a baseline instead of running the base again", async () => {
    const first = fakeSandbox([base, base, fixed, fixed]);
    const earlier = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: first.sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    const second = fakeSandbox([fixed, fixed]);
    const again = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: second.sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      baseline: earlier.baseline,
    });
    expect(second.requests).toHaveLength(2);
    expect(again.verdict).toBe("VERIFIED");
    expect(again.runs.map((r) => r.phase)).toEqual(["base", "base", "patched", "patched"]);
  });

  it("detects the command when none is given, and resolves a string through package.json", async () => {
    const { sandbox, requests } = fakeSandbox([base, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      runs: 1,
      jobId: "j",
    });
    expect(result.detectedBy).toBe("package.json scripts.test (node-test)");
    expect(result.verdict).toBe("VERIFIED");
    expect(requests[0]!.command[2]).toMatch(/^node --test --test-reporter=tap/);
    const viaNpm = fakeSandbox([base, fixed]);
    const r2 = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: viaNpm.sandbox,
      patch: fix,
      policy,
      runs: 1,
      testCommand: "npm test",
      jobId: "j",
    });
    expect(r2.detectedBy).toBe("--test → package.json scripts.test");
  });

  it("reads an unrecognised command's output best-effort and says so", async () => {
    const make: TestCommand = { framework: "unknown", command: "make test", detectedBy: "--test" };
    const { sandbox, requests } = fakeSandbox([
      { exitCode: 2, stdout: tapReport({ adds: "failed", subtracts: "passed" }) },
      { exitCode: 0, stdout: tapReport({ adds: "passed", subtracts: "passed" }) },
    ]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: make,
      runs: 1,
      jobId: "j",
    });
    expect(requests[0]!.command).toEqual(["sh", "-c", "make test"]);
    expect(requests[0]!.collect).toBeUndefined();
    expect(result.verdict).toBe("VERIFIED");
    expect(result.reasons[result.reasons.length - 1]).toMatch(
      /^results were read from the output of `make test`/,
    );
  });

  it("throws CancelledError when the signal is aborted, and rejects bad run counts", async () => {
    const controller = new AbortController();
    const { sandbox } = fakeSandbox(() => {
      controller.abort();
      return base;
    });
    await expect(
      verifyPatch({
        workspace: memoryWorkspace(files),
        sandbox,
        patch: fix,
        policy,
        testCommand: command,
        jobId: "j",
        signal: controller.signal,
      }),
    ).rejects.toBeInstanceOf(CancelledError);
    await expect(
      verifyPatch({
        workspace: memoryWorkspace(files),
        sandbox,
        patch: fix,
        policy,
        testCommand: command,
        jobId: "j",
        runs: 0,
      }),
    ).rejects.toThrow(/runs must be an integer from 1 to 10/);
  });
});

describe("compareRuns", () => {
  const run = (tests: Record<string, "passed" | "failed" | "skipped" | "error">) => ({
    script: "s",
    tests: Object.entries(tests).map(([id, outcome]) => ({ id, outcome })),
    exitCode: Object.values(tests).some((o) => o === "failed" || o === "error") ? 1 : 0,
    stoppedBy: null,
    durationMs: 1,
    reportSource: "file" as const,
    reportFormat: "junit",
    reportFound: true,
    counts: { passed: 0, failed: 0, skipped: 0 },
    problems: [],
    complete: true,
    outputTail: "",
  });

  it("counts a test skipped or missing after the patch as not passing", () => {
    const c = compareRuns(
      [run({ a: "failed", b: "passed", c: "passed" })],
      [run({ a: "skipped", b: "skipped" })],
    );
    expect(c.verified).toBe(false);
    expect(c.stillFailing).toEqual(["a"]);
    expect(c.passToFail).toEqual(["b", "c"]);
    expect(c.tests.find((t) => t.id === "c")).toEqual({ id: "c", before: "passed", after: "missing" });
  });

  it("treats error as failing, and a new test that passes as harmless", () => {
    const c = compareRuns([run({ a: "error" })], [run({ a: "passed", added: "passed" })]);
    expect(c.verified).toBe(true);
    expect(c.failToPass).toEqual(["a"]);
  });
});
