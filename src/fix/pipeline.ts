/**
 * The fix pipeline as a state machine on the loop engine:
 *
 *   failure → triage ─(passes on rerun)→ flaky
 *                    ─(no model)→ no_model
 *                    → context → root_cause → propose → apply → gate → verify → fixed
 *                                    ↑__________ feedback (a rejected attempt) ___________|
 *
 * `root_cause` starts each attempt; a rejection anywhere after it hands structured feedback to the next
 * attempt. The engine ends the run at the first bound (attempts, time, tokens, dollars).
 */
import { defineMachine, type RunResult, runMachine, type StepFeedback, type StepIO } from "../core/loop.ts";
import { RetraceError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import type { Trace } from "../core/trace.ts";
import type { ContentBlock, ModelMessage, ModelResponse, ToolCall } from "../core/ports/model.ts";
import type { FileWrite } from "../core/apply-patch.ts";
import { applyEdits, type FileChange } from "./apply-edits.ts";
import { gatherContext } from "./context-gather.ts";
import { packContext, renderPackedContext } from "./context-pack.ts";
import { Explorer, isExplorationCall, type RepoView } from "./explore.ts";
import type { FailureInfo } from "./failure.ts";
import { applyFeedback, modelFeedback, policyFeedback, renderFeedback, verifyFeedback } from "./feedback.ts";
import { triageFlaky } from "./flaky-triage.ts";
import type { FixOptions, FixPorts, GateVerdict, VerifyVerdict } from "./ports.ts";
import { PROPOSE_SYSTEM, ROOT_CAUSE_SYSTEM } from "./prompts.ts";
import { renderPatch } from "./render-diff.ts";
import { renderFixReport } from "../report/pr-body.ts";
import type { AttemptRecord, FixOutcome, FixResult, FlakyReport } from "./result.ts";
import {
  explorationTools,
  PROPOSE_EDITS_TOOL,
  ProposeEditsInput,
  proposeEditsTool,
  ROOT_CAUSE_TOOL,
  RootCauseInput,
  rootCauseTool,
} from "./tools.ts";

const TOOLS = [...explorationTools, rootCauseTool, proposeEditsTool];
const EXCERPT_LIMIT = 4_000;

/** Why the run stopped before the model loop, when it did. */
type EarlyStop = "no_failure" | "no_model" | null;

interface CurrentAttempt {
  n: number;
  model: string;
  tokensAtStart: number;
  costAtStart: number;
  rootCause?: RootCauseInput;
  summary?: string;
  files: string[];
  patch?: string;
}

export interface FixCtx {
  failures: FailureInfo[];
  failingIds: string[];
  excerpt: string;
  testCommand: string | null;
  flaky: FlakyReport | null;
  earlyStop: EarlyStop;
  baseOutcomes: Map<string, string>;
  context: string;
  contextSummary: { included: string[]; omitted: string[]; tokens: number } | null;
  messages: ModelMessage[];
  current: CurrentAttempt | null;
  /** The current attempt's validated `propose_edits` input. */
  proposal: ProposeEditsInput | null;
  attemptLog: AttemptRecord[];
  changes: FileChange[];
  patch: string | null;
  gate: GateVerdict | null;
  verification: VerifyVerdict | null;
  /** The accepted attempt's root cause and summary (FIXED). */
  accepted: { rootCause?: RootCauseInput; summary?: string } | null;
}

/** Zero-width, bidi-control and other invisible characters: a log is hostile input, and these hide text from a human reader. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

function clip(text: string, max = EXCERPT_LIMIT): string {
  text = text.replace(INVISIBLE, "");
  return text.length <= max ? text : `[... ${text.length - max} characters cut]\n${text.slice(-max)}`;
}

function failureText(ctx: FixCtx): string {
  const lines = [`Failing tests (${ctx.failingIds.length}):`];
  for (const f of ctx.failures) {
    lines.push(
      `- ${f.testId}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ""})` : ""}: ${f.message.split("\n")[0] ?? ""}`,
    );
  }
  lines.push("", "Failure output:", ctx.excerpt);
  if (ctx.flaky) {
    lines.push("", `Rerun ${ctx.flaky.runs} time(s) on the unchanged code: failed every time (not flaky).`);
  }
  return lines.join("\n");
}

/** Closes the current attempt into the log. */
function closeAttempt(
  ctx: FixCtx,
  io: StepIO,
  verdict: AttemptRecord["verdict"],
  reason: string,
  violations: string[] = [],
): AttemptRecord[] {
  const c = ctx.current;
  if (!c) return ctx.attemptLog;
  const record: AttemptRecord = {
    n: c.n,
    model: c.model,
    ...(c.rootCause ? { rootCause: io.redactor.redact(c.rootCause.hypothesis) } : {}),
    ...(c.summary ? { summary: io.redactor.redact(c.summary) } : {}),
    files: c.files,
    ...(c.patch ? { patch: io.redactor.redact(c.patch) } : {}),
    verdict,
    reason: io.redactor.redact(reason),
    violations,
    tokens: Math.max(0, io.budget.tokens - c.tokensAtStart),
    costUsd: Math.max(0, Math.round((io.budget.costUsd - c.costAtStart) * 1e6) / 1e6),
  };
  return [...ctx.attemptLog, record];
}

function assistantBlocks(res: ModelResponse): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (res.text) blocks.push({ type: "text", text: res.text });
  for (const c of res.toolCalls) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
  return blocks;
}

