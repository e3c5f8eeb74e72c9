/**
 * `retrace verify` as a process: exit codes 0 (VERIFIED), 1 (REJECTED/BLOCKED), 2 (usage), 3 (no Docker engine).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { describeDocker } from "../../support/docker.ts";

const run = promisify(execFile);
const BIN = path.resolve("bin/retrace.mjs");
const PY = path.resolve("test/fixtures/repos/py-stats");

async function retrace(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      timeout: 110_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("retrace verify: usage and infrastructure errors", () => {
  it("exits 2 with a hint for a missing patch file or a bad --runs", async () => {
    const missing = await retrace(["verify", "--repo", PY, "--patch", path.join(PY, "nope.diff")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the patch .*nope.diff: no such file/);
    const runs = await retrace([
      "verify",
      "--repo",
      PY,
      "--patch",
      path.join(PY, "patches/correct.diff"),
      "--runs",
      "0",
    ]);
    expect(runs.code).toBe(2);
    expect(runs.stderr).toMatch(/--runs must be an integer from 1 to 10/);
    const repo = await retrace([
      "verify",
      "--repo",
      "/nonexistent/repo",
      "--patch",
      path.join(PY, "patches/correct.diff"),
    ]);
    expect(repo.code).toBe(2);
    expect(repo.stderr).toMatch(/repository directory not found/);
  }, 60_000);

  it("exits 3 when the Docker engine cannot be reached, and 1 (BLOCKED) without needing it", async () => {
    const env = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };
    const down = await retrace(
      ["verify", "--repo", PY, "--patch", path.join(PY, "patches/correct.diff")],
      env,
    );
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/Docker/);
    const blocked = await retrace(
      ["verify", "--repo", PY, "--patch", path.join(PY, "patches/skip-test.diff"), "--json"],
      env,
    );
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stdout).verdict).toBe("BLOCKED");
  }, 60_000);
});

describeDocker("retrace verify: against the engine", () => {
  it("prints the JSON result and exits 0 for a verified patch", async () => {
    const r = await retrace([
      "verify",
      "--repo",
      PY,
      "--patch",
      path.join(PY, "patches/correct.diff"),
      "--runs",
      "1",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      verdict: "VERIFIED",
      failToPass: ["tests/test_stats.py::test_median_even"],
      passToFail: [],
      stillFailing: [],
      testCommand: "python3 -m pytest",
      detectedBy: "pytest.ini",
    });
    expect(out.runs).toHaveLength(2);
    expect(out.baseline).toBeUndefined();
    expect(r.stderr).toMatch(/base run 1\/1: 6 passed, 1 failed/);
  }, 120_000);

  it("exits 1 for a rejected patch and says why", async () => {
    const r = await retrace([
      "verify",
      "--repo",
      PY,
      "--patch",
      path.join(PY, "patches/no-op.diff"),
      "--runs",
      "1",
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^verdict: REJECTED/);
    expect(r.stdout).toMatch(/still failing \(1\):\n {2}tests\/test_stats.py::test_median_even/);
  }, 120_000);
});
