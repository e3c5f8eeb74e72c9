/**
 * The rule that keeps an unreadable or unstartable base run from ever becoming a verdict: which runs it
 * stops (with which error class and exit code) and which it leaves to be judged.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError, UsageError } from "../../../src/core/errors.ts";
import type { TestCommand, TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { assertBaseRunReadable, assertBaseRunReported } from "../../../src/fix/unreadable-run.ts";

const make: TestCommand = { command: "make test", framework: "unknown", detectedBy: "--test" } as TestCommand;
const pytest: TestCommand = {
  command: "python3 -m pytest",
  framework: "pytest",
  detectedBy: "--test",
} as TestCommand;

function runOf(over: Partial<TestRunResult>): TestRunResult {
  return {
    script: "make test",
    tests: [],
    exitCode: 0,
    stoppedBy: null,
    durationMs: 10,
    reportSource: "stdout",
    reportFormat: "auto",
    reportFound: true,
    counts: { passed: 0, failed: 0, skipped: 0 },
    problems: ["the auto results list no tests (exit code 0)"],
    complete: false,
    outputTail: "checking median...\nmedian is wrong",
    ...over,
  };
}

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return null;
}

describe("assertBaseRunReadable", () => {
  it.each([0, 1, 2])(
    "an unknown runner whose output lists no test (exit %i) is a usage error (exit 2)",
    (code) => {
      const e = thrown(() => assertBaseRunReadable(make, runOf({ exitCode: code })));
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).exitCode).toBe(2);
      expect((e as UsageError).message).toBe(
        `Retrace cannot read test results from \`make test\`: it knows no test runner in that command, and its output (exit ${code}) lists no test it can read`,
      );
      expect((e as UsageError).hint).toMatch(/pytest, node --test, jest, vitest, mocha, go test, cargo test/);
      expect((e as UsageError).hint).toContain("fix.testCommand");
    },
  );

  it.each([
    [127, "sh: 1: nosuchtool: not found"],
    [126, "sh: 1: ./run-tests.sh: Permission denied"],
  ])(
    "a command that cannot start (exit %i) is an infrastructure error (exit 3) quoting the shell",
    (code, line) => {
      const e = thrown(() =>
        assertBaseRunReadable(
          pytest,
          runOf({ exitCode: code, reportFormat: "junit", reportFound: false, outputTail: line }),
        ),
      );
      expect(e).toBeInstanceOf(InfrastructureError);
      expect((e as InfrastructureError).exitCode).toBe(3);
      expect((e as InfrastructureError).message).toContain(`(exit ${code}: ${line})`);
    },
  );

  it("leaves runs that are evidence, or incomplete for reasons of the code, to be judged", () => {
    // the unknown runner's output did list tests
    const listed = runOf({
      tests: [{ id: "median", outcome: "failed" }],
      exitCode: 1,
      complete: true,
      problems: [],
    });
    expect(thrown(() => assertBaseRunReadable(make, listed))).toBeNull();
    // a known reporter that stayed empty (e.g. the code does not even load): judged as an incomplete run
    expect(
      thrown(() => assertBaseRunReadable(pytest, runOf({ reportFormat: "junit", exitCode: 2 }))),
    ).toBeNull();
    // stopped by the sandbox (timeout): reported as such elsewhere
    expect(
      thrown(() => assertBaseRunReadable(make, runOf({ exitCode: null, stoppedBy: "timeout" }))),
    ).toBeNull();
  });
});

describe("assertBaseRunReported", () => {
  const mocha: TestCommand = {
    command: "npx mocha --reporter spec --bail --check-leaks test/",
    framework: "mocha",
    detectedBy: "--test",
  } as TestCommand;

  it("a base run whose reporter file was never written is an infrastructure error (exit 3) quoting the output's end, never a verdict", () => {
    const e = thrown(() =>
      assertBaseRunReported(
        mocha,
        runOf({
          reportSource: "file",
          reportFormat: "junit",
          reportFound: false,
          exitCode: 1,
          outputTail:
            "  13 passing\n  1 failing\n\n  1) cookie.serialize\n     AssertionError: Missing expected exception.",
        }),
      ),
    );
    expect(e).toBeInstanceOf(InfrastructureError);
    expect((e as InfrastructureError).exitCode).toBe(3);
    expect((e as InfrastructureError).message).toContain(
      "`npx mocha --reporter spec --bail --check-leaks test/` ran on the unchanged base (exit 1) but wrote no junit report",
    );
    expect((e as InfrastructureError).message).toContain(
      "its output ends: 1 failing ⏎ 1) cookie.serialize ⏎ AssertionError: Missing expected exception.",
    );
    expect((e as InfrastructureError).hint).toContain("fix.testCommand");
  });

  it("a base run the sandbox stopped at its time limit is an infrastructure error naming the limit and --timeout", () => {
    const e = thrown(() =>
      assertBaseRunReported(
        mocha,
        runOf({ reportFound: false, exitCode: null, stoppedBy: "timeout", durationMs: 60_400 }),
      ),
    );
    expect(e).toBeInstanceOf(InfrastructureError);
    expect((e as InfrastructureError).message).toContain(
      "did not finish on the unchanged base: it reached the sandbox's time limit (after 60 s)",
    );
    expect((e as InfrastructureError).hint).toContain("--timeout");
  });

  it("leaves a run with a report (even an empty one), a stdout format and a cancelled run to the usual rules", () => {
    expect(
      thrown(() => assertBaseRunReported(mocha, runOf({ reportFormat: "junit", reportFound: true }))),
    ).toBeNull();
    expect(thrown(() => assertBaseRunReported(make, runOf({})))).toBeNull();
    expect(
      thrown(() =>
        assertBaseRunReported(mocha, runOf({ reportFound: false, exitCode: null, stoppedBy: "killed" })),
      ),
    ).toBeNull();
  });
});
