/**
 * The structured result of parsing a CI log: failures, per-test outcomes and counts per format.
 * Other pipelines (fix triage, verify, reports) consume these shapes; they are zod schemas so a
 * result that crossed a process boundary (an Action artifact) can be validated again.
 */
import { z } from "zod";

/** What kind of problem a failure is; decides how the fix pipeline treats it. */
export const FailureCategory = z.enum(["test", "type-check", "lint", "build", "install", "import", "syntax"]);
export type FailureCategory = z.infer<typeof FailureCategory>;

/** A range of input lines (1-based, inclusive) a failure was read from; `excerpt` uses it. */
export const LineSpan = z.object({
  /** First input line of the failure block. */
  start: z.number().int().min(1),
  /** Last input line of the failure block. */
  end: z.number().int().min(1),
});
export type LineSpan = z.infer<typeof LineSpan>;

export const Failure = z.object({
  /** The parser (format name) that produced this failure, e.g. "pytest", "tsc". */
  format: z.string(),
  /** What kind of failure this is. */
  category: FailureCategory,
  /** Stable test id in the format's own convention (see `TestResult.id`), or null for non-test failures. */
  test: z.string().nullable(),
  /** Repo-relative path where the failure points (runner checkout prefixes removed), or null. */
  file: z.string().nullable(),
  /** 1-based line in `file`, or null. */
  line: z.number().int().nullable(),
  /** 1-based column in `file`, or null. */
  column: z.number().int().nullable(),
  /** Exception class, compiler code (TS2322, E0308) or lint rule id; null when the format gives none. */
  errorType: z.string().nullable(),
  /** The error message (bounded in size). */
  message: z.string(),
  /** Traceback, stack or the surrounding block as printed (bounded in size), or null. */
  stack: z.string().nullable(),
  /** Input lines the failure was read from. */
  span: LineSpan,
});
export type Failure = z.infer<typeof Failure>;

export const TestOutcome = z.enum(["passed", "failed", "skipped", "error"]);
export type TestOutcome = z.infer<typeof TestOutcome>;

export const TestResult = z.object({
  /**
   * Stable id, the same for the same test in every run of the same format: pytest node ids
   * (`tests/test_x.py::test_a[1-2]`), `file > describe > test` for vitest/jest (and vitest JUnit),
   * `describe > test` for mocha and node:test, `package.TestName/sub` for go, `module::test` for cargo,
   * `classname.name` for other JUnit XML.
   */
  id: z.string(),
  /** Final outcome of the test in this log (the last attempt when it was retried). */
  outcome: TestOutcome,
  /** True when the log shows the test both failing and passing (retries, rerun markers). */
  flaky: z.boolean(),
  /** The format that reported the test. */
  format: z.string(),
  /** Repo-relative file of the test, when the format gives it. */
  file: z.string().nullable(),
});
export type TestResult = z.infer<typeof TestResult>;

export const FormatCounts = z.object({
  /** Failures reported by this format. */
  failures: z.number().int(),
  /** Tests that passed. */
  passed: z.number().int(),
  /** Tests that failed. */
  failed: z.number().int(),
  /** Tests that were skipped (skip, todo, ignored, xfail). */
  skipped: z.number().int(),
  /** Tests that errored (setup/collection errors). */
  error: z.number().int(),
  /** Tests that both failed and passed in this log. */
  flaky: z.number().int(),
});
export type FormatCounts = z.infer<typeof FormatCounts>;

export const ParsedLog = z.object({
  /** Formats seen in the log, in the order they first appeared. */
  formats: z.array(z.string()),
  /** Failures in the order they appeared (deduplicated, capped at `limits.maxFailures`). */
  failures: z.array(Failure),
  /** Per-test outcomes where the format gives them (passed AND failed), capped at `limits.maxTests`. */
  tests: z.array(TestResult),
  /** Counts per format. */
  counts: z.record(z.string(), FormatCounts),
  /** Number of input lines read. */
  lines: z.number().int(),
  /**
   * Formats whose own summary counts a failed test or an error while the log names no failure at all (a Go panic
   * after the binary's PASS, a summary of a run whose failure blocks were cut away): the log is red, but there is
   * no failure to report. Absent when a failure was found or no summary counts one.
   */
  unnamedFailuresIn: z.array(z.string()).optional(),
  /** What did not fit in the bounds. */
  dropped: z.object({
    /** Failures beyond the cap. */
    failures: z.number().int(),
    /** Test results beyond the cap. */
    tests: z.number().int(),
  }),
  /**
   * Set when the host stopped parsing before the end (the log cost more time than its size allows, see
   * `createLogParser`): the lines read up to the end of the piece it stopped in, and why. Nothing else of such a result is read: it holds no
   * failures or tests, so no consumer takes part of a log for the whole.
   */
  stopped: z.object({ line: z.number().int(), reason: z.string() }).nullable().default(null),
});
export type ParsedLog = z.infer<typeof ParsedLog>;
