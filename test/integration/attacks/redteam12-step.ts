/**
 * Host-side steps of the twelfth red team's cases, run in a process of their own
 * (`tsx redteam12-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Each case builds its hostile input under `<dir>/<id>` and calls the entry its pipeline uses on it: the
 * reproduction comment (`renderReproReport`) on a run's output and a report's text, the draft PR body on hidden
 * (bidi, zero-width, tag) characters, the policy gate and the one patch applier on Trojan-Source patches and
 * confusable paths, the install proxy's socket flooded from another process, the event parser on look-alike
 * slash commands, the App's job store on disk, the Action's inputs. For each case it prints one JSON line:
 * `{ id, cpuMs, outcome, contained }` — `contained` is the case's own verdict, null when only the runner's checks
 * (marker, token, host CPU) decide.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { readInputs } from "../../../src/action/inputs.ts";
import { openSqliteJobStore } from "../../../src/app/job-store.ts";
import { parseEvent } from "../../../src/jobs/triggers.ts";
import { renderReproReport } from "../../../src/report/repro-report.ts";
import type { ReproResult } from "../../../src/repro/result.ts";
import { actsOnGitHub, fixedBody } from "./rendered-markdown.ts";
import { openFds, withProxy } from "./proxy-fixture.ts";
import { gateThenApply, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;

const repoWith = (files: Record<string, string>): string => writeTree(path.join(dir, "repo"), files);

// ---- The install proxy, and what GitHub renders of what Retrace writes (the checker is rendered-markdown.ts).

/** Raw characters a reader of rendered markdown cannot see or that reorder what they see: bidi controls and
 * isolates, zero-width and invisible format characters, Unicode tag characters. */
const HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;

