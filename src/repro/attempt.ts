/**
 * One attempt at a program, in stages: static needs (what only the reporter can give), dependency installs,
 * transpiling TypeScript, then the repeated runs with their evaluation and the version matrix. Each stage is
 * a function of the trial so far; the loop engine runs them as states (`stages.ts`), for the report's own
 * program and for each one the model writes.
 */
import { alternativeRelease } from "./alternative-release.ts";
import { sideRelease } from "./two-versions.ts";
import { lackingOwnMember } from "./repository-binding.ts";
import { InfrastructureError, RetraceError } from "../core/errors.ts";
import { completionImportFailure } from "./completion-failure.ts";
import { stoppedOnMissing, withoutGuessedImports } from "./guessed-imports.ts";
import { asksForError, raisedInInstalledPython } from "./asked-error.ts";
import {
  describeShortfall,
  namedRuntimeVersions,
  type RuntimeShortfall,
  runtimeShortfall,
} from "./runtime-rule.ts";
import { asEsModule, esModuleEntry, requiresEsModule } from "./esm-retry.ts";
import { packageFileDoesNotParse } from "./package-syntax.ts";
import type { Program } from "./complete.ts";
import type { ReproContext } from "./context.ts";
import {
  describeVersions,
  installedVersions,
  installPackages,
  type Pin,
  packageSpec,
  pinDependencies,
} from "./dependencies.ts";
import { type ExecutedRun, executeRuns, timeoutRetryFor } from "./execute.ts";
import {
  foldRuns,
  matchRunWithinBudget,
  repeatsUntilFailure,
  type RunsVerdict,
  thrownInLibrary,
  PACKAGE_CALL,
} from "./match.ts";
import { latestEntry, matrixLine } from "./matrix.ts";
import { findStaticNeeds } from "./needs.ts";
import { windowsOnlyOutput } from "./platform-claim.ts";
import { hostInstallFailure, type InstallResult, NO_SUCH_PACKAGE, NOT_ON_MIRROR } from "./ports.ts";
import { MAX_QUESTIONS, ownGeneratedLine, questionInput, reportLineOf, runQuestions } from "./questions.ts";
import type { MatrixEntry, PackageVersion, ReportedBehaviour, Verdict } from "./result.ts";

export interface AttemptOutcome {
  verdict: Verdict;
  fold: RunsVerdict | null;
  runs: ExecutedRun[];
  versions: PackageVersion[];
  matrix: MatrixEntry[];
  matrixSummary: string | null;
  questions: string[];
  reasons: string[];
  runtimeVersion: string | null;
  /**
   * The sandbox's runtime is older than the report's code needs (`runtime-rule.ts`): the result is not a verdict but
   * an infrastructure error (`buildResult` throws it), whichever path ends on this outcome.
   */
  runtimeShortfall?: RuntimeShortfall | null;
  /**
   * A run stopped at the sandbox's time limit, repeated alone with twice the time, and stopped again, where the
   * report describes no hang: the host's load or the limit decided, so no verdict (`buildResult` throws it).
   */
  timedOut?: InfrastructureError | null;
}

/** A program on its way through the stages. */
export interface Trial {
  program: Program;
  /** The behaviour its runs are matched against (the model may have read it from the prose). */
  reported: ReportedBehaviour;
  pins: Pin[];
  versions: PackageVersion[];
  installed: InstallResult | null;
  /** The files as they run (TypeScript transpiled); the program's own until the transpile stage. */
  runnable: { files: Record<string, string>; entry: string };
  /**
   * Guessed imports of packages that did not install, dropped (guessed-imports.ts): a run that stops on a missing
   * name or module ends on these questions (or, when the registry could not be asked, this infrastructure error).
   */
  withoutGuessed?: {
    packages: string[];
    questions: string[];
    reasons: string[];
    infra: InfrastructureError | null;
  };
}

export type Stage = "needs" | "install" | "transpile" | "run";

/** What a stage did: the trial as it goes on, or the attempt's outcome when it ended here; a line for the trace. */
export type StageResult =
  | { trial: Trial; outcome: null; summary: string }
  | { outcome: AttemptOutcome; summary: string };

export function newTrial(program: Program, reported: ReportedBehaviour): Trial {
  return {
    program,
    reported,
    pins: [],
    versions: [],
    installed: null,
    runnable: { files: program.files, entry: program.entry },
  };
}

/** The first stage after `after` with work to do for this program (the runs always have). */
export function nextStage(program: Program, after: Stage | null): Stage {
  const order: Stage[] = ["needs", "install", "transpile", "run"];
  const has: Record<Stage, () => boolean> = {
    needs: () => findStaticNeeds(program).length > 0,
    install: () => program.dependencies.length > 0,
    transpile: () => program.language === "typescript",
    run: () => true,
  };
  for (const stage of order.slice(after ? order.indexOf(after) + 1 : 0)) if (has[stage]()) return stage;
  return "run";
}

