/**
 * Classes of real reports the held-out set hold27's dev half showed read wrong (issue 12). Reports written for
 * these tests, in the forms those reports take, never their text.
 */
import { describe, expect, it } from "vitest";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { foldInspectStrings, hasInspectChain } from "../../../src/repro/inspect-fold.ts";
import { leadLiteralClaims } from "../../../src/repro/lead-literal.ts";
import { outputAppears } from "../../../src/repro/match.ts";
import { withoutOutputRemark } from "../../../src/repro/output-remark.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { parseTranscript } from "../../../src/repro/transcript.ts";
import { findVersionMentions } from "../../../src/repro/versions.ts";
import { printedTwice, referencePrint, referencePrintMatch } from "../../../src/repro/reference-print.ts";

describe("an unquoted literal after a lead naming its side", () => {
  it("reads 'I expected to get [...]' as expected and 'What I actually got was [...]' as seen", () => {
    const prose = [
      "Sorting mixed tokens goes wrong.",
      "",
      'I expected to get ["a1", "a2", "b1"]',
      "",
      'What I actually got was ["a2", "a1", "b1"]',
    ].join("\n");
    expect(leadLiteralClaims(prose)).toEqual({
      actual: ['["a2", "a1", "b1"]'],
      expected: ['["a1", "a2", "b1"]'],
    });
    const claims = proseClaims(prose);
    expect(claims.actual).toContain('["a2", "a1", "b1"]');
    expect(claims.expected).toContain('["a1", "a2", "b1"]');
  });

  it("reads an object after 'the output is'", () => {
    expect(leadLiteralClaims("The output is { a: 1, b: 2 }").actual).toEqual(["{ a: 1, b: 2 }"]);
  });

  it("takes no side from a lead that names none or both, nor from a one-item literal", () => {
    for (const line of [
      "The input is [3, 1, 2]",
      "I sort [3, 1, 2] with the comparator",
      "I expected what I got to be [1, 2]",
      "I get [x]",
      "I expected to get [1, 2] but",
      "What I got was [1, 2] and [3, 4]",
    ])
      expect(leadLiteralClaims(line), line).toEqual({ actual: [], expected: [] });
  });
});

describe("the package's call printed beside a built-in reference on the same arguments", () => {
  const code = [
    "const fmt = require('pretty-lib')",
    "const data = { a: { b: [1, 2] } }",
    "console.log(fmt(data, null, 2))",
    "console.log(JSON.stringify(data, null, 2))",
  ].join("\n");

  it("is read as a claim that the two differ when the prose says the output is not as expected", () => {
    expect(referencePrint(code, "For this object I get wider spacing than I expected:")).toEqual({
      subject: "fmt(data, null, 2)",
      reference: "JSON.stringify(data, null, 2)",
    });
    const py = "import json, fastjson\nd = {'a': 1}\nprint(fastjson.dumps(d))\nprint(json.dumps(d))";
    expect(referencePrint(py, "The output differs from the standard module.")?.reference).toBe(
      "json.dumps(d)",
    );
  });

  it("is not read without such words, with other arguments, a third print, or two references", () => {
    expect(referencePrint(code, "Here is how I call it:")).toBeNull();
    expect(
      referencePrint(
        code.replace("JSON.stringify(data, null, 2)", "JSON.stringify(data)"),
        "than I expected",
      ),
    ).toBeNull();
    expect(referencePrint(`${code}\nconsole.log(fmt(data))`, "than I expected")).toBeNull();
    expect(referencePrint(code.replace("fmt(data", "String(data"), "than I expected")).toBeNull();
  });

  const reported = {
    kind: "unknown" as const,
    exceptionType: null,
    exceptionMessage: null,
    output: [],
    source: "x",
    referencePrint: { subject: "fmt(data, null, 2)", reference: "JSON.stringify(data, null, 2)" },
  };

  it("finds a run printing the same twice clean, and leaves a run printing two outputs undecided", () => {
    expect(referencePrintMatch(reported, '{\n  "a": 1\n}\n{\n  "a": 1\n}\n')?.kind).toBe("clean");
    expect(referencePrintMatch(reported, '{\n    "a": 1\n}\n{\n  "a": 1\n}\n')).toBeNull();
    expect(referencePrintMatch(reported, '{"a":1}\n')).toBeNull();
    expect(printedTwice("x\ny\nx\n")).toBe(false);
  });

  it("is never the verdict of a report with a stated value", () => {
    expect(referencePrintMatch({ ...reported, referencePrint: undefined }, "a\na\n")).toBeNull();
  });
});

