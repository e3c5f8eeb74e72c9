/**
 * The command table. Each command lives in its own file under commands/ and registers itself here
 * with one import and one call.
 */
import { Command } from "commander";
import { registerPolicy } from "./commands/policy.ts";
import { registerSandbox } from "./commands/sandbox.ts";
import { registerRepro } from "./commands/repro.ts";
import { registerVerify } from "./commands/verify.ts";
import { registerReplay } from "./commands/replay.ts";
import { registerFix } from "./commands/fix.ts";
import { registerParseLog } from "./commands/parse-log.ts";

export function buildProgram(): Command {
  const program = new Command("retrace")
    .description("Reproduce bug reports and fix failing checks, proven in a locked-down sandbox.")
    .version("0.1.0")
    .showHelpAfterError()
    .enablePositionalOptions()
    // Set before any command is added: subcommands copy these settings when they are created, so a usage
    // mistake in any command ends through main()'s handler (exit 2) rather than process.exit(1).
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });
  registerSandbox(program);
  registerRepro(program);
  registerPolicy(program);
  registerVerify(program);
  registerReplay(program);
  registerFix(program);
  registerParseLog(program);
  return program;
}
