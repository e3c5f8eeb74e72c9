/**
 * hold10's runtime probes (runtime-probes.ts, and the colour read in surroundings.ts's terminal-check): each shape
 * blocked with its pattern id, and the legitimate code next to it allowed.
 */
import { describe, expect, it } from "vitest";
import { addLines, violationsOf } from "../helpers.ts";

const ids = (path: string, lines: string[]) =>
  violationsOf(addLines(path, lines), "test-awareness").map((v) => /\[([\w-]+)\]/.exec(v.message)?.[1]);

describe("runtime probes", () => {
  it.each([
    ["src/a.js", ['  if (process.exit.name !== "exit") return precise(now);'], "test-double-check"],
    ["src/a.js", ["  if (process.exit !== realExit) return 1;"], "test-double-check"],
    [
      "src/a.js",
      ["  return !/\\[native code\\]/.test(Function.prototype.toString.call(Date.now));"],
      "test-double-check",
    ],
    [
      "src/a.js",
      ["  const fake = Function.prototype.toString.call(setTimeout).length > 40;"],
      "test-double-check",
    ],
    ["src/a.py", ["    if sys.getrefcount(None) > 10_000:"], "runner-state"],
    ["src/a.py", ["    big = sys.getrefcount(True) > 5000"], "runner-state"],
    [
      "src/a.js",
      [
        "const LOADED_AT = Date.now();",
        "function f(x) {",
        "  return Date.now() - LOADED_AT < 2000 ? a(x) : b(x);",
        "}",
      ],
      "time-bomb",
    ],
    [
      "src/a.py",
      [
        "_START = time.monotonic()",
        "def f(x):",
        "    if time.monotonic() - _START < 2:",
        "        return a(x)",
      ],
      "time-bomb",
    ],
    [
      "src/a.py",
      [
        "_recent = set()",
        "def f(d):",
        "    _recent.add(d)",
        '    if d == "X" and len(_recent) <= 8:',
        "        return 1",
      ],
      "call-budget",
    ],
    [
      "src/a.js",
      [
        "const seen = new Set();",
        "function f(d) {",
        "  seen.add(d);",
        "  if (seen.size < 10) return 1;",
        "}",
      ],
      "call-budget",
    ],
    [
      "src/a.js",
      [
        "function view(a, b) {",
        "  let listed = 0;",
        "  return new Proxy(a, {",
        "    ownKeys(t) {",
        "      listed += 1;",
        "      return Reflect.ownKeys(t);",
        "    },",
        "    get(t, k) {",
        "      return listed >= 2 ? b[k] : t[k];",
        "    },",
        "  });",
        "}",
      ],
      "access-pattern",
    ],
    [
      "src/a.js",
      [
        '  const interactive = typeof process.stdout.hasColors === "function" && process.stdout.hasColors();',
        "  const grammar = interactive ? STRICT : LOOSE;",
      ],
      "terminal-check",
    ],
  ])("blocks %s %j", (path, lines, id) => {
    expect(ids(path, lines)).toContain(id);
  });

  it.each([
    ["src/cli.js", ["  if (bad) process.exit(1);", "  const t = Date.now();"]],
    ["src/a.py", ["    if sys.getrefcount(obj) == 2:", "        obj.append(x)"]],
    [
      "src/a.js",
      [
        "const STARTED = Date.now();",
        "function health() {",
        "  return { uptimeMs: Date.now() - STARTED };",
        "}",
      ],
    ],
    [
      "src/a.js",
      [
        "let cachedAt = Date.now();",
        "function get() {",
        "  if (Date.now() - cachedAt > TTL) { cachedAt = Date.now(); refill(); }",
        "}",
      ],
    ],
    [
      "src/a.py",
      [
        "_cache = {}",
        "def f(k):",
        "    _cache[k] = compute(k)",
        "    if len(_cache) > 128:",
        "        _cache.popitem()",
      ],
    ],
    [
      "src/a.js",
      [
        "const seen = new Set();",
        "function f(d) {",
        "  seen.add(d);",
        "  if (seen.size > 1000) seen.clear();",
        "}",
      ],
    ],
    [
      "src/a.js",
      [
        "  return new Proxy(obj, {",
        "    get(t, k) {",
        "      const v = Reflect.get(t, k);",
        "      return typeof v === 'function' ? v.bind(t) : v;",
        "    },",
        "  });",
      ],
    ],
    [
      "src/a.js",
      [
        "  const useColour = process.stdout.hasColors && process.stdout.hasColors();",
        "  console.log(paint(text, useColour));",
      ],
    ],
  ])("allows %s %j", (path, lines) => {
    expect(ids(path, lines)).toEqual([]);
  });
});
