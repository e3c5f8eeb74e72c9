/**
 * Classes of real reports the hold25 and hold26 test halves showed read wrong (issue 12, fixer f12i), each with
 * counter-examples that keep their reading. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { annotate, splitComment } from "../../../src/repro/annotations.ts";
import { cutExceptionName, outputAppears } from "../../../src/repro/match.ts";
import { angleAsNode, tickedLines } from "../../../src/repro/node-prompt.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";

describe("a result arrow before a comment: the left side runs, the arrow's right side is the claim", () => {
  it("`call ==> value // expect x`: the arrow's value is what it gave, the comment the value wanted", () => {
    const a = annotate('flatten("ab") ==> {0:"a",1:"b"} // expect "ab"\n', "javascript");
    expect(a.code).toContain('_echo(flatten("ab"));');
    expect(a.checks).toEqual([
      expect.objectContaining({ role: "actual", value: '{0:"a",1:"b"}', code: 'flatten("ab")' }),
      expect.objectContaining({ role: "expected", value: '"ab"' }),
    ]);
  });

  it("a comment that states no expectation leaves the arrow's value alone as the claim", () => {
    const a = annotate("sum(1, 2) ==> 4 // odd\n", "javascript");
    expect(a.checks).toEqual([expect.objectContaining({ role: "actual", value: "4" })]);
  });

  it("real code with `=>` or `>` and a comment keeps its reading: no arrow claim", () => {
    expect(splitComment("const inc = (x) => x + 1 // expect 2", "js")).toEqual({
      code: "const inc = (x) => x + 1 ",
      comment: " expect 2",
    });
    expect(splitComment("if (a >= b) run() // expect true", "js").code).toBe("if (a >= b) run() ");
    // An arrow inside a string prints an arrow; it states nothing.
    expect(splitComment("log('a ==> b') // expect 1", "js").code).toBe("log('a ==> b') ");
  });

  it("a fenced block of such lines parses to a runnable program with its checks", () => {
    const r = parseReport(`# t\n\n${f}\nflatten("ab") ==> {0:"a"} // expect "ab"\n${f}\n`);
    expect(r.blocks[0]!.runValue).toContain('_echo(flatten("ab"));');
    expect(r.blocks[0]!.checks.map((c) => c.role)).toEqual(["actual", "expected"]);
  });
});

describe("a Node REPL session pasted as a quote or as inline code lines is a transcript", () => {
  it("a quote with answers as its continuation lines", () => {
    const md =
      "# t\n\n> var list = new Ranges('10.0.0.0/8');\nundefined\n> list.has('1.2.3.4');\nfalse\n\nwrong.\n";
    const r = parseReport(md);
    expect(r.blocks).toHaveLength(1);
    expect(r.blocks[0]).toMatchObject({ kind: "node-transcript", language: "javascript" });
    expect(r.blocks[0]!.value).toContain("> list.has('1.2.3.4');\nfalse");
  });

  it("one line per inline code span, a closing empty prompt dropped", () => {
    const raw =
      "`> r = new Ranges('10.0.0.0/8')`\n`Ranges { size: 1 }`\n`> r.has('10.0.0.2')`\n`false`\n`>` \n";
    expect(tickedLines(raw)).toBe(
      "> r = new Ranges('10.0.0.0/8')\nRanges { size: 1 }\n> r.has('10.0.0.2')\nfalse\n>",
    );
    const r = parseReport(`# t\n\n${raw}\nI expect true\n`);
    expect(r.blocks[0]).toMatchObject({ kind: "node-transcript" });
    expect(r.blocks[0]!.value.endsWith("false")).toBe(true);
  });

  it("a quoted sentence, a quote of prompts only, a shell redirect or a Python prompt is no Node session", () => {
    expect(angleAsNode("> Note: this fails for me.\nsee below")).toBeNull();
    expect(angleAsNode("> list.has('1.2.3.4')\n> list.size")).toBeNull();
    expect(angleAsNode("> out.txt\ndone")).toBeNull();
    expect(angleAsNode(">>> f(1)\n2")).toBeNull();
    const r = parseReport("# t\n\n> This is what the docs say about it.\nAnd it goes on.\n");
    expect(r.blocks.filter((b) => b.kind === "node-transcript")).toHaveLength(0);
  });

  it("a paragraph with prose beside its inline code is not a ticked session", () => {
    expect(tickedLines("I ran `> r.has('x')`\n`false`")).toBeNull();
    expect(tickedLines("`> r.has('x')`")).toBeNull();
  });
});

describe("a reported error name cut short where the report's text stops", () => {
  it("a strict prefix with no message, its last segment no complete class name, is the observed name cut", () => {
    expect(cutExceptionName("calendar.Illegal", null, "calendar.IllegalMonthError")).toBe(true);
    expect(cutExceptionName("UnicodeDec", null, "UnicodeDecodeError")).toBe(true);
  });

  it("a complete name, a message, another module or a name no prefix of the observed one is a different error", () => {
    expect(cutExceptionName("KeyError", null, "KeyErrorX")).toBe(false);
    expect(cutExceptionName("Timeout", null, "TimeoutError")).toBe(false);
    expect(cutExceptionName("calendar.Illegal", "bad month", "calendar.IllegalMonthError")).toBe(false);
    expect(cutExceptionName("locale.Illegal", null, "calendar.IllegalMonthError")).toBe(false);
    expect(cutExceptionName("Value", null, "TypeError")).toBe(false);
    expect(cutExceptionName("calendar.IllegalMonthError", null, "calendar.IllegalMonthError")).toBe(false);
    expect(cutExceptionName("Ke", null, "KeyError")).toBe(false);
  });
});

describe("a comparison a comment calls a bug holds where it should not", () => {
  it("`f(a) !== f(b) // bug!`: the claim is that the comparison gives true", () => {
    const a = annotate("const a = {}; const b = {};\ndigest(a) !== digest(b) // bug!\n", "javascript");
    expect(a.code).toContain("_echo(digest(a) !== digest(b));");
    expect(a.checks).toEqual([expect.objectContaining({ role: "actual", value: "true", flagged: true })]);
  });

  it("a call flagged so, an assignment, or a comparison whose comment names a value keeps its reading", () => {
    expect(annotate("digest(a) // bug!\n", "javascript").checks).toEqual([]);
    expect(annotate("ok = digest(a) === digest(b) // bug!\n", "javascript").checks).toEqual([]);
    expect(annotate("const same = digest(a) === digest(b) // wrong\n", "javascript").checks).toEqual([]);
    expect(annotate("digest(a) === digest(b) // false\n", "javascript").checks).toEqual([
      expect.objectContaining({ role: "actual", value: "false" }),
    ]);
  });
});

describe("a block comment of a value under a call is the value the call gave", () => {
  it("`f(x);` then `/*` … `*/` holding one bracketed value over several lines", () => {
    const code = "subnet('10.0.0.0/8');\n/*\n{ first: '10.0.0.1',\n  last: '10.255.255.254' }\n*/\n";
    const a = annotate(code, "javascript");
    expect(a.code.split("\n")[0]).toBe("_echo(subnet('10.0.0.0/8'));");
    expect(a.checks).toEqual([
      expect.objectContaining({ role: "actual", value: "{ first: '10.0.0.1', last: '10.255.255.254' }" }),
    ]);
  });

  it("a comment of words, a comment under a declaration or an indented line, or an unclosed one is left alone", () => {
    expect(annotate("subnet('10.0.0.0/8');\n/*\nTODO: check the mask\n*/\n", "javascript").checks).toEqual(
      [],
    );
    expect(annotate("const s = subnet('x');\n/*\n{ a: 1 }\n*/\n", "javascript").checks).toEqual([]);
    expect(annotate("if (x) {\n  subnet('x');\n  /*\n{ a: 1 }\n*/\n}\n", "javascript").checks).toEqual([]);
    expect(annotate("subnet('x');\n/*\n{ a: 1 }\n", "javascript").checks).toEqual([]);
  });
});

describe("a comparison the prose expects to hold: true is wanted, so false is the claim", () => {
  const md = (sentence: string) => `# t\n\n${f}js\nconst a = [1];\nconst b = [a];\n${f}\n\n${sentence}\n`;
  const checksOf = (sentence: string) => parseReport(md(sentence)).blocks.find((b) => b.plain)?.checks ?? [];

  it('"I would expect `f(a) === f(b)`."', () => {
    expect(checksOf("I would expect `digest(a) === digest(b)`.")).toEqual([
      expect.objectContaining({ role: "actual", value: "false" }),
      expect.objectContaining({ role: "expected", value: "true" }),
    ]);
  });

  it("not when the sentence wants it false, states it without an expectation, or the span is no comparison", () => {
    expect(checksOf("I would expect `digest(a) === digest(b)` to be false.")).toEqual([]);
    expect(checksOf("Here `digest(a) === digest(b)` is true.")).toEqual([]);
    expect(checksOf("I would expect `digest(a, b)` to work.")).toEqual([]);
    expect(checksOf("I would expect `const same = digest(a) === digest(b)`.")).toEqual([]);
  });
});

