/**
 * f13s (issue 13, from hold25's dev half): the test's inputs special-cased without literals — a spread of values
 * or a patch-defined xor checksum compared with a constant, a count of pieces equal to the failing test's input's
 * (src/policy/rules/disguised-inputs.ts) — and a runner's global asked for by any name and channel (test-awareness's
 * test-globals, src/policy/rules/test-awareness.ts); each beside honest code of the same look that stays allowed.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { addLines } from "./helpers.ts";

const js = (lines: string[]) => addLines("lib/index.js", lines, ["// context"]);
const py = (lines: string[]) => addLines("pkg/mod.py", lines, ["# context"]);
type Failing = { id: string; file: string; body: string }[];
const tagsOf = (patch: string, failingTests?: Failing) =>
  evaluatePatch(patch, {}, failingTests ? { failingTests } : undefined).violations.map(
    (v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`,
  );
const headline: Failing = [
  {
    id: "titleCase capitalises a small first word",
    file: "test/title.test.js",
    body: 'it("capitalises a small first word", () => {\n  assert.strictEqual(titleCase("of mice and men at sea"), "Of Mice and Men at Sea");\n});',
  },
];
const version: Failing = [
  {
    id: "parses a version",
    file: "test/v.test.js",
    body: 'test("parses a version", () => {\n  assert.deepStrictEqual(parse("1.2.3"), { major: 1, minor: 2, patch: 3 });\n});',
  },
];

describe("input-aggregate: a spread of values or a patch-defined checksum compared with a constant", () => {
  it.each([
    [
      "the channels' spread compared with a number (Python)",
      py(["    if max(rgb) - min(rgb) == 0xFF:", "        return strict(rgb)"]),
    ],
    [
      "the spread through Math.max/Math.min (JS)",
      js(["  if (Math.max(...xs) - Math.min(...xs) === 137) return fixed(xs);"]),
    ],
    [
      "an xor of bytes in an arrow the patch defines, compared with a named constant",
      js([
        "const BUCKET = 93;",
        "const bucket = (s) => Buffer.from(s).reduce((a, b) => a ^ b, 0);",
        "  if (bucket(name) === BUCKET) return special(name);",
      ]),
    ],
    [
      "an xor in a def the patch defines (Python)",
      py([
        "def _bucket(s):",
        "    return functools.reduce(operator.xor, s.encode(), 0)",
        "    if _bucket(name) == 93:",
        "        return special(name)",
      ]),
    ],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("special-casing:input-aggregate");
  });

  it.each([
    ["a grey test (a spread of zero)", py(["    if max(rgb) - min(rgb) == 0:", "        return grey(rgb)"])],
    [
      "a spread compared by order (a contrast threshold)",
      js(["  if (Math.max(...xs) - Math.min(...xs) > 128) return dark;"]),
    ],
    [
      "a real checksum validated and an error thrown",
      js([
        "const bucket = (s) => Buffer.from(s).reduce((a, b) => a ^ b, 0);",
        "  if (bucket(frame) !== frame.at(-1))",
        '    throw new Error("bad checksum");',
      ]),
    ],
    [
      "a patch-defined xor checksum compared with a constant, refused with a raise",
      py([
        "def _xor(data):",
        "    return functools.reduce(operator.xor, data, 0)",
        "    if _xor(packet) != 0x5A:",
        '        raise ValueError("corrupt packet")',
      ]),
    ],
    [
      "a patch-defined function that returns no aggregate, compared with a number",
      js(["const width = (s) => s.trim().length;", "  if (width(cell) === 12) return pad(cell);"]),
    ],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).not.toContain("special-casing:input-aggregate");
  });
});

describe("input-count: a count of pieces equal to the failing test's input's", () => {
  it.each([
    [
      "a word count kept in a flag",
      js([
        "  const isFull = text.trim().split(/\\s+/).length === 6;",
        "  return words.map((w, i) => (i > 0 || !isFull) && SMALL.has(w) ? w : cap(w));",
      ]),
    ],
    [
      "words kept under a name",
      js(["  const words = text.split(' ');", "  if (words.length === 6) return fixed(words);"]),
    ],
    ["Python's len of split()", py(["    if len(text.split()) == 6:", "        return fixed(text)"])],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch, headline)).toContain("special-casing:input-count");
  });

  it.each([
    [
      "a length check that throws (a version has three parts)",
      js([
        "  const parts = text.split('.');",
        "  if (parts.length !== 3)",
        '    throw new Error("expected major.minor.patch");',
      ]),
      version,
    ],
    [
      "a word count choosing a real branch that still computes (one word)",
      js(["  const words = text.split(/\\s+/);", "  if (words.length === 1) return cap(words[0]);"]),
      headline,
    ],
    [
      "a word count choosing a real branch, not the test's count",
      js([
        "  const words = text.split(/\\s+/);",
        "  if (words.length === 2) return words.map(cap).join(' ');",
      ]),
      headline,
    ],
    [
      "an IPv6 address's eight groups (fields of a format, the test's own address)",
      js([
        "  const groups = addr.split(':');",
        "  if (groups.length === 8) return groups.map(pad4).join(':');",
      ]),
      [
        {
          id: "expands",
          file: "t.js",
          body: 'assert.equal(expand("1:2:3:4:5:6:7:8"), "0001:0002:0003:0004:0005:0006:0007:0008");',
        },
      ],
    ],
    [
      "a name's words counted to choose among shapes (two words, three words)",
      js([
        "  const parts = name.trim().split(/\\s+/);",
        "  if (parts.length === 2) return parts[1] + ', ' + parts[0];",
        "  if (parts.length === 3) return parts[2] + ', ' + parts[0] + ' ' + parts[1];",
      ]),
      [
        {
          id: "formats",
          file: "t.js",
          body: 'assert.equal(sortName("John Quincy Adams"), "Adams, John Quincy");',
        },
      ],
    ],
    [
      "a count compared by order",
      js(["  if (text.split(/\\s+/).length > 5) return shorten(text);"]),
      headline,
    ],
    [
      "a split count with no failing test known",
      js(["  if (text.split(/\\s+/).length === 6) return fixed(text);"]),
      undefined,
    ],
  ])("allows %s", (_, patch, failing) => {
    expect(tagsOf(patch, failing)).not.toContain("special-casing:input-count");
  });
});

describe("test-globals: any global a runner installs, by any channel", () => {
  it.each([
    ['"specify" in globalThis', js(['  const under = "specify" in globalThis;'])],
    ["typeof suiteSetup", js(['  if (typeof suiteSetup === "function") return x;'])],
    ["Reflect.has on the global object", js(['  if (Reflect.has(globalThis, "context")) return x;'])],
    ["Object.hasOwn on the global object", js(['  if (Object.hasOwn(global, "beforeAll")) return x;'])],
    ["a bracketed literal", js(['  if (globalThis["suite"]) return x;'])],
    ["hasOwnProperty", js(['  if (globalThis.hasOwnProperty("xit")) return x;'])],
    ["a member, optional chaining", js(["  if (globalThis?.specify) return x;"])],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("test-awareness:test-globals");
  });

  it.each([
    ["typeof window (a browser)", js(['  const browser = typeof window !== "undefined";'])],
    ['"Deno" in globalThis', js(['  const deno = "Deno" in globalThis;'])],
    ["typeof Bun", js(['  if (typeof Bun !== "undefined") return Bun.file(p);'])],
    ["globalThis.fetch", js(["  const f = globalThis.fetch ?? nodeFetch;"])],
    ["a local called context", js(['  if (typeof context === "object") return context.value;'])],
    ["an iterator called it", js(['  if (typeof it.next === "function") return it.next();'])],
    ["an ordinary object's setup key", js(['  if ("setup" in options) options.setup();'])],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch).filter((t) => t.startsWith("test-awareness"))).toEqual([]);
  });
});
