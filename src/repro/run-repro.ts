/**
 * The reproduction pipeline: parse report → extract & complete code → install pinned deps → run (repeated)
 * → evaluate → version matrix → verdict. Deterministic without a model; with one, `model-assist.ts` writes
 * or refines the script inside the loop engine's bounds.
 */
import { scrubInternalNames } from "../core/internal-names.ts";
import type { ReproJobSpec } from "../core/job.ts";
import { type SanitizeReport, sanitizeReport } from "../core/sanitize.ts";
import type { Trace } from "../core/trace.ts";
import { completeProgram, type Program } from "./complete.ts";
import { type ExecutedRun, executeRuns } from "./execute.ts";
import { foldRuns, matchRun, type RunsVerdict } from "./match.ts";
import { modelMode, runModelAssist } from "./model-assist.ts";
import { findStaticNeeds } from "./needs.ts";
import { NPM_GLOBALS, normalizePypiName, npmIdentifier } from "./known-modules.ts";
import { emptyReport, type ParsedReport, parseReport } from "./parse-report.ts";
import { MAX_REPORT_CHARS, PARSE_TIME_LIMIT_MS, withinTimeLimit } from "./bounded.ts";
import type { DependencyRequest, InstallResult, ReproEvent, ReproPorts } from "./ports.ts";
import { type ReportedExpectations, reportedExpectations } from "./reported-behaviour.ts";
import type { Evidence, MatrixEntry, PackageVersion, ReproLanguage, ReproResult, Verdict } from "./result.ts";

export interface ReproOutcome {
  result: ReproResult;
  /** The steps taken, for trace.json. */
  events: ReproEvent[];
  /** The files that ran (entry included), for the reproduction file and for debugging. */
  program: Program | null;
  /** The loop engine's trace, on the model path. */
  trace?: Trace;
}

/** Everything the pipeline learnt before deciding: shared by the deterministic and the model path. */
export interface ReproContext {
  spec: ReproJobSpec;
  ports: ReproPorts;
  /**
   * The issue as a reader sees it (`sanitize`): hidden comments and elements, invisible and bidi characters in
   * prose removed; code byte-for-byte. Everything below is read from it, so the model, the matcher and the
   * maintainer all go by the same text.
   */
  sanitized: SanitizeReport;
  report: ParsedReport;
  expectations: ReportedExpectations;
  startedAt: number;
  events: ReproEvent[];
  redact: (s: string) => string;
  /** Why the report could not be read (too long, or its markdown too costly to parse); null when it was. */
  unreadable: string | null;
}

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
}

export async function runRepro(spec: ReproJobSpec, ports: ReproPorts): Promise<ReproOutcome> {
  const ctx = createContext(spec, ports);
  if (ctx.unreadable) {
    return {
      result: noCodeResult(ctx, {
        reasons: [`Not run: ${ctx.unreadable}.`],
        questions: [
          "Could you shorten the report to the code that shows the problem, its output or error, and the versions you use (plain paragraphs and code blocks)?",
        ],
      }),
      events: ctx.events,
      program: null,
    };
  }
  const program = step(
    ctx,
    "complete",
    () => completeProgram(ctx.report),
    (p) =>
      p
        ? `${p.language} program, entry ${p.entry}, ${p.completions.length} completion(s)`
        : "nothing runnable in the report",
  );
  // The deterministic attempt always comes first and is free; the model is asked only when it can add
  // something (no code, placeholders, a run that did not match).
  const attempt = program ? await attemptProgram(ctx, program) : null;
  const mode = ports.model ? modelMode(program, attempt) : null;
  if (mode) return runModelAssist(ctx, { mode, program, deterministic: attempt });
  if (!program || !attempt) return { result: noCodeResult(ctx), events: ctx.events, program: null };
  return {
    result: buildResult(ctx, program, attempt, {
      attempts: 1,
      tokens: 0,
      costUsd: 0,
      model: null,
      risks: [],
      author: "report",
    }),
    events: ctx.events,
    program,
  };
}

