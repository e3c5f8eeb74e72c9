/**
 * `deno test`'s default (pretty) reporter: `running 3 tests from ./kettle_test.ts`, then one line per test, `name ... ok
 * (2ms)`, `name ... FAILED (3ms)`, `name ... ignored (0ms)`; a test with steps opens with `name ...` and its steps follow
 * indented two spaces a level, the test closing `name ... FAILED (due to 1 failed step) (5ms)`. Then ` ERRORS ` with
 * one block per failure, `name ... step => ./kettle_test.ts:5:6` (the test's own line), `error: AssertionError: …`, the
 * code frame and the `at` frames; ` FAILURES ` repeats the headers; the count line is `FAILED | 1 passed | 1 failed |
 * 1 ignored (12ms)` (`ok | …` when green; `(2 steps)` after a count). `./x_test.ts (uncaught error)` is the file's
 * failure, with no test id.
 *
 * The id is `file > test > step …` (docs/test-ids.md), the file from the `running … from ./file` line above the test,
 * without `./`. A test that failed only through its steps (`due to …`) is no failure of its own; its failed steps are.
 * The place is the first `file://` frame of the error's stack in the repository, else the header's location (the
 * test's definition) when it names a file of the repository. The lines are read only after a `running N tests from`
 * line (libtest prints `test x ... FAILED` without a duration, and `running N tests` without a file).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RUNNING = /^running \d+ tests? from (\S.*)$/;
const RESULT =
  /^( *)(\S.*?) \.\.\. (ok|FAILED|ignored|INCOMPLETE)(?: \(due to [^)]{0,80}\))?(?: \(\d[\w.]{0,20}\))?$/;
const OPEN = /^( *)(\S.*) \.\.\.$/;
const COUNT = /^(?:ok|FAILED) \| \d+ passed\b/;
const HEADER = /^(.+) => (\S+):(\d+):(\d+)$/;
const UNCAUGHT = /^(\S+) \(uncaught error\)$/;
const PLACE = /^(.*):(\d+):(\d+)$/;
const ERROR = /^(?:\(in promise\) )?((?:[A-Za-z_$][\w$]*)?(?:Error|Exception))(?:: (.*))?$/;

interface ErrorBlock {
  key: string;
  file: string | null;
  lines: string[];
  where: { file: string; line: number; column: number } | null;
  start: number;
  end: number;
}

export function createDenoParser(sink: ParserSink) {
  let active = false;
  /** The count line was just read: deno's own `error: Test failed` follows it. */
  let counted = false;
  let file = "";
  const stack: { indent: number; name: string }[] = [];
  /** Failed tests and steps by their names joined with ` ... ` (as the ERRORS headers print them). */
  const failed = new Map<string, { id: string; file: string; line: number }>();
  let section: "errors" | "failures" | null = null;
  let block: ErrorBlock | null = null;
  const blocks: ErrorBlock[] = [];

  function closeBlock(): void {
    if (block && blocks.length < 1_000) blocks.push(block);
    block = null;
  }

  function frameIn(lines: readonly string[], known: string | null) {
    for (const l of lines) {
      const i = l.indexOf("file://");
      if (i < 0) continue;
      const m = PLACE.exec(l.slice(i + 7).replace(/\)$/, ""));
      if (!m) continue;
      let p = sink.path(m[1]!.replace(/^\/(?=[A-Za-z]:)/, ""));
      if (known && p !== known && p.endsWith(`/${known}`)) p = known;
      if (p.startsWith("/") || p.includes("node_modules/")) continue;
      return { file: p, line: Number(m[2]), column: Number(m[3]) };
    }
    return null;
  }

  function report(): void {
    closeBlock();
    const byKey = new Map(blocks.map((b) => [b.key, b]));
    for (const [key, t] of failed) {
      const b = byKey.get(key);
      const lines = b?.lines ?? [];
      const at = frameIn(lines, t.file) ?? (b?.where && !b.where.file.startsWith("http") ? b.where : null);
      const err = lines.find((l) => l.startsWith("error: "))?.slice(7) ?? "";
      const e = ERROR.exec(err);
      sink.test(t.id, "failed", t.file);
      sink.failure({
        category: "test",
        test: t.id,
        file: at?.file ?? t.file,
        line: at?.line ?? null,
        column: at?.column ?? null,
        errorType: e ? e[1]! : null,
        message: (e ? (e[2] ?? "") : err) || `${t.id} failed`,
        stack: lines.join("\n") || null,
        start: b?.start ?? t.line,
        end: b?.end ?? t.line,
      });
    }
    for (const b of blocks) {
      if (b.file === null) continue;
      const err = b.lines.find((l) => l.startsWith("error: "))?.slice(7) ?? "uncaught error";
      const at = frameIn(b.lines, b.file);
      sink.failure({
        category: "test",
        file: at?.file ?? b.file,
        line: at?.line ?? null,
        column: at?.column ?? null,
        message: err,
        stack: b.lines.join("\n"),
        start: b.start,
        end: b.end,
      });
    }
    failed.clear();
    blocks.length = 0;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (counted && (text === "" || text === "error: Test failed")) return true;
      counted = false;
      const c0 = text.charCodeAt(0);
      if (c0 === 114 /* r */) {
        const r = RUNNING.exec(text);
        if (r) {
          active = true;
          file = own(sink.path(r[1]!.replace(/^\.\//, "")));
          stack.length = 0;
          section = null;
          return true;
        }
      }
      if (!active) return false;
      if (text === " ERRORS " || text === " FAILURES ") {
        closeBlock();
        section = text === " ERRORS " ? "errors" : "failures";
        return true;
      }
      if ((c0 === 111 /* o */ || c0 === 70) /* F */ && COUNT.exec(text)) {
        const c = countOf(text);
        sink.summary(c);
        if (c.failed === 0) {
          failed.clear();
          blocks.length = 0;
          block = null;
        }
        report();
        section = null;
        active = false;
        counted = true;
        return true;
      }
      if (section === "errors") {
        const h = text.includes(" => ") ? HEADER.exec(text) : null;
        const u = h ? null : UNCAUGHT.exec(text);
        if (h || u) {
          closeBlock();
          const where = h
            ? { file: sink.path(h[2]!.replace(/^\.\//, "")), line: Number(h[3]), column: Number(h[4]) }
            : null;
          block = {
            key: own(h ? h[1]! : ""),
            file: u ? own(sink.path(u[1]!.replace(/^\.\//, ""))) : null,
            lines: [],
            where,
            start: lineNo,
            end: lineNo,
          };
          return true;
        }
        if (block) {
          if (block.lines.length < 80) block.lines.push(own(text));
          block.end = lineNo;
          return true;
        }
        return false;
      }
      if (section === "failures") return text === "" || text.includes(" => ") || UNCAUGHT.test(text);
      const o = text.endsWith(" ...") ? OPEN.exec(text) : null;
      if (o) {
        const indent = o[1]!.length;
        while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
        if (stack.length < 32) stack.push({ indent, name: own(o[2]!) });
        return true;
      }
      const m = text.includes(" ... ") ? RESULT.exec(text) : null;
      if (!m) return false;
      const indent = m[1]!.length;
      const name = m[2]!;
      const top = stack[stack.length - 1];
      // A test's closing line, after its steps.
      if (top && top.indent === indent && top.name === name) stack.pop();
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
      const names = [...stack.map((s) => s.name), name];
      const id = [file, ...names].join(" > ");
      const outcome = m[3]!;
      if (outcome === "ok") sink.test(id, "passed");
      else if (outcome === "ignored") sink.test(id, "skipped");
      else if (!text.includes(" (due to ") && failed.size < 1_000)
        failed.set(own(names.join(" ... ")), { id: own(id), file, line: lineNo });
      return true;
    },
    end(): void {
      report();
    },
  };
}

function countOf(text: string): { passed: number; failed: number; skipped: number } {
  const n = (word: string) => {
    const m = new RegExp(`\\| (\\d+) ${word}\\b`).exec(text);
    return m ? Number(m[1]) : 0;
  };
  return { passed: n("passed"), failed: n("failed"), skipped: n("ignored") };
}

export const denoFormat: FormatDefinition = {
  name: "deno",
  description:
    "deno test (the pretty reporter: name ... FAILED lines with steps, ERRORS blocks, the FAILED | … count line)",
  create: createDenoParser,
};