function reject(
  ctx: FixCtx,
  io: StepIO,
  fb: StepFeedback,
  verdict: AttemptRecord["verdict"],
  violations: string[] = [],
) {
  const attemptLog = closeAttempt(ctx, io, verdict, fb.message.split("\n")[0] ?? fb.message, violations);
  return {
    next: "root_cause" as const,
    ctx: { ...ctx, attemptLog, current: null, messages: [], proposal: null },
    feedback: fb,
    summary: `rejected at ${fb.step}: ${fb.errorType}`,
  };
}

function repoView(ports: FixPorts): RepoView {
  return {
    readFile: async (p) =>
      (await ports.workspace.exists(p)) ? await ports.workspace.readFile(p).catch(() => null) : null,
    listFiles: () => ports.workspace.listFiles(),
  };
}

/** The attempt in progress, kept outside the context so a step that throws (budget, error) does not lose it. */
export interface AttemptTracker {
  current: CurrentAttempt | null;
}

export function buildFixMachine(
  ports: FixPorts,
  options: FixOptions,
  tracker: AttemptTracker = { current: null },
) {
  const repo = repoView(ports);
  const explorer = new Explorer(repo, { maxCalls: options.maxToolCalls ?? 20 });
  const maxRounds = options.maxRounds ?? 8;
  const log = ports.log ?? (() => {});

  return defineMachine<FixCtx>()({
    name: "fix",
    initial: "failure",
    summarize: (ctx) => ({
      failing: ctx.failingIds,
      flaky: ctx.flaky ? { runs: ctx.flaky.runs, passes: ctx.flaky.passes } : null,
      attempt: ctx.current?.n ?? null,
      files: ctx.current?.files ?? [],
      rejected: ctx.attemptLog.map((a) => `${a.n}:${a.verdict}`),
    }),
    states: {
      failure: {
        on: ["triage", "nothing"],
        run: async (ctx, io) => {
          const files = new Set(await ports.workspace.listFiles());
          let failures: FailureInfo[];
          let excerpt: string;
          let baseOutcomes = new Map<string, string>();
          if (options.log !== undefined) {
            failures = ports.parseLog(options.log, files);
            excerpt = failures.map((f) => f.excerpt).join("\n\n") || clip(options.log);
          } else {
            log(`running the tests on the base: ${ports.tests.command}`);
            const run = await ports.tests.runAll(io.signal);
            if (run.problem && run.failures.length === 0) {
              throw new RetraceError("sandbox", `the base test run did not complete: ${run.problem}`, {
                hint: "check the test command (--test) and the sandbox limits; the output tail is in the trace",
              });
            }
            failures = run.failures;
            baseOutcomes = run.outcomes;
            excerpt =
              failures
                .map((f) => f.excerpt)
                .filter((e) => e !== "")
                .join("\n\n") || run.outputTail;
          }
          const failingIds = [...new Set(failures.map((f) => f.testId))];
          const next = {
            ...ctx,
            failures,
            failingIds,
            excerpt: clip(io.redactor.redact(excerpt)),
            baseOutcomes,
            testCommand: ports.tests.command,
          };
          if (failingIds.length === 0) {
            return {
              next: "nothing",
              ctx: { ...next, earlyStop: "no_failure" as const },
              summary: "no failing test found",
            };
          }
          return {
            next: "triage",
            ctx: next,
            summary: `${failingIds.length} failing: ${failingIds.join(", ")}`,
          };
        },
      },
      triage: {
        on: ["flaky", "context", "no_model"],
        run: async (ctx, io) => {
          const runs = options.triageRuns ?? 3;
          log(
            `flaky triage: rerunning ${ctx.failingIds.length} failing test(s) ${runs} time(s) on the unchanged base`,
          );
          const { flaky, report } = await triageFlaky({
            failing: ctx.failingIds,
            runs,
            command: ports.tests.canFilter ? ports.tests.filterCommand(ctx.failingIds) : ports.tests.command,
            fullSuite: !ports.tests.canFilter,
            rerun: async () => {
              const r = await ports.tests.runOnly(ctx.failingIds, io.signal);
              // When the failing tests are not in the rerun at all, say what the rerun did report instead.
              const loadFailures = r.failures
                .map((f) => `${f.testId}: ${f.message.split("\n")[0]}`)
                .slice(0, 3);
              return {
                outcomes: r.outcomes,
                durationMs: r.durationMs,
                stoppedBy: r.stoppedBy ?? (r.problem && r.outcomes.size > 0 ? "incomplete" : null),
                problem: [r.problem, ...loadFailures].filter(Boolean).join("; ") || null,
              };
            },
            onRun: (i, r) =>
              log(
                `  rerun ${i + 1}/${runs}: ${ctx.failingIds.map((id) => `${id}=${r.outcomes.get(id) ?? "missing"}`).join(" ")}`,
              ),
          });
          const next = { ...ctx, flaky: report };
          if (flaky)
            return { next: "flaky", ctx: next, summary: `flaky: passed ${report.passes}/${report.runs}` };
          if (!io.model)
            return {
              next: "no_model",
              ctx: { ...next, earlyStop: "no_model" as const },
              summary: "not flaky; no model configured",
            };
          return {
            next: "context",
            ctx: next,
            summary: `not flaky: failed ${report.failures}/${report.runs}`,
          };
        },
      },
      context: {
        on: ["root_cause"],
        run: async (ctx) => {
          const commitDiff = ports.commitDiff ? await ports.commitDiff() : null;
          const candidates = await gatherContext({
            failures: ctx.failures,
            repo,
            ...(commitDiff ? { commitDiff } : {}),
          });
          const packed = packContext(candidates, options.contextTokens ?? 12_000);
          const summary = {
            included: packed.items.map(
              (i) => `${i.path}${i.whole ? "" : `:${i.startLine}-${i.endLine}`} [${i.kind}]`,
            ),
            omitted: packed.omitted.map((o) => `${o.path} [${o.kind}]: ${o.why}`),
            tokens: packed.tokens,
          };
          return {
            next: "root_cause",
            ctx: { ...ctx, context: renderPackedContext(packed), contextSummary: summary },
            summary: `packed ${packed.items.length} item(s), ~${packed.tokens} tokens (chars/4 estimate); left out ${packed.omitted.length}`,
          };
        },
      },
      root_cause: {
        startsAttempt: true,
        on: ["propose", "root_cause"],
        run: async (ctx, io) => {
          const model = io.model!;
          const current: CurrentAttempt = {
            n: io.attempt,
            model: io.modelName ?? "(default)",
            tokensAtStart: io.budget.tokens,
            costAtStart: io.budget.costUsd,
            files: [],
          };
          tracker.current = current;
          let c: FixCtx = { ...ctx, current };
          const feedback = renderFeedback(io.history);
          const messages: ModelMessage[] = [
            {
              role: "user",
              content: `${failureText(ctx)}\n\n${feedback ? `${feedback}\n\n` : ""}Explore if you need to, then call ${ROOT_CAUSE_TOOL}.`,
            },
          ];
          log(`attempt ${io.attempt} (${current.model}): root cause`);
          for (let round = 0; round < maxRounds; round += 1) {
            const res = await model.complete({
              system: ROOT_CAUSE_SYSTEM,
              context: c.context,
              messages,
              tools: TOOLS,
              toolChoice: explorer.remaining > 0 ? { type: "any" } : { type: "tool", name: ROOT_CAUSE_TOOL },
            });
            messages.push({ role: "assistant", content: assistantBlocks(res) });
            const rc = res.toolCalls.find((t) => t.name === ROOT_CAUSE_TOOL);
            const parsed = rc ? RootCauseInput.safeParse(rc.input) : null;
            if (rc && parsed?.success) {
              const others = res.toolCalls
                .filter((t) => t !== rc)
                .map((t) => skipped(t, "ignored: the root cause was reported"));
              messages.push({
                role: "user",
                content: [...others, { type: "tool_result", toolUseId: rc.id, content: "recorded" }],
              });
              current.rootCause = parsed.data;
              tracker.current = current;
              c = { ...c, messages, current: { ...current } };
              return {
                next: "propose",
                ctx: c,
                summary: `root cause: ${parsed.data.hypothesis.slice(0, 200)}`,
              };
            }
            if (res.toolCalls.length === 0) {
              messages.push({ role: "user", content: `Call ${ROOT_CAUSE_TOOL} now (no code).` });
              continue;
            }
            const results: ContentBlock[] = [];
            for (const call of res.toolCalls) {
              if (isExplorationCall(call.name)) {
                const r = await explorer.run(call);
                results.push({
                  type: "tool_result",
                  toolUseId: call.id,
                  content: r.content,
                  ...(r.isError ? { isError: true } : {}),
                });
              } else if (call.name === ROOT_CAUSE_TOOL) {
                results.push({
                  type: "tool_result",
                  toolUseId: call.id,
                  content: `invalid input: ${parsed?.error?.message ?? ""}`,
                  isError: true,
                });
              } else results.push(skipped(call, `call ${ROOT_CAUSE_TOOL} first; ${call.name} comes after`));
            }
            messages.push({ role: "user", content: results });
          }
          return reject(
            c,
            io,
            modelFeedback("root_cause", `no ${ROOT_CAUSE_TOOL} call within ${maxRounds} model rounds`),
            "root_cause",
          );
        },
      },
      propose: {
        on: ["apply", "root_cause"],
        run: async (ctx, io) => {
          const model = io.model!;
          const messages: ModelMessage[] = [
            ...ctx.messages,
            {
              role: "user",
              content: `Now call ${PROPOSE_EDITS_TOOL} with the smallest fix for that root cause.`,
            },
          ];
          // The history's last message is the tool_result for report_root_cause; merge the instruction into it.
          const last = ctx.messages.at(-1);
          if (last && Array.isArray(last.content)) {
            messages.splice(-2, 2, {
              role: "user",
              content: [
                ...last.content,
                {
                  type: "text",
                  text: `Now call ${PROPOSE_EDITS_TOOL} with the smallest fix for that root cause.`,
                },
              ],
            });
          }
          const res = await model.complete({
            system: PROPOSE_SYSTEM,
            context: ctx.context,
            messages,
            tools: TOOLS,
            toolChoice: { type: "tool", name: PROPOSE_EDITS_TOOL },
          });
          const call = res.toolCalls.find((t) => t.name === PROPOSE_EDITS_TOOL);
          const parsed = call ? ProposeEditsInput.safeParse(call.input) : null;
          if (!call || !parsed?.success) {
            return reject(
              ctx,
              io,
              modelFeedback(
                "propose",
                call
                  ? `invalid ${PROPOSE_EDITS_TOOL} input: ${parsed?.error?.message}`
                  : `no ${PROPOSE_EDITS_TOOL} call`,
              ),
              "propose",
            );
          }
          const current = {
            ...ctx.current!,
            summary: parsed.data.summary,
            files: [...new Set(parsed.data.edits.map((e) => e.path))],
          };
          tracker.current = current;
          log(`attempt ${current.n}: ${parsed.data.edits.length} edit(s) to ${current.files.join(", ")}`);
          return {
            next: "apply",
            ctx: { ...ctx, current, proposal: parsed.data },
            summary: parsed.data.summary.slice(0, 200),
          };
        },
      },
      apply: {
        on: ["gate", "root_cause"],
        run: async (ctx, io) => {
          const proposal = ctx.proposal!;
          const { changes, errors } = await applyEdits(proposal.edits, (p) => repo.readFile(p));
          if (errors.length > 0) return reject(ctx, io, applyFeedback(errors), "apply");
          if (changes.length === 0)
            return reject(ctx, io, modelFeedback("apply", "the edits change nothing"), "apply");
          const patch = renderPatch(changes);
          tracker.current = { ...ctx.current!, patch };
          return {
            next: "gate",
            ctx: { ...ctx, changes, patch, current: { ...ctx.current!, patch } },
            summary: `patch: ${changes.length} file(s)`,
          };
        },
      },
      gate: {
        on: ["verify", "root_cause"],
        run: async (ctx, io) => {
          const verdict = ports.gate(ctx.patch!);
          if (!verdict.allowed) {
            log(
              `attempt ${ctx.current?.n}: blocked by the policy gate (${verdict.violations.map((v) => v.rule).join(", ")})`,
            );
            return reject(
              { ...ctx, gate: verdict },
              io,
              policyFeedback(verdict.violations, ctx.patch!),
              "policy",
              verdict.violations.map(
                (v) => `[${v.rule}] ${v.file ?? ""}${v.line ? `:${v.line}` : ""} ${v.message}`,
              ),
            );
          }
          return {
            next: "verify",
            ctx: { ...ctx, gate: verdict },
            summary: `policy: ${verdict.rules.length} rule(s) passed`,
          };
        },
      },
      verify: {
        on: ["fixed", "root_cause"],
        run: async (ctx, io) => {
          log(`attempt ${ctx.current?.n}: verifying in fresh sandboxes`);
          const v = await ports.verify({
            patch: ctx.patch!,
            changes: ctx.changes,
            failing: ctx.failingIds,
            signal: io.signal,
          });
          if (!v.ok) {
            return reject(
              { ...ctx, verification: v },
              io,
              verifyFeedback({ ...v, excerpt: clip(io.redactor.redact(v.excerpt)) }),
              "verify",
            );
          }
          const attemptLog = closeAttempt(ctx, io, "accepted", "");
          const accepted = {
            ...(ctx.current?.rootCause ? { rootCause: ctx.current.rootCause } : {}),
            ...(ctx.current?.summary ? { summary: ctx.current.summary } : {}),
          };
          return {
            next: "fixed",
            ctx: { ...ctx, verification: v, attemptLog, accepted, current: null },
            summary: `verified over ${v.runs} run(s)`,
          };
        },
      },
      fixed: { terminal: "completed" },
      flaky: { terminal: "completed" },
      nothing: { terminal: "failed" },
      no_model: { terminal: "failed" },
    },
  });
}

