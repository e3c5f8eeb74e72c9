/**
 * The streaming log parser: feed raw lines (or chunks), get a `ParsedLog` at the end. Pure and
 * incremental: memory is bounded by the caps below whatever the size of the input, so an entry
 * can stream a file of any size through it.
 */
import { UsageError } from "../core/errors.ts";
import { createHostBudget, type Stopped } from "./budget.ts";
import type {
  Failure,
  FailureCategory,
  FormatCounts,
  ParsedLog,
  TestOutcome,
  TestResult,
} from "./failure.ts";
import {
  cleanPath,
  createPathMapper,
  normalizeText,
  type PathOptions,
  stripAnsi,
  stripTimestamp,
} from "./normalize.ts";
import { type FailureDraft, type FormatParser, own, type ParserSink, type SummaryCounts } from "./parser.ts";
import {
  LONG_LINE,
  type LineBatch,
  OP_LINE,
  OP_LINE_ERROR,
  OP_LINE_NONE,
  OP_LONG_END,
  OP_LONG_ERROR,
  OP_LONG_NONE,
  OP_MORE,
} from "./lines.ts";
import { createPrefixStripper, type Decided, type Prefix, prefixOf } from "./prefix.ts";
import { FORMATS, formatNames } from "./registry.ts";

export interface LogParserOptions extends PathOptions {
  /** "auto" (default) runs every parser; a format name runs only that one. */
  format?: string;
  /** Most failures kept (default 500); the rest are counted in `dropped.failures`. */
  maxFailures?: number;
  /**
   * Most test results kept (default 100 000). Results after the cap are only counted in `dropped.tests`
   * (a retry of an earlier test seen after the cap is not matched against it).
   */
  maxTests?: number;
  /** Longest message kept, in characters (default 2 000). */
  maxMessageChars?: number;
  /** Longest stack kept, in characters (default 8 000). */
  maxStackChars?: number;
}

export interface LogParser {
  /** Feeds one raw line (without its line break). */
  line(raw: string): void;
  /** Feeds an arbitrary chunk of text; lines may span chunks. */
  write(chunk: string): void;
  /** Feeds lines already cut and normalized (src/logs/lines.ts), as `write` of the chunks they came from would. */
  batch(batch: LineBatch): void;
  /** Stops the parse as the host budget does (`ParsedLog.stopped`): for a budget kept elsewhere (a reading thread). */
  stop(at: Stopped): void;
  /** Ends the input and returns the result. The parser cannot be used afterwards. */
  end(): ParsedLog;
}

// Lines longer than this are cut before line-oriented parsers see them (JUnit XML gets them whole).
const MAX_LINE = 16_384;
/**
 * The longest test id kept. Ids are cut where they are made (a test's result and its failure alike, so both still
 * name one test), with a marker saying how long the name was: an 8 MiB pytest name came back as a 16,377-character
 * id (the line cap) into every title, commit and command built from it (red team 22, open until red team 24).
 */
export const MAX_TEST_ID = 4_096;

