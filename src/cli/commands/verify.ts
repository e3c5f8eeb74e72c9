/**
 * `retrace verify --repo DIR --patch FILE [--test CMD] [--runs N] [--json]`: prove (or refute) a patch in the
 * sandbox. Exit 0 VERIFIED, 1 REJECTED or BLOCKED, 2 usage error, 3 infrastructure (Docker unreachable).
 * Only translates flags into a `verifyPatch` call and its result into output.
 */
import type { Command } from "commander";
import { CONFIG_PATH, loadConfigFile, loadRepoConfigFile } from "../../config/load.ts";
import { readPatchInput } from "../read-patch.ts";
import type { VerifyOutput } from "../../fix/verify.ts";
import { runVerifyJob } from "../../jobs/verify-job.ts";
import { createFsWorkspace } from "../../git/fs-workspace.ts";
import { intOption, secondsOption } from "../options.ts";
import { printErr, printJson, printOut } from "../print.ts";
import { cancellable, progress, seconds } from "../progress.ts";

interface VerifyFlags {
  repo: string;
  patch: string;
  test?: string;
  runs?: string;
  config?: string;
  timeout?: string;
  json?: boolean;
  timings?: boolean;
}

/** The result as printed by --json: everything but the raw base runs. */
export function verifyJson(result: VerifyOutput): Omit<VerifyOutput, "baseline"> {
  const { baseline: _baseline, ...rest } = result;
  return rest;
}

function printHuman(result: VerifyOutput): void {
  const out: string[] = [];
  out.push(`verdict: ${result.verdict}`);
  if (result.testCommand !== null)
    out.push(`tests:   ${result.testCommand}  (detected by: ${result.detectedBy})`);
  if (result.changedFiles.length > 0) out.push(`patch:   ${result.changedFiles.join(", ")}`);
  const section = (title: string, ids: string[]) => {
    if (ids.length === 0) return;
    out.push(`${title} (${ids.length}):`);
    for (const id of ids.slice(0, 20)) out.push(`  ${id}`);
    if (ids.length > 20) out.push(`  … ${ids.length - 20} more`);
  };
  section("fail → pass", result.failToPass);
  section("pass → fail", result.passToFail);
  section("still failing", result.stillFailing);
  if (result.runs.length > 0) {
    out.push("runs:");
    for (const r of result.runs) {
      const c = r.counts;
      const state = r.complete ? "" : `  INCOMPLETE: ${r.problems.join("; ")}`;
      out.push(
        `  ${r.phase} ${r.index}: exit ${r.exitCode ?? r.stoppedBy}, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${seconds(r.durationMs)})${state}`,
      );
    }
  }
  out.push("reasons:");
  for (const reason of result.reasons) out.push(`  - ${reason}`);
  printOut(`${out.join("\n")}\n`);
}

export function registerVerify(program: Command): void {
  program
    .command("verify")
    .description(
      "Prove a patch in the sandbox: gate it, run the tests on the base and with the patch (repeatedly), compare per test id",
    )
    .requiredOption(
      "--repo <dir>",
      "the repository at the base commit (copied into each sandbox run, never changed)",
    )
    .requiredOption("--patch <file>", "the unified diff to verify (- for stdin)")
    .option("--test <command>", "the test command (detected from the repository when absent)")
    .option(
      "--runs <n>",
      "runs of the base and of the patched tree; all must agree (default: fix.verifyRuns, 2)",
    )
    .option("--config <file>", `configuration (default: <repo>/${CONFIG_PATH} when present)`)
    .option(
      "--timeout <seconds>",
      "wall-clock limit of each test run in the sandbox, in seconds (1 to 3600; default 600, or sandbox.limits.timeoutMs; at most the host's maximum)",
    )
    .option("--json", "print the result as JSON")
    .option(
      "--timings",
      "print each sandbox step's time to stderr (container create, start, copy-in, command, collect, removal)",
    )
    .action(async (flags: VerifyFlags) => {
      const timeoutMs =
        flags.timeout === undefined ? undefined : secondsOption("--timeout", flags.timeout, 1, 3600, 300);
      const workspace = await createFsWorkspace(flags.repo);
      const patch = await readPatchInput(
        flags.patch,
        "pass --patch with a unified diff file (git diff > fix.diff), or - for stdin",
      );
      const config = flags.config
        ? await loadConfigFile(flags.config)
        : await loadRepoConfigFile(workspace.root);
      const runs = flags.runs === undefined ? config.fix.verifyRuns : intOption("--runs", flags.runs, 1, 10);

      await cancellable(async (signal) => {
        const p = progress(flags.timings);
        const result = await runVerifyJob({
          workspace,
          patch,
          config,
          testCommand: flags.test,
          runs,
          timeoutMs,
          signal,
          log: p.log,
          ...(p.onSandboxStep ? { onSandboxStep: p.onSandboxStep } : {}),
          onRun: (phase, index, r) => {
            const c = r.counts;
            printErr(
              `retrace: ${p.at()} ${phase} run ${index}/${runs}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${seconds(r.durationMs)})${r.complete ? "" : " — incomplete"}\n`,
            );
          },
        });
        if (flags.timings) p.log(`verdict ${result.verdict} (sandbox released)`);
        if (flags.json) printJson(`${JSON.stringify(verifyJson(result), null, 2)}\n`);
        else printHuman(result);
        process.exitCode = result.verdict === "VERIFIED" ? 0 : 1;
      });
    });
}
