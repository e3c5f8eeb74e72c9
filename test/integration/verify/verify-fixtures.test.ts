/**
 * verifyPatch against the real Docker engine and the sandbox image, on the fixture repositories under
 * test/fixtures/repos (real bugs, real pytest and node:test runs).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { FlakyBaseError } from "../../../src/core/errors.ts";
import type { TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { type VerifyOutput, verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const FIXTURES = path.resolve("test/fixtures/repos");
const policy = policyForFix(defaultConfig());
/**
 * The gate blocks exit hooks (a fake success needs one); this policy lets them through so the tests can show
 * that the sandbox run itself, the second line of defence, still rejects a fake success.
 */
const exitHooksAllowed = { ...policy, testBypass: { ...policy.testBypass, allow: ["exit-hook"] } };

function verifier(repo: string) {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  let baseline: TestRunResult[] | undefined;
  return async (
    patchName: string,
    options: { reuseBaseline?: boolean; runs?: number; policy?: typeof policy } = {},
  ): Promise<VerifyOutput> => {
    const root = path.join(FIXTURES, repo);
    const result = await verifyPatch({
      workspace: await createFsWorkspace(root),
      sandbox,
      patch: await readFile(path.join(root, "patches", `${patchName}.diff`), "utf8"),
      policy: options.policy ?? policy,
      jobId: `test-verify-${repo}`,
      ...(options.runs ? { runs: options.runs } : {}),
      ...(options.reuseBaseline && baseline ? { baseline } : {}),
    });
    if (result.baseline.length > 0 && result.baseline.every((r) => r.complete)) baseline = result.baseline;
    return result;
  };
}

describeDocker("verify: Python fixture (pytest, JUnit XML)", () => {
  const verify = verifier("py-stats");

  it("VERIFIED: the correct patch", async () => {
    const r = await verify("correct");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.detectedBy).toBe("pytest.ini");
    expect(r.failToPass).toEqual(["tests/test_stats.py::test_median_even"]);
    expect(r.passToFail).toEqual([]);
    expect(r.runs.map((x) => [x.phase, x.exitCode, x.complete])).toEqual([
      ["base", 1, true],
      ["base", 1, true],
      ["patched", 0, true],
      ["patched", 0, true],
    ]);
    expect(r.runs[0]!.counts).toEqual({ passed: 6, failed: 1, skipped: 0 });
    expect(r.tests).toHaveLength(7);
  }, 120_000);

  it("REJECTED: a no-op patch", async () => {
    const r = await verify("no-op", { reuseBaseline: true });
    expect(r.verdict).toBe("REJECTED");
    expect(r.stillFailing).toEqual(["tests/test_stats.py::test_median_even"]);
    expect(r.reasons).toContain("no test went from failing to passing");
  }, 120_000);

  it("REJECTED: a patch that fixes one test and breaks another", async () => {
    const r = await verify("fix-one-break-another", { reuseBaseline: true });
    expect(r.verdict).toBe("REJECTED");
    expect(r.failToPass).toEqual(["tests/test_stats.py::test_median_even"]);
    expect(r.passToFail).toEqual(["tests/test_stats.py::test_median_odd"]);
  }, 120_000);

  it("BLOCKED: patches that skip or delete the failing test never run", async () => {
    const skip = await verify("skip-test");
    expect(skip.verdict).toBe("BLOCKED");
    expect(skip.runs).toEqual([]);
    expect(skip.violations.map((v) => v.rule)).toEqual(expect.arrayContaining(["test-bypass"]));
    const del = await verify("delete-test");
    expect(del.verdict).toBe("BLOCKED");
    expect(del.runs).toEqual([]);
    expect(del.violations.map((v) => v.rule)).toEqual(expect.arrayContaining(["weakened-tests"]));
  });

  it("REJECTED: a patch that prints fake success and exits 0 before the tests run", async () => {
    const blocked = await verify("fake-success", { reuseBaseline: true });
    expect(blocked.verdict).toBe("BLOCKED");
    expect(blocked.violations.map((v) => v.message).join("\n")).toMatch(/\[exit-hook\]: `os\._exit\(0\)`/);
    const r = await verify("fake-success", { reuseBaseline: true, policy: exitHooksAllowed });
    expect(r.verdict).toBe("REJECTED");
    const patched = r.runs.filter((x) => x.phase === "patched");
    expect(patched).toHaveLength(1);
    expect(patched[0]!.exitCode).toBe(0);
    expect(patched[0]!.complete).toBe(false);
    expect(r.reasons[0]).toMatch(
      /patched run 1 did not complete: the test command wrote no junit report \(exit code 0\)/,
    );
    expect(r.stillFailing).toEqual(["tests/test_stats.py::test_median_even"]);
  }, 120_000);

  it("REJECTED: a patch that does not apply, with file and hunk, without running", async () => {
    const r = await verify("does-not-apply");
    expect(r.verdict).toBe("REJECTED");
    expect(r.runs).toEqual([]);
    expect(r.reasons[0]).toMatch(/hunk 1 of 1 \(@@ -12,6 \+12,8 @@\) does not apply to stats.py/);
  });
});

