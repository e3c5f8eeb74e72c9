/**
 * Host-side steps of the fifteenth red team's cases, run in a process of their own
 * (`tsx redteam15-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Where waves 13 and 14 attacked patches, commit and PR texts, this wave goes to the App's and the Action's own
 * inputs and outputs and to what jobs share: the App's collection of a dispatched job's artifact (which workflow
 * run delivers it, what its result says), the Action's step summary, annotations and progress lines, the
 * operator's registry configuration read from a shared temporary directory, the install cache under a flood of
 * legitimate-looking entries and two jobs at once, comment commands and who may trigger them, and the report and
 * log parsers on shapes no wave tried. For each case it prints one JSON line: `{ id, cpuMs, outcome, contained }`
 * — `contained` is the case's own verdict, null when only the runner's checks (marker, token, host CPU) decide.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as core from "@actions/core";
import { createTwoFilesPatch } from "diff";
import { runAction } from "../../../src/action/run.ts";
import type { AppServer } from "../../../src/app/server.ts";
import type { JobSpec } from "../../../src/core/job.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import { InstallCache } from "../../../src/install/cache.ts";
import { readRegistryConfig } from "../../../src/install/registry-config.ts";
import type { JobResult, JobRunner } from "../../../src/jobs/result.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import {
  example,
  failedWorkflowRun,
  postWebhook,
  runnerFixResult,
  startApp,
} from "../../e2e/support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { zip } from "../../e2e/support/zip.ts";
import { log, lines, reportRead } from "./parse-step.ts";
import { short } from "./patch-step.ts";
import { actsOnGitHub } from "./rendered-markdown.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
const require = createRequire(import.meta.url);
let dir = root;

const REPO = "Codertocat/Hello-World";
const SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";
const BUGGY = "def add(a, b):\n    return a - b\n";
const PATCH = createTwoFilesPatch("a/src/calc.py", "b/src/calc.py", BUGGY, BUGGY.replace("-", "+"));
/** Text that acts on GitHub wherever it renders: a closing keyword, a team mention, an image, a hiding comment. */
const ACTS =
  "Fixes #1 — thanks @Codertocat/owners ![ok](http://127.0.0.1:9/p.png)\n\n<!-- the rest is hidden";

// ---- The App's collection of a dispatched job (actions executor): the artifact of some workflow run.

const fixResult = (jobId: string, over: Partial<JobResult> = {}): JobResult =>
  runnerFixResult(jobId, PATCH, over);

/**
 * Dispatches a fix job through the real App (a failed check run, `RETRACE_EXECUTOR=actions`), then delivers a
 * `workflow_run.completed` whose artifact holds `result`, the run shaped by `run`. Returns what GitHub was asked.
 */
async function collect(
  result: (jobId: string) => JobResult,
  run: (r: Record<string, unknown>) => void,
  twice?: { result: (jobId: string) => JobResult; run: (r: Record<string, unknown>) => void },
): Promise<{ prs: number; prBody: string; comments: string[]; state: string; jobId: string }> {
  const github = await startFakeGitHub();
  github.state.branches.set(`${REPO}:changes`, SHA);
  github.state.files.set(`${REPO}@${SHA}:src/calc.py`, BUGGY);
  github.state.permissions.set(`${REPO}:Codertocat`, "admin");
  const app = await startApp(
    github,
    (async () => {
      throw new Error("nothing runs in the App");
    }) as JobRunner,
    { dbPath: path.join(dir, "jobs.sqlite"), env: { RETRACE_EXECUTOR: "actions" } },
  );
  try {
    await postWebhook(app, "check_run", example("check_run", "completed"));
    await app.service.idle();
    const spec = JSON.parse(github.state.dispatches[0]!.inputs["job-spec"]!) as JobSpec;
    const deliver = async (
      runId: number,
      r: (id: string) => JobResult,
      shape: (r: Record<string, unknown>) => void,
    ) => {
      github.state.artifacts.set(runId, [
        {
          id: runId + 1,
          name: `retrace-result-${spec.id}`,
          zip: zip({ "result.json": JSON.stringify(r(spec.id)) }),
        },
      ]);
      const p = example("workflow_run", "completed");
      p.workflow_run.id = runId;
      p.workflow_run.event = "workflow_dispatch";
      p.workflow_run.path = ".github/workflows/retrace.yml";
      p.workflow_run.name = "Retrace";
      p.workflow_run.head_branch = github.state.dispatches[0]!.ref;
      shape(p.workflow_run);
      await postWebhook(app, "workflow_run", p);
      await app.service.idle();
    };
    await deliver(9001, result, run);
    if (twice) await deliver(9101, twice.result, twice.run);
    const pulls = github.calls("POST", /pulls$/);
    const comments = github.state.comments.map((c) => c.body);
    return {
      prs: pulls.length,
      prBody: String((pulls.at(-1)?.body as { body?: string } | undefined)?.body ?? ""),
      comments,
      state: app.store.get(spec.id)?.state ?? "none",
      jobId: spec.id,
    };
  } finally {
    await app.close();
    await github.close();
  }
}

