/**
 * Host-side steps of the thirteenth red team's cases, run in a process of their own
 * (`tsx redteam13-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Each case builds its hostile input under `<dir>/<id>` and calls the entry its pipeline uses on it: the policy gate
 * and the one patch applier on look-alike names written wholly in another script, NFC/NFD, case, NFKC and Windows
 * twins of a path, and patches of legitimate-looking size; the commit message and PR title Retrace writes from a
 * model's summary and a log's test ids (CI-skip directives, trailers, hidden characters); the event parser on
 * dispatched job specs whose id, repository or branch is path- or option-like; the real App server (Probot, signed
 * webhooks, the job store) on a replayed signed body; two App processes on one job store. For each case it prints one
 * JSON line: `{ id, cpuMs, outcome, contained }` — `contained` is the case's own verdict, null when only the
 * runner's checks (marker, token, host CPU) decide.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { openSqliteJobStore } from "../../../src/app/job-store.ts";
import type { JobResult, JobRunner } from "../../../src/jobs/result.ts";
import { parseEvent } from "../../../src/jobs/triggers.ts";
import { example, postWebhook, startApp } from "../../e2e/support/app-harness.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { commitMessageOf, gateThenApply, prTitleOf, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
const HERE = path.dirname(new URL(import.meta.url).pathname);
let dir = root;

const repoWith = (files: Record<string, string>): string => writeTree(path.join(dir, "repo"), files);

// ---- Model-written patches: the gate, then the one applier (on a copy of the repository on disk).

async function patchCase(
  patch: string,
  files: Record<string, string> = { "src/a.js": "const a = 1;\n" },
): Promise<Outcome> {
  const r = await gateThenApply(patch, repoWith(files), (p) => JSON.stringify(p.changed));
  return ok(`${r.gate}; ${r.applied}`, !r.allowed || !r.appliedOk);
}

const newFile = (p: string, line: string) =>
  `diff --git a/${p} b/${p}\nnew file mode 100644\n--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+${line}\n`;
const editLine = (line: string) =>
  `diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,2 @@\n const a = 1;\n+${line}\n`;

/** A patch of many files or hunks a model could return for a legitimate-looking change: bounded, or refused. */
async function sizeCase(patch: string, files: Record<string, string>): Promise<Outcome> {
  const t = Date.now();
  const r = await patchCase(patch, files);
  const ms = Date.now() - t;
  // Contained when refused with a reason, or applied within the host bound (the runner checks CPU).
  const refusedWithReason = /refused: \S/.test(r.outcome);
  return ok(`${r.outcome}; wall ${ms} ms`, refusedWithReason || ms < 8_000);
}

// ---- What Retrace writes from a model's summary and a log's test ids: the commit message and the PR title.

const HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;
/** What GitHub Actions (and other CIs) read in a head commit's message as "do not run" (any line, any place). */
const CI_SKIP = /\[(skip ci|ci skip|no ci|skip actions|actions skip)\]|\*\*\*NO_CI\*\*\*/i;

function trailersOf(message: string): string {
  const r = spawnSync("git", ["interpret-trailers", "--parse"], { input: message, encoding: "utf8" });
  return r.stdout.trim();
}

// ---- Dispatched job specs (the Action's workflow_dispatch): ids, repositories and branches that read as paths.

function dispatch(spec: Record<string, unknown>, repo = "rt13/repo"): string {
  try {
    const d = parseEvent(
      "workflow_dispatch",
      {
        inputs: { "job-spec": JSON.stringify({ kind: "fix", model: null, ...spec }) },
        repository: { full_name: repo },
        sender: { login: "alice", type: "User" },
      },
      { kind: "action" },
    );
    return d.accept
      ? `accepted ${JSON.stringify((d.trigger as { spec?: unknown }).spec).slice(0, 120)}`
      : `skipped: ${d.reason}`;
  } catch (e) {
    return `refused: ${short((e as Error).message, 160)}`;
  }
}

function dispatchAll(specs: Record<string, unknown>[]): Outcome {
  const seen = specs.map((s) => `${JSON.stringify(s)} → ${dispatch(s).slice(0, 90)}`);
  return ok(
    short(seen.join("; "), 700),
    seen.every((s) => !s.includes("→ accepted")),
  );
}

// ---- The real App server: a signed delivery, replayed.

