/**
 * Host-side steps of the twenty-first red team's cases, run in a process of their own
 * (`tsx redteam21-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–20 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes, octal names and collected reports; this one goes to name confusion a reviewer cannot see (a
 * patch's file names that look like or fold onto another file: Cyrillic and Greek letters, case, a trailing dot, a
 * full-width solidus; identifiers mixing scripts), what the host unpacks from a container, GitHub and an artifact
 * (hard links, devices, setuid bits, duplicate and over-long names), package names in a report spelled with
 * look-alike letters or as local paths, the comment commands a bot, an edit or a deletion sends, a directory left
 * where a report is collected, and the two classes wave 20 left open (a JUnit tag left open over many short lines,
 * a reader's flood of comment commands). One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync, deflateRawSync } from "node:zlib";
import tarStream from "tar-stream";
import { unpackTarball } from "../../../src/github/tarball.ts";
import { unzip } from "../../../src/github/unzip.ts";
import { extractChecked } from "../../../src/install/extract.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { example, postWebhook, startApp } from "../../e2e/support/app-harness.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { sandboxImage } from "../../support/docker.ts";
import { lines, log } from "./parse-step.ts";
import { gateThenApply, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MiB = 1024 * 1024;

// ---- Patches whose names or identifiers look like others.

function repo(): string {
  const r = writeTree(path.join(dir, "repo"), {
    "src/auth.js": "const ok = check(user);\nif (ok) allow();\n",
    "src/config.js": "module.exports = {};\n",
  });
  execFileSync("git", ["init", "-q"], { cwd: r });
  return r;
}

const newFile = (name: string, line = "module.exports = () => true;") =>
  `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+${line}\n`;

const changeAuth = (line: string) =>
  `diff --git a/src/auth.js b/src/auth.js\n--- a/src/auth.js\n+++ b/src/auth.js\n@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+${line}\n`;

/** Contained when the gate refuses the patch (the pipeline gates before it applies, given the tree's names). */
async function gated(patch: string): Promise<Outcome> {
  const r = await gateThenApply(
    patch,
    repo(),
    (p) => JSON.stringify(Object.keys(p.files).slice(0, 3)),
    160,
    true,
  );
  return ok(`${r.gate} | ${r.applied}`, !r.allowed);
}

// ---- What the host unpacks: an install container's tar, GitHub's repository tarball, an artifact zip.

type Entry = { name: string; type?: string; body?: string; mode?: number; linkname?: string };

async function tarOf(entries: Entry[]): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((r) => {
    pack.on("end", () => r());
  });
  for (const e of entries) {
    await new Promise<void>((res, rej) =>
      pack.entry(
        {
          name: e.name,
          type: (e.type ?? "file") as "file",
          mode: e.mode ?? 0o644,
          linkname: e.linkname,
          devmajor: 1,
          devminor: 3,
        },
        e.body ?? "",
        (err) => (err ? rej(err) : res()),
      ),
    );
  }
  pack.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** Every file under `d` with its mode (setuid and setgid shown). */
function listing(d: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    for (const n of readdirSync(p)) {
      const f = path.join(p, n);
      const s = lstatSync(f);
      out.push(
        `${path.relative(d, f).slice(0, 60)}:${(s.mode & 0o7777).toString(8)}${s.isFile() ? "" : s.isDirectory() ? "/" : "@"}`,
      );
      if (s.isDirectory()) walk(f);
    }
  };
  walk(d);
  return out;
}

/** The install output unpacked; contained when refused, or when what landed has no special bit and no odd type. */
async function installTar(entries: Entry[]): Promise<Outcome> {
  const dest = path.join(dir, "out");
  try {
    const r = await extractChecked(Readable.from([await tarOf(entries)]), dest, {
      maxFiles: 10_000,
      maxBytes: 64 * MiB,
    });
    const l = listing(dest);
    const special = l.filter((x) => /:[4-7][0-7]{3}/.test(x));
    return ok(`unpacked ${r.files} entries: ${short(l.join(" "), 160)}`, special.length === 0);
  } catch (e) {
    return ok(`refused: ${short((e as Error).message, 160)}`, true);
  }
}

async function repoTarball(entries: Entry[]): Promise<Outcome> {
  const dest = writeTree(path.join(dir, "checkout"), {});
  try {
    const r = await unpackTarball(
      gzipSync(await tarOf(entries.map((e) => ({ ...e, name: `o-r-sha/${e.name}` })))),
      dest,
    );
    const l = listing(dest);
    const special = l.filter((x) => /:[4-7][0-7]{3}/.test(x));
    return ok(
      `unpacked ${r.files} files, ${r.links} links: ${short(l.join(" "), 160)}`,
      special.length === 0,
    );
  } catch (e) {
    return ok(`refused: ${short((e as Error).message, 160)}`, true);
  }
}

