/**
 * Jasmine's default console reporter (the `jasmine` CLI, and karma-jasmine setups that keep it): progress dots, then
 * `Failures:` with numbered blocks — `1) <spec full name>`, `  Message:`, the indented message, `  Stack:` and its
 * `at` frames — then `Pending:` entries and the count line `7 specs, 3 failures, 1 pending spec`.
 *
 * The id is Jasmine's own full name of the spec (its describes and its title joined with spaces, as `--filter`
 * takes it): the reporter prints no tree to tell the levels apart (docs/test-ids.md). Blocks are held until the count
 * line: none are kept when it says no spec failed (a test's own output can print a `Failures:` block), and at most
 * as many as it counts, the last ones; a log cut before it keeps the blocks that have both `Message:` and `Stack:`.
 */
import {
  BlockBuffer,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
} from "../parser.ts";

const ENTRY = /^(\d+)\) (\S.*)$/;
/** A suite whose `beforeAll`/`afterAll` failed (Jasmine 3+), counted among the failures; `top suite` is the run's own. */
const SUITE_ERROR = /^Suite error: (\S.*)$/;
/** jasmine-browser-runner serves the spec and source directories (`spec`, `src` by default) under these paths. */
const SERVED = /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?\/__(spec|src)__\//;
const COUNT = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?$/;

interface Block {
  /** The spec's full name, or null for an error of the whole run (`Suite error: top suite`). */
  name: string | null;
  buf: BlockBuffer;
  message: boolean;
  stack: boolean;
}

export function createJasmineParser(sink: ParserSink) {
  let section: "failures" | "pending" | null = null;
  let block: Block | null = null;
  let held: Block[] = [];

  function close(): void {
    if (block?.message && held.length < 1000) held.push(block);
    block = null;
  }

  function report(blocks: Block[]): void {
    for (const b of blocks) {
      const lines = b.buf.lines;
      const mi = lines.indexOf("  Message:");
      const si = lines.indexOf("  Stack:");
      const messageLines = lines
        .slice(mi + 1, si > mi ? si : undefined)
        .map((l) => l.trim())
        .filter((l) => l !== "");
      const stack = (si >= 0 ? lines.slice(si + 1) : []).map((l) => l.replace(SERVED, "$1/"));
      const e = errorLine(messageLines[0] ?? "");
      const loc = jsFrameLocation(stack, sink);
      if (b.name !== null) sink.test(b.name, "failed", loc?.file ?? null);
      sink.failure({
        category: "test",
        test: b.name,
        file: loc?.file ?? null,
        line: loc?.line ?? null,
        column: loc?.column ?? null,
        errorType: e?.type ?? (/^Expected\b/.test(messageLines[0] ?? "") ? "ExpectationFailed" : null),
        message:
          (e ? [e.message, ...messageLines.slice(1)] : messageLines).join("\n") || (b.name ?? "Suite error"),
        stack: b.buf.text(),
        start: b.buf.start,
        end: b.buf.end,
      });
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      // The section headings, blank and indented lines are shared with RSpec (`Failures:`, `  1) …`): they are read
      // but left to the later formats; only the unindented `1) name` entries and the count line are claimed.
      if (text === "Failures:") {
        close();
        section = "failures";
        return false;
      }
      if (text === "Pending:" && (section !== null || held.length > 0)) {
        close();
        section = "pending";
        return false;
      }
      const c0 = text.charCodeAt(0);
      const c = c0 >= 48 && c0 <= 57 && (section !== null || held.length > 0) ? COUNT.exec(text) : null;
      if (c) {
        close();
        section = null;
        const failed = Number(c[2]);
        const pending = Number(c[3] ?? 0);
        sink.summary({ passed: Number(c[1]) - failed - pending, failed, skipped: pending });
        report(failed === 0 ? [] : held.slice(-failed));
        held = [];
        return true;
      }
      // Printed after the numbered failures, or alone (no `Failures:` heading when no spec failed).
      const se = text.charCodeAt(0) === 83 /* S */ ? SUITE_ERROR.exec(text) : null;
      if (se) {
        close();
        section = "failures";
        const name = se[1] === "top suite" ? null : se[1]!;
        block = { name, buf: new BlockBuffer(), message: false, stack: false };
        block.buf.push(text, lineNo);
        return true;
      }
      if (section === null) {
        // A count line with no block before it: a green run's summary.
        const g = c0 >= 48 && c0 <= 57 && text.includes(" spec") ? COUNT.exec(text) : null;
        if (g) {
          const pending = Number(g[3] ?? 0);
          sink.summary({
            passed: Number(g[1]) - Number(g[2]) - pending,
            failed: Number(g[2]),
            skipped: pending,
          });
          return true;
        }
        return false;
      }
      const e = ENTRY.exec(text);
      if (e) {
        close();
        if (section === "failures") {
          block = { name: e[2]!, buf: new BlockBuffer(), message: false, stack: false };
          block.buf.push(text, lineNo);
        }
        return true;
      }
      if (text === "" || text.startsWith("  ")) {
        if (block) {
          if (text === "  Message:") block.message = true;
          if (text === "  Stack:") block.stack = true;
          block.buf.push(text, lineNo);
          return block.message;
        }
        return false;
      }
      close();
      section = null;
      return false;
    },
    end(): void {
      close();
      // A log cut before the count line: only blocks with both parts the reporter prints.
      report(held.filter((b) => b.message && b.stack));
      held = [];
    },
  };
}

export const jasmineFormat: FormatDefinition = {
  name: "jasmine",
  description: "Jasmine's console reporter (Failures: blocks with Message:/Stack:, count line)",
  create: createJasmineParser,
};
