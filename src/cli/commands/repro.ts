/**
 * `retrace repro <issue.md | ->`: reproduce a bug report in the sandbox and print the verdict.
 * Exit 0 whenever a verdict was reached (whatever it is); 2 for usage mistakes, 3 for infrastructure.
 */
import { createHash } from "node:crypto";
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import { ReproJobSpec } from "../../core/job.ts";
import { Redactor } from "../../core/redact.ts";
import { renderReproReport } from "../../report/repro-report.ts";
import { hostLimits } from "../../core/host-limits.ts";
import { MIN_RUN_TIMEOUT_MS } from "../../sandbox/limits.ts";
import { reproductionFile } from "../../repro/script-header.ts";
import { runReproJob } from "../../jobs/pipelines.ts";
import { assertModelKey, intOption, nonNegativeNumberOption, secondsOption } from "../options.ts";
import { checkOutDir, writeOutDir } from "../out-dir.ts";
import { readTextInput } from "../read-input.ts";
import { clampCliBudget } from "../budget.ts";
import { printErr, printJson, printOut } from "../print.ts";

interface ReproOptions {
  json?: boolean;
  out?: string;
  runs: string;
  model?: string;
  offline?: boolean;
  maxAttempts: string;
  budgetUsd: string;
  timeout: string;
  installTimeout: string;
  package?: string;
}

/**
 * `--timeout`: seconds, from MIN_RUN_TIMEOUT_MS up. A smaller limit cannot even copy the program in and start its
 * runtime on a loaded host: refused with the minimum (exit 2) before anything runs.
 */
export function runTimeoutOption(raw: string): number {
  const min = MIN_RUN_TIMEOUT_MS / 1000;
  if (/^\d{1,3}$/.test(raw) && Number(raw) < min) {
    throw new UsageError(
      `--timeout ${raw} is below the minimum of ${min} seconds: each run's limit also covers copying the program into the sandbox and starting its runtime, which alone can take seconds on a loaded machine`,
      `pass --timeout ${min} or more (default 10)`,
    );
  }
  return secondsOption("--timeout", raw, min, 600, 10);
}

export function registerRepro(program: Command): void {
  program
    .command("repro")
    .description(
      "Reproduce a bug report (markdown: `# title`, then the body) in the sandbox and report a verdict",
    )
    .argument("<issue>", "the issue as a markdown file, or - for stdin")
    .option("--json", "print the result as one JSON document (the exported ReproResult schema)")
    .option("--out <dir>", "write report.md, reproduction.<py|mjs|ts> (when reproduced) and trace.json there")
    .option("--runs <n>", "repeats of each run; REPRODUCED needs all of them", "3")
    .option(
      "--model <name>",
      "model to use (needs ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for another endpoint; without a key it is an error)",
    )
    .option(
      "--package <name>",
      "the package the issue's repository publishes (npm or PyPI name): a snippet that calls it without an import gets one",
    )
    .option("--offline", "no model: deterministic extraction, execution and matching only")
    .option("--max-attempts <n>", "attempts of the model loop", "3")
    .option("--budget-usd <x>", "dollars the model may spend", "1")
    .option(
      "--timeout <seconds>",
      `wall-clock limit of each sandbox run, in seconds (${MIN_RUN_TIMEOUT_MS / 1000} to 600)`,
      "10",
    )
    .option(
      "--install-timeout <seconds>",
      "wall-clock limit of each dependency install, in seconds (1 to 1800)",
      "300",
    )
    .action(async (input: string, opts: ReproOptions) => {
      if (opts.offline && opts.model)
        throw new UsageError("--offline and --model exclude each other", "drop one of them");
      assertModelKey([["--model", opts.model]], "drop --model and pass --offline to run without a model");
      const runs = intOption("--runs", opts.runs, 1, 10);
      const maxAttempts = intOption("--max-attempts", opts.maxAttempts, 1, 20);
      const timeoutMs = runTimeoutOption(opts.timeout);
      const installTimeoutMs = secondsOption("--install-timeout", opts.installTimeout, 1, 1800, 600);
      const maxUsd = nonNegativeNumberOption("--budget-usd", opts.budgetUsd, 10_000);
      const markdown = await readTextInput(
        input,
        "the issue",
        "pass the issue as a markdown file (`# title`, then the body), or `-` to read stdin",
      );
      const maxChars = hostLimits().reportChars;
      if (markdown.length > maxChars) {
        throw new UsageError(
          `the issue is ${markdown.length} characters long; GitHub caps an issue at 65536, and repro reads no more than ${maxChars} (RETRACE_HOST_LIMITS reportChars)`,
          "shorten it to the code that shows the problem, its output or error, and the versions used",
        );
      }
      const outDir = opts.out === undefined ? undefined : await checkOutDir("--out", opts.out);

      // The model SDK is imported only when a model can be used: the offline path starts faster without it.
      const model =
        opts.offline || !process.env.ANTHROPIC_API_KEY
          ? null
          : (await import("../../llm/from-env.ts")).createModelFromEnv(
              opts.model ? { defaultModel: opts.model } : {},
            );
      if (opts.package !== undefined && !ReproJobSpec.shape.package.safeParse(opts.package).success)
        throw new UsageError(
          `--package ${JSON.stringify(opts.package.slice(0, 80))} is not an npm or PyPI package name`,
          "pass the name the repository publishes, e.g. --package filesize or --package @scope/name",
        );
      const spec = ReproJobSpec.parse({
        kind: "repro",
        id: `repro-${createHash("sha256").update(markdown).digest("hex").slice(0, 12)}`,
        markdown,
        ...(opts.package === undefined ? {} : { package: opts.package }),
        runs,
        model: model ? (opts.model ?? "default") : null,
        budget: { maxAttempts, maxUsd },
      });
      spec.budget = clampCliBudget(spec.budget);
      const redactor = new Redactor([process.env.ANTHROPIC_API_KEY, process.env.GITHUB_TOKEN]);
      // Progress on stderr, like `fix`: each step as it ends, and each sandbox run (quiet with --json).
      const progress = (line: string) => {
        if (!opts.json) printErr(`retrace: ${redactor.redact(line)}\n`);
      };
      const { job, outcome, startedAt } = await runReproJob(spec, {
        model,
        redactor,
        overrides: { runTimeoutMs: timeoutMs, installTimeoutMs },
        onEvent: (e) => progress(`${e.step}: ${e.summary}`),
        onProgress: progress,
      });
      // The pipeline redacts what it returns; everything written here goes through the redactor once more,
      // so no output of this command depends on a pipeline remembering to.
      const result = redactor.redactDeep(outcome.result);
      const built = result.verdict === "REPRODUCED" ? reproductionFile(result, new Date(startedAt)) : null;
      const file = built ? { ...built, content: redactor.redact(built.content) } : null;
      const report = redactor.redact(renderReproReport(result, file ? { scriptPath: file.filename } : {}));

      if (outDir !== undefined) {
        const trace = job.trace;
        await writeOutDir("--out", outDir, [
          ["report.md", report],
          ...(file ? [[file.filename, file.content] as const] : []),
          ["trace.json", `${JSON.stringify(trace, null, 2)}\n`],
        ]);
      }
      if (opts.json) printJson(`${JSON.stringify(result, null, 2)}\n`);
      else printOut(report);
      if (opts.out !== undefined && !opts.json) {
        printErr(
          `retrace: wrote report.md${file ? `, ${file.filename}` : ""} and trace.json to ${opts.out}\n`,
        );
      }
    });
}
