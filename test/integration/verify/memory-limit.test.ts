/**
 * A run the sandbox's memory limit ends (the kernel's OOM killer in its container) is the sandbox's size, not a
 * finding about the code: an infrastructure error that names the limit and how to raise it, never REJECTED (issue
 * 15: changesets' build ran out of memory at the 2 GiB default, smaller than the repository's CI runner). Real
 * Docker sandbox, a small pytest repository written here, a 256 MiB limit:
 * - the patched code allocates past the limit while the tests import it: no verdict, the error names 256 MiB;
 * - a test's own helper process needs more than the limit (the runner survives and reports a failure): no verdict;
 * - the base itself allocates past it: no verdict either;
 * - node's JavaScript heap, which Node sizes from the sandbox's memory, runs out (exit 134, no OOM kill): no verdict.
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

const tmp = mkdtempSync(path.join(tmpdir(), "retrace-memory-limit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  for (const [f, content] of Object.entries(files)) writeFileSync(path.join(dir, f), content);
  return dir;
}

const calc = "import subprocess\nimport sys\n\n\ndef add(a, b):\n    return a - b\n";
const tests =
  "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n";
/** 600 MiB written byte by byte: every page touched, past a 256 MiB limit. */
const HOG = "b'x' * (600 * 1024 * 1024)";
/** The fix, plus `extra` at import time of calc.py. */
const patch = (extra: string) =>
  `--- a/calc.py\n+++ b/calc.py\n@@ -1,6 +1,7 @@\n import subprocess\n import sys\n+${extra}\n \n \n def add(a, b):\n-    return a - b\n+    return a + b\n`;

async function verify(
  dir: string,
  diff: string,
  testCommand = "python3 -m pytest -q -p no:cacheprovider",
  memoryMb = 256,
) {
  return verifyPatch({
    workspace: await createFsWorkspace(dir),
    sandbox: createDockerSandbox({ image: sandboxImage }),
    patch: diff,
    policy: policyForFix(defaultConfig()),
    testCommand,
    runs: 1,
    jobId: "test-memory-limit",
    limits: { memoryMb, workspaceMb: 64, timeoutMs: 120_000 },
    antiGaming: false,
  });
}

function expectMemoryError(error: unknown, phase: string) {
  expect(error, String(error)).toBeInstanceOf(InfrastructureError);
  expect((error as Error).message).toMatch(
    new RegExp(
      `a ${phase} run of \`python3 -m pytest.*\` was killed for reaching the sandbox's memory limit of 256 MiB`,
    ),
  );
  expect((error as InfrastructureError).hint).toMatch(/sandbox\.limits\.memoryMb/);
  expect((error as InfrastructureError).hint).toMatch(/RETRACE_SANDBOX_MAX_LIMITS=memoryMb=N/);
}

describeDocker("a run that reaches the sandbox's memory limit", () => {
  it("the patched code allocates past it: an infrastructure error naming the limit, not REJECTED", async () => {
    const dir = repo("patched", { "calc.py": calc, "test_calc.py": tests });
    const error = await verify(dir, patch(`_HOG = ${HOG}`)).catch((e: unknown) => e);
    expectMemoryError(error, "patched");
  }, 240_000);

  it("a test's own process is killed, the runner survives and reports a failure: still no verdict", async () => {
    // The suite starts a helper process that needs more than the limit: pytest reports the test failed (the
    // helper's exit -9), a failure any run with this limit has, patch or not.
    const helper = `import subprocess\nimport sys\n\n\ndef test_helper():\n    assert subprocess.run([sys.executable, "-c", "${HOG}"]).returncode == 0\n`;
    const dir = repo("child", { "calc.py": calc, "test_calc.py": tests, "test_helper.py": helper });
    const error = await verify(dir, patch("# fixed")).catch((e: unknown) => e);
    expectMemoryError(error, "base");
  }, 240_000);

  it("the base allocates past it: an infrastructure error naming the limit", async () => {
    const dir = repo("base", { "calc.py": `${calc}\n\n_HOG = ${HOG}\n`, "test_calc.py": tests });
    const error = await verify(dir, patch("# fixed")).catch((e: unknown) => e);
    expectMemoryError(error, "base");
  }, 240_000);
});

const jsRepo = {
  "package.json": JSON.stringify({ name: "heap", version: "1.0.0", private: true }),
  "calc.js": "exports.add = (a, b) => a - b;\n",
  "calc.test.js":
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./calc.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n",
};
/** Live objects without end: V8's heap (half of the sandbox's 512 MiB) runs out before the kernel's limit. */
const JS_HOG = "const hog = []; for (;;) hog.push({ n: hog.length, s: 'x'.repeat(64) + hog.length });";

describeDocker("node's heap, sized from the sandbox's memory, runs out", () => {
  it("the patched code exhausts V8's heap: an infrastructure error naming the limit, not REJECTED", async () => {
    const dir = repo("heap", jsRepo);
    const diff = `--- a/calc.js\n+++ b/calc.js\n@@ -1 +1,2 @@\n-exports.add = (a, b) => a - b;\n+${JS_HOG}\n+exports.add = (a, b) => a + b;\n`;
    const error = await verify(dir, diff, "node --test", 512).catch((e: unknown) => e);
    expect(error, String(error)).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /a patched run of `node --test` was killed for reaching the sandbox's memory limit of 512 MiB/,
    );
    expect((error as InfrastructureError).hint).toMatch(/sandbox\.limits\.memoryMb/);
  }, 240_000);
});
