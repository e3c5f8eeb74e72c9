/**
 * The forms real reports take (issue 12), each read by a general rule: comment annotations, code pasted without
 * a fence, actual/expected stated in prose, two transcripts of one session, versions stated only in prose or
 * printed by the session, and the run outcomes that mean "ask the reporter" (code that does not parse, a name
 * never defined, an API newer than the sandbox's runtime). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { annotate, parseAnnotation } from "../../../src/repro/annotations.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { codeLine, plainCodeRuns } from "../../../src/repro/plain-code.ts";
import { withoutLogPrefix } from "../../../src/repro/classify-block.ts";
import { proseClaims, proseTwoVersions, versionedClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { findBareVersions, findVersionMentions } from "../../../src/repro/versions.ts";
import { run } from "./observed-run.ts";

const f = "```";
const read = (md: string) => {
  const report = parseReport(md);
  return { report, exp: reportedExpectations(report), program: completeProgram(report) };
};

describe("comment annotations", () => {
  it("reads the value a comment states, and who states it", () => {
    expect(parseAnnotation(" => 'abc'")).toMatchObject({ role: "actual", kind: "output", value: "'abc'" });
    expect(parseAnnotation(" false")).toMatchObject({ role: "actual", value: "false" });
    expect(parseAnnotation(" prints 3")).toMatchObject({ role: "actual", value: "3" });
    expect(parseAnnotation(" Output: [1, 2]")).toMatchObject({ role: "actual", value: "[1, 2]" });
    expect(parseAnnotation(" expected 10.5")).toMatchObject({ role: "expected", value: "10.5" });
    expect(parseAnnotation(" should be `x`")).toMatchObject({ role: "expected" });
    expect(parseAnnotation(' output: "2020-01-01" WRONG')).toMatchObject({
      flagged: true,
      value: '"2020-01-01"',
    });
    expect(parseAnnotation(" raises ValueError")).toMatchObject({ kind: "error", value: "ValueError" });
    expect(parseAnnotation(" TypeError: x is not iterable")).toMatchObject({
      kind: "error",
      value: "TypeError: x is not iterable",
    });
    // Ordinary comments are not annotations.
    expect(parseAnnotation(" set up the parser first")).toBeNull();
    expect(parseAnnotation(" TODO")).toBeNull();
  });

  it("echoes annotated expressions like a REPL, leaves printing lines alone", () => {
    const js = annotate(
      "const p = require('pad');\np.left('ab', 4); // => '  ab'\nconsole.log(p.right('ab', 3)); // => ab \nlet n = p.count('x'); // 1",
      "javascript",
    );
    expect(js.code).toContain("_echo(p.left('ab', 4));");
    expect(js.code).toContain("console.log(p.right('ab', 3)); // => ab");
    expect(js.code).toContain("let n = p.count('x'); _echo(n);");
    expect(js.checks.map((c) => c.value)).toEqual(["'  ab'", "ab", "1"]);
    const py = annotate(
      "import mylib\nmylib.split('a,b')  # gives ['a', 'b']\nint('z')  # raises ValueError",
      "python",
    );
    expect(py.code).toContain("_echo(mylib.split('a,b'))");
    expect(py.checks.map((c) => [c.kind, c.value])).toEqual([
      ["output", "['a', 'b']"],
      ["error", "ValueError"],
    ]);
  });

  it("takes a comment on the next line (`// output: x`) and expected/received pairs", () => {
    const a = annotate("fmt(3.14159, 2)\n// expected 3.14\n// received 3.15", "javascript");
    expect(a.code.split("\n")[0]).toBe("_echo(fmt(3.14159, 2));");
    expect(a.checks.map((c) => [c.role, c.value])).toEqual([
      ["expected", "3.14"],
      ["actual", "3.15"],
    ]);
  });

  it("makes them the reported behaviour and the expected one", () => {
    const { exp, program } = read(
      `# round() is off\n\n${f}js\nconst r = require('roundy');\nr.round(2.675, 2); // expected 2.68\nr.round(2.675, 2); // received 2.67\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["2.67"] });
    expect(exp.expectedOutput).toEqual(["2.68"]);
    expect(program?.files[program.entry]).toContain("const _echo = (value) =>");
    expect(program?.completions.join(" ")).toMatch(/printed the value/);
  });

  it("an annotated error is the reported exception", () => {
    const { exp } = read(`# crash\n\n${f}js\nparseDate('31/02') // RangeError: Invalid time value\n${f}\n`);
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "RangeError" });
  });
});

describe("code pasted without a fence", () => {
  it("tells statements from sentences", () => {
    expect(codeLine("for example: lib.check('1.0.0-beta', '*'); // false")).toBe(
      "lib.check('1.0.0-beta', '*'); // false",
    );
    expect(codeLine("var conf = require('conf');")).not.toBeNull();
    expect(codeLine("  .option('-x, --extra', 'more')")).not.toBeNull();
    expect(codeLine("When I call foo.bar() it returns 3.")).toBeNull();
    expect(codeLine("The answer should be 4 (not 5).")).toBeNull();
    expect(codeLine("**Environment:**")).toBeNull();
  });

  it("collects runs of code lines from a paragraph", () => {
    const runs = plainCodeRuns("I evaluate this:\ncalc.run('2 * (3 + 4)');\nand it prints 13 instead of 14.");
    expect(runs.map((r) => r.code)).toEqual(["calc.run('2 * (3 + 4)');"]);
  });

  it("runs it when the report has no fenced code, with the package's conventional global imported", () => {
    const { program, exp } = read(
      "# satisfies is wrong\n\nFor example: semver.satisfies('2.0.0-rc.1', '>=1.0.0'); // false\n\nIt should be true.\n",
    );
    expect(program?.files[program.entry]).toContain("_echo(semver.satisfies('2.0.0-rc.1', '>=1.0.0'));");
    expect(program?.files[program.entry]).toContain('require("semver")');
    expect(program?.dependencies).toEqual(["semver"]);
    expect(exp.actual.output).toEqual(["false"]);
  });

  it("ignores prose-embedded code when a fenced block exists", () => {
    const { program } = read(
      `# t\n\nCalling lib.go(1); fails.\n\n${f}js\nconst lib = require('lib');\nlib.go(2);\n${f}\n`,
    );
    expect(program?.files[program.entry]).not.toContain("lib.go(1)");
  });

  it("reads code in a bare fence that the language scorer missed", () => {
    const { report } = read(`# t\n\n${f}\nnew Money(10.005).toFixed(2);\n// expected 10.01\n${f}\n`);
    expect(report.blocks[0]).toMatchObject({ kind: "code", language: "javascript" });
  });
});

describe("actual and expected in prose", () => {
  it("reads the usual sentences", () => {
    expect(proseClaims("I see `5000` printed but expected `1000`.")).toEqual({
      actual: ["5000"],
      expected: ["1000"],
    });
    expect(proseClaims("It returns `a-b` instead of `a_b`.")).toEqual({ actual: ["a-b"], expected: ["a_b"] });
    expect(proseClaims("The correct result is 0.3, yet the library gives me 0.30000000000000004.")).toEqual({
      actual: ["0.30000000000000004"],
      expected: ["0.3"],
    });
    expect(proseClaims("The function should return null here.").actual).toEqual([]);
  });

  it("`**Actual:** \\`x\\`` and 'Expected X, but I get:' followed by a block", () => {
    const a = read(
      `# t\n\n${f}py\nprint(is_ok())\n${f}\n\n**Expected:** \`True\`\n\n**Actual:** \`False\`\n`,
    ).exp;
    expect(a.actual).toMatchObject({ kind: "output", output: ["False"] });
    const b = read(
      `# t\n\n${f}py\nprint(total([1, 1]))\n${f}\n\nExpected \`2\`, but I get:\n\n${f}\n3\n${f}\n`,
    ).exp;
    expect(b.actual).toMatchObject({ kind: "output", output: ["3"] });
  });

  it("a run printing the expected value is not a reproduction, and says so", () => {
    const reported = {
      kind: "output" as const,
      exceptionType: null,
      exceptionMessage: null,
      output: ["0.1"],
      source: "x",
    };
    const m = matchRun(reported, run({ stdout: "0.3\n0.1\n" }), ["0.3"]);
    expect(m.kind).toBe("clean");
    expect(m.detail).toMatch(/printed the expected `0.3`.*fixed here, or never broken/);
  });
});

describe("two versions side by side", () => {
  const md = (words: string) =>
    `# Flag listing differs\n\n${words}\n\n${f}pycon\nPython 3.12.1 (main) [GCC]\n>>> import flaglib\n>>> flaglib.members()\n['a', 'b']\n${f}\n\n${f}pycon\nPython 3.13.0 (main) [GCC]\n>>> import flaglib\n>>> flaglib.members()\n['a']\n${f}\n`;

  it("the side the report calls broken is the reported behaviour; the other is expected", () => {
    const { exp, program } = read(
      md("Since upgrading, 3.13 is broken: it drops `b`. It should behave like 3.12."),
    );
    expect(exp.actual.output).toEqual(["['a']"]);
    expect(exp.expectedOutput).toEqual(["['a', 'b']"]);
    expect(exp.actual.source).toMatch(/`3.13` transcript/);
    // One session, run once.
    expect(program!.files[program!.entry]!.match(/flaglib\.members/g)).toHaveLength(1);
  });

  it("the older side can be the bug ('3.12 ought to be patched to behave like 3.13')", () => {
    const { exp } = read(md("So 3.12 ought to be patched to behave like 3.13."));
    expect(exp.actual.output).toEqual(["['a', 'b']"]);
    const m = foldRuns([matchRun(exp.actual, run({ stdout: "['a']\n" }), exp.expectedOutput)]);
    expect(m.verdict).toBe("NOT_REPRODUCED");
    expect(m.detail).toMatch(/printed the expected/);
  });

  it("undecided, neither side is claimed", () => {
    const { exp } = read(md("The output differs between the two."));
    expect(exp.actual.kind).toBe("unknown");
    expect(exp.twoVersions?.bad).toBeNull();
    const m = foldRuns([matchRun(exp.actual, run({ stdout: "['a']\n" }), exp.expectedOutput)]);
    expect(m.verdict).toBe("NEEDS_INFO");
  });

  it("an error against a clean run: the error is the reported bug, the clean run's exception-free outcome the expected", () => {
    const { exp } = read(
      `# t\n\nOld:\n\n${f}pycon\nPython 3.10.0\n>>> import q\n>>> q.f()\n1\n${f}\n\nNew:\n\n${f}pycon\nPython 3.11.0\n>>> import q\n>>> q.f()\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nKeyError: 'x'\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "KeyError" });
    expect(exp.expectedOutput).toEqual(["1"]);
  });
});

describe("outcomes that ask the reporter instead of claiming a result", () => {
  const reported = {
    kind: "output" as const,
    exceptionType: null,
    exceptionMessage: null,
    output: ["1"],
    source: "x",
  };
  it("code that does not parse: NEEDS_INFO naming the line", () => {
    const m = matchRun(
      reported,
      run({
        exitCode: 1,
        stderr:
          "/workspace/reproduction.cjs:3\nconst x = ;\n          ^\n\nSyntaxError: Unexpected token ';'\n    at internalCompileFunction (node:internal/vm:76:18)\n",
        exception: { type: "SyntaxError", message: "Unexpected token ';'" },
      }),
    );
    expect(m).toMatchObject({ kind: "needs", incompleteCode: true });
    expect(m.question).toContain("`const x = ;`");
    const py = matchRun(
      reported,
      run({
        exitCode: 1,
        stderr:
          '  File "/workspace/reproduction.py", line 2\n    for x in\n            ^\nSyntaxError: invalid syntax\n',
        exception: { type: "SyntaxError", message: "invalid syntax" },
      }),
    );
    expect(py.question).toContain("`for x in`");
  });

  it("the runtime's echo of the program's source is not output: a comment's value there is no REPRODUCED", () => {
    const claim = {
      ...reported,
      kind: "output" as const,
      output: ["b'abc' but should raise"],
    };
    const py = matchRun(
      claim,
      run({
        exitCode: 1,
        stderr:
          "Traceback (most recent call last):\n  File \"/workspace/reproduction.py\", line 2, in <module>\n    print(base64.b64decode(b'YW Jj', ignorechars=b' '))  # prints b'abc' but should raise\n          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nTypeError: b64decode() got an unexpected keyword argument 'ignorechars'\n",
        exception: {
          type: "TypeError",
          message: "b64decode() got an unexpected keyword argument 'ignorechars'",
        },
      }),
    );
    expect(py.kind).not.toBe("match");
    const node = matchRun(
      { ...reported, kind: "output" as const, output: ["[ 1, 2, 4 ]"] },
      run({
        exitCode: 1,
        stderr:
          "/workspace/reproduction.cjs:1\nconsole.log([3, 1, 2].toSorted()); // [ 1, 2, 4 ]\n                       ^\n\nTypeError: [3,1,2].toSorted is not a function\n    at Object.<anonymous> (/workspace/reproduction.cjs:1:24)\n",
        exception: { type: "TypeError", message: "[3,1,2].toSorted is not a function" },
      }),
    );
    expect(node.kind).not.toBe("match");
    // The same text printed by the program itself still matches.
    const printed = matchRun(claim, run({ exitCode: 0, stdout: "b'abc' but should raise\n" }));
    expect(printed.kind).toBe("match");
  });

  it("a SyntaxError raised at run time (JSON.parse) is an ordinary failure", () => {
    const m = matchRun(
      reported,
      run({
        exitCode: 1,
        stderr:
          "/workspace/reproduction.cjs:1\nJSON.parse('{')\n\nSyntaxError: Unexpected end of JSON input\n    at JSON.parse (<anonymous>)\n    at Object.<anonymous> (/workspace/reproduction.cjs:1:6)\n",
        exception: { type: "SyntaxError", message: "Unexpected end of JSON input" },
      }),
    );
    expect(m.kind).toBe("different-failure");
  });

  it("a name the snippet never defines: NEEDS_INFO asking for it", () => {
    const m = matchRun(
      reported,
      run({ exitCode: 1, exception: { type: "ReferenceError", message: "rows is not defined" } }),
    );
    expect(m.question).toContain("`rows`");
  });

  it("an API newer than the sandbox's runtime is not a partial reproduction", () => {
    const m = matchRun(
      reported,
      run({ exitCode: 1, exception: { type: "TypeError", message: "list.toSorted is not a function" } }),
    );
    expect(m.kind).toBe("needs");
    expect(m.detail).toMatch(/needs Node\.js 20 or later/);
    expect(foldRuns([m]).verdict).toBe("NEEDS_INFO");
  });

  it("a timeout where no hang is reported is not PARTIAL", () => {
    expect(foldRuns([matchRun(reported, run({ exitCode: null, stoppedBy: "timeout" }))]).verdict).toBe(
      "NEEDS_INFO",
    );
  });

  it("a reported bare `Error: msg` matches the runtime's RangeError with that message", () => {
    const m = matchRun(
      {
        kind: "exception",
        exceptionType: "Error",
        exceptionMessage: "Invalid time value",
        output: [],
        source: "x",
      },
      run({ exitCode: 1, exception: { type: "RangeError", message: "Invalid time value" } }),
    );
    expect(m.kind).toBe("match");
  });
});

describe("versions stated only in prose", () => {
  it("reads environment lists, package.json lines and a version alone on its line", () => {
    expect(findVersionMentions("- padlib: 2.4.1\n- npm: 8.5.1")).toEqual([
      { name: "padlib", version: "2.4.1", style: "listing" },
    ]);
    expect(findVersionMentions('"padlib": "^3.10.1",')[0]).toMatchObject({
      name: "padlib",
      version: "3.10.1",
    });
    expect(findBareVersions("Release: v6.2.5")).toEqual(["6.2.5"]);
    expect(findBareVersions("v6.12.0 (the latest right now)")).toEqual(["6.12.0"]);
  });
});

describe("shell sessions", () => {
  it("turns `$ python3 -c '…'` invocations into code and transcripts; two interpreters are two versions", async () => {
    const { parseShellSession } = await import("../../../src/repro/shell-session.ts");
    const runs = parseShellSession(
      "$ node -pe 'require(\"os\").EOL.length'\n1\n$ python3 -c 'import json; print(json.dumps(1.0))'\n1.0\n",
    );
    expect(runs.map((r) => [r.interpreter, r.code, r.output])).toEqual([
      ["node", 'console.log(require("os").EOL.length);', ["1"]],
      ["python3", "import json; print(json.dumps(1.0))", ["1.0"]],
    ]);
    const md = `# fromhex raises the wrong error on PyPy\n\nIt raises \`TypeError\` instead of \`ValueError\`:\n\n${f}console\n$ python3.11 -c 'float.fromhex("zz")'\nTraceback (most recent call last):\n  File "<string>", line 1, in <module>\nValueError: invalid hexadecimal floating-point string\n$ pypy3.10 -c 'float.fromhex("zz")'\nTraceback (most recent call last):\n  File "<string>", line 1, in <module>\nTypeError: bad string\n${f}\n`;
    const { exp, program } = read(md);
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "TypeError" });
    expect(exp.actual.source).toMatch(/`pypy3.10` transcript/);
    expect(exp.expectedException?.type).toBe("ValueError");
    expect(program?.files["reproduction.py"]?.match(/fromhex/g)).toHaveLength(1);
    const m = matchRun(
      exp.actual,
      run({
        exitCode: 1,
        exception: { type: "ValueError", message: "invalid hexadecimal floating-point string" },
      }),
      exp.expectedOutput,
      exp.expectedException,
    );
    expect(m.kind).toBe("clean");
    expect(m.detail).toMatch(/the error the report shows as the correct behaviour/);
  });
});

describe("odd blocks", () => {
  it("a traceback pasted under the code in the same Python block is output, not code", () => {
    const { report, exp } = read(
      `# t\n\n${f}python\nimport json\njson.loads("{")\n---------------------------------------------------------------------------\nJSONDecodeError                           Traceback (most recent call last)\nJSONDecodeError: Expecting property name enclosed in double quotes\n${f}\n`,
    );
    expect(report.blocks.map((b) => b.kind)).toEqual(["code", "traceback"]);
    expect(report.blocks[0]!.value).toBe('import json\njson.loads("{")');
    expect(exp.actual.exceptionType).toBe("JSONDecodeError");
  });
  it("an indented fragment is dedented; interpreter modules are never installed", () => {
    const { program } = read(
      `# t\n\n${f}python\n    import _thread, sys; print(sys.maxsize > 0)\n    assert 1 == 1\n${f}\n`,
    );
    expect(program?.files["reproduction.py"]).toContain(
      "import _thread, sys; print(sys.maxsize > 0)\nassert 1 == 1",
    );
    expect(program?.dependencies).toEqual([]);
  });
});

describe("tracebacks pasted without their header, and excerpts of the reporter's code", () => {
  it("reads IPython frames with numbered source lines as a traceback, whatever the fence says", () => {
    const { report, exp } = read(
      `# t\n\nThe lookup fails:\n\n${f}python\nFile /opt/lib/python3.11/shelve.py:118, in Shelf.__getitem__(self, key)\n    116 try:\n--> 118     value = self.cache[key]\n    119 except KeyError:\n\nKeyError: 'colour'\n${f}\n\nThis shows it:\n\n${f}python\nimport shelve\nwith shelve.open("db") as s:\n    print(s["colour"])\n${f}\n`,
    );
    expect(report.blocks.map((b) => b.kind)).toEqual(["traceback", "code"]);
    expect(exp.actual).toMatchObject({
      kind: "exception",
      exceptionType: "KeyError",
      exceptionMessage: "'colour'",
    });
  });
  it("reads an IDE's `Exception has occurred` banner wrapped in emphasis, message without the asterisks", () => {
    const { report, exp } = read(
      `# t\n\n${f}\n*Exception has occurred: JSONDecodeError\n  File "/home/me/tool.py", line 4, in <module>\n    json.loads(raw)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)*\n${f}\n\n${f}\nimport json\nraw = ""\njson.loads(raw)\n${f}\n`,
    );
    expect(report.blocks.map((b) => b.kind)).toEqual(["traceback", "code"]);
    expect(exp.actual.exceptionType).toBe("json.decoder.JSONDecodeError");
    expect(exp.actual.exceptionMessage).toBe("Expecting value: line 1 column 1 (char 0)");
  });
  it("reads a copy that starts at `line N, in <module>` as the error, and the last exception line decides", () => {
    const { report, exp } = read(
      `# t\n\n${f}python\nn = 10 ** 5000\nprint(n)\n${f}\n\nIt stops with:\n\n${f}\nline 2, in <module>\n    print(n)\nValueError: Exceeds the limit (4300) for integer string conversion\n${f}\n`,
    );
    expect(report.blocks.map((b) => b.kind)).toEqual(["code", "traceback"]);
    expect(exp.actual).toMatchObject({ exceptionType: "ValueError" });
  });
  it("keeps a block of code with output lines under it as code (a statement of its own is not a traceback)", () => {
    const { report } = read(`# t\n\n${f}python\nimport os\nline 3, in f\nos.getcwd()\nValueError: x\n${f}\n`);
    expect(report.blocks[0]!.kind).toBe("code");
  });
  it("leaves out an excerpt (`...` before or after it) when another block stands on its own", () => {
    const { program } = read(
      `# t\n\nIn my project:\n\n${f}python\n...\nif key not in table:\n...\n${f}\n\nStandalone:\n\n${f}python\ntable = {"a": 1}\nprint("b" in table)\n${f}\n`,
    );
    expect(program?.files["reproduction.py"]).toContain('print("b" in table)');
    expect(program?.files["reproduction.py"]).not.toContain("if key not in table");
  });
  it("still runs an excerpt when it is all the report has", () => {
    const { program } = read(`# t\n\n${f}js\nconst x = [1, 2].at(-1);\nconsole.log(x);\n...\n${f}\n`);
    expect(program?.files["reproduction.cjs"]).toContain("[1, 2].at(-1)");
  });
});

describe("status marks and the snippet's own assertions", () => {
  it("reads `// ❌ AssertionError [ERR_ASSERTION]: …` as the error of the flagged line; `// ✔️ Pass` is no value", () => {
    expect(parseAnnotation(" ❌ AssertionError [ERR_ASSERTION]: 3 == 4")).toMatchObject({
      role: "actual",
      kind: "error",
      value: "AssertionError [ERR_ASSERTION]: 3 == 4",
      flagged: true,
    });
    expect(parseAnnotation(" ✔️ Pass")).toBeNull();
    expect(parseAnnotation(" ✅ 12")).toMatchObject({ value: "12", flagged: false });
    const { exp } = read(
      `# t\n\n${f}js\nconst { strictEqual } = require("assert");\nconst list = [3, 1];\nconst copy = list.slice();\ncopy.sort();\nstrictEqual(copy.length, 2); // ✔️ Pass\nstrictEqual(list[0], 3); // ❌ AssertionError [ERR_ASSERTION]: 1 == 3\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "AssertionError" });
  });
  it("takes a Python `assert` as the claim when the report states nothing else; holding is not a reproduction", () => {
    const { exp } = read(
      `# t\n\nThis used to work.\n\n${f}python\nimport textwrap\nassert textwrap.dedent("  a\\n  b") == "a\\nb", "not dedented"\n${f}\n`,
    );
    expect(exp.actual.kind).toBe("exception");
    expect(exp.actual.exceptionType).toBe("AssertionError");
    expect(exp.actual.source).toMatch(/own assertion \(`assert textwrap\.dedent/);
    const failed = matchRun(
      exp.actual,
      run({ exitCode: 1, exception: { type: "AssertionError", message: "not dedented" } }),
    );
    expect(failed.kind).toBe("match");
    expect(matchRun(exp.actual, run({})).kind).toBe("clean");
  });
  it("finds Node's assert under any name it is bound to, and `self.assert…` in a TestCase", () => {
    const js = read(
      `# t\n\n${f}js\nimport * as check from "node:assert/strict";\ncheck.deepEqual([1].concat(2), [1, 2]);\n${f}\n`,
    );
    expect(js.exp.actual.source).toMatch(/check\.deepEqual/);
    const py = read(
      `# t\n\n${f}python\nimport unittest\nclass T(unittest.TestCase):\n    def test_it(self):\n        self.assertEqual(len("ab"), 2)\nunittest.main()\n${f}\n`,
    );
    expect(py.exp.actual.source).toMatch(/self\.assertEqual/);
  });
  it("does not let an assertion override what the report itself says happens", () => {
    const { exp } = read(
      `# t\n\n${f}python\nx = int("7")\nassert x == 7\nprint(x + 1)\n${f}\n\nOutput:\n\n${f}\n9\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["9"] });
  });
});

describe("two transcripts: which side is the bug", () => {
  const session = (version: string, printed: string) =>
    `${f}python\n>>> import sys; print(sys.version)\n${version} (main, Jan 1 2024, 00:00:00) [GCC 12.2.0]\n>>> sorted({3, 1, 2}, key=str)\n${printed}\n${f}`;
  it("the title names where it goes wrong; lines both print and version banners are not the claim", () => {
    const { exp } = read(
      `# sorted() with key=str misorders sets in Python 3.13\n\nOn Python 3.12 it works:\n\n${session("3.12.1", "[1, 2, 3]")}\n\nOn Python 3.13 it does not:\n\n${session("3.13.0", "[2, 1, 3]")}\n`,
    );
    expect(exp.twoVersions?.bad?.label).toBe("3.13");
    expect(exp.actual.output).toEqual(["[2, 1, 3]"]);
    expect(exp.expectedOutput).toEqual(["[1, 2, 3]"]);
    expect(exp.actual.source).toMatch(/title names `3\.13`/);
  });
  it("a line the reporter marks (`# Missing 1 (!)`) is on the bad side, and the comment is not printed output", () => {
    const { exp } = read(
      `# sorted() and sets\n\nFirst machine:\n\n${session("3.12.1", "[1, 2, 3]")}\n\nSecond machine:\n\n${session("3.13.0", "[2, 3]  # Missing 1 (!)")}\n`,
    );
    expect(exp.twoVersions?.bad?.label).toBe("Second machine");
    expect(exp.actual.output).toEqual(["[2, 3]"]);
  });
  it("a title naming both sides decides nothing by itself", () => {
    const { exp } = read(
      `# sorted() differs between 3.12 and 3.13\n\nOn Python 3.12:\n\n${session("3.12.1", "[1, 2, 3]")}\n\nOn Python 3.13:\n\n${session("3.13.0", "[2, 1, 3]")}\n`,
    );
    expect(exp.twoVersions?.bad).toBeNull();
    expect(exp.actual.kind).toBe("unknown");
  });
});

describe("a call quoted in prose, with the package named only in the version line", () => {
  it("imports a free function from the one package the report names, echoes the call, reads `gives back`", () => {
    const { exp, program } = read(
      "# t\n\nUsing tinydate@1.2.0.\n\n`formatStamp(new Date(0), 'YYYY')` gives back `1969`, not `1970`.\n",
    );
    const code = program?.files["reproduction.cjs"] ?? "";
    expect(code).toContain('const { formatStamp } = require("tinydate");');
    expect(code).toContain("_echo(formatStamp(new Date(0), 'YYYY'));");
    expect(exp.actual.output).toEqual(["1969"]);
  });
  it("adds nothing when the code imports from the package, defines the function, or calls a global", () => {
    const own = read(
      "# t\n\nUsing tinydate@1.2.0.\n\n```js\nfunction stamp(d) { return d.getTime(); }\nconsole.log(stamp(new Date(0)), parseInt('7'));\n```\n",
    ).program;
    expect(own?.files["reproduction.cjs"]).not.toContain('require("tinydate")');
    const two = read(
      "# t\n\nUsing tinydate@1.2.0 and slowclock@2.0.0.\n\n`formatStamp(new Date(0))` gives `x`\n",
    ).program;
    expect(two?.files["reproduction.cjs"]).not.toMatch(/formatStamp \}/);
  });
  it("echoes an expression whose name starts like a keyword (`format(…)`, `docs(…)`)", () => {
    expect(annotate("format(d) // => 'x'", "javascript").code).toBe("_echo(format(d)); // => 'x'");
    expect(annotate("format(d)  # => 'x'", "python").code).toBe("_echo(format(d))  # => 'x'");
  });
});

describe("shell sessions that run a script file", () => {
  it("reads `$ python3.x file.py` runs on two interpreters as two sides; `since 3.13` marks the bad one", () => {
    const script = `${f}python\n# show.py\nprint(round(2.675, 2))\nprint("done")\n${f}`;
    const { exp, program } = read(
      `# round() changed\n\nSince 3.13 the rounding differs.\n\n${script}\n\n${f}console\n$ python3.12 show.py\n2.67\ndone\n${f}\n\n${f}console\n$ python3.13 show.py\n2.68\ndone\n${f}\n`,
    );
    expect(exp.twoVersions?.sides.map((s) => s.label)).toEqual(["python3.12", "python3.13"]);
    expect(exp.twoVersions?.bad?.label).toBe("python3.13");
    expect(exp.actual.output).toEqual(["2.68"]);
    expect(exp.expectedOutput).toEqual(["2.67"]);
    expect(program?.files["reproduction.py"]).toContain("print(round(2.675, 2))");
  });
  it("takes the run with arguments as the claim (the one the program runs as), its output up to the next prompt", () => {
    const { exp, program } = read(
      `# t\n\n${f}js\nconst n = Number(process.argv[2]);\nconsole.log(n * 2);\n${f}\n\n${f}\n$ node double.js\nNaN\n$ node double.js 4\n9\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["9"] });
    expect(exp.actual.source).toMatch(/node double\.js 4/);
    expect(program?.args).toEqual(["4"]);
  });
});

describe("two versions' values stated in prose", () => {
  it("ties each value to its version, and the words after a value say which is right", () => {
    expect(
      versionedClaims("On Node 16.20 this prints `ok`, on Node 20.1 `fail`. With 1.4.0 the result was '3'."),
    ).toEqual([
      { label: "16.20", value: "ok" },
      { label: "20.1", value: "fail" },
      { label: "1.4.0", value: "3" },
    ]);
    const { exp } = read(
      "# t\n\n```js\nconst slug = require('slugmaker');\nslug('Ä b');\n```\n\nWith 3.1.0 the result was 'a-b' (which is right). With 3.2.0 it is 'b'.\n",
    );
    expect(exp.actual.output).toEqual(["b"]);
    expect(exp.expectedOutput).toEqual(["a-b"]);
    expect(exp.actual.source).toMatch(/calls 3\.1\.0's result right/);
  });
  it("a regression makes the later version the broken one; the title naming one version decides too", () => {
    expect(
      proseTwoVersions("Regression in slug()", "It gives `b` in 3.2.0, gave `a-b` in 3.1.0."),
    ).toMatchObject({
      bad: { label: "3.2.0", value: "b" },
      good: { label: "3.1.0", value: "a-b" },
    });
    expect(
      proseTwoVersions("slug() and Python 3.12", "on Python 3.11 this prints `x`, on Python 3.12 `y`"),
    ).toMatchObject({ bad: { label: "3.12" }, why: "the title names 3.12" });
    expect(
      proseTwoVersions("slug() differs", "on Python 3.11 this prints `x`, on Python 3.12 `y`"),
    ).toBeNull();
  });
  it("echoes the last expression of a snippet that prints nothing, as the REPL it was typed into", () => {
    const { program } = read("# t\n\n```js\nconst slug = require('slugmaker');\nslug('Ä b');\n```\n");
    expect(program?.files["reproduction.cjs"]).toContain("_echo(slug('Ä b'));");
    expect(program?.completions.join(" ")).toMatch(/value of the last expression/);
    const printing = read(
      "# t\n\n```js\nconst slug = require('slugmaker');\nconsole.log(slug('Ä b'));\nslug('c');\n```\n",
    );
    expect(printing.program?.files["reproduction.cjs"]).not.toContain("_echo(");
  });
});

describe("unfenced output under a label", () => {
  it("reads the lines after `**result：**` (full-width colon, stray emphasis) up to a separator or a sentence", () => {
    const { report, exp } = read(
      "# t\n\n**\n**code：**\n**\nconst parts = 'a,b'.split(',');\nconsole.log('count:', parts.length);\n\n**\n**result：**\n**\n\ncount: 3\n- first\n\n++++++\nThe count should be 2, I think it is a bug.\n",
    );
    const out = report.blocks.find((b) => b.kind === "output");
    expect(out?.section).toBe("actual");
    expect(out?.value).toBe("count: 3\n- first");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["count: 3", "- first"] });
  });
  it("does not take prose after a label that is not an output label", () => {
    const { report } = read("# t\n\n**Environment：**\n\nnode 18 on linux\n");
    expect(report.blocks.filter((b) => b.kind === "output")).toEqual([]);
  });
});

describe("comments giving one value per runtime or version", () => {
  it("reads `CPython: x   PyPy: y` and `x in Brython, y in Python` as sides, the reference runtime the right one", () => {
    expect(parseAnnotation(" CPython: None        PyPy: <re.Match span=(0,0) match=''>")?.sides).toEqual([
      { label: "CPython", value: "None" },
      { label: "PyPy", value: "<re.Match span=(0,0) match=''>" },
    ]);
    expect(parseAnnotation(' "2e+21" in Skulpt, "2000000000000000000000" in Python')?.sides).toEqual([
      { label: "Skulpt", value: "2e+21" },
      { label: "Python", value: "2000000000000000000000" },
    ]);
    // One label, or one value for both: not sides.
    expect(parseAnnotation(" CPython: None")?.sides).toBeUndefined();
    expect(parseAnnotation(" 3 in Python, 3 in PyPy")?.sides).toBeUndefined();
    const { exp } = read(
      `# big powers print as floats\n\n${f}python\nprint(2 * 10**21)  # "2e+21" in Skulpt, "2000000000000000000000" in Python\nprint(7 // 2)  # 3.5 in Skulpt, 3 in Python\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["2e+21", "3.5"] });
    expect(exp.expectedOutput).toEqual(["2000000000000000000000", "3"]);
    // The run on CPython printing the reference values is the expected behaviour, never a reproduction.
    expect(
      matchRun(exp.actual, run({ stdout: "2000000000000000000000\n3\n" }), exp.expectedOutput).kind,
    ).toBe("clean");
  });
  it("reads `# output in python 3.10:` / `# output in python 3.11 onwards` under a statement; a change complained of makes the later version the reported one", () => {
    const md = (words: string) =>
      `# repr order ${words}\n\n${f}python\nfrom enum import IntFlag\nclass P(IntFlag):\n    R = 1\n    W = 2\nprint(\n    repr(P.R | P.W)\n)\n# output in python 3.10:\n# <P.W|R: 3>\n# output in python 3.11 onwards\n# <P.R|W: 3>\n${f}\n`;
    const changed = read(md("differs from before"));
    expect(changed.exp.actual).toMatchObject({ kind: "output", output: ["<P.R|W: 3>"] });
    expect(changed.exp.expectedOutput).toEqual(["<P.W|R: 3>"]);
    // Nothing says which version is wrong: neither is claimed.
    expect(read(md("between versions")).exp.actual.kind).toBe("unknown");
    // The words about a version decide first.
    const fixed = read(`${md("between versions")}\nThe 3.10 output is wrong.\n`);
    expect(fixed.exp.actual).toMatchObject({ output: ["<P.W|R: 3>"] });
  });
  it("ties an annotation on its own line to a call spanning several lines (`#result is '…'`)", () => {
    const { exp, program } = read(
      `# t\n\n${f}\nfrom urllib.parse import urljoin\nprint(urljoin('http://h/a/b',\n              'c')\n      )\n#result is 'http://h/a/x'\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["'http://h/a/x'"] });
    expect(program?.files["reproduction.py"]).toContain(
      "print(urljoin('http://h/a/b',\n              'c')\n      )",
    );
  });
});

describe("a REPL's SyntaxError without a traceback header", () => {
  it("is the error the session ended with, not printed output", () => {
    const { exp } = read(
      `# t\n\n${f}python\n>>> print(\\"hi\\")\n  File "<stdin>", line 1\n    print(\\"hi\\")\n          ^\nSyntaxError: unexpected character after line continuation character\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({
      kind: "exception",
      exceptionType: "SyntaxError",
      exceptionMessage: "unexpected character after line continuation character",
    });
  });
});

describe("REPL sessions in odd shapes", () => {
  it("reads one block holding a PyPy and a CPython session as two sides, CPython the reference", () => {
    const md = [
      "# str() of a float differs from CPython",
      "",
      f,
      "$ pypy3",
      "Python 3.9.18 (abc, Jan 01 2024, 00:00:00)",
      "[PyPy 7.3.15 with GCC 10.2.1] on linux",
      ">>>> str(1e16)",
      "'1e16'",
      "",
      "$ python3.9",
      "Python 3.9.18 (main, Jan 01 2024, 00:00:00)",
      ">>> str(1e16)",
      "'1e+16'",
      f,
      "",
    ].join("\n");
    const { report, exp } = read(md);
    expect(report.blocks.map((b) => b.kind)).toEqual(["python-transcript", "python-transcript"]);
    expect(exp.twoVersions?.bad?.label).toBe("pypy3");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["'1e16'"] });
    expect(exp.expectedOutput).toEqual(["'1e+16'"]);
    // A CPython run printing the CPython side is the expected behaviour, never the reported one.
    expect(matchRun(exp.actual, run({ stdout: "'1e+16'\n" }), exp.expectedOutput).kind).toBe("clean");
  });
  it("reads a REPL session pasted without a fence (markdown's nested quotes) up to its SyntaxError", () => {
    const md =
      '# error\n\nIn the terminal:\n\nPython 3.11.4 (main) on darwin\n>>> pip install six\n  File "<stdin>", line 1\n    pip install six\n        ^^^^^^^\nSyntaxError: invalid syntax\n\nThanks.\n';
    const { report, exp, program } = read(md);
    expect(report.blocks.map((b) => b.kind)).toEqual(["python-transcript"]);
    expect(exp.actual).toMatchObject({
      kind: "exception",
      exceptionType: "SyntaxError",
      exceptionMessage: "invalid syntax",
    });
    // Not echoed: two names side by side are no expression, so the line runs as typed.
    expect(program?.files["reproduction.py"]).toMatch(/^pip install six$/m);
  });
});

describe("a report whose only code is in its stack trace", () => {
  const ciLog = [
    "# `colorpad` breaks our build since 2.1.0",
    "",
    "Our CI fails with ReferenceError: structuredClone is not defined since `colorpad` 2.1.0.",
    "",
    f,
    "10:02:11      [exec] ReferenceError: structuredClone is not defined",
    "10:02:11      [exec]     at padAll (/srv/app/node_modules/colorpad/dist/pad.cjs:88:5)",
    "10:02:11      [exec]     at Object.<anonymous> (/srv/app/node_modules/colorpad/dist/index.cjs:12:3)",
    "10:02:11      [exec]     at Module._compile (node:internal/modules/cjs/loader:1198:14)",
    "10:02:11      [exec]     at Module.require (node:internal/modules/cjs/loader:1100:19)",
    "10:02:11      [exec]     at require (node:internal/modules/cjs/helpers:119:18)",
    "10:02:11      [exec]     at Object.<anonymous> (/srv/app/tools/banner.js:5:16)",
    f,
  ].join("\n");

  it("reads a CI log's error and stack without the log's own prefix", () => {
    expect(withoutLogPrefix("09:47:19  [exec] TypeError: x\n09:47:19  [exec]     at f (/a.js:1:2)")).toBe(
      "TypeError: x\n    at f (/a.js:1:2)",
    );
    expect(
      withoutLogPrefix("2024-05-01T12:00:00.123Z Error: boom\n2024-05-01T12:00:00.124Z     at g (/b.js:3:4)"),
    ).toBe("Error: boom\n    at g (/b.js:3:4)");
    // Every line must carry a prefix; one line alone is not a log.
    expect(withoutLogPrefix("09:47:19 [exec] TypeError: x\n    at f (/a.js:1:2)")).toBeNull();
    expect(withoutLogPrefix("09:47:19 [exec] TypeError: x")).toBeNull();
    const { report, exp } = read(ciLog);
    expect(report.blocks[0]).toMatchObject({ kind: "error-output" });
    expect(exp.actual).toMatchObject({
      kind: "exception",
      exceptionType: "ReferenceError",
      exceptionMessage: "structuredClone is not defined",
    });
  });

  it("runs `require` of a package the trace shows throwing while it was loaded", () => {
    const { program } = read(ciLog);
    expect(program?.files[program.entry]).toContain('const colorpad = require("colorpad");');
    expect(program?.completions[0]).toMatch(/while `colorpad` was being loaded/);
  });

  it("leaves a trace alone when the package loading is one the report does not name, or nothing was loading", () => {
    const dependency = ciLog.replace(/colorpad/g, "leftpadder").replace("`leftpadder` 2.1.0", "our tool");
    const other = read(
      dependency.replace("# `leftpadder` breaks our build since 2.1.0", "# Our build broke"),
    );
    expect(other.program).toBeNull();
    const runtime = read(
      [
        "# crash",
        "",
        "`colorpad` crashes:",
        "",
        f,
        "TypeError: s.padStart is not a function",
        "    at pad (/srv/app/node_modules/colorpad/dist/pad.cjs:88:5)",
        "    at main (/srv/app/tools/banner.js:9:3)",
        f,
      ].join("\n"),
    );
    expect(runtime.program).toBeNull();
  });

  it("runs a traceback's first frame when it is a top-level import, and nothing else it shows", () => {
    const tb = (line: string) =>
      [
        "# importing fails",
        "",
        f,
        "Traceback (most recent call last):",
        '  File "/home/me/run.py", line 3, in <module>',
        `    ${line}`,
        '  File "/usr/lib/python3.11/json/__init__.py", line 106, in <module>',
        "    from .decoder import JSONDecoder, JSONDecodeError",
        "ImportError: cannot import name 'JSONDecodeError'",
        f,
      ].join("\n");
    const imported = read(tb("from json import loads"));
    expect(imported.program?.files[imported.program.entry]).toContain("from json import loads");
    expect(imported.program?.completions[0]).toMatch(/first frame/);
    // A call on names the report never defines is not runnable on its own.
    expect(read(tb("data = parse_config(path)")).program).toBeNull();
  });
});

describe("section headings in other words", () => {
  it("reads 'What should happen' / 'What I expected' as the expected section, 'What I get' as the actual one", () => {
    for (const heading of [
      "### What should happen",
      "### What I expected",
      "**Intended behaviour**",
      "### What is the expected output?",
      "Ideally:",
    ]) {
      const { report, exp } = read(
        `# odd sum\n\n${f}js\nconst sum = require('sumit');\nconsole.log(sum(1, 2));\n${f}\n\n${heading}\n\n${f}\n3\n${f}\n\n### What I get\n\n${f}\n12\n${f}\n`,
      );
      expect(report.blocks.map((b) => b.section)).toEqual(["other", "expected", "actual"]);
      expect(exp.actual).toMatchObject({ kind: "output", output: ["12"] });
      expect(exp.expectedOutput).toEqual(["3"]);
    }
  });
});

describe("an error message quoted in the words that say it fails", () => {
  const report = (words: string) =>
    `# parse fails\n\n${f}js\nconst when = require('whenish');\nconsole.log(when.parse('31/02/2020'));\n${f}\n\n${words}\n`;

  it("is the claim, with no exception name: raised or printed on stderr, it reproduces", () => {
    const { exp } = read(report("It throws `Invalid day of month` on this input."));
    expect(exp.actual).toMatchObject({
      kind: "exception",
      exceptionType: "Error",
      exceptionMessage: "Invalid day of month",
    });
    const raised = run({
      exitCode: 1,
      stderr: "RangeError: Invalid day of month\n    at parse (/w/node_modules/whenish/index.js:3:9)",
      exception: { type: "RangeError", message: "Invalid day of month" },
    });
    expect(matchRun(exp.actual, raised).kind).toBe("match");
    const printed = run({ exitCode: 1, stderr: "error: Invalid day of month (31/02/2020)" });
    expect(matchRun(exp.actual, printed).kind).toBe("match");
    // Printed on stdout as a value, or another error: not the reported failure.
    expect(matchRun(exp.actual, run({ stdout: "Invalid day of month" })).kind).toBe("clean");
    expect(
      matchRun(
        exp.actual,
        run({ exitCode: 1, stderr: "TypeError: x", exception: { type: "TypeError", message: "x" } }),
      ).kind,
    ).toBe("different-failure");
  });

  it("is not the claim when the words say it should fail so, or quote code", () => {
    for (const words of [
      "It should throw `Invalid day of month` here, but it returns a date.",
      "I expected it to fail with `Invalid day of month`.",
      "It does not throw `Invalid day of month`.",
      "It throws on `when.parse('31/02/2020')`.",
      "It used to throw `Invalid day of month`; now it returns a date.",
      "With 2.0 it throws `Invalid day of month`, with 3.0 it returns a date.",
    ])
      expect(read(report(words)).exp.actual.exceptionMessage ?? null).not.toBe("Invalid day of month");
    expect(read(report("It should throw `Invalid day of month` here.")).exp.actual.kind).not.toBe(
      "exception",
    );
  });
});
