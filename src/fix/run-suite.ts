/**
 * One run of a repository's tests in the sandbox, exactly as `verify` and `fix` make their first base run: the
 * same command (given, or detected and recorded with where it came from), dependency provider, runtime layer,
 * limits and reporter, and the same checks. A run that cannot be evidence — its build failed, the runner could
 * not start, a module is missing, no report was written, a limit ended it — is an error that says why and what
 * to do, never a list of results.
 *
 * `retrace test` uses it (does Retrace's sandbox run my suite, and what does it see?), and the real-repository
 * benchmark measures verify's wall time as a multiple of it.
 */
import type { Workspace } from "../core/ports/workspace.ts";
import type { Sandbox, SandboxLimits } from "../core/ports/sandbox.ts";
import { type DependencyProvider, dependencyDirs } from "./dependencies.ts";
import { describeCommand, detectTestCommand, runTests } from "./test-runner/index.ts";
import { fullCommandText, isFailing, type TestCommand, type TestRunResult } from "./test-runner/types.ts";
import {
  assertBaseRunReadable,
  assertBaseRunReported,
  assertSetupRan,
  assertTestsCouldRun,
} from "./unreadable-run.ts";

export interface SuiteRunOptions {
  workspace: Workspace;
  sandbox: Sandbox;
  /** The command as given and where it came from (`--test`, `fix.testCommand`); detected when absent. */
  testCommand?: { command: string; source: string } | undefined;
  jobId: string;
  dependencies?: DependencyProvider;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
}

export interface SuiteRun {
  command: TestCommand;
  /** The command as it ran, with its setup step and environment prefixes. */
  commandText: string;
  result: TestRunResult;
  /** Ids of the tests that failed or errored, in report order. */
  failing: string[];
}

export async function runSuite(options: SuiteRunOptions): Promise<SuiteRun> {
  const command =
    options.testCommand !== undefined
      ? await describeCommand(options.workspace, options.testCommand.command, options.testCommand.source)
      : await detectTestCommand(options.workspace);
  const extraDirs = await dependencyDirs(options.workspace, command, { provider: options.dependencies });
  try {
    const result = await runTests({
      sandbox: options.sandbox,
      workspace: options.workspace,
      command,
      jobId: options.jobId,
      ...(extraDirs.length > 0 ? { extraDirs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    // The checks of verify's first base run, in its order: only a run that passes them says anything per test.
    assertSetupRan(command, result, "base");
    assertBaseRunReadable(command, result);
    await assertTestsCouldRun(command, result, options.workspace);
    assertBaseRunReported(command, result);
    return {
      command,
      commandText: fullCommandText(command),
      result,
      failing: result.tests.filter((t) => isFailing(t.outcome)).map((t) => t.id),
    };
  } finally {
    await options.sandbox.release?.(options.jobId);
  }
}
