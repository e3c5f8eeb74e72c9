import fc from "fast-check";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/core/errors.ts";
import { ParsedLog } from "../../../src/logs/failure.ts";
import { createLogParser, formatNames, parseLog } from "../../../src/logs/index.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const fixture = (rel: string) =>
  readFileSync(path.join(import.meta.dirname, "../../fixtures/logs", rel), "utf8");

describe("createLogParser (streaming)", () => {
  it("gives the same result whatever the chunk boundaries", () => {
    const text =
      fixture("github-actions/lint-then-jest.log") + fixture("pytest/run.log") + fixture("go/json.log");
    const whole = parseLog(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 40 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const p = createLogParser();
        let from = 0;
        for (const c of [...points, text.length]) {
          p.write(text.slice(from, c));
          from = c;
        }
        expect(p.end()).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses input after end", () => {
    const p = createLogParser();
    p.end();
    expect(() => p.line("x")).toThrow(/already ended/);
  });

  it("keeps memory bounded: caps failures, tests, message and stack sizes", () => {
    const p = createLogParser({ maxFailures: 50, maxTests: 1000, maxMessageChars: 300, maxStackChars: 1000 });
    p.line("============================= test session starts ==============================");
    for (let i = 0; i < 5000; i++) p.line(`tests/test_a.py::test_${i} PASSED [ 1%]`);
    p.line("=================================== FAILURES ===================================");
    for (let i = 0; i < 200; i++) {
      p.line(`_____ test_fail_${i} _____`);
      p.line(`E       AssertionError: ${"x".repeat(10_000)}`);
      for (let k = 0; k < 500; k++) p.line(`    frame ${k} ${"y".repeat(100)}`);
      p.line("tests/test_a.py:3: AssertionError");
    }
    p.line("=========================== short test summary info ============================");
    p.line("============ 200 failed, 5000 passed in 1.00s ============");
    const r = p.end();
    expect(r.failures).toHaveLength(50);
    expect(r.dropped.failures).toBe(150);
    expect(r.tests).toHaveLength(1000);
    expect(r.dropped.tests).toBeGreaterThanOrEqual(4000);
    for (const f of r.failures) {
      expect(f.message.length).toBeLessThanOrEqual(300 + 60);
      expect(f.stack!.length).toBeLessThanOrEqual(1000 + 60);
      expect(f.message).toContain("characters omitted");
    }
  });

  it("cuts very long lines instead of running regexes over megabytes", () => {
    const huge = `src/a.ts(1,2): error TS2322: ${"z".repeat(2_000_000)}`;
    const { value: r, ms } = cpuMs(() => parseLog(huge));
    expect(ms).toBeLessThan(2_000);
    expect(r.failures[0]?.errorType).toBe("TS2322");
    expect(r.failures[0]!.message.length).toBeLessThan(20_000);
  });

  it("reads CRLF logs like LF logs", () => {
    const lf = fixture("tsc/plain.log");
    expect(parseLog(lf.replace(/\n/g, "\r\n"))).toEqual(parseLog(lf));
  });

  it("an empty or unrelated log parses to nothing, validly", () => {
    for (const text of ["", "hello\nworld\n", "Compiling...\nDone in 3s\n"]) {
      const r = ParsedLog.parse(parseLog(text));
      expect(r.failures).toEqual([]);
      expect(r.formats).toEqual([]);
    }
  });
});

describe("--format", () => {
  it("an unknown format is a usage error that lists the valid names", () => {
    let error: unknown;
    try {
      parseLog("x", { format: "nunit" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain("nunit");
    for (const name of ["pytest", "jest", "junit", "go-json", "generic"])
      expect((error as UsageError).hint).toContain(name);
  });

  it("a forced format reads only that format", () => {
    const text = fixture("github-actions/lint-then-jest.log");
    expect(parseLog(text, { format: "jest" }).failures.map((f) => f.format)).toEqual(["jest", "jest"]);
    expect(parseLog(text, { format: "eslint" }).formats).toEqual(["eslint"]);
  });

  it("lists every parser", () => {
    expect(formatNames()).toEqual(
      expect.arrayContaining([
        "pytest",
        "unittest",
        "jest",
        "vitest",
        "mocha",
        "node-test",
        "tap",
        "go",
        "go-json",
        "cargo",
        "nextest",
        "junit",
        "tsc",
        "eslint",
        "python",
        "npm",
        "generic",
      ]),
    );
  });
});

describe("GitHub Actions logs", () => {
  it("reads several formats in one downloaded log, in order, with repo-relative paths", () => {
    const r = parseLog(fixture("github-actions/lint-then-jest.log"));
    expect(r.formats).toEqual(["eslint", "jest"]);
    expect(r.failures.map((f) => [f.category, f.file])).toEqual([
      ["lint", "src/app.js"],
      ["lint", "src/app.js"],
      ["lint", "src/app.js"],
      ["lint", "src/app.js"],
      ["test", "test/calc.test.js"],
      ["test", "src/calc.js"],
    ]);
    for (const f of r.failures) {
      expect(f.message).not.toMatch(/\u001b|\d{4}-\d\d-\d\dT/);
      expect(f.stack ?? "").not.toContain("/home/runner/work");
    }
  });

  it("a Windows runner log: backslash paths, CRLF; npm's lifecycle error is dropped as a consequence", () => {
    const r = parseLog(fixture("github-actions/windows-tsc-npm6-handwritten.log"));
    expect(r.failures.filter((f) => f.format === "tsc").map((f) => `${f.file}:${f.line}`)).toEqual([
      "src/user.ts:7",
      "src/index.ts:3",
    ]);
    expect(r.failures.some((f) => f.format === "npm")).toBe(false);
  });

  it("keeps npm's lifecycle failure and ##[error] annotations when nothing else failed", () => {
    const npm6 = parseLog(fixture("npm/elifecycle-npm6-handwritten.log"));
    expect(npm6.failures).toHaveLength(1);
    expect(npm6.failures[0]).toMatchObject({ format: "npm", category: "build", errorType: "ELIFECYCLE" });
    const gh = parseLog(
      "2024-01-01T00:00:00.0000000Z ##[error]The job was canceled because deploy failed\n##[error]Process completed with exit code 1.\n",
    );
    expect(gh.failures.map((f) => f.message)).toEqual(["The job was canceled because deploy failed"]);
    expect(gh.formats).toEqual(["github-actions"]);
  });
});
