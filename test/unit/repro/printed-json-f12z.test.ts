/**
 * Output compared as printed (sindresorhus/camelcase-keys#22's shape, re-worded): the program's last expression
 * is `JSON.stringify(…, null, 4)`, echoed by the inspector as a string literal; the report's blocks are the JSON
 * written out by hand with trailing commas. Compared value for value, never as looser text.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { lenientJson, printedJsonMatches, printedStrings } from "../../../src/repro/printed-json.ts";
import { run } from "./observed-run.ts";

const printed = (v: unknown) => `${inspect(JSON.stringify(v, null, 4))}\n`;
const got = `{
    "kEy": [
        {
            "0": "x",
            "1": "y"
        },
    ],
}`.split("\n");
const wanted = `{
    "kEy": [
        [
            "x",
            "y",
        ],
    ],
}`.split("\n");
const bad = { kEy: [{ "0": "x", "1": "y" }] };
const good = { kEy: [["x", "y"]] };

describe("a JSON string the inspector printed, against JSON a reporter wrote by hand", () => {
  it("decodes literals joined with + across lines, and a single escaped line", () => {
    expect(printedStrings(printed(bad))).toEqual([JSON.stringify(bad, null, 4)]);
    expect(printedStrings(`'{"a":1,\\n"b":"it\\'s"}'\n`)).toEqual(['{"a":1,\n"b":"it\'s"}']);
  });
  it("reads trailing commas outside strings only", () => {
    expect(lenientJson('{"a": [1, 2,], "b": ",]",}')).toEqual({ a: [1, 2], b: ",]" });
    expect(lenientJson("{a: 1}")).toBeNull();
  });
  it("matches the same value and only it", () => {
    expect(printedJsonMatches(got, printed(bad))).toBe(true);
    expect(printedJsonMatches(wanted, printed(bad))).toBe(false);
    expect(printedJsonMatches(wanted, printed(good))).toBe(true);
  });
  // Must not fire: JSON printed bare (not as a string), a value with one key more, a scalar.
  it("never matches a looser text or a near value", () => {
    expect(printedJsonMatches(got, JSON.stringify(bad, null, 4))).toBe(false);
    expect(printedJsonMatches(got, printed({ ...bad, extra: 1 }))).toBe(false);
    expect(printedJsonMatches(got, printed({ kEy: [{ "0": "x", "1": "y", "2": "z" }] }))).toBe(false);
    expect(printedJsonMatches(["1"], printed(1))).toBe(false);
  });
  it("decides the verdict: the reported value printed reproduces, the expected one does not", () => {
    const reported = {
      kind: "output" as const,
      exceptionType: null,
      exceptionMessage: null,
      output: got,
      source: "the block after 'What I get'",
    };
    const verdictOf = (stdout: string) => foldRuns([matchRun(reported, run({ stdout }), wanted)]).verdict;
    expect(verdictOf(printed(bad))).toBe("REPRODUCED");
    expect(verdictOf(printed(good))).toBe("NOT_REPRODUCED");
  });
});
