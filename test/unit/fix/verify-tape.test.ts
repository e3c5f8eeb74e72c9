/**
 * A tape suite whose base run dies mid-test (issue 15, fast-uri): the test running when the process died is a
 * failing test (`error`), so the run is evidence (its exit code agrees with the report) and a patch is judged
 * per test: the fix VERIFIED (the crashed test passes, and so do the tests the base never reached, which did not
 * pass there: failing, not missing), a patch that leaves the crash REJECTED with that test still failing, and one
 * that stops the crash while a test the base never reached fails REJECTED too. The runs are the real tape
 * output of the small repository in test/fixtures/logs-tape (README there); the sandbox is scripted.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { PolicyConfig } from "../../../src/policy/config.ts";
import { fakeSandbox, type ScriptedRun } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const dir = path.resolve("test/fixtures/logs-tape");
const read = (f: string) => readFileSync(path.join(dir, f), "utf8");
const crashed: ScriptedRun = {
  exitCode: 1,
  stdout: read("verify-base.stdout"),
  stderr: read("verify-base.stderr"),
  durationMs: 2_000,
};
const passing: ScriptedRun = { exitCode: 0, stdout: read("verify-fixed.stdout"), durationMs: 2_000 };
const calc = read("calc.js.txt");
const files = {
  "lib/calc.js": calc,
  "test/a.test.js": read("a.test.js.txt").replace("parse('2'), 3,", "parse('2'), 2,"),
  "test/b.test.js": read("b.test.js.txt"),
};
const patchOf = (from: string, to: string) => {
  const lines = calc.split("\n");
  const i = lines.findIndex((l) => l.includes(from));
  return `--- a/lib/calc.js\n+++ b/lib/calc.js\n@@ -${i + 1},1 +${i + 1},1 @@\n-${lines[i]}\n+${lines[i]!.replace(from, to)}\n`;
};
const fix = patchOf("throw new Error('empty input cannot be parsed')", "return 0");
const noop = patchOf("cannot be parsed')", "cannot be parsed') // retrace benchmark: harmless comment");

const verify = (patch: string, script: ScriptedRun[]) => {
  const fake = fakeSandbox(script);
  return verifyPatch({
    workspace: memoryWorkspace(files),
    sandbox: fake,
    patch,
    policy: PolicyConfig.parse({}),
    testCommand: { framework: "unknown", command: "tape 'test/**/*.js'", detectedBy: "--test" },
    jobId: "j",
  });
};

describe("verify: a tape base that dies mid-test", () => {
  it("the fix: VERIFIED, the crashed test went from failing to passing", async () => {
    const r = await verify(fix, [crashed, crashed, passing, passing]);
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    // The test the base never reached (a later file) did not pass there: it counts as failing, and passes now.
    expect(r.failToPass).toEqual(["b adds", "parses"]);
    expect(r.passToFail).toEqual([]);
    expect(r.tests).toContainEqual({ id: "parses", before: "error", after: "passed" });
    expect(r.tests).toContainEqual({ id: "b adds", before: "error", after: "passed" });
    expect(r.reasons.join("\n")).toMatch(
      /1 test\(s\) the base never reached \(its test process died in parses\) count as failing on the base: b adds/,
    );
    expect(r.runs.every((x) => x.complete)).toBe(true);
  });

  it("a patch that stops the crash but leaves a test the base never reached failing: REJECTED, not ignored as new", async () => {
    const laterFails: ScriptedRun = {
      exitCode: 1,
      stdout: read("verify-later-fails.stdout"),
      durationMs: 2_000,
    };
    const r = await verify(fix, [crashed, crashed, laterFails, laterFails]);
    expect(r.verdict).toBe("REJECTED");
    expect(r.failToPass).toEqual(["parses"]);
    expect(r.stillFailing).toEqual(["b adds"]);
  });

  it("a patch that leaves the crash: REJECTED, the crashed test still fails", async () => {
    const r = await verify(noop, [crashed, crashed, crashed, crashed]);
    expect(r.verdict).toBe("REJECTED");
    expect(r.stillFailing).toEqual(["parses"]);
    expect(r.reasons.join("\n")).toMatch(/parses \(error\)/);
  });
});
