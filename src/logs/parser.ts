/**
 * The contract between the engine and one format parser. A parser is a small state machine fed
 * one normalized line at a time (ANSI, timestamps and runner paths already removed); it reports
 * failures and test outcomes to a sink and says whether a line belonged to it ("claimed"), so
 * that later, looser parsers (the generic `file:line: message` form) do not read it again.
 */
import type { FailureCategory, TestOutcome } from "./failure.ts";

/** A failure as a parser reports it; the engine fills in `format`, caps sizes and deduplicates. */
export interface FailureDraft {
  category: FailureCategory;
  test?: string | null;
  file?: string | null;
  line?: number | null;
  column?: number | null;
  errorType?: string | null;
  message: string;
  stack?: string | null;
  /** First and last input line numbers of the block. */
  start: number;
  end: number;
  /** A consequence of another failure (npm's "lifecycle script failed", `##[error]` exit codes): dropped when a primary failure exists. */
  secondary?: boolean;
}

/** A runner's own count line (`Tests: 1 failed, 3 passed`, `== 2 failed, 3 passed in 0.5s ==`, `Tests run: 4, Failures: 0`). */
export interface SummaryCounts {
  passed?: number;
  failed: number;
  skipped?: number;
  error?: number;
}

export interface ParserSink {
  failure(draft: FailureDraft): void;
  /**
   * Records a test's outcome. A different outcome for the same id later marks it flaky (a retry), unless
   * `correction` says the later line completes the earlier one (a subtest failing after its test's PASSED).
   */
  test(id: string, outcome: TestOutcome, file?: string | null, correction?: boolean): void;
  /**
   * Reports a runner's summary line: counts, never failures. A format whose summaries all say nothing
   * failed reports no test failures, and a log whose runner summaries all say passed gets nothing from
   * the fallback formats; summary counts fill in `passed`/`skipped` when the log lists no per-test lines.
   */
  summary(counts: SummaryCounts): void;
  /**
   * Says the run failed with nothing named (a test script's exit status, npm's `Test failed.`): no failure, no
   * count, but a result with no failure found lists this format in `unnamedFailuresIn` rather than being called clean.
   */
  unnamed(): void;
  /** Normalizes a path from the log to a repo-relative path (backslashes, runner prefixes). */
  path(p: string): string;
}

export interface FormatParser {
  /** Feeds one normalized line; `lineNo` is its 1-based number in the raw input. Returns true when the line is this format's. */
  line(text: string, lineNo: number): boolean;
  /** End of input: report whatever is pending. */
  end(): void;
}

export interface FormatDefinition {
  /** The name used by `--format` and in results. */
  name: string;
  /** One line for `--help` and error messages. */
  description: string;
  create(sink: ParserSink): FormatParser;
  /** Framing prefix shapes (src/logs/prefix.ts) this format reads itself: it gets such lines as printed. */
  readsPrefixes?: readonly string[];
  /**
   * The lines that can wake this format: until a line matches, the engine does not offer it lines at all; from
   * the first match on (that line included) it is offered every line, as a format without this is. The promise
   * behind it: a fresh parser returns false for every line that does not match, and keeps nothing of it (no
   * report, no state), so skipping those lines changes no result. Broader is always safe; a format whose first
   * lines feed a look-back (a window of recent lines) cannot promise it and leaves this out. Plain patterns only
   * (no flags, no back-references); several are alternatives. The engine tests the sleeping formats' patterns that open
   * with `^` as one expression, which V8 tries at the line's start only: a pattern that can match anywhere costs a scan
   * of every line while its format sleeps.
   */
  wakesOn?: RegExp | readonly RegExp[];
}

/**
 * A copy of `s` that does not keep its parent alive. Lines are slices of the 64 KiB chunks they were
 * read from, and V8 keeps a slice's whole parent string; a kept test id or stack line would pin its chunk.
 */
export function own(s: string): string {
  return s.length < 13 ? s : (s + " ").slice(0, -1);
}

/** Keeps at most `maxLines` lines / `maxChars` characters of a block; later lines are counted, not kept. */
export class BlockBuffer {
  readonly lines: string[] = [];
  private chars = 0;
  private omitted = 0;
  start = 0;
  end = 0;

  constructor(
    private readonly maxLines = 120,
    private readonly maxChars = 12_000,
  ) {}

  push(text: string, lineNo: number): void {
    if (this.start === 0) this.start = lineNo;
    this.end = lineNo;
    if (this.lines.length < this.maxLines && this.chars + text.length <= this.maxChars) {
      this.lines.push(own(text));
      this.chars += text.length + 1;
    } else {
      this.omitted++;
    }
  }

  get empty(): boolean {
    return this.start === 0;
  }

  text(): string {
    const body = trimBlankEdges(this.lines).join("\n");
    return this.omitted > 0 ? `${body}\n… ${this.omitted} more lines` : body;
  }
}

/** Pops entries at or deeper than `indent` from an indentation stack (describe titles, suites). */
export function popToIndent<T extends { indent: number }>(stack: T[], indent: number): void {
  while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
}

export function trimBlankEdges(lines: readonly string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === "") a++;
  while (b > a && lines[b - 1]!.trim() === "") b--;
  return lines.slice(a, b);
}

/**
 * Reads the counts of a runner's summary line (`1 failed, 3 passed`, `2 failed | 3 passed (5)`,
 * `3 passed; 0 failed`): failed, error, passed and skipped words with their numbers.
 */
export function countWords(text: string): SummaryCounts {
  const out = { passed: 0, failed: 0, skipped: 0, error: 0 };
  const re =
    /(\d+) (passed|passing|failed|failing|failures?|errors?|skipped|pending|todo|xfailed|xpassed|ignored)\b/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const n = Number(m[1]);
    const w = m[2]!;
    if (w.startsWith("pass") || w === "xpassed") out.passed += n;
    else if (w.startsWith("fail")) out.failed += n;
    else if (w.startsWith("error")) out.error += n;
    else out.skipped += n;
  }
  return out;
}

