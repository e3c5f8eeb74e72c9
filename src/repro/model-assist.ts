/**
 * The model path of the reproduction pipeline, run by the loop engine after the free deterministic attempt:
 *
 *   write ──▶ scan ──▶ run ──▶ evaluate ──▶ done
 *     ▲                            │
 *     └──────── feedback ──────────┘        (bounded by attempts, wall time, tokens, dollars)
 *
 * `write` asks the model (tool `write_reproduction`) for a program: written from the prose, completed from a
 * snippet with placeholders, or refined after the structured feedback of the last run. `scan` lists the risky
 * calls before anything runs; `run` executes it like the deterministic path (installs, repeats, matrix);
 * `evaluate` compares with the report. Execution decides: the model's claims count for nothing.
 */
import { RetraceError } from "../core/errors.ts";
import { defineMachine, type ModelChoice, runMachine, type StepFeedback, type StepIO } from "../core/loop.ts";
import { Redactor } from "../core/redact.ts";
import { escapeInvisible } from "../core/sanitize.ts";
import type { Program } from "./complete.ts";
import type { ExecutedRun } from "./execute.ts";
import { NODE_BUILTINS, PYTHON_IMPORT_TO_PACKAGE, PYTHON_STDLIB } from "./known-modules.ts";
import { attemptMessage, REPRO_SYSTEM_PROMPT, reproContext } from "./model-prompts.ts";
import { WRITE_REPRODUCTION_TOOL, type WriteReproductionInput, writeReproductionTool } from "./model-tool.ts";
import type { ReportedBehaviour, Verdict } from "./result.ts";
import { describeRisk, type RiskFinding, scanRisks } from "./risk-scan.ts";
import {
  type AttemptOutcome,
  attemptProgram,
  buildResult,
  noCodeResult,
  type ReproContext,
  type ReproOutcome,
  record,
} from "./run-repro.ts";

export type ModelMode = "write" | "complete" | "refine";

/** One model-written program that ran (or was refused before running). */
export interface ModelAttempt {
  attempt: number;
  program: Program;
  outcome: AttemptOutcome;
  risks: RiskFinding[];
  notes: string;
  /** The report's expectation as used for this attempt (possibly read from the prose by the model). */
  reported: ReportedBehaviour;
}

interface AssistCtx {
  mode: ModelMode;
  /** The program submitted in this attempt, before it ran. */
  candidate: { program: Program; notes: string; risks: RiskFinding[]; reported: ReportedBehaviour } | null;
  /** The outcome of the candidate's run, between `run` and `evaluate`. */
  outcome: AttemptOutcome | null;
  attempts: ModelAttempt[];
  /** The model that answered last. */
  model: string | null;
}

const RANK: Record<Verdict, number> = { REPRODUCED: 4, PARTIAL: 3, NOT_REPRODUCED: 2, NEEDS_INFO: 1 };

/** `...`, `<your value>` and friends the deterministic placeholder scan does not flag. */
export function placeholdersIn(program: Program): string[] {
  const found = new Set(program.placeholders);
  for (const code of Object.values(program.files)) {
    for (const m of code.matchAll(/<your[^<>\n]{0,40}>|<(?:insert|replace|put)[^<>\n]{0,40}>/gi))
      found.add(m[0]);
    const ellipsis =
      program.runtime === "python"
        ? /\(\s*\.\.\.\s*\)|=\s*\.\.\.\s*(?:#.*)?$|,\s*\.\.\.\s*[,)\]]/m
        : /^\s*\.\.\.\s*;?\s*$|[([,{]\s*\.\.\.\s*[,)\]}]|=\s*\.\.\.\s*;?\s*$/m;
    const m = ellipsis.exec(code);
    if (m) found.add(m[0].trim());
  }
  return [...found];
}

/**
 * Whether the model is worth a call after the deterministic attempt, and for what. Null when the deterministic
 * verdict stands: reproduced, intermittent, or blocked on something only the reporter can give (stdin, files,
 * a service, a version that does not install).
 */
export function modelMode(program: Program | null, attempt: AttemptOutcome | null): ModelMode | null {
  if (!program || !attempt) return "write";
  if (attempt.verdict === "REPRODUCED") return null;
  if (placeholdersIn(program).length > 0) return "complete";
  if (attempt.fold === null) return null;
  if (attempt.fold.reproducedRuns > 0) return null;
  if (attempt.verdict === "PARTIAL" || attempt.verdict === "NOT_REPRODUCED") return "refine";
  // The reporter's code does not parse or uses a name it never defines: a model can complete it.
  if (attempt.verdict === "NEEDS_INFO" && attempt.fold.incompleteCode) return "refine";
  return null;
}

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
  return out;
}