function skipped(call: ToolCall, why: string): ContentBlock {
  return { type: "tool_result", toolUseId: call.id, content: why, isError: true };
}

export function initialFixCtx(): FixCtx {
  return {
    failures: [],
    failingIds: [],
    excerpt: "",
    testCommand: null,
    flaky: null,
    earlyStop: null,
    baseOutcomes: new Map(),
    context: "",
    contextSummary: null,
    messages: [],
    current: null,
    proposal: null,
    attemptLog: [],
    changes: [],
    patch: null,
    gate: null,
    verification: null,
    accepted: null,
  };
}

export interface FixRun {
  result: FixResult;
  trace: Trace;
  /** The accepted patch (FIXED only). */
  patch: string | null;
  /** The verified file changes of the accepted patch (FIXED only, when the verify port reports them). */
  changes: FileWrite[] | null;
  ctx: FixCtx;
}

function outcomeOf(run: RunResult<FixCtx>): { outcome: FixOutcome; reason: string } {
  const ctx = run.ctx;
  if (run.reason === "completed") {
    if (run.state === "flaky") {
      const f = ctx.flaky!;
      return {
        outcome: "FLAKY",
        reason: `the failing test(s) passed in ${f.passes} of ${f.runs} reruns on unchanged code`,
      };
    }
    return {
      outcome: "FIXED",
      reason: `a patch was verified: ${ctx.failingIds.length} failing test(s) now pass and nothing else broke`,
    };
  }
  if (run.state === "nothing")
    return { outcome: "GAVE_UP", reason: "no failing test was found: nothing to fix" };
  if (run.state === "no_model") {
    return {
      outcome: "ERROR",
      reason:
        "the failure is real (not flaky), but no model is configured: set ANTHROPIC_API_KEY or pass --model pointing at a configured endpoint",
    };
  }
  const last = ctx.attemptLog.at(-1);
  if (run.reason === "budget_exhausted:attempts") {
    const allBlocked = ctx.attemptLog.length > 0 && ctx.attemptLog.every((a) => a.verdict === "policy");
    if (allBlocked || last?.verdict === "policy") {
      return {
        outcome: "BLOCKED",
        reason: `every patch the model proposed was refused by the policy gate (${ctx.attemptLog.length} attempt(s))`,
      };
    }
    return {
      outcome: "GAVE_UP",
      reason: `no verified fix after ${run.attempts} attempt(s); last: ${last?.reason || "—"}`,
    };
  }
  if (run.reason.startsWith("budget_exhausted:")) {
    return {
      outcome: "BUDGET_EXHAUSTED",
      reason:
        `the ${run.reason.slice("budget_exhausted:".length)} budget ran out: ${run.error?.message ?? ""}`.trim(),
    };
  }
  if (run.reason === "cancelled") return { outcome: "ERROR", reason: "the job was cancelled" };
  return {
    outcome: "ERROR",
    reason: `${run.error?.message ?? run.reason}${run.error?.hint ? ` (${run.error.hint})` : ""}`,
  };
}

