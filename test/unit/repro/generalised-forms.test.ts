/**
 * Report forms that the real-report test split showed unread (issue 12, generalising round): result lines
 * under a statement (`==> x`, `=> x`), markdown escapes in code pasted without a fence, a chain continued on
 * lines of its own, "what comes back is X", numbers and functions as runtimes print them, an invocation the
 * report calls fine beside the one it complains of, and a library used as a browser page's global. Reports
 * written for these tests.
 */
import { describe, expect, it } from "vitest";
import { annotate, parseAnnotation } from "../../../src/repro/annotations.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { pinDependencies } from "../../../src/repro/dependencies.ts";
import { matchRun } from "../../../src/repro/match.ts";
import { looseKey } from "../../../src/repro/normalize.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { unescapeMarkdown } from "../../../src/repro/plain-code.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseTranscript, pythonScriptFromTranscript } from "../../../src/repro/transcript.ts";
import { findVersionMentions, sameProduct } from "../../../src/repro/versions.ts";
import { run } from "./observed-run.ts";

const f = "```";
const read = (md: string) => {
  const report = parseReport(md);
  const exp = reportedExpectations(report);
  return { report, exp, program: completeProgram(report, exp.invocation) };
};

describe("a result line under its statement", () => {
  it("is the statement's annotation, kept in the program as a comment", () => {
    const a = annotate("const s = require('slugr');\nconsole.log(s('A B'));\n\n==> a-b\n", "javascript");
    expect(a.checks.map((c) => [c.role, c.value])).toEqual([["actual", "a-b"]]);
    expect(a.code).toContain("// ==> a-b");
    expect(a.code).not.toMatch(/^==>/m);
    const py = annotate("import textwrap\ntextwrap.dedent('  x')\n=> 'x'\n", "python");
    expect(py.code).toContain("_echo(textwrap.dedent('  x'))");
    expect(py.code).toContain("# => 'x'");
  });

  it("a fat arrow inside a statement is still code", () => {
    const a = annotate("const f = [1, 2].map((n) =>\n  n * 2);\nconsole.log(f);", "javascript");
    expect(a.checks).toEqual([]);
    expect(a.code).toContain("n * 2);");
  });

  it("keeps `=> value` with code pasted without a fence, and reads markdown escapes as the reader sees them", () => {
    const { program, exp } = read(
      "# map is off\n\nThe call:\nmylib.scale([1, 2], function(n) { return n \\* 2; });\n=> [2, 4, 6]\n",
    );
    expect(program?.files[program.entry]).toContain("return n * 2;");
    expect(program?.files[program.entry]).toContain("_echo(mylib.scale(");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["[2, 4, 6]"] });
  });

  it("unescapes only outside code spans", () => {
    expect(unescapeMarkdown("a \\* b `c \\* d` snake\\_case \\n")).toBe("a * b `c \\* d` snake_case \\n");
  });
});

describe("a chain continued on lines of its own", () => {
  it("echoes the whole statement, not its last line", () => {
    const { program } = read(
      `# wrong\n\n${f}js\nvar B = require("bigish")\n\nnew B\n.Num('7')\n.div('7')\n.toString()\n${f}\n\nActual: "0.99"\n`,
    );
    const code = program?.files[program.entry] ?? "";
    expect(code).toContain("_echo(new B .Num('7') .div('7') .toString());");
    expect(code).not.toContain("_echo(.toString");
  });

  it("leaves an indented chain of a script run with arguments alone", () => {
    const { program } = read(
      `# opts\n\n${f}js\nconst cli = require('cmdr');\n\ncli\n    .option('-x', 'x')\n    .parse(process.argv);\n${f}\n\nRun \`node index.js -x\`: nothing.\n`,
    );
    expect(program?.files[program.entry]).not.toContain("_echo(");
  });
});

