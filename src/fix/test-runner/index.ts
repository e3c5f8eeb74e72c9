/**
 * The test runner: detects how a repository runs its tests, runs them in the sandbox with a
 * machine-readable reporter, reads the results per test id, and checks that the command's exit code
 * agrees with the report. A run whose evidence does not hold together (no report, no tests, exit code
 * 0 with failures, stopped by the sandbox) is marked incomplete and can never verify a patch.
 */
import { scrubInternalNames } from "../../core/internal-names.ts";
import type { Workspace } from "../../core/ports/workspace.ts";
import { type ExtraDir, maxCollectMib, type Sandbox, type SandboxLimits } from "../../core/ports/sandbox.ts";
import { TAP_CRASH_NOTE } from "../../logs/parsers/tap.ts";
import { heapExhaustedBySandbox } from "./heap.ts";
import { buildInvocation, setupFailedMarker } from "./invocation.ts";
import { readResults } from "./results.ts";
import { isFailing, type TestCommand, type TestRunResult } from "./types.ts";

export { describeCommand, detectTestCommand, frameworkOf } from "./detect.ts";
export { filterCommand } from "./filter.ts";
export { buildInvocation } from "./invocation.ts";
export {
  isFailing,
  TestCase,
  TestCommand,
  TestFramework,
  TestOutcome,
  TestRunResult,
} from "./types.ts";

/**
 * The environment of every test run: nothing from the host, no bytecode files, CI mode. The user site of Python
 * is where a repository's Python requirements are installed (`.retrace-python`, put there by the dependency
 * provider); it comes before the image's own packages and survives a command's own `PYTHONPATH=…` prefix.
 * Nothing here may change what the code under test does compared with the project's CI: no `NO_COLOR` /
 * `FORCE_COLOR` (commander's tests set `FORCE_COLOR=1` and expect colour, which `NO_COLOR=1` denied; output is
 * not a terminal, so runners do not colour it anyway, and the output tail drops colour codes).
 */
export const TEST_ENV: Readonly<Record<string, string>> = {
  PATH: "/workspace/node_modules/.bin:/usr/local/bin:/usr/bin:/bin",
  HOME: "/tmp",
  LANG: "C.UTF-8",
  CI: "true",
  PYTHONDONTWRITEBYTECODE: "1",
  PYTHONUNBUFFERED: "1",
  PYTHONUSERBASE: "/workspace/.retrace-python",
  NODE_ENV: "test",
};

const OUTPUT_TAIL = 4_000;

export interface RunTestsOptions {
  sandbox: Sandbox;
  workspace: Workspace;
  command: TestCommand;
  /** Files overlaid on the workspace copy (a patched tree), keyed by repo-relative path. */
  files?: Record<string, string>;
  /** Repo-relative paths removed from the workspace copy (files a patch deletes). */
  remove?: string[];
  /** Overlaid files that are executable (git mode 100755). */
  executable?: string[];
  /** Host directories copied into the workspace copy (e.g. node_modules installed on the host from the lockfile). */
  extraDirs?: ExtraDir[];
  /** The job the sandbox run belongs to (container labels, reaper). */
  jobId: string;
  signal?: AbortSignal;
  /** Overrides of the sandbox's default limits (e.g. a longer timeout for a slow suite). */
  limits?: Partial<SandboxLimits>;
}

/** The end of a run's output, as excerpts, feedback and reports show it: Retrace's own file names removed. */
/**
 * What a TAP report's comment lines say besides its counts: node's test runner writes a test file's own stderr
 * there (`# Error: Cannot find module 'x'` when the file failed to load), which the console output then lacks.
 */
export function tapDiagnostics(report: string): string {
  return report
    .split("\n")
    .filter(
      (l) =>
        l.startsWith("# ") &&
        !/^# (Subtest: |(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) \d)/.test(l),
    )
    .map((l) => l.slice(2))
    .join("\n");
}

