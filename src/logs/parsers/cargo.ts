/**
 * `cargo test`: `test path::name ... ok|FAILED|ignored` lines, the `---- name stdout ----` blocks
 * with the panic location and message, and rustc's `error[E0308]: …` / ` --> file:line:col`
 * compile errors (which fail the build before any test runs).
 */
import { BlockBuffer, countWords, type FormatDefinition, type ParserSink } from "../parser.ts";
import { openPanicHead, panicHead, summarizePanic } from "./rust-panic.ts";

const RUNNING = /^running \d+ tests?$/;
// A doc-test is named by its file, item and line: `src/lib.rs - scale (line 6)`, `src/a.rs - A::b (line 3) - compile`;
// a crate's or module's own docs (`//!`) have no item, and the name keeps both spaces: `src/lib.rs -  (line 10)`, or
// one before rustdoc 1.6x: `src/lib.rs - (line 29)`.
const NAME = String.raw`(\S+(?: -(?: .*?)? \(line \d+\)(?: - compile(?: fail)?)?)?)`;
/** A doc-test's name alone (a thread's name), checked by hand: no expression has to find where the item ends. */
function isDocTest(name: string): boolean {
  const dash = name.indexOf(".rs - ");
  if (dash < 1 || name.slice(0, dash).includes(" ")) return false;
  const tail = name.replace(/ - compile(?: fail)?$/, "");
  const open = tail.lastIndexOf(" (line ");
  return open >= dash + 5 && /^ \(line \d+\)$/.test(tail.slice(open));
}
/**
 * A doc-test's place: the file and line its name gives (`src/lib.rs - f (line 14)`, the doc comment's code fence).
 * The panic inside it (`panicked at src/lib.rs:6:1`) is at a line of the program rustdoc built around the example
 * (its prelude lines first), not of the file: rustc 1.95 reports line 6 for an assertion on line 16 of `lib.rs`.
 * Null for any other test.
 */
function docTestPlace(id: string): { file: string; line: number } | null {
  if (!isDocTest(id)) return null;
  const tail = id.replace(/ - compile(?: fail)?$/, "");
  const open = tail.lastIndexOf(" (line ");
  return { file: id.slice(0, id.indexOf(" - ")), line: Number(tail.slice(open + 7, -1)) };
}
const TEST = new RegExp(
  String.raw`^test ${NAME}(?: - should panic)? \.\.\. (ok|FAILED|ignored(?:, .*)?|bench:.*)$`,
);
const STDOUT = new RegExp(`^---- ${NAME} (?:stdout|stderr) ----$`);
const RESULT = /^test result: (ok|FAILED)\./;
/**
 * What makes a pasted `---- name stdout ----` block a failing libtest test without the `running N tests` line
 * before it: the test's own panic (`thread 'name' panicked at`, `thread 'name' (1234) panicked at`, tab-indented
 * before Rust 1.21) or libtest's `note: test did not panic as expected` for a `#[should_panic]` test.
 */
const FRAGMENT_EVIDENCE =
  /^\s*(?:thread '(.+?)'(?: \(\d+\))? panicked at |note: test did not panic as expected$)/;
/**
 * rustdoc's own report of a failed doc-test, the first line of its `---- src/lib.rs - f (line 3) stdout ----` block:
 * the program's exit (`Test executable failed (exit code 101).`, `(exit status: 101)`), a `should_panic` or
 * `compile_fail` example that did not, or an example that did not compile.
 */
