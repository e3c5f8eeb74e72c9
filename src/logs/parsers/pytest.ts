/**
 * pytest: failure and error sections (`____ test_x[1-2] ____` blocks with `E   ` lines), collection
 * errors, errors in fixtures (`ERROR at setup of …`), the short test summary (`FAILED id - msg`,
 * which gives the full node ids) and per-test outcomes from `-v` and `-rA`.
 */
import type { FailureCategory, TestOutcome } from "../failure.ts";
import {
  BlockBuffer,
  categoryOfError,
  countWords,
  dedent,
  type FormatDefinition,
  type ParserSink,
  type SummaryCounts,
} from "../parser.ts";

const SESSION_START = /^=+ test session starts =+$/;
const SECTION =
  /^=+ (ERRORS|FAILURES|PASSES|warnings summary|short test summary info|xfailures|xpasses|.* (?:passed|failed|error|errors|skipped|deselected|xfailed|xpassed|warnings?|no tests ran).* in [\d.]+s(?: \([^)]*\))?) =+$/;
const BLOCK_TITLE = /^_{3,} (.+?) _{3,}$/;
/** A title as wide as the terminal keeps one or two underscores each side: `_ tests/deep/test_x.py::test_y _`. */
const WIDE_TITLE = /^_{1,2} (\S.*?) _{1,2}$/;
/** pytest-xdist's block for a worker that died: the test it was running is the failure. */
const WORKER_CRASHED = /^worker '(gw\d+)' crashed while running '(.+)'$/;
// A directory or file name after the first may hold single spaces (`tests/deep dir/test_x.py`).
const PY_PATH = "[^\\s/]*(?:/(?:[^\\s/]| (?=[^\\s/]))+?)*?\\.py";
const LOCATION = new RegExp(`^(${PY_PATH.replaceAll("\\s", "\\s:")}):(\\d+):(?: in \\S+| (\\w[\\w.]*))? ?$`);
// pytest 9's subtests print `SUBFAILED(text='1,2') node::id`: the subtest counts as its test's failure.
// pytest-subtests before pytest 9 writes its short summary's word without the tense: `SUBFAIL node::id - msg`.
const WORD =
  "(?:SUB(?:FAIL(?:ED)?|PASS(?:ED)?|SKIP(?:PED)?)|(?:SUB)?(?:ERROR|XFAIL|XPASS|RERUN)|PASSED|FAILED|SKIPPED)(?:\\((?:[^()]|\\([^()]*\\))*\\))?";
// An id's `::`-separated parts are one run of `[^\s[]` (which takes `::` too): written as repeated parts, a run of
// 40 `::a` could be split exponentially many ways on a line that does not match (hours of host CPU).
// A plugin may print the test's duration before its id (`FAILED [0.3161s] tests/x.py::test_a`); an item collected
// with no file part has an id that starts with `::` (`FAILED ::project`), as pytest prints it.
// xdist's `--dist loadgroup` prints a grouped test's id with its group after it (`…::test_a[1]@db`): the node id is
// the part before the `@` (no node id part holds one: names are identifiers, parameters in brackets).
const SUMMARY = new RegExp(
  `^(${WORD}) (?:\\[[\\d.]+m?s\\] )?((?:${PY_PATH}(?:::[^\\s[@]+)?|::[^\\s[@]+)(?:\\[.*?\\])?)(?:@[\\w.-]+)?(?: - (.*))?$`,
);
const VERBOSE = new RegExp(`^(${PY_PATH}::[^\\s[]+(?:\\[.*?\\])?) (${WORD})(?: .*)?$`);
/** xdist's `-v` lines: `[gw1] [ 13%] FAILED tests/x.py::test_a`. */
const XDIST = new RegExp(
  `^\\[gw\\d+\\] \\[ *\\d+%\\] (${WORD}) (${PY_PATH}(?:::[^\\s[]+)?(?:\\[.*?\\])?)\\s*$`,
);
/** The closing count line, with `=` rules (default) or without (`-q`). */
const FINAL =
  /^(?:=+ )?((?:\d+ (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?|rerun|subtests (?:passed|failed))(?:, )?)+) in [\d.]+s(?: \([^)]*\))?(?: =+)?$/;
const E_LINE = /^E {1,3}(.*)$/;
/** A default-mode progress line: `tests/test_x.py .F.s    [ 40%]`. */
const PROGRESS = new RegExp(`^(${PY_PATH}) [.FEsxX]+(?: +\\[ *\\d+%\\])?$`);
/** A fixture error names the test's place as `file /abs/tests/test_x.py, line 12`. */
const MISSING_FIXTURE = /^\s+fixture '\w+' not found$/;
const FIXTURE_FILE = new RegExp(`^file (${PY_PATH}), line (\\d+)$`);
const INTERRUPTED = /^!{3,} .* !{3,}$/;
/** pytest's own words for a module that failed to import or was shadowed (see `headless` in the parser). */
const IMPORT_WHILE = new RegExp(`^ImportError while importing test module '(${PY_PATH})'\\.$`);
const IMPORT_HINT = /^Hint: make sure your test modules\/packages have valid Python names\.$/;
const TRACE_FRAME = new RegExp(`^(${PY_PATH}):(\\d+): in \\S+$`);
const MISMATCH_LINE = "which is not the same as the test file we want to collect:";
const MISMATCH_HINT =
  /^HINT: remove __pycache__ \/ \.pyc files and\/or use a unique basename for your test file modules$/;

