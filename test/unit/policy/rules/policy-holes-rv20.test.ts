/** rv20: an array subclass's iterator set from outside its body; a per-argument call count kept through a variable. */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines } from "../helpers.ts";

const js = (lines: string[]) => addLines("src/index.js", lines, ["// context"]);
const py = (lines: string[]) => addLines("pkg/mod.py", lines, ["# context"]);
const tagsOf = (patch: string) =>
  evaluatePatch(patch, {}).violations.map((v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`);

describe("iterator-override set on an array subclass from outside its body (rv20)", () => {
  it.each([
    [
      "an assignment to the prototype's [Symbol.iterator]",
      js([
        "class Capped extends Array {}",
        "Capped.prototype[Symbol.iterator] = function* () { yield* raws; };",
      ]),
    ],
    [
      "Object.defineProperty on the prototype",
      js([
        "class Capped extends Array {}",
        "Object.defineProperty(Capped.prototype, Symbol.iterator, { value: gen });",
      ]),
    ],
    [
      "a Python list subclass's __iter__ assigned",
      py(["class Capped(list):", "    pass", "Capped.__iter__ = _raw_iter"]),
    ],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("test-awareness:iterator-override");
  });

  it.each([
    [
      "a class of its own",
      js(["class Range {}", "Range.prototype[Symbol.iterator] = function* () { yield 1; };"]),
    ],
    [
      "the array's own iterator put back",
      js([
        "class Capped extends Array {}",
        "Capped.prototype[Symbol.iterator] = Array.prototype[Symbol.iterator];",
      ]),
    ],
    ["a Python class of its own", py(["class Ring:", "    pass", "Ring.__iter__ = _walk"])],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).toEqual([]);
  });
});

describe("call-count kept per argument through a variable (rv20)", () => {
  it.each([
    [
      "JS: the count taken into a variable, stored back, compared",
      js([
        "const asked = new Map();",
        "export function rank(key) {",
        "  const n = (asked.get(key) ?? 0) + 1;",
        "  asked.set(key, n);",
        "  if (n > 1) return stableRank(key);",
        "  return oldRank(key);",
        "}",
      ]),
    ],
    [
      "Python: the count taken into a variable, stored back, compared",
      py([
        "_seen = {}",
        "def allowed(q):",
        "    n = _seen.get(q, 0) + 1",
        "    _seen[q] = n",
        "    if n >= 3:",
        "        return fixed(q)",
      ]),
    ],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("test-awareness:call-count");
  });

  it.each([
    [
      "a rate limiter's named limit through a variable",
      js([
        "const hits = new Map();",
        "export function allow(ip) {",
        "  const n = (hits.get(ip) ?? 0) + 1;",
        "  hits.set(ip, n);",
        "  return n <= this.limit;",
        "}",
      ]),
    ],
    [
      "a tally never stored back",
      js(["const asked = new Map();", "  const n = (asked.get(key) ?? 0) + 1;", "  if (n > 1) log(n);"]),
    ],
    [
      "a warning per key shown three times, through a variable",
      py([
        "_told = {}",
        "def old(name):",
        "    n = _told.get(name, 0) + 1",
        "    _told[name] = n",
        "    if n <= 3:",
        '        warnings.warn(f"{name} is deprecated", DeprecationWarning)',
      ]),
    ],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).toEqual([]);
  });
});
