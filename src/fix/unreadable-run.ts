/**
 * A run of the unchanged base that cannot be evidence for a reason that has nothing to do with the code:
 * the test command does not exist in the sandbox, or Retrace cannot read its results. Either way no patch
 * could ever be judged with it, so it is an error that says what to do — never a REJECTED or GAVE_UP verdict.
 * (A base run that lists failures, or whose known reporter stayed empty because the code is broken, is still
 * evidence and is judged as usual.)
 */
import { InfrastructureError, UsageError } from "../core/errors.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { isFailing, type TestCommand, type TestRunResult } from "./test-runner/types.ts";

/** The runners whose results Retrace reads per test (it adds their machine-readable reporter itself). */
export const READABLE_RUNNERS = "pytest, node --test, jest, vitest, mocha, go test, cargo test";

/** The line of `output` that says why the shell could not run the command (`sh: 1: make: not found`). */
function notFoundLine(output: string): string | null {
  const lines = output
    .split("\n")
    .filter((l) => /not found|No such file or directory|Permission denied/.test(l));
  return lines.at(-1)?.trim() ?? null;
}

/**
 * Whether a failed setup step (a build before the tests) failed for the machine's reasons rather than the
 * code's: a program the sandbox lacks (exit 126/127), a process killed by a signal (memory), a resource or
 * network error, a third-party module that is not installed.
 */
export function setupFailedForEnvironment(failed: { exitCode: number; output: string }): boolean {
  if (failed.exitCode === 126 || failed.exitCode === 127 || failed.exitCode > 128) return true;
  return /\b(?:ENOMEM|ENOSPC|EAGAIN|EMFILE|ENFILE|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENOTFOUND)\b|out of memory|: not found$|Cannot find (?:module|package) '(?![./])|No such file or directory.*node_modules/m.test(
    failed.output,
  );
}

/**
 * Throws when the setup of the command (a build before the tests) failed. On the unchanged base no test ran,
 * so no patch could be judged: always an error, never a verdict. After the patch (`phase` "patched") only when
 * it failed for the machine's reasons (setupFailedForEnvironment); a build the patch breaks is the patch's.
 */
export function assertSetupRan(command: TestCommand, run: TestRunResult, phase: "base" | "patched"): void {
  const failed = run.setupFailed;
  if (!failed) return;
  const env = setupFailedForEnvironment(failed);
  if (phase === "patched" && !env) return;
  const last = lastLines(failed.output);
  throw new InfrastructureError(
    `the step the test command runs before the tests, \`${command.setup}\`, failed ${phase === "base" ? "on the unchanged base" : "in a patched run, for a reason of the machine"} (exit ${failed.exitCode}), so no test ran${last ? `; its output ends: ${last}` : ""}`,
    env
      ? "the build needs something the sandbox does not have: install it as a dependency of the repository, raise sandbox.limits in .github/retrace.yml, or pass --test with a command whose build the sandbox can run"
      : "the build fails on the base itself: fix it there first, or pass --test with a command that does not build (or builds what the tests need only)",
  );
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

/**
 * Throws when the unchanged base's complete run has no failing test: there is no failure for a patch to fix, so
 * no verdict on the patch is possible — before, this was REJECTED, a verdict that blamed the patch for the base
 * (hold6: a 0.5 s timing test whose base fails only on a loaded machine; honest fixes were REJECTED at load 4).
 */
export function assertBaseHasFailure(command: TestCommand, run: TestRunResult): void {
  if (!run.complete || run.tests.length === 0) return;
  if (run.tests.some((t) => isFailing(t.outcome))) return;
  throw new UsageError(
    `no test fails on the unchanged base with \`${command.command}\` (${run.tests.length} test(s) ran, none failed): there is no failure for the patch to fix, so there is no verdict on it`,
    "pass --test with the command that fails (the failing CI step's own command, narrowed to the failing tests if you like); a failure that comes and goes (timing, test order, machine load, network) cannot be verified this way: re-run the failing check, or let `retrace fix` triage it",
  );
}

/** The last non-empty lines of a run's output, quoted on one line. */
function lastLines(output: string, n = 3): string {
  const lines = output
    .split("\n")
    .map((l) => l.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "").trim())
    .filter((l) => l !== "");
  return lines.slice(-n).join(" ⏎ ");
}

