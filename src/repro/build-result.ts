/**
 * The result document of a reproduction, built from an attempt's outcome (or from the report alone when there
 * was nothing to run): verdict, summary, evidence, the notes that explain the decision, all redacted.
 */
import { InfrastructureError } from "../core/errors.ts";
import { scrubInternalNames } from "../core/internal-names.ts";
import type { AttemptOutcome } from "./attempt.ts";
import type { Program } from "./complete.ts";
import type { ReproContext } from "./context.ts";
import { describeVersions } from "./dependencies.ts";
import type { ExecutedRun } from "./execute.ts";
import { packageNotUsed } from "./package-use.ts";
import { noCodeQuestions, questionInput } from "./questions.ts";
import { shortfallError } from "./runtime-rule.ts";
import { type Evidence, exitText, type ReproLanguage, type ReproResult, type Verdict } from "./result.ts";

function languageOf(program: Program | null): ReproLanguage {
  return program?.language ?? "unknown";
}

function excerpt(
  run: ExecutedRun | undefined,
  redact: (s: string) => string,
  rename?: { from: string; to: string },
): string {
  if (!run) return "";
  let text = scrubInternalNames([run.stdout.trimEnd(), run.stderr.trimEnd()].filter(Boolean).join("\n"));
  // A TypeScript program runs transpiled: its output names the file the reader knows (`reproduction.ts`).
  if (rename && rename.from !== rename.to) text = text.split(rename.from).join(rename.to);
  const lines = text.split("\n");
  const tail = lines.length > 40 ? ["…", ...lines.slice(-40)] : lines;
  let out = tail.join("\n");
  if (out.length > 4000) out = `…${out.slice(-4000)}`;
  return redact(out);
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}

export function evidenceOf(
  attempt: AttemptOutcome,
  redact: (s: string) => string,
  program?: Program | null,
): Evidence {
  const runs = attempt.runs;
  // The run shown: the first reproducing one when all reproduced, else the first that did not.
  const matches = attempt.fold?.verdict === "REPRODUCED";
  const shown = matches
    ? runs[0]
    : (runs.find((r) => r.exception || r.exitCode !== 0 || r.stoppedBy) ?? runs[0]);
  return {
    exitCode: shown?.exitCode ?? null,
    exceptionType: shown?.exception?.type ?? null,
    exceptionMessage: shown?.exception ? redact(shown.exception.message) : null,
    outputExcerpt: excerpt(
      shown,
      redact,
      program?.language === "typescript"
        ? {
            from: program.entry.replace(/\.ts$/, program.moduleFormat === "esm" ? ".mjs" : ".cjs"),
            to: program.entry,
          }
        : undefined,
    ),
    durationMs: median(runs.map((r) => r.durationMs)),
    runs: runs.length,
    reproducedRuns: attempt.fold?.reproducedRuns ?? 0,
    stoppedBy: shown?.stoppedBy ?? null,
  };
}

function summaryOf(verdict: Verdict, attempt: AttemptOutcome, program: Program | null): string {
  const fold = attempt.fold;
  const where = [
    program
      ? `${program.runtime === "python" ? "Python" : "Node.js"}${attempt.runtimeVersion ? ` ${attempt.runtimeVersion}` : ""}`
      : null,
    attempt.versions.length > 0 ? describeVersions(attempt.versions, program?.ecosystem ?? "npm") : null,
  ]
    .filter(Boolean)
    .join(", ");
  switch (verdict) {
    case "REPRODUCED":
      return `Reproduced in ${fold?.reproducedRuns}/${attempt.runs.length} runs on ${where}: ${fold?.detail}.`;
    case "PARTIAL":
      return `Partly reproduced on ${where}: ${fold?.detail ?? attempt.reasons.join(" ")}.`;
    case "NOT_REPRODUCED":
      return `Not reproduced on ${where} (${attempt.runs.length} runs): ${fold?.detail}.`;
    default:
      return `Cannot reproduce yet: ${fold?.detail ?? attempt.reasons.map((r) => r.replace(/\.$/, "")).join("; ")}.`;
  }
}

