/**
 * cargo-nextest: `PASS|FAIL|SKIP [ 0.004s] binary-id test::name` status lines, retries
 * (`TRY 1 FAIL …`, `TRY 2 PASS …`, `FLAKY 2/3 …`), and the captured output sections
 * (`--- STDOUT: binary test ---` in older versions, an indented `stdout ---` block in newer ones). The binary id
 * is padded to a column (`FAIL [   0.010s]              openssl pkey::tests::test_ec_gen`); the id is the test's
 * libtest path without it (docs/test-ids.md).
 */
import type { TestOutcome } from "../failure.ts";
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";
import { summarizePanic } from "./rust-panic.ts";

const STATUS =
  /^\s*(?:TRY (\d+) )?(PASS|FAIL|SKIP|FLAKY(?: \d+\/\d+)?|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT|LEAK|ABORT|RETRY(?: \d+\/\d+)?) \[[\s\d.]*s?\s*\] +(\S+) +(\S+)\s*$/;
const OLD_SECTION = /^--- (?:TRY \d+ )?(STDOUT|STDERR):\s+(\S+) (\S+) ---$/;
const NEW_SECTION = /^\s+(stdout|stderr) (?:---|───)$/;
const START = /^\s*(Starting\s+\d+ tests?|Summary\s+\[|Nextest run ID|Cancelling)\b/;

export function createNextestParser(sink: ParserSink) {
  let seen = false;
  /** The test the last status line named: newer nextest prints its output right after it. */
  let lastFailed: { id: string; attempt: number } | null = null;
  let section: { id: string; buf: BlockBuffer } | null = null;
  const outputs = new Map<string, BlockBuffer>();
  const finalFailed = new Map<string, number>();

  function closeSection(): void {
    if (!section) return;
    const existing = outputs.get(section.id);
    if (existing) for (const l of section.buf.lines) existing.push(l, section.buf.end);
    else if (outputs.size < 5_000) outputs.set(section.id, section.buf);
    section = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const s = STATUS.exec(text);
      if (s) {
        closeSection();
        seen = true;
        const id = s[4]!;
        const status = s[2]!;
        const attempt = s[1] ? Number(s[1]) : 0;
        let outcome: TestOutcome;
        if (status === "PASS" || status.startsWith("FLAKY")) outcome = "passed";
        else if (status === "SKIP") outcome = "skipped";
        else if (status.startsWith("RETRY")) return true;
        else outcome = "failed";
        if (status.startsWith("FLAKY")) sink.test(id, "failed");
        sink.test(id, outcome);
        if (outcome === "failed") {
          lastFailed = { id, attempt };
          finalFailed.set(id, lineNo);
          // A fresh attempt replaces the output of the earlier ones.
          if (attempt > 0) outputs.delete(id);
        } else {
          lastFailed = null;
          finalFailed.delete(id);
        }
        return true;
      }
      if (START.test(text) || /^─{5,}$|^-{12}$/.test(text.trim())) {
        closeSection();
        seen = true;
        return true;
      }
      if (!seen) return false;
      const o = OLD_SECTION.exec(text);
      if (o) {
        closeSection();
        section = { id: o[3]!, buf: new BlockBuffer() };
        section.buf.push(text, lineNo);
        return true;
      }
      const n = NEW_SECTION.exec(text);
      if (n && lastFailed) {
        closeSection();
        section = { id: lastFailed.id, buf: new BlockBuffer() };
        section.buf.push(text, lineNo);
        return true;
      }
      if (section) {
        if (text.trim() === "" || /^\s/.test(text) || !/^(PASS|FAIL|SKIP)\b/.test(text.trim())) {
          section.buf.push(text, lineNo);
          return true;
        }
        closeSection();
      }
      return false;
    },
    end(): void {
      closeSection();
      for (const [id, lineNo] of finalFailed) {
        const buf = outputs.get(id);
        const lines = buf?.lines ?? [];
        const p = summarizePanic(lines, sink);
        sink.failure({
          category: "test",
          test: id,
          file: p.file,
          line: p.line,
          column: p.column,
          errorType: "panic",
          message: p.message || "test failed",
          stack: buf ? buf.text() : null,
          start: buf?.start || lineNo,
          end: buf?.end || lineNo,
        });
      }
    },
  };
}

export const nextestFormat: FormatDefinition = {
  name: "nextest",
  description: "cargo-nextest status lines, retries and captured output",
  create: createNextestParser,
};
