/**
 * A report whose title is one comparison of a call with a literal and that holds nothing else to run (issue 12,
 * hold21 "no code" misses): the title is the statement and its claimed value. Written here for other packages.
 */
import { describe, expect, it } from "vitest";
import { readExpectations } from "../../../src/repro/context.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport, titleEquality } from "../../../src/repro/parse-report.ts";
import { run } from "./observed-run.ts";

describe("titleEquality", () => {
  it("must not fire: no call, `!==`, words around the comparison, two comparisons, a non-literal side", () => {
    expect(titleEquality("x === 1")).toBeNull();
    expect(titleEquality("parse('1') !== 1")).toBeNull();
    expect(titleEquality("Why is parse('1') === 2?")).toBeNull();
    expect(titleEquality("parse('1') === 2 is wrong")).toBeNull();
    expect(titleEquality("f(1) === f(2) === true")).toBeNull();
    expect(titleEquality("add(1, 2) === three")).toBeNull();
    expect(titleEquality("compare(a, b) === other(c)")).toBeNull();
  });

  it("reads a call, or a chain on a constructed value, compared with a string, a number or a keyword", () => {
    expect(titleEquality('new Decimal("0.1").plus("0.2").toString() === "0.30000000000000004"')).toEqual({
      expression: 'new Decimal("0.1").plus("0.2").toString()',
      value: '"0.30000000000000004"',
    });
    expect(titleEquality("`isEmpty([0]) == true`")).toEqual({ expression: "isEmpty([0])", value: "true" });
    expect(titleEquality("bytes(1024) === -1")).toEqual({ expression: "bytes(1024)", value: "-1" });
  });
});

describe("the title as the statement to run", () => {
  it("must not fire when the report has code of its own", () => {
    const md = "# bytes(1024) === '1KB'\n\n```js\nconsole.log(bytes(2048));\n```\n\nIt prints `2KB`.\n";
    const r = parseReport(md);
    expect(r.blocks.filter((b) => b.kind === "code").map((b) => b.value)).toEqual([
      "console.log(bytes(2048));",
    ]);
  });

  // Corrected (fx1): this test asserted that a title-only report claims the literal as what the code gives; the
  // title may as well state the expected result, so alone it is a claim without a side.
  it("must not fire: a title-only report runs the expression but claims no side for the literal", () => {
    const r = parseReport('# new Decimal("0.1").plus("0.2").toString() === "0.30000000000000004"\n');
    expect(r.blocks.map((b) => [b.kind, b.language, b.value])).toEqual([
      ["code", "javascript", 'console.log(new Decimal("0.1").plus("0.2").toString())'],
    ]);
    const { expectations } = readExpectations(r);
    expect(expectations.actual.output).not.toContain('"0.30000000000000004"');
    const printed = matchRun(
      expectations.actual,
      run({ stdout: "0.30000000000000004\n" }),
      expectations.expectedOutput,
    );
    expect(foldRuns([printed]).verdict).not.toBe("REPRODUCED");
  });

  it("must not fire: the title states the expected result where the prose states what it returns", () => {
    const r = parseReport("# `isEmpty(new Map([[1, 2]])) === false`\n\nIt returns `true` for me.\n");
    expect(r.blocks.filter((b) => b.kind === "code").map((b) => b.value)).toEqual([
      "isEmpty(new Map([[1, 2]])) // => true",
    ]);
    const { expectations } = readExpectations(r);
    expect(expectations.actual.output).toEqual(["true"]);
    const fixed = matchRun(expectations.actual, run({ stdout: "false\n" }), expectations.expectedOutput);
    expect(foldRuns([fixed]).verdict).not.toBe("REPRODUCED");
    const broken = matchRun(expectations.actual, run({ stdout: "true\n" }), expectations.expectedOutput);
    expect(foldRuns([broken]).verdict).toBe("REPRODUCED");
  });

  it("reads only a value the prose says the code gives, not one it should give", () => {
    const r = parseReport(
      "# `isEmpty(new Map([[1, 2]])) === false`\n\nIt should return `false`, but it returns `true`.\n",
    );
    expect(r.blocks.filter((b) => b.kind === "code").map((b) => b.value)).toEqual([
      "isEmpty(new Map([[1, 2]])) // => true",
    ]);
  });
});
