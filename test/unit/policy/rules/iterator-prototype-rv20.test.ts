/** rv20: an array subclass's iterator set on its prototype (or its class) after the class, not inside it. */
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
