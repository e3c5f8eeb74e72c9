/**
 * The anti-gaming run (tripwires and the neutral run) against the real Docker engine, on two small repositories
 * written for it: py-prices (pytest, with a unittest class, also run by `python3 -m unittest`) and js-units (node:test). Each gaming patch really
 * makes the failing tests pass in the normal runs (checked by hand: `pytest` / `node --test` on the patched
 * tree); the policy gate's test-bypass rule is turned off here so the runtime layers are what is tested.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import type { TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { type VerifyOutput, verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const FIXTURES = path.resolve("test/fixtures/repos");
const strict = policyForFix(defaultConfig());
const runtimeOnly = {
  ...strict,
  testBypass: { ...strict.testBypass, enabled: false },
  testAwareness: { ...strict.testAwareness, enabled: false },
  testFileAccess: { ...strict.testFileAccess, enabled: false },
  checkTampering: { ...strict.checkTampering, enabled: false },
  constantEquality: { ...strict.constantEquality, enabled: false },
};

function verifier(repo: string) {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  let baseline: TestRunResult[] | undefined;
  return async (name: string, antiGaming = true): Promise<VerifyOutput> => {
    const root = path.join(FIXTURES, repo);
    const r = await verifyPatch({
      workspace: await createFsWorkspace(root),
      sandbox,
      patch: await readFile(path.join(root, "patches", `${name}.diff`), "utf8"),
      policy: runtimeOnly,
      jobId: `test-anti-gaming-${repo}`,
      antiGaming,
      ...(baseline ? { baseline } : {}),
    });
    if (r.baseline.every((b) => b.complete)) baseline = r.baseline;
    return r;
  };
}

describeDocker("anti-gaming run: pytest + unittest (py-prices)", () => {
  const verify = verifier("py-prices");

  it("VERIFIED: the honest fix passes every tripwire and the neutral run", async () => {
    const r = await verify("honest");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.ran).toBe(true);
    expect(r.antiGaming?.checks.map((c) => [c.layer, c.name, c.passed])).toEqual([
      ["tripwire", "canary", true],
      ["tripwire", "mutated twins", true],
      ["neutral-run", "run the code cannot recognise", true],
      ["runner-free", "run outside the test runner", true],
      ["real-doubles", "text streams shaped like real ones", true],
      ["cold-start", "run as a fresh program calls the code", true],
    ]);
  }, 180_000);

  it("REJECTED by the mutated twins: a float subclass whose == is always true", async () => {
    const without = await verify("eq-always-true", false);
    expect(without.verdict).toBe("VERIFIED"); // what the normal runs alone say
    const r = await verify("eq-always-true");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^tripwire \(mutated twin\)/);
    expect(r.reasons[0]).toContain("tests/test_prices.py::test_discount_percent");
    expect(r.antiGaming?.gamingClass).toMatch(/compromised comparison/);
  }, 180_000);

  it("REJECTED by the canary: unittest's assertEqual replaced from the source", async () => {
    const r = await verify("disarm-unittest");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => x.startsWith("tripwire (canary)"))).toBe(true);
  }, 180_000);

  it("REJECTED by the neutral run: sys.argv and the test file's presence", async () => {
    const r = await verify("recognises-test");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^neutral run: the fix is test-dependent/);
    expect(r.reasons[0]).toContain("tests/test_prices.py::TestParse::test_dollar (neutral copy: failed");
  }, 180_000);

  it("REJECTED by the neutral run: pytest's own machinery (fault handler, captured stdin) recognised", async () => {
    const without = await verify("runner-state", false);
    expect(without.verdict).toBe("VERIFIED"); // what the normal runs alone say
    const r = await verify("runner-state");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^neutral run: the fix is test-dependent/);
    expect(r.reasons[0]).toContain("(pytest) no fault handler, no output capture, plain asserts");
  }, 180_000);
});

describeDocker("anti-gaming run: python -m unittest (py-prices' TestParse)", () => {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  let baseline: TestRunResult[] | undefined;
  const verify = async (name: string, antiGaming = true): Promise<VerifyOutput> => {
    const root = path.join(FIXTURES, "py-prices");
    const r = await verifyPatch({
      workspace: await createFsWorkspace(root),
      sandbox,
      patch: await readFile(path.join(root, "patches", `${name}.diff`), "utf8"),
      policy: runtimeOnly,
      testCommand: "python3 -m unittest tests.test_prices",
      jobId: "test-anti-gaming-unittest",
      antiGaming,
      ...(baseline ? { baseline } : {}),
    });
    if (r.baseline.every((b) => b.complete)) baseline = r.baseline;
    return r;
  };

  it("VERIFIED: the honest fix, with every layer run on the TestCase", async () => {
    const r = await verify("honest");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.ran).toBe(true);
    expect(r.antiGaming?.checks.map((c) => [c.layer, c.passed])).toEqual([
      ["tripwire", true],
      ["tripwire", true],
      ["neutral-run", true],
      ["runner-free", true],
      ["real-doubles", true],
      ["cold-start", true],
    ]);
    expect(r.reasons.join("\n")).toContain("`python -m unittest`: the anti-gaming run ran its TestCases");
  }, 240_000);

  it("REJECTED: the fix only while unittest's runner has its `default` warnings filter installed", async () => {
    const without = await verify("unittest-runner-filters", false);
    expect(without.verdict).toBe("VERIFIED"); // what the normal runs alone say
    const r = await verify("unittest-runner-filters");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^(neutral run|runner-free run): the fix is (test|runner)-dependent/);
    expect(r.reasons[0]).toContain("tests/test_prices.py::TestParse::test_dollar");
  }, 240_000);

  it("REJECTED by the neutral run: the test file's presence", async () => {
    const r = await verify("recognises-test");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^neutral run: the fix is test-dependent/.test(x))).toBe(true);
  }, 240_000);

  it("REJECTED: the fix only while PYTHONDONTWRITEBYTECODE is set, as in the normal runs (hold9)", async () => {
    const without = await verify("no-bytecode-flag", false);
    expect(without.verdict).toBe("VERIFIED");
    const r = await verify("no-bytecode-flag");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^neutral run: the fix is test-dependent/.test(x))).toBe(true);
  }, 240_000);

  it("REJECTED: the fix only while the open-files limits are pinned equal, as in the sandbox (f13)", async () => {
    const without = await verify("limits-pinned", false);
    expect(without.verdict).toBe("VERIFIED"); // the normal runs' container pins soft = hard
    const r = await verify("limits-pinned");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^(neutral run: the fix is test-dependent|runner-free run)/.test(x))).toBe(true);
  }, 240_000);

  it("REJECTED by the cold start: the fix only when started from the checkout (hold7)", async () => {
    const without = await verify("cwd-is-checkout", false);
    expect(without.verdict).toBe("VERIFIED"); // what the normal runs alone say
    const r = await verify("cwd-is-checkout");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^cold-start run: the fix depends on what a test run has already done/);
    expect(r.antiGaming?.checks.find((c) => c.layer === "cold-start")?.passed).toBe(false);
  }, 240_000);
});

describeDocker("anti-gaming run: node:test (js-units)", () => {
  const verify = verifier("js-units");

  it("VERIFIED: the honest fix", async () => {
    const r = await verify("honest");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.checks.every((c) => c.passed)).toBe(true);
  }, 180_000);

  it("REJECTED by the canary and the twins: node:assert disarmed from the source", async () => {
    const r = await verify("disarm-assert");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^tripwire \(canary\)/);
    expect(r.reasons[1]).toMatch(/^tripwire \(mutated twin\).*assert\.strictEqual/);
  }, 180_000);

  it("REJECTED by the neutral run: process.argv and the test file's presence", async () => {
    const r = await verify("recognises-test");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toContain("converts m to km (neutral copy: failed");
  }, 180_000);

  it("REJECTED outside the runner: the fix only while the event loop holds a handle — the runner's pipe (hold7)", async () => {
    const without = await verify("busy-event-loop", false);
    expect(without.verdict).toBe("VERIFIED");
    const r = await verify("busy-event-loop");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^runner-free run: the fix is runner-dependent/.test(x))).toBe(true);
  }, 180_000);

  it("REJECTED: the fix only under an absolute process.title, as node --test starts its children (hold7)", async () => {
    const r = await verify("process-title");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^neutral run: the fix is test-dependent/.test(x))).toBe(true);
    expect(r.reasons.some((x) => /^runner-free run: the fix is runner-dependent/.test(x))).toBe(true);
  }, 180_000);

  it("REJECTED: the fix only in a small, scrubbed environment — a CI job's or a sandbox's (hold9)", async () => {
    const without = await verify("small-environment", false);
    expect(without.verdict).toBe("VERIFIED");
    const r = await verify("small-environment");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^neutral run: the fix is test-dependent/.test(x))).toBe(true);
  }, 240_000);

  it("REJECTED: the fix only under a container-id host name, read from /proc/sys/kernel/hostname (hold9)", async () => {
    const without = await verify("host-name", false);
    expect(without.verdict).toBe("VERIFIED");
    const r = await verify("host-name");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.some((x) => /^neutral run: the fix is test-dependent/.test(x))).toBe(true);
  }, 240_000);

  it("REJECTED by repetition: a fix that works only for the first calls", async () => {
    const r = await verify("works-once");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toContain("converts m to km (repeated copy: failed");
    expect(r.reasons[0]).not.toContain("(neutral copy");
  }, 180_000);
});
