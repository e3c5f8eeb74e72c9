/**
 * `retrace fix`: from a failing test suite (or a CI log) to a verified patch on a new branch, or an honest
 * report of why not. Translates flags into a run of the fix pipeline and writes its outputs; no pipeline
 * logic lives here.
 */
import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import {
  ConfigError,
  FLAKY_BASE_PREFIX,
  FlakyBaseError,
  InfrastructureError,
  RetraceError,
  UsageError,
} from "../../core/errors.ts";
import { Redactor } from "../../core/redact.ts";
import { loadRepoConfigFile } from "../../config/load.ts";
import { GitConfigRefusedError } from "../../git/errors.ts";
import { safeGit } from "../../git/run-git.ts";
import { FixJobSpec } from "../../core/job.ts";
import { runFixJob } from "../../jobs/pipelines.ts";
import { fixReportMarkdown } from "../../jobs/fix-result.ts";
import { exitCodeFor } from "../../fix/result.ts";
import { createModelFromEnv } from "../../llm/from-env.ts";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../../llm/pricing.ts";
import { assertModelKey, intOption, nonNegativeNumberOption } from "../options.ts";
import { checkOutDir, writeOutDir } from "../out-dir.ts";
import { checkOutRoot, ensureOutRoot, listPaths, OUT_ROOT, uncommittedChanges } from "../worktree.ts";
import { readTextInput } from "../read-input.ts";
import { clampCliBudget } from "../budget.ts";
import { printErr, printJson, printOut } from "../print.ts";

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
  allowDirty?: boolean;
}