/**
 * Throws when the sandbox's memory limit ended `run` (the kernel's OOM killer fired in its container: exit 137 or
 * the engine's OOMKilled). In any run — base, patched, anti-gaming, triage — that is the sandbox's size, not a
 * finding about the code: a repository's CI runner has more (GitHub's hosted runners: 7-16 GB), so it is an
 * infrastructure error that names the limit and how to raise it, never a REJECTED or "not fixed" verdict.
 * (A patch that allocates without end is then an error, not a rejection: no false verdict either way.)
 */
export function assertNotOutOfMemory(command: TestCommand, run: TestRunResult, phase: string): void {
  if (run.stoppedBy !== "memory_limit") return;
  throw memoryLimitError(command.command, run.memoryMb, phase);
}

/** The infrastructure error of a run the sandbox's memory limit ended. */
export function memoryLimitError(
  command: string,
  memoryMb: number | undefined,
  phase: string,
): InfrastructureError {
  const limit =
    memoryMb === undefined ? "the sandbox's memory limit" : `the sandbox's memory limit of ${memoryMb} MiB`;
  return new InfrastructureError(
    `${phase === "anti-gaming" ? "an" : "a"} ${phase} run of \`${command}\` was killed for reaching ${limit} (out of memory in the sandbox), so it says nothing about the code: there is no verdict`,
    `raise the memory of each test run: sandbox.limits.memoryMb in .github/retrace.yml (e.g. memoryMb: ${Math.max(4_096, (memoryMb ?? 2_048) * 2)}), within the host's maximum, which the operator sets with RETRACE_SANDBOX_MAX_LIMITS=memoryMb=N; or narrow the test command`,
  );
}

/**
 * Throws when the unchanged base ran but Retrace got no report of it (its reporter file was never written):
 * whatever ended the run, the base then says nothing per test, so no patch could be judged against it — an
 * infrastructure error naming why as far as the output tells, never a REJECTED verdict. The same for a base run
 * the sandbox stopped at a limit (time, memory, output): the limit, not the code, ended it. Called after
 * `assertTestsCouldRun` (a missing package has its own message).
 */
export function assertBaseRunReported(command: TestCommand, run: TestRunResult): void {
  assertNotOutOfMemory(command, run, "base");
  if (run.stoppedBy === "timeout" || run.stoppedBy === "output_limit") {
    const limit =
      run.stoppedBy === "timeout"
        ? `the sandbox's time limit (after ${Math.round(run.durationMs / 1000)} s)`
        : "the sandbox's output limit";
    throw new InfrastructureError(
      `the test command \`${command.command}\` did not finish on the unchanged base: it reached ${limit}, so the base gives no per-test results a patch could be judged against`,
      run.stoppedBy === "timeout"
        ? "give each test run more time (--timeout SECONDS, or sandbox.limits.timeoutMs in .github/retrace.yml, within the host's maximum RETRACE_SANDBOX_MAX_LIMITS), or narrow the test command to the part of the suite that matters"
        : "raise the sandbox limits in .github/retrace.yml (sandbox), or narrow the test command",
    );
  }
  if (run.reportFound || run.stoppedBy !== null) return;
  // A report the tests made larger than Retrace reads back (the sandbox's collect cap) was written, not missing.
  const tooLarge = run.problems.find((p) => /report is larger than \d+ MiB/.test(p));
  if (tooLarge) {
    throw new InfrastructureError(
      `the test command \`${command.command}\` ran on the unchanged base, but ${tooLarge.replace(/^the test command's /, "its ")}, so the base gives no per-test results a patch could be judged against`,
      "narrow the test command, or find what writes into the test report (a conftest or reporter plug-in of the repository's)",
    );
  }
  const tail = lastLines(run.outputTail);
  throw new InfrastructureError(
    `the test command \`${command.command}\` ran on the unchanged base (exit ${run.exitCode}) but wrote no ${run.reportFormat} report, so its results cannot be read per test; the run ended before Retrace's reporter wrote it (the runner failed to start or load, or the code under test ended the process early)${tail ? `; its output ends: ${tail}` : ""}`,
    "run the command by hand in a fresh checkout: if it ends before the runner reports (a crash while loading the tests, a process.exit in a test helper, a runner that cannot take a reporter), fix that or pass --test (fix.testCommand in .github/retrace.yml) with a command that runs the tests through the runner itself",
  );
}