describeDocker("verify: JS fixture (node --test, TAP report)", () => {
  const verify = verifier("js-duration");

  it("VERIFIED: the correct patch", async () => {
    const r = await verify("correct");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.detectedBy).toBe("package.json scripts.test (node-test)");
    expect(r.failToPass).toEqual(["formatDuration > formats hours"]);
    expect(r.tests.map((t) => t.id)).toEqual([
      "formatDuration > formats hours",
      "formatDuration > formats minutes",
      "formatDuration > formats seconds",
      "formatDuration > rejects negative input",
    ]);
  }, 120_000);

  it("REJECTED: a patch that fixes one test and breaks two", async () => {
    const r = await verify("fix-one-break-another", { reuseBaseline: true });
    expect(r.verdict).toBe("REJECTED");
    expect(r.passToFail).toEqual(["formatDuration > formats minutes", "formatDuration > formats seconds"]);
  }, 120_000);

  it("REJECTED: a module that prints TAP success lines and calls process.exit(0)", async () => {
    const blocked = await verify("fake-success", { reuseBaseline: true });
    expect(blocked.verdict).toBe("BLOCKED");
    expect(blocked.violations.map((v) => v.message).join("\n")).toMatch(
      /\[exit-hook\]: `process\.exit\(0\);`/,
    );
    const r = await verify("fake-success", { reuseBaseline: true, policy: exitHooksAllowed });
    expect(r.verdict).toBe("REJECTED");
    expect(r.runs.filter((x) => x.phase === "patched").every((x) => x.exitCode === 0)).toBe(true);
    expect(r.stillFailing).toEqual(["formatDuration > formats hours"]);
    expect(r.tests.find((t) => t.id === "formatDuration > formats hours")?.after).toBe("missing");
    expect(r.passToFail).toHaveLength(3);
  }, 120_000);
});

describeDocker("verify: flaky fixture", () => {
  const verify = verifier("py-flaky");

  it("REJECTED as unstable: the repeated runs of the same code disagree, with counts", async () => {
    // The fixture's 24 deadline cases are coin flips in every run, the base's as much as the patched tree's. Most
    // runs give some case two outcomes after the patch over one base outcome: REJECTED as unstable, below. Now and
    // then (once in a fresh-clone CI run, 2026-11-28) every case that flips after the patch flipped on the base
    // too, and then the flakiness is the base's own: verify answers with no verdict (FlakyBaseError, exit 4,
    // src/fix/verify.ts step 5b), which is right for that draw. Either way it is never VERIFIED; the no-verdict
    // answer must name only deadline cases, each with its counts over the 2 + 3 base runs.
    let r: VerifyOutput;
    try {
      r = await verify("correct");
    } catch (error) {
      expect(error).toBeInstanceOf(FlakyBaseError);
      const flaky = (error as FlakyBaseError).flaky;
      expect(flaky.length).toBeGreaterThan(0);
      expect(flaky.every((u) => u.id.startsWith("tests/test_timing.py::test_deadline["))).toBe(true);
      expect(flaky.every((u) => Object.values(u.counts).reduce((a, b) => a + b, 0) === 5)).toBe(true);
      expect((error as Error).message).toMatch(/UNPATCHED base/);
      return;
    }
    expect(r.verdict).toBe("REJECTED");
    expect(r.failToPass).toContain("tests/test_cart.py::test_total_uses_quantity");
    expect(r.unstable.length).toBeGreaterThan(0);
    expect(r.unstable.every((u) => u.id.startsWith("tests/test_timing.py::test_deadline["))).toBe(true);
    expect(Object.values(r.unstable[0]!.counts).reduce((a, b) => a + b, 0)).toBe(2);
    expect(r.reasons.find((x) => x.startsWith("unstable: "))).toMatch(
      /\((base|patched): failed 1\/2, passed 1\/2\)/,
    );
  }, 120_000);
});
