/**
 * Code that did not parse, or printed nothing, only because of how it was pasted (issue 12, hold6-9 classes,
 * fixer f12f): an arrow printed by a string (`'a --> b'`) read as an annotation, a workaround block that
 * redeclares with `var` a `const` of the failing block, a package named `x.js` used as `x`, a lone printed object
 * after "gives" in a `js` fence, a bold label before unfenced code, a sentence on a code block's last line, and a
 * snippet ending with the declaration whose value the report shows. Every report here is written for these tests,
 * each rule with cases where it must not fire.
 */
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { angleAsPycon } from "../../../src/repro/angle-prompt.ts";
import { classifyBlock, printedLiteral } from "../../../src/repro/classify-block.ts";
import { completeProgram, lastDeclaration } from "../../../src/repro/complete.ts";
import { proseLine, withoutEdgeProse } from "../../../src/repro/edge-prose.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { callBeforeProse, codeLine } from "../../../src/repro/plain-code.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const read = (md: string, pkg?: string) => {
  const report = parseReport(md);
  const exp = reportedExpectations(report);
  return { report, program: completeProgram(report, exp.invocation, pkg) };
};
const entry = (p: ReturnType<typeof read>["program"]) => p!.files[p!.entry]!;
/** Compiles a script without running it: throws the SyntaxError a run would end on. */
const compiles = (code: string) => new vm.Script(code);

describe("an arrow inside a string", () => {
  it("is what the line prints, not an annotation cutting the line", () => {
    const md = `# t\n\n${f}python\nfor k, v in pairs:\n    print('{} --> {}'.format(k, v))\n${f}\n`;
    const { program } = read(md);
    expect(entry(program)).toContain("print('{} --> {}'.format(k, v))");
  });
  it("still annotates when the arrow stands outside the strings", () => {
    const md = `# t\n\n${f}js\nconst t = require('t');\nt.pad('ab', 4) --> 'ab  '\n${f}\n`;
    const { report } = read(md);
    expect(report.blocks[0]!.checks.map((c) => c.value)).toContain("'ab  '");
  });
});

