/**
 * Host-side steps of the seventh red team's cases, run in a process of their own
 * (`tsx redteam7-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured by the test.
 * Each case builds its hostile input in a directory of its own under `<dir>` and calls the function the
 * pipeline calls on it (a CI log goes through the streaming parser as `retrace parse-log` feeds it). For each
 * case it prints one JSON line: `{ id, cpuMs, outcome }`, where `outcome` says what the step answered (a
 * refusal's reason, a count, where a parse stopped).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadRepoConfigFile } from "../../../src/config/load.ts";
import { safeGit } from "../../../src/git/run-git.ts";
import { createLogParser } from "../../../src/logs/index.ts";
import { lockfilePins, npmLockfileInSync } from "../../../src/install/foreign-lockfile.ts";
import { readExpectations, readReport } from "../../../src/repro/context.ts";
import { operatorMaxLimits, repositorySandbox } from "../../../src/sandbox/limits.ts";
import { LOGS } from "./redteam7-logs.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT7_MARKER ?? "/var/tmp/retrace-rt7-marker";

/** The pipeline's two report steps (`run-repro.ts`): read (bounded parse), then what was reported (bounded). */
function report(markdown: string): string {
  const read = readReport(markdown);
  const e = readExpectations(read.report);
  const unreadable = read.unreadable ?? e.unreadable;
  return unreadable ? `unreadable: ${unreadable}` : `read; behaviour ${e.expectations.actual.kind}`;
}

/** installFromManifest's host step on a lockfile out of step with package.json: the pins it reads. */
function pins(lockfileName: string, text: string, pkg: Record<string, unknown>): string {
  if (lockfileName === "package-lock.json" && npmLockfileInSync(JSON.stringify(pkg), text))
    return "in sync (npm ci path)";
  const r = lockfilePins(lockfileName, text, pkg);
  return `${r.format}: ${Object.keys(r.pins).length} pinned`;
}

const js = (code: string) => `### Bug\n\nIt fails.\n\n\`\`\`js\n${code}\n\`\`\`\n`;
const PKG = { name: "x", version: "1.0.0", dependencies: { a: "^1.0.0", b: "^1.0.0" } };
const SPACES = " ".repeat(60_000);

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    {
      cwd,
      stdio: "ignore",
    },
  );
}