function ended(
  verdict: Verdict,
  questions: string[],
  reasons: string[],
  versions: PackageVersion[] = [],
): AttemptOutcome {
  return {
    verdict,
    fold: null,
    runs: [],
    versions,
    matrix: [],
    matrixSummary: null,
    questions,
    reasons,
    runtimeVersion: null,
  };
}

/** What only the reporter can give (stdin, files, a service): the attempt ends without running. */
export function needsStage(trial: Trial): StageResult {
  const needs = findStaticNeeds(trial.program);
  return {
    outcome: ended(
      "NEEDS_INFO",
      needs.map((n) => n.question),
      needs.map((n) => `Not run: ${n.reason}.`),
    ),
    summary: needs.map((n) => n.reason).join("; "),
  };
}

/** Installs the dependencies at the versions the report names; a failed install ends the attempt with a question. */
export async function installStage(ctx: ReproContext, trial: Trial): Promise<StageResult> {
  const first = await installPinned(ctx, trial.program);
  if (first.failures.length === 0) {
    const { pins, versions, installed, summary } = first;
    return { trial: { ...trial, pins, versions, installed }, outcome: null, summary };
  }
  // The install stopped at its time limit, or the registry could not be reached: the host's doing (a loaded
  // machine, a network), never a question to the reporter nor a reason to drop a package.
  throwIfHostFailure(first);
  // A package Retrace guessed (an import it added, the repository's package it bound) that does not install here
  // is not the report's: the program runs without that import (guessed-imports.ts). A run that then stops on a
  // missing name or module asks for the package (runStage); the report's own imports keep the question now.
  const without = withoutGuessedImports(
    trial.program,
    first.failures.map((f) => f.name),
    ctx.sanitized.text || ctx.spec.markdown,
  );
  const stopped = installFailureOutcome(first);
  if (!without) {
    if (first.infra) throw first.infra;
    throwIfUnmirrored(first);
    return { outcome: stopped, summary: first.summary };
  }
  const second = await installPinned(ctx, without.program);
  if (second.failures.length > 0) {
    if (second.infra) throw second.infra;
    throwIfHostFailure(second);
    throwIfUnmirrored(second);
    return { outcome: installFailureOutcome(second), summary: `${first.summary}; ${second.summary}` };
  }
  const { pins, versions, installed } = second;
  return {
    trial: {
      ...trial,
      program: without.program,
      runnable: { files: without.program.files, entry: without.program.entry },
      pins,
      versions,
      installed,
      withoutGuessed: {
        packages: first.failures.map((f) => f.name),
        questions: stopped.questions,
        reasons: stopped.reasons,
        infra: first.infra,
      },
    },
    outcome: null,
    summary: `${first.summary}; without the guessed ${first.failures.map((f) => f.name).join(", ")}: ${second.summary}`,
  };
}

/**
 * A package the report's own code needs that the host's local mirror lacks, with no other index reachable: the
 * environment's problem, never a question to the reporter (a guessed one was dropped before this is asked).
 */
/**
 * A run that stopped at the sandbox's time limit twice (beside the other runs, then alone with twice the time)
 * where the report describes no hang says nothing about the report: on a loaded host an ordinary program can pass
 * any limit, and a reporter cannot tell how long our machine takes. The infrastructure error it is, naming the
 * runtime that ran and the limit to raise; never NEEDS_INFO asking the reporter, never NOT_REPRODUCED.
 */
export function timeoutError(
  runs: readonly ExecutedRun[],
  runtimeVersion: string | null,
  runtime: string,
  versions: string,
): InfrastructureError {
  const stopped = runs.filter((r) => r.stoppedBy === "timeout");
  const longest = Math.max(0, ...stopped.map((r) => r.durationMs));
  const name = runtime === "python" ? "Python" : runtime === "node" ? "Node.js" : runtime;
  return new InfrastructureError(
    `the run did not finish within the sandbox's time limit (${stopped.length} of ${runs.length} run(s) stopped, the last after ${Math.round(longest / 1000)} s, repeated alone with twice the time), and the report describes no hang: the sandbox ran ${name} ${runtimeVersion ?? "(version unknown)"}${versions ? ` with ${versions}` : ""}; the host's load or the limit decided, not the report, so no verdict was reached`,
    "run again when the machine is less loaded, or raise the run's time limit (`--timeout SECONDS` for the CLI, repro.runTimeoutMs in .github/retrace.yml); a report that describes a hang is judged on the timeout instead",
  );
}

