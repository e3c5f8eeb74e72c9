/**
 * Python unittest: `-v` outcome lines (`test_x (pkg.mod.Class.test_x) ... ok`) and the
 * `FAIL:`/`ERROR:` blocks between `=====` rules, each holding a traceback.
 */
import type { TestOutcome } from "../failure.ts";
import {
  BlockBuffer,
  categoryOfError,
  type FailureDraft,
  type FormatDefinition,
  own,
  type ParserSink,
} from "../parser.ts";
import { FRAME, isUsable, summarizeTraceback } from "./python-traceback.ts";
import { headerLine, loaderOutcomeLine, outcomeLine, testIdLine } from "./unittest-lines.ts";

// A subTest prints its own line, indented, with its `[msg]` and `(key=value)` after the id. The test lines
// (`test_x (pkg.C.test_x) [msg] (i=1) ... ok`, a described test's line, a `FAIL:` header) are read by
// unittest-lines.ts in linear time: as regular expressions they backtracked over a line's `]`, `)` and ` ... `.
/** The test line of a test with subtests: its outcome comes on the subtests' own lines. */
const PARENT = /^(\w+) \(([\w.]+)\) \.\.\. ?$/;
const DOC_OUTCOME = / \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$/;
/** An outcome alone on its line: the test's line was broken by output printed while it ran (a warning). */
const LONE_OUTCOME = /^(ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$/;
/** How many lines of interleaved output may come between a test's ` ... ` and its outcome. */
const AWAIT_LINES = 60;
/**
 * nose names a test function (and a generator's call) by its dotted path alone, without unittest's parentheses:
 * `test_even.test_even1 ... FAIL`, `FAIL: test_even.test_even1`, `tests.test_gen.test_sum(1, 2) ... ok`. The last
 * name is a test's (nose collects names matching `test`), and a header needs the `=====` rule above it.
 */
// The last name is matched as any word and checked for `test` after: `\w*[Tt]est\w*` tried every split of a long
// word (`a.testtesttest…`: 70 ms a 16 KiB line).
const NOSE_NAME = String.raw`(?:\w+\.)+\w+(?:\(.*\))?`;
const NOSE_OUTCOME_LINE = new RegExp(`^(${NOSE_NAME}) \\.\\.\\. (ok|FAIL|ERROR|SKIP.*|skipped.*)$`);
const NOSE_HEADER_LINE = new RegExp(`^(FAIL|ERROR): (${NOSE_NAME})$`);
/** A nose name's last word names a test. */
function noseTest(m: RegExpExecArray | null, group: number): RegExpExecArray | null {
  if (!m) return null;
  const name = m[group]!;
  const paren = name.indexOf("(");
  const base = paren === -1 ? name : name.slice(0, paren);
  return /[Tt]est/.test(base.slice(base.lastIndexOf(".") + 1)) ? m : null;
}
const NOSE_OUTCOME = { exec: (text: string) => noseTest(NOSE_OUTCOME_LINE.exec(text), 1) };
const NOSE_HEADER = { exec: (text: string) => noseTest(NOSE_HEADER_LINE.exec(text), 2) };
// A rule may keep the backtick of the inline code it was pasted in (`` `===…``).
const RULE_EQ = /^`?={40,}`?$/;
const RULE_DASH = /^-{40,}$/;
/**
 * A log rendered as markdown (pasted into an issue without a code fence) loses its rules: the dash rule under a
 * `FAIL:`/`ERROR:` header makes it a setext heading (`## FAIL: test_x (m.C)`), the `=====` rule makes the line
 * above it one (`# ......F...`, `# ` after a blank line), and a dash rule alone becomes a thematic break (`---`).
 * Such a header opens a block; the next heading or break closes it.
 */
const MD_HEADER = /^#{1,6} +((?:FAIL|ERROR): .*)$/;
/** A docstring line that the dash rule under it made a setext heading (`## Check that …`). */
const MD_DOC_HEADING = /^#{1,6} +\S/;
const MD_CLOSE = /^(?:#{1,6}(?: .*)?|-{3,}|\*{3,}|_{3,})$/;
const RAN = /^Ran \d+ tests? in [\d.]+s$/;
const RESULT = /^(OK|FAILED)(?: \(.*\))?$/;

const LOADER_PREFIX = "unittest.loader._FailedTest.";

const FIXTURE = /^(?:setUpClass|tearDownClass|setUpModule|tearDownModule)$/;

/**
 * Whether an idle parser (state `none`, no paste indent, no tentative header, nothing awaiting an outcome) can pass
 * over a line untouched: no `...` in it (outcome lines, ` ... ` heads, `(mod) ...` parents), and its first
 * character, or its first after leading spaces, none that a branch starts from: `t` (`test…`, `  test…`), `=` or
 * a backtick (the `=====` rule), `F`/`E` (`FAIL: `/`ERROR: ` headers, indented or not, `FAILED`), `R` (`Ran `), `O`
 * (`OK`), `-` (the dash rule), `#` (a markdown heading that was a header, `MD_HEADER`).
 */
export function idleQuiet(text: string): boolean {
  let c = text.charCodeAt(0);
  if (c === 32) {
    let k = 1;
    while (text.charCodeAt(k) === 32) k++;
    c = text.charCodeAt(k);
    if (c === 116 || c === 70 || c === 69) return false;
  } else if (
    c === 116 /* t */ ||
    c === 61 /* = */ ||
    c === 96 /* ` */ ||
    c === 70 /* F */ ||
    c === 69 /* E */ ||
    c === 82 /* R */ ||
    c === 79 /* O */ ||
    c === 45 /* - */ ||
    c === 35 /* # */
  )
    return false;
  return !text.includes("...");
}

/**
 * Python 3.11+ prints the full id in parentheses; older versions print only the class. A class or module
 * fixture's error (`ERROR: setUpClass (pkg.mod.Class)`) is no test of the class: its id is unittest's own,
 * `setUpClass (pkg.mod.Class)` (docs/test-ids.md).
 */
function idOf(name: string, inParens: string): string {
  if (FIXTURE.test(name)) return `${name} (${inParens})`;
  return inParens.endsWith(`.${name}`) ? inParens : `${inParens}.${name}`;
}

/**
 * The checkout directory of a log whose paths are absolute and not a CI runner's (a laptop, a container):
 * a traceback frame whose path ends with the test's module (`/home/u/app/tests/unit/test_x.py` for
 * `tests.unit.test_x.Class.test`) names it (`/home/u/app/`).
 */
function rootOf(id: string, lines: readonly string[]): string | null {
  // A module that failed to import is named by the module itself (`unittest.loader._FailedTest.test.test_wal`).
  const loaded = id.startsWith(LOADER_PREFIX) ? id.slice(LOADER_PREFIX.length) : null;
  const dotted = (loaded ?? /^\w+ \(([\w.]+)\)$/.exec(id)?.[1] ?? id.split(" ", 1)[0]!).split(".");
  for (const l of lines) {
    const f = FRAME.exec(l);
    const path = f?.[1];
    if (!path || !(path.startsWith("/") || path.startsWith(".../") || /^[A-Za-z]:[\\/]/.test(path))) continue;
    const norm = path.replace(/\\/g, "/");
    // A path whose start the runner elided (`.../pkg/gen/x_test.py`): only a dotted module of two parts or more
    // (`pkg.gen.x_test`) says where the import root is; a module named by its file alone does not.
    const least = path.startsWith(".../") ? 2 : 1;
    for (let n = dotted.length; n >= least; n--) {
      const suffix = `/${dotted.slice(0, n).join("/")}.py`;
      if (!norm.endsWith(suffix)) continue;
      const found = norm.slice(0, norm.length - suffix.length + 1);
      return n === 1 ? (testDirParent(found, lines) ?? found) : found;
    }
    // A test file run as a script (`__main__.Class`) names no module: a test directory in its path
    // (`/home/u/proj/tests/test_x.py`) is taken as the checkout's own.
    if (dotted[0] === "__main__") {
      const m = /^(.*\/)(?:tests?|testing)\/[^/]+\.py$/.exec(norm);
      if (m) return m[1]!;
    }
  }
  return null;
}

/**
 * A test module named by its file alone (`test_issues`) sits in a test directory put on `sys.path`
 * (`/home/u/proj/tests/`, `unittest discover -s tests`): when another frame of the same traceback is a file of
 * the project outside that directory (`/home/u/proj/gh/ls.py`, not the standard library or site-packages), the
 * directory's parent is the checkout. Null when no frame says so.
 */
function testDirParent(found: string, lines: readonly string[]): string | null {
  const m = /^(.*\/)(?:tests?|testing)\/$/.exec(found);
  if (!m) return null;
  const parent = m[1]!;
  for (const l of lines) {
    const p = FRAME.exec(l)?.[1]?.replace(/\\/g, "/");
    if (p?.startsWith(parent) && !p.startsWith(found) && !/\/(?:site-packages|dist-packages)\//.test(p))
      return parent;
  }
  return null;
}

function outcomeOf(word: string): TestOutcome {
  if (word === "ok" || word === "unexpected success") return "passed";
  if (word === "FAIL") return "failed";
  if (word === "ERROR") return "error";
  return "skipped";
}

export function createUnittestParser(sink: ParserSink) {
  let state: "none" | "header" | "body" = "none";
  /** The last line with text: a nose header that is the log's last is cut (below). */
  let lastText = 0;
  /** `bare`: a nose header (`FAIL: pkg.mod.test_x`), whose name has no closing parenthesis to show it is whole. */
  let current: {
    id: string;
    kind: string;
    buf: BlockBuffer;
    separated?: boolean;
    bare?: boolean;
    /** Opened by a markdown heading (`MD_HEADER`): a heading or a thematic break closes it. */
    md?: boolean;
  } | null = null;
  let seen = false;
  let ran = false;
  /** A described test (`test_x (mod.Class.test_x)` alone on its line) waiting for its docstring's outcome. */
  let pendingDescribed: string | null = null;
  /** A test whose ` ... ` was followed by other output: its outcome comes alone on a later line. */
  let awaiting: { id: string; left: number } | null = null;
  /** A `FAIL: x (m.C)` header with no `=====` rule above (a paste that starts there): read if the dash rule follows. */
  let tentative: { id: string; kind: string; text: string; lineNo: number; indent: string } | null = null;
  /**
   * The indentation of a block pasted as a markdown code block (four spaces before every line): set when an
   * indented `FAIL:`/`ERROR:` header has its dash rule under it at the same indentation, removed from the lines
   * after it until a line that is not blank and not so indented.
   */
  let indent: string | null = null;
  /** Failures held to the end, when the checkout directory of absolute paths may be known. */
  const drafts: FailureDraft[] = [];
  let root: string | null = null;
  /** Tests whose outcome line said FAIL/ERROR: a paste cut before the blocks still names them. */
  const lineFailed = new Map<string, { kind: string; text: string; lineNo: number }>();
  const outcome = (id: string, word: string, text: string, lineNo: number) => {
    const o = outcomeOf(word);
    sink.test(id, o);
    if ((o === "failed" || o === "error") && lineFailed.size < 10_000)
      lineFailed.set(id, { kind: word, text: own(text), lineNo });
  };

  function flush(): void {
    if (!current) return;
    if (current.id === "") {
      current = null;
      return;
    }
    const lines = current.buf.lines;
    const tb = summarizeTraceback(lines, sink);
    const errorType = tb.errorType;
    const blockRoot = rootOf(current.id, lines);
    root ??= blockRoot;
    let file = tb.file;
    let line = tb.line;
    // Every frame in an installed package (a build testing its installed egg or wheel, through a helper library's
    // assertion wrapper): the place is the innermost frame in the test module's own tree (the directory its dotted
    // name gives), not the helper's.
    if (blockRoot && !lines.some((l) => isUsable(FRAME.exec(l)?.[1] ?? "<"))) {
      for (const l of lines) {
        const f = FRAME.exec(l);
        if (f && f[1]!.replace(/\\/g, "/").startsWith(blockRoot)) {
          file = sink.path(f[1]!);
          line = Number(f[2]);
        }
      }
    }
    if (drafts.length >= 1000) {
      current = null;
      return;
    }
    drafts.push({
      category: categoryOfError(errorType, "test"),
      test: current.id,
      file,
      line,
      errorType,
      message: tb.message || current.kind,
      stack: current.buf.text(),
      start: current.buf.start,
      end: current.buf.end,
    });
    sink.test(current.id, current.kind === "ERROR" ? "error" : "failed");
    current = null;
  }

  return {
    line(raw: string, lineNo: number): boolean {
      const r0 = raw.charCodeAt(0);
      if ((r0 > 32 && r0 < 127) || raw.trim() !== "") lastText = lineNo;
      // Idle (no block, header, paste indent or pending outcome), a line can only matter if it holds `...` or opens
      // with a character some branch below tests for: the rest are passed over before any expression.
      if (
        state === "none" &&
        indent === null &&
        tentative === null &&
        awaiting === null &&
        pendingDescribed === null &&
        idleQuiet(raw)
      )
        return false;
      let text = raw;
      if (indent !== null) {
        if (text.startsWith(indent)) text = text.slice(indent.length);
        else if (text.trim() !== "") indent = null;
      }
      if (tentative) {
        const t = tentative;
        tentative = null;
        if (text.startsWith(t.indent) && RULE_DASH.test(text.slice(t.indent.length))) {
          if (t.indent !== "") indent = t.indent;
          seen = true;
          current = { id: t.id, kind: t.kind, buf: new BlockBuffer(), separated: true };
          current.buf.push(t.text, t.lineNo);
          state = "body";
          return true;
        }
        // Rendered as markdown, the docstring line and the dash rule under it became a setext heading
        // (`FAIL: test_x (m.C)`, `## Check that …`): the header opens a markdown block, which the next heading closes.
        if (t.indent === "" && MD_DOC_HEADING.test(text)) {
          seen = true;
          current = { id: t.id, kind: t.kind, buf: new BlockBuffer(), separated: true, md: true };
          current.buf.push(t.text, t.lineNo);
          state = "body";
          return true;
        }
      }
      if (awaiting && state !== "body") {
        const l = LONE_OUTCOME.exec(text);
        if (l) {
          outcome(awaiting.id, l[1]!, text, lineNo);
          awaiting = null;
          return true;
        }
        awaiting.left--;
        if (awaiting.left <= 0 || text.includes(" ... ") || RULE_EQ.test(text)) awaiting = null;
      }
      // The docstring line after a described test carries its outcome.
      const described = pendingDescribed;
      pendingDescribed = null;
      if (described !== null && state !== "body") {
        const d = DOC_OUTCOME.exec(text);
        if (d && outcomeLine(text) === null) {
          seen = true;
          outcome(described, d[1]!, text, lineNo);
          return true;
        }
        // The docstring's ` ... ` followed by a warning: the outcome comes later, alone on its line.
        if (!d && text.includes(" ... ")) {
          seen = true;
          awaiting = { id: described, left: AWAIT_LINES };
          return false;
        }
      }
      if (state !== "body" && (text.startsWith("test") || text.startsWith("  test"))) {
        // A `-v` test line without its outcome: the test has a docstring, whose first line ends with ` ... ok`.
        const m = testIdLine(text);
        if (m?.[0].startsWith("test")) {
          pendingDescribed = idOf(m[0], m[1]) + m[2];
          return true;
        }
      }
      const o = text.includes(" ... ") ? (outcomeLine(text) ?? loaderOutcomeLine(text)) : null;
      if (o) {
        seen = true;
        outcome(idOf(o[0], o[1]) + o[2], o[3], text, lineNo);
        return true;
      }
      const dots = o === null ? text.indexOf(" ... ") : -1;
      // A test line is short: a longer head is no test line (and would cost the regex quadratic time).
      const head =
        dots > 0 && dots < 1000 && !DOC_OUTCOME.test(text) ? testIdLine(text.slice(0, dots)) : null;
      if (head) {
        seen = true;
        awaiting = { id: idOf(head[0], head[1]) + head[2], left: AWAIT_LINES };
        return false;
      }
      const no = o === null && text.includes(" ... ") ? NOSE_OUTCOME.exec(text) : null;
      if (no) {
        seen = true;
        sink.test(no[1]!, no[2]!.startsWith("SKIP") ? "skipped" : outcomeOf(no[2]!));
        return true;
      }
      if (text.endsWith("...") || text.endsWith("... ")) {
        if (PARENT.test(text)) {
          seen = true;
          return true;
        }
      }
      if ((text.charCodeAt(0) === 61 || text.charCodeAt(0) === 96) && RULE_EQ.test(text)) {
        flush();
        state = "header";
        return true;
      }
      if (state === "header") {
        const h = headerLine(text);
        const nh = h ? null : NOSE_HEADER.exec(text);
        if (h || nh) {
          seen = true;
          const id = h ? idOf(h[1], h[2]) + h[3] : nh![2]!;
          current = { id, kind: h ? h[0] : nh![1]!, buf: new BlockBuffer(), bare: !h };
          current.buf.push(text, lineNo);
          state = "body";
          return true;
        }
        // nose prints a test's docstring instead of its name (`FAIL: Make sure parent and child agree.`): the
        // block is read (so no fallback reports its traceback as a failure of its own), but the log does not say
        // which test it is (the traceback names the method, not its class), so it reports none.
        if (text.startsWith("FAIL: ") || text.startsWith("ERROR: ")) {
          current = { id: "", kind: "FAIL", buf: new BlockBuffer() };
          state = "body";
          return true;
        }
        state = "none";
        return false;
      }
      if (text.charCodeAt(0) === 35 /* # */) {
        const m = MD_HEADER.exec(text);
        const h = m ? headerLine(m[1]!) : null;
        if (h) {
          flush();
          seen = true;
          current = {
            id: idOf(h[1], h[2]) + h[3],
            kind: h[0],
            buf: new BlockBuffer(),
            separated: true,
            md: true,
          };
          current.buf.push(m![1]!, lineNo);
          state = "body";
          return true;
        }
      }
      if (state === "body" && current?.md && (MD_CLOSE.test(text) || RAN.test(text))) {
        flush();
        state = "none";
        return true;
      }
      if (state === "body" && current) {
        // The first dash rule under the header is its separator; the test's docstring (first line) may come
        // between them (`FAIL: test_x (m.C)`, `Check that …`, `-----`).
        if (
          RULE_DASH.test(text) &&
          !current.separated &&
          current.buf.lines.length <= 4 &&
          !current.buf.lines.some((l) => l.startsWith("Traceback"))
        ) {
          current.separated = true;
          return true;
        }
        if (RULE_DASH.test(text)) {
          flush();
          state = "none";
          return true;
        }
        current.buf.push(text, lineNo);
        return true;
      }
      if (state === "none" && (text.startsWith("FAIL: ") || text.startsWith("ERROR: "))) {
        const h = headerLine(text);
        if (h) {
          tentative = { id: idOf(h[1], h[2]) + h[3], kind: h[0], text, lineNo, indent: "" };
          return true;
        }
      }
      if (state === "none" && indent === null && text.charCodeAt(0) === 32) {
        // The first non-space character is F or E, or the expression cannot match (cheaper than running it).
        let k = 1;
        while (text.charCodeAt(k) === 32) k++;
        const ch = text.charCodeAt(k);
        const lead = ch === 70 || ch === 69 ? /^ +(?=(?:FAIL|ERROR): )/.exec(text)?.[0] : undefined;
        const h = lead ? headerLine(text.slice(lead.length)) : null;
        if (h) {
          tentative = {
            id: idOf(h[1], h[2]) + h[3],
            kind: h[0],
            text: text.slice(lead!.length),
            lineNo,
            indent: lead!,
          };
          return true;
        }
      }
      if (text.startsWith("Ran ") && RAN.test(text)) {
        ran = true;
        return true;
      }
      const r = ran ? RESULT.exec(text) : null;
      if (r) {
        ran = false;
        const failures = Number(/failures=(\d+)/.exec(text)?.[1] ?? 0);
        const errors = Number(/errors=(\d+)/.exec(text)?.[1] ?? 0);
        sink.summary({
          failed: r[1] === "OK" ? 0 : failures,
          error: errors,
          skipped: Number(/skipped=(\d+)/.exec(text)?.[1] ?? 0),
        });
        return true;
      }
      if (seen && (RESULT.test(text) || RULE_DASH.test(text))) return true;
      return false;
    },
    end(): void {
      // A nose header that is the log's last line (`FAIL: khmer.tests.test_l`, a paste cut there): nothing shows its
      // name is whole (a dash rule under it would), and a name cut mid-word is no test id. An outcome line that names
      // the test still reports it.
      if (current?.bare && current.buf.start === lastText) current = null;
      flush();
      const blocked = new Set(drafts.map((d) => d.test));
      for (const [id, f] of lineFailed) {
        if (blocked.has(id) || drafts.length >= 1000) continue;
        drafts.push({
          category: "test",
          test: id,
          message: `${f.kind} (the log has no ${f.kind} block for it)`,
          stack: f.text,
          start: f.lineNo,
          end: f.lineNo,
        });
      }
      lineFailed.clear();
      for (const d of drafts) {
        if (root && d.file) {
          const file = d.file.replace(/\\/g, "/");
          if (file.startsWith(root)) d.file = file.slice(root.length);
        }
        sink.failure(d);
      }
      drafts.length = 0;
    },
  };
}

export const unittestFormat: FormatDefinition = {
  name: "unittest",
  description: "Python unittest (-v outcome lines, FAIL:/ERROR: blocks)",
  create: createUnittestParser,
  // Fresh, a line `idleQuiet` passes is left before anything is kept (`lastText` matters only with a block open).
  wakesOn: [/^(?: *[tFE]|[=`RO#-])/, /\.\.\./],
};
