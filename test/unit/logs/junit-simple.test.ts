/**
 * A testcase element that holds nothing is read without fast-xml-parser (src/logs/parsers/junit.ts
 * `readTestcase`): what the parser reads of it — its string attributes and its outcome elements — must be what
 * fast-xml-parser would have given, for every shape of tag, or the element must take fast-xml-parser's path.
 */
import { describe, expect, it } from "vitest";
import { readTestcase } from "../../../src/logs/parsers/junit.ts";

/** A seeded generator (mulberry32): the same elements on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  "name",
  "classname",
  "class",
  "file",
  "line",
  "time",
  "status",
  "result",
  "failure",
  "skipped",
  "error",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "xmlns:a",
  "a.b-c",
  "_x",
  "1bad",
  "#text",
  "na/me",
];
const SPACES = [" ", " ", " ", "  ", "\n", "\t", " \r\n", "\u00a0", ""];
const EQUALS = ["=", "=", "=", " =", "= ", ""];
const VALUES = [
  "ok_1",
  "tests::inner",
  "",
  "a b",
  "a\nb",
  "\t",
  "x\ry",
  "&amp;",
  "&#233;",
  "&nbsp;",
  "a<b",
  "é",
  "\u00a0",
  "0.001",
  "true",
  "it › works",
  "x'y",
  'x"y',
];
const ENDS = [
  "/>",
  "/>",
  " />",
  "\n/>",
  "></testcase>",
  "> </testcase>",
  ">\n        </testcase>",
  "> \r\n</testcase>",
  "><skipped/></testcase>",
  "><failure/></testcase>",
  "><system-out>x</system-out></testcase>",
  "/ >",
  ">",
];

describe("a testcase that holds nothing, read without fast-xml-parser", () => {
  it("reads every generated tag as fast-xml-parser does", () => {
    const next = random(10);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    let simple = 0;
    let other = 0;
    for (let i = 0; i < 6_000; i++) {
      // Half the elements are drawn from the plain choices only (the first few of each list), so that both
      // paths are taken often.
      const plain = next() < 0.5;
      const from = <T>(list: readonly T[], plainOnes: number): T =>
        plain ? list[Math.floor(next() * plainOnes)]! : pick(list);
      let tag = "<testcase";
      const n = Math.floor(next() * 5);
      for (let j = 0; j < n; j++) {
        const quote = next() < 0.8 ? '"' : "'";
        const value = next() < 0.7 ? from(VALUES, 6) : `${from(VALUES, 6)}${from(VALUES, 6)}`;
        tag += `${from(SPACES, 6)}${from(NAMES, 10)}${from(EQUALS, 3)}${quote}${value}${quote}`;
      }
      tag += next() < 0.2 ? from(SPACES, 6) : "";
      tag += from(ENDS, 7);
      const fast = readTestcase(tag);
      const slow = readTestcase(tag, false);
      if (fast.simple) simple++;
      else other++;
      expect({ tag, a: fast.a, present: fast.present }).toEqual({ tag, a: slow.a, present: slow.present });
    }
    // Both paths are exercised: the comparison is not vacuous.
    expect(simple).toBeGreaterThan(1_000);
    expect(other).toBeGreaterThan(1_000);
  });

  it("takes the libtest and JUnit shapes of a large report, and leaves the rest to fast-xml-parser", () => {
    for (const tag of [
      '<testcase classname="tests" name="ok_7" time="0"/>',
      '<testcase name="test_a" classname="tests.test_m.TestX" time="0.01" />',
      "<testcase name='m' classname='com.ex.FooTest' time='0.1'></testcase>",
      '<testcase name="T1" status="run" result="completed" classname="Suite"\n/>',
      '<testcase classname="src/a.test.ts" name="adds" time="0.0012">\n        </testcase>',
    ])
      expect(readTestcase(tag).simple).toBe(true);
    for (const tag of [
      '<testcase name="a &amp; b"/>',
      '<testcase name="a" name="b"/>',
      '<testcase __proto__="x" name="a"/>',
      '<testcase name="a" flag/>',
      '<testcase name = "a"/>',
      "<testcase/>",
      '<testcase name="a"> \r\n</testcase>',
      '<testcase name="a"><skipped/></testcase>',
    ])
      expect(readTestcase(tag).simple).toBe(false);
  });
});
