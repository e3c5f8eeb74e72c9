/**
 * A remark the reporter typed after a value (issue 12, hold22 itertools-154570 and slice-ansi-43): in a code
 * comment (`print(list(acc))  # [1, 6, 10]  -- WRONG, 3 is lost`) and after a line of pasted output
 * (`end=1 → "あ" (width=2)  ← expected width ≤ 1`), the value before the remark is what was printed; the remark
 * never was. Lines a program could print itself stay whole. Values and remarks written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../../src/repro/annotations.ts";
import { withoutOutputRemark } from "../../../src/repro/output-remark.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

describe("a remark after a commented value", () => {
  it("keeps the value before a dash or a semicolon and flags it", () => {
    expect(parseAnnotation(" [1, 6, 10]  -- WRONG, 3 is lost")).toMatchObject({
      role: "actual",
      kind: "output",
      value: "[1, 6, 10]",
      flagged: true,
    });
    expect(parseAnnotation(" 3; expected 4")).toMatchObject({ value: "3", flagged: true, instead: "4" });
    expect(parseAnnotation(" {'a': 1} — missing 'b'")).toMatchObject({ value: "{'a': 1}", flagged: true });
  });

  it("must not fire: a remark with no verdict, a value holding a dash", () => {
    expect(parseAnnotation(" [1, 2] -- see below")?.value).not.toBe("[1, 2]");
    expect(parseAnnotation(" '--wrong-flag'")).toMatchObject({ value: "'--wrong-flag'" });
  });

  it("must not fire (rv21 F2): a remark calling the value right, `as expected` being no wanted value", () => {
    for (const line of [
      " 3 -- correct, as expected",
      " 3; as expected",
      " true -- works as expected on Chrome",
    ])
      expect(parseAnnotation(line)?.flagged ?? false).toBe(false);
  });

  it("still flags a remark that calls the value wrong (rv21 F2's intended case)", () => {
    expect(parseAnnotation(" 3 -- WRONG, expected 4")).toMatchObject({
      role: "actual",
      value: "3",
      flagged: true,
    });
    expect(parseAnnotation(" 3; expected: 4")).toMatchObject({ value: "3", flagged: true });
  });

  it("reads a report's comment as the value alone", () => {
    const r = parseReport(
      "It loses a value.\n\n```python\nimport itertools\nprint(list(itertools.accumulate([1, 2, 3])))  # [1, 6]  -- WRONG, 3 is lost\n```\n",
    );
    expect(reportedExpectations(r).actual.output).toEqual(["[1, 6]"]);
  });
});

describe("a remark after a line of pasted output", () => {
  it("drops an arrowed or dashed remark that opens with a verdict", () => {
    expect(withoutOutputRemark('end=1 → "あ" (width=2)  ← expected width ≤ 1')).toEqual({
      line: 'end=1 → "あ" (width=2)',
      remark: true,
    });
    expect(withoutOutputRemark("total: 7 <-- wrong").line).toBe("total: 7");
    expect(withoutOutputRemark("[1, 6, 10]  -- WRONG, 3 is lost").line).toBe("[1, 6, 10]");
  });

  it("must not fire: printed arrows and dashes, a remark with no verdict", () => {
    for (const line of ["a -> b", "x -- y", "end=1 → 2", "step 1 <- start", "left <= expectedWidth"])
      expect(withoutOutputRemark(line)).toEqual({ line, remark: false });
  });

  it("the Actual section's lines lose their remarks", () => {
    const r = parseReport(
      'It is too wide.\n\n```js\nconsole.log(cut(\'ab\', 1));\n```\n\n### Actual\n\n```\nend=1 → "ab"  ← expected "a"\nend=2 → "ab"\n```\n',
    );
    expect(reportedExpectations(r).actual.output).toEqual(['end=1 → "ab"', 'end=2 → "ab"']);
  });
});