/** The engine's Redactor, applying the pipeline's redaction (registered secrets) after its own patterns. */
class PortRedactor extends Redactor {
  constructor(private readonly fn: (s: string) => string) {
    super();
  }
  override redact(text: string): string {
    return this.fn(super.redact(text));
  }
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
    new RegExp(`\\b${escapeRe(expected.exceptionType.trim())}\\b`).test(reportText)
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

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
        : /\brequire\s*\(/.test(entryCode) && !/^\s*(?:import|export)\s/m.test(entryCode)
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
    const used = new RegExp(`(?<![\\w@/-])${escapeRe(importName)}(?![\\w-])`, "i").test(code);
    const named = new RegExp(`(?<![\\w@/-])${escapeRe(dep)}(?![\\w-])`, "i").test(mentioned);
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

export interface AssistInput {
  mode: ModelMode;
  /** The deterministic program and its outcome, when the report had code. */
  program: Program | null;
  deterministic: AttemptOutcome | null;
}

/** Runs the model loop and decides the final result from everything that ran. */
export async function runModelAssist(ctx: ReproContext, input: AssistInput): Promise<ReproOutcome> {
  const { ports, spec } = ctx;
  const model = ports.model;
  if (!model)
    throw new RetraceError("internal", "runModelAssist needs a model", { hint: "call it only with a model" });
  // The report, the expectation and the program were all read from the sanitized issue (createContext).
  const sanitizedIssue = ctx.sanitized.text;
  const basePlaceholders = input.program ? placeholdersIn(input.program) : [];
  const system = REPRO_SYSTEM_PROMPT;
  const context = ctx.redact(
    reproContext({
      sanitizedIssue,
      reported: promptSafeBehaviour(ctx.expectations.actual),
      program: input.program,
      placeholders: basePlaceholders,
      codeWarnings: ctx.sanitized.codeWarnings,
      evidence: parsedEvidence(ctx),
    }),
  );
  const seedFeedback =
    input.mode === "refine" && input.deterministic ? feedbackOf(input.deterministic, ctx.redact) : null;

  const machine = defineMachine<AssistCtx>()({
    name: "repro",
    initial: "write",
    states: {
      write: {
        startsAttempt: true,
        on: ["scan", "write"],
        run: async (c, io) => writeStep(c, io),
      },
      scan: {
        on: ["run"],
        run: (c) => {
          const cand = c.candidate as NonNullable<AssistCtx["candidate"]>;
          const risks = scanRisks(cand.program.files);
          return {
            next: "run",
            ctx: { ...c, candidate: { ...cand, risks } },
            summary: risks.length
              ? `risky calls: ${risks.map(describeRisk).join("; ")}`
              : "no risky calls found",
          };
        },
      },
      run: {
        on: ["evaluate"],
        run: async (c, io) => {
          const cand = c.candidate as NonNullable<AssistCtx["candidate"]>;
          const signal = ports.signal ? AbortSignal.any([ports.signal, io.signal]) : io.signal;
          const runCtx: ReproContext = {
            ...ctx,
            ports: { ...ports, signal },
            expectations: { ...ctx.expectations, actual: cand.reported },
          };
          const outcome = await attemptProgram(runCtx, cand.program);
          return {
            next: "evaluate",
            ctx: { ...c, outcome },
            summary: `${outcome.verdict}: ${outcome.fold?.detail ?? outcome.reasons.join(" ")}`,
          };
        },
      },
      evaluate: {
        on: ["done", "write"],
        run: (c, io) => {
          const cand = c.candidate as NonNullable<AssistCtx["candidate"]>;
          const outcome = c.outcome as AttemptOutcome;
          const attempts = [...c.attempts, { attempt: io.attempt, ...cand, outcome } satisfies ModelAttempt];
          const next = { ...c, attempts, candidate: null, outcome: null, mode: "refine" as const };
          if (outcome.verdict === "REPRODUCED")
            return { next: "done", ctx: next, summary: "the reported behaviour appeared in every run" };
          return { next: "write", ctx: next, feedback: feedbackOf(outcome, ctx.redact) };
        },
      },
      done: { terminal: "completed" },
    },
    summarize: (c) =>
      `${c.mode}; ${c.attempts.length} program(s) run${c.attempts.length ? `, last ${c.attempts.at(-1)?.outcome.verdict}` : ""}`,
  });

  async function writeStep(c: AssistCtx, io: StepIO) {
    const m = io.model as NonNullable<StepIO["model"]>;
    const feedback = io.feedback ?? seedFeedback;
    const history = io.history.length > 0 ? [...(seedFeedback ? [seedFeedback] : []), ...io.history] : [];
    const last = c.attempts.at(-1);
    const previous = last
      ? last.program.files
      : c.mode === "refine" && input.program
        ? input.program.files
        : null;
    const res = await m.complete({
      system,
      context,
      messages: [
        {
          role: "user",
          content: ctx.redact(attemptMessage({ mode: c.mode, previous, feedback, history })),
        },
      ],
      tools: [writeReproductionTool],
      toolChoice: { type: "tool", name: WRITE_REPRODUCTION_TOOL },
      maxTokens: 4_096,
    });
    const call = res.toolCalls.find((t) => t.name === WRITE_REPRODUCTION_TOOL);
    if (!call) {
      return {
        next: "write" as const,
        ctx: { ...c, model: res.model },
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
    if (c.mode !== "write" && tool.notes.trim())
      program.completions.push(`completed by the model: ${tool.notes.trim()}`);
    for (const d of dropped)
      program.completions.push(
        `not installed: \`${d}\` (neither imported by the program nor named in the report)`,
      );
    const reported = adoptExpectation(ctx.expectations.actual, tool.expected, sanitizedIssue);
    return {
      next: "scan" as const,
      ctx: { ...c, model: res.model, candidate: { program, notes: tool.notes, risks: [], reported } },
      summary: `${program.language} program ${program.entry} (${Object.keys(program.files).length} file(s)); deps: ${program.dependencies.join(", ") || "none"}`,
    };
  }

  const t0 = ports.clock.now();
  const elapsed = t0 - ctx.startedAt;
  const wallLeft = spec.budget.maxWallMs - elapsed;
  const initial: AssistCtx = { mode: input.mode, candidate: null, outcome: null, attempts: [], model: null };
  if (wallLeft < 1_000) {
    return finish(ctx, input, initial, {
      reason: "the time budget was spent by the deterministic attempt, so the model was not asked",
      attempts: 0,
      tokens: 0,
      costUsd: 0,
      trace: undefined,
    });
  }
  const run = await runMachine(machine, initial, {
    budget: { ...spec.budget, maxWallMs: Math.max(1_000, Math.floor(wallLeft)) },
    clock: ports.clock,
    ...(ports.signal ? { signal: ports.signal } : {}),
    model,
    models: modelChoice(spec, ports.models),
    ...(ports.maxOutputTokens ? { defaultMaxTokens: ports.maxOutputTokens } : {}),
    redactor: new PortRedactor(ctx.redact),
    job: spec,
  });
  if (run.error && ["infrastructure", "cancelled", "internal"].includes(run.error.kind)) {
    throw new RetraceError(run.error.kind as "infrastructure", run.error.message, {
      ...(run.error.hint ? { hint: run.error.hint } : {}),
    });
  }
  const u = run.usage;
  const tokens = u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  const endReason =
    run.reason === "completed"
      ? null
      : run.reason.startsWith("budget_exhausted:")
        ? `the model loop stopped: the ${run.reason.slice("budget_exhausted:".length)} budget ran out after ${run.attempts} attempt(s)`
        : `the model loop stopped: ${run.error?.message ?? run.reason}`;
  record(
    ctx,
    "model",
    t0,
    `model loop (${input.mode}): ${run.attempts} attempt(s), ended ${run.reason}; ${tokens} tokens, $${run.costUsd.toFixed(4)}`,
    { reason: run.reason, attempts: run.attempts, tokens, costUsd: run.costUsd },
  );
  return finish(ctx, input, run.ctx, {
    reason: endReason,
    attempts: run.attempts,
    tokens,
    costUsd: run.costUsd,
    trace: run.trace,
  });
}

function finish(
  ctx: ReproContext,
  input: AssistInput,
  final: AssistCtx,
  loop: {
    reason: string | null;
    attempts: number;
    tokens: number;
    costUsd: number;
    trace: ReproOutcome["trace"];
  },
): ReproOutcome {
  const deterministicAttempts = input.program ? 1 : 0;
  const risks = final.attempts.flatMap((a) =>
    a.risks.map((r) => `${describeRisk(r)}${final.attempts.length > 1 ? ` — attempt ${a.attempt}` : ""}`),
  );
  const meta = {
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
  const out = (result: ReproOutcome["result"], program: Program | null): ReproOutcome => ({
    result,
    events: ctx.events,
    program,
    ...(loop.trace ? { trace: loop.trace } : {}),
  });

  // A model-written program that reproduced wins; otherwise the reporter's own code is the stronger evidence.
  const pick = reproduced ?? (input.program ? null : bestOf(final.attempts));
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
              "Could you add a minimal, self-contained code example that shows the problem (one file we can run as-is)?",
              ...pick.outcome.questions,
            ],
    };
    const pickCtx: ReproContext = { ...ctx, expectations: { ...ctx.expectations, actual: pick.reported } };
    return out(buildResult(pickCtx, pick.program, attempt, { ...meta, author: "model" }), pick.program);
  }
  if (input.program && input.deterministic) {
    const attempt: AttemptOutcome = {
      ...input.deterministic,
      reasons: [...input.deterministic.reasons, ...notes],
    };
    return out(buildResult(ctx, input.program, attempt, { ...meta, author: "report" }), input.program);
  }
  return out(
    noCodeResult(ctx, {
      reasons: ["The report contains no code that can be run.", ...notes],
      meta: { ...meta, author: "model" },
    }),
    null,
  );
}

function bestOf(attempts: ModelAttempt[]): ModelAttempt | null {
  let best: ModelAttempt | null = null;
  for (const a of attempts) if (!best || RANK[a.outcome.verdict] > RANK[best.outcome.verdict]) best = a;
  return best;
}
