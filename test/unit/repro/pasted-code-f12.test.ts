/**
 * Code that does not run as pasted, and names it uses from modules it never imports them from (issue 12, hold6
 * classes, fixer f12): a comment typed after a statement at a REPL prompt, shell-style `#` comments in
 * JavaScript, a later block holding the `require` an earlier one needs, a bare block under "… prints:" that is
 * output however code-like it reads, a pytest failure pasted (quoted) in a `python` fence, "When it ought to
 * print:" heading the expected output, and Python names from submodules. Every report here is written for these
 * tests, each class with a counter-example where its rule must not fire.
 */
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { classifyBlock, pytestReport } from "../../../src/repro/classify-block.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { foldRuns, matchRun, partOfOutput } from "../../../src/repro/match.ts";
import { parseReport, withHashComments } from "../../../src/repro/parse-report.ts";
import {
  moduleNamedFor,
  pythonFreeNames,
  submoduleImports,
  wholeImports,
} from "../../../src/repro/python-names.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import {
  nodeScriptFromTranscript,
  parseTranscript,
  pythonScriptFromTranscript,
} from "../../../src/repro/transcript.ts";

const f = "```";
const read = (md: string, pkg?: string) => {
  const report = parseReport(md);
  const exp = reportedExpectations(report);
  return { report, exp, program: completeProgram(report, exp.invocation, pkg) };
};
/** Compiles CommonJS without running it: throws the SyntaxError a run would end on. */
const compiles = (code: string) => new vm.Script(`(function (require, module, exports) {\n${code}\n})`);

describe("a comment typed after a statement at the prompt", () => {
  it("is left out of a Node replay, so the echo around the statement still closes", () => {
    const t = parseTranscript("> rate = total / days // per day\n4.5\n> Math.round(rate)\n5", "node");
    const script = nodeScriptFromTranscript(t);
    expect(script).toContain("_echo(rate = total / days);");
    expect(script).not.toContain("// per day");
    expect(() => compiles(`let total = 9, days = 2, rate;\n${script}`)).not.toThrow();
  });

  it("is left out of a Python replay", () => {
    const t = parseTranscript(">>> span = end - start  # seconds\n>>> span * 2  # twice\n10", "python");
    const script = pythonScriptFromTranscript(t);
    expect(script).toContain("_echo(span * 2)");
    expect(script).not.toContain("# twice");
  });

  it("keeps a `//` or `#` inside a string", () => {
    const t = parseTranscript("> url.split('//')\n[ 'http:', 'x' ]", "node");
    expect(nodeScriptFromTranscript(t)).toContain("_echo(url.split('//'));");
    const p = parseTranscript(">>> tag.strip('#')\n'x'", "python");
    expect(pythonScriptFromTranscript(p)).toContain("_echo(tag.strip('#'))");
  });
});

describe("JavaScript with `#` comments", () => {
  it("reads a line opening with `# ` as a comment", () => {
    expect(withHashComments("# gives an empty string\nconsole.log(trim('  a  '))")).toBe(
      "// gives an empty string\nconsole.log(trim('  a  '))",
    );
  });

  it("leaves private names, shebangs and template literals alone", () => {
    const cls = "class A {\n  #count = 0\n}";
    expect(withHashComments(cls)).toBe(cls);
    const tpl = "const md = `\n# Title\n`;";
    expect(withHashComments(tpl)).toBe(tpl);
    expect(withHashComments("#!/usr/bin/env node\nrun()")).toBe("#!/usr/bin/env node\nrun()");
  });
});

describe("a later block holding the require an earlier block needs", () => {
  const report = [
    "# titleize drops the apostrophe",
    "",
    f,
    "# prints Its Fine",
    'console.log(titleize("it\'s fine"))',
    f,
    "",
    "Full script:",
    "",
    f,
    "var titleize = require('titleize-words')",
    'console.log(titleize("it\'s fine"))',
    "console.log(titleize('rock n roll'))",
    f,
  ].join("\n");

  it("runs the require first, so the earlier block sees the binding", () => {
    const { program } = read(report);
    const code = program!.files[program!.entry]!;
    expect(code.indexOf("require('titleize-words')")).toBeLessThan(code.indexOf("console.log"));
    expect(code.match(/require\('titleize-words'\)/g)).toHaveLength(1);
    expect(program!.completions.join("\n")).toContain(
      "moved `var titleize = require('titleize-words')` to the top",
    );
    expect(() => compiles(code)).not.toThrow();
  });

  it("moves nothing when the earlier block binds the name itself", () => {
    const own = [
      f,
      "const titleize = (s) => s.toUpperCase()",
      "console.log(titleize('a'))",
      f,
      "",
      f,
      "var other = require('titleize-words')",
      "console.log(other('b'))",
      f,
    ].join("\n");
    const { program } = read(own);
    expect(program!.completions.join("\n")).not.toContain("moved");
  });
});

