/**
 * The Action's `budget-usd` input against the operator's maximum (RETRACE_HOST_LIMITS `jobUsd`; issue 14, red team
 * 28's Left, f14c item 2): the input goes through the one clamp a repository's `repro.maxUsd`/`fix.maxUsd` goes
 * through (src/jobs/intake-rules.ts clampBudget), so it never raises a job past the host's maximum. Run as the
 * Action runs: a process of `src/action/main.ts` with a real event file, the fake GitHub on loopback, and no Docker
 * engine (the job stops at provisioning, after the intake wrote the budget in force to the log).
 * Counter-examples: an input below the maximum, and an operator who raises the maximum, keep what the input asks.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clampBudget } from "../../../src/jobs/intake-rules.ts";
import { DEFAULT_HOST_LIMITS, parseHostLimits } from "../../../src/core/host-limits.ts";
import { example } from "../../e2e/support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const REPO = "Codertocat/Hello-World";

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub();
  github.state.permissions.set(`${REPO}:Codertocat`, "write");
  github.state.files.set(`${REPO}@:.github/retrace.yml`, "repro:\n  maxUsd: 3\n");
});
afterEach(async () => {
  await github.close();
});

function action(
  inputs: Record<string, string>,
  hostLimits?: string,
): Promise<{ code: number | null; out: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "retrace-budget-"));
  const file = path.join(dir, "event.json");
  const p = example("issues", "labeled");
  p.label.name = "needs-repro";
  writeFileSync(file, JSON.stringify(p));
  writeFileSync(path.join(dir, "output"), "");
  writeFileSync(path.join(dir, "summary"), "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_API_URL: github.url,
    GITHUB_EVENT_NAME: "issues",
    GITHUB_EVENT_PATH: file,
    GITHUB_REPOSITORY: REPO,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: path.join(dir, "output"),
    GITHUB_STEP_SUMMARY: path.join(dir, "summary"),
    RUNNER_TEMP: dir,
    // No engine: the job ends at provisioning, after the intake.
    DOCKER_HOST: `unix://${path.join(dir, "no-docker.sock")}`,
    "INPUT_GITHUB-TOKEN": "t-not-a-token",
    "INPUT_ANTHROPIC-API-KEY": "",
    INPUT_MODE: "auto",
    "INPUT_DRY-RUN": "true",
    ...(hostLimits === undefined ? {} : { RETRACE_HOST_LIMITS: hostLimits }),
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        pathToFileURL(path.join(REPO_ROOT, "node_modules/tsx/dist/loader.mjs")).href,
        path.join(REPO_ROOT, "src/action/main.ts"),
      ],
      { cwd: dir, env },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const budgetLine = (out: string) => /Retrace: repro budget: \$([\d.]+), (\d+) attempt/.exec(out);

describe("the Action's budget-usd input is clamped by RETRACE_HOST_LIMITS jobUsd (one clamp)", () => {
  it("an input above the host's maximum is lowered to it, and the log says so", async () => {
    const r = await action({ "budget-usd": "1000000" }, "jobUsd=5");
    expect(budgetLine(r.out)?.[1], r.out).toBe("5");
    expect(r.out).toContain(
      "::notice title=Retrace::Retrace: the budget-usd input ($1000000) is lowered to $5",
    );
    // The default maximum when the operator sets none.
    const d = await action({ "budget-usd": "1000000" });
    expect(budgetLine(d.out)?.[1], d.out).toBe(String(DEFAULT_HOST_LIMITS.jobUsd));
  }, 300_000);

  it("counter-examples: an input below the maximum, or a raised maximum, keeps what the input asks", async () => {
    const below = await action({ "budget-usd": "2", "max-attempts": "4" }, "jobUsd=5");
    expect(budgetLine(below.out)?.slice(1), below.out).toEqual(["2", "4"]);
    expect(below.out).not.toContain("is lowered to");
    const raised = await action({ "budget-usd": "50" }, "jobUsd=500");
    expect(budgetLine(raised.out)?.[1], raised.out).toBe("50");
    // No input: the repository's own repro.maxUsd (3), below the maximum.
    const none = await action({}, "jobUsd=5");
    expect(budgetLine(none.out)?.[1], none.out).toBe("3");
  }, 300_000);

  it("clampBudget is the clamp of a repository's budgets and of the inputs alike", () => {
    const asked = { maxAttempts: 9, maxWallMs: 1e12, maxTokens: 1e12, maxUsd: 1e9 };
    const limits = parseHostLimits("jobUsd=7,jobMinutes=30,jobTokens=1000");
    expect(clampBudget(asked, Number.POSITIVE_INFINITY, limits)).toEqual({
      maxAttempts: 9,
      maxWallMs: 30 * 60_000,
      maxTokens: 1000,
      maxUsd: 7,
    });
    expect(clampBudget(asked, 2.5, limits).maxUsd).toBe(2.5);
    const modest = { maxAttempts: 2, maxWallMs: 60_000, maxTokens: 10, maxUsd: 1 };
    expect(clampBudget(modest, Number.POSITIVE_INFINITY, limits)).toEqual(modest);
  });
});
