/**
 * Host-side steps of the twenty-third red team's cases, run in a process of their own
 * (`tsx redteam23-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–22 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes, look-alike names, what the host unpacks and names that reach git or CI; this one goes to the App's
 * final gate before a PR (wave 22's open class: the publisher's gate without the repository's names), the text a
 * maintainer reads in the tracking comment, the check run and the PR body (a refused file's name, a run's summary),
 * the App's job database across a crash (a torn journal line, a stale journal, a live lock holder), one command
 * delivered twice and one issue labelled twice, patches that rename onto a committed link or swap two files, logs
 * with terminal hyperlinks and 200,000 failures, and a sandbox run that floods its output and forks.
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { FixJobSpec } from "../../../src/core/job.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { openSqliteJobStore } from "../../../src/app/job-store.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import { type Publisher, publishFailure, publishResult, refusalNote } from "../../../src/jobs/publish.ts";
import type { JobResult } from "../../../src/jobs/result.ts";
import { createLogParser } from "../../../src/logs/index.ts";
import { gateTreeNames } from "../../../src/fix/gate-tree.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { sandboxImage } from "../../support/docker.ts";
import { example, postWebhook } from "../../e2e/support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { gateThenApply, noRaw, prTitleOf, short } from "./patch-step.ts";
import { actsOnGitHub } from "./rendered-markdown.ts";
import { appRun, jobRecord, type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT23_MARKER ?? "/var/tmp/retrace-rt23-marker";
const BIDI = ["\u202e", "\u2066", "\u2067", "\u2069", "\u200b", "\u061c"];

// ---- The App's publisher: the gate again, then a draft PR; the comment and the check run it writes.

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");
const REPO = { owner: "octo", repo: "app" };
const SHA = "0123456789abcdef0123456789abcdef01234567";
const TREE: Record<string, string> = {
  "src/auth.js": "const ok = check(user);\nif (ok) allow();\n",
  "src/caf\u00e9.js": "module.exports = 1;\n",
  "lib/util.js": "module.exports = 2;\n",
};

async function withPublisher<T>(use: (p: Publisher, fake: FakeGitHub) => Promise<T>): Promise<T> {
  const fake = await startFakeGitHub();
  try {
    for (const [name, text] of Object.entries(TREE)) fake.state.files.set(`octo/app@${SHA}:${name}`, text);
    fake.state.branches.set("octo/app:feature", SHA);
    const github = createGitHubPort(
      new Octokit({ auth: "t", baseUrl: fake.url, request: { retries: 0 } }) as unknown as OctokitLike,
    );
    const redactor = new Redactor([]);
    return await use({ github, repo: REPO, gate: evaluatePatch, redact: (s) => redactor.redact(s) }, fake);
  } finally {
    await fake.close();
  }
}

const job = {
  id: "fix-23",
  kind: "fix" as const,
  trigger: {
    type: "fix" as const,
    repo: "octo/app",
    installationId: null,
    defaultBranch: "main",
    via: "check_run" as const,
    word: "test",
    actor: "ana",
    checkPermission: false,
    headSha: SHA,
    headBranch: "feature",
    prNumber: 4,
    checkRunId: 31,
    checkName: "test",
    actionsJobId: 31,
    onRetraceBranch: false,
  },
  issueNumber: 4,
  commentId: null,
  checkRunId: null,
};
const spec = FixJobSpec.parse({ kind: "fix", id: "fix-23", headSha: SHA, headBranch: "feature" });
const fixed = (patch: string, over: Partial<JobResult> = {}): JobResult =>
  ({
    jobId: "fix-23",
    kind: "fix",
    outcome: "succeeded",
    verdict: "FIXED",
    summary: "test_auth passes now.",
    patch,
    prTitle: "Fix auth",
    prBody: "Adds the check.",
    failures: [],
    costUsd: 0.1,
    tokens: 10,
    attempts: 1,
    durationMs: 5,
    ...over,
  }) as JobResult;

const newFile = (name: string, line = "module.exports = () => true;") =>
  `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+${line}\n`;

/** Contained when the App's publisher opens no pull request for `patch` (its gate, then its applier). */
async function published(patch: string): Promise<Outcome> {
  return withPublisher(async (p, fake) => {
    let note: string;
    try {
      note = (await publishResult(p, job, spec, fixed(patch), RetraceConfig.parse({}))).note ?? "(no note)";
    } catch (e) {
      note = `the publisher threw: ${(e as Error).message}`;
    }
    const prs = fake.calls("POST", /\/pulls$/).length;
    return ok(prs ? `a draft PR was opened (${short(note, 100)})` : `no PR: ${short(note, 220)}`, prs === 0);
  });
}