describe("a bare block under a lead that says what ran printed", () => {
  const report = [
    "# version ranges",
    "",
    f,
    "from rangelib import Range",
    "",
    "def show(spec):",
    "    print(f\"{spec}.ok(2.0) is {Range(spec).ok('2.0')}\")",
    "",
    'show(">=1")',
    f,
    "",
    "Release 3.1 and before print:",
    f,
    ">=1.ok(2.0) is True",
    f,
    "",
    "Current main prints:",
    f,
    ">=1.ok(2.0) is False",
    f,
  ].join("\n");

  it("is output, and the one the words call current is the claim", () => {
    const { report: r, exp } = read(report);
    expect(r.blocks.map((b) => b.kind)).toEqual(["code", "output", "output"]);
    expect(exp.actual).toMatchObject({ kind: "output", output: [">=1.ok(2.0) is False"] });
  });

  it("is code when no code came before it (a lead over the report's own snippet)", () => {
    const first = ["This prints:", f, "print(sum([1, 2]))", f].join("\n");
    expect(parseReport(first).blocks.map((b) => b.kind)).toEqual(["code"]);
  });
});

describe("a pytest failure pasted in a code fence", () => {
  const quoted = [
    "> ================================ FAILURES ================================",
    "> ____________________________ test_round_trip _____________________________",
    ">",
    ">     def test_round_trip():",
    "> >       assert decode(encode('x')) == 'x'",
    "> E       AssertionError: assert 'y' == 'x'",
    ">",
    "> tests/test_codec.py:12: AssertionError",
  ].join("\n");

  it("is a test run's output, quoted or not, whatever the fence", () => {
    expect(pytestReport(quoted)).toBe(true);
    expect(classifyBlock("python", quoted).kind).toBe("error-output");
    expect(pytestReport(quoted.replace(/^> ?/gm, ""))).toBe(true);
  });

  it("does not take a test file or a Node session for one", () => {
    expect(pytestReport("def test_x():\n    assert f() == 1\n")).toBe(false);
    expect(classifyBlock("javascript", "> a = 1\n1\n> a + 1\n2").kind).toBe("node-transcript");
  });
});

describe("a lead saying what should be printed", () => {
  it("heads the expected output; one that also says what it prints instead stays the actual one", () => {
    const report = [
      f,
      "const inflect = require('inflectr')",
      "console.log(inflect.plural('cactus'))",
      f,
      "",
      "Outputs:",
      f,
      "cactuses",
      f,
      "",
      "When it ought to print:",
      f,
      "cacti",
      f,
    ].join("\n");
    const { exp } = read(report);
    expect(exp.actual).toMatchObject({ kind: "output", output: ["cactuses"] });
    expect(exp.expectedOutput).toEqual(["cacti"]);
    const contrast = report.replace("When it ought to print:", "It should print cacti, but instead prints:");
    expect(reportedExpectations(parseReport(contrast)).expectedOutput).not.toEqual(["cacti"]);
  });
});