/** Contained when a run the App did not dispatch completes nothing: no PR, the job still waits. */
async function forgedRun(shape: (r: Record<string, unknown>) => void): Promise<Outcome> {
  const r = await collect((id) => fixResult(id, { summary: "forged: verified" }), shape);
  return ok(`job ${r.state}; draft PRs ${r.prs}`, r.prs === 0 && r.state !== "completed");
}

// ---- The Action: its step summary, annotations and progress lines, through the real @actions/core.

function actionEnv(event: string, payload: unknown): NodeJS.ProcessEnv {
  const eventPath = path.join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  writeFileSync(path.join(dir, "output"), "");
  writeFileSync(path.join(dir, "summary"), "");
  return {
    PATH: process.env.PATH,
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: path.join(dir, "output"),
    GITHUB_STEP_SUMMARY: path.join(dir, "summary"),
    GITHUB_RUN_ID: "555",
    GITHUB_RUN_ATTEMPT: "1",
    RUNNER_TEMP: dir,
    "INPUT_GITHUB-TOKEN": process.env.GITHUB_TOKEN || "ghs_rt15fallbackTOKEN000000000000000000",
    "INPUT_ANTHROPIC-API-KEY": "sk-ant-api03-rt15keyrt15keyrt15key",
    INPUT_MODE: "auto",
  };
}

/**
 * The real `runAction` on a failed workflow run of the repository, with `runner` as the job's runner; what the
 * step wrote to stdout (workflow commands), its step summary and its outputs.
 */
async function actionRun(runner: JobRunner): Promise<{ stdout: string; summary: string; error: string }> {
  const github: FakeGitHub = await startFakeGitHub();
  github.state.runJobs.set(30433642, [{ id: 2, name: "test", conclusion: "failure" }]);
  github.state.jobLogs.set(2, "FAILED test_add\n");
  github.state.files.set(`${REPO}@${SHA}:src/calc.py`, BUGGY);
  github.state.branches.set(`${REPO}:feature`, SHA);
  const p = failedWorkflowRun(REPO, SHA, "feature", 30433642);
  const env = { ...actionEnv("workflow_run", p), GITHUB_API_URL: github.url };
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let stdout = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  let error = "";
  try {
    await runAction({
      env,
      core,
      github: (token) => {
        const { Octokit } = require("@octokit/core") as typeof import("@octokit/core");
        return createGitHubPort(new Octokit({ auth: token, baseUrl: github.url }) as unknown as OctokitLike);
      },
      runner: () => runner,
      gate: evaluatePatch,
    });
  } catch (e) {
    error = (e as Error).message;
  } finally {
    process.stdout.write = write;
    for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    await github.close();
  }
  return { stdout, summary: readFileSync(path.join(dir, "summary"), "utf8"), error };
}

const fixRunner =
  (over: Partial<JobResult>, progress: string[] = []): JobRunner =>
  async (spec, o) => {
    for (const line of progress) o.onProgress?.(line);
    return fixResult(spec.id, { kind: "fix", verdict: "NOT_FIXED", outcome: "failed", patch: null, ...over });
  };

