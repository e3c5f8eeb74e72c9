/**
 * What a new user met on a first try, settled (issue 15): each case runs the real CLI as a process and needs
 * no Docker engine (DOCKER_HOST points nowhere, so a command that wrongly went on to a sandbox would end with
 * exit 3, not the code asserted here).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { FixJobSpec } from "../../../src/core/job.ts";
import { TRACE_VERSION } from "../../../src/core/trace.ts";
import { describeDocker } from "../../support/docker.ts";
import { committedRepo } from "../../support/git-repo.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-cli-new-user-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = path.join(tmp, name);
  writeFileSync(p, content);
  return p;
};
const noDocker = { DOCKER_HOST: "unix:///nonexistent.sock" };

/** Runs the CLI; without `engine`, DOCKER_HOST points nowhere. */
function run(
  args: string[],
  env: Record<string, string> = {},
  engine = false,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: tmp,
        env: {
          ...process.env,
          ANTHROPIC_API_KEY: "",
          ANTHROPIC_BASE_URL: "",
          ...(engine ? {} : noDocker),
          ...env,
        },
        timeout: engine ? 110_000 : 25_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const gitRepo = (name: string, files: Record<string, string>) => committedRepo(tmp, name, files);
const status = (dir: string) =>
  execFileSync("git", ["-C", dir, "status", "--porcelain"], { encoding: "utf8" });
const branches = (dir: string) =>
  execFileSync("git", ["-C", dir, "branch", "--format=%(refname:short)"], { encoding: "utf8" }).trim();

const repo = gitRepo("repo", { "test_x.py": "def test_x():\n    assert False\n" });

const notADiff = file("notes.txt", "Fixed the median: it now averages the two middle values.\n");
const badHunk = file(
  "bad-hunk.diff",
  "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n d\n e\n",
);
const issue = file("issue.md", "# crash\n\n```python\nraise KeyError('x')\n```\n");

/** Every error: exactly `retrace: <what>` and `  → <what to do>` on stderr, nothing on stdout. */
function expectOneError(r: { stdout: string; stderr: string }): void {
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^retrace: [^\n]+\n {2}→ [^\n]+\n$/);
}

describe("a file that is not a unified diff is a usage error, never a gate verdict", () => {
  it.concurrent.each([
    ["policy", ["policy", notADiff]],
    ["policy --json", ["policy", notADiff, "--json"]],
    ["verify", ["verify", "--repo", repo, "--patch", notADiff, "--json"]],
  ])("%s on prose exits 2 and says it is not a unified diff", async (_name, args) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the patch ${notADiff} is not a valid unified diff`);
    expect(r.stderr).toContain("changes no file");
    expectOneError(r);
  });

  it("policy on a diff with a broken hunk names the line", async () => {
    const r = await run(["policy", badHunk]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a valid unified diff: line \d+:/);
    expectOneError(r);
  });
});

describe("--timeout is in seconds for every command", () => {
  it.concurrent.each([
    // repro's floor is the room to copy the program in and start its runtime (f12c: MIN_RUN_TIMEOUT_MS).
    ["repro", ["repro", "--help"], 5],
    ["sandbox run", ["sandbox", "run", "--help"], 1],
    ["verify", ["verify", "--help"], 1],
  ] as const)("%s --help names the unit", async (_name, args, min) => {
    const r = await run([...args]);
    expect(r.code).toBe(0);
    // Commander wraps help text at 80 columns: compare with the whitespace collapsed.
    expect(r.stdout.replace(/\s+/g, " ")).toMatch(
      new RegExp(String.raw`--timeout <seconds> wall-clock limit [^-]*, in seconds \(${min} to \d+`),
    );
  });

  it.concurrent.each([
    ["repro", ["repro", issue, "--offline", "--timeout", "10000"], "--timeout 10"],
    ["sandbox run", ["sandbox", "run", "--timeout", "30000", "--", "true"], "--timeout 30"],
    ["verify", ["verify", "--repo", repo, "--patch", badHunk, "--timeout", "300000"], "--timeout 300"],
  ])("%s: a value in milliseconds is refused with the seconds it meant", async (_name, args, meant) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--timeout is in seconds");
    expect(r.stderr).toContain(
      `looks like milliseconds (the unit of repro and sandbox run before): pass ${meant}`,
    );
    expectOneError(r);
  });

  it("a value in range is accepted (the command goes on to the sandbox: exit 3 without an engine)", async () => {
    const r = await run(["sandbox", "run", "--timeout", "30", "--", "true"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Docker engine not reachable/);
  });
});

describe("a model flag without an API key is an error", () => {
  it.concurrent.each([
    ["fix --model", ["fix", "--repo", repo, "--model", "claude-haiku-4-5"], "--model claude-haiku-4-5"],
    ["fix --strong-model", ["fix", "--repo", repo, "--strong-model", "claude-x"], "--strong-model claude-x"],
    ["repro --model", ["repro", issue, "--model", "claude-haiku-4-5"], "--model claude-haiku-4-5"],
  ])("%s exits 2 and says how to set the key", async (_name, args, flag) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${flag} needs ANTHROPIC_API_KEY, which is not set`);
    expect(r.stderr).toContain("export ANTHROPIC_API_KEY=");
    expect(r.stderr).toContain("ANTHROPIC_BASE_URL");
    expectOneError(r);
  });

  it("repro's hint points to --offline", async () => {
    const r = await run(["repro", issue, "--model", "m"]);
    expect(r.stderr).toMatch(/→ .*pass --offline/);
  });

  it("with a key, fix --model goes on (to the engine: exit 3)", async () => {
    const r = await run(["fix", "--repo", repo, "--model", "m", "--out", path.join(tmp, "with-key")], {
      ANTHROPIC_API_KEY: "sk-ant-test-000000000000",
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Docker engine not reachable/);
  });
});

