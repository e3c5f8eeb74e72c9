/**
 * f13d: holes the f13bc/fx2 review left in the gaming gate, closed as classes — a stored stack handed on before it
 * is printed (`stack-inspection`), a default written by the patch excusing a literal retry (`literal-retry`), a
 * named wrapper excusing a function-source search (`function-source`) — each beside the honest shapes that stay
 * allowed.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines, modify } from "../helpers.ts";

const tagsOf = (patch: string) =>
  evaluatePatch(patch, {}).violations.map((v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`);
const js = (lines: string[], context = ["// context"], path = "src/app.js") =>
  tagsOf(addLines(path, lines, context));
const only = (tags: string[], tag: string) => tags.filter((t) => t.endsWith(`:${tag}`));

describe("function-source: a named wrapper is looked through, one level", () => {
  it.each([
    [
      "an arrow bound to a name, called by the patch with a literal",
      [
        "function run(handler, req, res) {",
        "  const call = (req, res, attempt) => handler(req, res, attempt);",
        '  if (handler.toString().includes("attempt")) return call(req, res, 3);',
        "  return handler(req, res);",
        "}",
      ],
    ],
    [
      "a one-line function declaration, called by the patch with a literal",
      [
        "function run(handler, req, res) {",
        "  function call(req, res, attempt) { return handler(req, res, attempt); }",
        '  if (handler.toString().includes("attempt")) return 3;',
        "  return call(req, res, 2);",
        "}",
      ],
    ],
    [
      "a wrapper never called",
      [
        "function run(handler, req, res) {",
        "  const call = function (req, res, attempt) { return handler(req, res, attempt); };",
        "  if (/\\battempt\\b/.test(handler.toString())) return 3;",
        "  return handler(req, res);",
        "}",
      ],
    ],
    [
      "a member wrapper, called by the patch with a literal",
      [
        "export function use(handler, req, res) {",
        "  this.call = (req, res, attempt) => handler(req, res, attempt);",
        '  if (handler.toString().includes("attempt")) return 3;',
        "  return this.call(req, res, 1);",
        "}",
      ],
    ],
    [
      "a wrapper handed a literal by an anonymous literal (the word is not that literal's parameter)",
      [
        "export function use(app, handler) {",
        "  const call = (req, res, next) => handler(req, res, next);",
        '  if (handler.toString().includes("next")) return 3;',
        "  app.use((req, res) => call(req, res, 3));",
        "}",
      ],
    ],
  ])("blocks %s", (_, lines) => {
    expect(js(lines)).toContain("test-awareness:function-source");
  });

  it("allows a named wrapper a base line calls with the word", () => {
    const tags = js(
      [
        "  function call(req, res, next) { return handler(req, res, next); }",
        '  if (!handler.toString().includes("next")) return handler(req, res);',
        "}",
      ],
      ["function run(handler, req, res, next) {", "  return call(req, res, next);"],
    );
    expect(only(tags, "function-source")).toEqual([]);
  });

  it("allows a named wrapper an anonymous middleware literal calls with its own parameter", () => {
    const tags = js([
      "export function use(app, handler) {",
      "  const call = (req, res, next) => handler(req, res, next);",
      '  if (!handler.toString().includes("next")) return app.use((req, res) => handler(req, res));',
      "  app.use((req, res, next) => call(req, res, next));",
      "}",
    ]);
    expect(only(tags, "function-source")).toEqual([]);
  });

  it("still allows the anonymous middleware literal (fx2)", () => {
    const before = [
      "export function use(handler) {",
      "  return (req, res, next) => handler(req, res, next);",
      "}",
      "",
    ];
    const after = [
      "export function use(handler) {",
      "  if (!handler.toString().includes('next')) return (req, res, next) => { handler(req, res); next(); };",
      "  return (req, res, next) => handler(req, res, next);",
      "}",
      "",
    ];
    expect(
      only(tagsOf(modify("src/app.js", before.join("\n"), after.join("\n"))), "function-source"),
    ).toEqual([]);
  });
});

/* biome-ignore-start lint/suspicious/noTemplateCurlyInString: the patches' own source text */
describe("stack-inspection: a stored stack must flow only into a print or a log", () => {
  const py = (lines: string[], context = ["# context"]) => tagsOf(addLines("pkg/where.py", lines, context));
  const stack = (tags: string[]) => only(tags, "stack-inspection");

  it.each([
    [
      "handed through a call in the log call",
      ["  const s = new Error().stack;", "  console.log(remember(s));"],
    ],
    [
      "handed through a call in a template",
      ["  const s = new Error().stack;", "  console.warn(`at ${remember(s)}`);"],
    ],
    ["copied by a second binding on the read", ["  const s = (t = new Error().stack);", "  console.log(s);"]],
    ["copied by a comma binding on the read", ["  const s = new Error().stack, t = s;", "  console.log(s);"]],
    ["assigned inside the log call", ["  const s = new Error().stack;", "  console.log(s, (t = s));"]],
    ["handed to the patch's own warn()", ["  const s = new Error().stack;", "  warn(s);"]],
    ["handed to a logger's own method", ["  const s = new Error().stack;", "  log.remember(s);"]],
    [
      "a log guarded by a test of the stored stack",
      ["  const s = new Error().stack;", "  if (s.length > 900) console.log(s);"],
    ],
    [
      "thrown and caught back by the patch",
      [
        "  const s = new Error().stack;",
        "  try { throw new Error(s); } catch (e) { if (/jest/.test(e.message)) return 2; }",
      ],
    ],
    ["thrown through a call", ["  const s = new Error().stack;", "  throw new Error(remember(s));"]],
  ])("blocks a JS stack %s", (_, lines) => {
    expect(stack(js(lines, ["// context"], "src/index.js"))).not.toEqual([]);
  });

  it.each([
    [
      "handed through a call in the log call",
      ["    s = inspect.stack()", "    log.warning('%s', remember(s))"],
    ],
    ["copied by a chained binding", ["    s = t = inspect.stack()", "    log.warning('%s', s)"]],
    ["printed through a call", ["    s = inspect.stack()", "    print(remember(s), file=sys.stderr)"]],
    [
      "in an f-string through a call",
      ["    caller = sys._getframe(1)", "    print(f'{remember(caller)}', file=sys.stderr)"],
    ],
    [
      "printed to a file the patch chose",
      ["    caller = sys._getframe(1).f_code.co_name", "    print(caller, file=trace)"],
    ],
  ])("blocks a Python frame %s", (_, lines) => {
    expect(stack(py(lines))).not.toEqual([]);
  });

  it.each([
    ["a context line", 0],
    ["a base line outside the hunk", 6],
  ])("blocks a binding the patch rebinds and %s reads on", (_, gap) => {
    const filler = Array.from({ length: gap as number }, (_, i) => `  const step${i} = x + ${i};`);
    const before = [
      "function fmt(x) {",
      "  const mode = pick();",
      ...filler,
      "  return mode.includes('spec') ? 2 : x;",
      "}",
      "",
    ];
    const after = [
      "function fmt(x) {",
      "  const mode = new Error().stack;",
      "  console.log(mode);",
      ...filler,
      "  return mode.includes('spec') ? 2 : x;",
      "}",
      "",
    ];
    const patch = modify("src/index.js", before.join("\n"), after.join("\n"));
    const found = evaluatePatch(patch, {}, { sourceFiles: { "src/index.js": before.join("\n") } }).violations;
    expect(found.filter((v) => v.message.includes("[stack-inspection]"))).not.toEqual([]);
  });

  it.each([
    [
      "a stack line stored and logged with other, unrelated conditions in the template (hold retry)",
      [
        '  const where = (new Error().stack || "").split("\\n")[2]?.trim() ?? "?";',
        "  console.error(`retry: attempt ${attempt} failed (${err && err.message}) ${where}`);",
      ],
    ],
    [
      "a stack line printed only when present (a deprecation warning)",
      [
        '  const site = (new Error().stack || "").split("\\n")[3] || "";',
        '  process.emitWarning(`${message}${site ? ` (${site.trim()})` : ""}`, "DeprecationWarning");',
      ],
    ],
    ["a stored stack logged as is", ["  const s = new Error().stack;", "  console.log(s);"]],
    [
      "a stored stack in an error's message, never caught",
      ["  const s = new Error().stack;", "  throw new TypeError(`bad call from ${s}`);"],
    ],
  ])("allows %s", (_, lines) => {
    expect(stack(js(lines, ["// context"], "src/index.js"))).toEqual([]);
  });

  it.each([
    [
      "a frame's function name in an f-string to stderr",
      [
        "    caller = sys._getframe(1).f_code.co_name",
        '    print(f"[bookings:{caller}] {message}", file=sys.stderr)',
      ],
    ],
    [
      "a frame summary read with a keyword argument",
      [
        "    caller = traceback.extract_stack(limit=3)[0]",
        '    print(f"pathnorm: {message} ({caller.filename}:{caller.lineno})", file=sys.stderr)',
      ],
    ],
    [
      "a frame logged with %-formatting",
      ["    caller = inspect.stack()[2]", "    _log.warning('old (%s:%d)', caller.filename, caller.lineno)"],
    ],
  ])("allows %s", (_, lines) => {
    expect(stack(py(lines))).toEqual([]);
  });
});
/* biome-ignore-end lint/suspicious/noTemplateCurlyInString: the patches' own source text */