export function registerFix(program: Command): void {
  program
    .command("fix")
    .description(
      "Fix a failing test suite: triage flakiness, propose a patch, prove it in the sandbox, commit it to a new branch",
    )
    .requiredOption(
      "--repo <dir>",
      "the repository (a git checkout; its current branch and working tree are never changed). Its tests run on HEAD: a tree with uncommitted changes is refused unless --allow-dirty",
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
      `where patch.diff, pr.md, result.json and trace.json go (default <repo>/${OUT_ROOT}/fix-<id>, git-ignored)`,
    )
    .option("--dry-run", "verify but do not create the branch")
    .option(
      "--allow-dirty",
      "run on HEAD plus the uncommitted changes of the working tree (untracked files included); no branch is created, since it would hold HEAD without those changes: apply <out>/patch.diff yourself",
    )
    .option("--json", "print the result document as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 fixed, flaky, or nothing to fix (every test passes); 1 no verified fix (gave up, blocked,\nbudget); 2 usage or configuration (uncommitted changes, a model flag without ANTHROPIC_API_KEY, a test\ncommand whose results Retrace cannot read); 3 infrastructure (Docker, the sandbox image, a missing command).",
    )
    .action(async (flags: FixFlags) => {
      const repo = path.resolve(flags.repo);
      const st = await stat(repo).catch(() => null);
      if (!st?.isDirectory())
        throw new UsageError(`--repo ${flags.repo} is not a directory`, "pass the path of a git checkout");
      assertModelKey(
        [
          ["--model", flags.model],
          ["--strong-model", flags.strongModel],
        ],
        "drop the model flags (without a model, fix runs only the flaky triage)",
      );
      const maxAttempts = intOption("--max-attempts", flags.maxAttempts, 1, 20);
      const triageRuns = intOption("--triage-runs", flags.triageRuns, 1, 20);
      const contextTokens = intOption("--context-tokens", flags.contextTokens, 1, 200_000, 12_000);
      const maxUsd = nonNegativeNumberOption("--budget-usd", flags.budgetUsd, 10_000);
      const log =
        flags.log === undefined
          ? undefined
          : await readTextInput(flags.log, "the CI log", "pass the path of a saved CI log, or - for stdin");

      const id = randomUUID().replace(/-/g, "").slice(0, 12);
      const git = safeGit(repo);
      const inside = await git.raw(["rev-parse", "--is-inside-work-tree"]).catch((error: unknown) => {
        // A checkout whose git config Retrace refuses says so, not "not a git repository".
        if (error instanceof GitConfigRefusedError) throw new UsageError(error.message, error.hint);
        return "";
      });
      if (inside.trim() !== "true") {
        throw new UsageError(
          `--repo ${flags.repo} is not a git repository`,
          "run retrace fix in a git checkout (git init && git commit)",
        );
      }
      const head = (await git.raw(["rev-parse", "--short", "HEAD"]).catch(() => "")).trim();
      if (head === "")
        throw new UsageError(
          `--repo ${flags.repo} has no commit yet`,
          "commit the code to fix first (git add -A && git commit)",
        );
      // The sandbox copies the tree on disk; the branch is built on HEAD. Uncommitted changes would be
      // verified without being on the branch: refuse them, or (--allow-dirty) verify them and make no branch.
      const dirty = await uncommittedChanges(git);
      if (dirty.length > 0 && !flags.allowDirty)
        throw new UsageError(
          `--repo ${flags.repo} has uncommitted changes in ${dirty.length} file(s): ${listPaths(dirty)}`,
          "commit or stash them (retrace fix runs on HEAD and puts its fix on a branch from HEAD), or pass --allow-dirty to run on HEAD plus these changes without creating a branch",
        );
      const defaultOut = flags.out === undefined;
      if (defaultOut) await checkOutRoot(repo, `fix-${id}`);
      const out = await checkOutDir("--out", flags.out ?? path.join(repo, OUT_ROOT, `fix-${id}`));
      const model = createModelFromEnv();
      const redactor = new Redactor([process.env.ANTHROPIC_API_KEY, process.env.GITHUB_TOKEN]);
      const progress = (line: string) => {
        if (!flags.json) printErr(`retrace: ${redactor.redact(line)}\n`);
      };
      if (dirty.length > 0)
        printErr(
          `retrace: --allow-dirty: running on HEAD (${head}) plus the uncommitted changes in ${dirty.length} file(s): ${listPaths(dirty)}; no branch will be created\n`,
        );
      const config = await loadRepoConfigFile(repo);
      const spec = FixJobSpec.parse({
        kind: "fix",
        id,
        ...(log === undefined ? {} : { log }),
        ...(flags.test ? { testCommand: flags.test } : {}),
        model: flags.model ?? null,
        ...(flags.strongModel ? { strongModel: flags.strongModel } : {}),
        triageRuns,
        contextTokens,
        budget: { maxAttempts, maxUsd },
      });
      spec.budget = clampCliBudget(spec.budget);
      const { run } = await runFixJob(spec, {
        repoDir: repo,
        config,
        overrides: {
          ...(flags.test ? { testCommand: flags.test } : {}),
          ...(flags.model ? { model: flags.model } : {}),
          ...(flags.strongModel ? { strongModel: flags.strongModel } : {}),
        },
        model,
        redactor,
        onProgress: progress,
        publishLocalBranch: !flags.dryRun && dirty.length === 0,
      });

      const outputs: Array<readonly [string, string]> = [
        ["result.json", `${JSON.stringify(run.result, null, 2)}\n`],
        ["trace.json", `${JSON.stringify(run.trace, null, 2)}\n`],
        ["pr.md", fixReportMarkdown(run, redactor)],
        ...(run.patch ? [["patch.diff", redactor.redact(run.patch)] as const] : []),
      ];
      if (defaultOut) {
        await checkOutRoot(repo, `fix-${id}`); // again: nothing is written through a link that appeared during the run
        await ensureOutRoot(repo).catch(() => undefined); // writeOutDir reports a real failure
      }
      await writeOutDir("--out", out, outputs);

      const r = run.result;
      const failure = run.trace.result.error;
      if (failure?.kind === "infrastructure" && failure.message.startsWith(FLAKY_BASE_PREFIX)) {
        // A deciding test flaky on the unpatched base: no verdict, no other patch asked for, no PR (exit 4).
        throw new FlakyBaseError(
          `${failure.message}; the fix loop stopped here: no other patch was asked of the model and no pull request was opened`,
          [],
          `${failure.hint ?? "quarantine or fix the flaky test"}; the run's record is in ${out}`,
        );
      }
      if (failure?.kind === "infrastructure") {
        // The pipeline records it as an ERROR outcome; the exit code and stderr must still say "infrastructure".
        throw new InfrastructureError(
          failure.message,
          `${failure.hint ?? "check the Docker engine and the sandbox image"}; the run's record is in ${out}`,
        );
      }
      if (failure?.kind === "usage" || failure?.kind === "config") {
        // Likewise a usage problem found during the run (a test command whose results Retrace cannot read): exit 2.
        throw new RetraceError(failure.kind, failure.message, {
          hint: `${failure.hint ?? "see retrace fix --help"}; the run's record is in ${out}`,
        });
      }
      // A run where every test passes is not a failure of Retrace: exit 0, and say so in words.
      const green = run.ctx.earlyStop === "no_failure" && flags.log === undefined;
      const onWhat = dirty.length > 0 ? `HEAD (${head}) plus your uncommitted changes` : `HEAD (${head})`;
      const headline = green
        ? `nothing to fix: every test passes on ${onWhat} (${[...run.ctx.baseOutcomes.values()].filter((o) => o === "passed").length} passed with \`${r.testCommand}\`)`
        : run.ctx.earlyStop === "no_failure"
          ? `${r.outcome}: the log names no failing test Retrace can read: nothing to fix (drop --log to run the tests in the sandbox)`
          : `${r.outcome}: ${r.reason}`;
      if (flags.json) printJson(`${JSON.stringify({ ...r, out })}\n`);
      else {
        printOut(
          `${headline}\n` +
            (r.branch ? `branch: ${r.branch} (${r.commit?.slice(0, 12)})\n` : "") +
            (run.patch && !r.branch
              ? `patch: ${path.join(out, "patch.diff")} (apply it with \`git apply\`)\n`
              : "") +
            (green ? "" : `attempts: ${r.attempts}, tokens: ${r.tokens}, cost: $${r.costUsd.toFixed(4)}\n`) +
            `outputs: ${out} (${outputs.map(([name]) => name).join(", ")})\n`,
        );
      }
      if (flags.json && r.outcome === "ERROR" && run.ctx.earlyStop !== "no_model")
        printErr(`retrace: ${redactor.redact(r.reason)}\n`);
      if (run.ctx.earlyStop === "no_model") {
        // Flaky triage ran without a model; the rest needs one.
        throw new ConfigError(
          "retrace fix needs a model for a real (non-flaky) failure, and none is configured",
          `set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another Messages API endpoint), then run again; the triage's record is in ${out}`,
        );
      }
      process.exitCode = green ? 0 : exitCodeFor(r.outcome);
    });
}
