/**
 * A deciding test that is flaky on the UNPATCHED base is no verdict against the patch (issue 13's environment
 * rule: hold13's honest py-poller-honest-clamp was REJECTED because the base's timing test passed once under
 * load). Real Docker sandbox, small pytest repositories written here. What varies from run to run on a real host
 * (the time, the load) is made deterministic: each sandbox run gets a file `run-seed` holding its number within
 * its phase (base runs and patched runs counted apart), and the test (or the patch) reads it — so the sequence of
 * outcomes is known in advance:
 * - the base's test passes on base runs 2 and 4: still flaky after the re-runs → FlakyBaseError (exit 4);
 * - the base's test passes on base run 2 only: the re-runs decide (it fails on the base) → VERIFIED;
 * - the base fails every time and the patch makes the test pass only on odd runs → REJECTED, "the patch makes … flaky".
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { FlakyBaseError } from "../../../src/core/errors.ts";
import type { Sandbox } from "../../../src/core/ports/sandbox.ts";
import { BASE_RERUNS, verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "retrace-flaky-base-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const calc = "def add(a, b):\n    return a - b\n";
/** The test passes on the base when its run's number is in `lucky` (a timing test that passes under some load). */
const tests = (lucky: number[]) =>
  `import pathlib\n\nfrom calc import add\n\n\ndef seed():\n    p = pathlib.Path(__file__).parent / "run-seed"\n    return int(p.read_text()) if p.exists() else 0\n\n\ndef test_add():\n    assert add(2, 3) == 5 or seed() in ${JSON.stringify(lucky)}\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n`;
const fix =
  "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n";
/** Right on odd-numbered patched runs only: a patch that makes the deciding test flaky. */
const flakyFix =
  '--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,7 @@\n+import pathlib\n+\n+\n def add(a, b):\n-    return a - b\n+    p = pathlib.Path(__file__).parent / "run-seed"\n+    n = int(p.read_text()) if p.exists() else 0\n+    return a + b if n % 2 == 1 else a - b\n';

function repo(name: string, lucky: number[]): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "calc.py"), calc);
  writeFileSync(path.join(dir, "test_calc.py"), tests(lucky));
  return dir;
}

/** The real Docker sandbox, each run given `run-seed`: its number within its phase (patched runs carry calc.py). */
function seeded(): Sandbox {
  const real = createDockerSandbox({ image: sandboxImage });
  const count = { base: 0, patched: 0 };
  return {
    ...real,
    run: (request) => {
      const phase = request.input?.files?.["calc.py"] !== undefined ? "patched" : "base";
      count[phase] += 1;
      const input = request.input ?? { dir: tmp };
      return real.run({
        ...request,
        input: { ...input, files: { ...input.files, "run-seed": String(count[phase]) } },
      });
    },
    ...(real.release ? { release: real.release.bind(real) } : {}),
  };
}

async function verify(dir: string, patch: string) {
  return verifyPatch({
    workspace: await createFsWorkspace(dir),
    sandbox: seeded(),
    patch,
    policy: policyForFix(defaultConfig()),
    testCommand: "python3 -m pytest -q -p no:cacheprovider",
    runs: 2,
    jobId: "test-flaky-base",
    antiGaming: false,
  });
}

describeDocker("a deciding test flaky on the unpatched base", () => {
  it("still flaky in the base's re-runs: no verdict — FlakyBaseError naming the test, its counts and what to do", async () => {
    const error = await verify(repo("still-flaky", [2, 4]), fix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlakyBaseError);
    const e = error as FlakyBaseError;
    expect(e.exitCode).toBe(4);
    expect(e.flaky).toEqual([{ id: "test_calc.py::test_add", counts: { failed: 3, passed: 2 } }]);
    expect(e.message).toMatch(/UNPATCHED base/);
    expect(e.hint).toMatch(/quarantine or fix the flaky test/);
  }, 300_000);

  it("one lucky base pass, then the re-runs agree: judged on them — VERIFIED, saying so", async () => {
    const r = await verify(repo("settled", [2]), fix);
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    expect(r.failToPass).toEqual(["test_calc.py::test_add"]);
    expect(r.runs.filter((x) => x.phase === "base")).toHaveLength(2 + BASE_RERUNS);
    expect(r.reasons.join("\n")).toMatch(/different outcomes on the unpatched base/);
  }, 300_000);

  it("a stably failing base and a patch that makes the test flaky: REJECTED, the patch's doing", async () => {
    const r = await verify(repo("patch-flaky", []), flakyFix);
    expect(r.verdict, r.reasons.join("; ")).toBe("REJECTED");
    expect(r.unstable.map((u) => `${u.id} ${u.phase}`)).toEqual(["test_calc.py::test_add patched"]);
    expect(r.reasons.join("\n")).toMatch(/the patch makes 1 test\(s\) flaky/);
  }, 300_000);
});
