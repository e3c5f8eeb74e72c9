/**
 * `retrace replay <trace.json>`: re-run a recorded job with the model answers from its trace and check that
 * it reaches the same result. Exit 0 when it does, 1 when it diverged (the output says where).
 */
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import { jsonDepth, MAX_PAYLOAD_DEPTH } from "../../core/json-depth.ts";
import { Redactor } from "../../core/redact.ts";
import { parseTrace, replayTrace } from "../../jobs/replay.ts";
import { loadRepoConfigFile } from "../../config/load.ts";
import path from "node:path";
import { readTextInput } from "../read-input.ts";
import { printJson, printOut } from "../print.ts";

interface ReplayOptions {
  json?: boolean;
  repo?: string;
}

async function readJson(file: string): Promise<unknown> {
  const hint = "pass the trace.json a Retrace run wrote (repro --out DIR, fix --out DIR), or - for stdin";
  const text = await readTextInput(file, "the trace", hint);
  const source = file === "-" ? "stdin" : file;
  // Measured in one linear pass before JSON.parse allocates a level per bracket.
  if (jsonDepth(text, MAX_PAYLOAD_DEPTH) > MAX_PAYLOAD_DEPTH)
    throw new UsageError(
      `${source} nests deeper than ${MAX_PAYLOAD_DEPTH} levels, which no trace Retrace writes does`,
      hint,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${source} is not JSON: ${(e as Error).message}`, hint);
  }
  // The common mistake is another JSON file (result.json, package.json): say so in one line, before the
  // schema check lists every missing field.
  const fields = json !== null && typeof json === "object" && !Array.isArray(json) ? json : {};
  if (!("version" in fields && "steps" in fields && "result" in fields))
    throw new UsageError(`${source} is not a Retrace trace (it has no version, steps and result)`, hint);
  return json;
}

export function registerReplay(program: Command): void {
  program
    .command("replay")
    .description("Re-run a recorded job with the model answers from its trace; report where it diverged")
    .argument("<trace>", "trace.json written by a Retrace run, or - for stdin")
    .option("--repo <dir>", "repository checkout the job ran on, at the same commit (required for fix jobs)")
    .option("--json", "print the comparison as JSON")
    .action(async (file: string, opts: ReplayOptions) => {
      const input = parseTrace(await readJson(file), file === "-" ? "the trace on stdin" : file);
      if (input.job?.kind === "fix" && !opts.repo)
        throw new UsageError(
          `${file === "-" ? "the trace on stdin" : file} is the trace of a fix job, which replays on the repository it ran on`,
          "pass --repo DIR: the checkout the job ran on, at the commit it ran on (`retrace replay trace.json --repo DIR`)",
        );
      const redactor = new Redactor([process.env.ANTHROPIC_API_KEY, process.env.GITHUB_TOKEN]);
      // A fix job ran under its repository's configuration: replay it under the same one.
      const config = opts.repo ? await loadRepoConfigFile(path.resolve(opts.repo)) : undefined;
      const report = await replayTrace(input, {
        redactor,
        ...(opts.repo ? { repoDir: path.resolve(opts.repo) } : {}),
        ...(config ? { config } : {}),
      });
      if (opts.json) {
        const { run, ...rest } = report;
        printJson(`${redactor.redact(JSON.stringify({ ...rest, result: run.result }, null, 2))}\n`);
      } else if (report.same) {
        printOut(
          `replay: same result — ${report.replayed.reason} in state "${report.replayed.state}", ` +
            `${report.run.trace.steps.length} transitions, ${report.exchanges.replayed} model exchanges replayed\n`,
        );
      } else {
        printOut(
          `replay diverged (recorded ${report.recorded.reason}, replayed ${report.replayed.reason}):\n` +
            report.divergences.map((d) => `  - ${redactor.redact(d)}\n`).join(""),
        );
      }
      process.exitCode = report.same ? 0 : 1;
    });
}
