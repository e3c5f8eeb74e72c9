/**
 * `retrace fix`: from a failing test suite (or a CI log) to a verified patch on a new branch, or an honest
 * report of why not. Translates flags into a run of the fix pipeline and writes its outputs; no pipeline
 * logic lives here.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { ConfigError, UsageError } from "../../core/errors.ts";
import { Redactor } from "../../core/redact.ts";
import { simpleGit } from "simple-git";
import { CONFIG_PATH, loadConfigFile } from "../../config/load.ts";
import { createLocalFixPorts } from "../../jobs/local-fix.ts";
import { fixReportMarkdown, runFix } from "../../fix/pipeline.ts";
import { exitCodeFor } from "../../fix/result.ts";
import { createModelFromEnv } from "../../llm/from-env.ts";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../../llm/pricing.ts";

interface FixFlags {
  repo: string;
  log?: string;
  test?: string;
  model?: string;
  strongModel?: string;
  maxAttempts: string;
  budgetUsd: string;
  triageRuns: string;
  contextTokens: string;
  json?: boolean;
  out?: string;
  dryRun?: boolean;
}

function positiveInt(name: string, value: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${name} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export function registerFix(program: Command): void {
  program
    .command("fix")
    .description(
      "Fix a failing test suite: triage flakiness, propose a patch, prove it in the sandbox, commit it to a new branch",
    )
    .requiredOption(
      "--repo <dir>",
      "the repository (a git checkout; its current branch and working tree are never changed)",
    )
    .option("--log <file>", "a CI log with the failure; without it the tests run in the sandbox to find it")
    .option("--test <command>", "the test command (detected from the repository when absent)")
    .option(
      "--model <name>",
      `model for the first attempt (default ${DEFAULT_FAST_MODEL}; needs ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for another endpoint)`,
    )
    .option(
      "--strong-model <name>",
      `stronger model used after a failed attempt (default ${DEFAULT_STRONG_MODEL})`,
    )
    .option("--max-attempts <n>", "attempts of the model loop", "3")
    .option("--budget-usd <x>", "dollars the model may spend", "2")
    .option("--triage-runs <n>", "reruns of the failing tests on the unchanged base (flaky triage)", "3")
    .option(
      "--context-tokens <n>",
      "token budget of the packed context (estimated as characters / 4)",
      "12000",
    )
    .option(
      "--out <dir>",
      "where patch.diff, pr.md, result.json and trace.json go (default .retrace/fix-<id>)",
    )
    .option("--dry-run", "verify but do not create the branch")
    .option("--json", "print the result document as JSON")
    .action(async (flags: FixFlags) => {
      const repo = path.resolve(flags.repo);
      const st = await stat(repo).catch(() => null);
      if (!st?.isDirectory())
        throw new UsageError(`--repo ${flags.repo} is not a directory`, "pass the path of a git checkout");
      const maxAttempts = positiveInt("--max-attempts", flags.maxAttempts, 20);
      const triageRuns = positiveInt("--triage-runs", flags.triageRuns, 20);
      const contextTokens = positiveInt("--context-tokens", flags.contextTokens, 200_000);
      const maxUsd = Number(flags.budgetUsd);
      if (!Number.isFinite(maxUsd) || maxUsd < 0)
        throw new UsageError(
          `--budget-usd must be a non-negative number, got ${JSON.stringify(flags.budgetUsd)}`,
        );
      let log: string | undefined;
      if (flags.log !== undefined) {
        log = await readFile(flags.log, "utf8").catch((e: NodeJS.ErrnoException) => {
          throw new UsageError(
            `cannot read --log ${flags.log}: ${e.code ?? e.message}`,
            "pass the path of a saved CI log",
          );
        });
      }

      const id = randomUUID().replace(/-/g, "").slice(0, 12);
      const out = path.resolve(flags.out ?? path.join(".retrace", `fix-${id}`));
      const model = createModelFromEnv();
      const redactor = new Redactor([process.env.ANTHROPIC_API_KEY, process.env.GITHUB_TOKEN]);
      const progress = (line: string) => {
        if (!flags.json) process.stderr.write(`retrace: ${redactor.redact(line)}\n`);
      };
      const git = simpleGit(repo);
      if (!(await git.checkIsRepo().catch(() => false))) {
        throw new UsageError(
          `--repo ${flags.repo} is not a git repository`,
          "run retrace fix in a git checkout (git init && git commit)",
        );
      }
      const config = await loadConfigFile(path.join(repo, CONFIG_PATH), { optional: true });
      const ports = await createLocalFixPorts({
        repoDir: repo,
        jobId: id,
        config,
        ...(flags.test ? { testCommand: flags.test } : {}),
        model,
        ...(flags.model || flags.strongModel
          ? {
              models: {
                fast: flags.model ?? config.model.default,
                strong: flags.strongModel ?? config.model.strong,
                escalateAfter: config.model.escalateAfter,
              },
            }
          : {}),
        redactor,
        log: progress,
        publishLocalBranch: !flags.dryRun,
      });
      const run = await runFix(ports, {
        id,
        ...(log === undefined ? {} : { log }),
        triageRuns,
        contextTokens,
        budget: { maxAttempts, maxUsd },
        maxOutputTokens: config.model.maxOutputTokens,
      });

      await mkdir(out, { recursive: true });
      const writes: Promise<void>[] = [
        writeFile(path.join(out, "result.json"), `${JSON.stringify(run.result, null, 2)}\n`),
        writeFile(path.join(out, "trace.json"), `${JSON.stringify(run.trace, null, 2)}\n`),
        writeFile(path.join(out, "pr.md"), fixReportMarkdown(run, redactor)),
      ];
      if (run.patch) writes.push(writeFile(path.join(out, "patch.diff"), redactor.redact(run.patch)));
      await Promise.all(writes);

      const r = run.result;
      if (flags.json) process.stdout.write(`${JSON.stringify({ ...r, out })}\n`);
      else {
        process.stdout.write(
          `${r.outcome}: ${r.reason}\n` +
            (r.branch ? `branch: ${r.branch} (${r.commit?.slice(0, 12)})\n` : "") +
            `attempts: ${r.attempts}, tokens: ${r.tokens}, cost: $${r.costUsd.toFixed(4)}\n` +
            `outputs: ${out}\n`,
        );
      }
      if (run.ctx.earlyStop === "no_model") {
        // Flaky triage ran without a model; the rest needs one.
        throw new ConfigError(
          "retrace fix needs a model for a real (non-flaky) failure, and none is configured",
          "set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another Messages API endpoint), then run again",
        );
      }
      process.exitCode = exitCodeFor(r.outcome);
    });
}
