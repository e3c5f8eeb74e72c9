/**
 * Minitest (and Rails' `rails test` reporter on top of it): after the progress dots, one block per failed test —
 * `  1) Failure:` / `  1) Error:` (Rails prints `Failure:` / `Error:` without a number), then the test's name
 * `Class#test_name [file:line]:` (a failure) or `Class#test_name:` (an error, whose exception and backtrace
 * follow), then the message — and the count line `4 runs, 2 assertions, 1 failures, 1 errors, 1 skips`
 * (`… tests, …` before minitest 5). minitest-reporters' progress and spec reporters print
 * `FAIL["test_name", #<Minitest::Reporters::Suite:0x… @name="Class">, 0.01]` (`FAIL["test_name", Class, 0.01]` later).
 *
 * The id is minitest's own name of the test, `Class#method` (`Class#test_0001_does x` for a spec-style test),
 * what `-n`/`--name` takes (docs/test-ids.md). Paths are taken from the repository's `test/` directory when the
 * log shows a machine's absolute path.
 */
import { BlockBuffer, type FormatDefinition, own, type ParserSink, underTopDir } from "../parser.ts";

/** Where a Ruby project keeps its tests: `test/` (Rails, minitest's default) or `tests/` (some gems). */
const TEST_DIRS = ["test", "tests"] as const;

