/**
 * What the reproduction pipeline knows before it runs anything: the job, its ports, and the report as read
 * (sanitized, parsed, the reported and expected behaviour). Shared by the deterministic and the model path.
 */
import { hostLimits } from "../core/host-limits.ts";
import type { ReproJobSpec } from "../core/job.ts";
import { type SanitizeReport, sanitizeReport } from "../core/sanitize.ts";
import { InfrastructureError } from "../core/errors.ts";
import { measuredCpu, withinCpuTime } from "../core/time-limit.ts";
import { boundReport } from "./bound-markdown.ts";
import { MAX_REPORT_CHARS } from "./bounded.ts";
import { emptyReport, type ParsedReport, parseReport } from "./parse-report.ts";
import type { ReproPorts } from "./ports.ts";
import { type ReportedExpectations, reportedExpectations } from "./reported-behaviour.ts";

/** The report as the pipeline read it. */
export interface ReportReading {
  /**
   * The issue as a reader sees it (`sanitize`): hidden comments and elements, invisible and bidi characters in
   * prose removed; code byte-for-byte. Everything below is read from it, so the model, the matcher and the
   * maintainer all go by the same text.
   */
  sanitized: SanitizeReport;
  report: ParsedReport;
  expectations: ReportedExpectations;
  /** Why the report could not be read (too long, or its markdown too costly to parse); null when it was. */
  unreadable: string | null;
}

/** Everything the pipeline learnt before deciding: shared by the deterministic and the model path. */
export interface ReproContext extends ReportReading {
  spec: ReproJobSpec;
  ports: ReproPorts;
  startedAt: number;
  redact: (s: string) => string;
}

const NOTHING_REMOVED: SanitizeReport = {
  text: "",
  removed: { comments: 0, hiddenElements: 0, invisibleChars: 0, altTexts: 0, titles: 0, definitions: 0 },
  codeWarnings: [],
};

/**
 * The host, not the report: its parse was starved of CPU twice (a loaded host), so nothing is said about the
 * report — an infrastructure error, which a retry on a less busy host answers.
 */
export function hostBusy(what: string, message: string): InfrastructureError {
  return new InfrastructureError(
    `${what} could not be read because ${message} (RETRACE_HOST_LIMITS parseTimeMs counts CPU time)`,
    "run the job again when the host is less loaded",
  );
}

/**
 * Reads the report as a reader sees it: sanitized, then parsed. Reading is bounded: over GitHub's size limit
 * nothing is parsed, and the parse itself has a time limit.
 */
export function readReport(
  markdown: string,
  /** Host CPU the sanitize and parse may take (what is left of the report's reading budget). */
  limitMs = hostLimits().parseTimeMs,
): Omit<ReportReading, "expectations"> {
  const unreadable = (why: string) => ({
    sanitized: NOTHING_REMOVED,
    report: emptyReport(markdown),
    unreadable: why,
  });
  const limits = hostLimits();
  if (markdown.length > limits.reportChars)
    return unreadable(
      `the report is ${markdown.length} characters long, over ${limits.reportChars === MAX_REPORT_CHARS ? "GitHub's" : "the operator's (RETRACE_HOST_LIMITS reportChars)"} ${limits.reportChars}-character limit for an issue, so it was not read`,
    );
  // Shapes whose parse cost grows faster than the text (deep nesting, long delimiter runs) are neutralised
  // first, in linear time, or the report refused; a real report passes unchanged.
  const bounded = boundReport(markdown);
  if (bounded.refused) return unreadable(bounded.refused);
  const parsed = withinCpuTime(
    () => {
      const sanitized = sanitizeReport(bounded.text);
      return { sanitized, report: parseReport(sanitized.text) };
    },
    Math.max(1, limitMs),
  );
  if (!parsed.ok && parsed.reason === "busy") throw hostBusy("the report's markdown", parsed.message);
  if (!parsed.ok)
    return unreadable(
      `the report's markdown could not be read: it ${parsed.message} (deeply nested quotes or lists, or long runs of \`[\`, \`*\` or \`_\`)`,
    );
  return { ...parsed.value, unreadable: null };
}

/** The parse step's line: what was read, and what sanitizing removed. */
export function readingSummary(read: Omit<ReportReading, "expectations">): string {
  if (read.unreadable) return `not read: ${read.unreadable}`;
  const r = read.report;
  const removed = Object.entries(read.sanitized.removed)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  return [
    `${r.blocks.length} block(s): ${r.blocks.map((b) => `${b.kind}/${b.language}`).join(", ") || "none"}; ${r.versions.length} version mention(s)`,
    ...(removed.length ? [`hidden text removed: ${removed.join(", ")}`] : []),
    ...read.sanitized.codeWarnings,
  ].join("; ");
}

export function expectationsSummary(e: ReportedExpectations): string {
  return `reported ${e.actual.kind} from ${e.actual.source}`;
}

/**
 * What the report says happens and should happen, with the same time limit as its parse: the patterns that read
 * the reporter's code and output run after the parse, on the same hostile text (a 60,000-space line in an
 * `assert` call cost 20 s of host CPU in one of them). Past the limit nothing was reported, and the report counts
 * as unreadable, naming why.
 */
export function readExpectations(
  report: ParsedReport,
  /** Host CPU it may take: what is left of the report's reading budget after its parse. */
  limitMs = hostLimits().parseTimeMs,
): {
  expectations: ReportedExpectations;
  unreadable: string | null;
} {
  const read = withinCpuTime(() => reportedExpectations(report), Math.max(1, limitMs));
  if (read.ok) return { expectations: read.value, unreadable: null };
  if (read.reason === "busy") throw hostBusy("what the report says happens", read.message);
  return {
    expectations: reportedExpectations(emptyReport("")),
    unreadable: `what the report says happens could not be read: it ${read.message} (long runs of spaces in its code or output)`,
  };
}

/** A reading of nothing, before the parse step. */
export function unread(markdown: string): ReportReading {
  const report = emptyReport(markdown);
  return { sanitized: NOTHING_REMOVED, report, expectations: reportedExpectations(report), unreadable: null };
}

/**
 * The pipeline's context for a report, read outside the loop engine (the parse bench measures this): its parse
 * and what it says happens, within one budget of host CPU as in the pipeline; `readCpuMs` is what they took.
 */
export function createContext(spec: ReproJobSpec, ports: ReproPorts): ReproContext & { readCpuMs: number } {
  const startedAt = ports.clock.now();
  const budget = hostLimits().parseTimeMs;
  const [read, parseMs] = measuredCpu(() => readReport(spec.markdown, budget));
  const [expected, expectMs] = read.unreadable
    ? [{ expectations: reportedExpectations(emptyReport("")) }, 0]
    : measuredCpu(() => readExpectations(read.report, budget - parseMs));
  return {
    spec,
    ports,
    startedAt,
    redact: ports.redact ?? ((s) => s),
    ...read,
    ...expected,
    readCpuMs: parseMs + expectMs,
  };
}
