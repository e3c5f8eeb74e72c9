/** `retrace parse-log` as a user runs it: the real bin, a real process, files and stdin. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ParsedLog } from "../../../src/logs/failure.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const fixtures = path.join(root, "test/fixtures/logs");

function retrace(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [path.join(root, "bin/retrace.mjs"), "parse-log", ...args], {
    cwd: root,
    encoding: "utf8",
    ...(input === undefined ? {} : { input }),
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("retrace parse-log", () => {
  it("--json prints a ParsedLog for a downloaded GitHub Actions log", () => {
    const r = retrace([path.join(fixtures, "github-actions/lint-then-jest.log"), "--json"]);
    expect(r.code).toBe(0);
    const parsed = ParsedLog.parse(JSON.parse(r.stdout));
    expect(parsed.formats).toEqual(["eslint", "jest"]);
    expect(parsed.failures).toHaveLength(6);
    expect(parsed.counts["jest"]).toMatchObject({ failures: 2, passed: 1, failed: 2, skipped: 1 });
  });

  it("reads standard input with -", () => {
    const r = retrace(["-", "--json"], readFileSync(path.join(fixtures, "tsc/plain.log"), "utf8"));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).failures.map((f: { errorType: string }) => f.errorType)).toEqual([
      "TS2741",
      "TS2322",
      "TS2551",
    ]);
  });

  it("prints a readable summary without --json", () => {
    const r = retrace([path.join(fixtures, "pytest/run.log")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("formats: pytest");
    expect(r.stdout).toContain("6 failures:");
    expect(r.stdout).toContain("✖ [import] tests/test_broken.py");
    expect(r.stdout).toContain("✖ [test] tests/test_calc.py::test_div[1-2-3]");
    expect(r.stdout).toContain("pytest: 6 failures; tests: 2 passed, 4 failed, 2 errors, 1 skipped");
  });

  it("exits 0 when the log has no failures", () => {
    const r = retrace(["-"], "all good\n");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("no failures found");
  });

  it("a red log that names no failing test says so, never 'no failures found'", () => {
    // A goroutine panic after the test binary's PASS: every test passed, the package failed.
    const log = [
      "=== RUN   TestQueuePush",
      "--- PASS: TestQueuePush (0.00s)",
      "=== RUN   TestQueuePop",
      "--- PASS: TestQueuePop (0.01s)",
      "PASS",
      "panic: send on closed channel",
      "",
      "goroutine 12 [running]:",
      "example.com/kettle/queue.(*Queue).drain(0xc000010000)",
      "\t/home/runner/work/kettle/kettle/queue/queue.go:41 +0x5d",
      "created by example.com/kettle/queue.New in goroutine 7",
      "FAIL\texample.com/kettle/queue\t0.214s",
      "",
    ].join("\n");
    const text = retrace(["-"], log);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("no failing test named, but the go summary says the run failed");
    expect(text.stdout).not.toContain("no failures found");
    const json = retrace(["-", "--json"], log);
    const parsed = ParsedLog.parse(JSON.parse(json.stdout));
    expect(parsed.failures).toEqual([]);
    expect(parsed.unnamedFailuresIn).toEqual(["go"]);
  });

  it("a green run whose output prints a failing count before its own all-passed summary is not called red", () => {
    const log = [
      "[INFO]  T E S T S",
      "[INFO] Running org.kettle.BoilTest",
      "[ERROR] Tests run: 4, Failures: 2, Errors: 0, Skipped: 0",
      "[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.2 s - in org.kettle.BoilTest",
      "[INFO] Results:",
      "[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0",
      "[INFO] BUILD SUCCESS",
      "",
    ].join("\n");
    const json = retrace(["-", "--json"], log);
    const parsed = ParsedLog.parse(JSON.parse(json.stdout));
    expect(parsed.failures).toEqual([]);
    expect(parsed.unnamedFailuresIn).toBeUndefined();
    expect(retrace(["-"], log).stdout).toContain("no failures found");
  });

  it("exits 2 and names the path when the file is missing", () => {
    const r = retrace(["/no/such/ci.log"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/no/such/ci.log");
  });

  it("exits 2 and lists the valid formats for an unknown --format", () => {
    const r = retrace([path.join(fixtures, "tsc/plain.log"), "--format", "nunit"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown log format "nunit"');
    expect(r.stderr).toContain("pytest");
    expect(r.stderr).toContain("go-json");
  });

  it("--format forces one parser", () => {
    const r = retrace([
      path.join(fixtures, "github-actions/lint-then-jest.log"),
      "--format",
      "eslint",
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).formats).toEqual(["eslint"]);
  });

  it("--excerpt prints the failure blocks", () => {
    const r = retrace([
      path.join(fixtures, "github-actions/lint-then-jest.log"),
      "--excerpt",
      "--max-chars",
      "2000",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("● calc › mean of three");
    expect(r.stdout.length).toBeLessThan(2_600);
  });
});

describe("retrace parse-log into a reader that stops early", () => {
  it("stops quietly when the pipe closes (`| head`), exit 0, nothing on stderr", async () => {
    const { spawn } = await import("node:child_process");
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const os = await import("node:os");
    const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-epipe-"));
    const log = path.join(dir, "big.log");
    // 60,000 results: the JSON (every test listed) is megabytes, far more than one pipe buffer.
    writeFileSync(log, Array.from({ length: 60000 }, (_, i) => `ok ${i + 1} - t${i + 1}`).join("\n"));
    const child = spawn(process.execPath, [path.join(root, "bin/retrace.mjs"), "parse-log", "--json", log], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    // Read the first chunk, then close our end of the pipe as `head` does.
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  }, 30_000);
});