describe("Python names from modules the snippet never imports them from", () => {
  it("imports the submodule a package's attribute chain reads", () => {
    const scan = "import vers\nvers.spec.Range('>1')\nvers.tools.split_all.go()\n";
    expect(submoduleImports(scan, wholeImports(scan))).toEqual([
      "vers.spec",
      "vers.tools",
      "vers.tools.split_all",
    ]);
    expect(
      submoduleImports("import vers as v\nv.spec.Range()\n", wholeImports("import vers as v\n")),
    ).toEqual([]);
  });

  it("finds a name's module where the report writes it, and not a class attribute", () => {
    expect(moduleNamedFor("ParseResult", ["a change in `urllib.parse.ParseResult`"])).toBe("urllib.parse");
    expect(moduleNamedFor("Decimal", ["```\nfrom decimal import Decimal, localcontext\n```"])).toBe(
      "decimal",
    );
    expect(moduleNamedFor("Inner", ["see Outer.Inner"])).toBeNull();
    // An alias says where the name lives too; a name that is only an alias does not.
    expect(moduleNamedFor("Decimal", ["from decimal import Decimal as D"])).toBe("decimal");
    expect(moduleNamedFor("Decimal", ["from fractions import Fraction as Decimal"])).toBeNull();
  });

  it("lists free names, not builtins, bound names or keywords", () => {
    expect(
      pythonFreeNames(
        "x = Range('1')\nprint(len(Spec.parse(x)))\nfor i in items[0]: pass\n",
        new Set(["x", "i"]),
      ),
    ).toEqual(["Range", "Spec", "items"]);
  });

  it("imports a name from the module the words give it under", () => {
    const report = [
      "The root cause is `urllib.parse.ParseResult`:",
      "",
      f,
      ">>> ParseResult(scheme='', netloc='', path='//', params='', query='', fragment='').geturl()",
      "'//'",
      f,
    ].join("\n");
    const { program } = read(report);
    const code = program!.files[program!.entry]!;
    expect(code).toContain("    from urllib.parse import ParseResult");
    expect(program!.completions.join("\n")).toContain("imported `ParseResult` from `urllib.parse`");
  });

  it("looks a name up in the issue's package when the report names no module, and installs that package", () => {
    const report = ["It returns `False`:", "", f, "Range('>=1.0a1', pre=True).contains('1.0a1')", f].join(
      "\n",
    );
    const { program } = read(report, "verlib");
    const code = program!.files[program!.entry]!;
    expect(code).toContain('_retrace_bind_from_package("verlib", ["Range"])');
    expect(code).toMatch(/^import verlib$/m);
    expect(program!.dependencies).toContain("verlib");
    // Without the package there is nowhere to look: the name stays free, as pasted.
    const bare = read(report).program!.files["reproduction.py"]!;
    expect(bare).not.toContain("_retrace_bind_from_package");
  });
});

describe("a bare expression's value after `Out:`", () => {
  const report = [
    "# squash keeps a space",
    "",
    "`from tidytext import squash`",
    "`s = 'a  b'`",
    "`squash(s)`",
    "",
    "Out: 'a b'",
    "",
    "**what I hope to get:  'a_b'**",
  ].join("\n");

  it("is the reported value, and what the reporter hopes to get is not", () => {
    const { exp } = read(report);
    expect(exp.actual).toMatchObject({ kind: "output" });
    expect(exp.actual.output.join(" ")).toContain("a b");
    expect(exp.actual.output.join(" ")).not.toContain("a_b");
  });

  it("makes the snippet echo its last expression, as the prompt did", () => {
    const { program } = read(report);
    const code = program!.files[program!.entry]!;
    expect(code).toMatch(/^_echo\(squash\(s\)\)$/m);
    expect(code).toContain("_echo = _sys.displayhook");
  });

  it("echoes nothing in a snippet that prints, or that ends on a statement", () => {
    const printing = ["```python", "from tidytext import squash", "print(squash('a  b'))", "```"].join("\n");
    expect(read(printing).program!.files["reproduction.py"]).not.toContain("_echo");
    const assigning = ["```python", "from tidytext import squash", "out = squash('a  b')", "```"].join("\n");
    expect(read(assigning).program!.files["reproduction.py"]).not.toContain("_echo");
  });
});

describe("calls given only in prose", () => {
  const report = [
    "# Hours don't parse",
    "",
    "dur(3600000) returns '1h' for me, but",
    "dur('1h') returns NaN",
    "",
    "v.1.4.2",
  ].join("\n");

  it("runs each call the words give a value for, and reads both values as what happens", () => {
    const { report: r, exp, program } = read(report, "durstr");
    expect(r.blocks.map((b) => b.value)).toEqual(["dur(3600000)", "dur('1h')"]);
    expect(exp.actual).toMatchObject({ kind: "output", output: ["1h", "NaN"] });
    const code = program!.files[program!.entry]!;
    expect(code).toContain("_echo(dur(3600000));");
    expect(code).toContain("_echo(dur('1h'));");
  });

  it("reads a version written `v.1.4.2` on a line of its own", () => {
    expect(parseReport(report).bareVersions).toContain("1.4.2");
  });

  it("takes no call without arguments, and no call that is not the subject of a value", () => {
    const named = [
      "Calling reset() returns nothing useful.",
      "",
      "I think parse(x) is wrong when x is empty.",
    ].join("\n");
    expect(parseReport(named).blocks).toEqual([]);
  });
});

describe("a result comment with a long arrow", () => {
  it("is the statement's value, `// -----> x` as `// -> x`", () => {
    const report = ["Actual Result:", "", "```ts", 'snake("A_B") // -----> "a__b"', "```"].join("\n");
    const { report: r } = read(report, "casekit");
    expect(r.blocks[0]!.checks.map((c) => [c.role, c.value])).toEqual([["actual", '"a__b"']]);
    expect(r.blocks[0]!.runValue).toContain('_echo(snake("A_B"));');
  });
});