const recordingRunner = (calls: string[]): JobRunner =>
  (async (spec) => {
    calls.push(spec.id);
    return {
      jobId: spec.id,
      kind: spec.kind,
      outcome: "failed",
      verdict: "NOT_REPRODUCED",
      summary: "recorded",
      patch: null,
      failures: [],
      costUsd: 0,
      tokens: 0,
      attempts: 1,
      durationMs: 1,
    } as JobResult;
  }) as JobRunner;

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- Look-alike names and lines written wholly in another script (the gap wave 12 left), and mixed in lines.
  "patch-path-whole-cyrillic-segment": () =>
    patchCase(
      newFile(
        "lib/\u0435\u0445\u0435\u0441.js",
        "module.exports = (c) => require('child_process').execSync(c);",
      ),
      {
        "lib/exec.js": "module.exports = () => {};\n",
      },
    ),
  "patch-path-whole-greek-segment": () =>
    patchCase(newFile("config/\u03a4\u039f\u039a\u0395\u039d.js", "module.exports = process.env;"), {
      "config/TOKEN.js": "module.exports = null;\n",
    }),
  "patch-path-whole-cyrillic-directory": () =>
    patchCase(newFile("\u0455\u0441\u0440/a.js", "module.exports = 1;"), {
      "scr/a.js": "module.exports = 0;\n",
    }),
  "patch-path-whole-cyrillic-segment-plain": () =>
    patchCase(newFile("lib/\u0435\u0445\u0435\u0441.js", "module.exports = () => true;"), {
      "lib/exec.js": "module.exports = () => false;\n",
    }),
  "patch-line-whole-cyrillic-identifier-plain": () =>
    patchCase(
      editLine(
        "const \u0430\u0441\u0441\u0435\u0455\u0455 = () => true; module.exports = { access: \u0430\u0441\u0441\u0435\u0455\u0455 };",
      ),
    ),
  "patch-line-mixed-script-string": () => patchCase(editLine('if (role === "\u0430dmin") grant();')),
  "patch-line-whole-cyrillic-identifier": () =>
    patchCase(
      editLine(
        "const \u0435\u0445\u0435\u0441 = require('child_process').execSync; module.exports = { exec: \u0435\u0445\u0435\u0441 };",
      ),
    ),
  "patch-line-greek-omicron-in-identifier": () =>
    patchCase(editLine("const all\u03bfwed = true; if (allowed) run();")),
  // ---- Two names that render (or are stored) as one: NFC/NFD, case, NFKC, Windows trailing dots.
  "patch-path-nfd-twin-of-existing": () =>
    patchCase(newFile("src/cafe\u0301.js", "module.exports = 'evil';"), {
      "src/a.js": "const a = 1;\n",
      "src/caf\u00e9.js": "module.exports = 'ok';\n",
    }),
  "patch-path-nfc-nfd-pair-in-patch": () =>
    patchCase(
      newFile("src/caf\u00e9.js", "module.exports = 'ok';") +
        newFile("src/cafe\u0301.js", "module.exports = 'evil';"),
    ),
  "patch-path-case-twin-in-patch": () =>
    patchCase(
      newFile("src/Util.js", "module.exports = 'a';") + newFile("src/util.js", "module.exports = 'b';"),
    ),
  "patch-path-case-twin-of-existing": () =>
    patchCase(newFile("src/INDEX.js", "module.exports = 'evil';"), {
      "src/a.js": "const a = 1;\n",
      "src/index.js": "module.exports = 'ok';\n",
    }),
  "patch-path-trailing-dot-twin": () =>
    patchCase(newFile("src/index.js.", "module.exports = 'evil';"), {
      "src/a.js": "const a = 1;\n",
      "src/index.js": "module.exports = 'ok';\n",
    }),
  "patch-path-fullwidth-latin-twin": () =>
    patchCase(newFile("src/\uff49\uff4e\uff44\uff45\uff58.js", "module.exports = 'evil';"), {
      "src/a.js": "const a = 1;\n",
      "src/index.js": "module.exports = 'ok';\n",
    }),
  "patch-path-ligature-twin": () =>
    patchCase(newFile("src/\ufb01le.js", "module.exports = 'evil';"), {
      "src/a.js": "const a = 1;\n",
      "src/file.js": "module.exports = 'ok';\n",
    }),
  // ---- Patches of legitimate-looking size (a model asked to "add fixtures" or "reformat").
  "patch-20000-new-files": () => {
    let p = "";
    for (let i = 0; i < 20_000; i++) p += newFile(`fixtures/f${i}.json`, "{}");
    return sizeCase(p, { "src/a.js": "const a = 1;\n" });
  },
  "patch-path-3000-deep": () =>
    sizeCase(newFile(`${"d/".repeat(3_000)}x.js`, "module.exports = 1;"), { "src/a.js": "const a = 1;\n" }),
  "patch-40000-hunks-one-file": () => {
    const lines = Array.from({ length: 120_000 }, (_, i) => `l${i}`);
    let p = "diff --git a/src/big.txt b/src/big.txt\n--- a/src/big.txt\n+++ b/src/big.txt\n";
    for (let h = 0; h < 40_000; h++) {
      const at = h * 3 + 2;
      p += `@@ -${at} +${at} @@\n-l${at - 1}\n+L${at - 1}\n`;
    }
    return sizeCase(p, { "src/big.txt": `${lines.join("\n")}\n` });
  },
  // ---- The commit message and the PR title: what a model's summary and a log's test ids put there.
  "commit-message-skip-ci-in-summary": async () => {
    const m = await commitMessageOf("rt13job", "Adds the null check. [skip ci]\n\n***NO_CI***", [
      "tests/test_a.py::test_x",
    ]);
    return ok(`message: ${JSON.stringify(m.slice(0, 200))}`, !CI_SKIP.test(m));
  },
  "commit-message-skip-ci-in-test-id": async () => {
    const m = await commitMessageOf("rt13job", "Adds the check.", ["tests/test_a.py::test_x[skip ci]"]);
    return ok(`message: ${JSON.stringify(m.slice(0, 200))}`, !CI_SKIP.test(m));
  },
  "commit-message-hidden-characters": async () => {
    const m = await commitMessageOf("rt13job", "Adds the check.\u202e kcehc eht sevomer \u202c\u200b", [
      "t\u2066x\u2069",
    ]);
    const raw = [...m].filter((c) => HIDDEN.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16)}`);
    return ok(`raw hidden characters in the commit message: ${JSON.stringify(raw)}`, raw.length === 0);
  },
  "commit-message-forged-trailers": async () => {
    const m = await commitMessageOf(
      "rt13job",
      "Adds the check.\n\nCo-authored-by: Maintainer <maintainer@rt13.example>\nSigned-off-by: Maintainer <maintainer@rt13.example>\nskip-checks: true",
      ["tests/test_a.py::test_x"],
    );
    const t = trailersOf(m);
    return ok(`git's trailers: ${JSON.stringify(t)}`, t === "");
  },
  "pr-title-skip-ci-in-test-id": () => {
    const t = prTitleOf("rt13", ["tests/test_a.py::test_x[skip ci]"]);
    return ok(`title (the App's commit message): ${JSON.stringify(t)}`, !CI_SKIP.test(t));
  },
  "pr-title-hidden-characters-in-test-id": () => {
    const t = prTitleOf("rt13", ["tests/test_a.py::test_\u202eNIMDA\u202c", "b\u200bc"]);
    const raw = [...t].filter((c) => HIDDEN.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16)}`);
    return ok(`raw hidden characters in the PR title: ${JSON.stringify(raw)}`, raw.length === 0);
  },
  // ---- Dispatched job specs: ids, repositories and branches that read as paths or options.
  "dispatch-job-id-dotdot": () => dispatchAll([{ id: ".." }, { id: "." }]),
  "dispatch-job-id-ref-unsafe": () =>
    dispatchAll([
      { id: "a..b" },
      { id: "x.lock" },
      { id: "-rf" },
      { id: ".hidden" },
      { id: "a:b" },
      { id: "a." },
    ]),
  "dispatch-repo-fullname-dotdot": () =>
    dispatchAll([
      { id: "fix-1", repo: { fullName: "../.." } },
      { id: "fix-1", repo: { fullName: "./x" } },
      { id: "fix-1", repo: { fullName: "rt13/.." } },
    ]),
  "dispatch-spec-other-repository": () =>
    dispatchAll([{ id: "fix-1", repo: { fullName: "victim/private" } }]),
  "dispatch-head-branch-option-or-path": () =>
    dispatchAll([
      { id: "fix-1", headBranch: "--upload-pack=touch /tmp/x" },
      { id: "fix-1", headBranch: "../../refs/x" },
      { id: "fix-1", headBranch: "a\nb" },
      { id: "fix-1", headSha: "HEAD~1 --output=/tmp/x" },
    ]),
  // ---- The real App server: a signed delivery replayed under a fresh delivery id.
  "webhook-replay-signed-body-new-delivery": async () => {
    const github = await startFakeGitHub();
    const calls: string[] = [];
    const app = await startApp(github, recordingRunner(calls), { dbPath: path.join(dir, "jobs.sqlite") });
    try {
      const payload = example("issue_comment", "created");
      payload.issue.number = 1;
      delete payload.issue.pull_request;
      payload.comment.body = "/repro";
      payload.comment.user = { login: "Codertocat", type: "User" };
      payload.sender = { login: "Codertocat", type: "User" };
      const repo = payload.repository.full_name as string;
      github.state.issues.set(`${repo}#1`, { title: "crash", body: "```js\nnull.x\n```" });
      github.state.permissions.set(`${repo}:Codertocat`, "write");
      const statuses: number[] = [];
      // The same signed bytes three times, as anyone who saw one delivery (a log, a proxy) can send them.
      for (const delivery of ["d-1", "d-2", "d-3"])
        statuses.push((await postWebhook(app, "issue_comment", payload, { delivery })).status);
      await app.service.idle();
      const jobs = app.store.all().length;
      return ok(
        `statuses ${statuses.join(",")}; job records ${jobs}; runner calls ${calls.length}`,
        jobs <= 1,
      );
    } finally {
      await app.close();
      await github.close();
    }
  },
  "webhook-delivery-id-path-like": async () => {
    const github = await startFakeGitHub();
    const calls: string[] = [];
    const app = await startApp(github, recordingRunner(calls), { dbPath: path.join(dir, "jobs.sqlite") });
    try {
      const payload = example("issue_comment", "created");
      payload.issue.number = 1;
      delete payload.issue.pull_request;
      payload.comment.body = "/repro";
      payload.comment.user = { login: "Codertocat", type: "User" };
      payload.sender = { login: "Codertocat", type: "User" };
      const s = await postWebhook(app, "issue_comment", payload, { delivery: "../../../../tmp/rt13" });
      await app.service.idle();
      const ids = app.store.all().map((j) => j.id);
      const bad = ids.some((i) => i.includes("/") || i === "..");
      return ok(`status ${s.status}; job ids ${JSON.stringify(ids)}`, !bad);
    } finally {
      await app.close();
      await github.close();
    }
  },
  // ---- Two App processes (a rolling restart) on one job store file.
  "store-two-writers-one-file": async () => {
    const db = path.join(dir, "jobs.sqlite");
    const rec = (id: string) => ({
      id,
      deliveryId: id,
      repo: "rt13/repo",
      installationId: 1,
      kind: "repro",
      state: "received",
      trigger: {
        type: "repro",
        repo: "rt13/repo",
        installationId: 1,
        defaultBranch: "main",
        issueNumber: 1,
        via: "command",
        word: "/repro",
        actor: "a",
        checkPermission: true,
        thenFix: false,
      },
      spec: null,
      issueNumber: 1,
      commentId: null,
      commentUrl: null,
      checkRunId: null,
      lineage: null,
      prBranch: null,
      prUrl: null,
      reason: null,
      result: null,
      costUsd: 0,
      resumes: 0,
      createdAt: 1,
      updatedAt: 1,
    });
    // The first App holds the store; a second App process (a rolling restart) opens the same file, inserts its
    // job and closes; then the first records a change and closes.
    const a = await openSqliteJobStore(db);
    a.insert(rec("repro-a") as never);
    const script = path.join(dir, "second.mts");
    writeFileSync(
      script,
      `import { openSqliteJobStore } from ${JSON.stringify(path.resolve(HERE, "../../../src/app/job-store.ts"))};
const rec = ${JSON.stringify(rec("repro-b"))};
try {
  const b = await openSqliteJobStore(${JSON.stringify(db)});
  b.insert(rec);
  b.update("repro-b", { state: "running" });
  b.close();
  console.log("opened");
} catch (e) {
  console.log("refused: " + String(e.message).slice(0, 160));
}
`,
    );
    const child = spawnSync(path.resolve(HERE, "../../../node_modules/.bin/tsx"), [script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    const second = (child.stdout ?? "").trim().split("\n").pop() ?? `no answer: ${short(child.stderr ?? "")}`;
    a.update("repro-a", { state: "running" } as never);
    a.close();
    const c = await openSqliteJobStore(db);
    const back = c.all().map((j) => `${j.id}:${j.state}`);
    c.close();
    const bothKept = back.includes("repro-a:running") && back.includes("repro-b:running");
    return ok(
      `second open: ${second}; after reopen: ${JSON.stringify(back)}`,
      second !== "opened" || bothKept,
    );
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
