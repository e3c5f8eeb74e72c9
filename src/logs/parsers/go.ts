/**
 * `go test` plain and `-v` output: `=== RUN`, `--- FAIL: TestX (0.00s)` (nested for subtests), the
 * test's log lines, panics, build failures (`# pkg` then `file.go:3:2: msg`, `FAIL pkg [build failed]`)
 * and the per-package `ok`/`FAIL` lines that give test ids their package.
 */
import { BlockBuffer, type FailureDraft, type FormatDefinition, type ParserSink } from "../parser.ts";
import { GoFailures, goFailureFromOutput, RaceReports } from "./go-output.ts";

const RUN = /^=== (RUN|PAUSE|CONT|NAME)\s+(\S+)$/;
const PROCS_SUFFIX = /^((?:Test|Example|Fuzz)\w*)-\d+(?=\/|$)/;
const RESULT = /^(\s*)--- (FAIL|PASS|SKIP): (\S+) \([\d.]+(?:s| seconds)\)$/;
const PACKAGE =
  /^(ok|FAIL|\?)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[build failed\]|\[setup failed\]|\[no test files\])/;
/** Code hosts whose import paths name a repository in three parts (`github.com/owner/repo`). */
const CODE_HOSTS = new Set(["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"]);
const BUILD_HEADER = /^# (\S+)(?: \[.*\])?$/;
// Go before 1.10 (and its vet) printed no column: `./acceptor.go:48: Panicf call needs 1 arg but has 2 args`.
const COMPILE = /^((?:\.\.?\/)?[\w./-]+\.go):(\d+)(?::(\d+))?: (.*)$/;
const PANIC = /^panic: /;
/** The test alarm's panic (`-timeout`): the tests still running are the failures, not the test the output was in. */
const TIMEOUT = /^panic: test timed out after /;
/** Go 1.20+ lists them below the panic: `running tests:`, then `\tTestX (10m0s)` (one more tab when pasted). */
const RUNNING_HEADER = /^\s*running tests:$/;
const RUNNING = /^\s+(\S+) \((?:[\d.]+(?:h|m|s|ms|µs|us|ns))+\)$/;
/** A goroutine trace's frame in a test function: `example.com/x/pkg.TestY.func1()`, `created by example.com/x/pkg.TestY`. */
const TEST_FRAME = /^(?:created by )?[\w.~/-]+\.(Test\w*)(?:\.func\d+)*(?:\(| in goroutine|$)/;
/**
 * The same frame read for its package: the import path (its last element's dots escaped `%2e`), then a test function
 * (`pkg.TestY`) or a method of a suite type (`pkg.(*suite).TestSub`, testify's subtests).
 */
const PKG_FRAME =
  /^(?:created by )?((?:[\w.~-]+\/)*[\w~%-]+)\.(?:\(\*?\w+\)\.)?(Test\w*)(?:\.func\d+)*(?:\(| in goroutine|$)/;
/**
 * A result line whose `--- FAIL` marker a paste cut (`: TestX (0.02s)`): a failure only when go's race line follows
 * it (see RACE_LINE), which go prints only under a failed test.
 */
const CUT_RESULT = /^: (Test\S*) \([\d.]+s\)$/;
/** testify's block: `Error Trace:` with its first frame, then more frames, then `Error:`, `Test:`, `Messages:`. */
const TESTIFY_TRACE = /^\s+Error Trace:\s+(\S+\.go:\d+)$/;
const TESTIFY_FRAME = /^\s+(\S+\.go:\d+)$/;
const TESTIFY_LABEL = /^\s+(Error|Test|Messages|Diff|expected|actual)\s*:\s+(.*)$/;
/** go's package line, a panic: lines only go prints. */
const GO_OWN = /^(?:ok|FAIL|panic:)\s/;
const RACE_LINE = /^\s+testing\.go:\d+: race detected during execution of test$/;

/**
 * gotestsum: its summary (`=== Failed`, then `=== FAIL: <pkg> <Test> [(re-run N) ](1.05s)` with the test's output
 * indented below) and its `testname` format's result lines (`FAIL internal/scale.TestGrams/odd (0.00s)`). The
 * package is printed relative to the module; the id keeps it as printed (`shelf.TestCountJam`).
 */
const GOTESTSUM_FAIL = /^=== (FAIL|SKIP): (\S+) (\S+) (?:\(re-run \d+\) )?\([\d.]+s\)$/;
const GOTESTSUM_RESULT =
  /^(PASS|FAIL|SKIP) ((?:[\w.~-]+\/)*[\w.~-]+)\.(Test\S*|Example\S*|Fuzz\S*) (?:\(re-run \d+\) )?\([\d.]+s\)$/;
const GOTESTSUM_DONE = /^DONE (?:\d+ runs?, )?\d+ tests?(?:, .*)? in [\d.]+s$/;
/**
 * A shell prompt under GOPATH running `go test` on the package it is in (no package argument, flags only): Windows'
 * `E:\go\src\github.com\x\y>go test -v`, a Unix `me@host:~/go/src/github.com/x/y$ go test`. The directory below
 * `src` is the import path of the package tested: the package of failures no go package line follows (a cut paste).
 */
const GOPATH_PROMPT =
  /^(?:[A-Za-z]:\\(?:[^\s>\\]+\\)*src\\((?:[\w.~-]+\\)*[\w.~-]+)>|[\w.-]+@[\w.-]+:(?:~|\/)(?:[^\s/$]*\/)*src\/((?:[\w.~-]+\/)*[\w.~-]+)\$) ?go test(?: -[\w.=-]+(?: [^\s./-][^\s/]*)?)*\s*$/;
/**
 * A shell prompt running `go test` with flags only (`$ go test`, `me@host:~/x$ go test -coverprofile=out`): the
 * package in the shell's directory. The same prompt run again, no other command between, tests the same package: a
 * later run cut before its package line has the package an earlier one printed as its only package line.
 */
const PLAIN_PROMPT = /^((?:[\w.-]+@[\w.-]+:[^\s$]*)?\$ )go test(?: -[\w.=-]+(?: [^\s./-][^\s/]*)?)*\s*$/;
/** Any other command at a shell prompt (`$ cd sub`, `$ go test ./...`): the directory or the packages may differ. */
const OTHER_PROMPT = /^(?:[\w.-]+@[\w.-]+:[^\s$]*)?\$ \S/;

/**
 * A tool that runs `go test` once per package and heads each run with the package (Fedora's go-rpm-integration:
 * `      testing: github.com/x/y`): the package of failures no go package line follows (a cut log).
 */
const TESTING_HEADER = /^\s*testing: ((?:[\w.~-]+\/)*[\w.~-]+)$/;
/**
 * The same header printed bare (Fedora's `%gotest` runs): an import path alone on its line, its first element a
 * host (`github.com/x/y/internal/dirent`), heads a package's run when go's first test line follows it at once.
 */
const BARE_PACKAGE = /^(?:[\w-]+\.)+[a-z]{2,}(?:\/[\w.~-]+)+$/;
/**
 * Several go event lines joined into one (a bot or a paste that lost the newlines): `=== RUN   Test --- FAIL: Test
 * (0.00s) Failed`. Split before each `=== RUN`/`--- FAIL:` marker; a result's trailing text is its output.
 */
const JOINED_MARK = / (?==== (?:RUN|PAUSE|CONT|NAME)\s+\S|--- (?:FAIL|PASS|SKIP): \S+ \([\d.]+s\))/;
const RESULT_TAIL = /^(--- (?:FAIL|PASS|SKIP): \S+ \([\d.]+s\)) (\S.*)$/;

interface TestState {
  name: string;
  buf: BlockBuffer;
  result: "FAIL" | "PASS" | "SKIP" | null;
  /** Seen `=== RUN` or `=== CONT`: started (a paused test that never continued did not run). */
  ran: boolean;
}

/** Bazel's test.log header naming the target it ran, in the main repository (no `@repo`), with a package. */
const BAZEL_TARGET = /^Executing tests from \/\/([\w.+-]+(?:\/[\w.+-]+)*):[\w.+-]+\s*$/;

export function createGoParser(sink: ParserSink) {
  const tests = new Map<string, TestState>();
  let last: TestState | null = null;
  let afterResult: TestState | null = null;
  let resultIndent = -1;
  /**
   * A paste that indented the whole log (a reporter's fence or quote kept four spaces): the indentation of a
   * `--- FAIL: TestX` line that is the log's first go line, so no test's output could be quoting it. Result lines at that
   * indentation are top-level results.
   */
  let pasteIndent: number | null = null;
  let inPanic = false;
  /**
   * The test binary printed its bare `PASS`: every test it ran passed. A panic after it (a goroutine a test left
   * running) happened after the last test ended: the package fails, but the test the output last named did not.
   */
  let binaryPassed = false;
  /** A panic being read: its lines, and the test the output around it pointed at (null when none). */
  let panic: {
    buf: BlockBuffer;
    candidate: TestState | null;
    /** A test alarm's panic: the names of its `running tests:` list (empty when Go printed none). */
    timeout: string[] | null;
    listing: boolean;
  } | null = null;
  let build: { pkg: string; buf: BlockBuffer } | null = null;
  const held = new GoFailures();
  const races = new RaceReports(sink);
  /** gotestsum's summary blocks and result lines, by id (a re-run's block repeats its test: one failure). */
  let gts: { id: string; pkg: string; buf: BlockBuffer } | null = null;
  const gtsBlocks = new Map<string, { pkg: string; buf: BlockBuffer }>();
  const gtsFailed = new Set<string>();
  /** Tests `--rerun-fails` ran again and saw pass: flaky, not failing (the `=== Failed` summary still lists them). */
  const gtsPassedOnRerun = new Set<string>();
  let gotestsum = false;
  /** Failures of the current package, waiting for the package line to get their ids. */
  let waiting: { state: TestState }[] = [];
  /** The package a run-per-package tool's `testing:` header named (see TESTING_HEADER); null after go's own line. */
  let headerPkg: string | null = null;
  /** The package a GOPATH prompt's `go test` ran in (see GOPATH_PROMPT), for failures no package line names. */
  let promptPkg: string | null = null;
  /**
   * The current flags-only run at a shell prompt (see PLAIN_PROMPT): its prompt and the package lines it printed; and
   * the package the previous run at that same prompt printed alone.
   */
  let plainRun: { prompt: string; pkgs: Set<string> } | null = null;
  let plainPkg: { prompt: string; pkg: string } | null = null;
  /** A bare import path on the line just before (see BARE_PACKAGE). */
  let barePkg: string | null = null;
  /**
   * The directory of a Bazel test.log's target (`Executing tests from //go/lib/periodic:go_default_test`, a target of
   * the main repository): a go_test's sources are in its package, so go's base file names are put under it.
   */
  let bazelDir: string | null = null;
  /** A result line without its marker on the line just before (see CUT_RESULT). */
  let cutResult: { name: string; text: string; lineNo: number } | null = null;

  /** A bare import path right above a package run's first test line names that package (see BARE_PACKAGE). */
  function takeBare(bare: string | null): void {
    if (bare === null) return;
    // The previous run's failures, if its package line was cut, belong to the previous header.
    if (waiting.length > 0 || tests.size > 0) {
      if (headerPkg === null) return;
      finishPackage(headerPkg);
    }
    headerPkg = bare;
  }

  /** A go test line was seen (`=== RUN`, a `--- FAIL` result, a package line, a panic): go's lines name the tests. */
  let goLines = false;
  /** testify's failure block being read (`Error Trace:`, `Error:`, `Test:` labels), and the whole ones. */
  let testify: {
    frames: string[];
    error: string | null;
    test: string | null;
    buf: BlockBuffer;
  } | null = null;
  const testifyFailures: FailureDraft[] = [];

  function closeTestify(): void {
    const t = testify;
    testify = null;
    if (!t || t.error === null || t.test === null || testifyFailures.length >= 1000) return;
    if (testifyFailures.some((f) => f.test === t.test)) return;
    // The place: the first frame of the trace outside Go's own sources (a helper of the repository, or the test).
    const own = t.frames.find(
      (f) => !/^(?:GOROOT\/|\/usr\/(?:local\/)?(?:lib\/)?go\/|\/opt\/hostedtoolcache\/go\/)/.test(f),
    );
    const at = own ? /^(.+\.go):(\d+)$/.exec(own) : null;
    testifyFailures.push({
      category: "test",
      test: t.test,
      file: at ? sink.path(at[1]!) : null,
      line: at ? Number(at[2]) : null,
      errorType: null,
      message: t.error || `${t.test} failed`,
      stack: t.buf.text(),
      start: t.buf.start,
      end: t.buf.end,
    });
  }

  /**
   * testify's failure block: `Error Trace:` and its frames, `Error:`, `Test:` (the failed test's name), `Messages:`.
   * Read for a log that holds no go test line (a block pasted alone): its `Test:` label names the test.
   */
  function testifyLine(text: string, lineNo: number): void {
    const trace = TESTIFY_TRACE.exec(text);
    if (trace) {
      closeTestify();
      testify = { frames: [trace[1]!], error: null, test: null, buf: new BlockBuffer(40, 4000) };
      testify.buf.push(text, lineNo);
      return;
    }
    const t = testify!;
    const label = TESTIFY_LABEL.exec(text);
    if (label) {
      t.buf.push(text, lineNo);
      if (label[1] === "Error") t.error = label[2]!.trim();
      else if (label[1] === "Test") t.test = /^Test\S*$/.test(label[2]!.trim()) ? label[2]!.trim() : null;
      return;
    }
    const frame = TESTIFY_FRAME.exec(text);
    if (frame && t.error === null && t.test === null) {
      t.buf.push(text, lineNo);
      t.frames.push(frame[1]!);
      return;
    }
    closeTestify();
  }

  function stateOf(printed: string): TestState {
    // Go before 1.7 printed a top-level test with GOMAXPROCS after it when that was not 1 (`--- FAIL: TestX-4`); a
    // test function's name is a Go identifier, which has no `-`, so the suffix is never part of the name.
    const name = printed.replace(PROCS_SUFFIX, "$1");
    let s = tests.get(name);
    if (!s) {
      s = { name, buf: new BlockBuffer(200, 16_000), result: null, ran: false };
      if (tests.size < 10_000) tests.set(name, s);
    }
    return s;
  }

  /**
   * A panic's trace names the test whose goroutine panicked. A panic in a goroutine the test started kills the
   * test binary with no `--- FAIL` line for that test (the binary dies), so the lines around it may point at
   * another test, or at none (plain output): the test named by the trace is the failure.
   */
  function closePanic(): void {
    if (!panic) return;
    if (panic.timeout) {
      closeTimeout(panic.timeout, panic.buf);
      panic = null;
      return;
    }
    let target = panic.candidate;
    const named = panic.buf.lines.map((l) => TEST_FRAME.exec(l)).find((m) => m !== null)?.[1];
    if (named && (!target || target.name.split("/")[0] !== named)) target = stateOf(named);
    if (target) {
      for (let i = 0; i < panic.buf.lines.length; i++)
        target.buf.push(panic.buf.lines[i]!, panic.buf.start + i);
      if (target.result !== "FAIL") {
        target.result = "FAIL";
        waiting.push({ state: target });
      }
    } else {
      // A panic no test owns (after the binary's PASS, or in plain output naming none): the run failed, and
      // nothing here names a failing test. Red, with no failure invented.
      sink.summary({ passed: 0, failed: 0, error: 1 });
    }
    panic = null;
  }

  /**
   * The test alarm fired: the tests it lists as running (Go 1.20+) failed; without the list, the tests that
   * started and never printed a result; without those, the test function the goroutine dump shows under
   * `testing.tRunner`. A parent listed only because its subtest runs is not a failure of its own.
   */
  function closeTimeout(listed: string[], buf: BlockBuffer): void {
    let names = listed;
    if (names.length === 0)
      names = [...tests.values()].filter((s) => s.ran && s.result === null).map((s) => s.name);
    let own: [text: string, lineNo: number][] | null = null;
    if (names.length === 0) {
      // `TestMain(m *testing.M)` is the test binary's main, blocked in `m.Run` while the tests run: never a test.
      const at = buf.lines.findIndex((l) => {
        const m = TEST_FRAME.exec(l);
        return m !== null && m[1] !== "TestMain";
      });
      if (at >= 0) {
        names = [TEST_FRAME.exec(buf.lines[at]!)![1]!];
        // The test's own goroutine (its `goroutine N [` header to the blank line after it): the alarm's and the other
        // goroutines' frames are not where this test stopped.
        let from = at;
        while (from > 0 && !/^goroutine \d+ \[/.test(buf.lines[from]!)) from--;
        let to = at;
        while (to + 1 < buf.lines.length && buf.lines[to + 1]!.trim() !== "") to++;
        own = [[buf.lines[0]!, buf.start]];
        for (let i = from; i <= to; i++) own.push([buf.lines[i]!, buf.start + i]);
      }
    }
    // Each name's direct parent (`A/b` of `A/b/c`): Go lists and starts every level, so that marks all parents,
    // in time linear in the names' length.
    const parents = new Set<string>();
    for (const n of names) if (n.includes("/")) parents.add(n.slice(0, n.lastIndexOf("/")));
    const leaves = names.filter((n) => !parents.has(n));
    for (const name of leaves.slice(0, 1_000)) {
      const target = stateOf(name);
      if (own) for (const [text, lineNo] of own) target.buf.push(text, lineNo);
      else for (let i = 0; i < buf.lines.length; i++) target.buf.push(buf.lines[i]!, buf.start + i);
      if (target.result !== "FAIL") {
        target.result = "FAIL";
        waiting.push({ state: target });
      }
    }
  }

  /**
   * Tests that failed (themselves or through a subtest) in a run the log finished under its package. The same command
   * run again and cut before its `FAIL pkg` line (`go test -v ./… | grep FAIL` pasted run after run) repeats those
   * tests with no package: such a test is the one already reported, not another.
   */
  const failedInPackage = new Set<string>();
  /** How many `ok`/`FAIL`/`?` package lines named each package (see loopPackage). */
  const packageLines = new Map<string, number>();

  /** The number of the last line offered. */
  let lastSeen = 0;

  /**
   * No package line after a test the log's end cut (its block runs to the log's last line), and every package line of
   * the log names one same package, at least twice: the same `go test` run again and again (a shell loop hunting a
   * flaky test) covers that package only, so the cut run was that package's too. One package line may be one run of
   * many packages (the rest cut), and a block that other lines follow (an elision, `[...]`) was not cut: not read.
   */
  function loopPackage(atEnd: boolean): string | null {
    if (!atEnd || !waiting.some((w) => w.state.buf.end === lastSeen)) return null;
    if (packageLines.size !== 1) return null;
    const [pkg, n] = packageLines.entries().next().value!;
    return n >= 2 ? pkg : null;
  }

  function finishPackage(printed: string | null, atEnd = false): void {
    closePanic();
    const samePrompt = plainRun && plainPkg?.prompt === plainRun.prompt ? plainPkg.pkg : null;
    const known = printed ?? packageFromFrames() ?? promptPkg ?? samePrompt;
    const pkg = known ?? loopPackage(atEnd);
    const prefix = pkg ? `${pkg}.` : "";
    const failedNames = new Set(waiting.map((w) => w.state.name));
    // A loop's cut run repeats tests an earlier run of the package finished (reported, or parents of reported ones).
    if (known) {
      for (const n of failedNames) if (failedInPackage.size < 10_000) failedInPackage.add(n);
    } else if (failedInPackage.size > 0) {
      waiting = waiting.filter((w) => !failedInPackage.has(w.state.name));
    }
    for (const s of tests.values()) {
      if (s.result === null) continue;
      const id = prefix + s.name;
      sink.test(id, s.result === "PASS" ? "passed" : s.result === "SKIP" ? "skipped" : "failed");
    }
    for (const { state } of waiting) {
      const hasOwnOutput = state.buf.lines.some((l) => !/^\s*(?:=== |--- )/.test(l) && l.trim() !== "");
      // A parent whose only problem is its failed subtests is not a failure of its own.
      if (!hasOwnOutput && [...failedNames].some((n) => n.startsWith(`${state.name}/`))) continue;
      const draft: FailureDraft | null = goFailureFromOutput(
        prefix + state.name,
        state.buf.lines,
        sink,
        { start: state.buf.start, end: state.buf.end },
        races.location,
      );
      if (draft) {
        // go prints the test file's base name; a Bazel test.log's target names the package's directory.
        if (bazelDir && draft.file && !draft.file.includes("/")) draft.file = `${bazelDir}/${draft.file}`;
        held.hold(pkg, draft, sink);
      }
    }
    waiting = [];
    tests.clear();
    last = null;
    afterResult = null;
    inPanic = false;
  }

  /**
   * No package line (a cut log): the package a failing test's own trace frame names, the frame of its test function
   * (`example.com/x/pkg.TestA`) or of a suite method named as one of its subtests (`pkg.(*s).TestSub` for
   * `TestA/TestSub`). An external test package's frames say `pkg_test`: go's package line says `pkg`.
   */
  function packageFromFrames(): string | null {
    for (const { state } of waiting) {
      const [top, ...subs] = state.name.split("/");
      for (const l of state.buf.lines) {
        const m = PKG_FRAME.exec(l);
        if (!m) continue;
        const method = /\.\(\*?\w+\)\./.test(l.slice(m[1]!.length));
        if (method ? subs.includes(m[2]!) : m[2] === top)
          return m[1]!.replace(/%2e/gi, ".").replace(/_test$/, "");
      }
    }
    return null;
  }

  /**
   * A GOPATH checkout's compiler message names the file under `$GOPATH/src/<import path>/` (`src/github.com/x/y/a.go`
   * when go runs in `$GOPATH`): the file is the rest of the path inside its repository, whose root is the import
   * path's first three parts on a code host (`github.com/x/y`), else the package's own directory.
   */
  function gopathRelative(file: string, pkg: string): string {
    const at = file.indexOf(`src/${pkg}/`);
    if (at < 0 || (at > 0 && file[at - 1] !== "/")) return file;
    const parts = pkg.split("/");
    const root = parts.length >= 3 && CODE_HOSTS.has(parts[0]!) ? parts.slice(0, 3).join("/") : pkg;
    return file.slice(at + 4 + root.length + 1);
  }

  // One failure per file that does not compile: a file's further errors (`:266:10`, `:267:8`) are more lines of
  // the same failure, its place the first of them.
  function flushBuild(): void {
    if (!build) return;
    const byFile = new Map<string, { line: number; column: number | null; messages: string[] }>();
    for (const l of build.buf.lines) {
      const m = COMPILE.exec(l);
      if (!m) continue;
      const file = sink.path(gopathRelative(m[1]!, build.pkg));
      const seen = byFile.get(file);
      if (seen) seen.messages.push(`${m[2]}: ${m[4]!}`);
      else
        byFile.set(file, {
          line: Number(m[2]),
          column: m[3] === undefined ? null : Number(m[3]),
          messages: [m[4]!],
        });
    }
    for (const [file, e] of byFile) {
      sink.failure({
        category: "build",
        test: null,
        file,
        line: e.line,
        column: e.column,
        errorType: "compile",
        message: e.messages.join("\n"),
        stack: build.buf.text(),
        start: build.buf.start,
        end: build.buf.end,
      });
    }
    build = null;
  }

  function closeGotestsum(): void {
    if (gts && !gtsBlocks.has(gts.id) && gtsBlocks.size < 5_000) gtsBlocks.set(gts.id, gts);
    else if (gts && gts.buf.lines.length > (gtsBlocks.get(gts.id)?.buf.lines.length ?? 0))
      gtsBlocks.set(gts.id, gts);
    gts = null;
  }

  /** gotestsum's failures: a parent whose block holds only its failed subtests is not a failure of its own. */
  function finishGotestsum(): void {
    closeGotestsum();
    for (const id of gtsFailed) {
      if (gtsPassedOnRerun.has(id)) continue;
      const block = gtsBlocks.get(id);
      const own = block?.buf.lines
        .slice(1)
        .some((l) => l.trim() !== "" && !/^\s*--- (?:FAIL|PASS|SKIP):/.test(l));
      if (!own && [...gtsFailed].some((o) => o.startsWith(`${id}/`))) continue;
      const pkg = block?.pkg ?? id.slice(0, id.lastIndexOf(".", id.search(/\.(?:Test|Example|Fuzz)/) + 1));
      const lines = block?.buf.lines.slice(1) ?? [];
      const draft = goFailureFromOutput(id, lines, sink, {
        start: block?.buf.start ?? 0,
        end: block?.buf.end ?? 0,
      }) ?? { category: "test" as const, test: id, message: "test failed", start: 0, end: 0 };
      if (draft.file && !draft.file.includes("/")) {
        // A path the output gives in full (testify's `Error Trace:`) that ends with the file; else the package's
        // directory, printed relative to the module.
        const name = draft.file;
        const full = lines
          .map((l) => /((?:[A-Za-z]:)?[\w./~-]*\/[\w.-]+\.go):(\d+)/.exec(l))
          .find((m) => m !== null && m[1]!.endsWith(`/${name}`) && Number(m[2]) === draft.line);
        const mapped = full ? sink.path(full[1]!) : null;
        if (mapped && !/^(?:\/|[A-Za-z]:\/)/.test(mapped)) draft.file = mapped;
        else if (/^[\w~-]+(?:\/[\w.~-]+)*$/.test(pkg) && !pkg.split("/", 1)[0]!.includes("."))
          draft.file = `${pkg}/${name}`;
      }
      if (draft.start === 0) {
        draft.start = 1;
        draft.end = 1;
      }
      sink.failure(draft);
    }
  }

  const parser = {
    line(text: string, lineNo: number): boolean {
      lastSeen = lineNo;
      if (text.charCodeAt(0) === 69 /* E */ && text.startsWith("Executing tests from ")) {
        const b = BAZEL_TARGET.exec(text);
        bazelDir = b ? b[1]! : null;
      }
      const firstGoLine = !goLines;
      if (!goLines && (text.startsWith("=== ") || text.includes("--- ") || GO_OWN.test(text))) goLines = true;
      if (text.includes(":") && (testify || TESTIFY_TRACE.test(text))) testifyLine(text, lineNo);
      const bare = barePkg;
      barePkg = null;
      const pending = cutResult;
      cutResult = null;
      if (BARE_PACKAGE.test(text)) {
        barePkg = text;
        return false;
      }
      if (text.startsWith("=== RUN") && JOINED_MARK.test(text)) {
        for (const part of text.split(JOINED_MARK)) {
          const tail = RESULT_TAIL.exec(part);
          if (tail) {
            parser.line(tail[1]!, lineNo);
            parser.line(`    ${tail[2]!}`, lineNo);
          } else parser.line(part, lineNo);
        }
        return true;
      }
      const prompt = text.includes("go test") ? GOPATH_PROMPT.exec(text) : null;
      if (prompt) {
        // A new command: the previous one's failures keep what named their package before it.
        if (waiting.length > 0 || tests.size > 0) finishPackage(headerPkg);
        promptPkg = (prompt[1] ?? prompt[2]!).replace(/\\/g, "/");
        return false;
      }
      const plain = text.includes("go test") ? PLAIN_PROMPT.exec(text) : null;
      if (plain || (text.includes("$ ") && OTHER_PROMPT.test(text))) {
        // A new run: the previous one's failures keep what named their package before it.
        if (plain && (waiting.length > 0 || tests.size > 0)) finishPackage(headerPkg);
        const prompt = plain ? plain[1]! : null;
        const before = plainRun !== null && plainRun.prompt === prompt ? plainRun.pkgs : null;
        // The previous run at this prompt printed one package: this run's. It printed none (cut, or a build error
        // only): the package known before it stays.
        plainPkg =
          prompt === null || before === null
            ? null
            : before.size === 1
              ? { prompt, pkg: [...before][0]! }
              : before.size === 0 && plainPkg?.prompt === prompt
                ? plainPkg
                : null;
        plainRun = prompt === null ? null : { prompt, pkgs: new Set() };
        return false;
      }
      const header = text.includes("testing: ") ? TESTING_HEADER.exec(text) : null;
      if (header && (header[1]!.includes("/") || header[1]!.includes("."))) {
        // The previous run's failures, if its package line was cut, belong to the previous header.
        if (headerPkg && (waiting.length > 0 || tests.size > 0)) finishPackage(headerPkg);
        headerPkg = header[1]!;
        return false;
      }
      if (text.startsWith("=== ") || gts) {
        const g = GOTESTSUM_FAIL.exec(text);
        if (g) {
          closeGotestsum();
          gotestsum = true;
          const id = `${g[2]}.${g[3]}`;
          if (g[1] === "FAIL") {
            gtsFailed.add(id);
            gts = { id, pkg: g[2]!, buf: new BlockBuffer(200, 16_000) };
            gts.buf.push(text, lineNo);
          } else sink.test(id, "skipped");
          return true;
        }
        if (gts) {
          if (text.trim() === "" || /^\s/.test(text)) {
            gts.buf.push(text, lineNo);
            return true;
          }
          closeGotestsum();
        }
        if (gotestsum && /^=== (?:Failed|Skipped|Errors)$/.test(text)) return true;
      }
      if (text.charCodeAt(1) === 65 || text.charCodeAt(1) === 75 || text.charCodeAt(1) === 79) {
        // PASS / SKIP / DONE: only the `testname` format's result lines and gotestsum's last line.
        const r = GOTESTSUM_RESULT.exec(text);
        if (r) {
          gotestsum = true;
          const id = `${r[2]}.${r[3]}`;
          if (r[1] === "FAIL") gtsFailed.add(id);
          else sink.test(id, r[1] === "PASS" ? "passed" : "skipped");
          if (r[1] === "PASS" && text.includes("(re-run ") && gtsPassedOnRerun.size < 10_000)
            gtsPassedOnRerun.add(id);
          return true;
        }
        if (gotestsum && GOTESTSUM_DONE.test(text)) return true;
      }
      const pkg = PACKAGE.exec(text);
      if (pkg) {
        flushBuild();
        headerPkg = null;
        held.see(pkg[2]!);
        if (packageLines.has(pkg[2]!) || packageLines.size < 1_000)
          packageLines.set(pkg[2]!, (packageLines.get(pkg[2]!) ?? 0) + 1);
        if (plainRun && plainRun.pkgs.size < 2) plainRun.pkgs.add(pkg[2]!);
        if (pkg[1] !== "?") finishPackage(pkg[2]!);
        return true;
      }
      const bh = BUILD_HEADER.exec(text);
      if (bh && /[./]/.test(bh[1]!)) {
        flushBuild();
        build = { pkg: bh[1]!, buf: new BlockBuffer() };
        build.buf.push(text, lineNo);
        return true;
      }
      if (build) {
        if (COMPILE.test(text) || text.startsWith("\t") || /^note: /.test(text)) {
          build.buf.push(text, lineNo);
          return true;
        }
        flushBuild();
      }
      if (races.line(text)) return true;
      const run = RUN.exec(text);
      if (run) binaryPassed = false;
      if (run) {
        takeBare(bare);
        const s = stateOf(run[2]!);
        if (run[1] === "RUN" || run[1] === "CONT" || run[1] === "NAME") last = s;
        if (run[1] !== "PAUSE" && run[1] !== "NAME") s.ran = true;
        afterResult = null;
        return true;
      }
      const cut = CUT_RESULT.exec(text);
      if (cut) {
        cutResult = { name: cut[1]!, text, lineNo };
        return false;
      }
      if (pending && RACE_LINE.test(text)) {
        const s = stateOf(pending.name);
        s.result = "FAIL";
        s.buf.push(pending.text, pending.lineNo);
        s.buf.push(text, lineNo);
        waiting.push({ state: s });
        afterResult = s;
        resultIndent = 0;
        last = null;
        return true;
      }
      const r = RESULT.exec(text);
      // An indented result line names a subtest (`Parent/sub`); an indented `--- FAIL: TestX` with no `/` is a
      // test's own log output quoting a result, not a result.
      if (r && r[1]!.length > 0 && pasteIndent === null && firstGoLine) {
        pasteIndent = r[1]!.length;
      }
      if (r && r[1]!.length > 0 && r[1]!.length !== pasteIndent && !r[3]!.includes("/")) {
        const target = afterResult ?? last;
        if (target) {
          target.buf.push(text, lineNo);
          return true;
        }
        return false;
      }
      if (r) {
        if (r[1]!.length === 0 || r[1]!.length === pasteIndent) takeBare(bare);
        binaryPassed = false;
        const s = stateOf(r[3]!);
        s.result = r[2] as TestState["result"];
        s.buf.push(text, lineNo);
        if (s.result === "FAIL") waiting.push({ state: s });
        afterResult = s;
        resultIndent = r[1]!.length;
        last = null;
        return true;
      }
      if (PANIC.test(text)) {
        closePanic();
        inPanic = true;
        const timeout = TIMEOUT.test(text);
        const candidate =
          timeout || binaryPassed
            ? null
            : (afterResult ?? last ?? waiting[waiting.length - 1]?.state ?? null);
        panic = {
          buf: new BlockBuffer(200, 16_000),
          candidate,
          timeout: timeout ? [] : null,
          listing: false,
        };
        panic.buf.push(text, lineNo);
        if (candidate) afterResult = candidate;
        return true;
      }
      if (inPanic) {
        if (text === "FAIL" || text === "PASS") return true;
        if (panic?.timeout) {
          if (RUNNING_HEADER.test(text)) panic.listing = true;
          else if (panic.listing) {
            const m = RUNNING.exec(text);
            if (m && panic.timeout.length < 1_000) panic.timeout.push(m[1]!);
            else panic.listing = false;
          }
        }
        panic?.buf.push(text, lineNo);
        return true;
      }
      if (text === "FAIL" || text === "PASS") {
        binaryPassed = text === "PASS";
        return tests.size > 0 || waiting.length > 0;
      }
      // Test log output: indented under the result line (non -v) or after `=== RUN` (-v).
      if (afterResult && text.length - text.trimStart().length > resultIndent && text.trim() !== "") {
        afterResult.buf.push(text, lineNo);
        return true;
      }
      if (last && /^\s+\S/.test(text)) {
        last.buf.push(text, lineNo);
        return true;
      }
      return false;
    },
    end(): void {
      closeTestify();
      // testify's blocks alone (no go line in the log names a test): each names its failed test.
      if (!goLines) {
        for (const f of testifyFailures) {
          sink.failure(f);
          sink.test(f.test!, "failed");
        }
      }
      flushBuild();
      closePanic();
      // gotestsum prints each failed test again in its summary, under its package: those ids are the ones.
      if (gotestsum && gtsFailed.size > 0) {
        finishGotestsum();
        waiting = [];
        tests.clear();
      }
      if (waiting.length > 0 || tests.size > 0) finishPackage(headerPkg, true);
      held.flush(sink);
    },
  };
  return parser;
}

export const goFormat: FormatDefinition = {
  name: "go",
  description: "go test plain and -v output, panics and build failures",
  create: createGoParser,
};
