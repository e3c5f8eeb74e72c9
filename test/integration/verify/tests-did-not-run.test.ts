/**
 * A base run that never reached the tests is not evidence (issue 15): `retrace verify` on a repository whose
 * tests import a third-party module the sandbox lacks ends with exit 3 and says the tests did not run — never
 * REJECTED. A test importing a function of the repository that only the patch adds is the code's failure, and
 * stays evidence (VERIFIED when the patch adds it). Real CLI, real Docker engine.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { committedRepo } from "../../support/git-repo.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-did-not-run-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const gitRepo = (name: string, files: Record<string, string>) => committedRepo(tmp, name, files);

function verify(
  repo: string,
  patch: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const patchFile = path.join(tmp, `${path.basename(repo)}.diff`);
  writeFileSync(patchFile, patch);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "verify", "--repo", repo, "--patch", patchFile, "--test", "python3 -m pytest", "--runs", "1"],
      {
        env: { ...process.env, RETRACE_SANDBOX_IMAGE: sandboxImage, ANTHROPIC_API_KEY: "" },
        timeout: 170_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

const fixMedian =
  "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,6 @@\n def mean(xs):\n     return sum(xs) / len(xs)\n+\n+\n+def median(xs):\n+    return sorted(xs)[len(xs) // 2]\n";

describeDocker("tests that did not run are not evidence", () => {
  it("a missing third-party module: exit 3, 'the tests did not run', the module named — not REJECTED", async () => {
    const repo = gitRepo("third-party", {
      "calc.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
      "test_calc.py":
        "import retrace_absent_dependency\n\nfrom calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n",
    });
    const r = await verify(repo, fixMedian);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/the tests did not run/);
    expect(r.stderr).toMatch(/no Python module 'retrace_absent_dependency'/);
    expect(r.stderr).toMatch(
      /declare it where the repository's tests get their requirements.*sandbox\.image/,
    );
    expect(r.stderr).not.toMatch(/\u001b\[/);
    expect(r.stdout).not.toMatch(/REJECTED/);
  }, 180_000);

  it("a function of the repository that only the patch adds: the base's ImportError is evidence, VERIFIED", async () => {
    const repo = gitRepo("own-module", {
      "calc.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
      "test_calc.py": "from calc import median\n\n\ndef test_median():\n    assert median([3, 1, 2]) == 2\n",
    });
    const r = await verify(repo, fixMedian);
    expect(r.stdout, r.stderr).toMatch(/VERIFIED/);
    expect(r.code).toBe(0);
  }, 180_000);
});
