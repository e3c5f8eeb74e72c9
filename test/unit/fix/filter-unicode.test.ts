/**
 * Test ids between parse-log and the rerun filter in another Unicode normal form (f14c item 5; red teams 26 and 27's
 * Left): a name the log carries in NFD and the source in NFC (or the other way) still selects exactly that test, and
 * the filter never widens to another test. The patterns are read back and run against titles as the runners match
 * them (JavaScript regular expressions for jest/vitest/mocha/node --test; Go's RE2 reads these the same way).
 */
import { describe, expect, it } from "vitest";
import { filterCommand } from "../../../src/fix/test-runner/filter.ts";

const NFC = "caf\u00e9 na\u00efve";
const NFD = NFC.normalize("NFD");
const base = (framework: Parameters<typeof filterCommand>[0]["framework"], command: string) => ({
  framework,
  command,
  detectedBy: "test",
});

/** The quoted regular expression after `flag` in a filtered command (single-quoted by shellQuote). */
function patternOf(command: string, flag: string): RegExp {
  const m = new RegExp(`${flag}[ =]'((?:[^']|'\\\\'')*)'`).exec(command);
  if (!m) throw new Error(`no ${flag} in ${command}`);
  return new RegExp(m[1]!.replace(/'\\''/g, "'"));
}

describe("the rerun filter reads a test id in any Unicode normal form", () => {
  it.each([
    ["jest", "-t"],
    ["mocha", "--grep"],
  ] as const)("%s: an NFD id selects the NFC title and only it", (fw, flag) => {
    expect(NFC).not.toBe(NFD);
    const re = patternOf(filterCommand(base(fw, fw), [`a.test.js > suite > ${NFD}`]).command, flag);
    expect(re.test(`suite ${NFC}`)).toBe(true);
    expect(re.test(`suite ${NFD}`)).toBe(true);
    // Never wider: other names, a prefix, a longer name, the name without its accents.
    for (const other of [
      `suite ${NFC} 2`,
      `suite caf`,
      "suite cafe naive",
      `x suite ${NFC}`,
      `suite ${NFC}x`,
    ])
      expect(re.test(other), other).toBe(false);
  });

  it("node --test and go test: each name in either form, anchored", () => {
    const node = patternOf(
      filterCommand(base("node-test", "node --test"), [`${NFC} > inner`]).command,
      "--test-name-pattern",
    );
    expect([node.test(NFD), node.test(NFC), node.test("inner"), node.test(`${NFC} inner`)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    const go = filterCommand(base("go", "go test ./..."), [`example.com/p.TestCaf\u0065\u0301`]).command;
    const re = patternOf(go, "-run");
    expect([
      re.test("TestCaf\u00e9"),
      re.test("TestCafe\u0301"),
      re.test("TestCafe"),
      re.test("TestCaf\u00e9s"),
    ]).toEqual([true, true, false, false]);
  });

  it("pytest and cargo: identifiers in the form the language stores them, parametrize ids and paths kept", () => {
    const py = filterCommand(base("pytest", "python3 -m pytest"), [
      `tests/t\u0065\u0301st_a.py::TestCaf\u0065\u0301::test_na\u0131ve[\u0065\u0301]`,
    ]).command;
    expect(py).toBe(
      `python3 -m pytest 'tests/t\u0065\u0301st_a.py::TestCaf\u00e9::test_na\u0131ve[\u0065\u0301]'`,
    );
    const cargo = filterCommand(base("cargo", "cargo test"), ["tests::caf\u0065\u0301"]).command;
    expect(cargo).toBe("cargo test -- --exact 'tests::caf\u00e9'");
  });

  it("counter-example: an ASCII id gives the same filter as before", () => {
    expect(filterCommand(base("jest", "jest"), ["src/a.test.ts > math > adds (1+1)"]).command).toBe(
      "jest src/a.test.ts -t '^(?:math adds \\(1\\+1\\))$'",
    );
    expect(filterCommand(base("go", "go test"), ["p.TestX"]).command).toContain("-run '^(?:TestX)$'");
  });
});
