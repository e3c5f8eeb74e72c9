/**
 * `retrace test --repo DIR [--test CMD] [--json]`: run the repository's tests once in the sandbox, exactly as
 * `verify` and `fix` make their first base run (the repository's runtime, its dependencies installed in the
 * install container, the command given or detected). Shows what Retrace sees before a verification depends on
 * it. Exit 0 every test passed, 1 a test failed, 2 usage error, 3 infrastructure (the run could not be evidence:
 * no runtime, a missing module, a failed build, a limit, no report). Only translates flags and output.
 */
import type { Command } from "commander";
import { CONFIG_PATH, loadConfigFile, loadRepoConfigFile } from "../../config/load.ts";
import { createFsWorkspace } from "../../git/fs-workspace.ts";
import { runTestJob } from "../../jobs/test-job.ts";
import { secondsOption } from "../options.ts";
import { cancellable, progress, seconds } from "../progress.ts";
import { printJson, printOut } from "../print.ts";

interface TestFlags {
  repo: string;
  test?: string;
  config?: string;
  timeout?: string;
  json?: boolean;
  timings?: boolean;
}

export function registerTest(program: Command): void {
  program
    .command("test")
    .description(
      "Run the repository's tests once in the sandbox, as verify and fix run them, and list what failed",
    )
    .requiredOption("--repo <dir>", "the repository (copied into the sandbox, never changed)")
    .option("--test <command>", "the test command (detected from the repository when absent)")
    .option("--config <file>", `configuration (default: <repo>/${CONFIG_PATH} when present)`)
    .option(
      "--timeout <seconds>",
      "wall-clock limit of the run in the sandbox, in seconds (1 to 3600; default 600, or sandbox.limits.timeoutMs; at most the host's maximum)",
    )
    .option("--json", "print the result as JSON")
    .option("--timings", "print each sandbox step's time to stderr")
    .action(async (flags: TestFlags) => {
      const timeoutMs =
        flags.timeout === undefined ? undefined : secondsOption("--timeout", flags.timeout, 1, 3600, 600);
      const workspace = await createFsWorkspace(flags.repo);
      const config = flags.config
        ? await loadConfigFile(flags.config)
        : await loadRepoConfigFile(workspace.root);
      await cancellable(async (signal) => {
        const p = progress(flags.timings);
        const suite = await runTestJob({
          workspace,
          config,
          testCommand: flags.test,
          timeoutMs,
          signal,
          log: p.log,
          ...(p.onSandboxStep ? { onSandboxStep: p.onSandboxStep } : {}),
        });
        const r = suite.result;
        if (flags.json) {
          printJson(
            `${JSON.stringify(
              {
                testCommand: suite.commandText,
                detectedBy: suite.command.detectedBy,
                framework: suite.command.framework,
                exitCode: r.exitCode,
                durationMs: r.durationMs,
                counts: r.counts,
                complete: r.complete,
                problems: r.problems,
                failing: suite.failing,
                tests: r.tests.map((t) => ({ id: t.id, outcome: t.outcome })),
              },
              null,
              2,
            )}\n`,
          );
        } else {
          const c = r.counts;
          const out = [
            `tests:   ${suite.commandText}  (detected by: ${suite.command.detectedBy})`,
            `run:     exit ${r.exitCode}, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${seconds(r.durationMs)})`,
          ];
          for (const problem of r.problems) out.push(`problem: ${problem}`);
          if (suite.failing.length > 0) {
            out.push(`failing (${suite.failing.length}):`);
            for (const id of suite.failing.slice(0, 50)) out.push(`  ${id}`);
            if (suite.failing.length > 50) out.push(`  … ${suite.failing.length - 50} more`);
          }
          printOut(`${out.join("\n")}\n`);
        }
        process.exitCode = suite.failing.length > 0 || r.exitCode !== 0 ? 1 : 0;
      });
    });
}