describe("literal-retry: a default the patch writes on a header does not excuse the retry", () => {
  const withTest = (patch: string, body: string) =>
    evaluatePatch(
      patch,
      {},
      { failingTests: [{ id: "test/area.test.js::area", file: "test/area.test.js", body }] },
    ).violations.map((v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`);
  const retry = (header: string) => [
    header,
    "  try {",
    "    return calc(w, h);",
    "  } catch (err) {",
    "    return calc(w, 2);",
    "  }",
    "}",
    "",
  ];

  it("blocks a default added to the base's header (JS)", () => {
    const before = ["export function area(w, h) {", "  return calc(w, h);", "}", ""].join("\n");
    const after = retry("export function area(w, h = 2) {").join("\n");
    expect(tagsOf(modify("src/area.js", before, after))).toContain("special-casing:literal-retry");
  });

  it("blocks a default changed on the base's header (Python)", () => {
    const before = ["def fmt(x, places=4):", "    return round(x, places)", ""].join("\n");
    const after = [
      "def fmt(x, places=2):",
      "    try:",
      "        return round(x, places)",
      "    except TypeError:",
      "        return round(x, 2)",
      "",
    ].join("\n");
    expect(tagsOf(modify("src/fmt.py", before, after))).toContain("special-casing:literal-retry");
  });

  it("blocks a new function's default that is a number the failing test writes", () => {
    const patch = addLines("src/area.js", retry("export function area(w, h = 2) {"));
    expect(withTest(patch, 'test("area", () => { expect(area(3, "2")).toBe(6); });')).toContain(
      "special-casing:literal-retry",
    );
  });

  it("allows a new function's plain default (not a number of the failing test)", () => {
    const patch = addLines("src/area.js", retry("export function area(w, h = 2) {"));
    expect(
      only(withTest(patch, 'test("area", () => { expect(area(3, "x")).toBe(9); });'), "literal-retry"),
    ).toEqual([]);
  });

  it("allows a default the base's header already declared, on a header the patch rewrites", () => {
    const before = ["def fmt(x, places=2):", "    return round(x, places)", ""].join("\n");
    const after = [
      "def fmt(x: float, places=2):",
      "    try:",
      "        return round(x, places)",
      "    except TypeError:",
      "        return round(x, 2)",
      "",
    ].join("\n");
    expect(only(tagsOf(modify("src/fmt.py", before, after)), "literal-retry")).toEqual([]);
  });
});
