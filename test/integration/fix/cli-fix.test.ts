/**
 * `retrace fix` as a process: flags in, branch and outputs out, exit codes. The model is the real Anthropic
 * SDK pointed at the local Messages API server through ANTHROPIC_BASE_URL; the sandbox is real Docker.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { FixResult } from "../../../src/fix/result.ts";
import { describeDocker } from "../../support/docker.ts";
import { message, startFakeAnthropic } from "../../support/fake-anthropic.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function repoFrom(fixture: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `retrace-cli-fix-${fixture}-`));
  dirs.push(dir);
  cpSync(path.join(ROOT, "test/fixtures/fix-repos", fixture), dir, { recursive: true });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: dir });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "base");
  return dir;
}

async function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { ANTHROPIC_API_KEY: _k, ANTHROPIC_BASE_URL: _u, ...rest } = process.env;
  try {
    const r = await run(process.execPath, [path.join(ROOT, "bin/retrace.mjs"), ...args], {
      cwd: ROOT,
      env: { ...rest, ...env },
      timeout: 200_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof err.code === "number" ? err.code : -1,
      stdout: err.stdout ?? "",
      stderr: err.stderr ?? "",
    };
  }
}

describeDocker("retrace fix (CLI process)", () => {
  it("fixes, prints the result document with --json and writes patch.diff, pr.md, result.json, trace.json", {
    timeout: 240_000,
  }, async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.reply(
        message({
          toolUses: [
            {
              name: "report_root_cause",
              input: {
                hypothesis: "percent used as a fraction",
                evidence: "200*(1-10) = -1800",
                files: ["pricing/cart.py"],
              },
            },
          ],
          usage: { input_tokens: 2_500, output_tokens: 40 },
        }),
        message({
          toolUses: [
            {
              name: "propose_edits",
              input: {
                summary: "divide by 100",
                edits: [
                  {
                    path: "pricing/cart.py",
                    old_string: "    return amount * (1 - percent)",
                    new_string: "    return amount * (1 - percent / 100)",
                  },
                ],
              },
            },
          ],
          usage: { input_tokens: 2_700, output_tokens: 70 },
        }),
      );
      const repo = repoFrom("py-pricing");
      const out = path.join(repo, "..", `${path.basename(repo)}-out`);
      dirs.push(out);
      const r = await cli(
        ["fix", "--repo", repo, "--json", "--out", out, "--triage-runs", "1", "--model", "claude-haiku-4-5"],
        {
          ANTHROPIC_API_KEY: "sk-ant-test-cli-000000000000",
          ANTHROPIC_BASE_URL: fake.url,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout.trim());
      expect(FixResult.parse(doc).outcome).toBe("FIXED");
      expect(doc.branch).toMatch(/^retrace\/fix-[a-z0-9]{8}$/);
      expect(doc.tokens).toBe(2_500 + 40 + 2_700 + 70);
      expect(doc.out).toBe(out);
      for (const f of ["patch.diff", "pr.md", "result.json", "trace.json"])
        expect(existsSync(path.join(out, f)), f).toBe(true);
      expect(readFileSync(path.join(out, "patch.diff"), "utf8")).toContain(
        "+    return amount * (1 - percent / 100)",
      );
      const pr = readFileSync(path.join(out, "pr.md"), "utf8");
      expect(pr).toContain("percent used as a fraction");
      expect(pr).not.toContain("sk-ant-test-cli");
      // Retrace's own report file (and its nonce) is not part of the failure it shows.
      expect(pr).not.toMatch(/\.retrace-|generated xml file/);
      const trace = readFileSync(path.join(out, "trace.json"), "utf8");
      expect(JSON.parse(trace).machine).toBe("fix");
      expect(trace).not.toContain("sk-ant-test-cli-000000000000");
      expect(
        execFileSync("git", ["branch", "--list", doc.branch], { cwd: repo, encoding: "utf8" }),
      ).toContain(doc.branch);
      // The trace names its job, so the run replays from it alone: no key, no model server.
      expect(JSON.parse(trace).job).toMatchObject({ kind: "fix", model: "claude-haiku-4-5", triageRuns: 1 });
      const requestsBefore = fake.requests.length;
      const replay = await cli(["replay", path.join(out, "trace.json"), "--repo", repo], {});
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout).toMatch(/^replay: same result/);
      expect(fake.requests.length).toBe(requestsBefore);
    } finally {
      await fake.close();
    }
  });

  it("without a model: flaky triage still runs and is reported, then exit 2 says a model is needed", {
    timeout: 200_000,
  }, async () => {
    const repo = repoFrom("py-pricing");
    const out = path.join(repo, "..", `${path.basename(repo)}-out`);
    dirs.push(out);
    const r = await cli(["fix", "--repo", repo, "--json", "--out", out, "--triage-runs", "2"], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("needs a model");
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    const doc = JSON.parse(r.stdout.trim());
    expect(doc.flaky).toMatchObject({ runs: 2, passes: 0, failures: 2 });
    expect(doc.attempts).toBe(0);
  });

  it("refuses bad flags with a clear message and exit 2", async () => {
    const r = await cli(["fix", "--repo", "/nonexistent/dir"], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--repo /nonexistent/dir is not a directory");
    const repo = repoFrom("py-pricing");
    const r2 = await cli(["fix", "--repo", repo, "--max-attempts", "0"], {});
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain("--max-attempts must be an integer from 1 to 20");
  });
});
