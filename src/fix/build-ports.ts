/**
 * Builds the fix pipeline's ports from the Workspace and Sandbox ports and the pure modules: the test
 * runner and verification (src/fix/test-runner.ts, verify.ts), the log parser (src/logs) and the policy
 * gate (src/policy). Pure: entries pass the real adapters (fs workspace, Docker sandbox, git), tests may
 * pass fakes.
 */
import type { ModelChoice } from "../core/loop.ts";
import type { Redactor } from "../core/redact.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import type { Model } from "../core/ports/model.ts";
import { type Failure, parseLog, wholeLog } from "../logs/index.ts";
import { PolicyConfig, type PolicyConfigInput } from "../policy/config.ts";
import { failingCheckText } from "./failing-check.ts";
import { evaluatePatch, GATE_TREE_FILES } from "../policy/index.ts";
import { RULES } from "../policy/rules/index.ts";
import type { ExtraDir, Sandbox, SandboxLimits } from "../core/ports/sandbox.ts";
import { type DependencyProvider, dependencyDirs } from "./dependencies.ts";
import { extractFrames, type FailureInfo, mapRunnerPath } from "./failure.ts";
import type { FixPorts, FixTestPort, TestRunSummary } from "./ports.ts";
import { describeCommand, detectTestCommand, filterCommand, runTests } from "./test-runner/index.ts";
import { fullCommandText, isFailing, type TestCommand, type TestRunResult } from "./test-runner/types.ts";
import { gamingClassOf } from "./feedback.ts";
import {
  assertBaseRunReadable,
  assertBaseRunReported,
  assertNotOutOfMemory,
  assertSetupRan,
  assertTestsCouldRun,
} from "./unreadable-run.ts";
import { applyPatchToWorkspace, PatchApplyError, type PatchedFiles } from "./apply-patch.ts";
import { gateBaseSources } from "./manifest-change.ts";
import { antiGamingGap, verifyPatch } from "./verify.ts";
import { runnerConfigs } from "./manifest-change.ts";

export interface FixPortsInput {
  workspace: Workspace;
  sandbox: Sandbox;
  jobId: string;
  /** The test command as given (`--test`); detected from the repository when absent. */
  testCommand?: string;
  /** Where `testCommand` came from, for the record (`--test`, `fix.testCommand`, the failing workflow step). */
  testCommandSource?: string;
  /** The `policy:` section (defaults when absent). */
  policy?: PolicyConfigInput;
  /** Verification runs per phase (default 2). */
  verifyRuns?: number;
  /** Sandbox limits of each test run. */
  limits?: Partial<SandboxLimits>;
  /** Host directories copied into every test run (node_modules installed on the host from the lockfile). */
  extraDirs?: ExtraDir[];
  /** Installs the repository's JS dependencies from its npm lockfile when the checkout lacks them. */
  dependencies?: DependencyProvider;
  model: Model | null;
  models?: ModelChoice;
  redactor?: Redactor;
  signal?: AbortSignal;
  commitDiff?: FixPorts["commitDiff"];
  publish?: FixPorts["publish"];
  log?: (line: string) => void;
}

/** Sandbox paths the runner may print, stripped before mapping to repository paths. */
const SANDBOX_ROOT = "/workspace";

function toFailureInfo(f: Failure, files: ReadonlySet<string>): FailureInfo | null {
  const testId = f.test ?? (f.file ? `${f.file}${f.line ? `:${f.line}` : ""}` : null);
  if (testId === null) return null;
  const file = f.file ? (mapRunnerPath(f.file, files) ?? undefined) : undefined;
  const text = `${f.message}\n${f.stack ?? ""}`;
  return {
    testId,
    ...(file ? { file } : {}),
    ...(file && f.line ? { line: f.line } : {}),
    message: f.errorType ? `${f.errorType}: ${f.message}` : f.message,
    excerpt: (f.stack ?? f.message).trim(),
    frames: extractFrames(text, files),
  };
}

