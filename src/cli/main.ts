/**
 * CLI entry: parse argv, run one command, map errors to exit codes. No pipeline logic lives here.
 */
import { CommanderError } from "commander";
import { describeError, isRetraceError } from "../core/errors.ts";
import { buildProgram } from "./program.ts";

export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  program.exitOverride();
  program.configureOutput({
    writeErr: (s) => process.stderr.write(s),
    writeOut: (s) => process.stdout.write(s),
  });
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`retrace: ${describeError(error)}\n`);
    return isRetraceError(error) ? error.exitCode : 1;
  }
}
