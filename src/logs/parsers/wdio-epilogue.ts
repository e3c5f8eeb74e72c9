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
 *
 * A paste cut below `Number of specs:` starts at mocha's counts, at the margin (mocha's own reporters indent them): its
 * entries count only with WebdriverIO's `running <browser>` line right under the message, and the counts with the
 * first such entry. A paste quoted in markdown (`> ` before each line) is read without the quote marks (prefix.ts).
 */
import {
  BlockBuffer,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  own,
  type ParserSink,
  type SummaryCounts,
} from "../parser.ts";

const SPECS = /^Number of specs: \d+\s*$/;
const COUNT = /^(\d+) (passing|failing|pending|skipped)(?: \(.+\))?\s*$/;
const ENTRY = /^(\d+)\) (\S.*):\s*$/;
const RUNNING = /^running \S/;
/** The directories WebdriverIO's configs keep specs in (`./test/specs/`, `./e2e/`). */
const SPEC_DIRS = ["test", "tests", "spec", "specs", "e2e"];
/** A machine's absolute path from its topmost spec directory (`/Users/me/e2e/test/specs/a.js` → `test/specs/a.js`). */
function underSpecDir(file: string): string {
  if (!/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  const at = SPEC_DIRS.map((d) => file.indexOf(`/${d}/`)).filter((i) => i >= 0);
  return at.length === 0 ? file : file.slice(Math.min(...at) + 1);
}
const PASSING_AT_MARGIN = /^\d+ passing(?: \(.+\))?\s*$/;

export function createWdioEpilogueParser(sink: ParserSink) {
  /** 0: nothing seen; 1: `Number of specs:` seen; 2: its `N failing` count seen, entries follow. */
  let state = 0;
  /** No `Number of specs:` line was read: the counts started the report, which WebdriverIO's marks must confirm. */
  let unsure = false;
  /** In an unsure report, the counts read, given once an entry is confirmed. */
  let held: SummaryCounts[] = [];
  /** The entry under way; `ran`: its `running` lines seen; `stack`: a line after them (the stack) seen. */
  let block: { title: string; buf: BlockBuffer; ran: boolean; stack: boolean } | null = null;
  const reported = new Set<string>();

  function close(): void {
    const b = block;
    block = null;
    if (!b || reported.has(b.title) || reported.size >= 10_000) return;
    const body = b.buf.lines.slice(1);
    const running = body.findIndex((l) => RUNNING.test(l));
    if (unsure) {
      if (running < 0) return;
      unsure = false;
      for (const h of held) sink.summary(h);
      held = [];
    }
    reported.add(b.title);
    const head = (running >= 0 ? body.slice(0, running) : body).map((l) => l.trim()).filter((l) => l !== "");
    const e = head.length > 0 ? errorLine(head[0]!) : null;
    const message = e ? [e.message, ...head.slice(1)] : head;
    const found = jsFrameLocation(running >= 0 ? body.slice(running) : body, sink);
    // A machine's absolute path no checkout prefix removed (the runner installed globally, no project
    // `node_modules/` in the stack to take it from): from the spec directory it runs through.
    const loc = found && { ...found, file: underSpecDir(found.file) };
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
      // An unconfirmed report claims no line: it may be another runner's, which must see them.
      return read(text, lineNo) && !unsure;
    },
    end(): void {
      close();
    },
  };

  function read(text: string, lineNo: number): boolean {
    if (text.startsWith("Number of specs: ") && SPECS.test(text)) {
      close();
      state = 1;
      unsure = false;
      held = [];
      return true;
    }
    if (state === 0) {
      if (!PASSING_AT_MARGIN.test(text)) return false;
      state = 1;
      unsure = true;
      held = [];
    }
    const c = block === null ? COUNT.exec(text) : null;
    if (c) {
      const n = Number(c[1]);
      const counts =
        c[2] === "passing"
          ? { passed: n, failed: 0 }
          : c[2] === "failing"
            ? { failed: n }
            : { skipped: n, failed: 0 };
      if (unsure) held.push(counts);
      else sink.summary(counts);
      if (c[2] === "failing") state = 2;
      return !unsure;
    }
    if (state !== 2) {
      // Unconfirmed, mocha's counts come in one run: another line ends them.
      if (unsure && text.trim() !== "") {
        state = 0;
        unsure = false;
        held = [];
        return false;
      }
      return text.trim() === "";
    }
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
  }
}

export const wdioEpilogueFormat: FormatDefinition = {
  name: "wdio-epilogue",
  description: "WebdriverIO 4's closing report (Number of specs: N, mocha's counts, `1) title:` entries)",
  create: createWdioEpilogueParser,
  wakesOn: [/^Number of specs: /, /^\d+ passing/],
};