/** Removes the common leading indentation of a block of lines. */
export function dedent(lines: readonly string[]): string[] {
  let min = Number.POSITIVE_INFINITY;
  for (const l of lines) {
    if (l.trim() === "") continue;
    const n = l.length - l.trimStart().length;
    if (n < min) min = n;
  }
  if (!Number.isFinite(min) || min === 0) return [...lines];
  return lines.map((l) => l.slice(Math.min(min, l.length - l.trimStart().length)));
}

// Inside a frame's parentheses the path may hold spaces (`at f (spec/deep dir/x y.test.js:3:9)`).
const JS_FRAME =
  /^\s*(?:at\s+)?(?:.*?\(((?:[A-Za-z]:)?[^():]+)|((?:[A-Za-z]:)?[^\s():]+)):(\d+):(\d+)\)?\s*$/;

/**
 * The first JavaScript stack frame that points into the repository (not node internals or node_modules); with
 * `want`, the first such frame whose (mapped) file `want` accepts.
 */
export function jsFrameLocation(
  lines: readonly string[],
  sink: ParserSink,
  want?: (file: string) => boolean,
): { file: string; line: number; column: number } | null {
  for (const l of lines) {
    const t = l.trimStart();
    if (!(t.startsWith("at ") || t.includes("(") || /^[^\s]+:\d+:\d+$/.test(t))) continue;
    // A diff line of an assertion (`+     at compile (lib/x.js:4:2)`) quotes a value, it is no frame.
    if (/^[+-] /.test(t)) continue;
    const m = JS_FRAME.exec(l.replace("file://", ""));
    if (!m) continue;
    const file = (m[1] ?? m[2])!;
    if (file.startsWith("node:") || file.includes("node_modules/") || file.startsWith("internal/")) continue;
    const mapped = underCheckout(sink.path(file), lines);
    if (want && !want(mapped)) continue;
    return { file: mapped, line: Number(m[3]), column: Number(m[4]) };
  }
  return null;
}

/**
 * A machine's absolute path (`/Users/me/proj/test/a.test.ts`) under the directory whose `node_modules/` the same
 * stack's other frames run through (`/Users/me/proj/node_modules/mocha/…`): that directory is the checkout, and
 * the path is taken relative to it. The shortest such directory wins (a workspace package's own `node_modules`
 * sits below the repository's).
 */
function underCheckout(file: string, lines: readonly string[]): string {
  if (!/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  let root: string | null = null;
  for (const l of lines) {
    const i = l.indexOf("/node_modules/");
    if (i < 0) continue;
    const m = /(?:\/|[A-Za-z]:\/)[^\s()]*$/.exec(l.slice(0, i).replace("file://", "").replace(/\\/g, "/"));
    if (!m) continue;
    const dir = `${m[0]}/`;
    if (file.startsWith(dir) && (root === null || dir.length < root.length)) root = dir;
  }
  if (root === null) return file;
  const rest = file.slice(root.length);
  return rest.includes("node_modules/") ? file : rest;
}

/**
 * The line the code frame of a JavaScript error points at (`> 11 |     expect(x)…`, jest, vitest and
 * Playwright print it above the stack): the place of a failure whose `at` frames were cut from the log.
 */
export function codeFrameLine(lines: readonly string[]): number | null {
  for (const l of lines) {
    const m = /^\s*> ?(\d+) \|/.exec(l);
    if (m) return Number(m[1]);
  }
  return null;
}

/**
 * A path the log gives in full (`/Users/me/proj/tests/a.spec.ts`, `C:/work/proj/tests/a.spec.ts`) that ends with
 * a repository path the runner named (`tests/a.spec.ts`) is that file: its checkout directory is the machine's.
 */
export function underKnown(file: string, known: string): string {
  if (file === known || !/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  return file.endsWith(`/${known}`) ? known : file;
}

/**
 * A machine's absolute path (`/home/me/proj/spec/models/user_spec.rb`) taken from the repository's top-level test
 * directory it runs through (`spec/models/user_spec.rb`), for runners whose files always live there (RSpec's
 * `spec/`, minitest's `test/`) and whose log names no checkout. The last such directory in the path wins; a
 * relative path, or one without the directory, is kept.
 */
export function underTopDir(file: string, dir: string | readonly string[]): string {
  if (!/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  let i = -1;
  for (const d of typeof dir === "string" ? [dir] : dir) i = Math.max(i, file.lastIndexOf(`/${d}/`));
  return i < 0 ? file : file.slice(i + 1);
}

const ERROR_LINE =
  /^\s*((?:[A-Za-z_$][\w$]*\.)*(?=[A-Za-z_$])[\w$]*(?:Error|Exception|Failure|Warning|Exit|Interrupt))(?: \[[\w-]+\])?(?::\s?(.*))?$/;

/** Splits `TypeError [ERR_X]: message` into type and message; null when the line is not an error line. */
export function errorLine(text: string): { type: string; message: string } | null {
  const m = ERROR_LINE.exec(text);
  if (!m) return null;
  return { type: m[1]!, message: (m[2] ?? "").trim() };
}

/** Category of a failure from its error type: import and syntax errors are told apart from test failures. */
export function categoryOfError(
  errorType: string | null | undefined,
  fallback: FailureCategory,
): FailureCategory {
  if (!errorType) return fallback;
  if (/^(ImportError|ModuleNotFoundError)$/.test(errorType)) return "import";
  if (/^(SyntaxError|IndentationError|TabError)$/.test(errorType)) return "syntax";
  return fallback;
}