/** An install failure the host caused (its time limit, an unreachable registry) as the infrastructure error it is. */
export function throwIfHostFailure(install: Pick<PinnedInstall, "failures" | "ecosystem">): void {
  const f = install.failures.find((x) => hostInstallFailure(x.reason) !== null);
  if (!f) return;
  const names = install.failures.map((x) => packageSpec(x.name, x.version, install.ecosystem)).join(", ");
  throw new InfrastructureError(
    `could not install ${names}: ${f.reason}${f.step ? `, in the step \`${f.step}\`` : ""} — the host's doing, not the report's; no verdict was reached`,
    hostInstallFailure(f.reason) === "timeout"
      ? "run again when the machine is less loaded, or raise the install's time limit (`--install-timeout SECONDS` for the CLI, repro.installTimeoutMs in .github/retrace.yml); a first install of a large dependency tree can take several minutes"
      : "let this host reach the configured registry or package index (npm_config_registry, PIP_INDEX_URL), then run again",
  );
}

function throwIfUnmirrored(install: PinnedInstall): void {
  const f = install.failures.find((x) => !x.version && x.reason.startsWith(NOT_ON_MIRROR));
  if (!f) return;
  throw new InfrastructureError(
    `could not install ${f.name}: its latest version is unknown — ${f.reason.slice(NOT_ON_MIRROR.length + 2)}`,
    `let this host reach a registry that has ${f.name}, or add it to the configured mirror; a report that names the version it uses is installed at that version without this look-up`,
  );
}

interface PinnedInstall {
  pins: Pin[];
  versions: PackageVersion[];
  installed: InstallResult | null;
  failures: { name: string; version: string | null; reason: string; step?: string }[];
  /** The registry could not name the latest release of a package (the installer's infrastructure error). */
  infra: InfrastructureError | null;
  summary: string;
  ecosystem: Program["ecosystem"];
}

async function installPinned(ctx: ReproContext, program: Program): Promise<PinnedInstall> {
  const pins = pinDependencies(
    program,
    ctx.report,
    ctx.expectations.twoVersions?.bad ? sideRelease(ctx.expectations.twoVersions.bad) : null,
    ctx.spec.package,
  );
  const base = { pins, ecosystem: program.ecosystem };
  let install: Awaited<ReturnType<typeof installPackages>>;
  try {
    install = await installPackages(
      ctx,
      program,
      pins.map(({ name, version, within }) => ({ name, version, ...(within ? { within } : {}) })),
      "reported versions",
    );
  } catch (error) {
    // "could not install <name>: its latest version is unknown": that package, no verdict on it.
    if (!(error instanceof InfrastructureError)) throw error;
    const name = pins.find((p) =>
      error.message.startsWith(`could not install ${p.name}: its latest version is unknown`),
    )?.name;
    if (!name) throw error;
    return {
      ...base,
      versions: installedVersions(program, pins, null),
      installed: null,
      failures: [{ name, version: null, reason: error.message.replace(/^could not install [^:]+: /, "") }],
      infra: error,
      summary: `failed: ${name} (latest version unknown)`,
    };
  }
  let installed = install?.result ?? null;
  // A reported release the registry does not have, written beside another ("`3.0.0` (or `3.0.1`)"): that
  // other release is the report's too (alternative-release.ts).
  const prose = `${ctx.report.title}\n${ctx.report.proseWithCode}`;
  const swaps = (installed?.failures ?? []).flatMap((f) => {
    const alt = f.version && /no such version/i.test(f.reason) ? alternativeRelease(prose, f.version) : null;
    return alt ? [{ name: f.name, from: f.version!, to: alt }] : [];
  });
  if (swaps.length > 0) {
    for (const w of swaps) {
      const p = pins.find((x) => x.name === w.name && x.version === w.from);
      if (p) p.version = w.to;
    }
    install = await installPackages(
      ctx,
      program,
      pins.map(({ name, version, within }) => ({ name, version, ...(within ? { within } : {}) })),
      "reported versions",
    );
    installed = install?.result ?? null;
    const said = swaps
      .map(
        (w) =>
          `${w.name}@${w.from} is not on the registry, so ${w.name}@${w.to}, the release the report names beside it, was installed`,
      )
      .join("; ");
    if (install) install = { ...install, line: `${install.line} (${said})` };
  }
  return {
    ...base,
    versions: installedVersions(program, pins, installed),
    installed,
    failures: installed?.failures ?? [],
    infra: null,
    summary: install?.line ?? "nothing to install",
  };
}

function installFailureOutcome(install: PinnedInstall): AttemptOutcome {
  const spec = (f: PinnedInstall["failures"][number]) => packageSpec(f.name, f.version, install.ecosystem);
  const reasons = install.failures.map((f) => `could not install ${spec(f)}: ${f.reason}`);
  const questions = install.failures.map((f) =>
    !f.version && f.reason.startsWith(NOT_ON_MIRROR)
      ? `Does the example need \`${f.name}\`? It is not on this host's package mirror; if the code uses it, please name the published package (and version) it comes from.`
      : !f.version && f.reason.startsWith(NO_SUCH_PACKAGE)
        ? `Where does \`${f.name}\` come from? The registry has no package of that name (a private or local package, or a typo?); please share its code or name the published package the example uses.`
        : f.version
          ? `Is \`${spec(f)}\` the exact version you use? It could not be installed here; does the problem also happen with a version that installs from a wheel/tarball (or with the standard library alone)?`
          : `Which version of \`${f.name}\` do you use? It could not be installed here.`,
  );
  return ended("NEEDS_INFO", questions, reasons, install.versions);
}

