/**
 * `retrace replay <trace.json>`: re-run a recorded job with the model answers from its trace and check that
 * it reaches the same result. Exit 0 when it does, 1 when it diverged (the output says where).
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import { Redactor } from "../../core/redact.ts";
import { replayTrace } from "../../jobs/replay.ts";
import { createDockerSandbox } from "../../sandbox/docker.ts";

interface ReplayOptions {
  json?: boolean;
  repo?: string;
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new UsageError(
      `cannot read ${file}: ${(e as Error).message}`,
      "pass the path of a trace.json a Retrace run wrote",
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `${file} is not JSON: ${(e as Error).message}`,
      "pass the trace.json a Retrace run wrote",
    );
  }
}

export function registerReplay(program: Command): void {
  program
    .command("replay")
    .description("re-run a recorded job with the model answers from its trace; report where it diverged")
    .argument("<trace>", "trace.json written by a Retrace run")
    .option("--repo <dir>", "repository checkout the job ran on (fix jobs)")
    .option("--json", "print the comparison as JSON")
    .action(async (file: string, opts: ReplayOptions) => {
      const input = await readJson(file);
      const redactor = new Redactor([process.env.ANTHROPIC_API_KEY, process.env.GITHUB_TOKEN]);
      const report = await replayTrace(input, {
        sandbox: createDockerSandbox(),
        redactor,
        ...(opts.repo ? { repoDir: opts.repo } : {}),
      });
      if (opts.json) {
        const { run, ...rest } = report;
        process.stdout.write(
          `${redactor.redact(JSON.stringify({ ...rest, result: run.result }, null, 2))}\n`,
        );
      } else if (report.same) {
        process.stdout.write(
          `replay: same result — ${report.replayed.reason} in state "${report.replayed.state}", ` +
            `${report.run.trace.steps.length} transitions, ${report.exchanges.replayed} model exchanges replayed\n`,
        );
      } else {
        process.stdout.write(
          `replay diverged (recorded ${report.recorded.reason}, replayed ${report.replayed.reason}):\n` +
            report.divergences.map((d) => `  - ${redactor.redact(d)}\n`).join(""),
        );
      }
      process.exitCode = report.same ? 0 : 1;
    });
}
