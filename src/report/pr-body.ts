/**
 * The fix job's markdown: the draft PR body when a patch was verified, or the honest report of why there is
 * no patch (flaky, blocked, gave up, budget). Pure: takes the result document and evidence, returns markdown.
 * Every piece of text passes through `redact` before it is written.
 */
import { code, fence } from "./markdown.ts";
import type { AttemptRecord, FixResult } from "../fix/result.ts";
import { patchStats } from "../fix/render-diff.ts";

export interface RootCauseNote {
  hypothesis: string;
  evidence: string;
  files: string[];
}

export interface FixReportInput {
  result: FixResult;
  /** The failure excerpt from the log or the base run. */
  excerpt: string;
  /** The accepted attempt's root cause. */
  rootCause?: RootCauseNote;
  /** The accepted attempt's summary of the change. */
  summary?: string;
  /** The accepted patch. */
  patch?: string;
  /** Names of the policy rules the patch passed. */
  policyRules?: string[];
  /** What the policy gate saw but does not block, for the reviewer (one line each). */
  policyWarnings?: string[];
  /** Files that appeared in the failure's stack frames (used for risk notes). */
  stackFiles?: string[];
  /** Secret redaction; identity when absent. */
  redact?: (text: string) => string;
}

const REVIEW_NOTICE =
  "> [!IMPORTANT]\n> This pull request was written by Retrace, an automated tool. **A human must review it before merging.** Retrace never merges.";

/**
 * Model-written prose (a summary, a root cause, its evidence) as a text block, never rendered: the model is steered
 * by the report and log it reads, so its words may hold closing keywords (`Fixes #1` closes that issue when the
 * PR is merged), mentions, images or an unclosed `<!--` that hides the verification below it.
 */
function prose(text: string): string {
  return fence(text, "text");
}

