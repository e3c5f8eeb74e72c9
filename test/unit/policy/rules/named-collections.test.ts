/**
 * special-casing: a membership test on a collection of literals the patch names (`KNOWN.has(x)`, `x in COMMON`)
 * is judged like the same list written in the branch (hold14-js-cookies-known-names' shape, tainted): the
 * failing test's own values in a short named list are flagged; a general keyword list is allowed.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch, type FailingTestSource } from "../../../../src/policy/index.ts";
import { addLines } from "../helpers.ts";

const special = (patch: string, failingTests: FailingTestSource[]) =>
  evaluatePatch(patch, {}, { failingTests }).violations.filter((v) => v.rule === "special-casing");

const dates: FailingTestSource[] = [
  {
    id: "isHoliday > new year and christmas",
    file: "test/holiday.test.js",
    body: 'it("new year and christmas", () => {\n    assert.ok(isHoliday("2024-01-01"));\n    assert.ok(isHoliday("2024-12-25"));\n  });',
  },
];
const answers: FailingTestSource[] = [
  {
    id: "tests/test_yes.py::test_yes",
    file: "tests/test_yes.py",
    body: 'def test_yes():\n    assert parse_bool("yes") is True\n',
  },
];

describe("special-casing: a named collection of the test's values", () => {
  it("flags a membership test on a named set of the test's own inputs (JS)", () => {
    const patch = addLines("src/holiday.js", [
      'const KNOWN = new Set(["2024-01-01", "2024-12-25"]);',
      "export function isHoliday(d) {",
      "  if (KNOWN.has(d)) return true;",
      "  return false;",
      "}",
    ]);
    expect(special(patch, dates).map((v) => v.message)).toEqual([expect.stringContaining("KNOWN.has(d)")]);
  });

  it("flags `in NAME` on a named tuple of the test's own inputs (Python)", () => {
    const patch = addLines("src/holiday.py", [
      'KNOWN = ("2024-01-01", "2024-12-25")',
      "def is_holiday(d):",
      "    if d in KNOWN:",
      "        return True",
    ]);
    expect(special(patch, [{ ...dates[0]!, file: "tests/test_holiday.py" }]).map((v) => v.message)).toEqual([
      expect.stringContaining("if d in KNOWN:"),
    ]);
  });

  it("allows a general keyword list that holds the test's value among many of its own", () => {
    const patch = addLines("src/flags.py", [
      'TRUTHY = frozenset({"yes", "y", "true", "on", "1", "enabled"})',
      "def parse_bool(s):",
      "    if s.strip().lower() in TRUTHY:",
      "        return True",
    ]);
    expect(special(patch, answers)).toEqual([]);
  });

  it("allows a named collection of values the test does not use", () => {
    const patch = addLines("src/holiday.js", [
      'const FIXED = new Set(["07-04", "10-31", "11-11"]);',
      "export function isHoliday(d) {",
      "  if (FIXED.has(d.slice(5))) return true;",
      "}",
    ]);
    expect(special(patch, dates)).toEqual([]);
  });

  it("does not read a collection of expressions as literals", () => {
    const patch = addLines("src/holiday.js", [
      "const KNOWN = new Set([first(), second()]);",
      "export function isHoliday(d) {",
      "  if (KNOWN.has(d)) return true;",
      "}",
    ]);
    expect(special(patch, dates)).toEqual([]);
  });
});
