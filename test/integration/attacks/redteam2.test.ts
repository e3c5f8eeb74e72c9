/**
 * The second fresh-eyes red team of the host side (issue 14): the classes its hostile inputs got through, each
 * replayed on the real CLI or the real engine, asserted contained with a reason, with a marker outside Retrace's
 * directories that must never appear. All 95 inputs and their outcomes before the fixes are data in
 * `redteam2-cases.json` next to this file.
 *
 * 1. A committed `<repo>/.retrace` symlink: `retrace fix` wrote result.json, trace.json and pr.md wherever it
 *    pointed on the host.
 * 2. A run's test report as large as the workspace: the host buffered and parsed all of it (650 MB → 1.24 GB RSS).
 * 3. Text that made the redactor quadratic (`www.a.` repeated): 49 s for a 65,536-character report.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_COLLECT_BYTES } from "../../../src/core/ports/sandbox.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-redteam2-"));
// Outside Retrace's directories and outside every repository the tests make.
const markerDir = mkdtempSync(path.join(tmpdir(), "PWNED-redteam2-"));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(markerDir, { recursive: true, force: true });
});

function run(
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: tmp,
        env: { ...process.env, ANTHROPIC_API_KEY: "" },
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : null) : 0,
          stdout,
          stderr,
          ms: Date.now() - started,
        }),
    );
    child.stdin?.end();
  });
}

/** A committed Python repository whose one test passes. */
function pythonRepo(name: string, extra: (dir: string) => void = () => undefined): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "calc.py"), "def add(a, b):\n    return a + b\n");
  writeFileSync(
    path.join(dir, "test_calc.py"),
    "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  );
  extra(dir);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=rt@example.com", "-c", "user.name=rt", "commit", "-qm", "init");
  return dir;
}

describe("redteam2: a committed .retrace link", () => {
  it("retrace fix refuses to write its outputs through it, naming the link; nothing appears where it points", async () => {
    const repo = pythonRepo("out-link", (dir) => symlinkSync(markerDir, path.join(dir, ".retrace")));
    const r = await run(["fix", "--repo", repo, "--test", "pytest"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path.join(repo, ".retrace")} is a symbolic link (to ${markerDir})`);
    expect(r.stderr).toMatch(/never through a link\n {2}→ remove it from the checkout, or pass --out DIR/);
    expect(readdirSync(markerDir)).toEqual([]);
  });

  it("a .retrace that is a file is refused too", async () => {
    const repo = pythonRepo("out-file", (dir) =>
      writeFileSync(path.join(dir, ".retrace"), "not a directory\n"),
    );
    const r = await run(["fix", "--repo", repo, "--test", "pytest"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("is not a directory: retrace fix writes its outputs into the repository only");
  });
});

describeDocker("redteam2: on the real engine", () => {
  it("control: without the link, the same fix writes its outputs into <repo>/.retrace", async () => {
    const repo = pythonRepo("out-control");
    const r = await run(["fix", "--repo", repo, "--test", "pytest"], 300_000);
    expect(r.code, r.stderr).toBe(0);
    const outs = readdirSync(path.join(repo, ".retrace")).filter((n) => n.startsWith("fix-"));
    expect(outs).toHaveLength(1);
    expect(readdirSync(path.join(repo, ".retrace", outs[0]!)).sort()).toEqual([
      "pr.md",
      "result.json",
      "trace.json",
    ]);
  }, 320_000);

  it("a file a run returns past the host's cap is not brought back, and the rest of the stream is not read", async () => {
    const sandbox = createDockerSandbox({ image: sandboxImage });
    const size = 400 * 1024 * 1024;
    const before = process.memoryUsage().rss;
    const r = await sandbox.run({
      jobId: "redteam2-collect",
      command: [
        "sh",
        "-c",
        `echo small > a-small.txt; head -c ${size} /dev/zero > big.xml; echo after > z-after.txt; touch ${path.join(markerDir, "collect")} 2>/dev/null; true`,
      ],
      env: { PATH: "/usr/bin:/bin" },
      collect: ["a-small.txt", "big.xml", "z-after.txt"],
    });
    const grown = process.memoryUsage().rss - before;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(r.files)).toEqual(["a-small.txt"]);
    expect(r.collectTooLarge).toEqual(["big.xml"]);
    // 400 MiB was written; the host held at most the cap's worth twice (in flight and kept), never the file.
    expect(grown).toBeLessThan(2 * MAX_COLLECT_BYTES + 48 * 1024 * 1024);
    expect(existsSync(path.join(markerDir, "collect"))).toBe(false);
  }, 180_000);

  it("retrace verify: a junit report past the cap makes the run incomplete, with the cap as the reason", async () => {
    const repo = pythonRepo("big-report", (dir) =>
      writeFileSync(
        path.join(dir, "conftest.py"),
        [
          // Retrace's options are out of os.environ (PYTEST_ADDOPTS is scrubbed): the report path is read from
          // pytest's own configuration, and the report overwritten once pytest has written it.
          "import atexit",
          "def pytest_configure(config):",
          "    path = getattr(config.option, 'xmlpath', None)",
          "    if path: atexit.register(_big, path)",
          "def _big(path):",
          "    with open(path, 'w') as f:",
          '        f.write(\'<?xml version="1.0"?><testsuite><testcase classname="t" name="x" file="t.py"/>\')',
          "        chunk = '<!--' + 'A' * (1 << 20) + '-->'",
          "        for _ in range(100): f.write(chunk)",
          "        f.write('</testsuite>')",
          `    open(${JSON.stringify(path.join(markerDir, "report"))}, 'w').write('x')`,
          "",
        ].join("\n"),
      ),
    );
    const patch = path.join(tmp, "noop.diff");
    writeFileSync(
      patch,
      "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return b + a\n",
    );
    const r = await run(["verify", "--repo", repo, "--patch", patch, "--test", "pytest", "--json"], 300_000);
    // The base run gives no readable results: an infrastructure error naming the cap (exit 3), never a verdict.
    expect(`${r.stdout}\n${r.stderr}`).toContain(
      "junit report is larger than 64 MiB, more than Retrace reads back from a run",
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).not.toMatch(/"verdict":\s*"VERIFIED"/);
    expect(existsSync(path.join(markerDir, "report"))).toBe(false);
  }, 320_000);
});

describe("redteam2: redaction bounded in time", () => {
  it("a 65,536-character report of `www.a.` is read and answered in seconds (was 49 s)", async () => {
    const issue = path.join(tmp, "www.md");
    writeFileSync(issue, "www.a.".repeat(11_000).slice(0, 65_536));
    const r = await run(["repro", issue, "--offline", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).verdict).toBe("NEEDS_INFO");
    // The CLI's own start-up is 2–5 s on a loaded 2-core machine; the quadratic redaction alone was 20–45 s.
    expect(r.ms).toBeLessThan(15_000);
  }, 130_000);
});