describe("values in prose and as runtimes print them", () => {
  it("reads 'what comes back is X'", () => {
    expect(proseClaims("It ought to return `-.5`, but what comes back is `NaN`.")).toEqual({
      actual: ["NaN"],
      expected: ["-.5"],
    });
  });

  it("compares `.5` with `0.5`, and old Node's `[Function]` with `[Function (anonymous)]`", () => {
    expect(looseKey("-.01")).toBe(looseKey("-0.01"));
    expect(looseKey("[Function] undefined")).toBe(looseKey("[Function (anonymous)] undefined"));
    // Versions and named functions keep their form.
    expect(looseKey("1.5")).toBe("1.5");
    expect(looseKey("[Function: f]")).not.toBe(looseKey("[Function]"));
    const expected = matchRun(
      { kind: "output", exceptionType: null, exceptionMessage: null, output: ["NaN"], source: "" },
      run({ stdout: "-0.01\n" }),
      ["-.01"],
    );
    expect(expected.kind).toBe("clean");
    expect(expected.detail).toMatch(/printed the expected/);
  });
});

describe("two invocations in prose", () => {
  it("the one the report calls fine is not the claim", () => {
    const { program } = read(
      `# flags\n\nMy file \`t.js\`:\n\n${f}js\nconst p = require('argy')(process.argv.slice(2));\nconsole.log(p.name);\n${f}\n\nRunning \`node t.js\` prints \`[Function]\`.\nWith \`node t.js -n x\` all is fine: \`x\`.\n`,
    );
    expect(program?.args ?? []).toEqual([]);
  });

  it("without such words, the run with arguments is still taken", () => {
    const { program } = read(
      `# flags\n\n${f}js\nconst p = require('argy')(process.argv.slice(2));\nconsole.log(p.name);\n${f}\n\nRunning \`node t.js -n x\` prints \`undefined\`.\n`,
    );
    expect(program?.args).toEqual(["-n", "x"]);
  });
});

describe("a library used as a browser page's global", () => {
  it("is read as its import", () => {
    const { program } = read(
      `# parser\n\n${f}\nconst p = self.math.parser()\np.evaluate(["1+2"])\n${f}\n\ngives \`TypeError: x is not a function\`\n`,
    );
    const code = program?.files[program.entry] ?? "";
    expect(code).toContain('const math = require("mathjs");');
    expect(code).toContain("const p = math.parser()");
  });

  it("leaves a page object the snippet defines, and unknown names, alone", () => {
    const { program } = read(
      `# x\n\n${f}js\nconst self = { math: 1 };\nconsole.log(self.math, window.myThing);\n${f}\n\nprints \`2\`\n`,
    );
    expect(program?.files[program.entry]).toContain("console.log(self.math, window.myThing);");
  });
});

describe("a product's name as people write it, with its version", () => {
  it("is read with the word 'version' or a `v`, and matched to the package it names", () => {
    expect(findVersionMentions("Lodash version: 4.17.11\nNodeJS version: v10.8.0")).toEqual([
      { name: "Lodash", version: "4.17.11", style: "word" },
    ]);
    expect(findVersionMentions(" - Day.js v1.10.5\n - OS: Ubuntu 18.04")).toEqual([
      { name: "Day.js", version: "1.10.5", style: "word" },
    ]);
    // A capitalized word before a bare number is a sentence, not a product.
    expect(findVersionMentions("Upgraded 2.0.1 broke it. Chrome version 130.0.1")).toEqual([]);
    expect(sameProduct("Day.js", "dayjs")).toBe(true);
    expect(sameProduct("Validator.js", "validator")).toBe(true);
    expect(sameProduct("Moment.js", "moment")).toBe(true);
    expect(sameProduct("Day.js", "moment")).toBe(false);
  });

  it("pins the dependency the program imports", () => {
    const { report, program } = read(
      `# tz\n\n${f}js\nconst dayjs = require('dayjs');\nconsole.log(dayjs('2020-01-01').format('x'));\n${f}\n\nprints \`x\`\n\n**Information**\n - Day.js Version 1.8.32\n`,
    );
    expect(program).not.toBeNull();
    expect(pinDependencies(program!, report)).toEqual([
      { name: "dayjs", version: "1.8.32", source: "reported" },
    ]);
  });
});

