/**
 * Pest and Laravel's `php artisan test` (both print through nunomaduro/collision): a tree per test class —
 * `   FAIL  Tests\Feature\CartTest` (or `PASS`/`WARN`) then `  ✓ it adds` / `  ⨯ it totals   0.11s` (`✕`, `×` in older
 * versions) — then one block per failure headed `   FAILED  Tests\Feature\CartTest > it totals` (`ERROR` for an
 * exception) with the message, `at tests/Feature/CartTest.php:12` and the code frame; the count line
 * `  Tests:    1 failed, 3 passed (9 assertions)`.
 *
 * The id is the class and the test's description joined by ` > `, as Pest prints it (docs/test-ids.md).
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const CLASS = /^ {2,3}(FAIL|PASS|WARN) {2}([\w\\]+)$/;
const TREE = /^ {2}(✓|⨯|✕|×|!|-) (.+?)(?: +[\d.]+m?s)?$/;
const FAILED = /^ {2,3}(FAILED|ERROR) {2}([\w\\]+) > (.+)$/;
const AT = /^\s+at ((?:[A-Za-z]:)?[^\s:]+\.php):(\d+)$/;
const COUNTS = /^ {2}Tests: +(.*\d+ (?:failed|passed).*)$/;

export function createPestParser(sink: ParserSink) {
  let seen = false;
  let klass: string | null = null;
  let block: { id: string; kind: string; buf: BlockBuffer } | null = null;
  const reported = new Set<string>();
  const tree: { id: string; lineNo: number }[] = [];

  function close(): void {
    if (!block) return;
    const b = block;
    block = null;
    reported.add(b.id);
    const lines = b.buf.lines.slice(1);
    let file: string | null = null;
    let line: number | null = null;
    const message: string[] = [];
    for (const l of lines) {
      const a = AT.exec(l);
      if (a) {
        file = sink.path(a[1]!);
        line = Number(a[2]);
        break;
      }
      if (l.trim() !== "" && message.length < 20) message.push(l.trim());
    }
    sink.test(b.id, b.kind === "ERROR" ? "error" : "failed", file);
    sink.failure({
      category: "test",
      test: b.id,
      file,
      line,
      message: message.join("\n") || b.id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(raw: string, lineNo: number): boolean {
      if (!(raw.charCodeAt(0) === 32 || (block && raw === ""))) {
        if (block) close();
        klass = null;
        return false;
      }
      // Collision pads its lines to the terminal's width; most lines have no trailing blank and are not copied.
      const text = raw.charCodeAt(raw.length - 1) === 32 ? raw.trimEnd() : raw;
      if (text.includes("  ")) {
        const f = text.includes(" > ") ? FAILED.exec(text) : null;
        if (f) {
          close();
          seen = true;
          block = { id: `${f[2]} > ${f[3]}`, kind: f[1]!, buf: new BlockBuffer() };
          block.buf.push(text, lineNo);
          return true;
        }
        const c = CLASS.exec(text);
        if (c) {
          close();
          seen = true;
          klass = c[2]!;
          return true;
        }
      }
      if (block) {
        if (seen && COUNTS.test(text)) close();
        else {
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (klass !== null) {
        const t = TREE.exec(text);
        if (t) {
          const id = `${klass} > ${t[2]}`;
          if (t[1] === "✓") sink.test(id, "passed");
          else if (t[1] === "-") sink.test(id, "skipped");
          else if (t[1] !== "!" && tree.length < 10_000) tree.push({ id, lineNo });
          return true;
        }
        if (text !== "") klass = null;
      }
      if (seen && text.startsWith("  Tests:")) {
        const n = COUNTS.exec(text);
        if (n) {
          const f = /(\d+) failed/.exec(n[1]!);
          const p = /(\d+) passed/.exec(n[1]!);
          sink.summary({ failed: f ? Number(f[1]) : 0, passed: p ? Number(p[1]) : 0 });
          return true;
        }
      }
      return false;
    },
    end(): void {
      close();
      // A tree's `⨯` test whose `FAILED` block was cut from the log.
      for (const t of tree) {
        if (reported.has(t.id)) continue;
        reported.add(t.id);
        sink.test(t.id, "failed");
        sink.failure({ category: "test", test: t.id, message: t.id, start: t.lineNo, end: t.lineNo });
      }
    },
  };
}

export const pestFormat: FormatDefinition = {
  name: "pest",
  description: "Pest / php artisan test (Collision: FAIL class trees, FAILED Class > test blocks)",
  create: createPestParser,
};