/** Failures of a sandbox run: the failing tests from the report, enriched with messages and stacks parsed from the output. */
function failuresOf(run: TestRunResult, files: ReadonlySet<string>): FailureInfo[] {
  const parsed = parseLog(run.outputTail, { repoRoot: SANDBOX_ROOT });
  const byId = new Map<string, Failure>();
  for (const f of parsed.failures) if (f.test) byId.set(f.test, f);
  const out: FailureInfo[] = [];
  for (const t of run.tests) {
    if (!isFailing(t.outcome)) continue;
    const f =
      byId.get(t.id) ??
      [...byId.values()].find((x) => x.test && (t.id.endsWith(x.test) || x.test.endsWith(t.id)));
    const info = f ? toFailureInfo(f, files) : null;
    const file = t.file ? (mapRunnerPath(t.file, files) ?? undefined) : info?.file;
    out.push({
      testId: t.id,
      ...(file ? { file } : {}),
      ...(info?.line && info.file === file ? { line: info.line } : {}),
      message: info?.message ?? t.message ?? "(no message)",
      excerpt: info?.excerpt ?? t.message ?? "",
      frames: info?.frames ?? extractFrames(run.outputTail, files),
    });
  }
  return out;
}

function summarize(run: TestRunResult, files: ReadonlySet<string>): TestRunSummary {
  return {
    outcomes: new Map(run.tests.map((t) => [t.id, t.outcome])),
    failures: failuresOf(run, files),
    outputTail: run.outputTail,
    durationMs: run.durationMs,
    problem: run.complete ? null : run.problems.join("; "),
    stoppedBy: run.stoppedBy,
  };
}