/** The workflow commands a step's stdout holds (lines the runner acts on), besides the ones the test expects. */
function commandsIn(stdout: string): string[] {
  return stdout
    .split(/\r?\n|\r/)
    .filter((l) => /^\s*(::|##\[)/.test(l))
    .map((l) => l.trim().slice(0, 60));
}

// ---- The operator's registry configuration, as read by the host's npm from a neutral directory.

async function registryFromTmp(files: Record<string, string>): Promise<Outcome> {
  const tmp = path.join(dir, "tmp");
  mkdirSync(tmp, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(tmp, name), text);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const config = await readRegistryConfig({ ...process.env, TMPDIR: tmp });
    const planted = config.npm.includes("127.0.0.1:9") || (config.caFile ?? "").startsWith(tmp);
    return ok(`registry ${config.npm}; cafile ${config.caFile ?? "none"}`, !planted);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

// ---- The install cache: many legitimate-looking entries within the protection window, two jobs at once.

function treeOf(where: string, files: number, bytes: number, salt: string): void {
  mkdirSync(where, { recursive: true });
  for (let i = 0; i < files; i++) writeFileSync(path.join(where, `f${i}.js`), `${salt}${"x".repeat(bytes)}`);
}

function duBytes(p: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else total += st.size;
    }
  };
  if (existsSync(p)) walk(p);
  return total;
}

// ---- Comment commands: the real App with a runner that records the jobs it was given.

/** `act` on the real App (its fake GitHub, the job ids its runner ran so far), the runner answering `result`. */
async function command(
  result: (jobId: string) => JobResult,
  act: (app: AppServer, github: FakeGitHub, calls: string[]) => Promise<Outcome>,
): Promise<Outcome> {
  const github = await startFakeGitHub();
  const calls: string[] = [];
  const app = await startApp(
    github,
    (async (spec) => {
      calls.push(spec.id);
      return result(spec.id);
    }) as JobRunner,
    { dbPath: path.join(dir, "jobs.sqlite") },
  );
  try {
    return await act(app, github, calls);
  } finally {
    await app.close();
    await github.close();
  }
}

// ---- The report and log parsers: `reportRead`, `log` and `lines` from parse-step.ts.

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- Collection: an artifact from a run the App did not dispatch completes the job.
  "collect-run-of-another-workflow": () =>
    forgedRun((r) => {
      r.path = ".github/workflows/forge.yml";
      r.name = "forge";
    }),
  "collect-run-on-another-branch": () =>
    forgedRun((r) => {
      r.head_branch = "forge";
    }),
  "collect-run-of-workflow-in-other-directory": () =>
    forgedRun((r) => {
      r.path = "tools/.github/workflows/retrace.yml";
    }),
  "collect-second-artifact-after-completion": async () => {
    const r = await collect(
      (id) => fixResult(id),
      () => {},
      { result: (id) => fixResult(id, { prBody: "second" }), run: () => {} },
    );
    return ok(`job ${r.state}; draft PRs ${r.prs}`, r.prs <= 1);
  },
  "collect-result-fixed-without-patch": async () => {
    const r = await collect(
      (id) => fixResult(id, { patch: null }),
      () => {},
    );
    const claims = r.comments.some((c) => /✅\s*FIXED/.test(c));
    return ok(`job ${r.state}; draft PRs ${r.prs}; comment claims FIXED: ${claims}`, !claims && r.prs === 0);
  },
  "collect-result-pr-body-acts-on-github": async () => {
    const r = await collect(
      (id) => fixResult(id, { prBody: ACTS }),
      () => {},
    );
    const acts = actsOnGitHub(r.prBody);
    return ok(`draft PRs ${r.prs}; the PR body acts: ${JSON.stringify(acts)}`, acts.length === 0);
  },
  "collect-result-summary-acts-in-comment": async () => {
    const r = await collect(
      (id) => fixResult(id, { verdict: "NOT_FIXED", outcome: "failed", patch: null, summary: ACTS }),
      () => {},
    );
    const acts = r.comments.flatMap((c) => actsOnGitHub(c.replace(/<!-- retrace:job:[^>]*-->/g, "")));
    return ok(`comments ${r.comments.length}; they act: ${JSON.stringify(acts)}`, acts.length === 0);
  },
  "collect-result-19mib-summary": async () => {
    const t = Date.now();
    const r = await collect(
      (id) =>
        fixResult(id, {
          verdict: "NOT_FIXED",
          outcome: "failed",
          patch: null,
          summary: "a ".repeat(9_500_000),
        }),
      () => {},
    );
    const longest = Math.max(0, ...r.comments.map((c) => c.length));
    return ok(
      `job ${r.state}; longest comment ${longest} chars; wall ${Date.now() - t} ms`,
      longest <= 65_536,
    );
  },
  // ---- The Action's step summary, annotations and progress lines.
  "action-summary-model-summary-markdown": async () => {
    const r = await actionRun(fixRunner({ summary: `${ACTS}\n\n## Retrace fix: FIXED\n` }));
    const acts = actsOnGitHub(r.summary);
    const forged = /^## Retrace fix: FIXED/m.test(r.summary.replace(/^```[\s\S]*?^```/gm, ""));
    return ok(
      `step summary acts: ${JSON.stringify(acts)}; forged heading: ${forged}${r.error ? `; error ${short(r.error)}` : ""}`,
      acts.length === 0 && !forged,
    );
  },
  "action-summary-error-message-markdown": async () => {
    const r = await actionRun(async () => {
      throw new Error(
        `the lockfile entry "node_modules/${ACTS}" resolves to a git repository; set install.allowGit to allow it`,
      );
    });
    const acts = actsOnGitHub(r.summary);
    return ok(`step summary acts: ${JSON.stringify(acts)}`, acts.length === 0);
  },
  "action-annotation-failure-properties": async () => {
    const r = await actionRun(
      fixRunner({
        failures: [
          {
            file: "a.js,line=1,title=x::\n::add-mask::forged\n",
            line: 2,
            message: "boom\n::set-output name=verdict::FIXED\r\n##[set-output name=verdict;]FIXED",
          },
        ] as JobResult["failures"],
      }),
    );
    const cmds = commandsIn(r.stdout).filter((c) => !c.startsWith("::add-mask::"));
    const extra = cmds.filter((c) => !c.startsWith("::error ") && !c.startsWith("::notice"));
    return ok(
      `commands: ${JSON.stringify(cmds)}`,
      extra.length === 0 && cmds.filter((c) => c.startsWith("::error ")).length <= 1,
    );
  },
  "action-progress-legacy-and-spaced-commands": async () => {
    const r = await actionRun(
      fixRunner({}, [
        "##[add-mask]forged",
        "\t::set-env name=NODE_OPTIONS::--require /tmp/x",
        "\u001b[0m::error::forged",
        "ok\r::warning::forged",
        "\u2028::debug::x",
      ]),
    );
    const cmds = commandsIn(r.stdout).filter(
      (c) => !c.startsWith("::add-mask::") && !c.startsWith("::notice"),
    );
    return ok(`commands: ${JSON.stringify(cmds)}`, cmds.length === 0);
  },
  "action-output-result-holds-token": async () => {
    const token = process.env.GITHUB_TOKEN ?? "";
    const r = await actionRun(fixRunner({ summary: `leaked ${token}` }));
    const outputs = readFileSync(path.join(dir, "output"), "utf8");
    // `::add-mask::<token>` is @actions/core's own line telling the runner to mask the token (the first try counted
    // it as a leak: a defect of this check, corrected after it).
    const stdout = r.stdout
      .split("\n")
      .filter((l) => l !== `::add-mask::${token}`)
      .join("\n");
    const leak =
      token !== "" && (r.summary.includes(token) || outputs.includes(token) || stdout.includes(token));
    return ok(`token in summary/outputs/stdout: ${leak}`, !leak);
  },
  // ---- The operator's registry configuration from a shared temporary directory.
  "registry-config-tmp-npmrc": () => registryFromTmp({ ".npmrc": "registry=http://127.0.0.1:9/\n" }),
  "registry-config-tmp-npmrc-cafile": () => {
    writeFileSync(path.join(dir, "ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    return registryFromTmp({ ".npmrc": `cafile=${path.join(dir, "tmp", "ca.pem")}\n`, "ca.pem": "x" });
  },
  "registry-config-tmp-parent-package-json": async () => {
    // npm's project directory is the nearest one above the working directory holding a package.json.
    const tmp = path.join(dir, "tmp");
    mkdirSync(path.join(tmp, "sub"), { recursive: true });
    writeFileSync(path.join(dir, "package.json"), "{}");
    writeFileSync(path.join(dir, ".npmrc"), "registry=http://127.0.0.1:9/\n");
    const before = process.env.TMPDIR;
    process.env.TMPDIR = path.join(tmp, "sub");
    try {
      const config = await readRegistryConfig({ ...process.env, TMPDIR: path.join(tmp, "sub") });
      return ok(`registry ${config.npm}`, !config.npm.includes("127.0.0.1:9"));
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  },
  // ---- The install cache.
  "cache-flood-within-protect-window": async () => {
    // Forty distinct lockfiles (forty PRs each bumping one package) within two hours, against a 1 MiB quota.
    const cache = new InstallCache({ root: path.join(dir, "cache"), quotaBytes: 1024 * 1024 });
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      const tmp = await cache.tempDir("npm", `k${i}`);
      treeOf(tmp, 4, 64 * 1024, String(i));
      try {
        await cache.commit("npm", `k${i}`.padEnd(32, "0"), tmp, {});
      } catch {
        refused++;
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    const used = duBytes(path.join(dir, "cache"));
    return ok(
      `on disk ${(used / 1024 / 1024).toFixed(1)} MiB against a 1 MiB quota; commits refused ${refused}`,
      used <= 2 * 1024 * 1024,
    );
  },
  "cache-two-jobs-commit-one-key": async () => {
    const cache = new InstallCache({ root: path.join(dir, "cache") });
    const key = "a".repeat(32);
    const a = await cache.tempDir("npm", key);
    const b = await cache.tempDir("npm", key);
    treeOf(a, 50, 1000, "same");
    treeOf(b, 50, 1000, "same");
    const [ra, rb] = await Promise.allSettled([
      cache.commit("npm", key, a, {}),
      cache.commit("npm", key, b, {}),
    ]);
    const got = await cache.lookup("npm", key);
    const left = readdirSync(path.join(dir, "cache", "npm")).filter((n) => n.includes(".tmp-"));
    return ok(
      `commits ${ra.status}/${rb.status}; entry ${got ? "verified" : "missing"}; temporaries left ${left.length}`,
      got !== null && left.length === 0,
    );
  },
  "cache-entry-swapped-for-link": async () => {
    const cache = new InstallCache({ root: path.join(dir, "cache") });
    const key = "b".repeat(32);
    const tmp = await cache.tempDir("npm", key);
    treeOf(tmp, 3, 100, "x");
    const { dir: entry } = await cache.commit("npm", key, tmp, {});
    // Another process of the host (a second job) swaps the entry for a link to a host directory holding a copy.
    const host = path.join(dir, "host");
    execFileSync("cp", ["-a", entry, host]);
    writeFileSync(path.join(host, "f0.js"), "host secret");
    rmSync(entry, { recursive: true });
    symlinkSync(host, entry);
    const got = await cache.lookup("npm", key);
    return ok(`lookup ${got ? `gave ${got.dir}` : "refused"}`, got === null);
  },
  "cache-killed-installs-leave-temporaries": async () => {
    // Cancelled installs leave `.tmp-` trees: are they counted against the quota?
    const cache = new InstallCache({ root: path.join(dir, "cache"), quotaBytes: 512 * 1024 });
    for (let i = 0; i < 12; i++) treeOf(await cache.tempDir("npm", `t${i}`), 4, 64 * 1024, String(i));
    const tmp = await cache.tempDir("npm", "c".repeat(32));
    treeOf(tmp, 1, 10, "c");
    await cache.commit("npm", "c".repeat(32), tmp, {});
    const used = duBytes(path.join(dir, "cache"));
    return ok(`on disk ${(used / 1024 / 1024).toFixed(1)} MiB against a 0.5 MiB quota`, used <= 1024 * 1024);
  },
  // ---- Comment commands: who may trigger them.
  "command-label-by-triage-user": () =>
    command(
      (id) => fixResult(id, { kind: "repro", verdict: "NOT_REPRODUCED", outcome: "failed", patch: null }),
      async (app, github, calls) => {
        github.state.issues.set(`${REPO}#1`, { title: "t", body: "```js\nnull.x\n```" });
        github.state.permissions.set(`${REPO}:Codertocat`, "triage");
        const p = example("issues", "labeled");
        p.label.name = "needs-repro";
        await postWebhook(app, "issues", p);
        await app.service.idle();
        return ok(`runner calls ${calls.length}`, calls.length === 0);
      },
    ),
  "command-autofix-on-fork-pull-request": () =>
    command(
      (id) => fixResult(id),
      async (app, github, calls) => {
        github.state.permissions.set(`${REPO}:Codertocat`, "admin");
        const p = example("issue_comment", "created");
        p.issue.pull_request = { url: `https://api.github.com/repos/${REPO}/pulls/2` };
        p.issue.number = 2;
        p.comment.body = "/autofix";
        github.state.issues.set(`${REPO}#2`, {
          title: "pr",
          body: "",
          pull: { headRef: "patch-1", headSha: SHA, headRepo: "mallory/Hello-World", baseRef: "master" },
        } as never);
        github.state.failedChecks.set(SHA, [{ id: 1, name: "test", conclusion: "failure" }] as never);
        await postWebhook(app, "issue_comment", p);
        await app.service.idle();
        return ok(
          `runner calls ${calls.length}; PRs ${github.calls("POST", /pulls$/).length}`,
          calls.length === 0,
        );
      },
    ),
  // ---- The report and log parsers on shapes no wave tried.
  "report-65k-astral-characters": () => reportRead(`### Bug\n\n${"\u{1F600}a".repeat(22_000)}`),
  "report-intraword-underscores": () => reportRead(`### Bug\n\n${"a_".repeat(32_700)}`),
  "report-alternating-fence-openers": () => reportRead(`### Bug\n\n${"````\n~~~~\n".repeat(6_500)}`),
  "report-many-install-lines": () =>
    reportRead(
      `### Steps\n\n\`\`\`sh\n${Array.from({ length: 2_500 }, (_, i) => `npm i p${i}@1.0.${i}`).join("\n")}\n\`\`\`\n`,
    ),
  "report-autolinks-and-emphasis-runs": () => reportRead(`### Bug\n\n${"<http://a*".repeat(6_500)}`),
  "log-every-parser-header-interleaved": () =>
    log(
      lines(
        [
          "=================================== FAILURES ===================================",
          "FAIL src/a.test.js",
          "--- FAIL: TestA (0.00s)",
          "test result: FAILED. 0 passed; 1 failed",
          "not ok 1 - a",
          "Failures:",
          "  1) A",
          "[ERROR] Tests run: 1, Failures: 1",
          "  Failed Test [1 ms]",
          "F",
        ].join("\n"),
        2 * 1024 * 1024,
      ),
    ),
  "log-one-test-id-of-1mib": () =>
    log(`FAILED tests/test_a.py::test_${"x".repeat(1024 * 1024)} - assert 0\n`),
  "log-go-subtests-5000-deep": () => {
    let s = "";
    for (let i = 0; i < 5_000; i++) s += `${"    ".repeat(i)}--- FAIL: T${"/a".repeat(i)} (0.00s)\n`;
    return log(s.slice(0, 8 * 1024 * 1024));
  },
  "log-actions-error-annotations-200k": () =>
    log(lines("2026-11-27T12:00:00.0000000Z ##[error]Process completed with exit code 1.", 200_000 * 80)),
  "log-junit-xml-entity-heavy-failure": () =>
    log(
      `<testsuite><testcase classname="a" name="b"><failure message="${"&amp;&lt;&#x41;".repeat(200_000)}"/></testcase></testsuite>\n`,
    ),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
