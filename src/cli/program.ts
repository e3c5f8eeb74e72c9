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

export function buildProgram(): Command {
  const program = new Command("retrace")
    .description("Reproduce bug reports and fix failing checks, proven in a locked-down sandbox.")
    .version("0.1.0")
    .showHelpAfterError()
    .enablePositionalOptions();
  registerSandbox(program);
  registerRepro(program);
  registerPolicy(program);
  registerVerify(program);
  registerReplay(program);
  registerFix(program);
  return program;
}