export interface ResultMeta {
  attempts: number;
  tokens: number;
  costUsd: number;
  model: string | null;
  risks: string[];
  author: "report" | "model";
}

/** Every string of a value passed through `redact` (the result leaves the pipeline only this way). */
export function redactStrings<T>(value: T, redact: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

export function buildResult(
  ctx: ReproContext,
  program: Program,
  attempt: AttemptOutcome,
  meta: ResultMeta,
): ReproResult {
  // A runtime older than the report's code needs is the sandbox's problem, never a verdict: whichever path (the
  // report's own attempt, the model's) ends on such a run ends the job with the infrastructure error.
  if (attempt.runtimeShortfall) {
    const e = shortfallError(attempt.runtimeShortfall);
    throw new InfrastructureError(ctx.redact(e.message), e.hint);
  }
  // The same for a run the time limit stopped where no hang is reported (`timeoutError` in attempt.ts).
  if (attempt.timedOut)
    throw new InfrastructureError(ctx.redact(attempt.timedOut.message), attempt.timedOut.hint);
  return redactStrings(
    buildRawResult(ctx, program, usedPackageOnly(ctx, program, attempt), meta),
    ctx.redact,
  );
}

/**
 * Every REPRODUCED and PARTIAL passes here: a program that never loads the report's package (package-use.ts)
 * proves nothing about it, so its match becomes NEEDS_INFO saying so. The runs stay as evidence.
 */
export function usedPackageOnly(
  ctx: ReproContext,
  program: Program,
  attempt: AttemptOutcome,
): AttemptOutcome {
  if (attempt.verdict !== "REPRODUCED" && attempt.verdict !== "PARTIAL") return attempt;
  const why = packageNotUsed(program, ctx.spec.package, ctx.report);
  if (!why) return attempt;
  const pkg = ctx.spec.package!;
  return {
    ...attempt,
    verdict: "NEEDS_INFO",
    fold: attempt.fold ? { ...attempt.fold, verdict: "NEEDS_INFO", reproducedRuns: 0, detail: why } : null,
    matrix: [],
    matrixSummary: null,
    questions: [
      `Could you share code that uses \`${pkg}\` (its import or require, and the call that shows the bug), with what it prints?`,
      ...attempt.questions,
    ],
    reasons: [
      `the run ${attempt.verdict === "REPRODUCED" ? "matched the report" : "partly matched the report"}, but ${why}`,
      ...attempt.reasons,
    ],
  };
}

function buildRawResult(
  ctx: ReproContext,
  program: Program,
  attempt: AttemptOutcome,
  meta: ResultMeta,
): ReproResult {
  const r = ctx.redact;
  const verdict = attempt.verdict;
  return {
    verdict,
    title: r(ctx.report.title),
    summary: r(summaryOf(verdict, attempt, program)),
    language: languageOf(program),
    reported: ctx.expectations.actual,
    evidence: evidenceOf(attempt, r, program),
    differences: verdict === "REPRODUCED" || !attempt.fold ? [] : [r(attempt.fold.detail)],
    versions: attempt.versions,
    runtime: {
      name: program.runtime,
      version: attempt.runtimeVersion,
      reported:
        ctx.report.runtime && ctx.report.runtime.name === program.runtime ? ctx.report.runtime.version : null,
    },
    matrix: attempt.matrix,
    matrixSummary: attempt.matrixSummary,
    questions: [...new Set(attempt.questions)].map(r),
    reasons: [
      ...new Set([...decisionNotes(ctx, attempt), ...attempt.reasons, ...codeWarningReasons(ctx)]),
    ].map(r),
    risks: meta.risks,
    script: {
      filename: program.entry.replace(/^reproduction\.cjs$/, "reproduction.cjs"),
      code: r(program.files[program.entry] ?? ""),
      author: meta.author,
      completions: program.completions,
    },
    attempts: meta.attempts,
    tokens: meta.tokens,
    costUsd: meta.costUsd,
    model: meta.model,
    durationMs: ctx.ports.clock.now() - ctx.startedAt,
  };
}

/** What decided the verdict: which part of the report was the reported behaviour, which the expected one. */
export function decisionNotes(ctx: ReproContext, attempt: AttemptOutcome): string[] {
  if (attempt.runs.length === 0) return [];
  const rep = ctx.expectations.actual;
  const what =
    rep.kind === "exception"
      ? `\`${rep.exceptionType}${rep.exceptionMessage ? `: ${rep.exceptionMessage}` : ""}\``
      : rep.kind === "output"
        ? rep.output
            .slice(0, 4)
            .map((o) => `\`${o}\``)
            .join(", ")
        : rep.kind === "hang"
          ? "a hang"
          : rep.kind === "exit"
            ? exitText(rep).replace(/^the program /, "that it ")
            : "no specific output or error";
  const expected = ctx.expectations.expectedOutput;
  return [
    `Decided by: the reported behaviour is ${what}, taken from ${rep.source}; ${
      expected.length > 0
        ? `the expected behaviour is ${expected
            .slice(0, 4)
            .map((e) => `\`${e}\``)
            .join(
              ", ",
            )}${ctx.expectations.expectedFrom ? `, ${ctx.expectations.expectedFrom}` : ""} (a run showing it is not a reproduction)`
        : "the report states no expected output"
    }.`,
  ];
}

/** Invisible or bidi characters inside the report's code (kept as written), as notes for the maintainer. */
export function codeWarningReasons(ctx: ReproContext): string[] {
  return ctx.sanitized.codeWarnings.map(
    (w) =>
      `Security note: the report's ${w}; code with such characters can read differently from how it runs (Trojan Source), so check it before trusting this reproduction.`,
  );
}

export function noCodeResult(
  ctx: ReproContext,
  extra: { reasons?: string[]; questions?: string[]; meta?: Partial<ResultMeta> } = {},
): ReproResult {
  return redactStrings(rawNoCodeResult(ctx, extra), ctx.redact);
}

function rawNoCodeResult(
  ctx: ReproContext,
  extra: { reasons?: string[]; questions?: string[]; meta?: Partial<ResultMeta> } = {},
): ReproResult {
  const reported = ctx.expectations.actual;
  // What this report has and what it lacks, named (its inline code, screenshots, outcome blocks, versions).
  const questions = extra.questions ?? noCodeQuestions(questionInput(ctx));
  const attempt: AttemptOutcome = {
    verdict: "NEEDS_INFO",
    fold: null,
    runs: [],
    versions: [],
    matrix: [],
    matrixSummary: null,
    questions,
    reasons: extra.reasons ?? ["The report contains no code that can be run."],
    runtimeVersion: null,
  };
  const r = ctx.redact;
  return {
    verdict: "NEEDS_INFO",
    title: r(ctx.report.title),
    summary: r(summaryOf("NEEDS_INFO", attempt, null)),
    language: "unknown",
    reported,
    evidence: evidenceOf(attempt, r),
    differences: [],
    versions: [],
    runtime: {
      name: ctx.report.runtime?.name ?? "unknown",
      version: null,
      reported: ctx.report.runtime?.version ?? null,
    },
    matrix: [],
    matrixSummary: null,
    questions: questions.map(r),
    reasons: [...attempt.reasons, ...codeWarningReasons(ctx)].map(r),
    risks: extra.meta?.risks ?? [],
    script: null,
    attempts: extra.meta?.attempts ?? 0,
    tokens: extra.meta?.tokens ?? 0,
    costUsd: extra.meta?.costUsd ?? 0,
    model: extra.meta?.model ?? null,
    durationMs: ctx.ports.clock.now() - ctx.startedAt,
  };
}