interface Block {
  title: string;
  /** The first `file.py:line:` of the block: the test's own file. */
  firstFile?: string;
  buf: BlockBuffer;
  eLines: string[];
  location: { file: string; line: number; type: string | null } | null;
  /** The node id a crashed xdist worker was running. */
  crashed?: string;
  /**
   * A pasted fragment's body as a native traceback (`Traceback (most recent call last):` right under the title):
   * `1` once that line opened it, `2` once a frame in pytest's own package (`…/_pytest/runner.py`) confirms the block
   * is pytest's (its report of an error raised while it ran the test), `0` when the body opened otherwise.
   */
  native?: 0 | 1 | 2;
}

function outcomeOf(word: string): TestOutcome | "rerun" {
  // Most words are bare (`PASSED`): no prefix or reason to cut.
  const bare =
    word.startsWith("SUB") || word.includes("(") ? word.replace(/^SUB/, "").replace(/\(.*$/, "") : word;
  switch (bare) {
    case "PASSED":
    case "PASS":
    case "XPASS":
      return "passed";
    case "FAILED":
    case "FAIL":
      return "failed";
    case "ERROR":
      return "error";
    case "RERUN":
      return "rerun";
    default:
      return "skipped";
  }
}

/** The file part of a node id (`tests/x.py` of `tests/x.py::T::test`), without splitting the whole id. */
function fileOf(nodeid: string): string {
  const sep = nodeid.indexOf("::");
  return sep === -1 ? nodeid : nodeid.slice(0, sep);
}

/**
 * A test file named only by a machine's absolute path (`/home/me/work/doit/dev/tests/test_x.py`, in a block with no
 * short summary to give its node id): pytest's rootdir is not in the paste, so the node id's path is taken from the
 * path's topmost `tests`/`test` directory, the rootdir's child in the common layout (as PHPUnit's `.phpt` ids are).
 * Null when the path has no such directory.
 */
function underTests(file: string): string | null {
  if (!/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  const at = file.search(/\/tests?\//);
  return at === -1 ? null : file.slice(at + 1);
}

/** The block title pytest prints for a node id: `tests/x.py::TestA::test_b[1]` → `TestA.test_b[1]`. */
function titleOf(nodeid: string): string {
  const parts = nodeid.split("::");
  return parts.length > 1 ? parts.slice(1).join(".") : nodeid;
}

/**
 * The test file of a block cut before any frame, from the repr pytest prints of the test's `self` in the block's
 * source (`self = <tests.runs.test_trace.TestTrace testMethod=test_sel>`, unittest's; `self = <tests.test_x.TestA
 * object at 0x7f…>`, a plain class's): the module path made a file path, when the repr's class (and method) are the
 * title's (`TestTrace.test_sel`). pytest imports a test module by its path under the rootdir, so the dotted module
 * is the file's path there.
 */
function reprFile(title: string, lines: readonly string[]): string | null {
  const t = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\[.*\])?$/.exec(title);
  if (!t) return null;
  for (const l of lines.slice(0, 8)) {
    const m =
      /^self = <((?:[A-Za-z_]\w*\.)+)([A-Za-z_]\w*)(?: testMethod=(\w+)| object at 0x[0-9a-f]+)>$/.exec(l);
    if (!m) continue;
    if (m[2] !== t[1] || (m[3] !== undefined && m[3] !== t[2])) return null;
    return `${m[1]!.slice(0, -1).replace(/\./g, "/")}.py`;
  }
  return null;
}

/** A block title without a subtest's suffix: `T.test_a (text='1,2')` / `T.test_a [msg] (i=1)` → `T.test_a`. */
function baseTitle(title: string): string {
  const m = /^(\S+?(?:\[.*?\])?)(?: \[[^\]]*\])?(?: \(.*\))?$/.exec(title);
  return m ? m[1]! : title;
}

/**
 * tox names the directory it ran a command in: tox 4's `py311: commands[0] /repo/.tmp/py311> pytest …` before the
 * run and `py311: exit 1 (4.78 seconds) /repo/.tmp/py311> pytest …` after it (runner checkout prefixes already
 * removed from the line, so a directory of the repository is relative).
 */
const TOX_CWD = /^\s*[\w.-]+: (?:commands\[\d+\]|exit -?\d+ \([\d.]+ seconds\)) ([^\s>]*)> /;

/** A path climbing out of pytest's directory straight into a `tests`/`test` directory: `../../tests/test_x.py`. */
const UP_TO_TESTS = /^(?:\.\.\/)+((?:tests?)\/(?:[^/]+\/)*[^/]+)$/;

/** `dir` joined with `up` (`../../tests/x.py`), or null when the result leaves the repository. */
function resolveUp(dir: string, up: string): string | null {
  const parts = dir.split("/").filter((p) => p !== "" && p !== ".");
  const rest = up.split("/");
  while (rest[0] === ".." || rest[0] === ".") {
    if (rest.shift() === ".." && parts.pop() === undefined) return null;
  }
  return [...parts, ...rest].join("/");
}

/**
 * pytest prints node ids relative to the directory it was started in, so a run started below the repository's root
 * (tox's `changedir`, `.tmp/<env>`) prints `../../tests/test_x.py::test_y`. Canonical ids are repo-relative: ids and
 * files with leading `../` wait until the end of the log and are resolved against the directory tox names; with no
 * such directory (or one outside the checkout), or when the path would leave the repository, they stay as printed.
 */
function upwardIds(outer: ParserSink): { sink: ParserSink; see(text: string): void; flush(): void } {
  let cwd: string | null = null;
  /** tox named the directory it ran pytest in, even one outside the checkout: then no `tests` fallback. */
  let toxNamed = false;
  const waiting: (() => void)[] = [];
  const up = (p: string | null | undefined): boolean => typeof p === "string" && p.startsWith("../");
  const fix = (p: string): string => {
    if (!p.startsWith("../")) return p;
    // No directory named (a build tool's plugin running pytest in its build directory, `../../tests/test.py`): as
    // for a machine's absolute path, the path is taken from its topmost `tests`/`test` directory.
    if (cwd === null) return toxNamed ? p : (UP_TO_TESTS.exec(p)?.[1] ?? p);
    return resolveUp(cwd, p) ?? p;
  };
  const sink: ParserSink = {
    test(id, outcome, file, correction) {
      if (!up(id) && !up(file)) return outer.test(id, outcome, file, correction);
      if (waiting.length < 10_000)
        waiting.push(() => outer.test(fix(id), outcome, file ? fix(file) : file, correction));
    },
    failure(draft) {
      if (!up(draft.test) && !up(draft.file)) return outer.failure(draft);
      if (waiting.length < 10_000)
        waiting.push(() =>
          outer.failure({
            ...draft,
            test: draft.test ? fix(draft.test) : draft.test,
            file: draft.file ? fix(draft.file) : draft.file,
          }),
        );
    },
    summary: (counts) => outer.summary(counts),
    unnamed: () => outer.unnamed(),
    path: (p) => outer.path(p),
  };
  return {
    sink,
    see(text) {
      if (!text.includes("> ")) return;
      const m = TOX_CWD.exec(text);
      if (m) toxNamed = true;
      if (m && !/^(?:\/|[A-Za-z]:)/.test(m[1]!)) cwd = m[1]!;
    },
    flush() {
      for (const f of waiting) f();
      waiting.length = 0;
    },
  };
}

export function createPytestParser(outer: ParserSink) {
  const upward = upwardIds(outer);
  const sink = upward.sink;
  /**
   * A whole pytest session inside a failure block: a test that runs pytest itself (pytester's `runpytest()`, a
   * plugin's own tests) prints the inner run in its captured output, `=== FAILURES ===`, `FAILED …` and its count
   * line included. Those are the inner run's results, not this run's: the lines stay the block's text, read as none.
   */
  let nested = false;
  let inSession = false;
  /**
   * A pasted fragment: a failure block (`____ test_x ____` or `____ ERROR at setup of … ____`) with no
   * session header or section rule before it. Its blocks count only if they hold an `E   ` line.
   */
  let fragment = false;
  /** The indentation of a pasted, indented section (`  ===== short test summary info =====`), stripped from its lines. */
  let indent = "";
  let section: "none" | "blocks" | "summary" | "other" = "none";
  let block: Block | null = null;
  /** The short summary's previous line: its outcome, reason and line. */
  let prevSummary: { message: string | null; lineNo: number; failed: boolean } | null = null;
  /**
   * A summary entry with no ` - reason` right under one with a reason: when it is the log's last line, a paste or an
   * excerpt may have cut it mid-id (`ERROR tests/x.py::TestK` of `…::TestKettle`): it names no test, unless a failure
   * block names it too. Any later line shows it whole.
   */
  let cutEntry: { word: string; id: string } | null = null;
  /**
   * A collection error's own lines with its `ERROR collecting` header cut away (a paste of the body, a tail):
   * pytest's `ImportError while importing test module '…'.` with its `Hint:` line, and the `import file mismatch`
   * error's `which is not the same as the test file we want to collect:` with the module's path and its `HINT:` line.
   */
  let headless: {
    kind: "import" | "mismatch";
    module: string;
    step: number;
    frames: { file: string; line: number }[];
    buf: BlockBuffer;
  } | null = null;
  const headlessErrors: { module: string; place: { file: string; line: number } | null; buf: BlockBuffer }[] =
    [];

  /** The module's path from the repository: a frame's relative path it ends with, pybuild's build directory cut. */
  function modulePath(printed: string, frames: { file: string }[]): string {
    for (const f of frames) if (!f.file.startsWith("/") && printed.endsWith(`/${f.file}`)) return f.file;
    const pybuild = /\/\.pybuild\/[^/]+\/build\/(.+)$/.exec(printed);
    if (pybuild) return pybuild[1]!;
    const mapped = sink.path(printed);
    if (!mapped.startsWith("/")) return mapped;
    const top = /\/(tests?\/.+)$/.exec(mapped);
    return top ? top[1]! : mapped;
  }

  function closeHeadless(): void {
    const h = headless;
    headless = null;
    if (!h || headlessErrors.length >= 1000) return;
    if (h.kind === "import" ? h.step < 2 : h.step < 3) return;
    const module = modulePath(h.module, h.frames);
    const own = h.frames.find((f) => sink.path(f.file) === module) ?? h.frames[0] ?? null;
    headlessErrors.push({
      module,
      place: own ? { file: sink.path(own.file), line: own.line } : null,
      buf: h.buf,
    });
  }

  function headlessLine(text: string, lineNo: number): void {
    const t = text.trimEnd();
    if (headless) {
      const h = headless;
      if (t === "" && h.kind === "import") {
        h.buf.push(text, lineNo);
        return;
      }
      if (h.kind === "import" && h.step === 1) {
        if (!IMPORT_HINT.test(t)) {
          closeHeadless();
          return;
        }
        h.step = 2;
      } else if (h.kind === "import") {
        const f = TRACE_FRAME.exec(t);
        if (f && h.frames.length < 50) h.frames.push({ file: f[1]!, line: Number(f[2]) });
        else if (!/^(?:Traceback:|\s|E\s)/.test(t) || h.buf.lines.length > 200) {
          closeHeadless();
          return;
        }
      } else if (h.step === 1) {
        const m = /^\s+(\S+\.py)$/.exec(t);
        if (!m) {
          closeHeadless();
          return;
        }
        h.module = m[1]!;
        h.step = 2;
      } else if (h.step === 2) {
        if (!MISMATCH_HINT.test(t)) {
          closeHeadless();
          return;
        }
        h.step = 3;
        h.buf.push(text, lineNo);
        closeHeadless();
        return;
      }
      h.buf.push(text, lineNo);
      return;
    }
    if (t.startsWith("ImportError while importing test module '")) {
      const m = IMPORT_WHILE.exec(t);
      if (m) headless = { kind: "import", module: m[1]!, step: 1, frames: [], buf: new BlockBuffer() };
    } else if (t === MISMATCH_LINE)
      headless = { kind: "mismatch", module: "", step: 1, frames: [], buf: new BlockBuffer() };
    headless?.buf.push(text, lineNo);
  }
  const blocks: Block[] = [];
  /** The test file of the block the log was cut in, from its section's other blocks (see `end`). */
  let cutFile: string | null = null;
  const summaryIds = new Map<
    string,
    { id: string; outcome: TestOutcome; message: string | null; lineNo: number }
  >();
  /** The same entries by the block title pytest prints for them (`Class.test[param]`). */
  const summaryByTitle = new Map<
    string,
    { id: string; outcome: TestOutcome; message: string | null; lineNo: number }[]
  >();
  let rerun = new Set<string>();
  /** Tests with a failed subtest: their own PASSED line does not make them pass. */
  const subfailed = new Set<string>();

  /** `-v` progress lines that say FAILED/ERROR: failures of their own when the log has no section naming any. */
  const progressFailed = new Map<string, { outcome: TestOutcome; lineNo: number }>();
  /** The test files the default-mode progress lines name (a few; more than one says nothing). */
  const progressFiles = new Set<string>();
  /**
   * A paste that opens at the last failure block's closing `tests/x.py:40: AssertionError` line, just above the
   * short summary: the place of the summary's last failure (pytest prints both in the same order), if its file.
   */
  let lastLoc: { file: string; line: number; lineNo: number } | null = null;
  let tailLoc: { file: string; line: number } | null = null;
  /** Collection errors' summary lines seen outside a session, waiting for pytest's line that confirms them. */
  let heldErrors: { text: string; lineNo: number }[] = [];
  /**
   * The short summary's outcome words (`FAILED id`), recorded once the summary is over; its failed ids in `runIds`.
   * A summary whose closing count line is followed, blank lines aside, by another `short test summary info` rule was
   * printed inside that run's output (pytester's inner run in a failure's captured output, or a test's output under
   * `-s`): no run ends straight into another run's summary. Its entries and count are dropped (`heldClose`).
   */
  let summaryWords: [string, string][] = [];
  let runIds: string[] = [];
  let heldClose: { counts: SummaryCounts; lineNo: number } | null = null;

  function commitSummary(): void {
    const words = summaryWords;
    summaryWords = [];
    runIds = [];
    for (const [w, id] of words) record(w, id);
    const held = heldClose;
    heldClose = null;
    if (held) closingCount(held.counts, held.lineNo);
  }

  function dropSummary(): void {
    for (const id of runIds) {
      summaryIds.delete(id);
      const title = titleOf(id);
      const list = summaryByTitle.get(title)?.filter((e) => e.id !== id);
      if (list && list.length > 0) summaryByTitle.set(title, list);
      else summaryByTitle.delete(title);
    }
    summaryWords = [];
    runIds = [];
    heldClose = null;
  }

  /**
   * The session's closing count line: when it counts no failure and no error, the `FAILED`/`ERROR` words read
   * above it on `path::name` lines were not outcomes (under `-s` a test's own output sits between `path::name `
   * and its outcome, so a test printing `FAILED …` looks like one); they are forgotten.
   */
  function closingCount(counts: SummaryCounts, lineNo: number): void {
    sink.summary(counts);
    if (counts.failed > 0 || (counts.error ?? 0) > 0 || counts.passed === 0) return;
    for (const [id, p] of progressFailed) if (p.lineNo < lineNo) progressFailed.delete(id);
  }

  function record(word: string, id: string, lineNo = 0): void {
    const o = outcomeOf(word);
    if (
      lineNo > 0 &&
      (o === "failed" || o === "error") &&
      !word.startsWith("SUB") &&
      progressFailed.size < 10_000
    )
      progressFailed.set(id, { outcome: o, lineNo });
    const file = sink.path(fileOf(id));
    if (o === "rerun") {
      rerun.add(id);
      return;
    }
    if (word.startsWith("SUB")) {
      if (o === "failed" || o === "error") {
        subfailed.add(id);
        // -rA lists the test's own PASSED before its failed subtests: that is one failing test, not a retry.
        sink.test(id, o, file, true);
      }
      return;
    }
    if (o === "passed" && subfailed.has(id)) return;
    // A rerun that ends in a pass: the earlier attempt failed, so the test is flaky.
    if (rerun.has(id) && o === "passed") sink.test(id, "failed", file);
    sink.test(id, o, file);
  }

  function closeBlock(): void {
    if (block && fragment && block.eLines.length === 0 && block.native !== 2) block = null;
    if (block && blocks.length < 1000) blocks.push(block);
    block = null;
  }

  function titleKey(title: string): { kind: "collect" | "setup" | "teardown" | "test"; name: string } {
    let m = /^ERROR collecting (.+)$/.exec(title);
    if (m) return { kind: "collect", name: m[1]! };
    m = /^ERROR at (setup|teardown) of (.+)$/.exec(title);
    if (m) return { kind: m[1] as "setup" | "teardown", name: m[2]! };
    return { kind: "test", name: baseTitle(title) };
  }

  function emit(b: Block): string {
    if (b.crashed !== undefined) {
      const file = sink.path(b.crashed.split("::")[0]!);
      sink.failure({
        category: "test",
        test: b.crashed,
        file: null,
        errorType: "WorkerCrashed",
        message: b.eLines[0] ?? "worker crashed",
        stack: b.buf.text(),
        start: b.buf.start,
        end: b.buf.end,
      });
      sink.test(b.crashed, "failed", file);
      return b.crashed;
    }
    const key = titleKey(b.title);
    // Find the node id from the short summary when there is one.
    let id: string | null = null;
    let summaryMessage: string | null = null;
    // Titles repeat across files (`TestDiv.test_same` in two modules): the block's own file decides.
    const own = b.firstFile ? sink.path(b.firstFile) : null;
    const candidates =
      key.kind === "collect"
        ? summaryIds.has(key.name)
          ? [summaryIds.get(key.name)!]
          : []
        : (summaryByTitle.get(key.name) ?? []);
    // The same titles come back in every file of a long log: the file of each candidate is compared without
    // splitting its id (two arrays per candidate per block made this quadratic loop the parser's costliest part).
    for (const s of candidates) {
      const mine = own !== null && fileOf(s.id) === own;
      if (id === null || mine) {
        id = s.id;
        summaryMessage = s.message;
      }
      if (own === null || mine) break;
    }
    // No short summary (a log cut before it): the `-v` line that said FAILED/ERROR gives the node id, when one
    // such line has the block's title.
    if (id === null && summaryIds.size === 0 && key.kind !== "collect") {
      const words = key.kind === "test" ? ["failed"] : ["error"];
      let only: string | null = null;
      let n = 0;
      for (const [pid, p] of progressFailed) {
        if (!words.includes(p.outcome) || titleOf(pid) !== key.name) continue;
        if (own !== null && fileOf(pid) !== own) continue;
        only = pid;
        if (++n > 1) break;
      }
      if (n === 1) id = only;
    }
    b.eLines = dedent(b.eLines);
    const firstE = b.eLines[0] ?? null;
    let errorType = b.location?.type ?? null;
    let message = b.eLines.join("\n");
    const typed = firstE
      ? /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning|Failed|Failure)\w*): ?(.*)$/.exec(
          firstE,
        )
      : null;
    if (typed) {
      errorType ??= typed[1]!;
      message = [typed[2]!, ...b.eLines.slice(1)].join("\n");
    } else if (firstE?.startsWith("assert") || firstE?.startsWith("AssertionError")) {
      errorType ??= "AssertionError";
    } else if (firstE && /^[A-Z]\w+(?:Error|Exception)$/.test(firstE)) {
      errorType ??= firstE;
    }
    if (!message) message = summaryMessage ?? b.title;
    if (key.kind === "collect") {
      const collectionType = /^(\w*Error)\b/.exec(
        b.buf.lines.find((l) => /^E\s+\w+Error/.test(l))?.replace(/^E\s+/, "") ?? "",
      )?.[1];
      errorType = collectionType ?? errorType;
    }
    const category: FailureCategory =
      key.kind === "collect" ? categoryOfError(errorType, "import") : categoryOfError(errorType, "test");
    // No short summary (-rN, or output cut): the node id from the test file the traceback starts in, or,
    // when the traceback is cut before naming a file, the one test file the progress lines ran.
    const ownFile =
      b.firstFile && !b.firstFile.startsWith("/")
        ? sink.path(b.firstFile)
        : progressFiles.size === 1
          ? [...progressFiles][0]!
          : b.firstFile
            ? underTests(sink.path(b.firstFile))
            : key.kind === "test"
              ? (reprFile(key.name, b.buf.lines) ?? (b === blocks[blocks.length - 1] ? cutFile : null))
              : null;
    const test =
      id ??
      (key.kind !== "collect" && ownFile
        ? `${ownFile}::${key.name.replace(/^([^[]*)/, (s) => s.replace(/\./g, "::"))}`
        : key.name);
    sink.failure({
      category,
      test,
      file: b.location
        ? id === null && ownFile !== null && b.location.file === b.firstFile
          ? ownFile
          : sink.path(b.location.file)
        : key.kind === "collect"
          ? sink.path(key.name)
          : null,
      line: b.location?.line ?? null,
      errorType,
      message,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
    sink.test(
      test,
      key.kind === "test" ? "failed" : "error",
      key.kind === "collect" ? sink.path(key.name) : null,
    );
    return test;
  }

  return {
    line(text: string, lineNo: number): boolean {
      upward.see(text);
      if (cutEntry && text.trim() !== "") {
        // A line follows: the entry was whole.
        summaryWords.push([cutEntry.word, cutEntry.id]);
        cutEntry = null;
      }
      if (heldClose && text.trim() !== "") {
        const t = text.trim();
        if (t.charCodeAt(0) === 61 && / short test summary info =+$/.test(t) && SECTION.test(t))
          dropSummary();
        else commitSummary();
      }
      if (!heldClose && summaryWords.length > 0 && section !== "summary") {
        // Not read as the summary's line: the summary ended above it (its words are recorded before this line's).
        const t = text.trimStart();
        if (!(t.charCodeAt(0) === 61 && SECTION.test(t))) commitSummary();
      }
      if (block === null || headless !== null) headlessLine(text, lineNo);
      if (indent !== "") {
        if (text.startsWith(indent)) text = text.slice(indent.length);
        else if (text.trim() !== "") {
          indent = "";
          inSession = false;
          section = "none";
        }
      } else if (!inSession && text.charCodeAt(0) === 32 && text.includes("= ")) {
        // An indented section rule opens an indented paste of the section.
        const t = text.trimStart();
        const sec = SECTION.exec(t);
        if (sec && /^(ERRORS|FAILURES|short test summary info)$/.test(sec[1]!)) {
          indent = text.slice(0, text.length - t.length);
          text = t;
        }
      }
      // Both rules open with `=`: most lines are left at their first character.
      const rule = text.charCodeAt(0) === 61;
      if (nested) {
        // A session printed inside a failure block (see `nested`): the block's output, up to its own count line.
        block?.buf.push(text, lineNo);
        if (rule && (FINAL.test(text) || /^=+ no tests ran in [\d.]+s/.test(text))) nested = false;
        return true;
      }
      if (rule && section === "blocks" && block !== null && SESSION_START.test(text)) {
        nested = true;
        block.buf.push(text, lineNo);
        return true;
      }
      if (rule && SESSION_START.test(text)) {
        inSession = true;
        section = "none";
        return true;
      }
      const sec = rule ? SECTION.exec(text) : null;
      if (sec && (inSession || /^(ERRORS|FAILURES|short test summary info)$/.test(sec[1]!))) {
        if (sec[1] === "short test summary info" && !inSession && blocks.length === 0 && block === null)
          tailLoc = lastLoc?.lineNo === lineNo - 1 ? { file: lastLoc.file, line: lastLoc.line } : null;
        closeBlock();
        inSession = true;
        const name = sec[1]!;
        if (name === "ERRORS" || name === "FAILURES") section = "blocks";
        else if (name === "short test summary info") section = "summary";
        else if (/ in [\d.]+s/.test(name)) {
          const counts = countWords(name.replace(/\d+ subtests \w+/g, ""));
          if (section === "summary" && !heldClose) heldClose = { counts, lineNo };
          else {
            commitSummary();
            closingCount(counts, lineNo);
          }
          section = "none";
          inSession = false;
        } else section = "other";
        return true;
      }
      if (!inSession) {
        // A failure block pasted without its session: blocks only count with an `E   ` line (see `fragment`).
        const t = text.charCodeAt(0) === 95 ? BLOCK_TITLE.exec(text) : null;
        if (t) {
          inSession = true;
          fragment = true;
          section = "blocks";
          block = { title: t[1]!, buf: new BlockBuffer(), eLines: [], location: null };
          block.buf.push(text, lineNo);
          return true;
        }
        // The short summary's lines pasted without its rule (`FAILED tests/x.py::test_a[1] - AssertionError: …`):
        // a node id after the word, so a stray `FAILED` line of another tool is not one.
        if ((text.startsWith("FAILED ") || text.startsWith("ERROR ")) && text.includes(".py::")) {
          const s0 = SUMMARY.exec(text);
          if (s0?.[2]?.includes("::")) {
            inSession = true;
            section = "summary";
            // Collection errors' lines just above, in the same run of summary lines, are that summary's too.
            const held = heldErrors;
            heldErrors = [];
            for (const h of held) this.line(h.text, h.lineNo);
            return this.line(text, lineNo);
          }
        }
        // Collection errors' summary lines pasted without the rule (`ERROR tests/test_x.py - ValueError: …`) name a
        // module, not a node id: held until pytest's own line under them confirms them (`!!! Interrupted: N errors
        // during collection !!!`, or the count rule), a run of them with nothing else between.
        if (text.startsWith("ERROR ") && text.includes(".py")) {
          const s0 = SUMMARY.exec(text);
          if (s0 && !s0[2]!.includes("::") && heldErrors.length < 1000) {
            heldErrors.push({ text, lineNo });
            return false;
          }
        }
        if (heldErrors.length > 0) {
          const confirms =
            (text.charCodeAt(0) === 33 &&
              /^!{3,} Interrupted: \d+ errors? during collection !{3,}$/.test(text)) ||
            (rule && FINAL.test(text) && /\d+ errors?\b/.test(text));
          const held = heldErrors;
          heldErrors = [];
          if (confirms) {
            section = "summary";
            inSession = true;
            for (const h of held) this.line(h.text, h.lineNo);
            return this.line(text, lineNo);
          }
        }
        // Outcome lines can be seen without the session header (a log cut at the top).
        const py = text.includes(".py");
        const v = py && text.includes(".py::") ? VERBOSE.exec(text) : null;
        if (v) {
          record(v[2]!, v[1]!, lineNo);
          return true;
        }
        const x = text.startsWith("[gw") ? XDIST.exec(text) : null;
        if (x) {
          record(x[1]!, x[2]!, lineNo);
          return true;
        }
        const l0 = py && text.includes(".py:") ? LOCATION.exec(text) : null;
        if (l0?.[3] && !l0[1]!.startsWith("/"))
          lastLoc = { file: sink.path(l0[1]!), line: Number(l0[2]), lineNo };
        // A progress line seen without the session header (pasted from `collected N items` on).
        const pr = py && text.includes(".py ") ? PROGRESS.exec(text) : null;
        if (pr) {
          if (progressFiles.size < 2) progressFiles.add(sink.path(pr[1]!));
          return true;
        }
        // `pytest -q` prints its count line without rules and without a session header.
        const c0 = text.charCodeAt(0);
        const f = rule || (c0 >= 48 && c0 <= 57) ? FINAL.exec(text) : null;
        if (f) {
          closingCount(countWords(f[1]!.replace(/\d+ subtests \w+/g, "")), lineNo);
          return true;
        }
        return false;
      }
      if (section === "blocks") {
        const t = BLOCK_TITLE.exec(text) ?? (text.length >= 60 ? WIDE_TITLE.exec(text) : null);
        if (t) {
          closeBlock();
          block = { title: t[1]!, buf: new BlockBuffer(), eLines: [], location: null };
          block.buf.push(text, lineNo);
          return true;
        }
        if (block) {
          block.buf.push(text, lineNo);
          if (fragment && block.native !== 2 && block.native !== 0) {
            const tt = text.trim();
            if (block.native === undefined) {
              if (tt !== "") block.native = tt === "Traceback (most recent call last):" ? 1 : 0;
            } else if (/^File "[^"]*\/_pytest\/[\w/]+\.py", line \d+, in \S+$/.test(tt)) block.native = 2;
          }
          const wc = WORKER_CRASHED.exec(text);
          if (wc && block.crashed === undefined) {
            block.crashed = wc[2]!;
            block.eLines.push(text.trim());
          }
          const e = E_LINE.exec(text);
          if (e && block.eLines.length < 40) block.eLines.push(e[1]!.trimEnd());
          // pytest before 3.x printed a setup block's missing fixture without the `E   ` prefix.
          else if (
            block.eLines.length === 0 &&
            block.title.startsWith("ERROR at setup of ") &&
            MISSING_FIXTURE.test(text)
          )
            block.eLines.push(text.trim());
          const fx = text.startsWith("file ") ? FIXTURE_FILE.exec(text) : null;
          if (fx && block.firstFile === undefined) {
            block.firstFile = fx[1]!;
            block.location ??= { file: fx[1]!, line: Number(fx[2]), type: null };
          }
          const loc = LOCATION.exec(text);
          if (loc && block.firstFile === undefined) block.firstFile = loc[1]!;
          // The crash location: the last one inside the repository (stdlib and site-packages stay absolute).
          if (
            loc &&
            (!loc[1]!.startsWith("/") || block.location === null || block.location.file.startsWith("/"))
          ) {
            block.location = { file: loc[1]!, line: Number(loc[2]), type: loc[2] ? (loc[3] ?? null) : null };
          }
          return true;
        }
        return true;
      }
      if (section === "summary") {
        const s = SUMMARY.exec(text);
        if (s) {
          const o = outcomeOf(s[1]!);
          const id = s[2]!;
          const above = prevSummary;
          prevSummary = { message: s[3] ?? null, lineNo, failed: o === "failed" || o === "error" };
          if ((o === "failed" || o === "error") && !summaryIds.has(id) && summaryIds.size < 10_000) {
            const entry = { id, outcome: o, message: s[3] ?? null, lineNo };
            // No ` - reason` where the failure right above had one: the line may be cut mid-id (see `cutEntry`).
            if (s[3] === undefined && above?.failed && above.message !== null && above.lineNo === lineNo - 1)
              cutEntry = { word: s[1]!, id };
            summaryIds.set(id, entry);
            if (runIds.length < 10_000) runIds.push(id);
            const title = titleOf(id);
            const list = summaryByTitle.get(title);
            if (list) list.push(entry);
            else summaryByTitle.set(title, [entry]);
          }
          if (cutEntry?.id !== id) summaryWords.push([s[1]!, id]);
        }
        return true;
      }
      if (text.charCodeAt(0) === 33 && INTERRUPTED.test(text)) return true;
      if (section === "none" && text.includes(".py ")) {
        const pr = PROGRESS.exec(text);
        if (pr && progressFiles.size < 2) progressFiles.add(sink.path(pr[1]!));
      }
      const v = text.includes(".py::") ? VERBOSE.exec(text) : null;
      if (v) record(v[2]!, v[1]!, lineNo);
      const x = !v && text.startsWith("[gw") ? XDIST.exec(text) : null;
      if (x) record(x[1]!, x[2]!, lineNo);
      // Progress lines, platform header, captured output: all pytest's.
      return true;
    },
    end(): void {
      // A paste that is nothing but a run of collection errors' summary lines (the log's first line on, nothing after
      // them), each reason a Python exception (`ERROR tests/x.py - AttributeError: …`): pytest's lines, with no other
      // tool's output around them that could have printed them.
      if (
        heldErrors.length > 0 &&
        heldErrors[0]!.lineNo === 1 &&
        heldErrors.every((h) => /^[A-Za-z_][\w.]*(?:Error|Exception): /.test(SUMMARY.exec(h.text)?.[3] ?? ""))
      ) {
        const held = heldErrors;
        heldErrors = [];
        inSession = true;
        section = "summary";
        for (const h of held) this.line(h.text, h.lineNo);
      }
      commitSummary();
      // The log ends inside a block (a paste cut before its `file:N:` line): when every other test block ran in one
      // and the same test file, that file is the cut one's too (the section's blocks come from one module).
      if (block !== null && block.firstFile === undefined && titleKey(block.title).kind === "test") {
        const files = new Set<string>();
        for (const b of blocks)
          if (b.firstFile !== undefined && titleKey(b.title).kind === "test") files.add(b.firstFile);
        const only = files.size === 1 ? [...files][0]! : null;
        if (only !== null && !only.startsWith("/") && /\.py$/.test(only)) cutFile = sink.path(only);
      }
      closeBlock();
      closeHeadless();
      const emitted = new Set(blocks.map(emit));
      if (cutEntry) {
        if (emitted.has(cutEntry.id)) record(cutEntry.word, cutEntry.id);
        else summaryIds.delete(cutEntry.id);
        cutEntry = null;
      }
      // Collection errors read from their own lines, their header cut: each module once, unless a block or the
      // summary named it.
      for (const h of headlessErrors) {
        if (emitted.has(h.module) || summaryIds.has(h.module)) continue;
        emitted.add(h.module);
        sink.failure({
          category: "import",
          test: h.module,
          file: h.place?.file ?? null,
          line: h.place?.line ?? null,
          errorType: null,
          message: `${h.module}: collection error`,
          stack: h.buf.text(),
          start: h.buf.start,
          end: h.buf.end,
        });
        sink.test(h.module, "error", h.module);
      }
      // Failures listed only in the short summary (output cut, or -rf without details).
      const entries = [...summaryIds.values()];
      const last =
        entries.findLast((s) => s.outcome === "failed") ?? entries.findLast((s) => s.outcome === "error");
      for (const s of summaryIds.values()) {
        if (emitted.has(s.id)) continue;
        const file = sink.path(s.id.split("::")[0]!);
        const tail = s === last && tailLoc?.file === file ? tailLoc : null;
        const type = s.message ? (/^(\w+(?:Error|Exception))\b/.exec(s.message)?.[1] ?? null) : null;
        sink.failure({
          category: categoryOfError(type, "test"),
          test: s.id,
          file,
          line: tail?.line ?? null,
          errorType: type,
          message: s.message ?? s.outcome,
          start: s.lineNo,
          end: s.lineNo,
        });
      }
      // A log cut before its short summary: the progress lines that said FAILED/ERROR and whose block was not
      // printed (the log ends in the sections, or before them) are failures of their own.
      if (summaryIds.size === 0) {
        for (const [id, p] of progressFailed) {
          if (emitted.has(id)) continue;
          sink.failure({
            category: "test",
            test: id,
            file: sink.path(id.split("::")[0]!),
            message:
              p.outcome === "error"
                ? "error (the log ends before its details)"
                : "failed (the log ends before its details)",
            start: p.lineNo,
            end: p.lineNo,
          });
        }
      }
      rerun = new Set();
      upward.flush();
    },
  };
}

export const pytestFormat: FormatDefinition = {
  name: "pytest",
  description: "pytest text output (failures, errors in fixtures, collection errors, -v/-rA outcomes)",
  create: createPytestParser,
  // Fresh (no session), only these shapes are asked: a tox `> ` line, a rule, a block title, a count line, a summary line, an outcome or location line of a `.py` file.
  // `import file mismatch`'s tail: its line before the module's path.
  wakesOn: [/^(?: +=|[=_\d]|FAILED |ERROR |\[gw|which is not the same as the test file)/, /> |\.py/],
};
