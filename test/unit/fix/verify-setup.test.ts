/**
 * A test command that builds first (issue 15, chai: `npm run build && npm run test-node`): the build is the
 * command's setup, made first in every run (base, patched, anti-gaming), its output never read as test
 * results. A build that fails on the unchanged base gives no test to judge: an infrastructure error, never a
 * verdict; one the patch breaks is the patch's (REJECTED); one that fails for the machine's reasons (a program
 * the sandbox lacks, a killed process) after the patch is an infrastructure error too. Scripted sandbox.
 */
import { describe, expect, it } from "vitest";
import type { SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { runTests } from "../../../src/fix/test-runner/index.ts";
import type { TestCommand } from "../../../src/fix/test-runner/types.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { files, fix, policy } from "../../support/calc-repo.ts";
import { fakeSandbox, type ScriptedRun, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const command: TestCommand = {
  framework: "node-test",
  command: "node --test",
  setup: "npm run build",
  detectedBy: "--test",
};
const testFile =
  'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add, sub } = require("../src/calc.js");\ntest("adds", () => {\n  assert.strictEqual(add(2, 3), 5);\n});\ntest("subtracts", () => {\n  assert.strictEqual(sub(3, 2), 1);\n});\n';
const base: ScriptedRun = { exitCode: 1, report: tapReport({ adds: "failed", subtracts: "passed" }) };
const fixed: ScriptedRun = { exitCode: 0, report: tapReport({ adds: "passed", subtracts: "passed" }) };
/** A run whose setup failed, as the run's script reports it (the marker carries the run's nonce). */
const buildFailed =
  (exitCode: number, output: string) =>
  (request: SandboxRunRequest): ScriptedRun => {
    const marker = /echo "(retrace-setup-failed-\w+ exit) \$rc"/.exec(request.command[2] ?? "")![1];
    return { exitCode, stderr: `${marker} ${exitCode}\n${output}\n` };
  };
const isAntiGaming = (r: SandboxRunRequest) => /^mkdir -p "\$HOME"/.test(r.command[2] ?? "");

function verify(script: (ScriptedRun | ((r: SandboxRunRequest) => ScriptedRun))[], ag?: ScriptedRun) {
  let t = 0;
  const fake = fakeSandbox((request) => {
    if (isAntiGaming(request)) return ag ?? { exitCode: 1 };
    const step = script[t++]!;
    return typeof step === "function" ? step(request) : step;
  });
  const result = verifyPatch({
    workspace: memoryWorkspace({ ...files, "test/calc.test.js": testFile }),
    sandbox: fake,
    patch: fix,
    policy,
    testCommand: command,
    jobId: "j",
    ...(ag === undefined ? { antiGaming: false } : {}),
  });
  return { result, requests: fake.requests };
}

describe("runTests: a command with a setup", () => {
  it("runs the setup first with its output apart; a failed setup is a run with no tests that says so", async () => {
    const sandbox = fakeSandbox((request) =>
      buildFailed(2, "lib/chai.js:3:7: ERROR: Expected ';' but found 'x'")(request),
    );
    const r = await runTests({ sandbox, workspace: memoryWorkspace(files), command, jobId: "j" });
    expect(sandbox.requests[0]!.command[2]).toMatch(
      /^\{ npm run build\n\} > \/tmp\/\.retrace-setup-\w+\.log 2>&1/,
    );
    expect(r.tests).toEqual([]);
    expect(r.complete).toBe(false);
    expect(r.setupFailed).toEqual({
      exitCode: 2,
      output: "lib/chai.js:3:7: ERROR: Expected ';' but found 'x'",
    });
    expect(r.problems).toEqual([
      "the step before the tests, `npm run build`, failed (exit 2), so no test ran: lib/chai.js:3:7: ERROR: Expected ';' but found 'x'",
    ]);
  });
});

describe("verifyPatch: a command that builds first", () => {
  it("the build runs in every run, the anti-gaming run included, and the verdict is the tests'", async () => {
    const { result, requests } = verify([base, base, fixed, fixed], { exitCode: 1 });
    const r = await result;
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    expect(r.testCommand).toBe("npm run build && node --test");
    expect(requests.length).toBeGreaterThanOrEqual(5);
    for (const q of requests) expect(q.command[2]).toMatch(/\{ npm run build\n\} > \/tmp\/\.retrace-setup-/);
    // In the anti-gaming run, after the repository moved and before anything else of it.
    const ag = requests.find(isAntiGaming)!.command[2]!;
    expect(ag.indexOf("{ npm run build")).toBeGreaterThan(ag.indexOf("cd /workspace/"));
  });

  it("a build that fails on the unchanged base: an infrastructure error quoting it, no verdict", async () => {
    const { result } = verify([buildFailed(1, "src/index.ts(3,1): error TS1005: ';' expected.")]);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toBe(
      "the step the test command runs before the tests, `npm run build`, failed on the unchanged base (exit 1), so no test ran; its output ends: src/index.ts(3,1): error TS1005: ';' expected.",
    );
  });

  it("a build the patch breaks: REJECTED, saying so", async () => {
    const { result } = verify([base, base, buildFailed(1, "lib/calc.js:1:9: ERROR: Unexpected '+'")]);
    const r = await result;
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.join("\n")).toMatch(
      /patched run 1 did not complete: the step before the tests, `npm run build`, failed \(exit 1\), so no test ran: lib\/calc\.js:1:9: ERROR: Unexpected '\+'/,
    );
  });

  it("a patched build that fails for the machine's reasons (a missing program, a killed process): no verdict", async () => {
    for (const [code, out] of [
      [127, "sh: 1: esbuild: not found"],
      [137, "Killed"],
    ] as const) {
      const { result } = verify([base, base, buildFailed(code, out)]);
      const error = await result.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InfrastructureError);
      expect((error as Error).message).toMatch(/failed in a patched run, for a reason of the machine/);
    }
  });

  it("a build that fails only in the anti-gaming run's neutral surroundings: no verdict (the base was not built there)", async () => {
    // changesets: tsdown failed under the neutral run's surroundings on the real upstream fix, which was REJECTED.
    let t = 0;
    const script = [base, base, fixed, fixed];
    const fake = fakeSandbox((request) =>
      isAntiGaming(request) ? buildFailed(1, "build: refusing to build here")(request) : script[t++]!,
    );
    const error = await verifyPatch({
      workspace: memoryWorkspace({ ...files, "test/calc.test.js": testFile }),
      sandbox: fake,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /the anti-gaming run's build step `npm run build` failed in the neutral surroundings \(exit 1\) though it succeeded in the patched runs, and the unchanged base was not built there/,
    );
  });
});
