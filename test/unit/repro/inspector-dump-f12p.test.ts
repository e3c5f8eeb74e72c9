/**
 * An array as a browser's developer console prints it is output, not code (issue 12, hold15): the program that
 * printed it is elsewhere in the report. Blocks written for these tests.
 */
import { describe, expect, it } from "vitest";
import { classifyBlock, inspectorDump } from "../../../src/repro/classify-block.ts";
import { dumpScalarsAppear, outputAppears } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";
const dump = [
  "0: {item: {…}, refIndex: 0, score: 1e-16}",
  "1: {item: {…}, refIndex: 1, score: 0.5}",
  "length: 2",
  "[[Prototype]]: Array(0)",
].join("\n");

describe("a developer-console dump", () => {
  it("is output, in a bare fence or a js one", () => {
    expect(inspectorDump(dump)).toBe(true);
    expect(classifyBlock(null, dump).kind).toBe("output");
    expect(classifyBlock("js", dump).kind).toBe("output");
    expect(inspectorDump("(3) [{…}, {…}, {…}]")).toBe(true);
  });

  it("in a report, the program is the other block", () => {
    const r = parseReport(
      [
        "# exact match scores above zero",
        "",
        "The reproduction below gives:",
        f,
        dump,
        f,
        "",
        "Reproduction:",
        f,
        "const list = new Fuse([{ v: 'a' }], { keys: ['v'], includeScore: true });",
        "console.log(list.search('a'));",
        f,
      ].join("\n"),
    );
    expect(r.blocks.map((b) => b.kind)).toEqual(["output", "code"]);
  });

  it("must not fire: code, object literals, and numbered lines without the console's elisions", () => {
    expect(inspectorDump("const a = {0: 'x', 1: 'y'};\nconsole.log(a);")).toBe(false);
    expect(inspectorDump("{0: {item: {…}}}")).toBe(false);
    expect(inspectorDump("0: first\n1: second")).toBe(false);
    expect(inspectorDump("0: {a: 1}\nconst x = Array(3);")).toBe(false);
    expect(classifyBlock("js", "const rows = Array(1).fill({});\nconsole.log(rows);").kind).toBe("code");
  });
});

describe("a developer-console dump compared with what the run printed", () => {
  const reported = [
    "0: {item: {…}, refIndex: 0, matches: Array(1), score: 2.220446049250313e-16}",
    "1: {item: {…}, refIndex: 1, matches: Array(1), score: 0.2}",
  ];
  const printed = [
    "[",
    "  {",
    "    item: { value: 'test1' },",
    "    refIndex: 0,",
    "    matches: [ [Object] ],",
    "    score: 2.220446049250313e-16",
    "  },",
    "  { item: { value: 'test2' }, refIndex: 1, matches: [ [Object] ], score: 0.2 }",
    "]",
  ].join("\n");

  it("matches when every value the dump shows is printed, in order", () => {
    expect(outputAppears(reported, printed)).toBe(true);
  });

  it("must not fire: a value that differs, a prefix of a number, or values out of order", () => {
    expect(outputAppears(reported, printed.replace("2.220446049250313e-16", "0"))).toBe(false);
    expect(outputAppears(reported, printed.replace("score: 0.2 }", "score: 0.25 }"))).toBe(false);
    expect(outputAppears(reported, printed.replace("refIndex: 0,", "refIndex: 2,"))).toBe(false);
    expect(dumpScalarsAppear(["0: {item: {…}}"], printed)).toBe(false);
  });
});
