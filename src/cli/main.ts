/**
 * CLI entry: parse argv, run one command, map errors to exit codes. No pipeline logic lives here.
 */
import { CommanderError } from "commander";
import { describeError, isRetraceError } from "../core/errors.ts";
import { hostLimits } from "../core/host-limits.ts";
import { guardWorkflowCommands } from "../core/workflow-commands.ts";
import { buildProgram } from "./program.ts";
import { printErr } from "./print.ts";

export async function main(argv: string[]): Promise<number> {
  // Output echoes text from repositories, reports and programs; a CI runner must not read a line of it as a
  // command (`::error …`, `::stop-commands::` in GitHub Actions).
  guardWorkflowCommands(process.stdout);
  guardWorkflowCommands(process.stderr);
  // A reader that stops early (`retrace parse-log big.log | head`) closes the pipe: the output it wanted was
  // written, so Retrace stops quietly, as `cat` does, instead of reporting a bug. Other stream errors stay errors.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  const program = await buildProgram(argv);
  // The operator's host maxima are read before any command runs: a malformed RETRACE_HOST_LIMITS stops it
  // there. `--help` and `--version` run no command, so they still answer (and say how to set the variable).
  program.hook("preAction", () => {
    hostLimits(process.env);
  });
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isRetraceError(error)) {
      printErr(`retrace: ${describeError(error)}\n`);
      return error.exitCode;
    }
    if ((error as NodeJS.ErrnoException)?.code === "EPIPE") return 0;
    // Not one of ours: a bug, or a failure nothing translated. One line, the stack only on request.
    printErr(
      process.env.RETRACE_DEBUG === "1"
        ? `retrace: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`
        : `retrace: unexpected error: ${describeError(error)}\n  → this is a bug in Retrace: run again with RETRACE_DEBUG=1 for the stack trace and report it\n`,
    );
    return 1;
  }
}