export function createContext(spec: ReproJobSpec, ports: ReproPorts): ReproContext {
  const startedAt = ports.clock.now();
  const ctx: ReproContext = {
    spec,
    ports,
    sanitized: undefined as unknown as SanitizeReport,
    report: undefined as unknown as ParsedReport,
    expectations: undefined as unknown as ReportedExpectations,
    startedAt,
    events: [],
    redact: ports.redact ?? ((s) => s),
    unreadable: null,
  };
  // The parser reads the issue as a reader sees it; what sanitizing removed is part of the step's summary.
  // Reading is bounded: over GitHub's size limit nothing is parsed, and the parse itself has a time limit.
  const unreadable = (why: string): ParsedReport => {
    ctx.unreadable = why;
    ctx.sanitized = {
      text: "",
      removed: { comments: 0, hiddenElements: 0, invisibleChars: 0, altTexts: 0, titles: 0, definitions: 0 },
      codeWarnings: [],
    };
    return emptyReport(spec.markdown);
  };
  ctx.report = step(
    ctx,
    "parse",
    () => {
      if (spec.markdown.length > MAX_REPORT_CHARS)
        return unreadable(
          `the report is ${spec.markdown.length} characters long, over GitHub's ${MAX_REPORT_CHARS}-character limit for an issue, so it was not read`,
        );
      const parsed = withinTimeLimit(() => {
        const sanitized = sanitizeReport(spec.markdown);
        return { sanitized, report: parseReport(sanitized.text) };
      }, PARSE_TIME_LIMIT_MS);
      if (!parsed.ok)
        return unreadable(
          `the report's markdown could not be read: it ${parsed.message} (deeply nested quotes or lists, or long runs of \`[\`, \`*\` or \`_\`)`,
        );
      ctx.sanitized = parsed.value.sanitized;
      return parsed.value.report;
    },
    (r) => {
      if (ctx.unreadable) return `not read: ${ctx.unreadable}`;
      const removed = Object.entries(ctx.sanitized.removed)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`);
      return [
        `${r.blocks.length} block(s): ${r.blocks.map((b) => `${b.kind}/${b.language}`).join(", ") || "none"}; ${r.versions.length} version mention(s)`,
        ...(removed.length ? [`hidden text removed: ${removed.join(", ")}`] : []),
        ...ctx.sanitized.codeWarnings,
      ].join("; ");
    },
  );
  ctx.expectations = step(
    ctx,
    "expectations",
    () => reportedExpectations(ctx.report),
    (e) => `reported ${e.actual.kind} from ${e.actual.source}`,
  );
  return ctx;
}

function step<T>(ctx: ReproContext, name: string, fn: () => T, summary: (value: T) => string): T {
  const t0 = ctx.ports.clock.now();
  const value = fn();
  record(ctx, name, t0, summary(value));
  return value;
}

export function record(
  ctx: ReproContext,
  name: string,
  t0: number,
  summary: string,
  data?: Record<string, unknown>,
): void {
  const now = ctx.ports.clock.now();
  const event: ReproEvent = {
    step: name,
    atMs: t0 - ctx.startedAt,
    durationMs: now - t0,
    summary: ctx.redact(summary),
  };
  if (data) event.data = data;
  ctx.events.push(event);
  ctx.ports.onEvent?.(event);
}

/** Pins: the version the report names for each dependency (a lone "version 1.2.3" goes to a lone dependency). */
export function pinDependencies(
  program: Program,
  report: ParsedReport,
): (DependencyRequest & { source: PackageVersion["source"] })[] {
  const key = (n: string) => (program.ecosystem === "pypi" ? normalizePypiName(n) : n.toLowerCase());
  const mentions = new Map(report.versions.map((v) => [key(v.name), v.version]));
  // A version the report's own session printed: `_.VERSION => "4.17.4"`, `require('x/package').version // 1.2.3`.
  for (const b of report.blocks) {
    for (const c of b.checks) {
      if (c.role !== "actual" || c.kind !== "output") continue;
      const v = /^['"]?v?(\d+\.\d+\.\d+(?:-[\w.]+)?)['"]?$/.exec(c.value.trim())?.[1];
      if (!v) continue;
      const ident = /^([\w$]+)\.(?:VERSION|version)$/.exec(c.code.replace(/;$/, ""))?.[1];
      const fromRequire = /require\(\s*['"]([^'"]+?)\/package(?:\.json)?['"]\s*\)\.version/.exec(c.code)?.[1];
      const pkg =
        fromRequire ??
        (ident
          ? (program.dependencies.find((d) => npmIdentifier(d) === ident || d === ident) ??
            NPM_GLOBALS[ident] ??
            null)
          : null);
      if (pkg && !mentions.has(key(pkg))) mentions.set(key(pkg), v);
    }
  }
  return program.dependencies.map((name) => {
    let version = mentions.get(key(name)) ?? null;
    if (!version && program.dependencies.length === 1 && report.bareVersions.length === 1)
      version = report.bareVersions[0]!;
    return { name, version, source: version ? "reported" : "unpinned" };
  });
}

async function install(
  ctx: ReproContext,
  program: Program,
  packages: DependencyRequest[],
  label: string,
): Promise<InstallResult | null> {
  if (packages.length === 0) return null;
  const t0 = ctx.ports.clock.now();
  ctx.ports.onProgress?.(
    `installing ${label}: ${packages.map((p) => spec(p.name, p.version, program.ecosystem)).join(", ")}`,
  );
  const res = await ctx.ports.installer.install({
    ecosystem: program.ecosystem,
    packages,
    ...(ctx.ports.installTimeoutMs ? { timeoutMs: ctx.ports.installTimeoutMs } : {}),
    ...(ctx.ports.signal ? { signal: ctx.ports.signal } : {}),
  });
  record(
    ctx,
    "install",
    t0,
    `${label}: ${res.installed.map((p) => `${p.name}@${p.version}`).join(", ") || "nothing"}${res.cached ? " (cached)" : ""}${
      res.failures.length
        ? `; failed: ${res.failures.map((f) => `${f.name}${f.version ? `==${f.version}` : ""}`).join(", ")}`
        : ""
    }`,
  );
  return res;
}

function spec(name: string, version: string | null, ecosystem: Program["ecosystem"]): string {
  if (!version) return name;
  return ecosystem === "pypi" ? `${name}==${version}` : `${name}@${version}`;
}

async function runnableFiles(
  ctx: ReproContext,
  program: Program,
): Promise<{ files: Record<string, string>; entry: string }> {
  if (program.language !== "typescript") return { files: program.files, entry: program.entry };
  const files: Record<string, string> = {};
  const ext = program.moduleFormat === "esm" ? ".mjs" : ".cjs";
  const t0 = ctx.ports.clock.now();
  for (const [path, code] of Object.entries(program.files)) {
    if (/\.[cm]?ts$/.test(path)) {
      const out = await ctx.ports.transpile(code, { format: program.moduleFormat ?? "esm", filename: path });
      files[path.replace(/\.[cm]?ts$/, path === program.entry ? ext : ".js")] = out;
    } else files[path] = code;
  }
  record(ctx, "transpile", t0, `TypeScript → ${ext} (${program.moduleFormat})`);
  return { files, entry: program.entry.replace(/\.ts$/, ext) };
}

/** A TypeScript parse error from the transpiler, as a detail and a question naming the line; null for other errors. */
function transpileFailure(error: unknown): { detail: string; question: string } | null {
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
  return {
    detail,
    question: lineText
      ? `This line of the TypeScript does not parse: \`${lineText}\` (${text}). Could you paste the exact code you run, as a complete snippet (no \`...\` or elided parts)?`
      : `The TypeScript in the report does not parse (${text}). Could you paste the exact code you run, as a complete snippet?`,
  };
}

/** Run one program: static needs, installs, repeated runs, evaluation, version matrix. */
export async function attemptProgram(ctx: ReproContext, program: Program): Promise<AttemptOutcome> {
  const { ports, spec: job, expectations } = ctx;
  const empty = (
    verdict: Verdict,
    questions: string[],
    reasons: string[],
    versions: PackageVersion[] = [],
  ): AttemptOutcome => ({
    verdict,
    fold: null,
    runs: [],
    versions,
    matrix: [],
    matrixSummary: null,
    questions,
    reasons,
    runtimeVersion: null,
  });

  const needs = findStaticNeeds(program);
  if (needs.length > 0) {
    record(ctx, "needs", ports.clock.now(), needs.map((n) => n.reason).join("; "));
    return empty(
      "NEEDS_INFO",
      needs.map((n) => n.question),
      needs.map((n) => `Not run: ${n.reason}.`),
    );
  }

  const pins = pinDependencies(program, ctx.report);
  const installed = await install(
    ctx,
    program,
    pins.map(({ name, version }) => ({ name, version })),
    "reported versions",
  );
  const versions: PackageVersion[] = pins.map((p) => ({
    name: p.name,
    version: installed?.installed.find((i) => i.name === p.name)?.version ?? p.version ?? "latest",
    ecosystem: program.ecosystem,
    source: p.source,
  }));
  if (installed && installed.failures.length > 0) {
    const reasons = installed.failures.map(
      (f) => `could not install ${spec(f.name, f.version, program.ecosystem)}: ${f.reason}`,
    );
    return empty(
      "NEEDS_INFO",
      installed.failures.map((f) =>
        f.version
          ? `Is \`${spec(f.name, f.version, program.ecosystem)}\` the exact version you use? It could not be installed here; does the problem also happen with a version that installs from a wheel/tarball (or with the standard library alone)?`
          : `Which version of \`${f.name}\` do you use? It could not be installed here.`,
      ),
      reasons,
      versions,
    );
  }

  let runnable: { files: Record<string, string>; entry: string };
  try {
    runnable = await runnableFiles(ctx, program);
  } catch (error) {
    const failure = transpileFailure(error);
    if (!failure) throw error;
    record(ctx, "transpile", ports.clock.now(), `the TypeScript does not parse: ${failure.detail}`);
    return empty(
      "NEEDS_INFO",
      [failure.question],
      [`Not run: the report's TypeScript does not parse (${failure.detail}).`],
      versions,
    );
  }
  const { files, entry } = runnable;
  const t0 = ports.clock.now();
  // The latest release is looked up, installed and run while the reported configuration runs.
  const latestPromise =
    ports.compareLatest !== false && pins.some((p) => p.source === "reported")
      ? latestEntry(ctx, program, pins, versions, files, entry)
      : Promise.resolve(null);
  const runs = await executeRuns({
    ports,
    jobId: job.id,
    program,
    files,
    runnableEntry: entry,
    install: installed,
    runs: job.runs,
    label: "reported versions",
  });
  const matches = runs.map((r) =>
    matchRun(expectations.actual, r, expectations.expectedOutput, expectations.expectedException),
  );
  const fold = foldRuns(matches);
  record(
    ctx,
    "run",
    t0,
    `${job.runs} run(s) of the reported configuration: ${fold.verdict} (${fold.reproducedRuns}/${job.runs}) — ${fold.detail}`,
    {
      exitCodes: runs.map((r) => r.exitCode),
      stoppedBy: runs.map((r) => r.stoppedBy),
      durationsMs: runs.map((r) => r.durationMs),
    },
  );

  const questions = [...fold.questions];
  const two = ctx.expectations.twoVersions;
  if (two && !two.bad && fold.verdict !== "REPRODUCED") {
    questions.unshift(
      `The report shows the same code with different results on ${two.sides.map((s) => `\`${s.label}\``).join(" and ")}: which one is the wrong behaviour, and which version do you run?`,
    );
  }
  const reasons: string[] = [];
  for (const p of pins) {
    if (p.source === "unpinned" && fold.verdict !== "REPRODUCED") {
      questions.push(
        `Which version of \`${p.name}\` do you use? The report names none, so the latest was used.`,
      );
    }
  }
  const runtimeVersion = runs.find((r) => r.runtimeVersion)?.runtimeVersion ?? null;
  const reportedRuntime = ctx.report.runtime;
  if (
    reportedRuntime &&
    runtimeVersion &&
    (fold.verdict === "NOT_REPRODUCED" || fold.verdict === "PARTIAL") &&
    reportedRuntime.name === program.runtime &&
    !runtimeVersion.startsWith(reportedRuntime.version.replace(/\.x$/, "").split(".").slice(0, 2).join("."))
  ) {
    reasons.push(
      `The report names ${program.runtime} ${reportedRuntime.version}; the sandbox has ${runtimeVersion}.`,
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
  const latest = await latestPromise;
  if (
    latest &&
    (fold.verdict === "REPRODUCED" || fold.verdict === "PARTIAL" || fold.verdict === "NOT_REPRODUCED")
  ) {
    matrix.push(latest.entry);
    matrixSummary = matrixLine(fold.verdict, describeVersions(versions, program.ecosystem), latest);
  }
  return {
    verdict: fold.verdict,
    fold,
    runs,
    versions,
    matrix,
    matrixSummary,
    questions,
    reasons,
    runtimeVersion,
  };
}

function describeVersions(v: PackageVersion[], ecosystem: Program["ecosystem"]): string {
  return v.map((p) => spec(p.name, p.version, ecosystem)).join(", ");
}

async function latestEntry(
  ctx: ReproContext,
  program: Program,
  pins: (DependencyRequest & { source: PackageVersion["source"] })[],
  reportedVersions: PackageVersion[],
  files: Record<string, string>,
  entry: string,
): Promise<LatestOutcome | null> {
  const { ports } = ctx;
  const t0 = ports.clock.now();
  const latest = await Promise.all(
    pins.map(async (p) => ({ ...p, latest: await ports.registry.latestVersion(program.ecosystem, p.name) })),
  );
  const reported = describeVersions(reportedVersions, program.ecosystem);
  const unknown = latest.filter((p) => p.source === "reported" && !p.latest);
  if (unknown.length > 0) {
    record(ctx, "matrix", t0, `latest unknown for ${unknown.map((u) => u.name).join(", ")}`);
    return {
      entry: {
        label: "latest",
        packages: [],
        reproduced: null,
        runs: 0,
        reproducedRuns: 0,
        note: `latest unknown (${unknown.map((u) => u.name).join(", ")}: registry unreachable)`,
      },
      latestText: "latest unknown",
      summary: `tested on ${reported}; latest unknown (the registry could not be reached)`,
    };
  }
  const differs = latest.some(
    (p) =>
      p.source === "reported" &&
      p.latest &&
      p.latest !== reportedVersions.find((r) => r.name === p.name)?.version,
  );
  if (!differs) {
    record(ctx, "matrix", t0, "the reported versions are the latest");
    return null;
  }
  const installed = await install(
    ctx,
    program,
    latest.map((p) => ({ name: p.name, version: p.latest ?? p.version })),
    "latest versions",
  );
  const packages: PackageVersion[] = latest.map((p) => ({
    name: p.name,
    version: installed?.installed.find((i) => i.name === p.name)?.version ?? p.latest ?? "latest",
    ecosystem: program.ecosystem,
    source: "latest",
  }));
  const latestText = `${describeVersions(packages, program.ecosystem)} (latest)`;
  if (!installed || installed.failures.length > 0) {
    return {
      entry: {
        label: "latest",
        packages,
        reproduced: null,
        runs: 0,
        reproducedRuns: 0,
        note: `could not install ${latestText}`,
      },
      latestText,
      summary: `tested on ${reported}; could not install ${latestText}`,
    };
  }
  const t1 = ports.clock.now();
  const runs = await executeRuns({
    ports,
    jobId: ctx.spec.id,
    program,
    files,
    runnableEntry: entry,
    install: installed,
    runs: ctx.spec.runs,
    label: "latest versions",
  });
  const fold = foldRuns(
    runs.map((r) =>
      matchRun(
        ctx.expectations.actual,
        r,
        ctx.expectations.expectedOutput,
        ctx.expectations.expectedException,
      ),
    ),
  );
  const reproduced =
    fold.verdict === "REPRODUCED"
      ? "yes"
      : fold.verdict === "PARTIAL"
        ? "partial"
        : fold.verdict === "NOT_REPRODUCED"
          ? "no"
          : null;
  record(ctx, "matrix", t1, `latest ${latestText}: ${fold.verdict} (${fold.reproducedRuns}/${runs.length})`);
  return {
    entry: {
      label: "latest",
      packages,
      reproduced,
      runs: runs.length,
      reproducedRuns: fold.reproducedRuns,
      note: fold.detail,
    },
    latestText,
    summary: null,
  };
}

interface LatestOutcome {
  entry: MatrixEntry;
  /** "semver@7.8.6 (latest)". */
  latestText: string;
  /** A fixed line when the latest could not be run ("latest unknown"); null to compose from the verdicts. */
  summary: string | null;
}

/** "reproduces on semver@5.0.0; does not on semver@7.8.6 (latest) — fixed upstream". */
export function matrixLine(reportedVerdict: Verdict, reportedText: string, latest: LatestOutcome): string {
  if (latest.summary) return latest.summary;
  const onReported =
    reportedVerdict === "REPRODUCED"
      ? "reproduces"
      : reportedVerdict === "PARTIAL"
        ? "partly reproduces"
        : "does not reproduce";
  const r = latest.entry.reproduced;
  const onLatest =
    r === "yes"
      ? "reproduces"
      : r === "partial"
        ? "partly reproduces"
        : onReported === "does not reproduce"
          ? "does not either"
          : "does not";
  const word =
    reportedVerdict === "REPRODUCED" && r === "no"
      ? " — fixed upstream"
      : reportedVerdict === "REPRODUCED" && r === "yes"
        ? " — live bug"
        : reportedVerdict === "NOT_REPRODUCED" && r === "yes"
          ? " — regression in the latest release"
          : "";
  return `${onReported} on ${reportedText}; ${onLatest} on ${latest.latestText}${word}`;
}

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
  return redactStrings(buildRawResult(ctx, program, attempt, meta), ctx.redact);
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
          : "no specific output or error";
  const expected = ctx.expectations.expectedOutput;
  return [
    `Decided by: the reported behaviour is ${what}, taken from ${rep.source}; ${
      expected.length > 0
        ? `the expected behaviour is ${expected
            .slice(0, 4)
            .map((e) => `\`${e}\``)
            .join(", ")} (a run showing it is not a reproduction)`
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
  const hasVersions = ctx.report.versions.length > 0;
  const reported = ctx.expectations.actual;
  // The first question names what this report has and what it lacks.
  const calls = ctx.report.inlineCode
    .map((c) => c.value.trim())
    .filter((v) => /[\w$)\]]\(/.test(v) && v.length <= 100);
  const has =
    reported.kind === "exception"
      ? `the error \`${reported.exceptionType}${reported.exceptionMessage ? `: ${reported.exceptionMessage}` : ""}\``
      : reported.kind === "output"
        ? `the output ${reported.output
            .slice(0, 2)
            .map((o) => `\`${o}\``)
            .join(", ")}`
        : null;
  const first =
    calls.length > 0
      ? `The report mentions ${calls
          .slice(0, 2)
          .map((c) => `\`${c}\``)
          .join(
            " and ",
          )} but no complete program: could you paste the code you run as one file, with its imports and inputs?`
      : has
        ? `The report shows ${has} but not the code that produces it: could you add a minimal, self-contained example (one file we can run as-is)?`
        : "Could you add a minimal, self-contained code example that shows the problem (one file we can run as-is)?";
  const questions = extra.questions ?? [
    first,
    ...(reported.kind === "unknown" || reported.kind === "error-unspecified"
      ? [
          "What exactly happens: the full error message and traceback, or the output you see — and what did you expect instead?",
        ]
      : []),
    ...(hasVersions
      ? []
      : ["Which versions do you use (the package, and `python --version` or `node --version`)?"]),
  ];
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