/** `id`, or its first characters and `…[test id cut: N characters]` when it is longer than MAX_TEST_ID. */
export function boundTestId(id: string): string {
  if (id.length <= MAX_TEST_ID) return id;
  const mark = `…[test id cut: ${id.length} characters]`;
  let end = MAX_TEST_ID - mark.length;
  // Never half a surrogate pair.
  const c = id.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${id.slice(0, end)}${mark}`;
}
// A line still without its end after LONG_LINE characters (./lines.ts) is handed on in pieces as it arrives (a log
// with no line breaks, a one-line XML report): the parser never re-reads or re-joins what it already has.

/**
 * Formats that read loose shapes (`file:line: message`, a traceback anywhere, a stray `not ok`,
 * `##[error]` annotations): they fill gaps, never repeat what a runner's format reported, and say
 * nothing in a log whose runners all reported success.
 */
const FALLBACK = new Set(["generic", "github-actions", "java-stack", "python", "tap"]);

/**
 * A CI step's own line that its process exited non-zero, and nothing else: GitHub Actions' `Process completed with exit
 * code 1.`, Azure Pipelines' tasks (`Error: The process '/usr/bin/dotnet' failed with exit code 1`, `Bash exited with
 * code '1'.`, `PowerShell exited with code '1'.`, `Cmd.exe exited with code '1'.`, `Script failed with exit code: 1`,
 * DotNetCoreCLI's `Dotnet command failed with non-zero exit code on the following projects : …`). An annotation
 * like that names no test and no file: the log's own lines say what failed, or nothing does.
 */
const EXIT_ONLY =
  /^(?:Error: )?(?:Process completed with exit code -?\d+\.?|The process '[^']*' failed with exit code -?\d+\.?|(?:Bash|PowerShell|Cmd\.exe|Cmd|Pwsh) exited with code '-?\d+'\.?|Script failed with exit code:? ?-?\d+\.?|Dotnet command failed with non-zero exit code on the following projects ?: .*)$/;

/**
 * An annotation that says the run found no tests (r-lib's check action: `Error: No tests found for eiCompare`; `No
 * tests found`, `No test files found`): a count of zero, not a failure; nothing in it names a test or a file.
 */
const NO_TESTS = /^(?:Error: )?No tests?(?: files?)? (?:were )?found\b/i;

function sameOrigin(a: Failure, b: Failure): boolean {
  if (a.span.start <= b.span.end && b.span.start <= a.span.end) return true;
  if (a.file && a.line !== null && a.file === b.file && a.line === b.line) return true;
  const first = a.message.split("\n", 1)[0]!.trim();
  return first.length >= 8 && (b.message.includes(first) || (b.stack?.includes(first) ?? false));
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.7);
  const tail = max - head;
  return `${text.slice(0, head)}\n… ${text.length - max} characters omitted …\n${text.slice(text.length - tail)}`;
}

const BLANK_HEAD = /^(?:[ \t]*\n)+/;

/** A failure's stack as kept: no blank lines before it, no space after it, clipped; null when nothing is left. */
function stackOf(stack: string | null | undefined, maxStack: number): string | null {
  return stack ? own(clip(stack.replace(BLANK_HEAD, "").trimEnd(), maxStack)) || null : null;
}

function emptyCounts(): FormatCounts {
  return { failures: 0, passed: 0, failed: 0, skipped: 0, error: 0, flaky: 0 };
}

interface Slot {
  name: string;
  parser: FormatParser & { more?: (text: string, lineNo: number) => void };
  claimed: number;
  /** Framing prefix shapes this format reads itself (it gets those lines as printed). */
  reads: ReadonlySet<string> | null;
  /** Index of the first line this format claimed or reported on, for ordering `formats`. */
  firstSeen: number;
  /** Not offered lines until one matches (`FormatDefinition.wakesOn`); null once awake, or for a format without it. */
  sleeps: readonly RegExp[] | null;
}

/**
 * The parser with a bound on host time, not only on memory: a log's lines are matched by many formats' regular
 * expressions, some of which cost more than linear time on lines shaped for them (a pytest id of 40 `::a`
 * segments cost hours, cubic shapes under the 16 KiB line cap minutes). Each call runs with the time left of a
 * budget of host CPU linear in the input (`logTimeMs` plus `logMsPerMb` per MiB fed so far, RETRACE_HOST_LIMITS; a
 * 1 MiB log shaped for the eslint row pattern held the host past 10 s of CPU under the former wall-clock budget of
 * 30 s + 5 s per MiB); past it the
 * parse stops where it is, the rest of the log is only counted, and the result says so (`stopped`), so no
 * consumer takes a partial read for the whole log.
 */