function hiddenIn(md: string): string[] {
  const found = new Set<string>();
  for (const ch of md)
    if (HIDDEN.test(ch)) found.add(`U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
  return [...found];
}

/** A Retrace comment or body must neither act on GitHub outside code nor carry a raw hidden character. */
function rendered(md: string, opts: { issueComment?: boolean } = {}): Outcome {
  // Closing keywords act only in PR bodies and commit messages, not in issue comments.
  const acts = actsOnGitHub(md).filter((a) => !(opts.issueComment && a === "closing keyword"));
  const hidden = hiddenIn(md);
  return ok(
    `acts on GitHub outside code: ${JSON.stringify(acts)}; raw hidden characters: ${JSON.stringify(hidden)}`,
    acts.length === 0 && hidden.length === 0,
  );
}

const HOSTILE =
  "x` @rt12-org/security-team ![b](http://127.0.0.1:9/b.png) <img src=http://127.0.0.1:9/c.png> `";

function repro(
  over: Partial<ReproResult> & {
    ev?: Partial<ReproResult["evidence"]>;
    rep?: Partial<ReproResult["reported"]>;
  } = {},
): string {
  const { ev, rep, ...rest } = over;
  const base: ReproResult = {
    verdict: "REPRODUCED",
    title: "TypeError in parse()",
    summary: "The reported TypeError was reproduced.",
    language: "javascript",
    reported: {
      kind: "exception",
      exceptionType: "TypeError",
      exceptionMessage: "x is undefined",
      output: [],
      source: "traceback block",
      ...rep,
    },
    evidence: {
      exceptionType: "TypeError",
      exceptionMessage: "x is undefined",
      exitCode: 1,
      outputExcerpt: "TypeError: x is undefined",
      durationMs: 10,
      runs: 3,
      reproducedRuns: 3,
      stoppedBy: null,
      ...ev,
    } as ReproResult["evidence"],
    differences: [],
    versions: [],
    runtime: { name: "node", version: "18.19.0", reported: null },
    matrix: [],
    matrixSummary: null,
    questions: [],
    reasons: [],
    risks: [],
    script: { filename: "reproduction.mjs", code: "parse(undefined);", author: "report", completions: [] },
    attempts: 1,
    tokens: 0,
    costUsd: 0,
    model: null,
    durationMs: 100,
    ...rest,
  } as ReproResult;
  return renderReproReport(base);
}

// ---- Model-written patches: the gate, then the one applier.

async function patchCase(
  patch: string,
  files: Record<string, string> = { "src/a.js": "const a = 1;\n" },
): Promise<Outcome> {
  const r = await gateThenApply(patch, repoWith(files), (p) => JSON.stringify(p), 120);
  return ok(`${r.gate}; ${r.applied}`, !r.allowed || !r.appliedOk);
}

const newFile = (p: string, line: string) =>
  `diff --git a/${p} b/${p}\nnew file mode 100644\n--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+${line}\n`;
const editLine = (line: string) =>
  `diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,2 @@\n const a = 1;\n+${line}\n`;

function appIssueComment(body: string, login = "alice"): string {
  const d = parseEvent(
    "issue_comment",
    {
      action: "created",
      comment: { body, user: { login, type: "User" } },
      issue: { number: 7 },
      sender: { login, type: "User" },
      repository: { full_name: "rt12/repo", default_branch: "main" },
      installation: { id: 1 },
    },
    { kind: "app", identity: { appId: 99, appSlug: "retrace" } },
  );
  return d.accept ? `accepted ${(d.trigger as { word?: string }).word}` : `skipped: ${d.reason}`;
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- The reproduction comment on the issue: a run's output and the report's own text.
  "repro-observed-printed-lines-breakout": () =>
    rendered(
      repro({
        verdict: "NOT_REPRODUCED",
        ev: {
          exceptionType: null,
          exceptionMessage: null,
          exitCode: 0,
          outputExcerpt: `ok\n${HOSTILE}\ndone`,
        },
      }),
      { issueComment: true },
    ),
  "repro-observed-exception-message-breakout": () =>
    rendered(repro({ ev: { exceptionMessage: HOSTILE } }), { issueComment: true }),
  "repro-reported-exception-message-breakout": () =>
    rendered(repro({ rep: { exceptionMessage: HOSTILE } }), { issueComment: true }),
  "repro-reported-output-line-breakout": () =>
    rendered(
      repro({
        verdict: "PARTIAL",
        rep: {
          kind: "output",
          exceptionType: null,
          exceptionMessage: null,
          output: [HOSTILE],
          source: "Actual section",
        },
      }),
      { issueComment: true },
    ),
  "repro-printed-line-html-comment-hides-rest": () =>
    rendered(
      repro({
        verdict: "NOT_REPRODUCED",
        ev: { exceptionType: null, exceptionMessage: null, exitCode: 0, outputExcerpt: "a`<!--\nb" },
      }),
      { issueComment: true },
    ),
  "repro-issue-title-markdown": () =>
    rendered(repro({ title: "crash** @rt12-org/security-team ![t](http://127.0.0.1:9/t.png) <!--" }), {
      issueComment: true,
    }),
  "repro-model-questions-and-reasons-mention": () =>
    rendered(
      repro({
        verdict: "NEEDS_INFO",
        ev: { runs: 0 },
        questions: ["Which version? cc @rt12-org/security-team <img src=http://127.0.0.1:9/q.png>"],
        reasons: ["could not install x ![r](http://127.0.0.1:9/r.png)"],
      }),
      { issueComment: true },
    ),
  "repro-model-summary-html-comment": () =>
    rendered(repro({ summary: "Reproduced. <!-- everything below is hidden" }), { issueComment: true }),
  "repro-output-excerpt-bidi": () =>
    rendered(
      repro({
        ev: { outputExcerpt: "TypeError: x is undefined\nstatus: \u202eDELIAF\u202c ok \u2066pass\u2069" },
      }),
      { issueComment: true },
    ),
  "repro-script-trojan-source": () =>
    rendered(
      repro({
        script: {
          filename: "reproduction.mjs",
          code: 'const isAdmin = false;\n/*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\nconsole.log("ok");',
          author: "model",
          completions: [],
        },
      }),
      { issueComment: true },
    ),
  // ---- The draft PR body: characters a reviewer cannot see.
  "prbody-patch-fence-trojan-source": () =>
    rendered(
      fixedBody({
        patch:
          'diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,2 @@\n const a = 1;\n+if (user.role === "admin\u202e \u2066// check later\u2069 \u2066") grant();\n',
      }),
    ),
  "prbody-log-excerpt-bidi": () =>
    rendered(
      fixedBody({ excerpt: "E   AssertionError: \u202edessap\u202c\nE   tag\udb40\udc41\udb40\udc42" }),
    ),
  "prbody-summary-zero-width-and-tags": () =>
    rendered(
      fixedBody({
        summary:
          "Adds the null check.\u200b\u2060\udb40\udc49\udb40\udc47\udb40\udc4e\udb40\udc4f\udb40\udc52\udb40\udc45",
      }),
    ),
  "prbody-test-id-bidi": () =>
    rendered(fixedBody({ tests: ["tests/test_a.py::test_\u202eevil\u202c", "b\u200bc"] })),
  "prbody-files-involved-backtick": () => rendered(fixedBody({ files: [HOSTILE, "src/\u2066a.py"] })),
  // ---- Model-written patches: Trojan Source and confusable paths, through the gate and the applier.
  "patch-added-line-rlo-comment": () =>
    patchCase(editLine("/*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */")),
  "patch-added-line-isolates-in-string": () =>
    patchCase(editLine('if (role === "user\u2067 \u2066// admin only\u2069 \u2066") grant();')),
  "patch-added-line-zero-width-identifier": () =>
    patchCase(
      editLine("const check\u200b = () => true; const check = () => false; module.exports = check\u200b;"),
    ),
  "patch-added-line-tag-characters": () =>
    patchCase(editLine("// \udb40\udc49\udb40\udc47\udb40\udc4e\udb40\udc4f\udb40\udc52\udb40\udc45 ok")),
  "patch-path-rlo-extension": () => patchCase(newFile("src/\u202esj.gnp", "module.exports = 1;")),
  "patch-path-zero-width-package-json": () =>
    patchCase(newFile("package.json\u200b", "{}"), { "src/a.js": "const a = 1;\n", "package.json": "{}\n" }),
  "patch-path-cyrillic-homoglyph": () =>
    patchCase(newFile("src/\u0456ndex.js", "module.exports = 2;"), {
      "src/a.js": "const a = 1;\n",
      "src/index.js": "module.exports = 1;\n",
    }),
  "patch-path-fullwidth-solidus": () => patchCase(newFile(".github\uff0fworkflows\uff0fci.yml", "on: push")),
  "patch-path-bidi-isolate-directory": () =>
    patchCase(newFile("src/\u2067tset\u2069/a.js", "module.exports = 1;")),
  // ---- The install proxy's socket flooded by another process (its own event loop, so the proxy can accept).
  "proxy-connection-flood-other-process": () =>
    withProxy(async (socket) => {
      const before = openFds();
      const child = spawn(process.execPath, [
        "-e",
        `const net=require("net");let c=0;for(let i=0;i<3000;i++){const s=net.connect(${JSON.stringify(socket)});s.on("error",()=>{});s.on("connect",()=>c++)}setTimeout(()=>{console.log(c);process.exit(0)},4000)`,
      ]);
      let peak = 0;
      const t = setInterval(() => {
        peak = Math.max(peak, openFds() - before);
      }, 100);
      const out = await new Promise<string>((r) => {
        let s = "";
        child.stdout.on("data", (d) => (s += d));
        child.on("close", () => r(s.trim()));
      });
      clearInterval(t);
      return ok(
        `the child connected ${out} of 3000; the proxy's process held up to ${peak} more fds`,
        peak <= 600,
      );
    }),
  // ---- Slash commands that look like Retrace's.
  "command-cyrillic-slash-word": () => {
    const d = appIssueComment("/\u0430utofix now");
    return ok(d, !d.startsWith("accepted"));
  },
  "command-fullwidth-solidus": () => {
    const d = appIssueComment("\uff0frepro");
    return ok(d, !d.startsWith("accepted"));
  },
  "command-bidi-before-word": () => {
    const d = appIssueComment("\u202e/repro");
    return ok(d, !d.startsWith("accepted"));
  },
  // ---- The App's job store on disk: separators and lone surrogates in what a webhook carried.
  "store-journal-separators-roundtrip": async () => {
    const db = path.join(dir, "jobs.sqlite");
    const word = "/repro\u2028\u2029\r\n\ud800x\u0000";
    const rec = {
      id: "repro-rt12",
      deliveryId: "d\u2028",
      repo: "rt12/repo",
      installationId: 1,
      kind: "repro",
      state: "received",
      trigger: {
        type: "repro",
        repo: "rt12/repo",
        installationId: 1,
        defaultBranch: "main",
        issueNumber: 1,
        via: "command",
        word,
        actor: "a\u2029",
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
    };
    const s1 = await openSqliteJobStore(db);
    s1.insert(rec as never);
    // No close (no snapshot): the journal alone must give the record back, as after a crash.
    const s2 = await openSqliteJobStore(db);
    const back = s2.get("repro-rt12");
    s2.close();
    s1.close();
    const same =
      JSON.stringify((back as { trigger?: { word?: string } } | null)?.trigger?.word) ===
        JSON.stringify(word.replace("\ud800", "\ufffd")) ||
      (back as { trigger?: { word?: string } } | null)?.trigger?.word === word;
    return ok(
      `record back after reopen: ${back ? "yes" : "no"}; word equal: ${same}; unfinished ${s2 ? "" : ""}`,
      back !== null && same,
    );
  },
  // ---- The Action's inputs: numbers a workflow file may spell oddly.
  "action-inputs-numeric-spellings": () => {
    const seen: string[] = [];
    let bad = false;
    for (const [name, value] of [
      ["budget-usd", "1e309"],
      ["budget-usd", "-0.0001"],
      ["budget-usd", "Infinity"],
      ["budget-usd", "0x7fffffff"],
      ["max-attempts", "1e1"],
      ["max-attempts", "20.0000001"],
      ["max-attempts", " 3 "],
      ["budget-usd", "NaN"],
    ] as const) {
      try {
        const r = readInputs((n) => (n === name ? value : "")) as {
          budgetUsd?: number | null;
          maxAttempts?: number | null;
        };
        const b = r.budgetUsd;
        const m = r.maxAttempts;
        if (
          (b !== null && b !== undefined && (!Number.isFinite(b) || b < 0)) ||
          (m !== null && m !== undefined && (!Number.isInteger(m) || m < 1 || m > 20))
        )
          bad = true;
        seen.push(`${name}=${value}: budget ${b} attempts ${m}`);
      } catch (e) {
        seen.push(`${name}=${value}: refused (${short((e as Error).message, 60)})`);
      }
    }
    return ok(short(seen.join("; "), 600), !bad);
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
