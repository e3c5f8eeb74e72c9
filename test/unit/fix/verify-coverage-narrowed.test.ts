/**
 * A run narrowed to the failing tests under a command that checks coverage (chai: `c8 --99 --check-coverage
 * mocha …`) exits non-zero on the threshold whatever its tests did: that exit code is not held against its
 * report (every test it was narrowed to reported, none failing); a full run's still is. Scripted sandbox.
 */
import { describe, expect, it } from "vitest";
import type { TestCommand } from "../../../src/fix/test-runner/types.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { files, fix, policy } from "../../support/calc-repo.ts";
import { fakeSandbox, type ScriptedRun, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const base: ScriptedRun = { exitCode: 1, report: tapReport({ adds: "failed", subtracts: "passed" }) };
const baseNarrowed: ScriptedRun = { exitCode: 1, report: tapReport({ adds: "failed" }) };
/** The narrowed patched run: its test passes, the coverage threshold fails the exit code. */
const narrowedUnderThreshold: ScriptedRun = { exitCode: 1, report: tapReport({ adds: "passed" }) };
const full: ScriptedRun = { exitCode: 0, report: tapReport({ adds: "passed", subtracts: "passed" }) };
const fullUnderThreshold: ScriptedRun = { ...full, exitCode: 1 };

const verify = (command: string, script: ScriptedRun[]) => {
  const testCommand: TestCommand = { framework: "node-test", command, detectedBy: "--test" };
  return verifyPatch({
    workspace: memoryWorkspace(files),
    sandbox: fakeSandbox(script),
    patch: fix,
    policy,
    testCommand,
    jobId: "j",
    antiGaming: false,
  });
};

describe("verify: a narrowed run under a coverage threshold", () => {
  it("c8 --check-coverage: the narrowed run's threshold exit is not held against it; VERIFIED on the full run", async () => {
    const r = await verify("c8 --99 --check-coverage node --test", [
      base,
      baseNarrowed,
      narrowedUnderThreshold,
      full,
    ]);
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
  });

  it("without a coverage tool the same exit code still makes the run incomplete", async () => {
    const r = await verify("node --test", [base, baseNarrowed, narrowedUnderThreshold, full]);
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.join("\n")).toMatch(/patched run 1 did not complete: exit code 1 disagrees/);
  });

  it("a full run's exit code is still held against its report, coverage tool or not", async () => {
    const r = await verify("c8 --check-coverage node --test", [
      base,
      baseNarrowed,
      narrowedUnderThreshold,
      fullUnderThreshold,
    ]);
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.join("\n")).toMatch(/patched run 2 did not complete: exit code 1 disagrees/);
  });
});
