/**
 * WebdriverIO 4's closing report (its base reporter's epilogue, printed under the dot and spec reporters): a `=` rule,
 * `Number of specs: N`, mocha's counts (`10 passing (65.20s)`, `2 failing`, `1 pending`), then one numbered entry
 * per failure, `1) <full title>:` at the margin, the error's message, one `running <browser>` line for each browser
 * the test failed in, and the error's stack. Nothing in it carries the worker prefix the spec reporter's own lines
 * have (wdio.ts): the epilogue is read on its own.
 *
 * Entries count only under `Number of specs:` and a `N failing` count after it. The id is the title as the entry
 * prints it (mocha's full title: describes and test joined with spaces; the epilogue has no tree to split it by),
 * without the colon; a test failing in two browsers is one entry counted twice (`2 failing`): one failure.
 */
import {
  BlockBuffer,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  own,
  type ParserSink,
} from "../parser.ts";

const SPECS = /^Number of specs: \d+\s*$/;
const COUNT = /^(\d+) (passing|failing|pending|skipped)(?: \(.+\))?\s*$/;
const ENTRY = /^(\d+)\) (\S.*):\s*$/;
const RUNNING = /^running \S/;

export function createWdioEpilogueParser(sink: ParserSink) {
  /** 0: nothing seen; 1: `Number of specs:` seen; 2: its `N failing` count seen, entries follow. */
  let state = 0;
  /** The entry under way; `ran`: its `running` lines seen; `stack`: a line after them (the stack) seen. */
  let block: { title: string; buf: BlockBuffer; ran: boolean; stack: boolean } | null = null;
  const reported = new Set<string>();

  function close(): void {
    const b = block;
    block = null;
    if (!b || reported.has(b.title) || reported.size >= 10_000) return;
    reported.add(b.title);
    const body = b.buf.lines.slice(1);
    const running = body.findIndex((l) => RUNNING.test(l));
    const head = (running >= 0 ? body.slice(0, running) : body).map((l) => l.trim()).filter((l) => l !== "");
    const e = head.length > 0 ? errorLine(head[0]!) : null;
    const message = e ? [e.message, ...head.slice(1)] : head;
    const loc = jsFrameLocation(running >= 0 ? body.slice(running) : body, sink);
    sink.test(b.title, "failed", loc?.file ?? null);
    sink.failure({
      category: "test",
      test: b.title,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
      column: loc?.column ?? null,
      errorType: e?.type ?? null,
      message: message.slice(0, 20).join("\n") || b.title,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text.startsWith("Number of specs: ") && SPECS.test(text)) {
        close();
        state = 1;
        return true;
      }
      if (state === 0) return false;
      const c = block === null ? COUNT.exec(text) : null;
      if (c) {
        const n = Number(c[1]);
        if (c[2] === "passing") sink.summary({ passed: n, failed: 0 });
        else if (c[2] === "failing") {
          sink.summary({ failed: n });
          state = 2;
        } else sink.summary({ skipped: n, failed: 0 });
        return true;
      }
      if (state !== 2) return text.trim() === "";
      const m = ENTRY.exec(text);
      if (m) {
        close();
        block = { title: own(m[2]!.trim()), buf: new BlockBuffer(), ran: false, stack: false };
        block.buf.push(text, lineNo);
        return true;
      }
      if (block) {
        // The entry ends at the blank line after its stack (the stack follows the `running` lines).
        const blank = text.trim() === "";
        if (blank && (block.stack || block.buf.lines.length >= 60)) {
          close();
          return true;
        }
        if (RUNNING.test(text)) block.ran = true;
        else if (block.ran && !blank) block.stack = true;
        block.buf.push(text, lineNo);
        return true;
      }
      return text.trim() === "";
    },
    end(): void {
      close();
    },
  };
}

export const wdioEpilogueFormat: FormatDefinition = {
  name: "wdio-epilogue",
  description: "WebdriverIO 4's closing report (Number of specs: N, mocha's counts, `1) title:` entries)",
  create: createWdioEpilogueParser,
  wakesOn: /^Number of specs: /,
};
