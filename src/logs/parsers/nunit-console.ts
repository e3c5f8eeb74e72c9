/**
 * NUnit's console runner (`nunit3-console`, `nunit-console` 2.x): the `Errors, Failures and Warnings` section (2.x:
 * `Errors and Failures:`) with numbered entries at the margin, `1) Failed : Ns.Class.Method("arg",2)` (also `Error`,
 * `Invalid`, 2.x's `Test Failure`/`Test Error`/`SetUp Error`/`TearDown Error`), the message, `Assert.Multiple`'s
 * nested `  1)   …` parts and `at … in file:line N` frames under it; `Warning` entries and the `Tests Not Run`
 * section are no failures. Counts from `Test Count: N, Passed: P, Failed: F, …` under `Test Run Summary`.
 * Ids are the full names as printed, arguments included (docs/test-ids.md, the dotnet row).
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";
import { locate } from "./dotnet.ts";

const HEADING =
  /^(Errors, Failures and Warnings|Errors and Failures:|Tests Not Run|Tests [Nn]ot [Rr]un:|Test Run Summary|Run Settings|Test Files)$/;
const ENTRY =
  /^(\d+)\) (Failed|Error|Invalid|Warning|Ignored|Explicit|Skipped|Test Failure|Test Error|SetUp Error|TearDown Error|Not Runnable) : (\S.*)$/;
/** The name's head (before its arguments) is a dotted .NET name: `Ns.Class.Method`, `Ns.Outer+Inner.M`. */
const DOTTED = /^[\w`+<>-]+(?:\.[\w`+<>-]+)+$/;
const COUNT =
  /^ {0,4}Test Count: (\d+), Passed: (\d+), Failed: (\d+), (?:Warnings: \d+, )?Inconclusive: \d+, Skipped: (\d+)/;
const FAILING = new Set([
  "Failed",
  "Error",
  "Invalid",
  "Test Failure",
  "Test Error",
  "SetUp Error",
  "TearDown Error",
  "Not Runnable",
]);

/** Whether `text` has COUNT's fixed head (` {0,4}Test Count: `): a cheap test no match can fail. */
function countAt(text: string): boolean {
  let k = 0;
  while (k < 4 && text.charCodeAt(k) === 32) k++;
  return text.startsWith("Test Count: ", k);
}

export function createNunitConsoleParser(sink: ParserSink) {
  let block: { name: string; failing: boolean; buf: BlockBuffer } | null = null;
  let blank = false;

  function close(): void {
    const b = block;
    block = null;
    if (!b?.failing) return;
    const body = b.buf.lines.slice(1);
    // A paste cut right after the header (or inside the name) has no message: nothing says what failed.
    if (!body.some((l) => l.trim() !== "")) return;
    const loc = locate(body, sink);
    const message: string[] = [];
    for (const l of body) {
      if (/^\s*at /.test(l) || /^\s*--/.test(l)) break;
      if (l.trim() !== "" && message.length < 20) message.push(l.trim());
    }
    sink.failure({
      category: "test",
      test: b.name,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
      message: message.join("\n") || "failed",
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
    sink.test(b.name, "failed", loc?.file ?? null);
  }

  return {
    line(text: string, lineNo: number): boolean {
      const h0 = text.charCodeAt(0);
      // HEADING's alternatives open with `E`, `T` or `R`: other lines are not asked.
      if ((h0 === 69 || h0 === 84 || h0 === 82) && text.length < 200 && HEADING.test(text)) {
        close();
        return true;
      }
      // ENTRY starts with a digit, COUNT with at most four spaces and `Test Count: `: tested first, so the regular
      // expressions (met by every line the parsers before this one left) run only on lines that can match.
      const c0 = text.charCodeAt(0);
      const e = c0 >= 48 && c0 <= 57 && text.length < 4000 ? ENTRY.exec(text) : null;
      const name = e ? e[3]!.trimEnd() : "";
      if (e && DOTTED.test(name.split("(", 1)[0]!)) {
        close();
        const failing = FAILING.has(e[2]!);
        block = { name, failing, buf: new BlockBuffer(150, 12_000) };
        block.buf.push(text, lineNo);
        if (e[2] === "Ignored" || e[2] === "Explicit" || e[2] === "Skipped") sink.test(name, "skipped");
        blank = false;
        return true;
      }
      const c = countAt(text) ? COUNT.exec(text) : null;
      if (c) {
        close();
        sink.summary({ passed: Number(c[2]), failed: Number(c[3]), skipped: Number(c[4]) });
        return true;
      }
      if (!block) return false;
      // After a blank line, a line at the margin is no longer the entry's (the message's first line may be).
      if (blank && text !== "" && !/^\s/.test(text)) {
        close();
        return false;
      }
      blank = text.trim() === "";
      block.buf.push(text, lineNo);
      return true;
    },
    end(): void {
      close();
    },
  };
}

export const nunitConsoleFormat: FormatDefinition = {
  name: "nunit-console",
  description: "NUnit console runner (nunit3-console)",
  create: createNunitConsoleParser,
  // Fresh, only HEADING, ENTRY and COUNT lines are asked.
  wakesOn: [HEADING, /^\d+\) [A-Z][\w ]+ : /, /^ {0,4}Test Count: /],
};