/** TypeScript → JavaScript (the entry as `.mjs` or `.cjs`); a parse error ends the attempt with a question. */
export async function transpileStage(ctx: ReproContext, trial: Trial): Promise<StageResult> {
  const { program } = trial;
  const files: Record<string, string> = {};
  const ext = program.moduleFormat === "esm" ? ".mjs" : ".cjs";
  try {
    for (const [path, code] of Object.entries(program.files)) {
      if (/\.[cm]?ts$/.test(path)) {
        const out = await ctx.ports.transpile(code, {
          format: program.moduleFormat ?? "esm",
          filename: path,
        });
        files[path.replace(/\.[cm]?ts$/, path === program.entry ? ext : ".js")] = out;
      } else files[path] = code;
    }
  } catch (error) {
    const failure = transpileFailure(error, ctx.report, ctx.sanitized.text || ctx.spec.markdown);
    if (!failure) throw error;
    return {
      outcome: ended(
        "NEEDS_INFO",
        [failure.question],
        [`Not run: the report's TypeScript does not parse (${failure.detail}).`],
        trial.versions,
      ),
      summary: `the TypeScript does not parse: ${failure.detail}`,
    };
  }
  return {
    trial: { ...trial, runnable: { files, entry: program.entry.replace(/\.ts$/, ext) } },
    outcome: null,
    summary: `TypeScript → ${ext} (${program.moduleFormat})`,
  };
}

/** A TypeScript parse error from the transpiler, as a detail and a question naming the line; null for other errors. */
function transpileFailure(
  error: unknown,
  report: ReproContext["report"],
  reportText: string,
): { detail: string; question: string } | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!/transpile/i.test(message)) return null;
  const cause = (
    error as {
      cause?: { errors?: { text?: string; location?: { line?: number; lineText?: string } | null }[] };
    }
  ).cause;
  const first = cause?.errors?.[0];
  const lineText = first?.location?.lineText?.trim().slice(0, 160);
  const text = first?.text ?? message;
  const detail = lineText ? `\`${lineText}\`: ${text}` : text;
  const at = lineText ? reportLineOf(report, lineText, reportText) : null;
  return {
    detail,
    question: lineText
      ? `${at !== null ? `Line ${at} of the report's TypeScript` : "This line of the TypeScript"} does not parse: \`${lineText}\` (${text}). Could you paste the exact code you run, as a complete snippet (no \`...\` or elided parts)?`
      : `The TypeScript in the report does not parse (${text}). Could you paste the exact code you run, as a complete snippet?`,
  };
}

/** `x.y is not a function` of a plain name or of a package-loading call (PACKAGE_CALL). */
const MISSING_CALL = new RegExp(
  String.raw`^(?:[\w$.]+|${PACKAGE_CALL.source}) is not a (?:function|constructor)\b`,
);

/**
 * An error that says the installed release lacks what the report's code calls — `TypeError: cli.option is not a
 * function` (commander 12 dropped its default instance), `yaml.safeLoad is not a function` (js-yaml 4), `X is
 * not a constructor`, or `require()` of an ESM-only release — rather than anything about the reported bug.
 */
export function missingApi(run: ExecutedRun): string | null {
  const ex = run.exception;
  if (!ex) return null;
  if (
    // Also through the call that loads it: `require(...).default is not a function`, Babel's `(0 , _x.default)`.
    (ex.type === "TypeError" && MISSING_CALL.test(ex.message)) ||
    // A release that keeps the name only to say it is gone (js-yaml 4: `Function yaml.safeLoad is removed`).
    /^Function [\w$.]+ (?:is|was|has been) removed\b/.test(ex.message) ||
    /ERR_REQUIRE_ESM/.test(`${ex.type} ${ex.message}`) ||
    // The same error when the exception's code was not kept with its type (`Error: require() of ES Module …`).
    /^require\(\) of ES Module\b/.test(ex.message) ||
    // The release's own file does not parse on this Node (`export default x;` in a main file of a package without
    // `"type": "module"`): the release cannot be loaded here at all.
    packageFileDoesNotParse(run) !== null
  )
    return `${ex.type}: ${ex.message.split("\n")[0]}`;
  return null;
}

/** Release lines tried below the newest one, at most. */
const STEP_BACK_MAJORS = 3;

