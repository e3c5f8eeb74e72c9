/**
 * The anti-gaming run (tripwires and the neutral run) against the real Docker engine on three small
 * repositories written for it, one per JavaScript runner: jest-clamp (jest 29), vitest-words (vitest 2) and
 * mocha-range (mocha 10, node:assert). Their node_modules come the normal way: `npm ci --ignore-scripts` from
 * each repository's package-lock.json in the install container, through Retrace's registry proxy, cached
 * (warmed in beforeAll so each verification below stays short).
 *
 * Each gaming patch changes a source file only and really makes the failing tests pass, while the bug stays
 * (checked by hand before Retrace saw it, 2026-11-23: the patched tree's tests pass — `npx jest`, `npx vitest
 * run`, `npx mocha` — and a plain `node` call outside any runner, with test/ removed, still shows the bug:
 * clamp(99, 1, 7) → 1, wordCount('a   b') → 4, range(2, 5) → [2,3,4]; the honest fixes give 7, 2 and
 * [2,3,4,5]). The policy gate's static rules are turned off here so the runtime layers are what is tested;
 * with them on, most of these are BLOCKED earlier.
 *
 * One verification is some ten runner starts in the sandbox (the failing and patched runs, the neutral run, each
 * twin and the canary): vitest's took 60 s at load 10 in a fresh-clone CI run, so each case gets 240 s.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { checkJsDependencies } from "../../../src/fix/dependencies.ts";
import type { TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { type VerifyOutput, verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createRepoDependencyProvider, installRepoDependencies } from "../../../src/install/repo-deps.ts";
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
const deps = { image: sandboxImage };

function verifier(repo: string, testCommand: string) {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  const root = path.join(FIXTURES, repo);
  let baseline: TestRunResult[] | undefined;
  const verify = async (name: string, antiGaming = true): Promise<VerifyOutput> => {
    const r = await verifyPatch({
      workspace: await createFsWorkspace(root),
      sandbox,
      patch: await readFile(path.join(root, "patches", `${name}.diff`), "utf8"),
      policy: runtimeOnly,
      testCommand,
      jobId: `test-anti-gaming-${repo}`,
      dependencies: createRepoDependencyProvider(deps),
      antiGaming,
      ...(baseline ? { baseline } : {}),
    });
    if (r.baseline.every((b) => b.complete)) baseline = r.baseline;
    return r;
  };
  /** Installs (or finds cached) the repository's node_modules in the install container. */
  const warm = async () => {
    const workspace = await createFsWorkspace(root);
    const js = await checkJsDependencies(workspace);
    await installRepoDependencies(workspace, js!, deps);
  };
  return { verify, warm };
}

const layers = (r: VerifyOutput) => r.antiGaming?.checks.map((c) => [c.layer, c.name, c.passed]);

describeDocker("anti-gaming run: jest (jest-clamp)", () => {
  const { verify, warm } = verifier("jest-clamp", "npx jest test/clamp.test.js");
  beforeAll(warm, 600_000);

  it("VERIFIED: the honest fix passes every tripwire and the neutral run", async () => {
    const r = await verify("honest");
    expect(r.verdict).toBe("VERIFIED");
    expect(layers(r)).toEqual([
      ["tripwire", "canary", true],
      ["tripwire", "mutated twins", true],
      ["neutral-run", "run the code cannot recognise", true],
      ["runner-free", "run outside the test runner", true],
      ["cold-start", "run as a fresh program calls the code", true],
    ]);
  }, 240_000);

  it("REJECTED by the tripwires: expect's toBe replaced from the source (expect.extend)", async () => {
    const r = await verify("extend-tobe");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^tripwire \((canary|mutated twin)\)/);
    expect(r.antiGaming?.checks.filter((c) => c.layer === "tripwire").every((c) => c.passed)).toBe(false);
  }, 240_000);

  it("REJECTED by the neutral run: clamps right only when process.argv names jest", async () => {
    const without = await verify("argv", false);
    expect(without.verdict).toBe("VERIFIED"); // what the normal runs alone say
    const r = await verify("argv");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^neutral run: the fix is test-dependent/);
    expect(r.reasons[0]).toContain("lowers a value above the range to the maximum");
  }, 90_000);
});

describeDocker("anti-gaming run: vitest (vitest-words)", () => {
  const { verify, warm } = verifier("vitest-words", "npx vitest run test/words.test.js");
  beforeAll(warm, 600_000);

  it("VERIFIED: the honest fix", async () => {
    const r = await verify("honest");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.checks.every((c) => c.passed)).toBe(true);
  }, 240_000);

  it("REJECTED by the tripwires: vitest's expect.extend overriding toBe from the source", async () => {
    const r = await verify("extend-tobe");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^tripwire \((canary|mutated twin)\)/);
  }, 240_000);

  it("REJECTED by the neutral run: counts right only while test/words.test.js exists", async () => {
    const r = await verify("testfile-exists");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^neutral run: the fix is test-dependent/);
    expect(r.reasons[0]).toContain("counts words separated by runs of whitespace");
  }, 240_000);
});

describeDocker("anti-gaming run: mocha (mocha-range)", () => {
  const { verify, warm } = verifier("mocha-range", "npx mocha test/range.test.js");
  beforeAll(warm, 600_000);

  it("VERIFIED: the honest fix", async () => {
    const r = await verify("honest");
    expect(r.verdict).toBe("VERIFIED");
    expect(r.antiGaming?.checks.every((c) => c.passed)).toBe(true);
  }, 240_000);

  it("REJECTED by the canary and the twins: node:assert's deepStrictEqual disarmed from the source", async () => {
    const r = await verify("assert-noop");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^tripwire \((canary|mutated twin)\)/);
    expect(r.reasons.join("\n")).toMatch(/deepStrictEqual/);
  }, 240_000);

  it("REJECTED by the neutral run: counts to the end only when the stack names range.test.js", async () => {
    const r = await verify("stack-testfile");
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons[0]).toMatch(/^neutral run: the fix is test-dependent/);
  }, 240_000);
});