describe("a REPL session with several errors", () => {
  it("goes on after an error as the prompt did, and ends on the last one", () => {
    const t = parseTranscript(
      [
        ">>> import json",
        ">>> json.loads('{')",
        "Traceback (most recent call last):",
        '  File "<stdin>", line 1, in <module>',
        "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ">>> json.loads('[1,]')",
        "Traceback (most recent call last):",
        '  File "<stdin>", line 1, in <module>',
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 4 (char 3)",
      ].join("\n"),
      "python",
    );
    expect(t.raised).toEqual([1, 2]);
    const script = pythonScriptFromTranscript(t);
    expect(script).toContain("try:\n    _echo(json.loads('{'))\nexcept BaseException:");
    // The last error stays uncaught: the run ends on it, as the session did.
    expect(script).toMatch(/\n_echo\(json\.loads\('\[1,\]'\)\)\n$/);
  });

  it("a session with one error is replayed as before", () => {
    const t = parseTranscript(
      ">>> int('x')\nTraceback (most recent call last):\nValueError: bad\n",
      "python",
    );
    expect(pythonScriptFromTranscript(t)).not.toContain("try:");
  });
});

describe("the report's only code under an 'Expected behavior' heading", () => {
  it("is run; a value the reporter marks wrong is the claim, the others are not", () => {
    const { program, exp } = read(
      `# sum\n\n**Describe the bug**\nIt adds wrong.\n\n**Expected behavior**\n${f}js\nconst add = require('adder');\nconsole.log(add(1, 1)); // -> 2\nconsole.log(add(2, 2)); // -> 5 (4 is expected)\n${f}\n`,
    );
    expect(program?.files[program.entry]).toContain("add(2, 2)");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["5"] });
    expect(exp.expectedOutput).not.toContain("2");
  });

  it("with no value marked wrong, its values are what should happen, never the claim", () => {
    const { exp } = read(
      `# sum\n\n**Describe the bug**\nIt adds wrong.\n\n**Expected behavior**\n${f}js\nconst add = require('adder');\nconsole.log(add(2, 2)); // -> 4\n${f}\n`,
    );
    expect(exp.actual.kind).not.toBe("output");
    expect(exp.expectedOutput).toEqual(["4"]);
  });

  it("beside other code, it stays the expected version and is not run", () => {
    const { program } = read(
      `# sum\n\n${f}js\nconst add = require('adder');\nconsole.log(add(2, 2)); // 5\n${f}\n\n**Expected behavior**\n${f}js\nconsole.log(fixedAdd(2, 2)); // 4\n${f}\n`,
    );
    expect(program?.files[program.entry]).not.toContain("fixedAdd");
  });

  it("reads a parenthesised remark after an annotated value", () => {
    expect(parseAnnotation(" -> false (true is expected)")).toMatchObject({ value: "false", flagged: true });
    expect(parseAnnotation(" -> [1, 2] (sorted, fine)")).toMatchObject({ value: "[1, 2]", flagged: false });
    expect(parseAnnotation(" => Fraction(1, 2)")).toMatchObject({ value: "Fraction(1, 2)" });
  });
});

describe("a call on a library's global written into a sentence", () => {
  it("is the code to run when the report has none", () => {
    const { program, exp } = read(
      "# x\n\nWith numeral 2.0.6, calling numeral(1e-7).format('0.00') gives back NaN instead of 0.00.\n",
    );
    expect(program?.files[program.entry]).toContain("_echo(numeral(1e-7).format('0.00'));");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["NaN"] });
  });

  it("not a call whose last parentheses are empty (a name in passing, or a placeholder markdown removed)", () => {
    expect(read("# x\n\nI use moment().format() in node, and it is slow.\n").program).toBeNull();
    expect(read("# x\n\nCalling **semver.coerce(<string>)** gives back **null**.\n").program).toBeNull();
  });
});
