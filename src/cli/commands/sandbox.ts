/**
 * `retrace sandbox`: check the engine and image, run one command in the sandbox, reap leftovers.
 */
import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import { createDockerSandbox } from "../../sandbox/docker.ts";
import { connectDocker, pingEngine } from "../../sandbox/engine.ts";
import { secondsOption } from "../options.ts";
import { readErrorReason } from "../read-input.ts";
import { printCommandOutput, printErr, printJson, printOut } from "../print.ts";

const DIR_HINT = "pass the directory to copy into the sandbox's /workspace";

export function registerSandbox(program: Command): void {
  const sandbox = program.command("sandbox").description("Inspect and use the locked-down Docker sandbox");

  sandbox
    .command("check")
    .description("Check that the Docker engine answers and the sandbox image works")
    .option("--json", "print a JSON document")
    .action(async (opts: { json?: boolean }) => {
      const sb = createDockerSandbox();
      const result = await sb.run({
        jobId: `check-${randomUUID().slice(0, 8)}`,
        command: ["sh", "-c", "python3 --version; node --version; id -u"],
        env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
        limits: { timeoutMs: 20_000 },
      });
      const [python, node, uid] = result.stdout.trim().split("\n");
      const report = { image: sb.image, python, node, uid: Number(uid), durationMs: result.durationMs };
      (opts.json ? printJson : printOut)(
        opts.json
          ? `${JSON.stringify(report)}\n`
          : `sandbox ok: ${sb.image} (${python}, node ${node}, uid ${uid}) in ${result.durationMs} ms\n`,
      );
    });

  sandbox
    .command("run")
    .description(
      "Run a command in a fresh sandbox (a copy of --dir as the workspace). Its output is passed through exact to a pipe or file; on a terminal, control characters (escape sequences) are shown as \\u{…} escapes",
    )
    .option("--dir <dir>", "directory copied into the workspace")
    .option("--timeout <seconds>", "wall-clock limit of the run, in seconds (1 to 3600)", "30")
    .option("--json", "print the result as JSON")
    .argument("<command...>", "the command and its arguments (put -- before it)")
    .action(async (command: string[], opts: { dir?: string; timeout: string; json?: boolean }) => {
      const timeoutMs = secondsOption("--timeout", opts.timeout, 1, 3600, 30);
      if (opts.dir !== undefined) {
        const st = await stat(opts.dir).catch((e: unknown) => {
          throw new UsageError(`cannot read --dir ${opts.dir}: ${readErrorReason(e)}`, DIR_HINT);
        });
        if (!st.isDirectory()) throw new UsageError(`--dir ${opts.dir} is not a directory`, DIR_HINT);
      }
      const sb = createDockerSandbox();
      const result = await sb.run({
        jobId: `cli-${randomUUID().slice(0, 8)}`,
        command,
        env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp", LANG: "C.UTF-8" },
        ...(opts.dir ? { input: { dir: opts.dir } } : {}),
        limits: { timeoutMs },
      });
      if (opts.json) {
        const { files: _files, ...rest } = result;
        printJson(`${JSON.stringify(rest)}\n`);
      } else {
        // The command's own output: exact to a pipe or file (as `docker run` passes it), inert on a terminal.
        printCommandOutput(result.stdout, process.stdout);
        printCommandOutput(result.stderr, process.stderr);
        if (result.stoppedBy) printErr(`retrace: run stopped by the sandbox: ${result.stoppedBy}\n`);
      }
      process.exitCode = result.exitCode ?? 1;
    });

  sandbox
    .command("reap")
    .description("Remove leftover Retrace containers (past their deadline or owned by a dead process)")
    .action(async () => {
      // reap() itself reports an unreachable engine as a bare socket error: ask the engine first.
      await pingEngine(connectDocker());
      const { removed, kept } = await createDockerSandbox().reap();
      printOut(`removed ${removed.length} container(s); ${kept} still running\n`);
    });
}