function tail(stdout: string, stderr: string, diagnostics = ""): string {
  const text = scrubInternalNames(
    [stdout.trimEnd(), stderr.trimEnd(), diagnostics.trimEnd()]
      .filter(Boolean)
      .join("\n")
      .replace(/\u001b\[[0-9;]*[A-Za-z]/g, ""),
  );
  return text.length <= OUTPUT_TAIL ? text : `…${text.slice(text.length - OUTPUT_TAIL)}`;
}

/** Runs `command` once in a fresh sandbox copy of the workspace (plus overlay) and reads its results. */
export async function runTests(options: RunTestsOptions): Promise<TestRunResult> {
  const nonce = globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16);
  const invocation = buildInvocation(options.command, nonce);
  const result = await options.sandbox.run({
    jobId: options.jobId,
    command: ["sh", "-c", invocation.script],
    input: {
      dir: options.workspace.root,
      // Retrace's own files (a runner's launcher) win over the overlay; their names carry the run's nonce.
      ...(options.files || Object.keys(invocation.files).length > 0
        ? { files: { ...options.files, ...invocation.files } }
        : {}),
      ...(options.remove && options.remove.length > 0 ? { remove: options.remove } : {}),
      ...(options.executable && options.executable.length > 0 ? { executable: options.executable } : {}),
      ...(options.extraDirs && options.extraDirs.length > 0 ? { extraDirs: options.extraDirs } : {}),
    },
    env: { ...TEST_ENV, ...invocation.env },
    ...(invocation.reportFile ? { collect: [invocation.reportFile], collectFilesOnly: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });

  // V8's heap, sized from the sandbox's memory, ran out (exit 134): the memory limit ended the run (heap.ts). The
  // message is in the run's output, or in its report where a runner keeps a test file's stderr (node's TAP).
  const heapOutIn = (text: string): boolean =>
    result.stoppedBy === null &&
    result.exitCode !== 0 &&
    heapExhaustedBySandbox(text, result.memoryMb, invocation.script);
  let heapOut = heapOutIn(`${result.stdout}\n${result.stderr}`);
  let stoppedBy = heapOut ? "memory_limit" : result.stoppedBy;

  // The setup (a build) failed: no test ran, and nothing of its output is a test result.
  const marker = new RegExp(`^${setupFailedMarker(nonce)} (\\d+)$`, "m").exec(result.stderr);
  if (options.command.setup && marker && stoppedBy === null) {
    const output = tail("", result.stderr.replace(marker[0], "").trim());
    const exitCode = Number(marker[1]);
    const last = output
      .split("\n")
      .filter((l) => l.trim() !== "")
      .slice(-3)
      .join(" ⏎ ");
    return {
      script: invocation.script,
      tests: [],
      exitCode: result.exitCode,
      stoppedBy: null,
      ...(result.memoryMb !== undefined ? { memoryMb: result.memoryMb } : {}),
      durationMs: result.durationMs,
      reportSource: invocation.reportFile === null ? "stdout" : "file",
      reportFormat: invocation.format,
      reportFound: false,
      counts: { passed: 0, failed: 0, skipped: 0 },
      problems: [
        `the step before the tests, \`${options.command.setup}\`, failed (exit ${exitCode}), so no test ran${last ? `: ${last}` : ""}`,
      ],
      complete: false,
      outputTail: output,
      setupFailed: { exitCode, output },
    };
  }
  const problems: string[] = [];
  let text: string;
  let reportFound = true;
  if (invocation.reportFile !== null) {
    const bytes = result.files[invocation.reportFile];
    reportFound = bytes !== undefined;
    text = bytes === undefined ? "" : new TextDecoder().decode(bytes);
  } else {
    text = invocation.format === "auto" ? `${result.stdout}\n${result.stderr}` : result.stdout;
  }
  if (!heapOut && invocation.reportFile !== null && heapOutIn(text)) {
    heapOut = true;
    stoppedBy = "memory_limit";
  }
  const tests = reportFound ? readResults(invocation.format, text) : [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests) {
    if (t.outcome === "passed") counts.passed += 1;
    else if (isFailing(t.outcome)) counts.failed += 1;
    else counts.skipped += 1;
  }

  if (heapOut) {
    problems.push(
      `the run ran out of V8's JavaScript heap, which Node sizes from the sandbox's memory (${result.memoryMb} MiB): the memory limit ended it`,
    );
  } else if (result.stoppedBy !== null) {
    problems.push(
      `the sandbox stopped the run (${result.stoppedBy}${result.stoppedBy === "memory_limit" && result.memoryMb !== undefined ? `: ${result.memoryMb} MiB` : ""}) before it finished`,
    );
  } else if (!reportFound && result.collectTooLarge?.includes(invocation.reportFile ?? "")) {
    problems.push(
      `the test command's ${invocation.format} report is larger than ${maxCollectMib()} MiB, more than Retrace reads back from a run: not read`,
    );
  } else if (!reportFound) {
    problems.push(
      `the test command wrote no ${invocation.format} report (exit code ${result.exitCode}): the run ended before its reporter finished (early exit or crash)`,
    );
  } else if (tests.length === 0) {
    problems.push(`the ${invocation.format} results list no tests (exit code ${result.exitCode})`);
  } else if (result.exitCode === 0 && counts.failed > 0) {
    problems.push(`exit code 0 disagrees with the report: ${counts.failed} failing test(s)`);
  } else if (result.exitCode !== 0 && counts.failed === 0) {
    problems.push(
      `exit code ${result.exitCode} disagrees with the report, which lists no failing test: something outside the tests failed or ended the run`,
    );
  }
  const diedIn = tests.find((t) => t.outcome === "error" && t.message?.startsWith(TAP_CRASH_NOTE))?.id;
  return {
    ...(diedIn !== undefined ? { diedIn } : {}),
    script: invocation.script,
    tests,
    exitCode: result.exitCode,
    stoppedBy,
    ...(result.memoryMb !== undefined ? { memoryMb: result.memoryMb } : {}),
    durationMs: result.durationMs,
    reportSource: invocation.reportFile === null ? "stdout" : "file",
    reportFormat: invocation.format,
    reportFound,
    counts,
    problems,
    complete: problems.length === 0,
    outputTail: tail(
      result.stdout,
      result.stderr,
      reportFound && invocation.format === "tap" ? tapDiagnostics(text) : "",
    ),
  };
}