/** Branch name for a fix: `retrace/fix-<first 8 safe characters of the id>`. */
export function fixBranchName(id: string): string {
  const short =
    id
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .slice(0, 8) || "job";
  return `retrace/fix-${short}`;
}

/** Runs the fix pipeline end to end and returns the result document, the trace and the patch. */
export async function runFix(ports: FixPorts, options: FixOptions): Promise<FixRun> {
  const redactor = ports.redactor ?? new Redactor();
  const started = (ports.clock ?? { now: () => Date.now() }).now();
  const tracker: AttemptTracker = { current: null };
  const machine = buildFixMachine({ ...ports, redactor }, options, tracker);
  const run = await runMachine(machine, initialFixCtx(), {
    ...(options.budget ? { budget: options.budget } : {}),
    ...(ports.clock ? { clock: ports.clock } : {}),
    ...(ports.signal ? { signal: ports.signal } : {}),
    model: ports.model,
    ...(ports.models ? { models: ports.models } : {}),
    ...(options.maxOutputTokens ? { defaultMaxTokens: options.maxOutputTokens } : {}),
    ...(options.job ? { job: options.job } : {}),
    redactor,
  });
  const ctx = run.ctx;
  let attemptLog = ctx.attemptLog;
  const open = tracker.current;
  if (open && !attemptLog.some((a) => a.n === open.n)) {
    // The run ended inside an attempt (budget, error): record it, with why.
    const c = open;
    const tokens = Math.max(
      0,
      run.usage.inputTokens +
        run.usage.outputTokens +
        run.usage.cacheReadTokens +
        run.usage.cacheWriteTokens -
        c.tokensAtStart,
    );
    attemptLog = [
      ...attemptLog,
      {
        n: c.n,
        model: c.model,
        ...(c.rootCause ? { rootCause: redactor.redact(c.rootCause.hypothesis) } : {}),
        ...(c.summary ? { summary: redactor.redact(c.summary) } : {}),
        files: c.files,
        ...(c.patch ? { patch: redactor.redact(c.patch) } : {}),
        verdict: run.reason.startsWith("budget_exhausted") ? "budget" : "error",
        reason: redactor.redact(run.error?.message ?? run.reason),
        violations: [],
        tokens,
        costUsd: Math.max(0, Math.round((run.costUsd - c.costAtStart) * 1e6) / 1e6),
      },
    ];
  }
  const { outcome, reason } = outcomeOf({ ...run, ctx: { ...ctx, attemptLog } });
  let branch: string | null = null;
  let commit: string | null = null;
  const patch = outcome === "FIXED" ? ctx.patch : null;
  if (outcome === "FIXED" && patch && ports.publish) {
    const message = `Fix ${ctx.failingIds.slice(0, 3).join(", ")}\n\n${ctx.accepted?.summary ?? ""}\n\nProposed by Retrace and verified in a sandbox. A human must review it before merging.`;
    const published = await ports.publish({
      branch: fixBranchName(options.id),
      patch,
      ...(ctx.verification?.changes ? { changes: ctx.verification.changes } : {}),
      message: redactor.redact(message),
    });
    branch = published.branch;
    commit = published.commit;
  }
  const tokens =
    run.usage.inputTokens + run.usage.outputTokens + run.usage.cacheReadTokens + run.usage.cacheWriteTokens;
  const result: FixResult = {
    id: options.id,
    outcome,
    reason: redactor.redact(reason),
    attempts: attemptLog.length,
    tokens,
    costUsd: run.costUsd,
    branch,
    commit,
    failingTests: ctx.failingIds,
    testCommand: ctx.testCommand,
    flaky: ctx.flaky,
    verification:
      outcome === "FIXED" && ctx.verification
        ? {
            runs: ctx.verification.runs,
            tests: ctx.verification.tests,
            ...(ctx.verification.antiGaming ? { antiGaming: ctx.verification.antiGaming } : {}),
          }
        : null,
    attemptLog,
    durationMs: Math.max(0, (ports.clock ?? { now: () => Date.now() }).now() - started),
  };
  const changes = outcome === "FIXED" ? (ctx.verification?.changes ?? null) : null;
  return { result, trace: run.trace, patch, changes, ctx: { ...ctx, attemptLog } };
}

/** The markdown for `pr.md` of a finished run: PR body when FIXED, the honest report otherwise. Redacted. */
export function fixReportMarkdown(run: FixRun, redactor: Redactor): string {
  const ctx = run.ctx;
  return renderFixReport({
    result: run.result,
    excerpt: ctx.excerpt,
    ...(ctx.accepted?.rootCause ? { rootCause: ctx.accepted.rootCause } : {}),
    ...(ctx.accepted?.summary ? { summary: ctx.accepted.summary } : {}),
    ...(run.patch ? { patch: run.patch } : {}),
    ...(ctx.gate?.allowed ? { policyRules: ctx.gate.rules } : {}),
    stackFiles: [
      ...new Set(
        ctx.failures.flatMap((f) => [...(f.file ? [f.file] : []), ...f.frames.map((fr) => fr.file)]),
      ),
    ],
    redact: (s) => redactor.redact(s),
  });
}
