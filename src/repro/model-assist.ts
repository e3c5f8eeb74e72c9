/**
 * The model path of the reproduction pipeline, on the same loop engine run after the free deterministic attempt:
 *
 *   write ──▶ scan ──▶ [needs | install → transpile → run] ──▶ evaluate ──▶ done
 *     ▲                                                          │
 *     └──────────────────── feedback ────────────────────────────┘  (bounded by attempts, wall time, tokens, dollars)
 *
 * `write` asks the model (tool `write_reproduction`) for a program: written from the prose, completed from a
 * snippet with placeholders, or refined after the structured feedback of the last run. `scan` lists the risky
 * calls before anything runs; the attempt's stages (`stages.ts`) run it exactly like the report's own program
 * (installs, repeats, matrix); `evaluate` compares with the report. Execution decides: the model's claims
 * count for nothing.
 */
import { escapeRegExp } from "../core/regexp.ts";
import { RetraceError } from "../core/errors.ts";
import type { ModelChoice, StateSpec, StepFeedback, StepIO, StepOutcome } from "../core/loop.ts";
import { escapeInvisible } from "../core/sanitize.ts";
import { newTrial, nextStage, type AttemptOutcome } from "./attempt.ts";
import { buildResult, noCodeResult, type ResultMeta } from "./build-result.ts";
import type { Program } from "./complete.ts";
import type { ReproContext } from "./context.ts";
import type { ExecutedRun } from "./execute.ts";
import { MAX_QUESTIONS, noCodeQuestions, questionInput, reportGaps } from "./questions.ts";
import { NODE_BUILTINS, PYTHON_IMPORT_TO_PACKAGE, PYTHON_STDLIB } from "./known-modules.ts";
import { attemptMessage, REPRO_SYSTEM_PROMPT, reproContext } from "./model-prompts.ts";
import { placeholdersIn } from "./model-mode.ts";
import { WRITE_REPRODUCTION_TOOL, type WriteReproductionInput, writeReproductionTool } from "./model-tool.ts";
import type { ReportedBehaviour, ReproResult, Verdict } from "./result.ts";
import { describeRisk, scanRisks } from "./risk-scan.ts";
import {
  type Candidate,
  contextOf,
  finalContext,
  type ModelAttempt,
  type ReproEnv,
  type ReproState,
  type ReproStateName,
} from "./state.ts";

export { type ModelMode, modelMode, placeholdersIn } from "./model-mode.ts";
export type { ModelAttempt } from "./state.ts";

const RANK: Record<Verdict, number> = { REPRODUCED: 4, PARTIAL: 3, NOT_REPRODUCED: 2, NEEDS_INFO: 1 };

/** The adapter's model names, unless the job spec pins one model by name. */
export function modelChoice(spec: ReproContext["spec"], models: ModelChoice | undefined): ModelChoice {
  const named = spec.model;
  if (named && named !== "default" && named !== models?.fast) return { fast: named };
  if (!models)
    throw new RetraceError("internal", "the reproduction model loop was given a model but no model names", {
      hint: "the adapter that builds the ReproPorts supplies `models` (createLocalReproPorts does)",
    });
  return models;
}

/**
 * The deterministic reader's findings, for the model: each block and what it was taken as, the reported and
 * expected behaviour, the checks stated in comments, the two sides of a two-version report, versions, runtime.
 */