export function createLogParser(options: LogParserOptions = {}): LogParser {
  const inner = createUnboundedLogParser(options);
  const budget = createHostBudget();
  let fed = 0;
  let lines = 0;
  let stoppedHere: Stopped | null = null;
  const stopped = (): Stopped | null => stoppedHere ?? budget.stopped;
  // Input is queued and parsed in batches of about 256 KiB: each bounded call starts V8's watchdog, which costs
  // too much per line of a log fed line by line. Nothing is observable before `end`, so batching changes nothing.
  let queue: { line: boolean; text: string }[] = [];
  let queued = 0;
  const atLine = () => lines;
  const guarded = (what: () => void): void => {
    if (stoppedHere === null) budget.run(what, fed, atLine);
  };
  const flush = () => {
    const batch = queue;
    queue = [];
    queued = 0;
    guarded(() => {
      for (const op of batch) {
        // For `stopped`: the lines up to the end of the piece being parsed (the line it stopped in is among them).
        if (op.line) lines++;
        else for (let i = op.text.indexOf("\n"); i !== -1; i = op.text.indexOf("\n", i + 1)) lines++;
        if (op.line) inner.line(op.text);
        else inner.write(op.text);
      }
    });
  };
  const add = (line: boolean, text: string) => {
    if (stopped()) return;
    fed += text.length + (line ? 1 : 0);
    queue.push({ line, text });
    queued += text.length;
    if (queued >= 256 * 1024) flush();
  };
  let ended = false;
  return {
    line(raw) {
      if (ended) throw new Error("log parser already ended");
      add(true, raw);
    },
    write(chunk) {
      if (ended) throw new Error("log parser already ended");
      add(false, chunk);
    },
    batch(b) {
      if (ended) throw new Error("log parser already ended");
      if (queue.length > 0) flush();
      if (stopped()) return;
      fed += b.raw;
      guarded(() => {
        lines += b.lines;
        inner.batch(b);
      });
    },
    stop(at) {
      if (ended) throw new Error("log parser already ended");
      if (stopped() === null) stoppedHere = at;
    },
    end() {
      if (ended) throw new Error("log parser already ended");
      ended = true;
      if (queue.length > 0) flush();
      let parsed: ParsedLog | undefined;
      guarded(() => {
        parsed = inner.end();
      });
      const at = stopped();
      if (parsed && at === null) return { ...parsed, stopped: null };
      return {
        formats: [],
        failures: [],
        tests: [],
        counts: {},
        lines,
        dropped: { failures: 0, tests: 0 },
        stopped: at,
      };
    },
  };
}

