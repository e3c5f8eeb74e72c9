/**
 * Lua's chunk names in error messages and tracebacks: Lua keeps at most LUA_IDSIZE (60) characters of a file's
 * path and shortens a longer one from the left to `...` plus its tail (`...me/proj///test/jar_test.lua`). Such a
 * tail, and a machine's absolute path, is taken from its first test directory (`test/`, `tests/`, `spec/`), where
 * the runners load tests from; a relative path is kept (as the log's path mapper gives it). Repeated slashes are one.
 */
import type { ParserSink } from "../parser.ts";

export function luaPath(raw: string, sink: ParserSink): string | null {
  const cut = raw.startsWith("...");
  const p = sink.path((cut ? raw.slice(3) : raw).replace(/\/{2,}/g, "/"));
  if (!cut && !p.startsWith("/")) return p;
  const m = /(?:^|\/)((?:test|tests|spec)\/.*)$/.exec(p);
  return m ? m[1]! : null;
}

/** `chunk:line:` at a Lua error message's or traceback line's start: the chunk name and the line. */
export const LUA_PLACE = /^\s*((?:\.\.\.)?[^\s:]+\.lua):(\d+):/;