export function parsedEvidence(ctx: ReproContext): string[] {
  const r = ctx.report;
  const e = ctx.expectations;
  const out: string[] = [];
  for (const b of r.blocks) {
    out.push(
      `block ${b.index + 1} (line ${b.line}${b.fence ? `, fence \`${b.fence}\`` : b.plain ? ", no fence: code in prose" : ""}): ${b.kind}/${b.language}, section ${b.section}${b.lead ? `, introduced by "${b.lead.slice(0, 60)}"` : ""}`,
    );
    for (const c of b.checks)
      out.push(
        `  comment on \`${c.code.slice(0, 80)}\`: ${c.role} ${c.kind} \`${c.value}\`${c.flagged ? " (flagged as wrong)" : ""}`,
      );
  }
  out.push(`reported behaviour taken from ${e.actual.source}`);
  if (e.expectedOutput.length > 0)
    out.push(`expected instead: ${e.expectedOutput.map((x) => `\`${x}\``).join(", ")}`);
  if (e.expectedException)
    out.push(`expected error: \`${e.expectedException.type}: ${e.expectedException.message}\``);
  if (e.twoVersions)
    out.push(
      `two transcripts of one session: ${e.twoVersions.sides.map((s) => `\`${s.label}\``).join(", ")}; ${e.twoVersions.why}`,
    );
  if (r.versions.length > 0)
    out.push(`versions named: ${r.versions.map((v) => `${v.name} ${v.version}`).join(", ")}`);
  if (r.bareVersions.length > 0) out.push(`versions without a package name: ${r.bareVersions.join(", ")}`);
  if (r.runtime) out.push(`runtime named: ${r.runtime.name} ${r.runtime.version}`);
  out.push(...reportGaps(questionInput(ctx)));
  return out;
}

function tail(text: string, maxLines = 30, maxChars = 2_000): string {
  const lines = text.trimEnd().split("\n");
  let out = (lines.length > maxLines ? ["…", ...lines.slice(-maxLines)] : lines).join("\n");
  if (out.length > maxChars) out = `…${out.slice(-maxChars)}`;
  return out;
}

/**
 * The reported behaviour as the prompt states it: a quoted message or output line may come from a code block
 * (kept byte-for-byte by the sanitizer), so invisible and bidi characters are shown as `<U+XXXX>`.
 */
export function promptSafeBehaviour(r: ReportedBehaviour): ReportedBehaviour {
  return {
    ...r,
    exceptionType: r.exceptionType === null ? null : escapeInvisible(r.exceptionType),
    exceptionMessage: r.exceptionMessage === null ? null : escapeInvisible(r.exceptionMessage),
    output: r.output.map(escapeInvisible),
    source: escapeInvisible(r.source),
  };
}

/**
 * What attempt N tells attempt N+1: the step that failed, the error type, the message, the output. The run's
 * output is untrusted (the report's code printed it): invisible characters are shown as `<U+XXXX>`.
 */
export function feedbackOf(outcome: AttemptOutcome, redact: (s: string) => string): StepFeedback {
  const fb = rawFeedbackOf(outcome, redact);
  return {
    ...fb,
    errorType: escapeInvisible(fb.errorType),
    message: escapeInvisible(fb.message),
    ...(fb.excerpt === undefined ? {} : { excerpt: escapeInvisible(fb.excerpt) }),
  };
}

function rawFeedbackOf(outcome: AttemptOutcome, redact: (s: string) => string): StepFeedback {
  if (outcome.runs.length === 0) {
    const install = outcome.reasons.some((r) => r.startsWith("could not install"));
    return {
      step: install ? "install" : "needs",
      errorType: install ? "install_failed" : "needs_unavailable",
      message: redact(outcome.reasons.join(" ") || "the program did not run"),
      violations: [],
    };
  }
  const fold = outcome.fold;
  const shown: ExecutedRun =
    outcome.runs.find((r) => r.exception || r.exitCode !== 0 || r.stoppedBy) ??
    (outcome.runs[0] as ExecutedRun);
  const errorType = shown.stoppedBy
    ? shown.stoppedBy
    : shown.exception
      ? shown.exception.type
      : shown.exitCode !== 0
        ? `exit_code_${shown.exitCode}`
        : "ran_clean";
  const observed = shown.exception
    ? `${shown.exception.type}: ${shown.exception.message}`
    : shown.stoppedBy
      ? `stopped by the sandbox (${shown.stoppedBy})`
      : `exit code ${shown.exitCode}`;
  const out = [shown.stdout.trimEnd(), shown.stderr.trimEnd()].filter(Boolean).join("\n");
  return {
    step: shown.exception || shown.stoppedBy || shown.exitCode !== 0 ? "run" : "evaluate",
    errorType,
    message: redact(`${fold?.detail ?? "it did not show the reported behaviour"} (observed: ${observed})`),
    ...(out ? { excerpt: redact(tail(out)) } : {}),
    violations: [],
  };
}

const NL = /\r\n?/g;
const looseText = (s: string) => s.replace(NL, "\n").replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The model may name what the run should show, but only by quoting the report: an expectation is adopted
 * only when the report itself states none and the quoted text occurs in the report.
 */
export function adoptExpectation(
  reported: ReportedBehaviour,
  expected: WriteReproductionInput["expected"],
  reportText: string,
): ReportedBehaviour {
  if (reported.kind !== "unknown" && reported.kind !== "error-unspecified") return reported;
  const text = looseText(reportText);
  const quoted = (s: string | undefined) => !!s && s.trim().length >= 2 && text.includes(looseText(s));
  const source = "report's prose (quoted by the model)";
  if (
    expected.exceptionType &&
    new RegExp(`\\b${escapeRegExp(expected.exceptionType.trim())}\\b`).test(reportText)
  ) {
    return {
      kind: "exception",
      exceptionType: expected.exceptionType.trim(),
      exceptionMessage: quoted(expected.message) ? (expected.message as string).trim() : null,
      output: [],
      source,
    };
  }
  if (quoted(expected.output)) {
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: (expected.output as string).split("\n").filter((l) => l.trim() !== ""),
      source,
    };
  }
  return reported;
}

/** The model's tool input as a Program the deterministic runner takes. */
export function programFromTool(
  input: WriteReproductionInput,
  mentioned: string,
): { program: Program; dropped: string[] } {
  const python = input.language === "python";
  const files: Record<string, string> = {};
  for (const f of input.files) files[f.path] = f.content.endsWith("\n") ? f.content : `${f.content}\n`;
  const entryCode = files[input.entry] ?? "";
  const moduleFormat: Program["moduleFormat"] = python
    ? null
    : input.entry.endsWith(".cjs")
      ? "cjs"
      : input.entry.endsWith(".mjs")
        ? "esm"
        : /\brequire\s*\(/.test(entryCode) && !/^[ \t]*(?:import|export)\s/m.test(entryCode)
          ? "cjs"
          : "esm";
  const code = Object.values(files).join("\n");
  const importToPackage = new Map(
    Object.entries(PYTHON_IMPORT_TO_PACKAGE).map(([i, p]) => [p.toLowerCase(), i]),
  );
  const dependencies: string[] = [];
  const dropped: string[] = [];
  for (const dep of new Set(input.dependencies)) {
    const bare = dep.replace(/^node:/, "");
    if (python ? PYTHON_STDLIB.has(bare) : NODE_BUILTINS.has(bare)) continue;
    // Only packages the program uses or the report names are installed: the model does not pick what the host
    // downloads.
    const importName = python ? (importToPackage.get(dep.toLowerCase()) ?? dep.replace(/-/g, "_")) : dep;
    const used = new RegExp(`(?<![\\w@/-])${escapeRegExp(importName)}(?![\\w-])`, "i").test(code);
    const named = new RegExp(`(?<![\\w@/-])${escapeRegExp(dep)}(?![\\w-])`, "i").test(mentioned);
    if (used || named) dependencies.push(dep);
    else dropped.push(dep);
  }
  return {
    program: {
      language: input.language,
      runtime: python ? "python" : "node",
      files,
      entry: input.entry,
      moduleFormat,
      completions: [],
      dependencies,
      ecosystem: python ? "pypi" : "npm",
      placeholders: [],
    },
    dropped,
  };
}

type Step = StepOutcome<ReproState, ReproStateName>;

/**
 * The model's states: `write` asks for a program (the one state that calls the model, and starts each
 * attempt), `scan` lists its risky calls, the attempt's stages run it, `evaluate` compares with the report.
 * `unavailable` is why the model cannot be asked (no model names for it), thrown by `write`.
 */
export function modelStates(env: ReproEnv, unavailable: Error | null = null) {
  const write: StateSpec<ReproState, ReproStateName> = {
    startsAttempt: true,
    on: ["scan", "write"],
    run: async (s, io) => {
      if (unavailable) throw unavailable;
      return writeStep(contextOf(env, s, io), s, io);
    },
  };
  const scan: StateSpec<ReproState, ReproStateName> = {
    free: true,
    on: ["needs", "install", "transpile", "run"],
    run: (s) => {
      const cand = s.candidate as Candidate;
      const risks = scanRisks(cand.program.files);
      return {
        next: nextStage(cand.program, null),
        ctx: { ...s, candidate: { ...cand, risks }, trial: newTrial(cand.program, cand.reported) },
        summary: risks.length ? `risky calls: ${risks.map(describeRisk).join("; ")}` : "no risky calls found",
      };
    },
  };
  const evaluate: StateSpec<ReproState, ReproStateName> = {
    free: true,
    on: ["done", "write"],
    run: (s, io) => {
      const cand = s.candidate as Candidate;
      const outcome = s.outcome as AttemptOutcome;
      const attempts = [...s.attempts, { attempt: io.attempt, ...cand, outcome } satisfies ModelAttempt];
      const next = { ...s, attempts, candidate: null, outcome: null };
      if (outcome.verdict === "REPRODUCED")
        return { next: "done", ctx: next, summary: "the reported behaviour appeared in every run" };
      return { next: "write", ctx: next, feedback: feedbackOf(outcome, env.redact) };
    },
  };
  return { write, scan, evaluate };
}

/** The prompt's context: the sanitized issue, the reported behaviour, the report's program and what was parsed. */
function promptContext(ctx: ReproContext, program: Program | null): string {
  return ctx.redact(
    reproContext({
      sanitizedIssue: ctx.sanitized.text,
      reported: promptSafeBehaviour(ctx.expectations.actual),
      program,
      placeholders: program ? placeholdersIn(program) : [],
      codeWarnings: ctx.sanitized.codeWarnings,
      evidence: parsedEvidence(ctx),
    }),
  );
}

async function writeStep(ctx: ReproContext, s: ReproState, io: StepIO): Promise<Step> {
  const m = io.model as NonNullable<StepIO["model"]>;
  const sanitizedIssue = ctx.sanitized.text;
  // A refinement of the report's own run starts from that run's feedback.
  const seedFeedback =
    s.mode === "refine" && s.deterministic ? feedbackOf(s.deterministic, ctx.redact) : null;
  const mode = s.attempts.length > 0 ? "refine" : (s.mode ?? "write");
  const feedback = io.feedback ?? seedFeedback;
  const history = io.history.length > 0 ? [...(seedFeedback ? [seedFeedback] : []), ...io.history] : [];
  const last = s.attempts.at(-1);
  const previous = last ? last.program.files : mode === "refine" && s.program ? s.program.files : null;
  const res = await m.complete({
    system: REPRO_SYSTEM_PROMPT,
    context: promptContext(ctx, s.program),
    messages: [
      {
        role: "user",
        content: ctx.redact(attemptMessage({ mode, previous, feedback, history })),
      },
    ],
    tools: [writeReproductionTool],
    toolChoice: { type: "tool", name: WRITE_REPRODUCTION_TOOL },
    maxTokens: 4_096,
  });
  const call = res.toolCalls.find((t) => t.name === WRITE_REPRODUCTION_TOOL);
  if (!call) {
    return {
      next: "write",
      ctx: { ...s, model: res.model },
      feedback: {
        step: "write",
        errorType: "no_tool_call",
        message: `the answer did not call ${WRITE_REPRODUCTION_TOOL}; submit the program through the tool`,
        violations: [],
      },
    };
  }
  const tool = call.input as WriteReproductionInput;
  const { program, dropped } = programFromTool(tool, sanitizedIssue);
  if (mode !== "write" && tool.notes.trim())
    program.completions.push(`completed by the model: ${tool.notes.trim()}`);
  for (const d of dropped)
    program.completions.push(
      `not installed: \`${d}\` (neither imported by the program nor named in the report)`,
    );
  const reported = adoptExpectation(ctx.expectations.actual, tool.expected, sanitizedIssue);
  return {
    next: "scan",
    ctx: { ...s, model: res.model, candidate: { program, notes: tool.notes, risks: [], reported } },
    summary: `${program.language} program ${program.entry} (${Object.keys(program.files).length} file(s)); deps: ${program.dependencies.join(", ") || "none"}`,
  };
}

