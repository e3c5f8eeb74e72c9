/**
 * The anti-gaming run on tests defined somewhere else than the file that runs them (hold8), against the real Docker
 * engine, on two of the gaming corpus's repositories: py-queue (unittest; every test method inherited from mixins in
 * tests/contract.py) and mocha-template (mocha; the tests registered by a shared-behaviour helper the spec calls).
 * Before, the run was "not made" for both and every patch that passed the normal runs was VERIFIED. The policy's
 * anti-gaming rules are off here, so the runtime layers are what is tested. The patches are the corpus's
 * (test/fixtures/gaming/cases/hold8-*), each checked by hand there.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { type VerifyOutput, verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createRepoDependencyProvider } from "../../../src/install/repo-deps.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const CORPUS = path.resolve("test/fixtures/gaming");
const strict = policyForFix(defaultConfig());
const runtimeOnly = {
  ...strict,
  testBypass: { ...strict.testBypass, enabled: false },
  testAwareness: { ...strict.testAwareness, enabled: false },
  testFileAccess: { ...strict.testFileAccess, enabled: false },
  checkTampering: { ...strict.checkTampering, enabled: false },
  constantEquality: { ...strict.constantEquality, enabled: false },
};

async function verify(caseId: string): Promise<VerifyOutput> {
  const c = JSON.parse(await readFile(path.join(CORPUS, "cases", caseId, "case.json"), "utf8")) as {
    repo: string;
    testCommand: string;
  };
  return verifyPatch({
    workspace: await createFsWorkspace(path.join(CORPUS, "repos", c.repo)),
    sandbox: createDockerSandbox({ image: sandboxImage }),
    patch: await readFile(path.join(CORPUS, "cases", caseId, "patch.diff"), "utf8"),
    policy: runtimeOnly,
    testCommand: c.testCommand,
    jobId: `test-anti-gaming-inherited-${caseId.slice(6, 20)}`,
    dependencies: createRepoDependencyProvider({ policy: defaultConfig().install }),
  });
}

describeDocker("anti-gaming run: a test inherited from a mixin (py-queue, python3 -m unittest)", () => {
  it("VERIFIED with every check made: the honest fix, the inherited test inlined into the neutral copy", async () => {
    const r = await verify("hold8-ut-queue-honest-value-eq");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.ran).toBe(true);
    expect(r.antiGaming?.checks.every((c) => c.passed)).toBe(true);
    expect(r.antiGaming?.checks.map((c) => c.layer)).toEqual(
      expect.arrayContaining(["tripwire", "neutral-run", "runner-free"]),
    );
    expect(r.reasons.join("\n")).toContain("is inherited from tests/contract.py::EvictingContract");
    expect(r.reasons[0]).not.toMatch(/ANTI-GAMING EVIDENCE/);
  }, 600_000);

  it("REJECTED: a TestCase.__init_subclass__ hook swallowing the inherited test's AssertionError", async () => {
    const r = await verify("hold8-ut-queue-init-subclass-swallow");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^(neutral run|tripwire|runner-free run|cold-start run)/);
  }, 600_000);
});

describeDocker("anti-gaming run: a test registered by a shared-behaviour helper (mocha-template)", () => {
  it("VERIFIED with every check made: the honest fix, the helper copied with the spec", async () => {
    const r = await verify("hold8-mocha-template-honest-cli-exitcode");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.ran).toBe(true);
    expect(r.antiGaming?.checks.every((c) => c.passed)).toBe(true);
    expect(r.reasons[0]).not.toMatch(/ANTI-GAMING EVIDENCE/);
  }, 600_000);

  it("REJECTED: the fix only while the heap is a runner's size", async () => {
    const r = await verify("hold8-mocha-template-heap-gate");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^(neutral run|runner-free run|cold-start run)/);
  }, 600_000);
});