/** What the publisher wrote on the comment, the check run and the PR for `result`. */
async function writtenText(result: JobResult, only?: "pr"): Promise<string> {
  return withPublisher(async (p, fake) => {
    await publishResult(p, job, spec, result, RetraceConfig.parse({}));
    const bodies: string[] = [];
    if (only === "pr") {
      for (const c of fake.calls("POST", /\/pulls$/)) bodies.push(String((c.body as { body?: string }).body));
      return bodies.join("\n----\n");
    }
    for (const c of fake.calls("POST", /\/comments$/))
      bodies.push(String((c.body as { body?: string }).body));
    for (const c of fake.calls("PATCH", /\/comments\/\d+$|\/check-runs\/\d+$/)) {
      const b = c.body as { body?: string; output?: { summary?: string } };
      bodies.push(String(b.body ?? b.output?.summary ?? ""));
    }
    for (const c of fake.calls("POST", /\/pulls$/)) bodies.push(String((c.body as { body?: string }).body));
    return bodies.join("\n----\n");
  });
}

/** Contained when no hidden character reaches the written text raw and it acts on nothing on GitHub. */
function readsPlain(text: string): Outcome {
  const raw = BIDI.filter((c) => text.includes(c));
  // The job's own marker is Retrace's: an HTML comment it writes on purpose.
  const acts = actsOnGitHub(text.replace(/<!-- retrace:job:[\w.-]+ -->/g, ""));
  return ok(
    raw.length || acts.length
      ? `written raw: ${raw.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(", ")} ${acts.join(", ")}: ${JSON.stringify(short(text, 200))}`
      : `shown plainly (${text.length} chars)`,
    raw.length === 0 && acts.length === 0,
  );
}

const UNSAFE_TEXT =
  "done \u202egnp.exe\u202c @octo-org/security ![t](https://evil.example/p.png) <details><summary>ok";

// ---- The job database across a crash.

async function tornJournal(then: "delivery" | "job"): Promise<Outcome> {
  const db = path.join(dir, "jobs.sqlite");
  // A process killed in the middle of its one append: a line cut short, no newline, and nothing else.
  writeFileSync(`${db}.journal`, '{"d":["cut-short-deliv');
  let store = await openSqliteJobStore(db);
  if (then === "delivery") store.recordDelivery("delivery-after-crash", Date.now());
  else
    store.insert({
      ...(JSON.parse(JSON.stringify(jobRecord("job-after-crash"))) as object),
    } as never);
  // The App is killed again before its next snapshot (5 s): the store is opened again from disk.
  store = await openSqliteJobStore(db);
  const kept =
    then === "delivery"
      ? !store.recordDelivery("delivery-after-crash", Date.now())
      : store.get("job-after-crash") !== null;
  const tail = readFileSync(`${db}.journal`, "utf8");
  store.close();
  return ok(
    kept
      ? `the acknowledged ${then} survived the second crash (journal ${tail.length} bytes)`
      : `the acknowledged ${then} was lost: the journal's first line was glued to the cut one (${JSON.stringify(short(tail, 90))}); ${then === "delivery" ? "the redelivery is taken again and its job runs twice" : "the job is never resumed"}`,
    kept,
  );
}

