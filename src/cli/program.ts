/**
 * The command table. Each command lives in its own file under commands/ and is listed here once.
 *
 * Commands are loaded lazily: `retrace parse-log …` imports only the parse-log module (and what it needs), not
 * the sandbox, the model SDK and the policy gate — start-up is most of a short command's time. Help and unknown
 * commands load them all, so `retrace --help` lists every command.
 */
import { Command } from "commander";
import { printErr, printOut } from "./print.ts";

type Register = (program: Command) => void;

const COMMANDS: Record<string, () => Promise<Register>> = {
  sandbox: async () => (await import("./commands/sandbox.ts")).registerSandbox,
  repro: async () => (await import("./commands/repro.ts")).registerRepro,
  fix: async () => (await import("./commands/fix.ts")).registerFix,
  "parse-log": async () => (await import("./commands/parse-log.ts")).registerParseLog,
  policy: async () => (await import("./commands/policy.ts")).registerPolicy,
  verify: async () => (await import("./commands/verify.ts")).registerVerify,
  test: async () => (await import("./commands/test.ts")).registerTest,
  replay: async () => (await import("./commands/replay.ts")).registerReplay,
};

/** The program with the command named by `argv` registered, or every command when none is named. */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command("retrace")
    .description("Reproduce bug reports and fix failing checks, proven in a locked-down sandbox.")
    .version("0.1.0")
    .enablePositionalOptions()
    // Set before any command is added: subcommands copy these settings when they are created, so a usage
    // mistake in any command ends through main()'s handler (exit 2) rather than process.exit(1), and prints
    // like every other error: `retrace: <what was wrong>`, then `  → <what to do>` (set by pointToHelp).
    .exitOverride()
    .configureOutput({
      writeErr: (s) => printErr(s),
      writeOut: (s) => printOut(s),
      outputError: (s, write) => write(`retrace: ${s.replace(/^error: /, "")}`),
    });
  // `--version` alone prints a constant: loading every command for it cost ~0.5 s of CPU and 70 MB.
  const versionOnly = argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V");
  const named =
    argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0])
      ? [argv[0]]
      : versionOnly
        ? []
        : Object.keys(COMMANDS);
  // verify and fix read the operator's registry configuration (npm's and pip's, by running them: 1-3 s on a
  // loaded machine) before their dependencies are found: started now, it runs while their modules load.
  if ((argv[0] === "verify" || argv[0] === "fix") && !argv.some((a) => a === "-h" || a === "--help"))
    void (await import("../install/registry-config.ts")).hostRegistryConfig();
  for (const register of await Promise.all(named.map((name) => COMMANDS[name]!()))) register(program);
  pointToHelp(program, "retrace");
  return program;
}

/** After a usage error, each command names its own help rather than printing all of it. */
function pointToHelp(command: Command, name: string): void {
  command.showHelpAfterError(`  → see \`${name} --help\``);
  for (const sub of command.commands) pointToHelp(sub, `${name} ${sub.name()}`);
}