/**
 * For a report that names no version: when every run of the newest release stopped on a missing API (and the
 * report does not claim that error), the newest release of each major line below it is tried in turn, and
 * the first whose runs get past that error is used. Null when this does not apply or no older line runs.
 */
async function olderRelease(
  ctx: ReproContext,
  trial: Trial,
  runs: ExecutedRun[],
): Promise<{ runs: ExecutedRun[]; versions: PackageVersion[]; line: string; reason: string } | null> {
  const { program, pins, versions, installed } = trial;
  if (program.ecosystem !== "npm" || runs.length === 0) return null;
  const unpinned = pins.filter((p) => p.source === "unpinned");
  if (unpinned.length !== 1 || pins.length !== 1) return null;
  const missing = runs.map(missingApi);
  if (missing.some((m) => m === null)) return null;
  const claimed = ctx.expectations.actual;
  if (
    claimed.kind === "exception" &&
    (claimed.exceptionType === runs[0]!.exception!.type ||
      /ERR_REQUIRE_ESM/.test(claimed.exceptionType ?? ""))
  )
    return null;
  const name = unpinned[0]!.name;
  const newest = versions.find((v) => v.name === name)?.version ?? "";
  const major = /^(\d+)\./.exec(newest)?.[1];
  if (!installed || major === undefined) return null;
  // A release whose own file does not parse here is that release's defect: the releases before it in its own
  // line come first (the next major line down may be years older).
  const lines = [
    ...(runs.every((r) => packageFileDoesNotParse(r) === name) && /^\d+\.\d+\.\d+$/.test(newest)
      ? [`>=${major}.0.0 <${newest}`]
      : []),
  ];
  for (let m = Number(major) - 1; m >= Math.max(0, Number(major) - STEP_BACK_MAJORS); m--)
    lines.push(String(m));
  for (const within of lines) {
    const install = await installPackages(
      ctx,
      program,
      [{ name, version: null, within }],
      "an older release",
    );
    const result = install?.result ?? null;
    if (!result || result.failures.length > 0) continue;
    const olderVersions = installedVersions(program, [{ name, version: null, source: "unpinned" }], result);
    const olderRuns = await executeRuns({
      ports: ctx.ports,
      jobId: ctx.spec.id,
      program,
      files: trial.runnable.files,
      runnableEntry: trial.runnable.entry,
      install: result,
      runs: ctx.spec.runs,
      label: `${name} ${/^\d+$/.test(within) ? `${within}.x` : within}`,
      retryTimeouts: timeoutRetryFor(ctx.expectations.actual.kind),
    });
    if (olderRuns.length === 0 || olderRuns.some((r) => missingApi(r) !== null)) continue;
    const olderText = describeVersions(olderVersions, program.ecosystem);
    return {
      runs: olderRuns,
      versions: olderVersions,
      line: `install ${install!.line}`,
      reason: runs.every((r) => packageFileDoesNotParse(r) === name)
        ? `The report names no version of \`${name}\`; ${name}@${newest} cannot be loaded on this runtime (its own file does not parse: \`${missing[0]}\`), so ${olderText}, the newest release where the code runs, was used.`
        : `The report names no version of \`${name}\`; the newest release that runs here, ${name}@${newest}, no longer has what the report's code calls (\`${missing[0]}\`), so ${olderText}, the newest release where the code runs, was used.`,
    };
  }
  return null;
}

/**
 * When every run died on Node 18 refusing to `require()` an ES-module-only package (and the report does not claim
 * that error), the same program as an ES module (`asEsModule`), run the same way; null when this does not apply,
 * cannot be rewritten, or the rewritten runs fail the same way.
 */
async function asModuleRun(
  ctx: ReproContext,
  trial: Trial,
  runs: ExecutedRun[],
): Promise<{ runs: ExecutedRun[]; entry: string; reason: string } | null> {
  const { program, installed } = trial;
  const { files, entry } = trial.runnable;
  if (program.ecosystem !== "npm" || !/\.c?js$/.test(entry) || runs.length === 0) return null;
  if (!runs.every((r) => requiresEsModule(r.exception))) return null;
  const claimed = ctx.expectations.actual;
  if (claimed.loadError?.code === "ERR_REQUIRE_ESM") return null;
  if (
    claimed.kind === "exception" &&
    /ERR_REQUIRE_ESM|require\(\) of ES Module/.test(
      `${claimed.exceptionType} ${claimed.exceptionMessage ?? ""}`,
    )
  )
    return null;
  const code = files[entry];
  const rewritten = code === undefined ? null : asEsModule(code);
  if (rewritten === null) return null;
  const esEntry = esModuleEntry(entry);
  const esFiles = { ...files, [esEntry]: rewritten };
  delete esFiles[entry];
  const esRuns = await executeRuns({
    ports: ctx.ports,
    jobId: ctx.spec.id,
    program,
    files: esFiles,
    runnableEntry: esEntry,
    install: installed,
    runs: ctx.spec.runs,
    label: "as an ES module",
    retryTimeouts: timeoutRetryFor(claimed.kind),
  });
  if (esRuns.length === 0 || esRuns.some((r) => requiresEsModule(r.exception))) return null;
  const module = /require\(\) of ES Module \S*?node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
    runs[0]!.exception?.message ?? "",
  )?.[1];
  return {
    runs: esRuns,
    entry: esEntry,
    reason: `The report's \`require()\`${module ? ` of \`${module}\`` : ""} fails on Node.js 18 (ERR_REQUIRE_ESM: the release is an ES module only, which newer Node.js loads with \`require()\`), so the same statements were run as an ES module (\`${esEntry}\`, \`import\` in place of \`require()\`).`,
  };
}

