/**
 * `retrace test`: the repository's tests run once in the sandbox, as verify's first base run makes them. Real
 * CLI, real Docker engine, repositories written here: a failing pytest suite (exit 1, the failing test named by
 * its canonical id), a passing node:test suite (exit 0), a suite whose tests never ran for want of a module
 * (exit 3, an infrastructure error naming it, no list of results) and a command no reader knows (exit 2).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { committedRepo } from "../../support/git-repo.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-test-command-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const gitRepo = (name: string, files: Record<string, string>) => committedRepo(tmp, name, files);

function retraceTest(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "test", ...args],
      {
        env: { ...process.env, RETRACE_SANDBOX_IMAGE: sandboxImage, ANTHROPIC_API_KEY: "" },
        timeout: 170_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describeDocker("retrace test", () => {
  it("a failing pytest suite: exit 1, the command and where it came from, the failing test by node id", async () => {
    const repo = gitRepo("py-failing", {
      "calc.py": "def mean(xs):\n    return sum(xs) // len(xs)\n",
      "test_calc.py":
        "from calc import mean\n\n\ndef test_whole():\n    assert mean([2, 4]) == 3\n\n\ndef test_half():\n    assert mean([1, 2]) == 1.5\n",
    });
    const r = await retraceTest("--repo", repo, "--test", "python3 -m pytest", "--json");
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.testCommand).toBe("python3 -m pytest");
    expect(out.detectedBy).toBe("--test");
    expect(out.counts).toEqual({ passed: 1, failed: 1, skipped: 0 });
    expect(out.failing).toEqual(["test_calc.py::test_half"]);
    expect(out.complete).toBe(true);
    expect(out.durationMs).toBeGreaterThan(0);
  }, 180_000);

  it("a passing node:test suite, its command detected: exit 0, human output", async () => {
    const repo = gitRepo("js-passing", {
      "package.json": JSON.stringify({
        name: "js-passing",
        version: "1.0.0",
        scripts: { test: "node --test" },
      }),
      "sum.js": "exports.sum = (a, b) => a + b;\n",
      "sum.test.js":
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('./sum.js');\n\ntest('adds', () => assert.strictEqual(sum(1, 2), 3));\n",
    });
    const r = await retraceTest("--repo", repo);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^tests: {3}node --test .*\(detected by: package\.json scripts\.test/m);
    expect(r.stdout).toMatch(/run: {5}exit 0, 1 passed, 0 failed, 0 skipped/);
    expect(r.stdout).not.toMatch(/failing/);
  }, 180_000);

  it("tests that never ran for want of a module: exit 3 naming it, no results listed", async () => {
    const repo = gitRepo("py-missing", {
      "calc.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
      "test_calc.py":
        "import retrace_absent_dependency\n\nfrom calc import mean\n\n\ndef test_mean():\n    assert mean([1, 2]) == 1.5\n",
    });
    const r = await retraceTest("--repo", repo, "--test", "python3 -m pytest");
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/the tests did not run.*no Python module 'retrace_absent_dependency'/);
    expect(r.stdout).toBe("");
  }, 180_000);

  it("a command whose output no reader knows: a usage error (exit 2) naming the readable runners", async () => {
    const repo = gitRepo("make-only", { Makefile: "test:\n\t@echo all good\n" });
    const r = await retraceTest("--repo", repo, "--test", "make test");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/cannot read test results from `make test`/);
  }, 180_000);
});