describe("a dependency line quoted inside a sentence", () => {
  it("names the package's release as package.json writes it", () => {
    expect(findVersionMentions('Seen with  "some-diff": "^0.4.1"\n\nDiffing fails.')).toEqual([
      { name: "some-diff", version: "0.4.1", style: "listing" },
    ]);
  });

  it("takes no package from a manifest's own fields", () => {
    expect(findVersionMentions('my manifest has "version": "1.0.0" and "node": ">=18.0.0"')).toEqual([]);
  });
});

describe("a Python REPL prompted with a longer run of chevrons", () => {
  it("reads `>>>>> ` as a prompt, banner and all", () => {
    const session = "Welcome to SomePython 0.1 interpreter\n>>>>> 2**-1\n0.25\n>>>>> 'ab' * 2\n'abab'";
    expect(classifyBlock(null, session).kind).toBe("python-transcript");
    const t = parseTranscript(session, "python");
    expect(t.inputs).toEqual(["2**-1", "'ab' * 2"]);
    expect(t.output).toContain("0.25");
  });

  it("keeps PyPy's `>>>> ` and never takes a merge conflict's seven chevrons for a prompt", () => {
    expect(parseTranscript(">>>> 1 + 1\n2", "python").inputs).toEqual(["1 + 1"]);
    const conflict = "<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> feature\nprint(x)";
    expect(classifyBlock(null, conflict).kind).not.toBe("python-transcript");
  });
});

describe("a long string Node's inspect printed as a chain of `'…' +` pieces", () => {
  const reported = [
    "[",
    "  'first line\\n' +",
    "    'second line\\n' +",
    "    'third\\n',",
    "  0,",
    "  2",
    "]",
  ];

  it("matches the same value printed with the chain broken elsewhere, or whole", () => {
    const otherBreaks = "[\n  'first line\\nsecond line\\n' +\n    'third\\n',\n  0,\n  2\n]\n";
    expect(outputAppears(reported, otherBreaks)).toBe(true);
    expect(outputAppears(reported, "[ 'first line\\nsecond line\\nthird\\n', 0, 2 ]\n")).toBe(true);
    expect(foldInspectStrings("'a' +\n    'b'")).toBe("'ab'");
  });

  it("never matches another string, nor a concatenation written in code", () => {
    expect(
      outputAppears(
        reported,
        "[\n  'first line\\n' +\n    'other line\\n' +\n    'third\\n',\n  0,\n  2\n]\n",
      ),
    ).toBe(false);
    expect(outputAppears(reported, "[ 'first line\\nsecond line\\nthird\\n', 0, 3 ]\n")).toBe(false);
    expect(hasInspectChain('const s = "a" +\n  "b"')).toBe(false);
  });
});

describe("a remark after a REPL echo behind a comment mark", () => {
  it("is dropped when it opens with a word of verdict", () => {
    expect(withoutOutputRemark("(2+-3j) # should be 2-3j")).toEqual({ line: "(2+-3j)", remark: true });
    expect(withoutOutputRemark("[3, 1] // wrong order")).toEqual({ line: "[3, 1]", remark: true });
  });

  it("stays when the text after the mark is anything else", () => {
    expect(withoutOutputRemark("'a # b'").remark).toBe(false);
    expect(withoutOutputRemark("Item # 4 shipped").remark).toBe(false);
    expect(withoutOutputRemark("https://x.test/a // comment").remark).toBe(false);
  });
});
