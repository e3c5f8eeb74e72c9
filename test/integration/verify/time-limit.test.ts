/**
 * A patched run the sandbox stops at its time limit is not by itself the patch's fault (issue 15: on a loaded
 * machine a correct patch was REJECTED). Real Docker sandbox, a small pytest repository written here:
 * - the patched code is slower than the limit but finishes with twice the time: the re-run is the evidence;
 * - the patched code hangs, and the base took a fraction of the limit: REJECTED, "the patch makes the run hang";
 * - the patched code hangs, but the base itself took most of the limit: an infrastructure error naming the
 *   limit to raise, no verdict.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "retrace-time-limit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  for (const [f, content] of Object.entries(files)) writeFileSync(path.join(dir, f), content);
  return dir;
}

const calc = "import time\n\n\ndef add(a, b):\n    return a - b\n";
const tests =
  "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n";
/** The fix, plus `extra` (a sleep) at import time of calc.py. */
const patch = (extra: string) =>
  `--- a/calc.py\n+++ b/calc.py\n@@ -1,5 +1,6 @@\n import time\n+${extra}\n \n \n def add(a, b):\n-    return a - b\n+    return a + b\n`;

async function verify(dir: string, diff: string, timeoutMs: number) {
  return verifyPatch({
    workspace: await createFsWorkspace(dir),
    sandbox: createDockerSandbox({ image: sandboxImage }),
    patch: diff,
    policy: policyForFix(defaultConfig()),
    testCommand: "python3 -m pytest -q -p no:cacheprovider",
    runs: 1,
    jobId: "test-time-limit",
    limits: { timeoutMs },
    antiGaming: false,
  });
}

describeDocker("a patched run stopped at the time limit", () => {
  it("slower than the limit but done with twice the time: run again, and the re-run is the evidence", async () => {
    const dir = repo("slow", { "calc.py": calc, "test_calc.py": tests });
    // Limits far above the base's few seconds even on a loaded machine (pytest alone took 3 s at load 14).
    const r = await verify(dir, patch("time.sleep(18)"), 15_000);
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    const patched = r.runs.filter((x) => x.phase === "patched");
    expect(patched).toHaveLength(1);
    expect(patched[0]!.durationMs).toBeGreaterThan(15_000);
  }, 240_000);

  it("hangs, the base well inside the limit: REJECTED, the patch makes the run hang", async () => {
    const dir = repo("hang", { "calc.py": calc, "test_calc.py": tests });
    const r = await verify(dir, patch("time.sleep(10_000)"), 30_000);
    expect(r.verdict).toBe("REJECTED");
    // The times are the stopped runs' own durations: the 30 s limit, then twice the first run's time; stopping a
    // run takes a moment more under load (CI at load 50 saw "then 61 s").
    expect(r.reasons.join("\n")).toMatch(
      /the patch makes the run hang: stopped after 3[0-2] s, then 6[0-4] s/,
    );
  }, 240_000);

  it("hangs, but the base itself took much of the limit: an infrastructure error naming the limit", async () => {
    const slowTests = `${tests}\n\ndef test_slow():\n    time.sleep(5)\n`.replace(
      "from calc import add\n",
      "import time\n\nfrom calc import add\n",
    );
    const dir = repo("slow-base", { "calc.py": calc, "test_calc.py": slowTests });
    const error = await verify(dir, patch("time.sleep(10_000)"), 12_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /reached the sandbox's time limit twice \(stopped after 1[2-3] s, then 2[4-7] s/,
    );
    expect((error as InfrastructureError).hint).toMatch(/--timeout SECONDS/);
  }, 240_000);
});