const HEADER = /^ *(?:\d+\) )?(Failure|Error):$/;
/** A numbered entry of minitest's report: a skip (`  1) Skipped:`), or a failure's or error's. */
const NUMBERED = /^ *\d+\) (Skipped|Failure|Error):$/;
// `Class#test [file:line]:`; minitest 4 / test-unit: `test_name(Class) [file:line]:`.
const NAME = /^(\S[^#\s]*(?: [^#\s]+)*#\S.*?|test\w*\(\S+\))(?: \[(.+?):(\d+)\])?:?$/;
/**
 * The name's line cut by a terminal's or a paste's fixed width inside its `[file:line]` (`test_x(Kiln) [/src/kiln/te`
 * then `st/kiln_test.rb:80]:`): the bracket opened and not closed. The next line is joined to it, with no space.
 */
const WRAPPED_NAME = /^(?:\S[^#\s]*(?: [^#\s]+)*#\S.*?|test\w*\(\S+\)) \[[^\]\s]*$/;
/**
 * test-unit's header and name on one line between `=====` rules: `Failure: test_player(TestFakerDota):`, an error's
 * exception after it (`Error: test_x(TestY): NameError: undefined local variable …`).
 */
const ONE_LINE = /^(Failure|Error): (test[^()]*\([A-Z][\w:]*\))(?::(?: (.*))?)?$/;
/** test-unit's fence around a failure block. */
const RULE = /^={20,}$/;
const COUNTS = /^(\d+) (?:runs|tests), \d+ assertions, (\d+) failures, (\d+) errors(?:, (\d+) skips)?$/;
const REPORTER_PROGRESS =
  /^(FAIL|ERROR)\["(.+?)", (?:#<Minitest::Reporters::Suite:\w+ @name="(.+?)">|([A-Z][\w:]*)), [\d.]+\]$/;
const FRAME = /^\s*(?:from )?((?:[A-Za-z]:)?[^\s:]+\.rb):(\d+):in /;

function idOf(name: string): string {
  const old = /^(test\w*)\((\S+)\)$/.exec(name) ?? /^(test[^()]*)\(([A-Z][\w:]*)\)$/.exec(name);
  return old ? `${old[2]}#${old[1]}` : name;
}

export function createMinitestParser(sink: ParserSink) {
  /** A header seen, waiting for the test's name on the next line. */
  let header: { kind: string; lineNo: number; text: string; numbered: boolean } | null = null;
  /**
   * The numbered skip entry under way: `awaiting` until its name's line is read, then the skipped test's name (cut
   * names compared by prefix). Cleared by the next numbered entry and by the count line.
   */
  let skip: { awaiting: boolean; name: string } | null = null;
  /** A header and its name's line cut inside `[file:line]`, waiting for the line that ends it. */
  let wrapped: {
    header: { kind: string; lineNo: number; text: string };
    name: string;
    lineNo: number;
  } | null = null;
  /** The block under way; `head` is the number of its lines before the message (the header and the name). */
  let block: {
    id: string;
    kind: string;
    file: string | null;
    line: number | null;
    buf: BlockBuffer;
    head: number;
    /** test-unit's error printed on the name's line: the message's first line. */
    lead?: string;
    /** An unnumbered block inside a numbered skip's entry, naming the skipped test: part of the skip. */
    skipped?: boolean;
  } | null = null;
  const reported = new Set<string>();

  function close(): void {
    if (!block) return;
    const b = block;
    block = null;
    if (b.skipped || reported.has(b.id)) return;
    reported.add(b.id);
    const lines = b.lead ? [b.lead, ...b.buf.lines.slice(b.head)] : b.buf.lines.slice(b.head);
    let file = b.file;
    let line = b.line;
    if (file === null) {
      for (const l of lines) {
        const f = FRAME.exec(l);
        if (!f || /\/gems\/|^\/usr\//.test(f[1]!)) continue;
        file = underTopDir(sink.path(f[1]!), TEST_DIRS);
        line = Number(f[2]);
        break;
      }
    }
    // test-unit prints a code excerpt (`     32:   def test_x`, `  => 33:     assert …`) under the frame: the message is
    // what comes before the first frame.
    const firstFrame = b.head === 1 ? lines.findIndex((l) => FRAME.test(l)) : -1;
    const message = (firstFrame >= 0 ? lines.slice(0, firstFrame) : lines)
      .filter((l) => l.trim() !== "" && !FRAME.test(l))
      .slice(0, 20);
    const ex = b.kind === "Error" ? /^([A-Z][\w:]*): (.*)$/.exec(message[0] ?? "") : null;
    sink.test(b.id, b.kind === "Error" ? "error" : "failed", file);
    sink.failure({
      category: "test",
      test: b.id,
      file,
      line,
      errorType: ex ? ex[1]! : null,
      message: (ex ? [ex[2]!, ...message.slice(1)] : message).join("\n") || b.id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  function reporterFailure(id: string, kind: string, lineNo: number): void {
    if (reported.has(id)) return;
    reported.add(id);
    sink.test(id, kind === "ERROR" ? "error" : "failed");
    sink.failure({ category: "test", test: id, message: id, start: lineNo, end: lineNo });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (wrapped) {
        const w = wrapped;
        wrapped = null;
        const m = /^[^\s\]]*:\d+\]:?$/.test(text) ? NAME.exec(w.name + text) : null;
        if (m) {
          close();
          block = {
            id: idOf(m[1]!),
            kind: w.header.kind,
            file: m[2] ? underTopDir(sink.path(m[2]), TEST_DIRS) : null,
            line: m[3] ? Number(m[3]) : null,
            buf: new BlockBuffer(),
            head: 3,
          };
          block.buf.push(w.header.text, w.header.lineNo);
          block.buf.push(w.name, w.lineNo);
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (skip?.awaiting) {
        skip = { awaiting: false, name: own(text.replace(/ \[[^\]]*\]:?$|:$/, "")) };
        return true;
      }
      if (header) {
        const h = header;
        header = null;
        if (!text.endsWith("]") && !text.endsWith(":") && WRAPPED_NAME.test(text)) {
          close();
          wrapped = { header: h, name: text, lineNo };
          return true;
        }
        const m = NAME.exec(text);
        if (m) {
          close();
          block = {
            id: idOf(m[1]!),
            kind: h.kind,
            file: m[2] ? underTopDir(sink.path(m[2]), TEST_DIRS) : null,
            line: m[3] ? Number(m[3]) : null,
            buf: new BlockBuffer(),
            head: 2,
          };
          // The skipped test's name in full, or cut by the log's end (no `[file:line]`) to a part of it.
          if (
            skip !== null &&
            !h.numbered &&
            (m[1] === skip.name || (m[2] === undefined && m[1]!.length >= 8 && skip.name.startsWith(m[1]!)))
          )
            block.skipped = true;
          block.buf.push(h.text, h.lineNo);
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (block) {
        // The block ends at its first blank line once it holds a message (a failure's `Expected:`/`Actual:` lines,
        // an error's exception and backtrace), or at the next header / count line, or at test-unit's `=====` rule.
        if (text.trim() === "" && block.buf.lines.length > 2) close();
        else if (RULE.test(text)) {
          close();
          return true;
        } else if (!HEADER.test(text) && !COUNTS.test(text) && !NUMBERED.test(text)) {
          block.buf.push(text, lineNo);
          return true;
        } else close();
      }
      if (text.startsWith("Failure: ") || text.startsWith("Error: ")) {
        const o = ONE_LINE.exec(text);
        if (o) {
          close();
          block = { id: idOf(o[2]!), kind: o[1]!, file: null, line: null, buf: new BlockBuffer(), head: 1 };
          block.buf.push(text, lineNo);
          if (o[3]) block.lead = o[3];
          return true;
        }
      }
      const c = text.charCodeAt(text.length - 1);
      if (c === 58 /* : */ && (text.endsWith("Failure:") || text.endsWith("Error:"))) {
        const h = HEADER.exec(text);
        if (h) {
          const numbered = /\d\) /.test(text);
          if (numbered) skip = null;
          header = { kind: h[1]!, lineNo, text, numbered };
          return true;
        }
        return false;
      }
      if (text.endsWith(") Skipped:") && NUMBERED.test(text)) {
        close();
        skip = { awaiting: true, name: "" };
        return true;
      }
      if (text.includes(" assertions, ")) {
        const n = COUNTS.exec(text);
        if (!n) return false;
        skip = null;
        const failed = Number(n[2]);
        const errors = Number(n[3]);
        const skipped = Number(n[4] ?? 0);
        sink.summary({
          failed,
          error: errors,
          skipped,
          passed: Math.max(0, Number(n[1]) - failed - errors - skipped),
        });
        return true;
      }
      if (text.startsWith("FAIL[") || text.startsWith("ERROR[")) {
        const p = REPORTER_PROGRESS.exec(text);
        if (p) {
          reporterFailure(`${p[3] ?? p[4]}#${p[2]}`, p[1]!, lineNo);
          return true;
        }
      }
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const minitestFormat: FormatDefinition = {
  name: "minitest",
  description:
    "Minitest and rails test (Failure:/Error: blocks naming Class#test, the runs/assertions count line)",
  create: createMinitestParser,
};
