/**
 * Jest's default and `--verbose` reporters: `PASS`/`FAIL <file>` headers, `✓`/`✕`/`○` test lines
 * nested under describe titles, `● describe › test` failure blocks (with `Test suite failed to
 * run` for files that did not load) and the `Tests:` summary.
 */
import type { FailureCategory } from "../failure.ts";
import {
  BlockBuffer,
  codeFrameLine,
  countWords,
  popToIndent,
  dedent,
  errorLine,
  type FailureDraft,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
  underKnown,
} from "../parser.ts";

// With `projects`, the project's displayName comes between the status and the file: `FAIL b packages/b/x.test.js`.
// A file whose path has spaces (`FAIL spec/deep dir/render engine.test.js`) is read whole when it ends with a
// JavaScript/TypeScript extension; a displayName holds no `/`.
// The file has an extension and is no duration: gotestsum's `FAIL shelf` and `FAIL shelf.TestX (0.00s)` are not jest's.
// A status in markdown bold (`**FAIL**  test/x.js`) is a paste whose terminal bold became markdown.
const FILE_HEADER =
  /^ ?(?:\*\*)?(PASS|FAIL)(?:\*\*)? {1,2}(?:[^\s/]+ )?((?!\()\S*\.\S+|[^\s/]*(?:\/(?:[^\s/]| (?=[^\s/]))+?)*?\.[cm]?[jt]sx?)(?: \([\d.]+ m?s\))?$/;
/** Jest before 23 wrote the duration without its space (`FAIL x.ts (6.658s)`): read for a JavaScript/TypeScript file only. */
const OLD_FILE_HEADER = /^ ?(PASS|FAIL) {1,2}(?:[^\s/]+ )?(\S*\.[cm]?[jt]sx?) \(\d+(?:\.\d+)?m?s\)$/;
const TEST_LINE = /^(\s+)(✓|✕|○|√|×) (?:(skipped|todo) )?(.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$/;
const BULLET = /^ {2}● (.+)$/;
/**
 * A block header whose `●` and `›` were lost to a console's encoding: each UTF-8 byte turned into `?` (`??? A ??? b`),
 * each character into one `?` (`? A ? b`), or the bytes read as Windows-1252 (`â—\u008f A â€º b`). The bullet says
 * which damage the line has; the separators are read the same way.
 */
const MANGLED_BULLET = /^ {0,2}(\?\?\?|\?|â—\u008f?) (\S.*)$/;
/** A header pasted without its indentation (a selection started at the bullet, inline-code damage). */
const LOOSE_BULLET = /^ {0,2}● (\S.*)$/;
/**
 * jest's own count lines in its own layout (`Tests:` padded to the width of `Test Suites:`), read without a `FAIL`
 * header: PHPUnit's `Tests: 42, Assertions: 50, Failures: 2.` and other runners' `Tests: 1 failed` are not them.
 */
const JEST_COUNTS = /^(Tests: {7}|Test Suites: )(?:\d+ [a-z]+, )*\d+(?: of \d+)? total$/;
/** A stack frame's place: `at fn (path:line:col)` or `at path:line:col`. */
const FRAME_PLACE = /^\s*at (?:[^()]*\()?([^\s():]+):\d+:\d+\)?$/;
const SUMMARY = /^(Test Suites|Tests|Snapshots|Time|Ran all test suites)\b/;
const CODE_FRAME = /^\s*>?\s*\d+ \||^\s+\|/;
/**
 * npm 6's header before a script (`> pkg@1.2.0 test /var/lib/jenkins/workspace/job/enriched`): the directory the
 * script, so jest, ran in. Once the runner's checkout prefix is taken off, a relative directory is a package below
 * the repository, and jest's paths (relative to where it ran) are under it.
 */
const NPM_HEADER = /^> (?:@[\w.-]+\/)?[\w.-]+@\S+ [\w:.-]+(?: (.*))?$/;
const RELATIVE_DIR = /^[\w.@-]+(?:\/[\w.@-]+)*$/;

/** The first character after at most two spaces of indentation. */
function firstMark(text: string): number {
  let i = 0;
  while (i < 2 && text.charCodeAt(i) === 32) i++;
  return text.charCodeAt(i);
}

/** A line that may be a damaged header: `?` or `â` after at most two spaces. */
function mayBeMangled(text: string): boolean {
  const c = firstMark(text);
  return c === 63 || c === 0xe2;
}

/** A mangled header as jest printed it (`● A › b`), or null. */
export function unmangleBullet(text: string): string | null {
  const m = MANGLED_BULLET.exec(text);
  if (!m) return null;
  const sep = m[1] === "???" ? " ??? " : m[1] === "?" ? " ? " : " â€º ";
  return `  ● ${m[2]!.split(sep).join(" › ")}`;
}

/**
 * The test file of a block that no `FAIL` header names: the outermost frame of the block's stack that is in the
 * repository (jest cuts its own frames, so the last one left is the test function's).
 */
function testFileOf(lines: readonly string[], sink: ParserSink): string | null {
  let file: string | null = null;
  for (const l of lines) {
    if (!l.trimStart().startsWith("at ")) continue;
    const m = FRAME_PLACE.exec(l);
    if (!m) continue;
    const f = sink.path(m[1]!);
    if (f.startsWith("/") || /^[A-Za-z]:/.test(f) || f.startsWith("node:") || f.startsWith("internal/"))
      continue;
    if (f.includes("node_modules/")) continue;
    file = f;
  }
  return file;
}

/**
 * A test file printed as a machine's absolute path that no runner checkout prefix removed (jest on a developer's
 * Windows machine: `FAIL C:\\Users\\me\\shop\\src\\cart.test.js`, mapped to `C:/Users/me/shop/src/cart.test.js`).
 * The log does not say where the repository starts: the path from the topmost source or test directory (`src/`,
 * `test/`, `__tests__/`, `packages/`, …), else the file's name (the repository taken as the file's directory).
 */
const SOURCE_DIRS = new Set([
  "src",
  "test",
  "tests",
  "__tests__",
  "spec",
  "specs",
  "e2e",
  "lib",
  "app",
  "packages",
]);
export function machineTestFile(f: string): string {
  if (!/^(?:[A-Za-z]:\/|\/)/.test(f)) return f;
  // GitHub's Windows runner checkout written with forward slashes (`D:/a/shop/shop/web/x.test.js`).
  const actions = /^[A-Za-z]:\/a\/([^/]+)\/\1\/(.+)$/.exec(f);
  if (actions) return actions[2]!;
  const parts = f
    .replace(/^[A-Za-z]:/, "")
    .split("/")
    .filter((x) => x !== "");
  const top = parts.findIndex((d, i) => i < parts.length - 1 && SOURCE_DIRS.has(d));
  return top >= 0 ? parts.slice(top).join("/") : (parts[parts.length - 1] ?? f);
}

/**
 * `Test suite failed to run` pasted without its `FAIL` header and its `●` (lost, or the line put in markdown
 * backticks), and Babel's first line under it naming the test file: `C:/x/App.test.js: Unexpected token (7:35)`.
 */
const BARE_SUITE = /^ {0,4}`?(?:● )?Test suite failed to run`?\s*$/;
const BABEL_ERROR = /^\s*((?:[A-Za-z]:)?[^\s:]+\.(?:test|spec)\.[cm]?[jt]sx?): .+ \((\d+):(\d+)\)$/;

/**
 * A log cut inside a `Test suite failed to run` block, so it starts with the block's last stack frames: jest-resolve's
 * `Resolver.resolveModule` frame (it throws jest's `Cannot find module`) and below it the test file's top-level code
 * (`at Object.<anonymous> (x.test.ts:2:1)`), the module load of a test file that failed to run.
 */
const RESOLVE_FRAME = /^\s+at Resolver\.resolveModule \(\S*node_modules\/jest-resolve\/\S+:\d+:\d+\)$/;
const TOP_LEVEL_FRAME = /^\s+at Object\.<anonymous> \(([^\s():]+):(\d+):(\d+)\)$/;
const TEST_FILE = /(?:^|\/)(?:__tests__\/[^/]+|[^/]+\.(?:test|spec))\.[cm]?[jt]sx?$/;
/**
 * Jest 0.x's closing count line (its DefaultTestReporter): `1 test failed, 0 tests passed (1 total)`, `3 tests passed
 * (3 total)`. A file that failed to run (its `testExecError`) is printed by jest 0.x as its ` FAIL  file` header with no
 * duration and the error right under it at the margin, with no `●` block: the file's failure, once this line counts
 * a failed test (no later jest prints it).
 */
const OLD_COUNTS = /^(?:(\d+) tests? failed, )?(\d+) tests? passed \((\d+) total\)$/;

export function createJestParser(sink: ParserSink) {
  let active = false;
  /** The stack frames a log starts with (a paste cut above them), until its first other line. */
  let head: { frames: string[]; start: number; end: number } | null = { frames: [], start: 0, end: 0 };
  /**
   * A `●` block read before any `PASS`/`FAIL` header (a paste that starts below it): kept only when its body is
   * jest's (an `expect(` line or a code frame) and a frame names its test file.
   */
  let loose = false;
  let file: string | null = null;
  /** describe titles by indentation level under the current file header. */
  let path: { indent: number; title: string }[] = [];
  let prefix: string | null = null;
  let block: { title: string; file: string | null; buf: BlockBuffer } | null = null;
  let consoleBlock = false;
  /** `✕` lines, and the ids their `●` blocks gave: a log cut before a block still names its failure. */
  const crossed = new Map<string, { file: string | null; lineNo: number }>();
  /** The number of the last line offered. */
  let lastSeen = 0;
  const blocked = new Set<string>();
  /** The file-and-describe ids that `✕` lines sit under (`file > A`, `file > A > B`). */
  const crossedParents = new Set<string>();
  let sawTests = false;
  /** The repository directory npm's script header says jest ran in ("" for the root or unknown). */
  let cwd = "";
  const under = (p: string) => (cwd && !p.startsWith("/") && !p.startsWith(`${cwd}/`) ? `${cwd}/${p}` : p);

  const idFor = (titles: string, f: string | null) => (f ? `${f} > ${titles}` : titles);
  /** A suite failure read without its `FAIL` header and bullet: held until jest's `Test Suites: N failed` line. */
  let unconfirmed = false;
  const held: FailureDraft[] = [];
  /** A ` FAIL  file` header with no duration on the line before (jest 0.x's file that failed to run). */
  let execHeader: { file: string | null; text: string; lineNo: number } | null = null;
  /** The block is jest 0.x's error under such a header: its lines are read, not claimed, until its count confirms it. */
  let execBlock = false;

  function flush(): void {
    if (!block) return;
    const lines = dedent(block.buf.lines.slice(1));
    const body = lines.filter((l) => l.trim() !== "");
    const suite = block.title === "Test suite failed to run";
    if (loose) {
      loose = false;
      // jest's body: an `expect(…)` line, a code frame, or an error line under a `describe › test` title.
      const nested = block.title.includes(" › ");
      const jestBody = body.some(
        (l) => /^\s*expect[.(]/.test(l) || /^\s*> \d+ \|/.test(l) || (nested && errorLine(l) !== null),
      );
      const babel = suite ? BABEL_ERROR.exec(body[0] ?? "") : null;
      const testFile = babel
        ? machineTestFile(sink.path(babel[1]!))
        : jestBody && !suite
          ? testFileOf(body, sink)
          : null;
      if (testFile === null) {
        block = null;
        return;
      }
      block.file = testFile;
      unconfirmed = suite;
    }
    let errorType: string | null = null;
    const messageLines: string[] = [];
    for (const l of body) {
      if (CODE_FRAME.test(l) || /^\s*at /.test(l)) break;
      messageLines.push(l);
      if (messageLines.length >= 30) break;
    }
    const first = messageLines[0] ?? "";
    const typed = errorLine(first);
    let message = messageLines.join("\n");
    if (typed) {
      errorType = typed.type;
      message = [typed.message, ...messageLines.slice(1)].join("\n");
    } else if (first.startsWith("expect(")) {
      errorType = "AssertionError";
    }
    let category: FailureCategory = "test";
    if (suite) {
      const all = body.join("\n");
      if (/error TS\d+/.test(all)) category = "type-check";
      // Babel's parse error (`x.test.js: Unexpected token (7:35)`) is a syntax error without the word.
      else if (/SyntaxError/.test(all) || BABEL_ERROR.test(body[0] ?? "")) category = "syntax";
      else if (/Cannot find module|Module not found/.test(all)) category = "import";
      else category = "build";
    }
    const loc = jsFrameLocation(body, sink);
    const test = suite ? null : idFor(block.title.replace(/ › /g, " > "), block.file);
    // A paste cut right after a header (`● Suite`, nothing below it) whose title is only the describe of `✕` tests:
    // the header of one of those tests, its ` › test` cut away; the `✕` line names it.
    if (test && body.length === 0 && crossedParents.has(test)) {
      block = null;
      return;
    }
    // A suite that failed to run is its test file's failure (the file jest reruns), wherever the error points:
    // a frame in another file (the module that failed to import) stays in the stack, and the place is the test
    // file's own frame, or with no frame left the code frame's `>` line.
    const locFile = loc ? (block.file ? underKnown(under(loc.file), block.file) : under(loc.file)) : null;
    const suiteFile = suite ? block.file : null;
    // The error points into another module (`at Object.<anonymous> (src/App.tsx:6:34)`): the test file's own frame
    // further down the stack (`(src/App.test.tsx:5:15)`, the import that loaded it) is the suite's place.
    const own =
      suiteFile !== null && loc !== null && locFile !== suiteFile
        ? jsFrameLocation(body, sink, (f) => underKnown(under(f), suiteFile) === suiteFile)
        : null;
    // Babel's syntax error names the test file's own place (`App.test.js: Unexpected token (7:35)`).
    const babel = suite && loc === null ? BABEL_ERROR.exec(body[0] ?? "") : null;
    const suiteLine =
      suiteFile === null
        ? null
        : locFile === suiteFile
          ? (loc?.line ?? null)
          : own !== null
            ? own.line
            : loc === null
              ? babel && machineTestFile(sink.path(babel[1]!)) === suiteFile
                ? Number(babel[2])
                : codeFrameLine(body)
              : null;
    (unconfirmed ? { failure: (d: FailureDraft) => held.push(d) } : sink).failure({
      category,
      test,
      file: suiteFile ?? locFile ?? block.file,
      // No frame left (a cut paste): the code frame's `>` line, in the test's file.
      line: suiteFile !== null ? suiteLine : (loc?.line ?? (suite ? null : codeFrameLine(body))),
      column:
        suiteFile !== null
          ? locFile === suiteFile
            ? (loc?.column ?? null)
            : (own?.column ?? null)
          : (loc?.column ?? null),
      errorType,
      message: message || block.title,
      stack: lines.join("\n"),
      start: block.buf.start,
      end: block.buf.end,
    });
    execBlock = false;
    if (test) {
      sink.test(test, "failed", block.file);
      blocked.add(test);
    }
    block = null;
    unconfirmed = false;
  }

  /**
   * A `●` header outside any `FAIL` file's section: opens a loose block. Of the damaged bullets only the ones that
   * cannot be a character of their own (`???`, `â—`): a lone `?` line is difflib's hint line as often.
   */
  function looseHeader(printed: string, lineNo: number): boolean {
    if (printed.includes("Test suite failed to run") && BARE_SUITE.test(printed)) {
      flush();
      loose = true;
      block = { title: "Test suite failed to run", file: null, buf: new BlockBuffer(200, 16_000) };
      block.buf.push(printed, lineNo);
      return true;
    }
    // An HTML tag the paste put before the header (`<h5>  ● A › b`, a CI bot's comment rendered as HTML).
    const text = printed.charCodeAt(0) === 60 ? printed.replace(/^<[a-z][a-z0-9]{0,9}>/, "") : printed;
    const first = firstMark(text);
    if (first !== 0x25cf && first !== 63 && first !== 0xe2) return false;
    const plain = first === 0x25cf ? LOOSE_BULLET.exec(text) : null;
    const mangled = plain || !/^ {0,2}(?:\?\?\? |â—)/.test(text) ? null : unmangleBullet(text);
    const title = plain ? plain[1]! : mangled ? mangled.slice(4) : null;
    if (title === null || title.trim() === "Console") return false;
    flush();
    loose = true;
    block = { title: title.trim(), file: null, buf: new BlockBuffer(200, 16_000) };
    block.buf.push(text, lineNo);
    return true;
  }

  /** The head frames' suite that failed to run, once a `FAIL` header shows the log is jest's. */
  function headSuite(): void {
    const h = head;
    head = null;
    if (!h || h.frames.length < 2 || h.frames.length > 50) return;
    const r = h.frames.findIndex((l) => RESOLVE_FRAME.test(l));
    const top = r >= 0 ? TOP_LEVEL_FRAME.exec(h.frames[r + 1] ?? "") : null;
    if (!top) return;
    const f = under(machineTestFile(sink.path(top[1]!)));
    if (!TEST_FILE.test(f) || f.includes("node_modules/")) return;
    sink.failure({
      category: "import",
      test: null,
      file: f,
      line: Number(top[2]),
      column: Number(top[3]),
      message: "Test suite failed to run (the log starts inside its stack: a module jest could not resolve)",
      stack: h.frames.map((l) => l.trim()).join("\n"),
      start: h.start,
      end: h.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      lastSeen = lineNo;
      if (head) {
        if (/^\s+at \S/.test(text)) {
          if (head.frames.length === 0) head.start = lineNo;
          head.frames.push(text);
          head.end = lineNo;
        } else if (text.trim() !== "") {
          const frames = head.frames.length;
          if (frames === 0 || !(FILE_HEADER.test(text) || OLD_FILE_HEADER.test(text))) head = null;
        }
      }
      const c0 = text.charCodeAt(0);
      // Quick reject: a file header starts with "PASS", "FAIL" or " PASS"/" FAIL" (coloured); not the indented
      // `✓` lines, most of a verbose log.
      const c1 = c0 === 32 ? text.charCodeAt(1) : c0;
      const h =
        c1 === 80 || c1 === 70 || (c1 === 42 && text.includes("**  "))
          ? (FILE_HEADER.exec(text) ?? OLD_FILE_HEADER.exec(text))
          : null;
      if (h) {
        flush();
        if (head) headSuite();
        consoleBlock = false;
        active = true;
        file = under(machineTestFile(sink.path(h[2]!)));
        path = [];
        prefix = null;
        execHeader = h[1] === "FAIL" && !text.trimEnd().endsWith(")") ? { file, text, lineNo } : null;
        return true;
      }
      const exec = execHeader;
      execHeader = null;
      if (exec && !block && c0 !== 32 && c0 !== 9 && text.trim() !== "" && !OLD_COUNTS.test(text)) {
        block = { title: "Test suite failed to run", file: exec.file, buf: new BlockBuffer(200, 16_000) };
        block.buf.push(exec.text, exec.lineNo);
        block.buf.push(text, lineNo);
        execBlock = true;
        unconfirmed = true;
        return false;
      }
      if (c0 === 62 && text.startsWith("> ")) {
        // The command line under it (`> jest`) leaves it as it is.
        const n = NPM_HEADER.exec(text);
        if (n) cwd = n[1] && RELATIVE_DIR.test(n[1]) && !n[1].startsWith(".") ? n[1] : "";
        return false;
      }
      if (!active) {
        const j = c0 === 84 ? JEST_COUNTS.exec(text) : null;
        if (j) {
          // A summary pasted without the run above it still says whether the run failed (it names no test).
          flush();
          if (j[1]!.startsWith("Tests")) sink.summary(countWords(text));
          else {
            const failed = countWords(text).failed;
            sink.summary({ failed: 0, error: failed });
            // jest's own count confirms the suites that failed to run above it.
            if (failed > 0) for (const d of held.splice(0)) sink.failure(d);
          }
          return true;
        }
        // A loose block's lines are read, not claimed: until its body proves it jest's, the lines stay every
        // other format's too (a failure they report from the same lines is the same one, and merged).
        if (looseHeader(text, lineNo)) return false;
        if (!block) return false;
        // A block pasted alone ends at its first line that is not indented (jest indents a block's body).
        if (text === "" || c0 === 32) {
          block.buf.push(text, lineNo);
          return false;
        }
        flush();
        looseHeader(text, lineNo);
        return false;
      }
      const bullet =
        c0 === 32 && text.startsWith("  ●") ? text : mayBeMangled(text) ? unmangleBullet(text) : null;
      const b = bullet ? BULLET.exec(bullet) : null;
      if (b) {
        flush();
        // `● Console` (jest before 27, and with --useStderr) heads a test's console output, not a failure.
        if (b[1]!.trim() === "Console") {
          consoleBlock = true;
          return true;
        }
        consoleBlock = false;
        block = { title: b[1]!.trim(), file, buf: new BlockBuffer(200, 16_000) };
        block.buf.push(text, lineNo);
        return true;
      }
      if ((c0 === 84 || c0 === 83 || c0 === 82) && SUMMARY.test(text)) {
        flush();
        if (text.startsWith("Tests:")) {
          sawTests = true;
          sink.summary(countWords(text));
        }
        // A suite that failed to run has no test to count: it still makes the run red.
        else if (text.startsWith("Test Suites:")) sink.summary({ failed: 0, error: countWords(text).failed });
        if (text.startsWith("Ran all test suites")) active = false;
        return true;
      }
      if (active && c0 >= 48 && c0 <= 57) {
        const oc = OLD_COUNTS.exec(text);
        if (oc) {
          flush();
          const failed = Number(oc[1] ?? 0);
          sink.summary({ failed, passed: Number(oc[2]) });
          if (failed > 0) for (const d of held.splice(0)) sink.failure(d);
          return true;
        }
      }
      if (block) {
        block.buf.push(text, lineNo);
        return !execBlock;
      }
      if (consoleBlock) {
        if (c0 === 32 || text === "") return true;
        consoleBlock = false;
      }
      if (c0 !== 32) return text === "";
      const indent = text.length - text.trimStart().length;
      const mark = text.charCodeAt(indent);
      // ✓ ✕ ○ √ ×
      const t =
        mark === 0x2713 || mark === 0x2715 || mark === 0x25cb || mark === 0x221a || mark === 0xd7
          ? TEST_LINE.exec(text)
          : null;
      if (t) {
        if (path.length > 0 && path[path.length - 1]!.indent >= indent) {
          popToIndent(path, indent);
          prefix = null;
        }
        // The id prefix (file and describe titles) is shared by every test of a block: built once.
        prefix ??= idFor([...path.map((p) => p.title), ""].join(" > "), file);
        const m = t[2]!;
        const outcome = m === "✓" || m === "√" ? "passed" : m === "○" ? "skipped" : "failed";
        sink.test(prefix + t[4]!, outcome, file);
        if (outcome === "failed" && crossed.size < 10_000) {
          crossed.set(prefix + t[4]!, { file, lineNo });
          let parent = prefix.slice(0, -3);
          while (parent.includes(" > ") && !crossedParents.has(parent) && crossedParents.size < 10_000) {
            crossedParents.add(parent);
            parent = parent.slice(0, parent.lastIndexOf(" > "));
          }
        }
        return true;
      }
      // A describe title in the verbose listing: an indented plain line.
      if (indent < text.length && !text.includes("●")) {
        popToIndent(path, indent);
        path.push({ indent, title: text.trim() });
        prefix = null;
        return true;
      }
      return indent === text.length;
    },
    end(): void {
      // A log that ends in a `●` header of a FAIL file (`  ● Tes`, cut mid-line, nothing below it): the title is cut,
      // so it names no test; the file failed. Left to the `✕` lines when the file has some (one of them is it).
      const b = block;
      if (b?.file && b.buf.lines.length === 1 && b.buf.start === lastSeen && !loose) {
        block = null;
        if (![...crossed.values()].some((c) => c.file === b.file)) {
          sink.failure({
            category: "test",
            test: null,
            file: b.file,
            message: `failed (the log ends in the header \`● ${b.title}\`)`,
            start: b.buf.start,
            end: b.buf.start,
          });
        }
      }
      flush();
      // A log that ends before jest's `Tests:` line, cut before some `●` blocks: their `✕` lines are the failures.
      if (sawTests) return;
      for (const [id, c] of crossed) {
        if (blocked.has(id)) continue;
        sink.failure({
          category: "test",
          test: id,
          file: c.file,
          message: "failed (the log ends before its details)",
          start: c.lineNo,
          end: c.lineNo,
        });
      }
    },
  };
}

export const jestFormat: FormatDefinition = {
  name: "jest",
  description: "Jest default and --verbose reporters",
  create: createJestParser,
};