function createUnboundedLogParser(options: LogParserOptions): Omit<LogParser, "stop"> {
  const maxFailures = options.maxFailures ?? 500;
  const maxTests = options.maxTests ?? 100_000;
  const maxMessage = options.maxMessageChars ?? 2_000;
  const maxStack = options.maxStackChars ?? 8_000;
  const requested = options.format ?? "auto";
  const definitions =
    requested === "auto" ? FORMATS : FORMATS.filter((f) => f.name === requested || f.name === `${requested}`);
  if (definitions.length === 0) {
    throw new UsageError(
      `unknown log format "${requested}"`,
      `use --format auto or one of: ${formatNames().join(", ")}`,
    );
  }
  const mapPaths = createPathMapper(options);

  const primary: Failure[] = [];
  const secondary: Failure[] = [];
  const failureKeys = new Map<string, Failure>();
  let droppedFailures = 0;
  // Per-format maps (no key concatenation on the hot path) and one list in order of first appearance.
  const testsByFormat = new Map<string, Map<string, TestResult>>();
  const testList: TestResult[] = [];
  let droppedTests = 0;
  const counts = new Map<string, FormatCounts>();
  /** Each format's latest summary: the run's own verdict where a runner prints per-class lines first (Surefire). */
  const lastSummaries = new Map<string, { failed: number; error: number }>();
  const summaries = new Map<string, Required<SummaryCounts>>();
  /** Formats that said the run failed without naming anything (`ParserSink.unnamed`), in order. */
  const redUnnamed = new Set<string>();
  let lineNo = 0;
  let ended = false;
  /** The start of the current line, in the pieces it arrived in (joined once, when its end comes). */
  let pending: string[] = [];
  let pendingChars = 0;
  /** The slot that claimed the head of an over-long line still arriving (undefined: not in one). */
  let longOwner: Slot | null | undefined;

  const countsOf = (format: string): FormatCounts => {
    let c = counts.get(format);
    if (!c) {
      c = emptyCounts();
      counts.set(format, c);
    }
    return c;
  };

  // Paths repeat (every test of a file names it): a bounded cache keeps one string per path.
  const pathCache = new Map<string, string>();
  const toPath = (p: string): string => {
    let out = pathCache.get(p);
    if (out === undefined) {
      out = cleanPath(mapPaths(p));
      if (pathCache.size >= 1_000) pathCache.clear();
      pathCache.set(p, out);
    }
    return out;
  };

  const sinkFor = (slot: { name: string; firstSeen: number }): ParserSink => {
    let tests: Map<string, TestResult> | null = null;
    let c: FormatCounts | null = null;
    return {
      path: toPath,
      test(id, outcome, file, correction) {
        if (slot.firstSeen === 0) slot.firstSeen = lineNo;
        tests ??= testsOf(slot.name);
        c ??= countsOf(slot.name);
        recordTest(slot.name, id, outcome, file ?? null, tests, c, correction === true);
      },
      failure(draft) {
        if (slot.firstSeen === 0) slot.firstSeen = lineNo;
        recordFailure(slot.name, draft);
      },
      summary(s) {
        if (slot.firstSeen === 0) slot.firstSeen = lineNo;
        const sum = summaries.get(slot.name) ?? { passed: 0, failed: 0, skipped: 0, error: 0 };
        sum.passed += s.passed ?? 0;
        sum.failed += s.failed;
        sum.skipped += s.skipped ?? 0;
        sum.error += s.error ?? 0;
        summaries.set(slot.name, sum);
        lastSummaries.set(slot.name, { failed: s.failed, error: s.error ?? 0 });
      },
      unnamed() {
        if (slot.firstSeen === 0) slot.firstSeen = lineNo;
        redUnnamed.add(slot.name);
      },
    };
  };

  function testsOf(format: string): Map<string, TestResult> {
    let tests = testsByFormat.get(format);
    if (!tests) {
      tests = new Map();
      testsByFormat.set(format, tests);
    }
    return tests;
  }

  function recordTest(
    format: string,
    id: string,
    outcome: TestOutcome,
    file: string | null,
    tests = testsOf(format),
    c = countsOf(format),
    correction = false,
  ): void {
    // Past the cap no per-test work is done at all (not even the lookup): bounded CPU as well as memory.
    if (testList.length >= maxTests) {
      droppedTests++;
      return;
    }
    // A kept id is a copy: the match it came from is a slice of the chunk it was read in, which it would pin. The
    // copy is made first and is the key looked up as well as stored, so the id is read and hashed once (a retry,
    // the only case that finds one, is rare).
    const kept = own(boundTestId(id));
    const previous = tests.get(kept);
    if (previous) {
      if (previous.outcome === outcome) return;
      c[previous.outcome]--;
      if (correction) {
        previous.outcome = outcome;
        c[outcome]++;
        return;
      }
      const wasFlaky = previous.flaky;
      const flaky =
        wasFlaky ||
        (previous.outcome === "passed" && outcome !== "skipped") ||
        (outcome === "passed" && previous.outcome !== "skipped");
      // "error" during setup followed by "failed" in a summary is one failing test, not a retry.
      previous.outcome = outcome;
      previous.flaky = flaky;
      if (flaky && !wasFlaky) c.flaky++;
      if (file && !previous.file) previous.file = file;
      c[outcome]++;
      return;
    }
    const result: TestResult = { id: kept, outcome, flaky: false, format, file };
    tests.set(kept, result);
    testList.push(result);
    c[outcome]++;
  }

  function recordFailure(format: string, d: FailureDraft): void {
    const message = clip(d.message.trim(), maxMessage);
    const test = d.test ? boundTestId(d.test) : null;
    const file = d.file || null;
    const line = d.line ?? null;
    const errorType = d.errorType || null;
    const firstLine = message.split("\n", 1)[0] ?? "";
    const key = test
      ? `${format}\u0000t\u0000${test}`
      : `${format}\u0000${file}\u0000${line}\u0000${errorType}\u0000${firstLine}`;
    // Copies (`own`) and the stack's cleaning are made only for what is kept: a long log repeats failures, and
    // past the cap drops them, by the thousand.
    const existing = failureKeys.get(key);
    if (existing) {
      // The same failure printed twice (a detail block and a summary line): fill in what was missing.
      if (existing.file === null && file) existing.file = own(file);
      existing.line ??= line;
      existing.column ??= d.column ?? null;
      if (existing.errorType === null && errorType) existing.errorType = own(errorType);
      if (existing.stack === null) existing.stack = stackOf(d.stack, maxStack);
      if (!existing.message && message) existing.message = own(message);
      return;
    }
    if (primary.length + secondary.length >= maxFailures) {
      droppedFailures++;
      return;
    }
    const failure: Failure = {
      format,
      category: d.category as FailureCategory,
      test: test ? own(test) : null,
      file: file ? own(file) : null,
      line,
      column: d.column ?? null,
      errorType: errorType ? own(errorType) : null,
      message: own(message),
      stack: stackOf(d.stack, maxStack),
      span: { start: Math.max(1, d.start), end: Math.max(1, d.end, d.start) },
    };
    failureKeys.set(key, failure);
    (d.secondary ? secondary : primary).push(failure);
    if (failure.test) {
      if (!testsByFormat.get(format)?.has(failure.test))
        recordTest(format, failure.test, failure.category === "test" ? "failed" : "error", null);
    }
  }

  const slots: Slot[] = definitions.map((def) => {
    const slot: Slot = {
      name: def.name,
      parser: undefined as unknown as FormatParser,
      claimed: 0,
      reads: def.readsPrefixes ? new Set(def.readsPrefixes) : null,
      firstSeen: 0,
      sleeps:
        def.wakesOn === undefined ? null : Array.isArray(def.wakesOn) ? def.wakesOn : [def.wakesOn as RegExp],
    };
    slot.parser = def.create(sinkFor(slot));
    return slot;
  });
  // `##[error]` annotations nobody else claims become (secondary) failures of their own.
  const annotations = { name: "github-actions", firstSeen: 0 };
  const annotationSink = sinkFor(annotations);

  const stripper = createPrefixStripper({ glued: true });
  /**
   * Framing inside framing (a clock column before docker compose's service column, `13:08:09 web-1  | …`): the
   * lines a run's prefix was taken from go through a second stripper, which finds the next column's runs the same way.
   */
  const innerStripper = createPrefixStripper();
  const decided: Decided[] = [];
  const innerDecided: Decided[] = [];
  /** The outer prefix of each line the inner stripper holds, by line number. */
  const outerOf = new Map<number, { printed: string; prefix: Prefix }>();
  const readers = slots.filter((s) => s.reads !== null);
  /** The stripper holds a line or a run is in force: every line goes through it. */
  let framing = false;

  /**
   * Sleeping formats (`FormatDefinition.wakesOn`): a line that matches none of their patterns is offered only to the
   * awake ones (`awake`, in claim order), so a format whose lines never appear costs nothing per line. The patterns
   * anchored at the line's start are tested as one expression (`gate`, which V8 then tries at the start only); the
   * others (`loose`) one by one. A format wakes at its first matching line offered to it (one a format before it
   * claimed was never offered), keeps its place in the claim order, and is offered every line from then on.
   */
  let awake: Slot[] = slots;
  let gate: RegExp | null = null;
  let loose: RegExp[] = [];
  const arrange = (): void => {
    awake = slots.filter((s) => s.sleeps === null);
    const anchored: string[] = [];
    loose = [];
    for (const s of slots) {
      for (const r of s.sleeps ?? []) {
        if (r.flags === "" && r.source.startsWith("^") && !/\\[1-9k]|\(\?<[^=!]/.test(r.source))
          anchored.push(`(?:${r.source})`);
        else loose.push(r);
      }
    }
    gate = anchored.length > 0 ? new RegExp(anchored.join("|")) : null;
    // The loose patterns that can be joined are scanned for as one expression too.
    const joined = loose.filter((r) => r.flags === "" && !/\\[1-9k]|\(\?<[^=!]/.test(r.source));
    if (joined.length > 1)
      loose = [
        new RegExp(joined.map((r) => `(?:${r.source})`).join("|")),
        ...loose.filter((r) => !joined.includes(r)),
      ];
  };
  // A pattern with `g` or `y` keeps a position between tests: its format is awake from the start.
  for (const s of slots) if (s.sleeps?.some((r) => /[gy]/.test(r.flags))) s.sleeps = null;
  arrange();
  /** The slots a line is offered to: every one when a sleeping format may wake on it, else the awake ones. */
  const offeredTo = (text: string): Slot[] => {
    if (gate?.test(text)) return slots;
    for (const r of loose) if (r.test(text)) return slots;
    return awake;
  };
  /** False for a sleeping slot the line does not wake; wakes it when it does. */
  const wakes = (slot: Slot, text: string): boolean => {
    if (slot.sleeps === null) return true;
    if (!slot.sleeps.some((r) => r.test(text))) return false;
    slot.sleeps = null;
    arrange();
    return true;
  };

  /** `normalizeText`'s flags, one object for every line. */
  const lineFlags = { ghError: false };

  /** Offers a line to every parser in turn; returns the slot that claimed it. */
  function feed(raw: string): Slot | null {
    const normalized = normalizeText(raw, mapPaths, lineFlags);
    return feedNormalized(normalized, lineFlags.ghError);
  }

  /** `feed` for a line already normalized (`normalizeText`; null: a line that carries nothing). */
  function feedNormalized(normalized: string | null, ghError: boolean): Slot | null {
    lineNo++;
    if (normalized === null) return null;
    let text = normalized;
    const long = text.length > MAX_LINE;
    // A line that may be framed, or comes while framing is in force or in doubt, takes the slower path. A line
    // opening with a digit may carry a glued line number (prefix.ts's `gluedCandidate`, tested here without the
    // object it returns).
    const c0 = text.charCodeAt(0);
    if (!long && (framing || (c0 >= 48 && c0 <= 57) || prefixOf(text) !== null)) return framed(text, ghError);
    if (long && framing) flushHeld();
    for (const slot of long ? slots : offeredTo(text)) {
      if (long && slot.name !== "junit") text = text.slice(0, MAX_LINE);
      if (!wakes(slot, text)) continue;
      if (slot.parser.line(text, lineNo)) {
        slot.claimed++;
        if (slot.firstSeen === 0) slot.firstSeen = lineNo;
        return slot;
      }
    }
    if (ghError && requested === "auto") annotate(text);
    return null;
  }

  function annotate(text: string): void {
    const message = text.trim();
    if (message && !EXIT_ONLY.test(message) && !NO_TESTS.test(message)) {
      annotationSink.failure({ category: "build", message, start: lineNo, end: lineNo, secondary: true });
    }
  }

  /** Delivers the lines the strippers hold (an over-long line, the end): they keep their prefixes. */
  function flushHeld(): void {
    const total = lineNo;
    flushInner();
    decided.length = 0;
    stripper.flush(decided);
    framing = false;
    for (const d of decided) deliver(d.text, d.lineNo, d.prefix, d.tag);
    lineNo = total;
  }

  /** The lines the inner stripper holds, with their outer prefix only. */
  function flushInner(): Slot | null {
    if (innerStripper.idle()) return null;
    innerDecided.length = 0;
    innerStripper.flush(innerDecided);
    return deliverInner();
  }

  function deliverInner(): Slot | null {
    let owner: Slot | null = null;
    for (const d of innerDecided) {
      const outer = outerOf.get(d.lineNo);
      outerOf.delete(d.lineNo);
      owner = outer
        ? deliver(outer.printed, d.lineNo, outer.prefix, d.tag, d.prefix)
        : deliver(d.text, d.lineNo, null, d.tag);
    }
    return owner;
  }

  /** A line through the prefix strippers: it and any line held back before it go to the parsers. */
  function framed(text: string, ghError: boolean): Slot | null {
    decided.length = 0;
    stripper.push(text, lineNo, ghError, decided);
    let owner: Slot | null = null;
    const total = lineNo;
    for (const d of decided) {
      if (d.prefix === null) {
        flushInner();
        owner = deliver(d.text, d.lineNo, null, d.tag);
        continue;
      }
      // A line of a run: what is left after the run's prefix may open a run of its own.
      const rest = stripTimestamp(d.text.slice(d.prefix.length));
      if (innerStripper.idle() && prefixOf(rest) === null) {
        owner = deliver(d.text, d.lineNo, d.prefix, d.tag);
        continue;
      }
      outerOf.set(d.lineNo, { printed: d.text, prefix: d.prefix });
      innerDecided.length = 0;
      innerStripper.push(rest, d.lineNo, d.tag, innerDecided);
      owner = deliverInner();
    }
    framing = !stripper.idle() || !innerStripper.idle();
    lineNo = total;
    return owner;
  }

  /**
   * A decided line (`no`) to every parser in turn, without its framing prefixes (`prefix`, and `inner` after it) for
   * those that do not read them.
   */
  function deliver(
    printed: string,
    no: number,
    prefix: Prefix | null,
    ghError: boolean,
    inner: Prefix | null = null,
  ): Slot | null {
    lineNo = no;
    let text = printed;
    if (prefix) {
      // A parser that reads this framing gets the line as printed, first; the others, the line without it.
      for (const slot of readers) {
        if (!slot.reads!.has(prefix.shape) || !wakes(slot, text)) continue;
        if (slot.parser.line(text, lineNo)) {
          slot.claimed++;
          if (slot.firstSeen === 0) slot.firstSeen = lineNo;
          return slot;
        }
      }
      text = stripTimestamp(text.slice(prefix.length));
      if (inner) {
        for (const slot of readers) {
          if (!slot.reads!.has(inner.shape) || slot.reads!.has(prefix.shape) || !wakes(slot, text)) continue;
          if (slot.parser.line(text, lineNo)) {
            slot.claimed++;
            if (slot.firstSeen === 0) slot.firstSeen = lineNo;
            return slot;
          }
        }
        text = stripTimestamp(text.slice(inner.length));
      }
    }
    for (const slot of offeredTo(text)) {
      if (prefix && slot.reads?.has(prefix.shape)) continue;
      if (inner && slot.reads?.has(inner.shape)) continue;
      if (!wakes(slot, text)) continue;
      if (slot.parser.line(text, lineNo)) {
        slot.claimed++;
        if (slot.firstSeen === 0) slot.firstSeen = lineNo;
        return slot;
      }
    }
    if (ghError && requested === "auto") annotate(text);
    return null;
  }

  /** The rest of an over-long line: only a parser that reads across pieces (JUnit XML) gets it. */
  function more(piece: string): void {
    if (longOwner?.parser.more) longOwner.parser.more(mapPaths(stripAnsi(piece)), lineNo);
  }

  function takePending(tail: string): string {
    // Most lines arrive whole in one chunk: nothing pending, nothing to reset (no new array per line).
    if (pending.length === 0) return tail;
    const text = pending.join("") + tail;
    pending = [];
    pendingChars = 0;
    return text;
  }

  /** Ends the input's current line, `tail` being its last piece. */
  function endLine(tail: string): void {
    if (longOwner !== undefined) {
      more(tail);
      longOwner = undefined;
    } else feed(takePending(tail));
  }

  /**
   * A green log: runner summaries were seen and none of them counts a failure. Then fallback
   * formats report nothing, and no format whose own summary is green reports a test failure.
   */
  function settle(list: Failure[], onlySecondary: boolean): Failure[] {
    const green = summaries.size > 0 && [...summaries.values()].every((s) => s.failed === 0 && s.error === 0);
    // Secondary failures (a failed script's exit, an unclaimed `##[error]`) are consequences of a failure named
    // elsewhere; when the runners' summaries all say passed, there is none, and the consequence names nothing.
    if (green && onlySecondary) return [];
    // A failed script (`npm test`'s exit) under a runner summary that counts failures is that summary's consequence:
    // the failures are counted there, and the script's exit names nothing more (a paste of the summary alone).
    const counted = [...summaries.values()].some((s) => s.failed > 0 || s.error > 0);
    if (onlySecondary && counted) list = list.filter((f) => !(f.format === "npm" && f.category === "build"));
    const greenFormat = (f: string) => {
      const s = summaries.get(f);
      return s !== undefined && s.failed === 0 && s.error === 0;
    };
    const kept = list.filter((f) => {
      if (green && FALLBACK.has(f.format)) return false;
      if (f.category === "test" && greenFormat(f.format)) return false;
      return true;
    });
    // A fallback failure that repeats one a runner's format reported (the same block, the same place,
    // or its message) is that failure seen twice.
    const primaryOnes = kept.filter((f) => !FALLBACK.has(f.format));
    const out = kept.filter((f) => !FALLBACK.has(f.format) || !primaryOnes.some((p) => sameOrigin(f, p)));
    // A test failure a green summary overrules was no failing test either.
    const dropped = new Set(
      list.filter((f) => f.test && !out.includes(f)).map((f) => `${f.format}\u0000${f.test}`),
    );
    if (dropped.size > 0) {
      for (let i = testList.length - 1; i >= 0; i--) {
        const t = testList[i]!;
        if (t.outcome === "passed" || !dropped.has(`${t.format}\u0000${t.id}`)) continue;
        testList.splice(i, 1);
        testsByFormat.get(t.format)?.delete(t.id);
        countsOf(t.format)[t.outcome]--;
      }
    }
    return out;
  }

  return {
    line(raw) {
      if (ended) throw new Error("log parser already ended");
      feed(raw);
    },
    write(chunk) {
      if (ended) throw new Error("log parser already ended");
      // Only the new chunk is searched for line breaks: linear in the input whatever its line lengths.
      let from = 0;
      let nl = chunk.indexOf("\n");
      while (nl !== -1) {
        endLine(chunk.slice(from, nl));
        from = nl + 1;
        nl = chunk.indexOf("\n", from);
      }
      if (from >= chunk.length) return;
      const rest = from === 0 ? chunk : chunk.slice(from);
      if (longOwner !== undefined) {
        more(rest);
        return;
      }
      pending.push(rest);
      pendingChars += rest.length;
      if (pendingChars > LONG_LINE) longOwner = feed(takePending(""));
    },
    batch(b) {
      if (ended) throw new Error("log parser already ended");
      const { ops, n, texts } = b;
      let at = 0;
      const next = (): string => texts[at++]!;
      for (let i = 0; i < n; i++) {
        const op = ops[i]!;
        if (op === OP_LINE) feedNormalized(next(), false);
        else if (op === OP_LINE_ERROR) feedNormalized(next(), true);
        else if (op === OP_LINE_NONE) feedNormalized(null, false);
        else if (op === OP_MORE) more(next());
        else if (op === OP_LONG_END) {
          more(next());
          longOwner = undefined;
        } else if (op === OP_LONG_NONE) longOwner = feedNormalized(null, false);
        else longOwner = feedNormalized(next(), op === OP_LONG_ERROR);
      }
    },
    end() {
      if (ended) throw new Error("log parser already ended");
      if (longOwner !== undefined) longOwner = undefined;
      else if (pendingChars > 0) feed(takePending(""));
      flushHeld();
      ended = true;
      for (const slot of slots) slot.parser.end();
      for (const [name, s] of summaries) {
        // Summary counts stand in for per-test lines the log does not have (pytest without -v).
        const c = countsOf(name);
        if (s.passed > c.passed) c.passed = s.passed;
        if (s.skipped > c.skipped) c.skipped = s.skipped;
      }
      const failures = settle(primary.length > 0 ? primary : secondary, primary.length === 0);
      const seen: { name: string; firstSeen: number }[] = [
        ...slots.filter((s) => s.firstSeen > 0 && (s.claimed > 0 || counts.has(s.name))),
        ...(annotations.firstSeen > 0 ? [annotations] : []),
      ];
      seen.sort((a, b) => a.firstSeen - b.firstSeen);
      for (const f of failures) countsOf(f.format).failures++;
      const formats = seen
        .map((s) => s.name)
        .filter((n) => n !== "github-actions" || failures.some((f) => f.format === n));
      const countRecord: Record<string, FormatCounts> = {};
      for (const name of formats) countRecord[name] = countsOf(name);
      const unnamed =
        failures.length === 0
          ? [
              ...new Set([
                ...[...lastSummaries].filter(([, s]) => s.failed + s.error > 0).map(([n]) => n),
                // A test script's exit under runner summaries that all say passed is a wrapper's status, not the
                // tests': the runner's own verdict wins (a green mocha run whose wrapper script exits 1).
                ...(summaries.size > 0 &&
                [...summaries.values()].every((s) => s.failed === 0 && s.error === 0)
                  ? []
                  : redUnnamed),
              ]),
            ]
          : [];
      return {
        formats,
        failures: failures.sort((a, b) => a.span.start - b.span.start),
        tests: testList,
        counts: countRecord,
        lines: lineNo,
        ...(unnamed.length > 0 ? { unnamedFailuresIn: unnamed } : {}),
        dropped: { failures: droppedFailures, tests: droppedTests },
        stopped: null,
      };
    },
  };
}