/** Escapes a value for a markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function money(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function attemptsTable(log: readonly AttemptRecord[]): string {
  if (log.length === 0) return "_No model attempt was made._";
  const rows = log.map(
    (a) =>
      `| ${a.n} | ${cell(a.model)} | ${a.verdict} | ${a.reason ? cell(code(a.reason)) : "—"} | ${a.tokens} | ${money(a.costUsd)} |`,
  );
  return ["| # | model | verdict | why | tokens | cost |", "|---|---|---|---|---|---|", ...rows].join("\n");
}

function failedSection(r: FixResult, excerpt: string): string {
  const tests =
    r.failingTests.length > 0
      ? r.failingTests.map((t) => `- ${code(t)}`).join("\n")
      : "- (no test id could be parsed)";
  const cmd = r.testCommand ? `\n\nTest command: ${code(r.testCommand)}` : "";
  return `## What failed\n\n${tests}${cmd}\n\n${fence(excerpt.trim() || "(no output)")}`;
}

function costLine(r: FixResult): string {
  return `Attempts: **${r.attempts}** · tokens: **${r.tokens}** · cost: **${money(r.costUsd)}** · wall time: ${(r.durationMs / 1000).toFixed(1)} s`;
}

function riskNotes(input: FixReportInput): string[] {
  const notes: string[] = [];
  const { result, patch } = input;
  if (patch) {
    const s = patchStats(patch);
    notes.push(`The patch touches ${s.files} file(s): +${s.added} / -${s.removed} lines.`);
    const created = [...patch.matchAll(/^diff --git a\/(\S+) b\/\S+\nnew file mode/gm)].map(
      (m) => m[1] ?? "",
    );
    if (created.length > 0) notes.push(`It creates new file(s): ${created.map(code).join(", ")}.`);
    const touched = [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1] ?? "");
    const stack = new Set(input.stackFiles ?? []);
    const outside = touched.filter((p) => stack.size > 0 && !stack.has(p));
    if (outside.length > 0) {
      notes.push(
        `Changed file(s) not in the failure's stack trace: ${outside.map(code).join(", ")} — check for side effects.`,
      );
    }
  }
  const v = result.verification;
  if (v) {
    const others = v.tests.length - result.failingTests.length;
    notes.push(
      `Verified only by the repository's own tests (${v.tests.length} test(s), ${Math.max(0, others)} of them previously passing); behaviour they do not cover is unverified.`,
    );
  }
  return notes;
}

function fixedBody(input: FixReportInput): string {
  const r = input.result;
  const parts: string[] = [];
  parts.push(
    `# Fix: ${r.failingTests.length > 0 ? r.failingTests.slice(0, 3).map(code).join(", ") : "failing check"}`,
  );
  parts.push(REVIEW_NOTICE);
  parts.push(failedSection(r, input.excerpt));
  if (input.rootCause) {
    const files = input.rootCause.files.map(code).join(", ");
    parts.push(
      `## Root cause\n\n${prose(input.rootCause.hypothesis)}\n\n**Evidence:**\n\n${prose(input.rootCause.evidence)}${files ? `\n\n**Files involved:** ${files}` : ""}`,
    );
  }
  parts.push(`## What changed and why\n\n${input.summary ? prose(input.summary) : "(no summary)"}`);
  if (input.patch)
    parts.push(`<details><summary>The patch</summary>\n\n${fence(input.patch, "diff")}\n\n</details>`);
  if (r.verification) {
    const rows = r.verification.tests.map((t) => `| ${cell(code(t.id))} | ${t.before} | ${t.after} |`);
    parts.push(
      `## Verification\n\nThe patch was applied in ${r.verification.runs} fresh sandbox run(s); every run had to agree.\n\n| test | before | after |\n|---|---|---|\n${rows.join("\n")}`,
    );
  }
  if (r.flaky) {
    parts.push(
      `Before any change, the failing test(s) were rerun ${r.flaky.runs} time(s) on the unchanged base: failed ${r.flaky.failures}/${r.flaky.runs} — a real failure, not a flaky one.`,
    );
  }
  const checks = r.verification?.antiGaming ?? [];
  if (checks.length > 0) {
    parts.push(
      `## Anti-gaming checks passed\n\nOne extra sandbox run of the previously failing tests showed the fix does not game them:\n\n${checks
        .map((c) => `- **${LAYER_NAMES[c.layer] ?? c.layer}: ${c.name}** — ${c.detail}`)
        .join("\n")}`,
    );
  }
  const gap = r.verification?.antiGamingGap;
  if (gap) {
    parts.push(
      `## Anti-gaming checks not made\n\n${gap.replace(/\n/g, " ")}.\n\nThe verification above shows the tests pass with the patch; it does not show that the patch fixes the code rather than the tests' view of it. Read the diff with that in mind.`,
    );
  }
  const rules = input.policyRules ?? [];
  parts.push(
    `## Policy checks passed\n\n${rules.length > 0 ? rules.map((x) => `- ${x}`).join("\n") : "- the deterministic policy gate found no violation"}`,
  );
  const warnings = input.policyWarnings ?? [];
  if (warnings.length > 0) {
    parts.push(
      `## Policy warnings (not blocking, please review)\n\n${warnings.map((x) => `- ${x.replace(/\n/g, " ")}`).join("\n")}`,
    );
  }
  const risks = riskNotes(input);
  if (risks.length > 0) parts.push(`## Risk notes\n\n${risks.map((x) => `- ${x}`).join("\n")}`);
  if (r.attemptLog.length > 1) parts.push(`## Attempts\n\n${attemptsTable(r.attemptLog)}`);
  parts.push(`---\n${costLine(r)}\n\nA human must review this change before merging it.`);
  return parts.join("\n\n") + "\n";
}

function flakyBody(input: FixReportInput): string {
  const r = input.result;
  const f = r.flaky!;
  const rows = f.perTest.map((t) => `| ${cell(code(t.id))} | ${t.passed} | ${t.failed} |`);
  return (
    [
      "# Flaky test(s): no patch",
      failedSection(r, input.excerpt),
      `## Flakiness evidence\n\nThe failing test(s) were rerun ${f.runs} time(s) on the **unchanged** code with ${code(f.command)}${f.fullSuite ? " (full suite: no per-test filter is known for this runner)" : ""}. They passed in ${f.passes} and failed in ${f.failures}.\n\nFailure rate: **${pct(f.failureRate)}** (${pct(f.interval.confidence)} Wilson interval ${pct(f.interval.low)}–${pct(f.interval.high)}).\n\n| test | passed | failed |\n|---|---|---|\n${rows.join("\n")}`,
      "Because the same code both passes and fails, Retrace made no model call and proposes no patch. Stabilise the test (timing, ordering, shared state, randomness) or quarantine it.",
      `---\n${costLine(r)}`,
    ].join("\n\n") + "\n"
  );
}

function noFixBody(input: FixReportInput): string {
  const r = input.result;
  const title: Record<string, string> = {
    GAVE_UP: "Retrace could not find a verified fix",
    BLOCKED: "Retrace's patch was blocked by the policy gate",
    BUDGET_EXHAUSTED: "Retrace ran out of budget before a verified fix",
    ERROR: "Retrace stopped with an error",
  };
  const parts = [
    `# ${title[r.outcome] ?? r.outcome}`,
    `**${r.outcome}**: ${r.reason}`,
    failedSection(r, input.excerpt),
  ];
  if (r.flaky) {
    parts.push(
      `Flaky triage: rerun ${r.flaky.runs} time(s) on the unchanged base, failed ${r.flaky.failures}/${r.flaky.runs} — not flaky.`,
    );
  }
  parts.push(`## Attempts\n\n${attemptsTable(r.attemptLog)}`);
  for (const a of r.attemptLog) {
    const lines = [`### Attempt ${a.n} (${a.model}) — ${a.verdict}`];
    if (a.rootCause) lines.push(`Root cause proposed:\n\n${prose(a.rootCause)}`);
    if (a.summary) lines.push(`Change proposed:\n\n${prose(a.summary)}`);
    lines.push(a.reason ? `Why it was rejected:\n\n${prose(a.reason)}` : "Why it was rejected: —");
    if (a.violations.length > 0) lines.push(a.violations.map((v) => `- ${v}`).join("\n"));
    if (a.patch)
      lines.push(
        `<details><summary>patch (not applied)</summary>\n\n${fence(a.patch, "diff")}\n\n</details>`,
      );
    parts.push(lines.join("\n\n"));
  }
  parts.push(`---\n${costLine(r)}\n\nNo branch was created. A human should look at the failure.`);
  return parts.join("\n\n") + "\n";
}

/** The markdown for `pr.md`: a PR body when FIXED, a report otherwise. Redacted. */
/** How the PR body names each anti-gaming layer. */
const LAYER_NAMES: Record<string, string> = {
  tripwire: "Tripwire",
  "neutral-run": "Neutral run",
  "runner-free": "Runner-free run",
  "real-doubles": "Real-shaped doubles",
  "cold-start": "Cold start",
};

export function renderFixReport(input: FixReportInput): string {
  const redact = input.redact ?? ((s: string) => s);
  const body =
    input.result.outcome === "FIXED"
      ? fixedBody(input)
      : input.result.outcome === "FLAKY" && input.result.flaky
        ? flakyBody(input)
        : noFixBody(input);
  return redact(body);
}
