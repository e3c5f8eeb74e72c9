/**
 * `--budget-usd` goes through the one clamp every surface uses: past the operator's maximum for one job
 * (RETRACE_HOST_LIMITS jobUsd) it is lowered, and stderr says so, for `repro` and `fix` alike; within it, nothing is
 * said. Each CLI start is a process reaching for an engine (20+ s at load 8, four at once): a long limit. No engine here (DOCKER_HOST points nowhere): each run ends in exit 3 after the budget is settled.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { committedRepo } from "../../support/git-repo.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-cli-budget-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const issue = path.join(tmp, "issue.md");
writeFileSync(issue, "# crash\n\n```python\nraise KeyError('x')\n```\n");
const repo = committedRepo(tmp, "repo", { "test_x.py": "def test_x():\n    assert False\n" });

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: tmp,
        timeout: 150_000,
        env: {
          ...process.env,
          ANTHROPIC_API_KEY: "",
          DOCKER_HOST: "unix:///nonexistent.sock",
          RETRACE_HOST_LIMITS: "jobUsd=1",
        },
      },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stderr }),
    );
  });
}

const commands: Array<[string, string[]]> = [
  ["repro", ["repro", issue, "--offline", "--json"]],
  ["fix", ["fix", "--repo", repo, "--json", "--out", path.join(tmp, "fix-out")]],
];

describe("--budget-usd past the operator's maximum", () => {
  it.concurrent.each(commands)(
    "%s lowers it and says so",
    async (_name, args) => {
      const r = await run([...args, "--budget-usd", "5"]);
      expect(r.stderr).toContain(
        "retrace: --budget-usd 5 is lowered to 1, this host's maximum for one job (RETRACE_HOST_LIMITS jobUsd)\n",
      );
      expect(r.code).toBe(3);
    },
    180_000,
  );

  it.concurrent.each(commands)(
    "%s says nothing of a budget within it",
    async (_name, args) => {
      const r = await run([...args, "--budget-usd", "0.5"]);
      expect(r.stderr).not.toContain("lowered");
      expect(r.stderr).toMatch(/Docker engine not reachable/);
      expect(r.code).toBe(3);
    },
    180_000,
  );
});