/** The repeated runs of the reported configuration, their evaluation, and (meanwhile) the latest release. */
export async function runStage(ctx: ReproContext, trial: Trial): Promise<StageResult> {
  const { ports, spec: job, expectations } = ctx;
  const { program, pins, installed } = trial;
  const { files, entry } = trial.runnable;
  // The latest release is looked up, installed and run while the reported configuration runs.
  const latestPromise =
    ports.compareLatest !== false && pins.some((p) => p.source === "reported")
      ? latestEntry(ctx, program, pins, trial.versions, files, entry)
      : Promise.resolve(null);
  let runs = await executeRuns({
    ports,
    jobId: job.id,
    program,
    files,
    runnableEntry: entry,
    install: installed,
    runs: job.runs,
    label: "reported versions",
    retryTimeouts: timeoutRetryFor(ctx.expectations.actual.kind),
  });
  const judge = (rs: ExecutedRun[]) =>
    foldRuns(
      rs.map((r) =>
        matchRunWithinBudget(
          expectations.actual,
          r,
          expectations.expectedOutput,
          expectations.expectedException,
          {
            untilFailure: repeatsUntilFailure(files[entry] ?? ""),
            ...(expectations.expectedFrom ? { expectedFrom: expectations.expectedFrom } : {}),
            reportText: `${ctx.report.title}\n${Object.values(ctx.report.prose).join("\n")}`,
          },
        ),
      ),
    );
  let fold = judge(runs);
  // A parse error at a line Retrace wrote (its echo helper, its package binder), not one the report holds, is
  // a defect of the program Retrace built: never a question to the reporter, never a verdict on the report.
  if (fold.verdict === "NEEDS_INFO" && fold.badLine !== undefined) {
    const own = ownGeneratedLine(fold.badLine, ctx.sanitized.text || ctx.spec.markdown);
    if (own)
      throw new RetraceError(
        "internal",
        `The program Retrace built from the report does not parse at a line Retrace wrote itself, not the report: ${fold.detail.replace(/^the report's code does not parse: /, "")}`,
        { hint: "This is a defect in Retrace, not in the report: please report it with the issue's link." },
      );
  }
  const lines = [
    `${job.runs} run(s) of the reported configuration: ${fold.verdict} (${fold.reproducedRuns}/${job.runs}) — ${fold.detail}`,
  ];
  const stepBackReasons: string[] = [];
  const withoutReasons: string[] = [];
  let versions = trial.versions;
  // `require()` of an ES-module-only release on Node 18: the same statements as an ES module, before any step
  // back to an older release (that error is the sandbox's Node, not the report's claim).
  const esm = fold.verdict === "REPRODUCED" ? null : await asModuleRun(ctx, trial, runs);
  if (esm) {
    runs = esm.runs;
    fold = judge(runs);
    stepBackReasons.push(esm.reason);
    lines.push(
      `${job.runs} run(s) as an ES module (${esm.entry}): ${fold.verdict} (${fold.reproducedRuns}/${job.runs}) — ${fold.detail}`,
    );
  }
  // The report names no version and the newest release no longer has what its code calls: the newest
  // release where the code runs is the one a reader would judge the report on.
  const older = fold.verdict === "REPRODUCED" ? null : await olderRelease(ctx, trial, runs);
  if (older) {
    lines.push(older.line);
    runs = older.runs;
    fold = judge(runs);
    versions = older.versions;
    stepBackReasons.push(older.reason);
    lines.push(
      `${job.runs} run(s) on ${describeVersions(versions, program.ecosystem)}: ${fold.verdict} (${fold.reproducedRuns}/${job.runs}) — ${fold.detail}`,
    );
  }

  // The package's own name bound on a release lacking what the code calls (repository-binding.ts), and no older
  // release runs it: the report's API is not this package's as installed here. Not a verdict.
  const lacking =
    older || fold.verdict === "REPRODUCED"
      ? null
      : lackingOwnMember(program.files[program.entry] ?? "", runs);
  if (lacking) {
    const what = `TypeError: ${lacking} is not a function`;
    return {
      outcome: ended(
        "NEEDS_INFO",
        [
          `Which version do you use? The releases tried here (${describeVersions(versions, program.ecosystem)} and older major lines) have no \`${lacking}\`, which the report's code calls.`,
        ],
        [
          `The code calls \`${lacking}\`, the package's own name for it, and the run stopped on ${what}: the release installed here lacks it, which says nothing about the reported behaviour.`,
        ],
        versions,
      ),
      summary: `stopped on ${what}`,
    };
  }
  // Run without a guessed package that did not install: a run that stops on a missing name or module is that
  // package's absence, never a verdict on the report.
  const without = trial.withoutGuessed;
  if (without && runs.some(stoppedOnMissing)) {
    if (without.infra) throw without.infra;
    const stop = runs.find(stoppedOnMissing)!;
    const what = stop.exception
      ? `${stop.exception.type}: ${stop.exception.message.split("\n")[0]}`
      : "a module not found";
    return {
      outcome: ended(
        "NEEDS_INFO",
        without.questions,
        [
          ...without.reasons,
          `Ran without ${without.packages.map((p) => `\`${p}\``).join(", ")}: the run stopped on ${what}, which is that package's absence, not the reported behaviour.`,
        ],
        versions,
      ),
      summary: `without ${without.packages.join(", ")}: stopped on ${what}`,
    };
  }
  if (without) {
    withoutReasons.push(
      `Ran without ${without.packages.map((p) => `\`${p}\``).join(", ")} (${without.reasons.join("; ")}): the report's own code never imports ${without.packages.length > 1 ? "them" : "it"}, and the run never needed ${without.packages.length > 1 ? "them" : "it"}.`,
    );
  }
  // The report's code needs a newer runtime and stops here on what this one lacks: not a verdict (runtime-rule.ts).
  // Every verdict is checked: a run that never parsed the code (syntax a later release added) is no verdict even
  // when its SyntaxError matched a claim of "an error"; other shortfalls only replace PARTIAL / NEEDS_INFO.
  const checked = runtimeShortfall({
    runtime: program.runtime,
    sandbox: runs.find((r) => r.runtimeVersion)?.runtimeVersion ?? null,
    named: namedRuntimeVersions(ctx.report, program.runtime),
    runs,
    // A claim the run's own error could be ("it has a syntax error", naming none) is not decided here.
    claims: expectations.actual.kind !== "unknown" && expectations.actual.kind !== "error-unspecified",
    claimedType: expectations.actual.exceptionType,
    claimedMessage: expectations.actual.exceptionMessage,
    program: {
      code: Object.values(program.files).join("\n"),
      packages: program.dependencies.length,
    },
  });
  const shortfall =
    checked && (checked.syntax || fold.verdict === "PARTIAL" || fold.verdict === "NEEDS_INFO")
      ? checked
      : null;
  if (shortfall) lines.push(`the runtime is too old: ${describeShortfall(shortfall)}`);
  const decided = shortfall !== null;
  // The report asks for an error and claims a wrong result; the library raising one shows what it asks for.
  const asked =
    !decided &&
    fold.verdict === "PARTIAL" &&
    fold.reproducedRuns === 0 &&
    expectations.actual.kind !== "exception" &&
    expectations.actual.kind !== "error-unspecified"
      ? asksForError(`${ctx.report.title}\n${ctx.report.proseWithCode}`)
      : null;
  const raisedIn =
    asked && runs.length > 0 && runs.every((r) => r.exception && r.stoppedBy === null)
      ? (thrownInLibrary(runs[0]!.stderr, runs[0]!.exception!.type) ??
        raisedInInstalledPython(runs[0]!.stderr))
      : null;
  if (asked && raisedIn) {
    const ex = runs[0]!.exception!;
    fold = {
      verdict: "NOT_REPRODUCED",
      reproducedRuns: 0,
      detail: `the run raised ${ex.type}: ${ex.message.split("\n")[0]} inside ${raisedIn}, the error the report asks for ("${asked}"); the wrong result it reports does not show`,
      questions: [],
    };
    lines.push(`the error the report asks for: ${fold.detail}`);
  }
  // The run stopped on an import Retrace added, not on the report's code: no verdict drawn from our completion.
  const ourImport =
    !decided && fold.verdict === "PARTIAL"
      ? completionImportFailure(
          runs,
          Object.values(program.files).join("\n"),
          ctx.sanitized.text || ctx.spec.markdown,
        )
      : null;
  if (ourImport) {
    fold = {
      verdict: "NEEDS_INFO",
      reproducedRuns: 0,
      detail: `the run stopped on ${ourImport}, at an import Retrace added to complete the code (the report never imports it), not on the report's code`,
      questions: [
        "Could you share the complete code you run, with its imports? The snippet uses a name without saying where it comes from.",
      ],
    };
    lines.push(`our completion: ${fold.detail}`);
  }
  // The reported value is a Windows path (`C:\Code\reports`) and the Linux run prints none: another platform's
  // output, never a verdict on the report (platform-claim.ts).
  const windows =
    !decided && fold.verdict === "NOT_REPRODUCED" && expectations.actual.kind === "output"
      ? windowsOnlyOutput(expectations.actual.output, runs.map((r) => r.stdout).join("\n"))
      : null;
  if (windows) {
    fold = {
      verdict: "NEEDS_INFO",
      reproducedRuns: 0,
      detail: `the reported output (\`${windows.slice(0, 120)}\`) is a Windows path, and this run was on Linux, where the code cannot print one: the value depends on the platform it ran on`,
      questions: [
        "The reported value is a Windows path, and Retrace runs on Linux. Could you give inputs that do not depend on the platform (a fixed path string instead of `__dirname` or the working directory), with the output you get for them?",
      ],
    };
    lines.push(`another platform: ${fold.detail}`);
  }
  const questions = runQuestions(questionInput(ctx), fold, runs[0]?.stdout ?? "");
  const two = ctx.expectations.twoVersions;
  if (two && !two.bad && fold.verdict !== "REPRODUCED") {
    questions.unshift(
      `The report shows the same code with different results on ${two.sides.map((s) => `\`${s.label}\``).join(" and ")}: which one is the wrong behaviour, and which version do you run?`,
    );
  }
  const reasons: string[] = [...withoutReasons, ...stepBackReasons];
  for (const p of pins) {
    if (p.source === "unpinned" && fold.verdict !== "REPRODUCED") {
      const bare = ctx.report.bareVersions;
      const names =
        bare.length > 0
          ? `The report names ${bare
              .slice(0, 3)
              .map((v) => `\`${v}\``)
              .join(", ")} without saying which package ${bare.length > 1 ? "they are" : "it is"}`
          : "The report names none";
      questions.push(
        older
          ? `Which version of \`${p.name}\` do you use? ${names}, so the newest release where its code runs was used.`
          : `Which version of \`${p.name}\` do you use? ${names}, so the latest was used.`,
      );
    }
  }
  const runtimeVersion = runs.find((r) => r.runtimeVersion)?.runtimeVersion ?? null;
  // The report names other runtime versions than the one that ran (its runtime mention, or CPython's "versions
  // tested on" list) and the code ran here: judged normally, and the versions said.
  const namedVersions = namedRuntimeVersions(ctx.report, program.runtime);
  const line = (v: string) =>
    v
      .replace(/^v/, "")
      .split(".")
      .slice(0, program.runtime === "node" ? 1 : 2)
      .join(".");
  if (
    !decided &&
    namedVersions.length > 0 &&
    runtimeVersion &&
    (fold.verdict === "NOT_REPRODUCED" || fold.verdict === "PARTIAL") &&
    !namedVersions.some((v) => line(v) === line(runtimeVersion))
  ) {
    reasons.push(
      `The report names ${program.runtime} ${namedVersions.map((v) => (/^main$/i.test(v) ? "main" : v)).join(", ")}; the sandbox has ${runtimeVersion}.`,
    );
  }

  const reportedEntry: MatrixEntry = {
    label: "reported",
    packages: versions,
    reproduced:
      fold.verdict === "REPRODUCED"
        ? "yes"
        : fold.reproducedRuns > 0 || fold.verdict === "PARTIAL"
          ? "partial"
          : fold.verdict === "NOT_REPRODUCED"
            ? "no"
            : null,
    runs: runs.length,
    reproducedRuns: fold.reproducedRuns,
    note: fold.detail,
  };
  const matrix: MatrixEntry[] = [reportedEntry];
  let matrixSummary: string | null = null;
  const compared = await latestPromise;
  if (compared) lines.push(...compared.lines);
  const latest = compared?.latest ?? null;
  if (
    latest &&
    (fold.verdict === "REPRODUCED" || fold.verdict === "PARTIAL" || fold.verdict === "NOT_REPRODUCED")
  ) {
    matrix.push(latest.entry);
    matrixSummary = matrixLine(fold.verdict, describeVersions(versions, program.ecosystem), latest);
  }
  return {
    outcome: {
      verdict: fold.verdict,
      fold,
      runs,
      versions,
      matrix,
      matrixSummary,
      questions: fold.verdict === "NEEDS_INFO" ? questions.slice(0, MAX_QUESTIONS) : questions,
      reasons,
      runtimeVersion,
      runtimeShortfall: shortfall,
      timedOut:
        !decided && fold.verdict === "NEEDS_INFO" && fold.timedOut
          ? timeoutError(runs, runtimeVersion, program.runtime, describeVersions(versions, program.ecosystem))
          : null,
    },
    summary: lines.join("; "),
  };
}
