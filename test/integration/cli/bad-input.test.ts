/**
 * The CLI as a process, fed bad input: every mistake ends with exit 2 (usage) or 3 (infrastructure), nothing on
 * stdout (a --json consumer never gets a partial document), and exactly two lines on stderr — `retrace: <what>`
 * and `  → <what to do>` — never a stack trace, a help dump or a hang. None of these cases reaches a sandbox.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-cli-bad-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const p = path.join(tmp, name);
  writeFileSync(p, content);
  return p;
};
const empty = file("empty.diff", "");
const binary = file("garbage.bin", Buffer.from([0x89, 0x50, 0x00, 0x01, 0xff, 0x00, 0x0a]));
const diff = file("ok.diff", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
const issue = file("issue.md", "# crash\n\n```python\nraise KeyError('x')\n```\n");
const notTrace = file("result.json", '{"verdict":"REPRODUCED"}');
const repo = path.join(tmp, "repo");
mkdirSync(repo);
const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "ignore" });
git("init", "-q");
writeFileSync(path.join(repo, "test_x.py"), "def test_x():\n    assert False\n");
git("add", ".");
git("-c", "user.email=qa@example.com", "-c", "user.name=qa", "commit", "-qm", "init");

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { cwd: tmp, env: { ...process.env, ANTHROPIC_API_KEY: "", ...env }, timeout: 25_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end(); // `-` reads an empty stdin, as with </dev/null
  });
}

const noDocker = { DOCKER_HOST: "unix:///nonexistent.sock" };

const cases: Array<[string, string[], number, RegExp, Record<string, string>?]> = [
  [
    "an unknown option names the command's help",
    ["parse-log", diff, "--bogus"],
    2,
    /unknown option '--bogus'\n {2}→ see `retrace parse-log --help`/,
  ],
  ["an unknown command", ["nope"], 2, /unknown command 'nope'\n {2}→ see `retrace --help`/],
  [
    "a missing argument",
    ["sandbox", "run"],
    2,
    /missing required argument 'command'\n {2}→ see `retrace sandbox run --help`/,
  ],
  ["an empty patch", ["policy", empty, "--json"], 2, /the patch .*empty\.diff is empty/],
  ["an empty stdin", ["policy", "-", "--json"], 2, /the patch on stdin is empty/],
  [
    "a binary patch",
    ["verify", "--repo", repo, "--patch", binary, "--json"],
    2,
    /is a binary file, not text/,
  ],
  ["a directory as the issue", ["repro", tmp, "--json"], 2, /it is a directory/],
  // A device has no size: it is refused at its first NUL byte, not read to the 256 MiB cap first.
  [
    "a device as the issue",
    ["repro", "/dev/zero", "--json"],
    2,
    /the issue \/dev\/zero is a binary file, not text/,
  ],
  [
    "a huge --max-chars",
    ["parse-log", diff, "--excerpt", "--max-chars", "1e300"],
    2,
    /--max-chars must be an integer/,
  ],
  [
    "--max-chars without --excerpt",
    ["parse-log", diff, "--max-chars", "500"],
    2,
    /applies only to --excerpt/,
  ],
  [
    "an empty --budget-usd",
    ["repro", issue, "--budget-usd", "", "--json"],
    2,
    /--budget-usd must be a number/,
  ],
  ["a padded --runs", ["repro", issue, "--runs", " 3"], 2, /--runs must be an integer from 1 to 10/],
  [
    "--out on a file",
    ["repro", issue, "--offline", "--json", "--out", diff],
    2,
    /cannot write --out .*a file is in the way/,
  ],
  [
    "--out where nothing can be created",
    ["fix", "--repo", repo, "--out", "/proc/retrace-qa"],
    2,
    /cannot write --out \/proc\/retrace-qa/,
  ],
  ["a JSON file that is not a trace", ["replay", notTrace, "--json"], 2, /is not a Retrace trace/],
  ["an empty trace on stdin", ["replay", "-"], 2, /the trace on stdin is empty/],
  ["--dir on a file", ["sandbox", "run", "--dir", diff, "--", "true"], 2, /--dir .* is not a directory/],
  [
    "a --timeout beyond the limit",
    ["sandbox", "run", "--timeout", "1e12", "--", "true"],
    2,
    /--timeout is in seconds and must be an integer from 1 to 3600,/,
  ],
  [
    // Refused before the engine is asked (no engine here): a limit that cannot even copy the program in.
    "a repro --timeout too small to start a run",
    ["repro", issue, "--offline", "--timeout", "1"],
    2,
    /--timeout 1 is below the minimum of 5 seconds: .*copying the program into the sandbox/,
    noDocker,
  ],
  ["reap without an engine", ["sandbox", "reap"], 3, /Docker engine not reachable/, noDocker],
  [
    "fix without an engine",
    ["fix", "--repo", repo, "--json", "--out", path.join(tmp, "fix-out")],
    3,
    /Docker engine not reachable/,
    noDocker,
  ],
];

describe("retrace with bad input", () => {
  it.concurrent.each(cases)("%s", async (_name, args, code, message, env) => {
    const r = await run(args, env);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^retrace: [^\n]+\n {2}→ [^\n]+\n$/);
    expect(r.code).toBe(code);
  });

  it("leaves no output directory behind when --out is refused or the run fails first", async () => {
    const out = path.join(tmp, "never", "made");
    const r = await run(["repro", empty, "--out", out]);
    expect(r.code).toBe(2);
    expect(existsSync(path.join(tmp, "never"))).toBe(false);
  });
});