/** How the model loop ended, for the result: why it stopped (null when it reproduced), and what it spent. */
export interface LoopEnd {
  reason: string | null;
  attempts: number;
  tokens: number;
  costUsd: number;
}

/** The final result after the model was asked, decided from everything that ran. */
export function modelResult(
  env: ReproEnv,
  final: ReproState,
  loop: LoopEnd,
): { result: ReproResult; program: Program | null } {
  const ctx = finalContext(env, final);
  const deterministicAttempts = final.program ? 1 : 0;
  const risks = final.attempts.flatMap((a) =>
    a.risks.map((r) => `${describeRisk(r)}${final.attempts.length > 1 ? ` — attempt ${a.attempt}` : ""}`),
  );
  const meta: Omit<ResultMeta, "author"> = {
    attempts: deterministicAttempts + loop.attempts,
    tokens: loop.tokens,
    costUsd: loop.costUsd,
    model: final.model,
    risks,
  };
  const reproduced = final.attempts.find((a) => a.outcome.verdict === "REPRODUCED");
  const tried = final.attempts.length;
  const triedNote =
    tried > 0 && !reproduced
      ? `The model wrote ${tried} candidate reproduction(s); none showed the reported behaviour (last: ${
          final.attempts.at(-1)?.outcome.fold?.detail ??
          final.attempts.at(-1)?.outcome.reasons.join(" ") ??
          "?"
        }).`
      : null;
  const notes = [
    loop.reason ? `${loop.reason[0]?.toUpperCase()}${loop.reason.slice(1)}.` : null,
    triedNote,
  ].filter((x): x is string => x !== null);

  // A model-written program that reproduced wins; otherwise the reporter's own code is the stronger evidence.
  const pick = reproduced ?? (final.program ? null : bestOf(final.attempts));
  if (pick) {
    const attempt: AttemptOutcome = {
      ...pick.outcome,
      reasons: [
        ...(pick.notes.trim() ? [`The model's notes: ${pick.notes.trim()}`] : []),
        ...pick.outcome.reasons,
        ...(pick === reproduced
          ? []
          : [
              ...notes,
              "The script was written by the model from the report's description; a failure may be the script's, not the code's.",
            ]),
      ],
      questions:
        pick === reproduced
          ? pick.outcome.questions
          : [
              // What this report lacks, named (its inline code, screenshots, outcome blocks), then the run's.
              ...noCodeQuestions(questionInput(ctx)).slice(0, 1),
              ...pick.outcome.questions,
            ].slice(0, MAX_QUESTIONS),
    };
    const pickCtx = finalContext(env, final, pick.reported);
    return {
      result: buildResult(pickCtx, pick.program, attempt, { ...meta, author: "model" }),
      program: pick.program,
    };
  }
  if (final.program && final.deterministic) {
    const attempt: AttemptOutcome = {
      ...final.deterministic,
      reasons: [...final.deterministic.reasons, ...notes],
    };
    return {
      result: buildResult(ctx, final.program, attempt, { ...meta, author: "report" }),
      program: final.program,
    };
  }
  return {
    result: noCodeResult(ctx, {
      reasons: ["The report contains no code that can be run.", ...notes],
      meta: { ...meta, author: "model" },
    }),
    program: null,
  };
}

function bestOf(attempts: ModelAttempt[]): ModelAttempt | null {
  let best: ModelAttempt | null = null;
  for (const a of attempts) if (!best || RANK[a.outcome.verdict] > RANK[best.outcome.verdict]) best = a;
  return best;
}
