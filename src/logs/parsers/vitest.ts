/**
 * Vitest's default and verbose reporters: ` RUN  v…` header, `✓`/`×`/`↓` test lines (with the
 * file on the line in verbose mode, under a ` ❯ file (N tests)` line otherwise), ` FAIL  file > a > b`
 * detail blocks with their ` ❯ file:line:col` location, failed suites and the summary.
 */
import type { FailureCategory } from "../failure.ts";
import { BlockBuffer, countWords, errorLine, type FormatDefinition, type ParserSink } from "../parser.ts";

const RUN = /^ ?RUN {1,2}v\d+\.\d+/;
// A project's name (`projects`/workspace) comes before the file: `|unit| ` plain, ` unit  ` once colours are stripped.
const PROJECT = "(?:\\|[^|]+\\| | {1,2}\\S+ {1,2})?";
const FILE_LINE = new RegExp(
  `^\\s*(?:❯|✓|×|↓|✗|√) ${PROJECT}(\\S+\\.[cm]?[jt]sx?|\\S+\\.(?:vue|svelte|astro)) \\(\\d+ tests?(?: \\|[^)]*)?\\)`,
);
const TEST_LINE = /^(\s*)(✓|×|↓|✗|√|✔|✖) (.+?)(?: (\d+(?:\.\d+)?m?s))?(?: \[retry x\d+\])?$/;
// ` FAIL  a.test.ts [ a.test.ts ]` marks a suite-level failure: the bracket holds the file's path. A test title
// may end in brackets of its own (an it.each row: "new-name-value => [ 'new-name-value' ]"), kept in the id.
const FAIL_HEADER = new RegExp(
  `^ ?FAIL {1,2}${PROJECT}(\\S+)(?: > (.+?))?(?: \\[ (\\S+\\.(?:[cm]?[jt]sx?|vue|svelte|astro)) \\])?$`,
);
const SEPARATOR = /^⎯{3,}/;
const LOCATION = /^\s*❯ (\S+?):(\d+):(\d+)$/;
const SUMMARY = /^\s*(Test Files|Tests|Start at|Duration|Errors)\s{2}/;
const UNHANDLED = /^⎯+ Unhandled (Errors?|Rejection) ⎯+$/;
/** A test's console output: `stdout | file > test` then what it printed, up to a blank line. */
/**
 * Vitest's pool could not start a worker for some test files (`Error: [vitest-pool]: Failed to start forks worker for
 * test files web/src/a.test.ts`): those files ran no test. Vitest's own tag, read with or without the run's header.
 */
const POOL_START = /^\w*Error: \[vitest-pool\]: Failed to start \w+ worker for test files (\S.*)$/;
const CONSOLE = /^(?:stdout|stderr) \| \S/;

