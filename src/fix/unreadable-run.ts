/**
 * A run of the unchanged base that cannot be evidence for a reason that has nothing to do with the code:
 * the test command does not exist in the sandbox, or Retrace cannot read its results. Either way no patch
 * could ever be judged with it, so it is an error that says what to do — never a REJECTED or GAVE_UP verdict.
 * (A base run that lists failures, or whose known reporter stayed empty because the code is broken, is still
 * evidence and is judged as usual.)
 */
import { InfrastructureError, UsageError } from "../core/errors.ts";
import type { TestCommand, TestRunResult } from "./test-runner/types.ts";

/** The runners whose results Retrace reads per test (it adds their machine-readable reporter itself). */
export const READABLE_RUNNERS = "pytest, node --test, jest, vitest, mocha, go test, cargo test";

/** The line of `output` that says why the shell could not run the command (`sh: 1: make: not found`). */
function notFoundLine(output: string): string | null {
  const lines = output
    .split("\n")
    .filter((l) => /not found|No such file or directory|Permission denied/.test(l));
  return lines.at(-1)?.trim() ?? null;
}

/** Throws when `run` (of the base, with `command`) can never be evidence; returns otherwise. */
export function assertBaseRunReadable(command: TestCommand, run: TestRunResult): void {
  if (run.stoppedBy !== null || run.tests.length > 0) return;
  if (run.exitCode === 126 || run.exitCode === 127) {
    const why = notFoundLine(run.outputTail);
    throw new InfrastructureError(
      `the test command \`${command.command}\` could not start in the sandbox (exit ${run.exitCode}${why ? `: ${why}` : ""})`,
      "the sandbox image has no such program: pass --test with a command the image has (e.g. the test runner itself), install it as a dependency of the repository, or set sandbox.image in .github/retrace.yml to an image that has it",
    );
  }
  if (run.reportFormat === "auto") {
    throw new UsageError(
      `Retrace cannot read test results from \`${command.command}\`: it knows no test runner in that command, and its output (exit ${run.exitCode}) lists no test it can read`,
      `pass --test with the runner itself — Retrace reads ${READABLE_RUNNERS} — e.g. --test "python3 -m pytest", or set fix.testCommand in .github/retrace.yml`,
    );
  }
}