const DOCTEST_FAILED =
  /^(?:Test executable failed \(|Test executable succeeded, but it's marked `should_panic`|Test compiled successfully, but it's marked `compile_fail`|Couldn't compile the test\.)/;
const FAILURES = /^failures:$/;
/** A Rust module path with at least one `::` (`tests::test_basic`): the name libtest gives a test's thread. */
const TEST_PATH = /^[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+$/;
/**
 * A test at the top level of an integration-test crate (`tests/kitchen.rs`) has no module path: libtest names its
 * thread with the function's bare name (`cup_in_ml`). A lowercase Rust identifier other than `main`, panicking at a
 * file directly under a `tests/` directory (such a crate's root), is that test's thread.
 */
const BARE_TEST = /^(?!main$)[a-z_][a-z0-9_]*$/;
const TEST_CRATE_ROOT = /(?:^|\/)tests\/[\w-]+\.rs$/;
function namesTest(thread: string, file: string): boolean {
  return TEST_PATH.test(thread) || (BARE_TEST.test(thread) && TEST_CRATE_ROOT.test(file));
}
/** An entry of libtest's closing `failures:` list: four spaces, the test's name. */
const LISTED = new RegExp(`^    ${NAME}$`);
const RUST_ERROR = /^error(?:\[(E\d+)\])?: (.*)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)$/;
// Nix's lines about a derivation whose builder failed (`builder for '/nix/store/…drv' failed with exit code 101;`,
// `Cannot build '…'.`, `1 dependencies of derivation '…' failed to build`) wrap a build's log: its tail says what failed.
// Cargo's count of failed test targets (`error: 2 targets failed:`) is one too, also when the log cuts it after the
// count (`error: 1 target`): a count names nothing.
const AGGREGATE =
  /^(could not compile|builder for '|Cannot build '|\d+ dependenc(?:y|ies) of derivation '|test run failed|(?:doc)?test failed, to rerun|aborting due to|build failed|Recipe|\d+ previous errors?|\d+ targets?(?: failed|\s*$)|failed to run)/;
// SwiftPM's `error: terminated(1): /…/swift-build-tool -f …` is its build tool's exit status too.
const EXIT_STATUS = /^(?:Bad exit status from|terminated\(-?\d+\): )/i;
/**
 * A bare `error:`'s text that is a program's exit status: rpmbuild's and SwiftPM's forms above, a sentence naming a
 * command, process, script or recipe that exited or failed with a code (`command exited with code 1`, zig's `the
 * following build command failed with exit code 1:`), or `… returned non-zero exit status 2`. Three anchored
 * tests rather than one pattern with two open `.*` (quadratic on a long line).
 */
function isExitStatus(message: string): boolean {
  if (EXIT_STATUS.test(message) || /returned non-zero exit status \d+\.?$/i.test(message)) return true;
  return (
    / (?:exited|failed) with (?:exit )?(?:code|status) \d+[.:]?$/i.test(message) &&
    /^(?:the following )?(?:\S+ )?(?:command|process|script|recipe)\b/i.test(message)
  );
}
/**
 * A program's usage text (distutils' `usage: setup.py [global_opts] cmd1 …` and its `   or: …` lines, optparse's
 * `Usage: prog [options]`): a bare `error:` right under it (a blank line between at most) is that program's
 * command-line error (`error: invalid command 'test'`), not a rustc diagnostic. Cargo prints its usage below its error.
 */
const USAGE = /^usage: \S/i;
const USAGE_MORE = /^(?:\s+\S|$)/;
const CARGO_STATUS =
  /^\s{2,}(Compiling|Finished|Running|Doc-tests|Checking|Downloaded|Downloading|Fresh|Blocking)\b/;

/** A backtrace frame (`   4: attempt::test::happy_path`) and its place (`             at ./src/main.rs:161:9`). */
const BT_FRAME = /^\s*\d+: (\S+)$/;
const BT_AT = /^\s+at (.+?):(\d+):(\d+)$/;

/**
 * A frame of the panic's own machinery (the unwinder, the backtrace printer, std's panic hook, core's formatting):
 * a backtrace cut before it left them names no function of the program, as if there were none.
 */
const PANIC_MACHINERY = /^(?:backtrace::|std::|core::|alloc::|rust_begin_unwind$|__rust_)/;

/** A backtrace frame of function `thread` (libtest's test path) itself or its closures, under any crate prefix. */
function framesThread(frame: string, thread: string): boolean {
  const fn = frame.replace(/(?:::\{\{closure\}\}|::\{closure#\d+\})+$/, "");
  return fn === thread || fn.endsWith(`::${thread}`);
}

/**
 * A Debian package build (debcargo) compiles the crate from its registry copy, `/usr/share/cargo/registry/<crate>-<ver>/`:
 * the frame of the test's own function there is in the crate under test, so the path below that directory is the
 * repository's. Only the opening's harness frames (the test's own function) are read through this.
 */
const DEBIAN_REGISTRY = /^\/usr\/share\/cargo\/registry\/[A-Za-z0-9_-]+-\d+\.\d+\.\d+[^/]*\/(.+)$/;
function crateRelative(file: string): string {
  return DEBIAN_REGISTRY.exec(file)?.[1] ?? file;
}

export function createCargoParser(sink: ParserSink) {
  /**
   * A paste that opens inside a failure block, its `---- name stdout ----` header cut away: the backtrace still names
   * the test, as the frame the harness calls through its closure (`4: crate::test::name`, then `5:
   * crate::test::name::{closure#0}` or `::{{closure}}`). libtest names the test without the crate (`test::name`). Read
   * only before the first block, and reported only when the log turns out to be libtest's (a block of its own).
   */
  let opening = true;
  let openingFrames: {
    path: string;
    at: { file: string; line: number; column: number } | null;
    lineNo: number;
  }[] = [];
  let openingTest: {
    id: string;
    at: { file: string; line: number; column: number } | null;
    lineNo: number;
  } | null = null;
  /**
   * The first panic of the opening, with the lines after it (its message). libtest names a test's thread after the
   * test's path: a panic in the thread the harness frames name confirms a paste of that test's panic alone.
   */
  let openingPanic: (NonNullable<ReturnType<typeof panicHead>> & { lineNo: number; lines: string[] }) | null =
    null;
  let libtestSeen = false;
  /** libtest's `successes:` heading (`--show-output`) was seen: its blocks are passing tests'. */
  let sawSuccesses = false;
  let inRun = false;
  /**
   * The current run's FAILED progress lines. A run cut before its `test result:` line (the paste ends in its
   * failures) has said nothing green: an earlier binary's `test result: ok` speaks for that binary only.
   */
  let runFailed = 0;
  let block: { id: string; buf: BlockBuffer; fragment: boolean; evidence: boolean } | null = null;
  let failuresList = false;
  /** A paste that opens at libtest's `failures:` heading: each `---- name stdout ----` block under it is a failure. */
  let pastedFailures = false;
  // Tests a progress line marked FAILED and the blocks seen: a FAILED test with no `---- name stdout ----`
  // block (`--nocapture`, or a paste cut before the `failures:` section) is still a failing test.
  let progressFailed: { id: string; lineNo: number; text: string }[] = [];
  const withBlock = new Set<string>();
  /**
   * The names under a `failures:` heading (libtest's closing list). A listed test whose block was not printed (a
   * paste cut above the list, a list-only excerpt) is still a failed test once `test result: FAILED` confirms it.
   */
  let listing = false;
  let listed: { id: string; lineNo: number; text: string }[] = [];
  /**
   * Names in the closing list's shape with no `failures:` heading above them (a tail that starts inside the list, as
   * Nix's `last 25 log lines:`): libtest prints nothing else between names and `test result:`, so a run of them, one
   * blank line, then `test result: FAILED. … N failed` (N at least their number) is the list.
   */
  let unheaded: { id: string; lineNo: number; text: string }[] = [];
  let unheadedBlank = false;
  let rustc: {
    code: string | null;
    message: string;
    buf: BlockBuffer;
    loc: { file: string; line: number; column: number } | null;
  } | null = null;
  /** Inside a program's usage text (its `usage:` line, indented or blank lines after it). */
  let inUsage = false;
  /** libtest's backtrace note (`note: run with `RUST_BACKTRACE=1`…`, `note: Some details are omitted, run with …`). */
  let backtraceNote = false;

  /**
   * At the end of the log, a closing `failures:` list still open: the paste was cut inside it, before its `test
   * result:` line. Its names are failed tests once libtest is otherwise evident (a block, the harness frames of a
   * backtrace naming a test, libtest's backtrace note), except the last, which may be cut inside its name (as the
   * pytest and nose rules drop a cut last line). Returns the ids reported.
   */
  function flushCutList(): Set<string> {
    const done = new Set<string>();
    const names = listing ? listed : [];
    listing = false;
    listed = [];
    if (names.length < 2 || !(libtestSeen || openingTest || backtraceNote)) return done;
    const reported = new Set(progressFailed.map((f) => f.id));
    for (const f of names.slice(0, -1)) {
      if (withBlock.has(f.id) || reported.has(f.id) || done.has(f.id)) continue;
      done.add(f.id);
      sink.test(f.id, "failed");
      failedAt(f);
    }
    libtestSeen = true;
    return done;
  }

  /**
   * A doc-test's panic summary with the doc-test's place (see docTestPlace) when the panic is the example's own: no
   * place, or one in the doc-test's file at column 1 (rustdoc's program reports its lines so: `src/lib.rs:6:1`). A
   * panic in the crate's code the example calls (`src/lib.rs:12:9`, a `panic!` inside the function) is a real place
   * of the file, kept.
   */
  function docPanic<P extends { file: string | null; line: number | null; column: number | null }>(
    id: string,
    p: P,
  ): P {
    const doc = docTestPlace(id);
    if (!doc) return p;
    const file = sink.path(doc.file);
    if (p.file !== null && !(p.file === file && p.column === 1)) return p;
    return { ...p, file, line: doc.line, column: null };
  }

  /** A failed test known from one line (a progress line, the closing list), with no block of its own. */
  function failedAt(f: { id: string; text: string; lineNo: number }): void {
    const doc = docTestPlace(f.id);
    sink.failure({
      category: "test",
      test: f.id,
      ...(doc ? { file: sink.path(doc.file), line: doc.line } : {}),
      message: "test failed",
      stack: f.text,
      start: f.lineNo,
      end: f.lineNo,
    });
  }

  function flushProgress(): void {
    for (const f of progressFailed) {
      if (withBlock.has(f.id)) continue;
      failedAt(f);
    }
    progressFailed = [];
    withBlock.clear();
  }

  /** At `test result:`: a FAILED run's listed tests that no block or progress line reported. */
  function flushList(result: string): void {
    listing = false;
    const names = listed;
    listed = [];
    if (!result.startsWith("test result: FAILED")) return;
    // libtest's own list and result line: a test the opening's backtrace names (its block cut) is one of its failures.
    libtestSeen = true;
    const reported = new Set(progressFailed.map((f) => f.id));
    for (const f of names) {
      if (withBlock.has(f.id) || reported.has(f.id)) continue;
      reported.add(f.id);
      sink.test(f.id, "failed");
      failedAt(f);
    }
  }

  function flushBlock(): void {
    if (!block) return;
    if (block.fragment && !block.evidence) {
      block = null;
      return;
    }
    withBlock.add(block.id);
    libtestSeen = true;
    const p = docPanic(block.id, summarizePanic(block.buf.lines, sink));
    sink.failure({
      category: "test",
      test: block.id,
      file: p.file,
      line: p.line,
      column: p.column,
      errorType: "panic",
      message: p.message || "test failed",
      stack: block.buf.text(),
      start: block.buf.start,
      end: block.buf.end,
    });
    block = null;
  }

  function flushRustc(): void {
    if (!rustc) return;
    sink.failure({
      category: "build",
      file: rustc.loc?.file ?? null,
      line: rustc.loc?.line ?? null,
      column: rustc.loc?.column ?? null,
      errorType: rustc.code,
      message: rustc.message,
      stack: rustc.buf.text(),
      start: rustc.buf.start,
      end: rustc.buf.end,
    });
    rustc = null;
  }

  function openingLine(text: string, lineNo: number): void {
    if (openingPanic === null && text.includes("' panicked at ")) {
      const p = panicHead(text) ?? openPanicHead(text);
      if (p) openingPanic = { ...p, lineNo, lines: [text] };
    } else if (openingPanic !== null && openingFrames.length === 0 && openingPanic.lines.length < 20)
      openingPanic.lines.push(text);
    const f = BT_FRAME.exec(text);
    if (f) {
      const path = f[1]!;
      const prev = openingFrames[openingFrames.length - 1];
      if (prev && openingTest === null && /^[\w:]+$/.test(prev.path) && prev.path.includes("::")) {
        if (path === `${prev.path}::{closure#0}` || path === `${prev.path}::{{closure}}`)
          openingTest = {
            id: prev.path.slice(prev.path.indexOf("::") + 2),
            at: prev.at,
            lineNo: prev.lineNo,
          };
      }
      if (openingFrames.length < 200) openingFrames.push({ path, at: null, lineNo });
      return;
    }
    const a = BT_AT.exec(text);
    const last = openingFrames[openingFrames.length - 1];
    if (a && last && last.at === null)
      last.at = { file: crateRelative(sink.path(a[1]!)), line: Number(a[2]), column: Number(a[3]) };
  }

  /** Test `id` failed by the opening's own panic (its lines, up to line `end`), at the panic's place. */
  function panicFailure(id: string, panic: { lines: string[]; lineNo: number }, end: number): void {
    const p = docPanic(id, summarizePanic(panic.lines, sink));
    sink.failure({
      category: "test",
      test: id,
      file: p.file,
      line: p.line,
      column: p.column,
      errorType: "panic",
      message: p.message || "test failed",
      stack: panic.lines.join("\n"),
      start: panic.lineNo,
      end,
    });
  }

  function flushOpening(): void {
    // A panic pasted alone, with no backtrace to name the harness frames: libtest names a test's thread after the
    // test's path (`tests::test_basic`), and a thread the program spawned is `<unnamed>` or named by the program
    // (`main`, `tokio-runtime-worker`). A thread named by a module path (`a::b`, one `::` or more) is the test's, and so
    // is a bare lowercase identifier panicking at an integration-test crate's root file (see BARE_TEST); any other
    // names no test (a bare name panicking elsewhere, e.g. in `src/`, is missed rather than guessed).
    // With a backtrace whose harness frames were cut, a frame of the thread's own path (`4: crate::tests::t` or
    // its closure, `crate::tests::t::{{closure}}`, an async test's body) confirms it the same way; one cut before it
    // left the panic's machinery (PANIC_MACHINERY) counts as no backtrace.
    if (
      !openingTest &&
      !libtestSeen &&
      openingPanic &&
      namesTest(openingPanic.thread, summarizePanic(openingPanic.lines, sink).file ?? "") &&
      (openingFrames.every((f) => PANIC_MACHINERY.test(f.path)) ||
        openingFrames.some((f) => framesThread(f.path, openingPanic!.thread)))
    ) {
      panicFailure(openingPanic.thread, openingPanic, openingPanic.lineNo + openingPanic.lines.length - 1);
      return;
    }
    if (!openingTest) return;
    const t = openingTest;
    openingTest = null;
    // Without a libtest block in the log, only the test's own panic makes it libtest's: a thread named as the
    // harness frames name the test (a worker thread's or `main`'s panic names none).
    const own = !libtestSeen && openingPanic?.thread === t.id ? openingPanic : null;
    if (!libtestSeen && own === null) return;
    if (own) {
      panicFailure(t.id, own, t.lineNo);
      return;
    }
    sink.failure({
      category: "test",
      test: t.id,
      file: t.at?.file ?? null,
      line: t.at?.line ?? null,
      column: t.at?.column ?? null,
      errorType: "panic",
      message: "test failed (its block's header was cut; named by its backtrace)",
      start: t.lineNo,
      end: t.lineNo,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (!backtraceNote && text.startsWith("note: ") && text.includes("RUST_BACKTRACE"))
        backtraceNote = true;
      if (opening) {
        if (text.startsWith("---- ") || RUNNING.test(text) || RUST_ERROR.test(text)) {
          opening = false;
          openingFrames = [];
        } else openingLine(text, lineNo);
      }
      if (rustc) {
        if (
          text.trim() !== "" &&
          !/^(error|warning)\b/.test(text) &&
          !CARGO_STATUS.test(text) &&
          !/^For more information/.test(text)
        ) {
          rustc.buf.push(text, lineNo);
          const a = ARROW.exec(text);
          if (a && !rustc.loc)
            rustc.loc = { file: sink.path(a[1]!), line: Number(a[2]), column: Number(a[3]) };
          return true;
        }
        if (text.trim() === "") {
          rustc.buf.push(text, lineNo);
          return true;
        }
        flushRustc();
      }
      if (!listing && !inRun && !block) {
        const l = text.startsWith("    ") && !unheadedBlank ? LISTED.exec(text) : null;
        if (l && /^[A-Za-z_]/.test(l[1]!)) {
          if (unheaded.length < 5_000) unheaded.push({ id: l[1]!, lineNo, text });
        } else if (text === "" && unheaded.length > 0 && !unheadedBlank) unheadedBlank = true;
        else {
          const failed = unheadedBlank ? /^test result: FAILED\..*?\b(\d+) failed\b/.exec(text) : null;
          if (failed && listed.length === 0 && Number(failed[1]) >= unheaded.length) listed = unheaded;
          unheaded = [];
          unheadedBlank = false;
        }
      }
      if (listing) {
        const l = text.startsWith("    ") ? LISTED.exec(text) : null;
        if (l) {
          if (listed.length < 5_000) listed.push({ id: l[1]!, lineNo, text });
          // A list of names, not the heading of blocks: a block after it is no failure by the heading alone.
          pastedFailures = false;
          return true;
        }
        if (text.trim() !== "" && !RESULT.test(text)) {
          listing = false;
          listed = [];
        }
      }
      if (listed.length > 0 && !inRun && !block?.fragment && RESULT.test(text)) {
        flushList(text);
        sink.summary(countWords(text));
        return true;
      }
      const usageAbove = inUsage;
      inUsage = USAGE.test(text) || (inUsage && USAGE_MORE.test(text));
      const re = RUST_ERROR.exec(text);
      if (re) {
        // A command-line error under the program's usage text: red, nothing identified.
        if (!re[1] && usageAbove) return true;
        if (AGGREGATE.test(re[2]!)) return true;
        // A test binary (or a `cargo run` program) that died, by a signal or an exit code: the run failed, but
        // nothing here names a test or a file that does not compile. Red, with no failure invented.
        if (re[2]!.startsWith("process didn't exit successfully")) {
          flushBlock();
          sink.summary({ passed: 0, failed: 0, skipped: 0, error: 1 });
          return true;
        }
        // Another program's exit status under a bare `error:` (rpmbuild's `error: Bad exit status from
        // /var/tmp/rpm-tmp.x (%check)`, a tool's `error: command exited with code 1`) is a status, not a diagnostic:
        // the output above names what failed, or nothing does.
        if (!re[1] && isExitStatus(re[2]!)) return true;
        // An `error:` between `running N tests` and the run's result is the tests' own output (`--nocapture`
        // prints it there), or, with a code, in a failed doc-test's block, rustdoc's compile error of that doc-test:
        // the block's failure, not a build failure of its own. rustc's diagnostics of the build come before a run.
        if (inRun && (!re[1] || block)) {
          block?.buf.push(text, lineNo);
          return true;
        }
        flushBlock();
        rustc = { code: re[1] ?? null, message: re[2]!, buf: new BlockBuffer(), loc: null };
        rustc.buf.push(text, lineNo);
        return true;
      }
      if (/^warning\b/.test(text) || /^For more information about this error/.test(text)) return true;
      if (CARGO_STATUS.test(text)) return true;
      if (RUNNING.test(text)) {
        flushBlock();
        listing = false;
        listed = [];
        flushProgress();
        inRun = true;
        runFailed = 0;
        failuresList = false;
        pastedFailures = false;
        return true;
      }
      if (!inRun) {
        if (text === "successes:") sawSuccesses = true;
        const f = text.startsWith("---- ") ? STDOUT.exec(text) : null;
        if (f) {
          // libtest prints the successes' blocks (`--show-output`) before the failures': a block right after one that
          // panicked is in the failures section, a failure even when a cut left no panic in it (unless the paste holds
          // a `successes:` heading: a passing `should_panic` test's block shows a panic too).
          const afterFailed = !sawSuccesses && block?.fragment === true && block.evidence;
          flushBlock();
          block = {
            id: f[1]!,
            buf: new BlockBuffer(),
            fragment: true,
            evidence: pastedFailures || afterFailed,
          };
          block.buf.push(text, lineNo);
          return true;
        }
        // A doc-test's panic pasted without its block header or result line (rustdoc before 1.5x reported a failed
        // doc-test as `thread 'src/lib.rs - f (line 3)' panicked at 'test executable failed:` with the program's own
        // panic below): libtest names the thread after the test, and a doc-test's name cannot be another thread's.
        // Any other thread (`main`, a worker) names no test.
        if (!block && text.includes("' panicked at ")) {
          const e = FRAGMENT_EVIDENCE.exec(text);
          if (e?.[1] !== undefined && isDocTest(e[1])) {
            opening = false;
            block = { id: e[1], buf: new BlockBuffer(), fragment: true, evidence: true };
            block.buf.push(text.trimStart(), lineNo);
            return true;
          }
        }
        if (block?.fragment) {
          if (RESULT.test(text)) {
            flushBlock();
            flushList(text);
            pastedFailures = false;
            sink.summary(countWords(text));
            return true;
          }
          if (FAILURES.test(text)) {
            flushBlock();
            // libtest's closing list of names: no block follows it.
            pastedFailures = false;
            listing = true;
            return true;
          }
          const e = FRAGMENT_EVIDENCE.exec(text);
          if (
            e &&
            (e[1] === undefined ||
              e[1] === block.id ||
              block.id.endsWith(`::${e[1]}`) ||
              e[1].endsWith(block.id))
          )
            block.evidence = true;
          else if (!block.evidence && DOCTEST_FAILED.test(text) && isDocTest(block.id)) block.evidence = true;
          block.buf.push(text, lineNo);
          return true;
        }
        if (FAILURES.test(text)) {
          pastedFailures = true;
          listing = true;
          return true;
        }
        if (pastedFailures && text.trim() !== "") pastedFailures = false;
        return pastedFailures;
      }
      const t = TEST.exec(text);
      if (t) {
        const o = t[2]!;
        if (o === "FAILED") runFailed++;
        if (o === "FAILED" && progressFailed.length < 5_000) progressFailed.push({ id: t[1]!, lineNo, text });
        sink.test(
          t[1]!,
          o === "ok" || o.startsWith("bench") ? "passed" : o === "FAILED" ? "failed" : "skipped",
        );
        return true;
      }
      const s = STDOUT.exec(text);
      if (s) {
        flushBlock();
        block = { id: s[1]!, buf: new BlockBuffer(), fragment: false, evidence: true };
        block.buf.push(text, lineNo);
        return true;
      }
      if (FAILURES.test(text)) {
        flushBlock();
        failuresList = true;
        listing = true;
        return true;
      }
      if (RESULT.test(text)) {
        flushBlock();
        flushList(text);
        flushProgress();
        sink.summary(countWords(text));
        inRun = false;
        runFailed = 0;
        failuresList = false;
        return true;
      }
      if (block) {
        block.buf.push(text, lineNo);
        return true;
      }
      return failuresList || text.trim() === "";
    },
    end(): void {
      flushBlock();
      const cut = flushCutList();
      flushProgress();
      if (inRun && runFailed > 0) sink.summary({ passed: 0, failed: runFailed });
      flushRustc();
      if (openingTest && cut.has(openingTest.id)) openingTest = null;
      flushOpening();
    },
  };
}

export const cargoFormat: FormatDefinition = {
  name: "cargo",
  description: "cargo test (libtest output) and rustc compile errors",
  create: createCargoParser,
};