/** A zip of stored entries, `central` naming each entry in the central directory (the local header keeps `name`). */
function zipOf(entries: { name: string; body: string; central?: string; deflate?: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const body = Buffer.from(e.body);
    const data = e.deflate ? deflateRawSync(body) : body;
    const name = Buffer.from(e.name);
    const cname = Buffer.from(e.central ?? e.name);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(e.deflate ? 8 : 0, 8);
    lh.writeUInt32LE(data.length, 18);
    lh.writeUInt32LE(body.length, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(e.deflate ? 8 : 0, 10);
    ch.writeUInt32LE(data.length, 20);
    ch.writeUInt32LE(body.length, 24);
    ch.writeUInt16LE(cname.length, 28);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, data);
    centrals.push(ch, cname);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

const RESULT = (verdict: string) => JSON.stringify({ jobId: "j1", kind: "fix", verdict });

/** Contained when the artifact is refused: each shape here names one file two ways (a second result.json, a central name that is not the local one). */
function artifact(zip: Buffer): Outcome {
  try {
    const files = unzip(zip);
    const r = files.get("result.json");
    return ok(
      `read ${files.size} file(s): ${JSON.stringify([...files.keys()].slice(0, 4))}; result.json ${r ? new TextDecoder().decode(r) : "absent"}`,
      false,
    );
  } catch (e) {
    return ok(`refused: ${short((e as Error).message, 160)}`, true);
  }
}

// ---- Package names in a report.

function reportPackages(steps: string, code: string, lang = "python"): Outcome {
  const report = `### Bug\nIt crashes.\n\n### Steps to reproduce\n\`\`\`console\n${steps}\n\`\`\`\n\n\`\`\`${lang}\n${code}\n\`\`\`\n\n### Actual\n\`\`\`\nKeyError: 'font'\n\`\`\`\n`;
  const program = completeProgram(parseReport(report));
  if (!program) return ok("no program was built from the report", true);
  const odd = program.dependencies.filter((d) => /[^\x21-\x7e]|^[./~]|:|\//.test(d));
  return ok(
    `dependencies ${JSON.stringify(program.dependencies)}${odd.length ? ` (not a registry name: ${JSON.stringify(odd)})` : ""}`,
    odd.length === 0,
  );
}

// ---- The App: comment commands from a bot, an edit, a deletion; a reader's flood.

async function appRun(
  deliveries: (app: { url: string }) => Promise<Response[]>,
  permission: string,
  login = "Codertocat",
): Promise<{ jobs: number; ran: number; statuses: string }> {
  const github = await startFakeGitHub();
  github.state.permissions.set(`Codertocat/Hello-World:${login}`, permission);
  let ran = 0;
  const runner = {
    run: async () => {
      ran++;
      throw new Error("no job may run in this case");
    },
  };
  const app = await startApp(github, runner as never, { dbPath: path.join(dir, "jobs.sqlite") });
  try {
    const rs = await deliveries(app);
    await app.service.idle();
    const counts: Record<number, number> = {};
    for (const r of rs) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return { jobs: app.store.all().length, ran, statuses: JSON.stringify(counts) };
  } finally {
    await app.close();
    await github.close();
  }
}

function comment(action: string, login: string, type: string, body = "/retrace") {
  const p = example("issue_comment", "created");
  p.action = action;
  p.comment.id = Math.floor(Math.random() * 1e9);
  p.comment.body = body;
  p.comment.user = { login, type };
  p.sender = { login, type };
  if (action === "edited") p.changes = { body: { from: "thanks" } };
  return p;
}

// ---- A directory left where the host collects a report (real engine).

async function collectDir(script: string): Promise<Outcome> {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  const before = process.memoryUsage().rss;
  const r = await sandbox.run({
    jobId: `rt21-${randomUUID().slice(0, 8)}`,
    command: ["sh", "-c", script],
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" },
    input: { files: { "README.md": "x\n" } },
    collect: ["report.xml"],
    // How the test runner and verify collect their report (a file), since the fix of this class.
    collectFilesOnly: true,
    limits: { timeoutMs: 30_000 },
  });
  const grown = Math.round((process.memoryUsage().rss - before) / MiB);
  const names = Object.keys(r.files);
  return ok(
    `host received ${names.length} file(s) ${JSON.stringify(names.slice(0, 3))}, too large ${JSON.stringify(r.collectTooLarge ?? [])}, host RSS +${grown} MiB`,
    names.length <= 1,
  );
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // A patch's names that look like, or fold onto, another file.
  "patch-new-file-cyrillic-lookalike-of-existing": () =>
    gated(newFile("src/\u0430uth.js", "module.exports = () => allow();")),
  "patch-new-file-greek-lookalike-directory": () => gated(newFile("\u0455rc/auth.js")),
  "patch-new-file-case-fold-of-existing": () => gated(newFile("src/Auth.js")),
  "patch-two-new-files-same-case-fold": () => gated(newFile("src/util.js") + newFile("src/UTIL.js", "x")),
  "patch-new-file-trailing-dot": () => gated(newFile("src/auth.js.")),
  "patch-new-file-fullwidth-solidus": () => gated(newFile("src\uff0fauth.js")),
  "patch-new-file-nfd-of-nfc-sibling": () =>
    gated(newFile("src/caf\u00e9.js") + newFile("src/cafe\u0301.js", "x")),
  "patch-line-mixed-script-identifier": () => gated(changeAuth("if (\u043ek) allow();")),
  "patch-line-greek-question-mark-statement": () => gated(changeAuth("if (ok) allow()\u037e")),
  // What the host unpacks from an install container.
  "install-tar-hard-link-to-passwd": () =>
    installTar([{ name: "node_modules/a/x", type: "link", linkname: "/etc/passwd" }]),
  "install-tar-char-device": () => installTar([{ name: "node_modules/a/null", type: "character-device" }]),
  "install-tar-setuid-file": () =>
    installTar([{ name: "node_modules/.bin/tool", body: "#!/bin/sh\n", mode: 0o6755 }]),
  "install-tar-path-5000-bytes": () =>
    installTar([{ name: `node_modules/${"a".repeat(200)}/`.repeat(25) + "x.js", body: "x" }]),
  "install-tar-duplicate-entry-names": () =>
    installTar([
      { name: "node_modules/a/index.js", body: "good" },
      { name: "node_modules/a/index.js", body: "evil" },
    ]),
  "install-tar-file-then-directory-same-name": () =>
    installTar([
      { name: "node_modules/a", body: "x" },
      { name: "node_modules/a/index.js", body: "evil" },
    ]),
  // What the host unpacks from GitHub's repository tarball.
  "tarball-setuid-and-fifo": () =>
    repoTarball([
      { name: "bin/tool", body: "#!/bin/sh\n", mode: 0o4755 },
      { name: "fifo", type: "fifo" },
    ]),
  "tarball-block-device": () => repoTarball([{ name: "disk", type: "block-device" }]),
  "tarball-name-4000-bytes": () => repoTarball([{ name: `${"d".repeat(250)}/`.repeat(16) + "x", body: "x" }]),
  // An artifact zip the App reads a verdict from.
  "artifact-two-result-json": () =>
    artifact(
      zipOf([
        { name: "result.json", body: RESULT("NOT_FIXED") },
        { name: "result.json", body: RESULT("FIXED") },
      ]),
    ),
  "artifact-central-name-differs-from-local": () =>
    artifact(zipOf([{ name: "notes.txt", central: "result.json", body: RESULT("FIXED") }])),
  "artifact-result-json-nfd-and-dot-slash": () =>
    artifact(
      zipOf([
        { name: "result.json", body: RESULT("NOT_FIXED") },
        { name: "./result.json", body: RESULT("FIXED") },
      ]),
    ),
  // Package names in a report.
  "report-pip-cyrillic-lookalike-name": () =>
    reportPackages("$ pip install r\u0435quests", "import requests\nprint({}['font'])"),
  "report-npm-homoglyph-require": () =>
    reportPackages(
      "$ npm install \u0435xpress",
      "const e = require('\u0435xpress');\nconsole.log(e.font.size);",
      "js",
    ),
  "report-python-import-fullwidth-name": () =>
    reportPackages("$ pip install ｒequests", "import ｒequests\nprint({}['font'])"),
  "report-npm-require-file-path-spec": () =>
    reportPackages(
      "$ npm install file:../../../etc",
      "const e = require('file:../../etc');\nconsole.log(e.x.y);",
      "js",
    ),
  // Comment commands the App reads.
  "app-command-from-bot-with-write": async () => {
    const r = await appRun(
      (app) => Promise.all([postWebhook(app, "issue_comment", comment("created", "ci-bot[bot]", "Bot"))]),
      "write",
      "ci-bot[bot]",
    );
    return ok(
      `a bot's /retrace: ${r.jobs} job record(s), runner called ${r.ran}, statuses ${r.statuses}`,
      r.ran === 0,
    );
  },
  "app-command-in-edited-comment-by-writer": async () => {
    const r = await appRun(
      (app) => Promise.all([postWebhook(app, "issue_comment", comment("edited", "Codertocat", "User"))]),
      "write",
    );
    return ok(
      `an edit adding /retrace: ${r.jobs} job record(s), runner called ${r.ran}, statuses ${r.statuses}`,
      r.ran === 0,
    );
  },
  "app-command-in-deleted-comment": async () => {
    const r = await appRun(
      (app) => Promise.all([postWebhook(app, "issue_comment", comment("deleted", "Codertocat", "User"))]),
      "write",
    );
    return ok(
      `a deleted /retrace: ${r.jobs} job record(s), runner called ${r.ran}, statuses ${r.statuses}`,
      r.ran === 0 && r.jobs === 0,
    );
  },
  "app-command-flood-by-reader-records": async () => {
    const r = await appRun(
      (app) =>
        Promise.all(
          Array.from({ length: 60 }, () =>
            postWebhook(app, "issue_comment", comment("created", "reader", "User")),
          ),
        ),
      "read",
      "reader",
    );
    return ok(
      `60 commands by a reader: ${r.jobs} job record(s), runner called ${r.ran}, statuses ${r.statuses}`,
      r.ran === 0 && r.jobs <= 5,
    );
  },
  // Wave 20's open class: a legitimate report whose tag is left open across many short lines is read, in linear time.
  "junit-open-tag-short-lines-8mib-read": () => {
    const text = `<?xml version="1.0"?>\n<testsuites>\n<testsuite name="a"\n${lines("x", 8 * MiB)}`;
    const t0 = process.cpuUsage();
    const r = log(text, true);
    const u = process.cpuUsage(t0);
    const ms = Math.round((u.user + u.system) / 1000);
    return ok(`${r.outcome}; ${ms} ms`, r.contained === true && ms <= 2_500);
  },
  // A directory where the report is collected (real engine).
  "collect-report-directory-20k-files": () =>
    collectDir(
      "mkdir report.xml && cd report.xml && seq 1 20000 | xargs touch && echo '<testsuites/>' > a.xml",
    ),
  // Added after the first try: the classes of its fixes, and controls that the fixes leave legitimate input alone.
  "patch-path-kelvin-sign": () => gated(newFile("src/\u212aelvin.js")),
  "patch-line-accented-and-cjk-punctuation-allowed": async () => {
    const r = await gateThenApply(
      changeAuth('const label = "café, niño, 中文，句号。"; if (ok) allow();'),
      repo(),
      (p) => JSON.stringify(Object.keys(p.files)),
    );
    return ok(`${r.gate} | ${r.applied}`, r.allowed && r.appliedOk);
  },
  "artifact-plain-result-and-trace-read": () => {
    const zip = zipOf([
      { name: "result.json", body: RESULT("NOT_FIXED"), deflate: true },
      { name: "trace.json", body: "{}" },
    ]);
    try {
      const files = unzip(zip);
      return ok(`read ${[...files.keys()].join(", ")}`, files.size === 2 && files.has("result.json"));
    } catch (e) {
      return ok(`refused a plain artifact: ${(e as Error).message}`, false);
    }
  },
  "junit-tag-over-lines-then-failure-read": () => {
    const text = `<?xml version="1.0"?>\n<testsuites>\n<testsuite name="a"\n${lines('  x="1"', 64 * 1024)}>\n<testcase classname="c" name="t"><failure message="boom">boom</failure></testcase>\n</testsuite>\n</testsuites>\n`;
    const r = log(text, true);
    return ok(r.outcome, r.contained === true && /read: 1 failures/.test(r.outcome));
  },
  "app-writer-commands-on-two-issues-both-taken": async () => {
    const r = await appRun(async (app) => {
      const a = comment("created", "Codertocat", "User", "/repro");
      const b = comment("created", "Codertocat", "User", "/repro");
      b.issue.number = a.issue.number + 1;
      return [await postWebhook(app, "issue_comment", a), await postWebhook(app, "issue_comment", b)];
    }, "write");
    return ok(`two issues: ${r.jobs} job record(s), runner called ${r.ran}`, r.jobs === 2);
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
