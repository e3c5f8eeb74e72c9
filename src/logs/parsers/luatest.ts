/**
 * luatest (Tarantool's Lua test framework): a progress line of dots and `F`/`E`, then `Failed tests:` over a dashed
 * rule and one numbered entry per failure, `1) group.test`, with the Lua error under it (`test/jar_test.lua:10:
 * Assertion failed: 5 < 5`, the path shortened to `...` by Lua when long) and `stack traceback:`; the run ends in
 * `Ran N tests in T seconds, P succeeded, F failed`. With `--repeat`/`-R` one test failing in several runs is listed
 * once per failure.
 *
 * An entry counts only under the heading and its rule with a Lua error line right under it; the same test listed again
 * is the same failure. The id is luatest's `group.test` (what `luatest group.test` selects); placed at the error line's
 * file and line (a shortened path from its test directory, src/logs/parsers/lua-path.ts).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";
import { LUA_PLACE, luaPath } from "./lua-path.ts";

const HEAD = /^\s*Failed tests:\s*$/;
const RULE = /^\s*-{5,}\s*$/;
const ENTRY = /^\s*\d+\) ([\w.-]+\.[\w-]+)\s*$/;
const RAN = /^\s*Ran (\d+) tests? in [\d.]+ seconds?, (\d+) succeeded, (\d+) failed\b/;

export function createLuatestParser(sink: ParserSink) {
  /** `head`: the heading read, its rule awaited; `list`: inside the list. */
  let state: "none" | "head" | "list" = "none";
  let entry: { test: string; start: number } | null = null;
  const seen = new Set<string>();

  return {
    line(text: string, lineNo: number): boolean {
      const r = RAN.exec(text);
      if (r) {
        state = "none";
        sink.summary({ passed: Number(r[2]), failed: Number(r[3]) });
        return true;
      }
      // Not claimed: Surefire prints a `Failed tests:` heading of its own (its entries under it, no rule).
      if (HEAD.test(text)) {
        state = "head";
        return false;
      }
      if (state === "head") {
        state = RULE.test(text) ? "list" : "none";
        return state === "list";
      }
      if (state !== "list") return false;
      if (entry) {
        const e = entry;
        entry = null;
        const p = LUA_PLACE.exec(text);
        if (p) {
          if (!seen.has(e.test) && seen.size < 10_000) {
            seen.add(e.test);
            const file = luaPath(p[1]!, sink);
            sink.test(e.test, "failed", file);
            sink.failure({
              category: "test",
              test: e.test,
              file,
              line: file === null ? null : Number(p[2]),
              message: own(text.slice(p[0].length).trim()),
              start: e.start,
              end: lineNo,
            });
          }
          return true;
        }
      }
      const m = ENTRY.exec(text);
      if (m) {
        entry = { test: own(m[1]!), start: lineNo };
        return true;
      }
      if (
        text.trim() === "" ||
        /^\s/.test(text) ||
        text.startsWith("stack traceback:") ||
        LUA_PLACE.test(text)
      )
        return true;
      state = "none";
      return false;
    },
    end(): void {
      entry = null;
    },
  };
}

export const luatestFormat: FormatDefinition = {
  name: "luatest",
  description: "luatest's `Failed tests:` list: numbered `group.test` entries with their Lua error line",
  create: createLuatestParser,
  wakesOn: [/^\s*Failed tests:/, /^\s*Ran \d+ tests? in /],
};