describe("a run that shows part of the claim", () => {
  const claimed = ["(['b', 'a'], ['a', 'b'])", "(['x1', 'x01'], ['x01', 'x1'])", "([nan, 2.0], [2.0, nan])"];

  it("is PARTIAL when some values show line for line and the others differ", () => {
    const stdout = "(['b', 'a'], ['a', 'b'])\n(['x1', 'x01'], ['x01', 'x1'])\n([nan, 2.0], [nan, 2.0])\n";
    const part = partOfOutput(claimed, stdout);
    expect(part?.shown).toHaveLength(2);
    expect(part?.differ).toEqual([["([nan, 2.0], [2.0, nan])", "([nan, 2.0], [nan, 2.0])"]]);
    const m = matchRun(
      { kind: "output", exceptionType: null, exceptionMessage: null, output: claimed, source: "test" },
      { exitCode: 0, stoppedBy: null, stdout, stderr: "", exception: null, durationMs: 5 },
    );
    expect(m.kind).toBe("partial-output");
    expect(foldRuns([m, m, m]).verdict).toBe("PARTIAL");
  });

  it("is no evidence when only bare values agree, the line counts differ, or every line shows", () => {
    expect(partOfOutput(["true", "'ab-c'"], "true\n'abc'\n")).toBeNull();
    expect(partOfOutput(claimed, "(['b', 'a'], ['a', 'b'])\n")).toBeNull();
    expect(partOfOutput(claimed, `${claimed.join("\n")}\n`)).toBeNull();
  });
});

describe("a conventional global beside named imports of its package", () => {
  it("gets its own import: named members do not bind `_`", () => {
    const report = [
      "```",
      "import { chunk as myChunk } from 'lodash'",
      "myChunk([1, 2, 3], 2) // => [[1, 2], [3]]",
      "```",
      "",
      "With the `<script>` build:",
      "",
      "```",
      "_.chunk([1, 2, 3], 2) // => [[1, 2], [3]]",
      "```",
    ].join("\n");
    const code = Object.values(read(report).program!.files).join("\n");
    expect(code).toMatch(/^(?:import _ from "lodash";|const _ = .*require\("lodash"\)\)?;)$/m);
  });

  it("is not imported again when the package is already bound whole under another name", () => {
    const report = [
      "```js",
      "const lo = require('lodash')",
      "console.log(lo.chunk([1], 1), _.VERSION)",
      "```",
    ].join("\n");
    const code = Object.values(read(report).program!.files).join("\n");
    expect(code).not.toMatch(/const _ = /);
  });
});

describe("comments that describe rather than state a value", () => {
  it("reads `returns correctly x` as a working line and `returns 3 functions (incorrectly?)` as no value", () => {
    const report = [
      "```js",
      "const { zip } = require('ziplib')",
      "zip([1], [2]) // returns 3 functions (incorrectly?)",
      "zip([1], []) // returns correctly [1]",
      "zip([1], [3]) // returns [[1, 3]]",
      "```",
    ].join("\n");
    const checks = parseReport(report).blocks[0]!.checks;
    expect(checks.map((c) => [c.role, c.value])).toEqual([["actual", "[[1, 3]]"]]);
  });
});

describe("a run that shows the lines shown as fine but not the one marked wrong", () => {
  it("is no part of the claim", () => {
    const claimed = ["abc-123", "åbc-123 # Broken", "abc-456"];
    expect(partOfOutput(claimed, "abc-123\nabc-123\nabc-456\n")).toBeNull();
    // The marked line shows, another one does not: part of the claim shows.
    expect(partOfOutput(claimed, "abc-123\nåbc-123\nabc-999\n")?.shown).toHaveLength(2);
  });
});

describe("the repository of a Python implementation or of a script", () => {
  it("publishes no package to look names up in or to install", () => {
    const report = ["```python", "compile(src, 'x', 'exec')", "Frobnicate(1)", "```"].join("\n");
    for (const repo of ["cpython", "vcf2msa.py"]) {
      const { program } = read(report, repo);
      expect(program!.files["reproduction.py"]).not.toContain("_retrace_bind_from_package");
      expect(program!.dependencies).toEqual([]);
    }
  });
});

describe("a package assigned at a REPL prompt", () => {
  it("is bound whole: no second import under the same name", () => {
    const report = ["```", "coffee> fmt = require 'fmtlib'", "coffee> fmt('x')", "'x'", "```"].join("\n");
    const code = read(report, "fmtlib").program!.files["reproduction.cjs"] ?? "";
    expect(code).not.toContain('const fmt = require("fmtlib")');
  });
});
