/**
 * A report whose title is one comparison of a call with a literal and that holds nothing else to run (issue 12,
 * hold21 "no code" misses): the title is the statement and its claimed value. Written here for other packages.
 */
import { describe, expect, it } from "vitest";
import { readExpectations } from "../../../src/repro/context.ts";
import { parseReport, titleEquality } from "../../../src/repro/parse-report.ts";

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

  it("a title-only report runs the expression and claims the literal", () => {
    const r = parseReport('# new Decimal("0.1").plus("0.2").toString() === "0.30000000000000004"\n');
    expect(r.blocks.map((b) => [b.kind, b.language, b.value])).toEqual([
      ["code", "javascript", 'new Decimal("0.1").plus("0.2").toString() // => "0.30000000000000004"'],
    ]);
    const { expectations } = readExpectations(r);
    expect(expectations.actual.kind).toBe("output");
    expect(expectations.actual.output).toEqual(['"0.30000000000000004"']);
  });
});
