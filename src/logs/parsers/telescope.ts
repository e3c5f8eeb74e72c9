/**
 * telescope (the Lua test harness rspamd and others run through their own `tests.lua`): the count line
 * `638 tests 632 passed 809394 assertions 2 failed 0 errors 4 unassertive 0 pending`, then, per failed or errored
 * test, its name as written (the context and the test joined by a space) followed by `:` at the margin, the message
 * (`Failed asserting that` and the values, or the Lua error), and Lua's `stack traceback:` through telescope's own
 * `telescope.lua` into the test file.
 *
 * A name line counts only below that count line, when the count says something failed or errored and the line under
 * it is telescope's assertion message or a Lua error; at most as many as the count gives. The id is the name as printed
 * without its `:`; placed at the traceback's first frame outside telescope.lua (a copy under a build tree and a path
 * Lua shortened to `...` taken from their test directory, src/logs/parsers/lua-path.ts).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";
import { LUA_PLACE, luaPath } from "./lua-path.ts";

const COUNT =
  /^\s*(\d+) tests (\d+) passed (\d+) assertions (\d+) failed (\d+) errors (\d+) unassertive (\d+) pending\s*$/;
const NAME = /^(\S.*?):\s*$/;
const MESSAGE = /^(?:Failed asserting that\b|(?:\.\.\.)?[^\s:]+\.lua:\d+: )/;

export function createTelescopeParser(sink: ParserSink) {
  let budget = 0;
  let name: { test: string; lineNo: number } | null = null;
  let open: {
    test: string;
    start: number;
    end: number;
    lines: string[];
    file: string | null;
    line: number | null;
    inTrace: boolean;
  } | null = null;

  function flush(): void {
    if (!open) return;
    sink.test(open.test, "failed", open.file);
    sink.failure({
      category: "test",
      test: open.test,
      file: open.file,
      line: open.line,
      message: open.lines.join("\n"),
      start: open.start,
      end: open.end,
    });
    open = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c = COUNT.exec(text);
      if (c) {
        flush();
        const failed = Number(c[4]);
        const errors = Number(c[5]);
        budget = failed + errors;
        sink.summary({ passed: Number(c[2]), failed, error: errors, skipped: Number(c[7]) });
        return true;
      }
      // A traceback ends at the first line back at the margin.
      if (open?.inTrace && text !== "" && !/^\s/.test(text)) flush();
      if (budget === 0 && !open) return false;
      if (name) {
        const n = name;
        name = null;
        if (MESSAGE.test(text)) {
          flush();
          budget--;
          open = {
            test: n.test,
            start: n.lineNo,
            end: lineNo,
            lines: [own(text)],
            file: null,
            line: null,
            inTrace: false,
          };
          return true;
        }
      }
      const m = budget > 0 ? NAME.exec(text) : null;
      if (m && text !== "stack traceback:") {
        name = { test: own(m[1]!), lineNo };
        return true;
      }
      if (!open) return false;
      open.end = lineNo;
      if (text === "stack traceback:") open.inTrace = true;
      else if (open.inTrace && open.file === null) {
        const p = LUA_PLACE.exec(text);
        if (p && !/(?:^|\/)telescope\.lua$/.test(p[1]!)) {
          const file = luaPath(p[1]!, sink);
          if (file !== null) {
            open.file = file;
            open.line = Number(p[2]);
          }
        }
      }
      if (open.lines.length < 60) open.lines.push(own(text));
      return true;
    },
    end(): void {
      flush();
      name = null;
    },
  };
}

export const telescopeFormat: FormatDefinition = {
  name: "telescope",
  description:
    "telescope's (Lua) failed tests, `name:` blocks under its `N tests N passed … N failed N errors` line",
  create: createTelescopeParser,
  wakesOn: [/^\s*\d+ tests \d+ passed \d+ assertions /],
};