export async function createFixPorts(input: FixPortsInput): Promise<FixPorts> {
  const { workspace, sandbox, jobId } = input;
  const command: TestCommand = input.testCommand
    ? await describeCommand(workspace, input.testCommand, input.testCommandSource ?? "--test")
    : await detectTestCommand(workspace);
  // Missing JS dependencies stop the job here, with a hint, before any run could be blamed on a patch.
  const extraDirs = await dependencyDirs(workspace, command, {
    extraDirs: input.extraDirs,
    provider: input.dependencies,
  });
  const policy = PolicyConfig.parse(input.policy ?? {});
  // The base package.json, for the gate: a dependency map opened above a hunk's context is then known.
  // So are the build files, a module's as well as the root's (red team 26: a Gradle test task or a surefire
  // `<configuration>` opened above a hunk; rv20: a module's `dependencies {` above a hunk).
  const sourceFiles = await gateBaseSources(workspace, await workspace.listFiles());
  const failingCheck = await failingCheckText(workspace, fullCommandText(command));
  const gateContext = {
    ...(Object.keys(sourceFiles).length === 0 ? {} : { sourceFiles }),
    failingCheck,
    // The import roots the runner's configuration names (red team 27: `pythonpath = lib`), at the root and in the
    // directories the check `cd`s into (f14c).
    runnerConfigs: await runnerConfigs(workspace, failingCheck),
    // The tree's names: a new file that folds onto one of them (`src/Auth.js` beside `src/auth.js`) is refused.
    treeFiles: await workspace.listFiles({ max: GATE_TREE_FILES }),
  };
  const rules = RULES.filter((r) => r.enabled(policy)).map((r) => r.id);
  let files: Set<string> | null = null;
  const repoFiles = async () => (files ??= new Set(await workspace.listFiles()));
  // Base runs are reused: the full-suite run that found the failure, then verification's base runs.
  let baseline: TestRunResult[] = [];
  const run = (cmd: TestCommand, signal: AbortSignal) =>
    runTests({
      sandbox,
      workspace,
      command: cmd,
      jobId,
      signal,
      ...(input.limits ? { limits: input.limits } : {}),
      ...(extraDirs.length > 0 ? { extraDirs } : {}),
    });

  let canFilter = command.framework !== "unknown";
  const tests: FixTestPort = {
    command: fullCommandText(command),
    get canFilter() {
      return canFilter;
    },
    filterCommand: (ids) => fullCommandText(canFilter ? filterCommand(command, [...ids]) : command),
    runAll: async (signal) => {
      const r = await run(command, signal);
      assertSetupRan(command, r, "base");
      assertBaseRunReadable(command, r);
      await assertTestsCouldRun(command, r, input.workspace);
      assertBaseRunReported(command, r);
      if (r.complete) baseline = [r];
      return summarize(r, await repoFiles());
    },
    runOnly: async (ids, signal) => {
      let cmd = command;
      try {
        if (canFilter) cmd = filterCommand(command, [...ids]);
      } catch {
        canFilter = false;
      }
      // Reruns of the unchanged base (flaky triage): one that never reached the tests is no evidence either way.
      const r = await run(cmd, signal);
      assertNotOutOfMemory(cmd, r, "triage");
      assertSetupRan(cmd, r, "base");
      await assertTestsCouldRun(cmd, r, input.workspace);
      return summarize(r, await repoFiles());
    },
  };

  return {
    workspace,
    tests,
    parseLog: (text, fileSet) =>
      wholeLog(parseLog(text, { repoRoot: SANDBOX_ROOT }), "the failed check's log")
        .failures.filter((f) => f.category === "test" || f.test !== null)
        .map((f) => toFailureInfo(f, fileSet))
        .filter((f): f is FailureInfo => f !== null),
    gate: (patch) => {
      const verdict = evaluatePatch(patch, policy, gateContext);
      return {
        allowed: verdict.allowed,
        violations: verdict.violations.map((v) => ({
          rule: v.rule,
          ...(v.file === null ? {} : { file: v.file }),
          ...(v.line === null ? {} : { line: v.line }),
          message: v.message,
        })),
        rules,
        failingCheck: gateContext.failingCheck,
        ...(verdict.warnings
          ? {
              warnings: verdict.warnings.map((v) => ({
                rule: v.rule,
                ...(v.file === null ? {} : { file: v.file }),
                ...(v.line === null ? {} : { line: v.line }),
                message: v.message,
              })),
            }
          : {}),
      };
    },
    verify: async ({ patch, signal }) => {
      // The one applier, once: the tests run on these changes and the publishers write them.
      let applied: PatchedFiles | undefined;
      try {
        applied = await applyPatchToWorkspace(workspace, patch);
      } catch (error) {
        if (!(error instanceof PatchApplyError)) throw error; // verifyPatch reports it as REJECTED
      }
      const v = await verifyPatch({
        workspace,
        sandbox,
        patch,
        ...(applied ? { applied } : {}),
        policy,
        testCommand: command,
        runs: input.verifyRuns ?? 2,
        jobId,
        signal,
        ...(baseline.length > 0 ? { baseline } : {}),
        ...(input.limits ? { limits: input.limits } : {}),
        ...(extraDirs.length > 0 ? { extraDirs } : {}),
        // A model's patch may change package.json's dependencies (mdast: the upstream fix adds one): its runs
        // get an install of the patched manifest, as `retrace verify`'s do.
        ...(input.dependencies ? { dependencies: input.dependencies } : {}),
        onRun: (phase, i, r) =>
          input.log?.(
            `  verify ${phase} run ${i}: ${r.counts.passed} passed, ${r.counts.failed} failed${r.complete ? "" : ` (${r.problems.join("; ")})`}`,
          ),
      });
      baseline = v.baseline;
      const incomplete = v.runs.filter((r) => !r.complete);
      return {
        ok: v.verdict === "VERIFIED",
        runs: v.runs.filter((r) => r.phase === "patched").length,
        tests: v.tests.map((t) => ({ id: t.id, before: t.before, after: t.after })),
        stillFailing: v.stillFailing,
        newFailures: v.passToFail,
        ...(incomplete.length > 0
          ? { runProblem: incomplete.flatMap((r) => r.problems).join("; ") }
          : v.verdict !== "VERIFIED" &&
              v.stillFailing.length === 0 &&
              v.passToFail.length === 0 &&
              !v.antiGaming?.gamingClass &&
              v.verdict !== "BLOCKED"
            ? { runProblem: v.reasons.join("; ") }
            : {}),
        ...(v.verdict === "VERIFIED" && applied ? { changes: applied.changes } : {}),
        excerpt: v.outputTail,
        ...(v.antiGaming?.gamingClass
          ? { gaming: { gamingClass: v.antiGaming.gamingClass, reasons: v.antiGaming.rejections } }
          : v.verdict === "BLOCKED"
            ? {
                gaming: {
                  gamingClass:
                    gamingClassOf(v.violations.map((x) => x.rule)) ?? "a patch the policy gate refuses",
                  reasons: v.reasons,
                },
              }
            : {}),
        ...(v.antiGaming?.ran ? { antiGaming: v.antiGaming.checks } : {}),
        ...(v.verdict === "VERIFIED" && v.antiGaming && antiGamingGap(v.antiGaming)
          ? { antiGamingGap: antiGamingGap(v.antiGaming)! }
          : {}),
      };
    },
    ...(input.commitDiff ? { commitDiff: input.commitDiff } : {}),
    ...(input.publish ? { publish: input.publish } : {}),
    model: input.model,
    ...(input.models ? { models: input.models } : {}),
    ...(input.redactor ? { redactor: input.redactor } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.log ? { log: input.log } : {}),
  };
}