describe("replay of a fix trace without --repo", () => {
  it("says replay needs --repo, not `retrace fix --repo`", async () => {
    const job = FixJobSpec.parse({ kind: "fix", id: "abc123", budget: { maxAttempts: 1, maxUsd: 0 } });
    const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const trace = file(
      "trace.json",
      JSON.stringify({
        version: TRACE_VERSION,
        machine: "fix",
        job,
        budget: { maxAttempts: 1, maxWallMs: 1000, maxTokens: 0, maxUsd: 0 },
        startedAt: new Date(0).toISOString(),
        endedAt: new Date(0).toISOString(),
        durationMs: 0,
        steps: [],
        totals: { usage, costUsd: 0, exchanges: 0, steps: 0 },
        result: { reason: "completed", state: "fixed", attempts: 0, failedAttempts: 0 },
      }),
    );
    const r = await run(["replay", trace]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is the trace of a fix job");
    expect(r.stderr).toMatch(/→ pass --repo DIR/);
    expect(r.stderr).not.toContain("retrace fix");
    expectOneError(r);
  });
});

describe("fix on a working tree with uncommitted changes", () => {
  it("refuses it (exit 2), names the files and says what to do", async () => {
    const dir = gitRepo("dirty", { "calc.py": "def add(a, b):\n    return a - b\n", "test_calc.py": "" });
    writeFileSync(path.join(dir, "calc.py"), "def add(a, b):\n    return a + b\n");
    writeFileSync(path.join(dir, "notes.txt"), "todo\n");
    const r = await run(["fix", "--repo", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("has uncommitted changes in 2 file(s): calc.py, notes.txt");
    expect(r.stderr).toMatch(/→ commit or stash them .*or pass --allow-dirty/);
    expectOneError(r);
  });

  it("--allow-dirty says what runs and that no branch will be made, then goes on (to the engine: exit 3)", async () => {
    const dir = gitRepo("dirty-allowed", { "test_x.py": "def test_x():\n    assert False\n" });
    writeFileSync(path.join(dir, "test_x.py"), "def test_x():\n    assert True\n");
    const r = await run(["fix", "--repo", dir, "--allow-dirty"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^retrace: --allow-dirty: running on HEAD \([0-9a-f]+\) plus the uncommitted changes in 1 file\(s\): test_x\.py; no branch will be created$/m,
    );
  });

  it("an ignored file and Retrace's own .retrace/ directory do not count as changes", async () => {
    const dir = gitRepo("ignored", { ".gitignore": "*.log\n", "test_x.py": "" });
    writeFileSync(path.join(dir, "run.log"), "x\n");
    mkdirSync(path.join(dir, ".retrace", "fix-old"), { recursive: true });
    writeFileSync(path.join(dir, ".retrace", "fix-old", "result.json"), "{}\n");
    const r = await run(["fix", "--repo", dir]);
    expect(r.stderr).not.toContain("uncommitted");
    expect(r.code).toBe(3); // went on to the (missing) engine
  });
});

describe("fix --help", () => {
  it("documents --allow-dirty, the default --out in the repository and exit 0 for nothing to fix", async () => {
    const r = await run(["fix", "--help"]);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toContain("a tree with uncommitted changes is refused unless --allow-dirty");
    expect(help).toContain("--allow-dirty run on HEAD plus the uncommitted changes");
    expect(help).toContain("(default <repo>/.retrace/fix-<id>, git-ignored)");
    expect(help).toContain("Exit codes: 0 fixed, flaky, or nothing to fix (every test passes)");
  });
});

describe("fix writes its outputs into the repository by default", () => {
  it("to <repo>/.retrace/fix-<id>, git-ignored, whatever the current directory, and says where", async () => {
    const dir = gitRepo("out-default", { "test_x.py": "def test_x():\n    assert False\n" });
    const r = await run(["fix", "--repo", dir]); // cwd is tmp, not the repository
    expect(r.code).toBe(3);
    const record = /the run's record is in (\S+)/.exec(r.stderr)?.[1];
    expect(record).toMatch(new RegExp(`^${dir}/\\.retrace/fix-[0-9a-f]{12}$`));
    expect(readdirSync(record!).sort()).toEqual(["pr.md", "result.json", "trace.json"]);
    expect(existsSync(path.join(tmp, ".retrace"))).toBe(false);
    expect(status(dir)).toBe("");
  });
});

describeDocker("fix when every test passes", () => {
  it("exits 0 with `nothing to fix`, on HEAD plus the uncommitted changes with --allow-dirty", async () => {
    const dir = gitRepo("green", {
      "calc.py": "def add(a, b):\n    return a - b\n",
      "test_calc.py":
        "from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
    });
    // HEAD fails; the uncommitted fix makes it pass: what runs is the tree on disk, and the output says so.
    writeFileSync(path.join(dir, "calc.py"), "def add(a, b):\n    return a + b\n");
    const r = await run(["fix", "--repo", dir, "--allow-dirty", "--triage-runs", "1"], {}, true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^nothing to fix: every test passes on HEAD \([0-9a-f]+\) plus your uncommitted changes \(2 passed with `python3 -m pytest`\)\n/,
    );
    const out = /^outputs: (\S+) \(result\.json, trace\.json, pr\.md\)$/m.exec(r.stdout)?.[1];
    expect(out?.startsWith(path.join(dir, ".retrace", "fix-"))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(out!, "result.json"), "utf8")).outcome).toBe("GAVE_UP");
    expect(branches(dir)).toMatch(/^(main|master)$/);
    expect(status(dir)).toBe(" M calc.py\n");
  }, 120_000);
});

describeDocker("a test command whose results Retrace cannot read is never a verdict", () => {
  const files = {
    Makefile: "test:\n\t@sh check.sh\n",
    "check.sh":
      'echo "checking the median"\n[ "$(cat value.txt)" = "2" ] || { echo "median is wrong"; exit 1; }\n',
    "value.txt": "1\n",
  };
  const fixPatch = file(
    "value.diff",
    "diff --git a/value.txt b/value.txt\n--- a/value.txt\n+++ b/value.txt\n@@ -1 +1 @@\n-1\n+2\n",
  );

  it("verify --test 'make test': exit 2, no verdict on stdout, the runners Retrace reads named", async () => {
    const dir = gitRepo("make-verify", files);
    for (const json of [[], ["--json"]]) {
      const r = await run(
        ["verify", "--repo", dir, "--patch", fixPatch, "--test", "make test", "--runs", "1", ...json],
        {},
        true,
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).not.toMatch(/REJECTED|VERIFIED/);
      expect(r.stderr).toContain("Retrace cannot read test results from `make test`");
      expect(r.stderr).toMatch(
        /→ pass --test with the runner itself — Retrace reads pytest, node --test, jest/,
      );
    }
  }, 120_000);

  it("verify with a command the sandbox does not have: exit 3 quoting the shell", async () => {
    const dir = gitRepo("make-missing", files);
    const r = await run(
      ["verify", "--repo", dir, "--patch", fixPatch, "--test", "nosuchtool test", "--runs", "1"],
      {},
      true,
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("could not start in the sandbox (exit 127: sh: 1: nosuchtool: not found)");
  }, 120_000);

  it("fix --test 'make test': exit 2 with the same message, and where the record is", async () => {
    const dir = gitRepo("make-fix", files);
    const r = await run(["fix", "--repo", dir, "--test", "make test"], {}, true);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Retrace cannot read test results from `make test`");
    expect(r.stderr).toMatch(/the run's record is in \S+\/\.retrace\/fix-[0-9a-f]{12}\n$/);
  }, 120_000);
});

describeDocker("Retrace's own file names never reach what a user reads", () => {
  it("verify --json: the output tail of a real pytest run names no .retrace- file and no nonce", async () => {
    const py = path.resolve("test/fixtures/repos/py-stats");
    const r = await run(
      ["verify", "--repo", py, "--patch", path.join(py, "patches/no-op.diff"), "--runs", "1", "--json"],
      {},
      true,
    );
    expect(r.code, r.stderr).toBe(1);
    const tail = JSON.parse(r.stdout).outputTail as string;
    expect(tail).toContain("short test summary info"); // the real pytest output is there…
    expect(tail).not.toMatch(/\.retrace-|generated xml file/); // …without Retrace's report file
    expect(r.stdout).not.toContain(".retrace-");
  }, 120_000);
});