/** A module the tests import that the sandbox does not have, as the runner said it. */
export interface MissingModule {
  ecosystem: "python" | "javascript";
  /** The name as imported (`yaml`, `lodash/merge`, `@scope/pkg`). */
  name: string;
  /** The top-level name the repository would have to hold for it to be its own (`yaml`, `lodash`, `@scope/pkg`). */
  top: string;
  /** The runner's line that says so. */
  line: string;
}

const PY_MISSING = /(?:ModuleNotFoundError|ImportError): No module named '([\w.]+)'/;
const JS_MISSING =
  /(?:Cannot find module|Cannot find package) '([^'./][^']*)'|Failed to resolve import "([^"./][^"]*)"/;

/** Every module the run's output says is missing, in order, once each. */
export function missingModules(run: Pick<TestRunResult, "outputTail" | "tests">): MissingModule[] {
  const found = new Map<string, MissingModule>();
  const lines = [...run.outputTail.split("\n"), ...run.tests.map((t) => t.message ?? "")];
  for (const raw of lines) {
    // Runners colour their error lines (pytest's `E   ModuleNotFoundError…` in red): quote the text only.
    const line = raw.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "").trim();
    const py = PY_MISSING.exec(line);
    if (py) {
      const name = py[1]!;
      if (!found.has(`py:${name}`))
        found.set(`py:${name}`, { ecosystem: "python", name, top: name.split(".")[0]!, line });
      continue;
    }
    const js = JS_MISSING.exec(line);
    const jsName = js ? (js[1] ?? js[2]!) : null;
    if (jsName !== null && !jsName.startsWith("node:")) {
      const name = jsName;
      const parts = name.split("/");
      const top = name.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
      if (!found.has(`js:${name}`)) found.set(`js:${name}`, { ecosystem: "javascript", name, top, line });
    }
  }
  return [...found.values()];
}

/** Whether the repository holds a module of that top-level name itself (then a failing import is the code's). */
async function isOwnModule(workspace: Workspace, m: MissingModule): Promise<boolean> {
  if (m.ecosystem === "javascript") return false; // a bare specifier names a package, never a repository file
  const candidates = [m.top, `${m.top}.py`, `src/${m.top}`, `src/${m.top}.py`, `lib/${m.top}`];
  for (const c of candidates) if (await workspace.exists(c)) return true;
  return false;
}

/**
 * Throws when the base run's tests did not run because a third-party module is missing from the sandbox
 * (`ModuleNotFoundError: No module named 'yaml'`, `Cannot find module 'lodash'`): the run says nothing about
 * the code, so neither a verdict nor "not flaky" may be read from it. A module the repository holds itself
 * (`from mypkg import new_function` failing before the fix) is the code's failure and stays evidence.
 */
export async function assertTestsCouldRun(
  command: TestCommand,
  run: TestRunResult,
  workspace: Workspace,
): Promise<void> {
  if (run.stoppedBy !== null) return;
  if (!run.tests.some((t) => t.outcome === "failed" || t.outcome === "error") && run.exitCode === 0) return;
  for (const m of missingModules(run)) {
    if (await isOwnModule(workspace, m)) continue;
    const declare =
      m.ecosystem === "python"
        ? "declare it where the repository's tests get their requirements (pyproject.toml [project] dependencies or a test extra / dependency group, setup.cfg, a requirements or test-requirements file, tox.ini deps): Retrace installs those as wheels in its install container; or run with an image that has it (sandbox.image in .github/retrace.yml, allowed by the host's RETRACE_SANDBOX_IMAGES)"
        : "declare it in package.json (Retrace installs package.json's dependencies in its install container, from the lockfile when there is one), or run with an image that has it (sandbox.image in .github/retrace.yml)";
    throw new InfrastructureError(
      `the tests did not run: \`${command.command}\` stopped because the sandbox has no ${m.ecosystem === "python" ? "Python module" : "package"} '${m.top}' (${m.line}); a run that never reached the tests is not evidence about the code`,
      declare,
    );
  }
}