// ---- The App on webhooks (wave-step.ts's appRun).

function comment(body: string, id = 4242) {
  const p = example("issue_comment", "created");
  p.comment.id = id;
  p.comment.body = body;
  p.comment.user = { login: "Codertocat", type: "User" };
  p.sender = { login: "Codertocat", type: "User" };
  return p;
}

// ---- Patches on a repository directory.

function repoWith(files: Record<string, string>, links: Record<string, string>): string {
  const r = writeTree(path.join(dir, "repo"), files);
  for (const [name, target] of Object.entries(links)) symlinkSync(target, path.join(r, name));
  execFileSync("git", ["init", "-q"], { cwd: r });
  return r;
}

// ---- Logs.

function parse(text: string) {
  const parser = createLogParser();
  for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
  return parser.end();
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // The App's final gate before a PR, with the repository's names (wave 22 open).
  "publish-app-case-twin-of-tree-file": () => published(newFile("src/Auth.js")),
  "publish-app-nfd-twin-of-tree-file": () => published(newFile("src/cafe\u0301.js")),
  "publish-app-twin-of-tree-directory": () => published(newFile("LIB/util.js")),
  "publish-app-swap-case-of-directory-deep": () => published(newFile("Src/auth.js")),
  // Control: a plain new file beside the tree's names still opens its PR (the tree's names refuse only twins).
  "publish-app-new-file-beside-tree-opens-pr": async () => {
    const r = await published(newFile("src/authz.js"));
    return ok(r.outcome, r.contained === false);
  },
  // What a maintainer reads: the refusal note's file names, a run's summary, the PR body without a prBody.
  "comment-refusal-note-bidi-file-name": async () =>
    readsPlain(await writtenText(fixed(newFile("src/\u202egnp.js", "x"), { summary: "s" }))),
  "comment-refusal-note-mention-file-name": async () =>
    readsPlain(await writtenText(fixed(newFile("@octo-org/security/\u200bx.js", "x"), { summary: "s" }))),
  "comment-done-summary-bidi-mention-image": async () =>
    readsPlain(await writtenText(fixed(newFile("src/extra.js"), { summary: UNSAFE_TEXT }))),
  "check-run-summary-of-failed-outcome": async () =>
    readsPlain(
      await writtenText(
        fixed("", { outcome: "failed", verdict: "NOT_FIXED", patch: null, summary: UNSAFE_TEXT } as never),
      ),
    ),
  "pr-body-fallback-to-summary": async () =>
    readsPlain(
      await writtenText(fixed(newFile("src/extra.js"), { prBody: undefined, summary: UNSAFE_TEXT }), "pr"),
    ),
  "pr-title-fallback-branch-bidi": () => {
    const title = prTitleOf("fix-23", ["tests/test_\u2067a.py::test_x"]);
    return noRaw("the PR title", title, BIDI);
  },
  "refusal-note-violation-message-bidi": () => {
    const note = refusalNote([{ rule: "r", file: "a\u2066b.js", line: 1, message: "m\u202e" }]);
    return noRaw("the refusal note", note, BIDI);
  },
  // The job database across a crash.
  "jobstore-torn-journal-tail-then-delivery": () => tornJournal("delivery"),
  "jobstore-torn-journal-tail-then-job": () => tornJournal("job"),
  "jobstore-lock-held-by-live-process": async () => {
    const db = path.join(dir, "jobs.sqlite");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      writeFileSync(`${db}.lock`, `${other.pid} ${hostname()}`);
      const store = await openSqliteJobStore(db);
      store.close();
      return ok("opened while another live process held the lock", false);
    } catch (e) {
      return ok(
        `refused: ${short((e as Error).message, 200)}`,
        /in use by another Retrace App/.test((e as Error).message),
      );
    } finally {
      other.kill();
    }
  },
  "jobstore-stale-journal-after-snapshot": async () => {
    const db = path.join(dir, "jobs.sqlite");
    let store = await openSqliteJobStore(db);
    store.insert(jobRecord("job-after-crash") as never);
    store.update("job-after-crash", { state: "completed" } as never);
    const journal = readFileSync(`${db}.journal`, "utf8");
    store.close(); // snapshot: the job succeeded
    // Killed between the snapshot's rename and the journal's truncation: both lines are replayed over it.
    writeFileSync(`${db}.journal`, journal);
    store = await openSqliteJobStore(db);
    const state = store.get("job-after-crash")?.state;
    const unfinished = store.listUnfinished().length;
    store.close();
    return ok(
      `after the replay the job is ${state}; ${unfinished} unfinished (a restart ${unfinished ? "runs it again" : "leaves it"})`,
      unfinished === 0,
    );
  },
  // The App on one command delivered twice, one issue labelled twice.
  "app-same-comment-two-delivery-ids": async () => {
    const r = await appRun(dir, async (app) => [
      await postWebhook(app, "issue_comment", comment("/repro"), { delivery: randomUUID() }),
      await postWebhook(app, "issue_comment", comment("/repro"), { delivery: randomUUID() }),
    ]);
    return ok(`${r.jobs} job(s) for one comment delivered under two ids (${r.statuses})`, r.jobs <= 1);
  },
  "app-quoted-command-by-writer": async () => {
    const r = await appRun(dir, async (app) => [
      await postWebhook(app, "issue_comment", comment("> /repro\n\nthanks, I will look", 777)),
    ]);
    return ok(`${r.jobs} job(s) for a writer quoting a /repro line (${r.statuses})`, r.jobs === 0);
  },
  "app-same-comment-two-delivery-ids-at-once": async () => {
    const r = await appRun(dir, async (app) =>
      Promise.all([
        postWebhook(app, "issue_comment", comment("/repro", 779), { delivery: randomUUID() }),
        postWebhook(app, "issue_comment", comment("/repro", 779), { delivery: randomUUID() }),
      ]),
    );
    return ok(`${r.jobs} job(s) for one comment delivered twice at once (${r.statuses})`, r.jobs <= 1);
  },
  // Patches that rename onto a committed link or swap two files.
  "patch-rename-onto-tracked-symlink": async () => {
    const outside = path.join(dir, "outside.txt");
    writeFileSync(outside, "untouched\n");
    const r = repoWith({ "src/config.js": "module.exports = {};\n" }, { "lnk.js": outside });
    const patch =
      "diff --git a/src/config.js b/lnk.js\nsimilarity index 100%\nrename from src/config.js\nrename to lnk.js\n";
    const g = await gateThenApply(patch, r, (p) => JSON.stringify(Object.keys(p.files)));
    const after = readFileSync(outside, "utf8");
    return ok(
      `${g.gate} | ${g.applied} | outside: ${JSON.stringify(after)}`,
      after === "untouched\n" && !(g.allowed && g.appliedOk),
    );
  },
  "patch-modify-onto-tracked-symlink": async () => {
    const outside = path.join(dir, "outside.txt");
    writeFileSync(outside, "untouched\n");
    const r = repoWith({ "src/config.js": "module.exports = {};\n" }, { "lnk.js": outside });
    const patch = createTwoFilesPatch("a/lnk.js", "b/lnk.js", "untouched\n", "owned\n");
    const g = await gateThenApply(
      `diff --git a/lnk.js b/lnk.js\n${patch.split("\n").slice(2).join("\n")}`,
      r,
      (p) => JSON.stringify(Object.keys(p.files)),
    );
    const after = readFileSync(outside, "utf8");
    return ok(`${g.gate} | ${g.applied} | outside: ${JSON.stringify(after)}`, after === "untouched\n");
  },
  "patch-rename-into-symlinked-directory": async () => {
    const outside = path.join(dir, "outside");
    writeTree(outside, {});
    const r = repoWith({ "src/config.js": "module.exports = {};\n" }, { vendor: outside });
    const patch =
      "diff --git a/src/config.js b/vendor/config.js\nsimilarity index 100%\nrename from src/config.js\nrename to vendor/config.js\n";
    const g = await gateThenApply(patch, r, (p) => JSON.stringify(Object.keys(p.files)));
    const leaked = existsSync(path.join(outside, "config.js"));
    return ok(`${g.gate} | ${g.applied}${leaked ? " | written outside" : ""}`, !leaked);
  },
  "patch-swap-two-files-by-rename": async () => {
    const r = repoWith({ "src/a.js": "A\n", "src/b.js": "B\n" }, {});
    const patch =
      "diff --git a/src/a.js b/src/b.js\nsimilarity index 100%\nrename from src/a.js\nrename to src/b.js\n" +
      "diff --git a/src/b.js b/src/a.js\nsimilarity index 100%\nrename from src/b.js\nrename to src/a.js\n";
    const g = await gateThenApply(patch, r, (p) => JSON.stringify(p.files));
    // A swap either is refused or gives a = B and b = A: never one file's bytes lost.
    const a = readFileSync(path.join(r, "src/a.js"), "utf8");
    const b = readFileSync(path.join(r, "src/b.js"), "utf8");
    const consistent = (a === "A\n" && b === "B\n") || (a === "B\n" && b === "A\n");
    return ok(`${g.gate} | ${g.applied} | a=${JSON.stringify(a)} b=${JSON.stringify(b)}`, consistent);
  },
  "patch-rename-onto-existing-file": async () => {
    const r = repoWith({ "src/a.js": "A\n", "src/b.js": "B\n" }, {});
    const patch =
      "diff --git a/src/a.js b/src/b.js\nsimilarity index 100%\nrename from src/a.js\nrename to src/b.js\n";
    const g = await gateThenApply(patch, r, (p) => JSON.stringify(p.files));
    return ok(`${g.gate} | ${g.applied}`, !g.appliedOk || !g.allowed);
  },
  "patch-twin-past-the-gate-tree-cap": async () => {
    // 100,001 files sorted before src/: the tree's names the fix pipeline lists stop at GATE_TREE_FILES.
    const r = path.join(dir, "repo");
    execFileSync("python3", [
      "-c",
      `import os\nr=${JSON.stringify(r)}\nos.makedirs(r+"/a",exist_ok=True)\nos.makedirs(r+"/src",exist_ok=True)\nfor i in range(100001):\n  open(r+"/a/f%06d"%i,"w").close()\nopen(r+"/src/auth.js","w").write("x\\n")`,
    ]);
    const ws = await createFsWorkspace(r);
    // The names verify's gate (and fix's verification, before any apply) is given with the patch (red team 24).
    const treeFiles = await gateTreeNames(ws, newFile("src/Auth.js"));
    const g = evaluatePatch(newFile("src/Auth.js"), {}, { treeFiles });
    return ok(
      g.allowed
        ? `the gate (given the ${treeFiles.length} names the pipeline lists) allowed src/Auth.js beside src/auth.js`
        : `refused: ${short(g.violations.map((v) => v.message).join("; "), 200)}`,
      !g.allowed,
    );
  },
  // Logs.
  "log-osc8-hyperlink-test-name": () => {
    const name = "\u001b]8;;https://evil.example/x\u0007tests/test_a.py::test_x\u001b]8;;\u0007";
    const r = parse(`FAILED ${name} - assert 1 == 2\n== 1 failed in 0.1s ==\n`);
    const names = r.failures.map((f) => `${f.test ?? ""}`);
    const bad = names.filter((n) => /[\u001b\u0007]|evil\.example/.test(n));
    return ok(
      `${r.failures.length} failure(s): ${JSON.stringify(names.map((n) => short(n, 80)))}`,
      bad.length === 0,
    );
  },
  "log-200k-failures": () => {
    const lines: string[] = [];
    for (let i = 0; i < 200_000; i++) lines.push(`FAILED tests/test_a.py::test_${i} - assert ${i} == 0`);
    lines.push("== 200000 failed in 1.0s ==");
    const t0 = process.cpuUsage();
    const r = parse(`${lines.join("\n")}\n`);
    const u = process.cpuUsage(t0);
    const ms = Math.round((u.user + u.system) / 1000);
    return ok(
      `${r.failures.length} failures kept${r.stopped ? `, stopped: ${short(r.stopped.reason, 80)}` : ""}, ${ms} ms`,
      r.failures.length <= 10_000,
    );
  },
  "log-ansi-erase-line-hides-name": () => {
    const r = parse(
      "FAILED tests/test_ok.py::test_fine\u001b[2K\u001b[1Gtests/test_evil.py::test_x - boom\n== 1 failed ==\n",
    );
    const names = r.failures.map((f) => f.test ?? "");
    const bad = names.filter((n) => /\u001b/.test(n));
    return ok(`${JSON.stringify(names.map((n) => short(n, 80)))}`, bad.length === 0);
  },
  "pr-body-fallback-closing-keyword": async () =>
    readsPlain(
      await writtenText(
        fixed(newFile("src/extra.js"), {
          prBody: undefined,
          summary: "This fixes octo/app#1 and closes #2.",
        }),
        "pr",
      ),
    ),
  "comment-failed-error-fence-and-mention": async () =>
    withPublisher(async (p, fake) => {
      await publishFailure(p, job, "boom\n```\n@octo-org/security ![t](https://evil.example/p.png)\n\u202e");
      const bodies = fake.calls("POST", /\/comments$/).map((c) => String((c.body as { body?: string }).body));
      return readsPlain(bodies.join("\n"));
    }),
  "jobstore-lock-is-link-to-victim": async () => {
    const db = path.join(dir, "jobs.sqlite");
    const victim = path.join(dir, "victim.txt");
    // A stale lock (a process of this host that no longer runs) that is a link to a file outside.
    const dead = 4_000_000 - 7;
    writeFileSync(victim, `${dead} ${hostname()}`);
    symlinkSync(victim, `${db}.lock`);
    try {
      const store = await openSqliteJobStore(db);
      store.close();
    } catch (e) {
      return ok(
        `refused: ${short((e as Error).message, 160)}`,
        readFileSync(victim, "utf8") === `${dead} ${hostname()}`,
      );
    }
    const after = readFileSync(victim, "utf8");
    return ok(
      after === `${dead} ${hostname()}`
        ? "opened; the linked file is untouched"
        : `the linked file was overwritten: ${JSON.stringify(short(after, 60))}`,
      after === `${dead} ${hostname()}`,
    );
  },
  // The sandbox: output that floods, processes that fork.
  "sandbox-stdout-flood-and-fork": async () => {
    const before = process.memoryUsage().rss;
    const t = Date.now();
    const r = await createDockerSandbox({ image: sandboxImage }).run({
      jobId: "rt23-flood",
      command: [
        "sh",
        "-c",
        "head -c 1073741824 /dev/zero | tr '\\0' x; head -c 268435456 /dev/zero >&2; (for i in $(seq 1 2000); do sleep 30 & done) 2>/dev/null; echo done",
      ],
      env: { PATH: "/usr/bin:/bin" },
      limits: { timeoutMs: 40_000 },
    } as never);
    const grew = Math.round((process.memoryUsage().rss - before) / 1048576);
    return ok(
      `exit ${r.exitCode}, stdout ${r.stdout.length} chars, stderr ${r.stderr.length} chars, host RSS +${grew} MiB, ${Date.now() - t} ms`,
      r.stdout.length <= 64 * 1048576 && r.stderr.length <= 64 * 1048576 && grew < 512,
    );
  },
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => {
  void MARKER;
  process.exit(0);
});
