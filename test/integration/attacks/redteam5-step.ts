/**
 * One host step of the fifth red team, run in a child process by redteam5.test.ts so that its time and peak
 * memory are its own and a hang can be killed. `node --import tsx redteam5-step.ts <step> <json>`; prints one
 * JSON line on stdout.
 *
 * - `action-event`: the Action's real `runAction` on the event file at GITHUB_EVENT_PATH. Its GitHub port
 *   throws at the first call: reaching it means the event file was read and accepted.
 * - `app-server`: the real App server (Probot, signed webhooks) against the fake GitHub on loopback, with a
 *   recording runner; prints its URL and pid, then on a `report` line on stdin prints what GitHub was asked and
 *   which jobs ran, and exits.
 * - `pr-body`: the fix report (the draft PR's body) rendered from hostile test ids, branch and command.
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { runAction } from "../../../src/action/run.ts";
import type { GitHubPort } from "../../../src/core/ports/github.ts";
import type { JobSpec } from "../../../src/core/job.ts";
import type { JobResult } from "../../../src/jobs/result.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { renderFixReport } from "../../../src/report/pr-body.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { startApp } from "../../e2e/support/app-harness.ts";

function peakMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : -1;
}

function print(o: unknown): void {
  process.stdout.write(`${JSON.stringify(o)}\n`);
}

async function actionEvent(): Promise<void> {
  const t0 = performance.now();
  const outputs: Record<string, string> = {};
  const notices: string[] = [];
  const reachedApi = new Error("REACHED_API");
  const github = new Proxy({} as GitHubPort, {
    get: () => () => {
      throw reachedApi;
    },
  });
  let outcome: string;
  let message = "";
  try {
    await runAction({
      env: process.env,
      core: {
        getInput: (n) => (n === "github-token" ? "ghs_redteam5tokenvalue0000000000000000" : ""),
        setSecret: () => {},
        setOutput: (n, v) => {
          outputs[n] = v;
        },
        notice: (m) => notices.push(m),
        info: () => {},
        error: () => {},
        summary: { addRaw: () => ({ write: async () => undefined }) },
      },
      github: () => github,
      runner: () => {
        throw new Error("internal: the runner was reached");
      },
      gate: (patch, policy) => evaluatePatch(patch, policy),
    });
    outcome = outputs.outcome === "skipped" ? "skipped" : "ran";
    message = notices.join(" ").slice(0, 2000);
  } catch (error) {
    outcome = error === reachedApi ? "reached-api" : "refused";
    message = String((error as Error)?.message ?? error).slice(0, 2000);
  }
  print({ outcome, message, ms: Math.round(performance.now() - t0), peakMb: peakMb() });
}

async function appServer(): Promise<void> {
  const github = await startFakeGitHub();
  github.state.permissions.set("Codertocat/Hello-World:Codertocat", "admin");
  github.state.issues.set("Codertocat/Hello-World#1", { title: "t", body: "b" });
  const calls: JobSpec[] = [];
  const app = await startApp(github, async (spec) => {
    calls.push(spec);
    return {
      jobId: spec.id,
      kind: spec.kind,
      outcome: "needs_info",
      verdict: spec.kind === "repro" ? "NEEDS_INFO" : null,
      summary: "recorded",
      failures: [],
      costUsd: 0,
      tokens: 0,
      attempts: 1,
      durationMs: 1,
      patch: null,
    } as unknown as JobResult;
  });
  print({ url: app.url, pid: process.pid, peakMb: peakMb() });
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() !== "report") continue;
    await Promise.race([app.service.idle(), new Promise((ok) => setTimeout(ok, 5_000))]);
    const health = await fetch(`${app.url}/healthz`)
      .then((r) => r.status)
      .catch(() => 0);
    print({
      requests: github.requests.map((r) => `${r.method} ${r.path}`),
      jobs: calls.map((c) => ({ kind: c.kind, repo: c.repo?.fullName ?? null })),
      health,
      peakMb: peakMb(),
    });
    break;
  }
  await app.close();
  await github.close();
  process.exit(0);
}

function prBody(input: { tests: string[]; branch: string; command: string }): void {
  const body = renderFixReport({
    result: {
      outcome: "FIXED",
      reason: `verified on ${input.branch}`,
      failingTests: input.tests,
      testCommand: input.command,
      attempts: 1,
      tokens: 1,
      costUsd: 0,
      durationMs: 1,
      attemptLog: [],
      flaky: null,
      verification: {
        runs: 2,
        tests: input.tests.map((id) => ({ id, before: "failed", after: "passed" })),
        antiGaming: [],
      },
    } as never,
    rootCause: { hypothesis: "h", evidence: "e", files: input.tests },
    excerpt: "E assert 1 == 2",
    patch: "--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
  });
  print({ body });
}

const [step, arg] = process.argv.slice(2);
if (step === "action-event") await actionEvent();
else if (step === "app-server") await appServer();
else if (step === "pr-body") prBody(JSON.parse(arg ?? "{}"));
else throw new Error(`unknown step ${step}`);
