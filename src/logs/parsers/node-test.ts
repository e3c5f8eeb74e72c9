/**
 * node:test's spec reporter: `▶ suite`, `✔ test (1.2ms)`, `✖ test (1.2ms)` followed by the indented
 * error, `﹣ test # SKIP`, the `ℹ` summary and the `✖ failing tests:` recap (which adds `test at file:line`).
 */
import {
  BlockBuffer,
  popToIndent,
  dedent,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
} from "../parser.ts";

const ENTRY = /^(\s*)(▶|✔|✖|﹣|ℹ|⚠) (.+?)(?: \((\d+(?:\.\d+)?ms)\))?(?: # (SKIP|TODO)\b.*)?$/;
const RECAP = /^✖ failing tests:$/;
const TEST_AT = /^test at (.+?):(\d+):(\d+)$/;

interface Pending {
  id: string;
  name: string;
  indent: number;
  buf: BlockBuffer;
}

export function createNodeTestParser(sink: ParserSink) {
  const suites: { indent: number; name: string }[] = [];
  let pending: Pending | null = null;
  let recap = false;
  let recapAt: { file: string; line: number } | null = null;
  const failures: { p: Pending; at: { file: string; line: number } | null }[] = [];
  let seen = false;
  const openSuites = new Set<string>();

  function closePending(): void {
    if (pending) failures.push({ p: pending, at: null });
    pending = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (RECAP.test(text)) {
        closePending();
        recap = true;
        return true;
      }
      if (recap) {
        const at = TEST_AT.exec(text);
        if (at) {
          recapAt = { file: sink.path(at[1]!), line: Number(at[2]) };
          return true;
        }
        const e = ENTRY.exec(text);
        if (e && e[2] === "✖" && recapAt) {
          const name = e[3]!;
          const match = failures.find((f) => f.p.name === name && f.at === null);
          if (match) match.at = recapAt;
          recapAt = null;
          return true;
        }
        if (text.startsWith(" ") || text.trim() === "") return true;
        recap = false;
      }
      const e = ENTRY.exec(text);
      // Plain ✔/✖ lines without a duration are mocha's, not node:test's; except a `✖ test` nested in an
      // open node:test suite: a test cancelled before it ran (its suite's `before` hook failed, or the suite
      // ended first) has no duration.
      const innermost = suites[suites.length - 1];
      const cancelled =
        e?.[2] === "✖" && e[4] === undefined && innermost !== undefined && e[1]!.length > innermost.indent;
      if (e && (e[4] !== undefined || e[2] === "▶" || e[2] === "ℹ" || e[2] === "﹣" || cancelled)) {
        seen = true;
        const indent = e[1]!.length;
        const mark = e[2]!;
        const name = e[3]!;
        if (pending && indent <= pending.indent) closePending();
        if (mark === "ℹ") {
          const n = /^(pass|fail|skipped|todo|cancelled) (\d+)$/.exec(name);
          if (n) {
            const k = Number(n[2]);
            sink.summary(
              n[1] === "pass"
                ? { passed: k, failed: 0 }
                : n[1] === "fail" || n[1] === "cancelled"
                  ? { failed: k }
                  : { skipped: k, failed: 0 },
            );
          }
          return true;
        }
        if (mark === "⚠") return true;
        popToIndent(suites, indent);
        const id = [...suites.map((s) => s.name), name].join(" > ");
        if (mark === "▶") {
          suites.push({ indent, name });
          openSuites.add(`${indent}\u0000${id}`);
          return true;
        }
        // A suite's own closing line (`✖ calc (7ms)`) repeats the suite name at its indentation.
        if (openSuites.delete(`${indent}\u0000${id}`)) return true;
        if (mark === "✔") sink.test(id, "passed");
        else if (mark === "﹣" || e[5]) sink.test(id, "skipped");
        else {
          pending = { id, name, indent, buf: new BlockBuffer() };
          pending.buf.push(text, lineNo);
        }
        return true;
      }
      if (pending) {
        const indent = text.length - text.trimStart().length;
        if (text.trim() === "" || indent > pending.indent) {
          pending.buf.push(text, lineNo);
          return true;
        }
        closePending();
      }
      return seen && text.trim() === "";
    },
    end(): void {
      closePending();
      for (const { p, at } of failures) {
        // Suites whose subtests failed end with a ✖ line and no error of their own.
        const body = dedent(p.buf.lines.slice(1)).filter((l) => l.trim() !== "");
        if (body.length === 0 && failures.some((f) => f.p.id.startsWith(`${p.id} > `))) continue;
        let errorType: string | null = null;
        const messageLines: string[] = [];
        for (const l of body) {
          if (/^\s*at /.test(l) || /^\s*\{$/.test(l)) break;
          if (!errorType) {
            const e = errorLine(l);
            if (e) {
              errorType = e.type;
              messageLines.push(e.message);
              continue;
            }
          }
          messageLines.push(l);
        }
        const loc = jsFrameLocation(body, sink);
        sink.failure({
          category: "test",
          test: p.id,
          file: loc?.file ?? at?.file ?? null,
          line: loc?.line ?? at?.line ?? null,
          column: loc?.column ?? null,
          errorType,
          message: messageLines.join("\n").trim() || p.name,
          stack: p.buf.text(),
          start: p.buf.start,
          end: p.buf.end,
        });
        sink.test(p.id, "failed", at?.file ?? null);
      }
    },
  };
}

export const nodeTestFormat: FormatDefinition = {
  name: "node-test",
  description: "node:test spec reporter",
  create: createNodeTestParser,
};