const cases: Record<string, () => Promise<string> | string> = {
  // Reports: what was reported is read after the time-limited parse.
  "report-assert-spaces": () => report(js(`const assert = require('assert')\nassert(1 ==${SPACES}2)`)),
  "report-assert-destructure-spaces": () => report(js(`const {${SPACES}} = require('assert')\nequal(1, 2)`)),
  "report-jest-expect-spaces": () => report(js(`expect(1).toBe(${SPACES}2)`)),
  "report-python-assert-spaces": () => report(`### Bug\n\n\`\`\`python\nassert 1 ==${SPACES}2\n\`\`\`\n`),
  "report-brackets-star": () => report(`${"[*".repeat(32_000)}`),
  "report-quote-nesting": () => report(`${">".repeat(65_000)} x`),
  "report-two-outputs-spaces": () =>
    report(
      `### Bug\n\n\`\`\`python\nprint([1, 2])\n\`\`\`\n\nOn 1.0:\n\n\`\`\`\n[1, 2]${SPACES}x\n\`\`\`\n\nOn 2.0:\n\n\`\`\`\n[0, 1, 2]${SPACES}y\n\`\`\`\n`,
    ),
  // Lockfiles read on the host for their pins (package.json out of step with the lockfile).
  "lock-npm-version-parens": () =>
    pins(
      "package-lock.json",
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": { dependencies: { a: "^0.1.0" } },
          "node_modules/a": { version: `${"(".repeat(200_000)}\n` },
        },
      }),
      PKG,
    ),
  "lock-npm-version-underscores": () =>
    pins(
      "package-lock.json",
      JSON.stringify({
        lockfileVersion: 3,
        packages: { "": {}, "node_modules/b": { version: `1${"_".repeat(200_000)}\n` } },
      }),
      PKG,
    ),
  "lock-pnpm-version-parens": () =>
    pins(
      "pnpm-lock.yaml",
      `lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: ^1.0.0\n        version: ${JSON.stringify(`${"(".repeat(200_000)}\n`)}\n`,
      PKG,
    ),
  "lock-yarn-selector-commas": () =>
    pins("yarn.lock", `${"a@^1.0.0, ".repeat(400_000)}:\n  version "1.0.0"\n`, PKG),
  "lock-yarn-many-entries": () =>
    pins("yarn.lock", `a@^1.0.0:\n${'  version "1.0.0"\n'.repeat(300_000)}`, PKG),
  // The config file and a repository's sandbox section.
  "config-symlink-passwd": async () => {
    mkdirSync(path.join(dir, ".github"), { recursive: true });
    symlinkSync("/etc/passwd", path.join(dir, ".github/retrace.yml"));
    return loadRepoConfigFile(dir).then(
      () => "read",
      (e: Error) => `refused: ${e.message.slice(0, 120)}`,
    );
  },
  "config-github-dir-symlink": async () => {
    symlinkSync("/etc", path.join(dir, ".github"));
    return loadRepoConfigFile(dir).then(
      () => "read",
      (e: Error) => `refused: ${e.message.slice(0, 120)}`,
    );
  },
  "config-comment-flood": async () => {
    mkdirSync(path.join(dir, ".github"), { recursive: true });
    writeFileSync(path.join(dir, ".github/retrace.yml"), `${"#\n".repeat(2_000_000)}`);
    return loadRepoConfigFile(dir).then(
      () => "read",
      (e: Error) => `refused: ${e.message.slice(0, 120)}`,
    );
  },
  "sandbox-limits-huge": () => {
    const r = repositorySandbox(
      { limits: { memoryMb: 1_000_000_000, pids: 10_000_000, timeoutMs: 86_400_000 } },
      {},
      "retrace-sandbox:1",
    );
    const max = operatorMaxLimits({});
    if ((r.limits.memoryMb ?? 0) > max.memoryMb || (r.limits.pids ?? 0) > max.pids) return "NOT CLAMPED";
    return `clamped: ${r.notes.join("; ").slice(0, 100)}`;
  },
  // Git on the checkout: programs its config names.
  "git-fsmonitor-and-hooks": async () => {
    git(dir, "init", "-q");
    writeFileSync(path.join(dir, "pwn.sh"), `#!/bin/sh\necho pwned > ${MARKER}\n`, { mode: 0o755 });
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-q", "-m", "x");
    git(dir, "config", "core.fsmonitor", path.join(dir, "pwn.sh"));
    git(dir, "config", "core.hooksPath", dir);
    writeFileSync(path.join(dir, "post-commit"), `#!/bin/sh\necho pwned > ${MARKER}\n`, { mode: 0o755 });
    writeFileSync(path.join(dir, "a.txt"), "b\n");
    const g = safeGit(dir);
    await g.raw(["status", "--porcelain"]);
    await g.raw(["diff", "HEAD"]);
    return "git ran";
  },
  "git-include-proc-environ": async () => {
    git(dir, "init", "-q");
    git(dir, "config", "include.path", "/proc/self/environ");
    return safeGit(dir)
      .raw(["status", "--porcelain"])
      .then(
        () => "git ran",
        (e: Error) => `refused: ${e.message.slice(0, 160)}`,
      );
  },
  "git-diff-textconv": async () => {
    git(dir, "init", "-q");
    writeFileSync(path.join(dir, ".gitattributes"), "*.txt diff=pwn\n");
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "x");
    git(dir, "config", "diff.pwn.textconv", `sh -c 'echo pwned > ${MARKER}; cat'`);
    writeFileSync(path.join(dir, "a.txt"), "b\n");
    await safeGit(dir).raw(["diff", "HEAD"]);
    return "git ran";
  },
};

/** The log through the streaming parser in 16 KiB chunks, as `retrace parse-log` reads a file. */
function log(text: string): string {
  const parser = createLogParser();
  for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
  const r = parser.end();
  return r.stopped
    ? `stopped at line ${r.stopped.line}: ${r.stopped.reason.slice(0, 60)}`
    : `read: ${r.failures.length} failures, ${r.tests.length} tests, ${r.lines} lines`;
}
for (const [name, make] of Object.entries(LOGS)) cases[name] = () => log(make());

for (const id of ids) {
  const run = cases[id];
  if (!run) throw new Error(`unknown case ${id}`);
  dir = path.join(root, id);
  mkdirSync(dir, { recursive: true });
  const before = process.cpuUsage();
  const outcome = await Promise.resolve()
    .then(run)
    .catch((e: Error) => `threw: ${e.message.slice(0, 200)}`);
  const used = process.cpuUsage(before);
  process.stdout.write(
    `${JSON.stringify({ id, cpuMs: Math.round((used.user + used.system) / 1000), outcome })}\n`,
  );
}
