/**
 * Issue 12, hold13 classes (f12m): the program Retrace builds never clashes with itself (one echo helper for all
 * blocks), a cursor glyph at the last prompt is no code, `require(".")` in the repository's checkout is its
 * package, a block the report gives as its workaround is not the reproducer, and a parse error at a line Retrace
 * wrote is never blamed on the report.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { completeProgram, programBlocks, workaroundLead } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { ownGeneratedLine } from "../../../src/repro/questions.ts";
import { plainLanguage } from "../../../src/repro/plain-code.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseTranscript, promptlessAsNode } from "../../../src/repro/transcript.ts";

/** Whether `code` parses as a CommonJS script (Node's own parser, nothing run). */
function parsesAsScript(code: string): boolean {
  const file = join(mkdtempSync(join(tmpdir(), "f12m-")), "p.cjs");
  writeFileSync(file, code);
  try {
    execFileSync(process.execPath, ["--check", file], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

const fence = "```";

describe("one echo helper for an annotated block and a REPL session", () => {
  const report = [
    "# isMatch with a negative pattern",
    "",
    "Even the README's example:",
    `${fence}js`,
    "matcher.isMatch('rainbow', '!unicorn');",
    "//=> true",
    fence,
    "gives `false`. Here's what my REPL prints:",
    fence,
    "> const m = require('matcher')",
    "> m.isMatch('rainbow', '!unicorn');",
    "false",
    "> |",
    fence,
  ].join("\n");

  it("defines `_echo` once, and the program parses", () => {
    const p = completeProgram(parseReport(report), null, "matcher")!;
    const code = p.files[p.entry]!;
    expect(code.match(/\b(?:function|const|let|var)\s+_echo\b/g)).toHaveLength(1);
    expect(parsesAsScript(code)).toBe(true);
    expect(code).toContain("_echo(m.isMatch('rainbow', '!unicorn'));");
  });

  it("two REPL sessions together share one prompt-style echo (util.inspect only)", () => {
    const two = [
      "# bytes",
      fence,
      "> const bytes = require('bytes')",
      "> bytes('1KB')",
      "1024",
      fence,
      "and",
      fence,
      "> const bytes = require('bytes')",
      "> bytes('2KB')",
      "2048",
      fence,
    ].join("\n");
    const p = completeProgram(parseReport(two), null)!;
    const code = p.files[p.entry]!;
    expect(code.match(/\bfunction\s+_echo\b/g)).toHaveLength(1);
    expect(code).toContain("console.log(_inspect(value));");
    expect(code).not.toContain("String(value)");
    expect(parsesAsScript(code)).toBe(true);
  });

  it("a session alone keeps its own helper (unchanged)", () => {
    const one = `# x\n${fence}\n> const bytes = require('bytes')\n> bytes('1KB')\n1024\n${fence}\n`;
    const p = completeProgram(parseReport(one), null)!;
    expect(p.files[p.entry]).toContain('const util = require("node:util");');
  });
});

describe("a cursor or return-key glyph at the last prompt", () => {
  it("is the empty prompt, not code: `|`, `⏎`, `█`", () => {
    for (const glyph of ["|", "⏎       ", "█"]) {
      const t = parseTranscript(`> 1 + 1\n2\n> ${glyph}`, "node");
      expect(t.inputs).toEqual(["1 + 1"]);
    }
    expect(parseTranscript(">>> 1 + 1\n2\n>>> |", "python").inputs).toEqual(["1 + 1"]);
  });

  it("must not fire: a name, a number, a bracket or a quote typed at the last prompt stays", () => {
    for (const typed of ["_", "x", "1", "(", "'", "`", "[", "{", "-", "."]) {
      const t = parseTranscript(`> 1 + 1\n2\n> ${typed}`, "node");
      expect(t.inputs).toEqual(["1 + 1", typed]);
    }
    // Only the last prompt: a glyph earlier is what was typed there.
    expect(parseTranscript("> |\n> 1", "node").inputs).toEqual(["|", "1"]);
  });
});

describe('`require(".")` in the repository\'s checkout', () => {
  const session = `# escapes\n${fence}\n$ node\n> dedent = require(".").default\n[Function: dedent]\n> dedent\`a\`\n'a'\n${fence}\n`;

  it("is the repository's package", () => {
    const p = completeProgram(parseReport(session), null, "dedent")!;
    expect(p.files[p.entry]).toContain('require("dedent").default');
    expect(p.dependencies).toContain("dedent");
    expect(p.completions.join("\n")).toContain('read `require(".")`');
  });

  it("must not fire: no repository known, or another relative path", () => {
    const p = completeProgram(parseReport(session), null)!;
    expect(p.files[p.entry]).toContain('require(".")');
    const other = completeProgram(
      parseReport(`# x\n${fence}js\nconst a = require("./lib");\nconsole.log(a);\n${fence}\n`),
      null,
      "dedent",
    )!;
    expect(other.files[other.entry]).toContain('require("./lib")');
  });
});

describe("a block the report gives as its workaround", () => {
  const report = [
    "# Tiny strings",
    "",
    "compareTwoStrings returns NaN:",
    fence,
    'console.log(compareTwoStrings("", ""));',
    fence,
    "",
    "For now I work around it in my own project with:",
    fence,
    "if(a.length <= 1 && b.length <= 1)return a === b ? 1 : 0;",
    "return compareTwoStrings(a, b);",
    fence,
  ].join("\n");

  it("is not part of the program when another block shows the bug", () => {
    const blocks = programBlocks(parseReport(report));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.value).toContain("console.log");
  });

  it("stays when it is the report's only code", () => {
    const only = `# x\n\nMy workaround:\n${fence}js\nconsole.log(f(1));\n${fence}\n`;
    expect(programBlocks(parseReport(only))).toHaveLength(1);
  });

  it("reads the lead's last sentence", () => {
    expect(workaroundLead("For now I work around it in my own project with:")).toBe(true);
    expect(workaroundLead("The workaround / hack I found:")).toBe(true);
    expect(workaroundLead("It fails. As a temporary fix I use:")).toBe(true);
    // must not fire
    expect(workaroundLead("There is no workaround, this fails:")).toBe(false);
    expect(workaroundLead("I tried the workaround. Still this fails:")).toBe(false);
    expect(workaroundLead("Here is the code:")).toBe(false);
    expect(workaroundLead("The workaround from #12 does not help")).toBe(false);
    expect(workaroundLead(null)).toBe(false);
  });
});

describe("a parse error at a line Retrace wrote", () => {
  it("is Retrace's own when it defines Retrace's helper and the report does not hold it", () => {
    expect(ownGeneratedLine("function _echo(value) {", "> m.isMatch('a', '!b')")).toBe(true);
    expect(ownGeneratedLine('const _inspect = require("node:util").inspect;', "x")).toBe(true);
    expect(ownGeneratedLine("_bindPackage(_repositoryPackage, [])", "x")).toBe(true);
  });

  it("must not fire: the report's own line, even one Retrace wrapped or one using such a name", () => {
    expect(ownGeneratedLine("return a === b ? 1 : 0;", "x")).toBe(false);
    expect(ownGeneratedLine("_echo(foo(;", "> foo(")).toBe(false);
    expect(ownGeneratedLine("⏎", "> ⏎")).toBe(false);
    expect(ownGeneratedLine("function _echo(v) {", "function _echo(v) {\n}")).toBe(false);
  });
});

describe("a console session pasted without its prompts", () => {
  it("is a Node session: a call, the value echoed under it, twice or more", () => {
    const text =
      'Humanize.truncateWords("hello world", 2)\nnull\nHumanize.truncateWords("hello world", 1)\n"hello ..."';
    expect(promptlessAsNode(text)).toBe(
      '> Humanize.truncateWords("hello world", 2)\nnull\n> Humanize.truncateWords("hello world", 1)\n"hello ..."\n',
    );
    const r = parseReport(`# x\n${fence}\n${text}\n${fence}\n`);
    expect(r.blocks[0]!.kind).toBe("node-transcript");
    expect(reportedExpectations(r).actual.output).toEqual(["null", '"hello ..."']);
  });

  it("must not fire: one pair, an object value, a line of prose, a value without its call", () => {
    expect(promptlessAsNode("f(1)\n2")).toBeNull();
    expect(promptlessAsNode("f(1)\n{ a: 1 }\nf(2)\n2")).toBeNull();
    expect(promptlessAsNode("f(1)\nit fails\nf(2)\n2")).toBeNull();
    expect(promptlessAsNode("1\n2\n3\n4")).toBeNull();
    expect(promptlessAsNode("f(1\n2\nf(2)\n3")).toBeNull();
    expect(promptlessAsNode("x = f(1)\n2\ny = f(2)\n3")).toBeNull();
  });
});

describe("a call in a sentence, as the subject of what it should give or is returning", () => {
  it("runs a call of what a call returns (`d3.format(…)(x) should give …`)", () => {
    const r = parseReport('# x\n\nCalling d3.format(",.1%")(0.0435) should give 4.4%, but I get 4.3%\n');
    expect(r.blocks.map((b) => b.value)).toEqual(['d3.format(",.1%")(0.0435)']);
  });

  it("runs `f(x) is returning y`", () => {
    const r = parseReport(
      "# x\n\nformatMoney(1035.725, '$', 2) is returning $1035.72 instead of $1035.73.\n",
    );
    expect(r.blocks.map((b) => b.value)).toEqual(["formatMoney(1035.725, '$', 2)"]);
  });

  it("must not fire: a call named with no verb of result after it", () => {
    const r = parseReport("# x\n\nI think d3.format(',.1%')(0.0435) is a problem and should be fixed.\n");
    expect(r.blocks).toHaveLength(0);
  });
});

describe("`// produces X` annotates the line's value", () => {
  it("reads as the value the line gave", () => {
    const r = parseReport(
      `# x\n\n${fence}javascript\n_.escape("a&b") // produces "a&amp;b"\n_.escape("a&amp;b") // produces "a&amp;b"\n${fence}\n`,
    );
    expect(r.blocks[0]!.usesEcho).toBe(true);
    expect(reportedExpectations(r).actual.output).toEqual(['"a&amp;b"', '"a&amp;b"']);
  });
});

describe("a call on a Python standard module in unfenced code", () => {
  it("reads as Python", () => {
    expect(plainLanguage('text = "a b"\nre.split("\\s*", text)')).toBe("python");
    expect(plainLanguage("os.path.join('a', 'b')")).toBe("python");
  });

  it("must not fire: JavaScript signs, or the name bound in the code", () => {
    expect(plainLanguage('const re = require("re");\nre.split(x)')).toBe("javascript");
    expect(plainLanguage("re.split(x);")).toBe("javascript");
    expect(plainLanguage("re = makeRe()\nre.test(x)")).toBe("javascript");
    expect(plainLanguage("path.join('a', 'b')")).toBe("javascript");
    expect(plainLanguage("items.map((x) => re.test(x))")).toBe("javascript");
  });
});

describe("a number stated with its percent sign", () => {
  it("keeps the `%` (`4.3%` printed is `4.3%`, not `4.3`)", () => {
    expect(proseClaims("It should give 4.4%, but I get 4.3%")).toEqual({
      actual: ["4.3%"],
      expected: ["4.4%"],
    });
  });

  it("must not fire: a number without one stays as it was", () => {
    expect(proseClaims("It should give 4.4, but I get 4.3")).toEqual({ actual: ["4.3"], expected: ["4.4"] });
  });
});

describe("the repository's package called by its own name beside a block that imports it under another", () => {
  const readme = (session: string) =>
    `# x\n\nThe README's example:\n${fence}js\nmatcher.isMatch('rainbow', '!unicorn');\n//=> true\n${fence}\ngives false:\n${fence}\n${session}\n${fence}\n`;

  it("binds the own name to the package", () => {
    const p = completeProgram(
      parseReport(readme("> const m = require('matcher')\n> m.isMatch('rainbow', '!unicorn');\nfalse")),
      null,
      "matcher",
    )!;
    expect(p.files[p.entry]).toContain('const matcher = require("matcher");');
  });

  it("must not fire: the name assigned at a prompt, or no repository known", () => {
    const assigned = completeProgram(
      parseReport(readme("> matcher = require('matcher')\n> matcher.isMatch('rainbow', '!unicorn');\nfalse")),
      null,
      "matcher",
    )!;
    expect(assigned.files[assigned.entry]).not.toContain('const matcher = require("matcher");');
    const unknown = completeProgram(
      parseReport(readme("> const m = require('matcher')\n> m.isMatch('rainbow', '!unicorn');\nfalse")),
      null,
    )!;
    expect(unknown.files[unknown.entry]).not.toContain('const matcher = require("matcher");');
  });
});