describe("blocks that redeclare each other's names", () => {
  const md = `# t\n\n${f}\nconst span = iprange.parse('10.0.0.0/8');\nconsole.log(span.first);\n${f}\n\nWhat I use instead:\n\n${f}\nvar span = iprange.parseLoose('10.0.0.0/8');\nconsole.log(span);\n${f}\n`;
  it("run in their own scopes when a later `var` redeclares an earlier `const`", () => {
    const code = entry(read(md).program);
    expect(code).toMatch(/^\{\nconst span/m);
    expect(() => compiles(code)).not.toThrow();
  });
  it("are joined as written when only `var`s repeat (legal as it stands)", () => {
    const twoVars = md.replace("const span", "var span");
    const code = entry(read(twoVars).program);
    expect(code).not.toMatch(/^\{$/m);
    expect(() => compiles(code)).not.toThrow();
  });
});

describe("a package named `x.js`", () => {
  it("is imported under `x` when the report names the package and uses `x` unbound", () => {
    const md = `# t\n\nipaddr.js version 1.9.1\n\n${f}js\nconsole.log(ipaddr.parse('10.0.0.1').kind());\n${f}\n`;
    expect(entry(read(md).program)).toContain('const ipaddr = require("ipaddr.js");');
  });
  it("is not imported when the snippet binds the name itself", () => {
    const md = `# t\n\nipaddr.js version 1.9.1\n\n${f}js\nconst ipaddr = require('./vendored');\nconsole.log(ipaddr.parse('10.0.0.1'));\n${f}\n`;
    expect(entry(read(md).program)).not.toContain('require("ipaddr.js")');
  });
});

describe("a lone printed literal in a code fence", () => {
  it("is output (a printed object, not a block statement)", () => {
    expect(classifyBlock("js", "{\n  s: 'x',\n  Path: '/',\n  Max: 'a, b'\n}").kind).toBe("output");
    expect(classifyBlock("python", "[{'a': 1}, {'b': (2, 3)}]").kind).toBe("output");
    expect(printedLiteral("[ 'a', [Function (anonymous)] ]")).toBe(true);
  });
  it("is code when it does anything: a call, a declaration, an assignment, two literals", () => {
    expect(printedLiteral("{\n  const a = f();\n}")).toBe(false);
    expect(printedLiteral("[1, 2].map(String)")).toBe(false);
    expect(printedLiteral("{ a: f(1) }")).toBe(false);
    expect(printedLiteral("{ a }\n{ b }")).toBe(false);
    expect(printedLiteral("[1] + [2]")).toBe(false);
    expect(classifyBlock("js", "{\n  run();\n}").kind).toBe("code");
  });
});

describe("a snippet ending with a declaration", () => {
  it("prints the declared value, which the report shows after it", () => {
    const md = `# t\n\n${f}js\nimport kv from 'kv-parse';\n\nconst parsed = kv.parse('a=1; b=2');\n${f}\n\ngives\n\n${f}js\n{\n  a: '1',\n  b: '2;'\n}\n${f}\n`;
    const code = entry(read(md).program);
    expect(code.trimEnd().split("\n").at(-1)).toBe("_echo(parsed);");
  });
  it("finds the name over lines of its own, and not for a require or an unfinished statement", () => {
    expect(lastDeclaration("const r = f({\n  a: 1,\n});\n")).toBe("r");
    expect(lastDeclaration("const x = require('x');\n")).toBeNull();
    expect(lastDeclaration("const r = a +\n")).toBeNull();
    expect(lastDeclaration("console.log(1);\n")).toBeNull();
  });
  it("prints nothing extra when the snippet prints itself", () => {
    const md = `# t\n\n${f}js\nconst kv = require('kv-parse');\nconst parsed = kv.parse('a=1');\nconsole.log(parsed);\nconst again = kv.parse('b=2');\n${f}\n`;
    expect(entry(read(md).program)).not.toContain("_echo(again)");
  });
});

describe("a bold label before unfenced code", () => {
  it("is prose: the code after it is the statement", () => {
    expect(codeLine('**CALL:** numfmt("1234").format({ grouped: true })')).toBe(
      'numfmt("1234").format({ grouped: true })',
    );
    expect(codeLine("**Code**: fmt(1)")).toBe("fmt(1)");
  });
  it("leaves a bold line with no code after it as prose", () => {
    expect(codeLine('**OUTPUT:** "12,345.99"')).toBeNull();
    expect(codeLine("**Note:** this breaks for large values.")).toBeNull();
  });
});

describe("a sentence on a code block's edge", () => {
  it("is left out of the program, and the completion says so", () => {
    const md = `# t\n\n${f}python\nimport re\nprint(re.sub('a a', 'aa', 'a a b'))\nThis used to work in every version until I upgraded to 3.13\n${f}\n`;
    const { program } = read(md);
    expect(entry(program)).not.toContain("This used to work");
    expect(program!.completions.join(" ")).toContain("a sentence of the report pasted inside the code block");
  });
  it("is never taken from code: keywords, calls, comments, indented lines, short lines", () => {
    expect(proseLine("True and False or None is not x")).toBe(false);
    expect(proseLine("Foo bar baz qux = quux(1)")).toBe(false);
    expect(proseLine("    This is an indented continuation of a string we keep")).toBe(false);
    expect(proseLine("Result printed below")).toBe(false);
    expect(proseLine("This used to work in every version until I upgraded to 3.13")).toBe(true);
    expect(withoutEdgeProse("import re\nx = 1\n").dropped).toEqual([]);
  });
  it("keeps a block that is all sentences (prose itself, not a snippet with a stray line)", () => {
    const v = "This is what I did with the parser today\nThen it broke on the second file I gave it";
    expect(withoutEdgeProse(v).dropped).toEqual([]);
  });
});

describe("a Python session pasted with `> ` prompts", () => {
  it("is the `>>>` transcript it stands for, in a python fence", () => {
    expect(angleAsPycon("> print(rows)\n['a', 'b, c']")).toBe(">>> print(rows)\n['a', 'b, c']");
    expect(classifyBlock("python", "> print(rows)\n['a', 'b, c']").kind).toBe("python-transcript");
    const md = `# t\n\n${f}python\nimport csv\nrows = list(csv.reader(['a,"b, c"']))\n${f}\n\nI expect:\n\n${f}python\n> print(rows[0])\n['a', 'b, c']\n${f}\n`;
    expect(entry(read(md).program)).not.toMatch(/^> /m);
  });
  it("is not a session when every line is quoted, a `>>>` session already, or no python fence", () => {
    expect(angleAsPycon("> print(a)\n> print(b)")).toBeNull();
    expect(angleAsPycon(">>> print(a)\n1\n> x")).toBeNull();
    expect(angleAsPycon("x = 1\n> print(x)\n1")).toBeNull();
    expect(angleAsPycon(">> shift\n1")).toBeNull();
    expect(classifyBlock("text", "> print(rows)\n['a']").kind).not.toBe("python-transcript");
  });
});

describe("a call stated inside a sentence", () => {
  it("after a lead-in colon, is the call up to its closing bracket", () => {
    expect(codeLine("we call: semverCmp('2.0.0', '2.0.0-rc'). but it returns 1 here")).toBe(
      "semverCmp('2.0.0', '2.0.0-rc')",
    );
    expect(callBeforeProse("lib.fmt(')', 2), which gives the wrong text")).toBe("lib.fmt(')', 2)");
    expect(callBeforeProse("f([1, 2], { a: ')' }), which sorts them wrong")).toBe("f([1, 2], { a: ')' })");
  });
  it("is no call when a bracket of another kind closes it (the one code scanner's depth)", () => {
    expect(callBeforeProse("f(a]) which is odd")).toBeNull();
  });
  it("is not cut from a chain, a call that ends the line, or a call followed by code", () => {
    expect(callBeforeProse("f(1).toString() is wrong")).toBeNull();
    expect(callBeforeProse("f(1)")).toBeNull();
    expect(callBeforeProse("f(1); g(2)")).toBeNull();
    expect(codeLine("Here is a sentence: it says nothing (really) at all.")).toBeNull();
  });
});

describe("a Node error and its stack pasted indented", () => {
  it("is error output, its indentation aside", () => {
    const v =
      "  TypeError: other.kind is not a function\n      at IPv4.match (/app/node_modules/ip/lib/ip.js:92:17)";
    expect(classifyBlock(null, v).kind).toBe("error-output");
  });
  it("is not error output without a stack frame", () => {
    expect(
      classifyBlock(null, "  TypeError: other.kind is not a function\n  at the second call").kind,
    ).not.toBe("error-output");
  });
});
