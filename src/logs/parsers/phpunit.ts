/**
 * PHPUnit (9 to 11): the default output (`There were 2 failures:` then numbered
 * `1) Ns\ClassTest::testX with data set #1 (…)` blocks ending in `/path/File.php:18` frames) and
 * `--testdox` (`Money (Ns\Money)` class headers, `✔`/`✘` lines with `│`-framed details), with the
 * `Tests: 7, Assertions: 6, Errors: 1, Failures: 2.` / `OK (7 tests, …)` count lines.
 * Ids are `Ns\ClassTest::testMethod` plus ` with data set #N` / ` with data set "name"` (docs/test-ids.md).
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const BANNER = /^PHPUnit \d+\.\d+(?:\.\d+)? by Sebastian Bergmann/;
const SECTION =
  /^There (?:was|were) \d+ (errors?|failures?|warnings?|risky tests?|skipped tests?|incomplete tests?|deprecations?|notices?|PHPUnit (?:test runner )?(?:warnings?|deprecations?)):$/;
/**
 * PHPUnit 10's issue lists (`3 tests triggered 3 PHPUnit deprecations:`, `1 test triggered 1 warning:`): numbered
 * `1) Ns\ClassTest::testX` entries with a file:line like failures', but the tests they name did not fail.
 */
const ISSUES = /^\d+ tests? triggered \d+ (?:PHPUnit |PHP )?(?:errors?|warnings?|notices?|deprecations?):$/;
const ENTRY = /^(\d+)\) ([\w\\]+)::(\w+)( with data set (?:#\d+|"(?:[^"\\]|\\.)*"))?(?: \(.*\))?$/;
/**
 * An entry pasted as one line, without its number, the name and PHPUnit's assertion wording joined by a space
 * (`LaravelRoutesTest::testLandingResponseCode Failed asserting that 500 matches expected 200`).
 */
const BARE_ENTRY =
  /^([A-Za-z_][\w\\]*)::(\w+)( with data set (?:#\d+|"(?:[^"\\]|\\.)*"))? (Failed asserting that .+)$/;
/** A `.phpt` test, named by its path: `11) /usr/local/src/phpunit/tests/TextUI/failure-isolation.phpt`. */
const PHPT_ENTRY = /^(\d+)\) (\S+\.phpt)$/;
/** What a `.phpt` failure prints below its path: the expected-output comparison. */
const PHPT_EVIDENCE = /^(?:--- Expected|Failed asserting that string matches format description\.)$/;
// A directory or file name after the first may hold single spaces (`tests/Deep/Nested Dir/FailuresTest.php:20`).
const PHP_PATH = "(?:[A-Za-z]:)?[^\\s:/]*(?:/(?:[^\\s:/]| (?=[^\\s:/]))+?)*?\\.phpt?";
const FRAME = new RegExp(`^(${PHP_PATH}):(\\d+)$`);
/** An error raised outside a test method (`setUpBeforeClass`): `RuntimeException: msg in /x/tests/T.php:12`. */
const THROWN_AT = new RegExp(` in (${PHP_PATH}):(\\d+)$`);
const COUNTS = /^Tests: (\d+), Assertions: \d+(.*)\.$/;
const OK = /^OK \((\d+) tests?, \d+ assertions?\)$/;
const TESTDOX_CLASS = /^(\S.*?) \(([\w\\]+)\)$/;
const TESTDOX_TEST = /^ (✔|✘|↩|∅|☢|⚠|ℹ) (.+)$/;
const TESTDOX_DETAIL = /^ {3}│ ?(.*)$/;

/** testdox's sentence back to the method: `Split keeps cents` → `testSplitKeepsCents` (PHPUnit's own prettifier, reversed). */
function methodOf(sentence: string): { method: string; dataSet: string } {
  const m = /^(.*?)( with data set (?:#\d+|".*"))?$/.exec(sentence)!;
  const words = m[1]!.trim().split(/\s+/);
  const method = `test${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")}`;
  return { method, dataSet: m[2] ?? "" };
}

interface Block {
  id: string;
  kind: "failure" | "error";
  buf: BlockBuffer;
  /** The message printed on the entry's own line (BARE_ENTRY). */
  inline?: string;
}

export function createPhpunitParser(sink: ParserSink) {
  let active = false;
  /** `pasted`: a list whose heading was cut away; an entry is an error when its message is a thrown error. */
  let section: "failure" | "error" | "other" | "pasted" | null = null;
  let block: Block | null = null;
  let testdoxClass: string | null = null;
  let testdoxBlock: Block | null = null;
  /**
   * A pasted failure list without PHPUnit's banner: `There were 2 failures:` counts only when its first entry,
   * `1) Ns\ClassTest::testX`, follows (blank lines aside). Then the list is read as if the banner had been seen.
   */
  let pendingSection: string | null = null;
  /** An entry of a list pasted without its heading, waiting for a frame of its own (see `line`). */
  let candidate: Block | null = null;
  /**
   * The indentation of a pasted entry's block that was indented as a whole (a markdown indented code block, four
   * spaces before every line): taken off its lines until a line that does not have it.
   */
  let pasteIndent: string | null = null;

  /**
   * The checkout directory of a machine's absolute paths (`/home/me/2captcha-php/`), learnt from a frame in the
   * test's own file laid out as its namespace says (PSR-4: `TwoCaptcha\Tests\NormalTest` in `…/tests/NormalTest.php`):
   * the path's last directories spell the namespace's last segments, the topmost of them being the `tests` (or
   * `test`) directory, whose parent is the checkout. Nothing is learnt when the namespace does not reach `tests`.
   */
  let root: string | null = null;
  function learnRoot(id: string, frames: readonly RegExpExecArray[]): void {
    if (root !== null) return;
    const ns = id.split("::", 1)[0]!.toLowerCase().split("\\");
    for (const f of frames) {
      const file = f[1]!.replace(/\\/g, "/");
      if (!/^(?:\/|[A-Za-z]:\/)/.test(file) || !file.toLowerCase().endsWith(`/${ns[ns.length - 1]!}.php`))
        continue;
      const dirs = file.toLowerCase().split("/").slice(0, -1);
      // A class in the global namespace (Laravel 4/5's `tests/ExampleTest.php`) sitting right in a `tests` (or
      // `test`) directory: that directory's parent is the checkout.
      if (ns.length === 1 && /^tests?$/.test(dirs[dirs.length - 1] ?? "") && dirs.length >= 2) {
        root = `${file
          .split("/")
          .slice(0, dirs.length - 1)
          .join("/")}/`;
        return;
      }
      let k = 1;
      while (k < ns.length && dirs[dirs.length - k] === ns[ns.length - 1 - k]) {
        if (/^tests?$/.test(ns[ns.length - 1 - k]!)) {
          root = `${file
            .split("/")
            .slice(0, dirs.length - k)
            .join("/")}/`;
          return;
        }
        k++;
      }
    }
    // PSR-4 maps a namespace prefix to any directory (`phpmock\\` to `tests/`), so the namespace need not be in the
    // path: the test class's own file under a `tests` (or `test`) directory names the checkout as that directory's
    // parent (`/tmp/php-mock/tests/MockDefiningOrderTest.php`, `…/comparator-8.1.0/tests/unit/XTest.php`).
    for (const f of frames) {
      const file = f[1]!.replace(/\\/g, "/");
      if (!/^(?:\/|[A-Za-z]:\/)/.test(file) || !file.toLowerCase().endsWith(`/${ns[ns.length - 1]!}.php`))
        continue;
      const lower = file.toLowerCase();
      const at = Math.max(lower.lastIndexOf("/tests/"), lower.lastIndexOf("/test/"));
      if (at > 0) {
        root = file.slice(0, at + 1);
        return;
      }
    }
  }

  /**
   * The id of a numbered entry: `Ns\Class::method[ with data set …]`, or a `.phpt` test's path relative to the
   * checkout (the learnt one, else the directory above the path's `tests/` directory).
   */
  function entryId(text: string): string | null {
    const e = ENTRY.exec(text);
    if (e) return `${e[2]}::${e[3]}${e[4] ?? ""}`;
    const t = PHPT_ENTRY.exec(text);
    if (!t) return null;
    const file = sink.path(t[2]!).replace(/\\/g, "/");
    if (!/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
    if (root !== null && file.startsWith(root)) return file.slice(root.length);
    const m = /\/(tests?\/.*)$/.exec(file);
    return m ? m[1]! : file;
  }

  /** A `.phpt` test's own frame (`/abs/tests/output/scale.phpt:7`) is in the file its id names. */
  function phptPlace(id: string, file: string): string {
    return id.endsWith(".phpt") && file.endsWith(`/${id}`) ? id : file;
  }

  function flush(b: Block | null): void {
    if (!b) return;
    if (section === "pasted" && /^(?:[A-Z][\w\\]*\\)?\w*(?:Error|Exception): /.test(b.buf.lines[1] ?? ""))
      b.kind = "error";
    const lines = b.buf.lines.slice(1).map((l) => l.replace(/^ {3}│ ?/, ""));
    const body = lines.filter((l) => l.trim() !== "" && l.trim() !== "--");
    // A diff line (`+/abs/tests/_files/FailureTest.php:8` in a `.phpt` comparison) quotes output, it is no frame.
    const frames = body
      .map((l) => (/^[+-]/.test(l) ? null : FRAME.exec(l.trim())))
      .filter((m): m is RegExpExecArray => m !== null);
    learnRoot(b.id, frames);
    if (root !== null)
      for (const f of frames) {
        // The root is learnt with forward slashes; a Windows frame has backslashes.
        const slashed = f[1]!.replace(/\\/g, "/");
        if (slashed.startsWith(root)) f[1] = slashed.slice(root.length);
      }
    const messageLines = body.filter((l) => /^[+-]/.test(l) || !FRAME.test(l.trim()));
    if (b.inline) messageLines.unshift(b.inline);
    const thrown = frames.length === 0 ? THROWN_AT.exec(messageLines[0] ?? "") : null;
    const inRepo = frames.find((f) => !/(?:^|\/)vendor\//.test(sink.path(f[1]!))) ?? frames[0] ?? thrown;
    const typed = /^([A-Z][\w\\]*(?:Error|Exception)): (.*)$/.exec(messageLines[0] ?? "");
    sink.failure({
      category: "test",
      test: b.id,
      file: inRepo ? phptPlace(b.id, sink.path(inRepo[1]!)) : null,
      line: inRepo ? Number(inRepo[2]) : null,
      errorType: typed
        ? typed[1]!
        : b.kind === "failure"
          ? "PHPUnit\\Framework\\ExpectationFailedException"
          : null,
      message: (typed ? [typed[2]!, ...messageLines.slice(1)] : messageLines).join("\n").trim() || b.kind,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
    sink.test(b.id, b.kind === "error" ? "error" : "failed");
  }

  /** A `Tests: N, Assertions: M, Errors: E, Failures: F.` line's counts. */
  function summarize(c: RegExpExecArray): void {
    const n = (w: string) => Number(new RegExp(`${w}: (\\d+)`).exec(c[2]!)?.[1] ?? 0);
    const failed = n("Failures");
    const error = n("Errors");
    const skipped = n("Skipped") + n("Incomplete");
    sink.summary({ passed: Number(c[1]) - failed - error - skipped, failed, error, skipped });
  }

  return {
    line(raw: string, lineNo: number): boolean {
      let text = raw;
      if (pasteIndent !== null) {
        if (raw.startsWith(pasteIndent)) text = raw.slice(pasteIndent.length);
        else if (raw.trim() !== "") pasteIndent = null;
      }
      if (BANNER.test(text)) {
        active = true;
        return true;
      }
      if (!active && text.startsWith("Tests: ")) {
        // PHPUnit's count line pasted without the banner (`Tests: 33, Assertions: 44, Failures: 15.`, the tail of a
        // run): counts, never a failure; its `Assertions:` field is PHPUnit's (jest's and Pest's `Tests:` lines have
        // words, not a number, after it).
        // Not claimed: Codeception's entries above it close on it too.
        const c0 = COUNTS.exec(text);
        if (c0) {
          summarize(c0);
          return false;
        }
      }
      if (!active) {
        if (pendingSection !== null) {
          if (text.trim() === "") return false;
          if (text.startsWith("1) ") && entryId(text) !== null) {
            active = true;
            const opened = SECTION.exec(pendingSection);
            section = opened![1]!.startsWith("error")
              ? "error"
              : opened![1]!.startsWith("failure")
                ? "failure"
                : "other";
          }
          pendingSection = null;
          if (!active) return false;
        } else {
          if (text.startsWith("There ") && SECTION.test(text)) {
            pendingSection = text;
            candidate = null;
            return false;
          }
          // A list pasted from its middle, without banner or heading: an entry counts once its own block reaches
          // a PHP frame (`/abs/tests/NormalTest.php:31`), before another entry or the end of the list.
          const id = text.charCodeAt(0) >= 48 && text.charCodeAt(0) <= 57 ? entryId(text) : null;
          if (id !== null) {
            candidate = { id, kind: "failure", buf: new BlockBuffer() };
            candidate.buf.push(text, lineNo);
            return false;
          }
          // The same entry in a block the paste indented as a whole: read with that indentation taken off its lines.
          const c0 = text.charCodeAt(0);
          if (candidate === null && pasteIndent === null && (c0 === 32 || c0 === 9)) {
            const indent = /^(?: {1,8}|\t)(?=\d+\) )/.exec(text)?.[0];
            const indentedId = indent ? entryId(text.slice(indent.length)) : null;
            if (indent && indentedId !== null) {
              pasteIndent = indent;
              candidate = { id: indentedId, kind: "failure", buf: new BlockBuffer() };
              candidate.buf.push(text.slice(indent.length), lineNo);
              return false;
            }
          }
          // An entry pasted as one line, its name and message joined: it counts, like a numbered one, once a PHP
          // frame follows in its block (the assertion wording alone on the name's line is not enough).
          const bare =
            text.includes("::") && text.includes(" Failed asserting that ") ? BARE_ENTRY.exec(text) : null;
          if (bare) {
            const bareId = `${bare[1]}::${bare[2]}${bare[3] ?? ""}`;
            candidate = { id: bareId, kind: "failure", buf: new BlockBuffer(), inline: bare[4]! };
            candidate.buf.push(text, lineNo);
            return false;
          }
          if (candidate === null) return false;
          candidate.buf.push(text, lineNo);
          // PHPUnit's own assertion wording (`Failed asserting that false is true.`) is as much its as a frame: a
          // lone entry pasted with its message and no frame (`1) Tests\Feature\LoginTest::test_x`, the message) counts.
          if (
            FRAME.test(text.trim()) ||
            (candidate.id.endsWith(".phpt") && PHPT_EVIDENCE.test(text)) ||
            (!candidate.id.endsWith(".phpt") &&
              !candidate.inline &&
              /^Failed asserting that .+\.$/.test(text))
          ) {
            active = true;
            section = "pasted";
            block = candidate;
            candidate = null;
            return true;
          }
          if (candidate.buf.lines.length > 60) {
            candidate = null;
            pasteIndent = null;
          }
          return false;
        }
      }
      const sec = SECTION.exec(text);
      if (sec) {
        flush(block);
        block = null;
        section = sec[1]!.startsWith("error") ? "error" : sec[1]!.startsWith("failure") ? "failure" : "other";
        return true;
      }
      if (ISSUES.test(text)) {
        flush(block);
        block = null;
        section = "other";
        return true;
      }
      const c = COUNTS.exec(text);
      const ok = c ? null : OK.exec(text);
      if (c || ok || text === "FAILURES!" || text === "ERRORS!") {
        flush(block);
        block = null;
        flush(testdoxBlock);
        testdoxBlock = null;
        section = null;
        if (c) summarize(c);
        else if (ok) sink.summary({ passed: Number(ok[1]), failed: 0 });
        return true;
      }
      // After the banner, a list whose heading the paste left out (`1) Ns\ClassTest::testX` under the progress dots):
      // its first entry counts once its block reaches a frame or PHPUnit's assertion wording, as a list pasted
      // without the banner (a test's own output printing `1) Foo::testBar` is not one). Read as a pasted list.
      if (section === null && block === null) {
        if (candidate !== null) {
          candidate.buf.push(text, lineNo);
          if (FRAME.test(text.trim()) || /^Failed asserting that .+\.$/.test(text)) {
            section = "pasted";
            block = candidate;
            candidate = null;
            return true;
          }
          if (candidate.buf.lines.length > 60 || text.startsWith("There ")) candidate = null;
        } else if (text.startsWith("1) ")) {
          const id = entryId(text);
          if (id !== null) {
            candidate = { id, kind: "failure", buf: new BlockBuffer() };
            candidate.buf.push(text, lineNo);
            return true;
          }
        }
      }
      if (section) {
        const id = text.charCodeAt(0) >= 48 && text.charCodeAt(0) <= 57 ? entryId(text) : null;
        if (id !== null) {
          flush(block);
          block = null;
          if (section === "other") return true;
          block = { id, kind: section === "pasted" ? "failure" : section, buf: new BlockBuffer() };
          block.buf.push(text, lineNo);
          return true;
        }
        if (block) block.buf.push(text, lineNo);
        return true;
      }
      // --testdox
      const dc = TESTDOX_CLASS.exec(text);
      if (dc && !text.startsWith(" ")) {
        flush(testdoxBlock);
        testdoxBlock = null;
        // testdox drops the `Test` suffix of the class: `Money (Ns\Money)` is Ns\MoneyTest.
        testdoxClass = /Test$/.test(dc[2]!) ? dc[2]! : `${dc[2]!}Test`;
        return true;
      }
      const dt = testdoxClass ? TESTDOX_TEST.exec(text) : null;
      if (dt) {
        flush(testdoxBlock);
        testdoxBlock = null;
        const { method, dataSet } = methodOf(dt[2]!);
        const id = `${testdoxClass}::${method}${dataSet}`;
        if (dt[1] === "✘") {
          testdoxBlock = { id, kind: "failure", buf: new BlockBuffer() };
          testdoxBlock.buf.push(text, lineNo);
        } else sink.test(id, dt[1] === "✔" ? "passed" : "skipped");
        return true;
      }
      if (testdoxBlock) {
        const d = TESTDOX_DETAIL.exec(text);
        if (d) {
          testdoxBlock.buf.push(text, lineNo);
          if (/^[A-Z][\w\\]*(?:Error|Exception): /.test(d[1]!)) testdoxBlock.kind = "error";
          return true;
        }
        flush(testdoxBlock);
        testdoxBlock = null;
      }
      if (text === "Summary of non-successful tests:") {
        testdoxClass = null;
        return true;
      }
      return false;
    },
    end(): void {
      flush(block);
      flush(testdoxBlock);
      block = null;
      testdoxBlock = null;
    },
  };
}

export const phpunitFormat: FormatDefinition = {
  name: "phpunit",
  description: "PHPUnit default and --testdox output",
  create: createPhpunitParser,
};