describe("an object printed with a method the reported object does not show is the same value", () => {
  const printed = "{\n  first: '10.0.0.1',\n  size: 0.5,\n  contains: [Function: contains]\n}\n";
  it("every reported field printed alike, a function-valued field more", () => {
    expect(outputAppears(["{ first: '10.0.0.1',", "  size: 0.5 }"], printed)).toBe(true);
  });

  it("a data field more, a changed value, or a report that names functions is still a different value", () => {
    expect(
      outputAppears(
        ["{ first: '10.0.0.1',", "  size: 0.5 }"],
        "{\n  first: '10.0.0.1',\n  size: 0.5,\n  extra: 1\n}\n",
      ),
    ).toBe(false);
    expect(outputAppears(["{ first: '10.0.0.2',", "  size: 0.5 }"], printed)).toBe(false);
    expect(outputAppears(["{ first: '10.0.0.1',", "  size: 0.5, contains: [Function: has] }"], printed)).toBe(
      false,
    );
  });
});

describe("an assignment to a call's attribute is a statement, never an echoed expression", () => {
  it("the last line `type(m).bar = x` stays as written; a call on the last line is still echoed", () => {
    const a = annotate("type(m).bar = x  # => ?\n", "python");
    expect(a.code).not.toContain("_echo(");
    expect(annotate("d[key(1)] += 2  # => ?\n", "python").code).not.toContain("_echo(");
    expect(annotate("f(a=1, b=2)  # => 3\n", "python").code).toContain("_echo(f(a=1, b=2))");
    expect(annotate("x.y(1) == 2  # => True\n", "python").code).toContain("_echo(x.y(1) == 2)");
  });
});
