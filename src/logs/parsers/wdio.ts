/**
 * WebdriverIO's spec reporter (mocha or jasmine under the WDIO testrunner). Every line of a worker's report opens
 * with the worker's capability prefix, `[chrome 120.0 linux #0-0] `; after it come the spec file (`» test/x.e2e.js`),
 * the describe titles and `✓`/`✖`/`-` test lines (a nested describe 4 spaces deeper, its tests 3 spaces deeper
 * than it), the `N passing (…)` / `N failing` / `N skipped` counts, then numbered failures: `1) <describe> <test>`
 * (only the test's own describe), the message, the error line and its `at` frames. The error's message may run
 * over lines the reporter does not prefix; the prefixed error line and frames that follow it repeat it.
 *
 * Ids are mocha's, `describe … > test` (docs/test-ids.md), from the `✖` line under its describes; a failure is
 * matched to its `✖` line by its title (describe and test joined with a space), else by order.
 */
import {
  BlockBuffer,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
} from "../parser.ts";

const LINE = /^\[([^[\]]{1,160}) #(\d+-\d+)\](?: (.*))?$/;
const TEST = /^( *)(✓|✔|✖|✗|×|-) (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/;
const COUNT = /^(\d+) (passing|failing|skipped|pending|retries)(?: \(.+\))?$/;
const FAILURE = /^(\d+)\) (.+)$/;

interface Listed {
  id: string;
  /** The test's own describe and title joined with a space, as the failure list names it. */
  short: string;
  used: boolean;
  file: string | null;
}

interface Worker {
  file: string | null;
  suites: { indent: number; title: string }[];
  failed: Listed[];
  counted: boolean;
  block: { title: string; buf: BlockBuffer; file: string | null } | null;
}

export function createWdioParser(sink: ParserSink) {
  const workers = new Map<string, Worker>();
  /** Lines of a worker prefix not yet known to be a report (a paste without the `Running:` preface). */
  const pending = new Map<string, { rest: string; lineNo: number }[]>();

  function flush(w: Worker): void {
    const b = w.block;
    if (!b) return;
    w.block = null;
    const listed =
      w.failed.find((t) => !t.used && t.short === b.title) ??
      w.failed.find((t) => !t.used && t.id.split(" > ").join(" ").endsWith(b.title)) ??
      w.failed.find((t) => !t.used);
    if (listed) listed.used = true;
    const id = listed?.id ?? b.title;
    const body = b.buf.lines.slice(1);
    let errorType: string | null = null;
    const message: string[] = [];
    for (const l of body) {
      const t = l.trim();
      if (t.startsWith("at ")) break;
      const e: { type: string; message: string } | null = errorType === null ? errorLine(t) : null;
      if (e) {
        errorType = e.type;
        message.length = 0;
        message.push(e.message);
        continue;
      }
      if (t !== "" && message.length < 20) message.push(t);
    }
    const loc = jsFrameLocation(body, sink);
    const file = listed?.file ?? b.file;
    const hook = /^"(before|after)( all| each)?" hook/.test(id.split(" > ").pop() ?? "");
    sink.test(id, hook ? "error" : "failed", file);
    sink.failure({
      category: "test",
      test: id,
      file: loc?.file ?? file,
      line: loc?.line ?? null,
      column: loc?.column ?? null,
      errorType,
      message: message.join("\n").trim() || id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text.charCodeAt(0) !== 91 /* [ */ || !text.includes(" #")) return false;
      const m = LINE.exec(text);
      if (!m) return false;
      const key = `${m[1]} #${m[2]}`;
      let w = workers.get(key);
      const rest = m[3] ?? "";
      if (!w) {
        if (workers.size >= 1000) return false;
        // A worker's report opens with `Running: <browser>` (or the spec file, when the preface is off). A report
        // pasted without that preface counts from its first `✓`/`✖` test line or count line under the same prefix:
        // the lines held before it (its describe titles) are read then.
        if (!/^(?:Running: |» )/.test(rest)) {
          const t = TEST.exec(rest);
          const evidence = (t !== null && t[2] !== "-") || COUNT.test(rest);
          if (!evidence) {
            const held = pending.get(key);
            if (held) {
              if (held.length < 40) held.push({ rest, lineNo });
            } else if (pending.size < 50) pending.set(key, [{ rest, lineNo }]);
            return false;
          }
        }
        w = { file: null, suites: [], failed: [], counted: false, block: null };
        workers.set(key, w);
        const held = pending.get(key) ?? [];
        pending.delete(key);
        for (const h of held) read(w, h.rest, h.lineNo);
      }
      return read(w, rest, lineNo);
    },
    end(): void {
      for (const w of workers.values()) {
        flush(w);
        // `✖` tests the failure list does not show (a report cut before it) are failures without details.
        for (const t of w.failed) {
          if (t.used) continue;
          sink.test(t.id, "failed", t.file);
          sink.failure({ category: "test", test: t.id, file: t.file, message: t.id, start: 0, end: 0 });
        }
      }
    },
  };

  /** One line of a known worker's report, its prefix removed. */
  function read(w: Worker, rest: string, lineNo: number): boolean {
    if (rest.startsWith("» ")) {
      flush(w);
      w.file = sink.path(rest.slice(2).trim());
      w.suites = [];
      w.counted = false;
      return true;
    }
    const c = COUNT.exec(rest);
    if (c && !w.block) {
      w.counted = true;
      const n = Number(c[1]);
      if (c[2] === "passing") sink.summary({ passed: n, failed: 0 });
      else if (c[2] === "failing") sink.summary({ failed: n });
      else if (c[2] !== "retries") sink.summary({ skipped: n, failed: 0 });
      return true;
    }
    if (w.counted) {
      const f = FAILURE.exec(rest);
      if (f) {
        flush(w);
        w.block = { title: f[2]!.trim(), buf: new BlockBuffer(), file: w.file };
        w.block.buf.push(rest, lineNo);
        return true;
      }
      w.block?.buf.push(rest, lineNo);
      return true;
    }
    if (rest.trim() === "") return true;
    const t = TEST.exec(rest);
    if (t) {
      const indent = t[1]!.length;
      const parents = w.suites.filter((s) => s.indent < indent).map((s) => s.title);
      const title = t[3]!;
      const id = [...parents, title].join(" > ");
      const outcome = t[2] === "-" ? "skipped" : t[2] === "✓" || t[2] === "✔" ? "passed" : "failed";
      if (outcome === "failed") {
        if (w.failed.length < 10_000)
          w.failed.push({
            id,
            short: [parents[parents.length - 1], title].filter((x) => x !== undefined).join(" "),
            used: false,
            file: w.file,
          });
      } else sink.test(id, outcome, w.file);
      return true;
    }
    if (/^(?:Running: |Session ID: )/.test(rest)) return true;
    const indent = rest.length - rest.trimStart().length;
    while (w.suites.length > 0 && w.suites[w.suites.length - 1]!.indent >= indent) w.suites.pop();
    if (w.suites.length < 50) w.suites.push({ indent, title: rest.trim() });
    return true;
  }
}

export const wdioFormat: FormatDefinition = {
  name: "wdio",
  description: "WebdriverIO spec reporter (worker-prefixed mocha/jasmine listing, counts and failures)",
  create: createWdioParser,
};
