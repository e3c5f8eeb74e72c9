/**
 * Schemas shared by the test runner and verification: which command runs the tests, and what one run
 * of it showed per test id.
 */
import { z } from "zod";

/** Frameworks whose results Retrace reads from a machine-readable reporter (or, for go/cargo, structured output). */
export const TestFramework = z.enum([
  "pytest",
  "node-test",
  "jest",
  "vitest",
  "mocha",
  "go",
  "cargo",
  "unknown",
]);
export type TestFramework = z.infer<typeof TestFramework>;

export const TestCommand = z.object({
  /** The framework that runs the tests: decides the reporter, how results are read, and the filter syntax. */
  framework: TestFramework,
  /** The shell command as a person would type it, without Retrace's reporter flags. */
  command: z.string().min(1),
  /** Where the command came from, said plainly (e.g. `--test`, `package.json scripts.test (node --test)`, `pytest.ini`). */
  detectedBy: z.string(),
  /**
   * What the test command runs before the tests, in every run (a build: `npm run build` in `npm run build &&
   * mocha`, a `pretest` script of `npm test`): run first, its output kept apart from the tests' (never read as
   * test results), and a failure of it said as such. Absent when the tests start right away.
   */
  setup: z.string().optional(),
});
export type TestCommand = z.infer<typeof TestCommand>;

/** The whole command as it runs: the setup (a build) first, then the tests. */
export function fullCommandText(command: TestCommand): string {
  return command.setup ? `${command.setup} && ${command.command}` : command.command;
}

/** Outcome of one test in one run. `error` is a failure outside the test body (fixture, collection, crash). */
export const TestOutcome = z.enum(["passed", "failed", "error", "skipped"]);
export type TestOutcome = z.infer<typeof TestOutcome>;

export const TestCase = z.object({
  /**
   * Stable test id in the framework's own filter syntax where it has one: pytest node ids
   * (`tests/test_x.py::TestA::test_b[1]`), `file > suite > name` for JS runners, `pkg/TestName` for go,
   * `module::name` for cargo.
   */
  id: z.string(),
  outcome: TestOutcome,
  /** Repo-relative file of the test, when the reporter gives it. */
  file: z.string().optional(),
  /** First line of the failure message, when it failed. */
  message: z.string().optional(),
});
export type TestCase = z.infer<typeof TestCase>;

export const TestRunResult = z.object({
  /** The shell script that ran in the sandbox (the command plus reporter flags). */
  script: z.string(),
  /**
   * One entry per test id. A title repeated in one suite gets its own id (`id#2`, in report order) where the
   * report lists each test (jest JSON); where the log parser merged repeats (JUnit, TAP, go, cargo), a test
   * reported both passing and failing in one run keeps its failing outcome, so neither a duplicate nor a
   * retry can hide a failure.
   */
  tests: z.array(TestCase),
  /** Exit code of the test command; null when the sandbox stopped it. */
  exitCode: z.number().int().nullable(),
  /** Why the sandbox stopped the run (timeout, output limit, memory), or null. */
  stoppedBy: z.string().nullable(),
  /** The memory limit the run had, in MiB, when the sandbox said (what a `memory_limit` stop refers to). */
  memoryMb: z.number().optional(),
  durationMs: z.number(),
  /** Where results were read from: a report file the reporter wrote, or the command's stdout. */
  reportSource: z.enum(["file", "stdout"]),
  /** Format handed to the log parser (`junit`, `tap`, `jest-json`, `go`, `cargo`, or `auto`). */
  reportFormat: z.string(),
  /** Whether the expected report file was written (always true for stdout formats). */
  reportFound: z.boolean(),
  counts: z.object({ passed: z.number(), failed: z.number(), skipped: z.number() }),
  /**
   * Why this run cannot be trusted as evidence: stopped by the sandbox, no report, no tests, or an exit
   * code that disagrees with the report. Empty when the run completed and is consistent.
   */
  problems: z.array(z.string()),
  /** `problems` is empty. */
  complete: z.boolean(),
  /** Last part of stdout+stderr, for feedback to the model and for reports. */
  outputTail: z.string(),
  /** A repeat narrowed to these test ids: it counts only for them (absent for a run of the whole suite). */
  only: z.array(z.string()).optional(),
  /**
   * The test the run's process died in (tape: its TAP stream ended inside that test, without the plan): the
   * tests after it were never reached, so a test missing from this run did not pass in it (see compareRuns).
   */
  diedIn: z.string().optional(),
  /** The command's setup (TestCommand.setup) failed, so no test ran: its exit code and the end of its output. */
  setupFailed: z.object({ exitCode: z.number().int(), output: z.string() }).optional(),
});
export type TestRunResult = z.infer<typeof TestRunResult>;

/**
 * A failure keyed by a test file rather than by a test: jest's "Test suite failed to run", a pytest
 * collection error. The file's tests never ran, so after a fix its id disappears and its tests appear.
 */
export function isFileLevelError(t: TestCase): boolean {
  return t.outcome === "error" && t.file !== undefined && t.file !== "" && t.id === t.file;
}

/** Whether an outcome counts as failing. */
export function isFailing(outcome: TestOutcome): boolean {
  return outcome === "failed" || outcome === "error";
}
