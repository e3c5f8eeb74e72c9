/**
 * Classes from the hold10 misses (issue 12, fixer f12h): the value a sentence leads into with a verb and a colon
 * standing alone on the next line ("and what comes out is:" then `x`), and two apostrophes typed for a double
 * quote (`This prints ''a:///b", where …`). Every report here is written for these tests; each rule has a case
 * where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const read = (md: string) => reportedExpectations(parseReport(md));
const f = "```";
const code = (md: string, pkg: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation, pkg);
  return p?.files[p.entry] ?? "";
};
const wanted = (src: string) =>
  JSON.parse(/_bindPackage\(_repositoryPackage, (\[.*\])\);/.exec(src)?.[1] ?? "null") as
    | [string, string[], boolean, boolean][]
    | null;

describe("a lead-in verb and colon, the value on the next line", () => {
  it("reads the value under 'what comes out is:' as the actual output", () => {
    const exp = read(
      [
        "# trim keeps a space",
        "",
        "I ran this",
        "lib.trim(' a ');",
        "",
        "and what comes out is:",
        "`' a'`",
        "",
      ].join("\n"),
    );
    expect(exp.actual.kind).toBe("output");
    expect(exp.actual.output).toEqual(["' a'"]);
  });

  it("reads 'it returns:' / 'I get:' the same way, and a label's value on the next line", () => {
    expect(proseClaims("It returns:\n`7`\nbut the docs say otherwise.").actual).toEqual(["7"]);
    expect(proseClaims("Instead I get:\n  'abc'").actual).toEqual(["abc"]);
    expect(proseClaims("It should be:\n`8`").expected).toEqual(["8"]);
  });

  it("does not fire after a noun: the line under 'gives me incorrect output:' is the input the sentence names", () => {
    const c = proseClaims("Stripping tags from this string gives me incorrect output:\n`'<p>a</p>'`");
    expect(c.actual).toEqual([]);
  });

  it("does not fire when the next line is more than one value (a sentence or code)", () => {
    expect(proseClaims("The result is:\n`a` and then `b` follow").actual).toEqual([]);
    expect(proseClaims("It returns:\nfoo(1, 2)").actual).toEqual([]);
  });
});

describe("two apostrophes typed for a double quote", () => {
  it("reads ''x\" as the quoted value x", () => {
    const c = proseClaims(`This prints ''http:///h:1", where "http://h:1" is what it should print.`);
    expect(c.actual).toEqual(["http:///h:1"]);
  });

  it("leaves a doubled apostrophe with no closing double quote, and an empty '' string, alone", () => {
    expect(proseClaims("it's ''emphasis'' here, it prints 3").actual).toEqual(["3"]);
    expect(proseClaims("It returns '' for an empty input.").actual).toEqual([]);
  });
});

describe("the repository's package, named by the report but not imported by its code", () => {
  const md = (body: string) =>
    ["# next() skips a day", "", '"tickr": "~4.1.9"', "", `${f}`, body, f, "", "Actual: 3"].join("\n");

  it("binds the names the snippet leaves free, as when the report never names the package", () => {
    expect(wanted(code(md("const t = new Tickr('0 0 * * sun');\nconsole.log(t.next());"), "tickr"))).toEqual([
      ["Tickr", [], true, true],
    ]);
  });

  it("does not bind when the code imports the package itself", () => {
    const src = code(
      md("const { Tickr } = require('tickr');\nconst t = new Tickr('0 0 * * sun');\nconsole.log(t.next());"),
      "tickr",
    );
    expect(wanted(src)).toBeNull();
  });
});

describe("a template literal's substitutions are code", () => {
  it("binds a function called only inside `${…}`", () => {
    const src = code(
      [`${f}js`, 'for (const t of [\'&a<\']) console.log(`"${t}"`, `"${decodeIt(t)}"`);', f].join("\n"),
      "ents",
    );
    expect(wanted(src)?.map((w) => w[0])).toEqual(["decodeIt"]);
  });

  it("still reads the template's text as a string: a name in it is not free", () => {
    const src = code([`${f}js`, "console.log(`decodeIt(x) gives ${1 + 1}`);", f].join("\n"), "ents");
    expect(wanted(src)).toBeNull();
  });
});

describe("a console fence of printed lines under a lead that names its side", () => {
  const report = (actualBlock: string) =>
    [
      "# wrong decoding",
      "",
      `${f}js`,
      "console.log(dec('&a<'));",
      f,
      "",
      "What I expect it to print:",
      `${f}console`,
      '"<"',
      f,
      "",
      "What it actually prints:",
      `${f}console`,
      actualBlock,
      f,
    ].join("\n");

  it("reads the lines as the actual output and the expected one", () => {
    const exp = read(report('"A"'));
    expect(exp.actual.output).toEqual(['"A"']);
    expect(exp.expectedOutput).toEqual(['"<"']);
  });

  it("does not read a session with a command in it as printed output", () => {
    const exp = read(report('$ node t.js\n"A"'));
    expect(exp.actual.output).not.toEqual(["$ node t.js", '"A"']);
    expect(exp.actual.output).not.toContain("$ node t.js");
  });
});