export function createVitestParser(sink: ParserSink) {
  let active = false;
  let file: string | null = null;
  let block: {
    file: string;
    test: string | null;
    buf: BlockBuffer;
    unhandled: boolean;
    loose?: boolean;
    /** Tests whose headers came right above this one with no body: Vitest prints one block for tests failing alike. */
    alike?: { test: string | null; file: string; lineNo: number }[];
  } | null = null;
  /** Activated by a failure header alone (a paste without ` RUN  v…`): ends with the blocks it opened. */
  let loose = false;
  let inUnhandled = false;
  let inConsole = false;
  /** A loose run's block was reported (an error line or a location under its header): the paste is Vitest's. */
  let looseConfirmed = false;

  /**
   * `atEnd`: the log ended inside the block. A loose block cut there, its header whole (a line follows it) and an
   * earlier block of the run confirmed as Vitest's, still names its failed test (the cut took its error away).
   */
  function flush(atEnd = false): void {
    if (!block) return;
    const lines = block.buf.lines.slice(block.unhandled ? 0 : 1);
    let errorType: string | null = null;
    let message = "";
    let loc: { file: string; line: number; column: number } | null = null;
    const messageLines: string[] = [];
    for (const l of lines) {
      const m = LOCATION.exec(l);
      if (m) {
        const f = sink.path(m[1]!);
        if (!f.includes("node_modules/")) {
          loc = { file: f, line: Number(m[2]), column: Number(m[3]) };
          break;
        }
        continue;
      }
      if (!errorType) {
        const e = errorLine(l);
        if (e) {
          errorType = e.type;
          messageLines.push(e.message);
          continue;
        }
      }
      if (errorType && messageLines.length < 30) messageLines.push(l);
    }
    message = messageLines.join("\n").trim();
    let category: FailureCategory = "test";
    if (block.test === null) {
      if (errorType === "SyntaxError") category = "syntax";
      else if (/Failed to (?:load|resolve)|Cannot find (?:module|package)/.test(message)) category = "import";
      else category = "build";
    }
    // A block opened without the run's header counts only with an error line or a location in it.
    const cutUnconfirmed =
      atEnd && looseConfirmed && block.test !== null && block.buf.lines.length >= 2 && !block.unhandled;
    if (!(block.unhandled && !errorType) && !(block.loose && !errorType && !loc && !cutUnconfirmed)) {
      if (block.loose) looseConfirmed = true;
      sink.failure({
        category,
        test: block.test,
        file: loc?.file ?? (block.file || null),
        line: loc?.line ?? null,
        column: loc?.column ?? null,
        errorType,
        message: message || (block.test ?? block.file),
        stack: block.buf.text(),
        start: block.buf.start,
        end: block.buf.end,
      });
      if (block.test) sink.test(block.test, "failed", block.file);
      for (const a of block.alike ?? []) {
        if (!a.test) continue;
        sink.failure({
          category,
          test: a.test,
          file: loc?.file ?? (a.file || null),
          line: loc?.line ?? null,
          column: loc?.column ?? null,
          errorType,
          message: message || a.test,
          stack: block.buf.text(),
          start: a.lineNo,
          end: block.buf.end,
        });
        sink.test(a.test, "failed", a.file);
      }
    }
    block = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const pool = text.includes("[vitest-pool]") ? POOL_START.exec(text) : null;
      if (pool) {
        flush();
        inUnhandled = false;
        const files = pool[1]!.split(/,\s*/).filter((f) => /\.[cm]?[jt]sx?$|\.(?:vue|svelte|astro)$/.test(f));
        for (const f of files.slice(0, 100)) {
          sink.failure({
            category: "build",
            test: null,
            file: sink.path(f),
            errorType: "Error",
            message: `vitest could not start a worker for ${sink.path(f)}`,
            stack: text,
            start: lineNo,
            end: lineNo,
          });
        }
        return files.length > 0;
      }
      if (RUN.test(text)) {
        flush();
        active = true;
        return true;
      }
      // Without the run's header, a failure header naming a test (` FAIL  a.test.ts > group > test`) or a suite
      // (` FAIL  a.test.ts [ a.test.ts ]`) opens a block: jest's ` FAIL  a.test.ts` names neither.
      if (!active && text.includes("FAIL ")) {
        const h0 = FAIL_HEADER.exec(text);
        if (h0 && (h0[2] || h0[3]) && /\.[cm]?[jt]sx?$|\.(?:vue|svelte|astro)$/.test(h0[1]!)) {
          active = true;
          loose = true;
        }
      }
      if (!active) return false;
      if (loose && !block && text.trim() !== "" && !FAIL_HEADER.test(text)) {
        // Past its blocks, a loose run reads nothing more.
        active = false;
        loose = false;
        return false;
      }
      // What a test printed is its output, whatever it looks like (` FAIL  x.test.js > y` included).
      if (!block && CONSOLE.test(text)) {
        inConsole = true;
        return true;
      }
      if (inConsole) {
        if (text.trim() === "") inConsole = false;
        return true;
      }
      const h = FAIL_HEADER.exec(text);
      if (h) {
        // A header right under another one (no body between): both tests share the block that follows.
        const above =
          block && !block.unhandled && block.test !== null && block.buf.lines.length === 1
            ? [...(block.alike ?? []), { test: block.test, file: block.file, lineNo: block.buf.start }]
            : null;
        if (above) block = null;
        else flush();
        inUnhandled = false;
        const f = sink.path(h[1]!);
        block = {
          file: f,
          test: h[2] ? `${f} > ${h[2]}` : null,
          buf: new BlockBuffer(200, 16_000),
          unhandled: false,
          loose,
          ...(above && above.length <= 100 ? { alike: above } : {}),
        };
        block.buf.push(text, lineNo);
        return true;
      }
      if (UNHANDLED.test(text)) {
        flush();
        inUnhandled = true;
        return true;
      }
      if (SEPARATOR.test(text)) {
        flush();
        return true;
      }
      if (SUMMARY.test(text)) {
        flush();
        if (/^\s*Tests\s/.test(text)) sink.summary(countWords(text));
        else if (/^\s*Test Files\s/.test(text)) sink.summary({ failed: 0, error: countWords(text).failed });
        if (/^\s*Duration\s/.test(text)) active = false;
        return true;
      }
      if (block) {
        block.buf.push(text, lineNo);
        return true;
      }
      if (inUnhandled && errorLine(text)) {
        block = { file: "", test: null, buf: new BlockBuffer(200, 16_000), unhandled: true };
        block.buf.push(text, lineNo);
        return true;
      }
      const fl = FILE_LINE.exec(text);
      if (fl) {
        file = sink.path(fl[1]!);
        return true;
      }
      const t = TEST_LINE.exec(text);
      if (t) {
        let name = t[3]!;
        const mark = t[2]!;
        const first = name.split(" > ", 1)[0]!;
        let f = file;
        if (/\.[cm]?[jt]sx?$|\.(?:vue|svelte|astro)$/.test(first)) {
          f = sink.path(first);
          name = name.slice(first.length + 3);
        } else if (t[1]!.length > 3 && !name.includes(" > ")) {
          // Vitest 4's tree under ` ❯ file` indents a test by its describe depth but does not print the
          // describe titles: its id is unknown here (its failure block names it; the summary counts it).
          return true;
        }
        const outcome =
          mark === "↓" ? "skipped" : mark === "✓" || mark === "√" || mark === "✔" ? "passed" : "failed";
        sink.test(f ? `${f} > ${name}` : name, outcome, f);
        return true;
      }
      return true;
    },
    end(): void {
      flush(true);
    },
  };
}

export const vitestFormat: FormatDefinition = {
  name: "vitest",
  description: "Vitest default and verbose reporters",
  create: createVitestParser,
};
