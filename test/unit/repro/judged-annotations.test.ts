/**
 * Classes of report the real-report test split and the tainted hold sets showed unread (issue 12, rp12b round):
 * a repr written as a comment's value (`# Fraction(1, 3)`), a line the reporter marks as working beside the one
 * marked wrong, "X in <version> instead of Y", `assert(...)` written with a call's parentheses, a bare value
 * commented under a print, `// unexpected: …`, a function body's `return x; // value` pasted as the snippet,
 * and a Windows shell's `> python script.py` prompt. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { annotate, parseAnnotation } from "../../../src/repro/annotations.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseShellSession } from "../../../src/repro/shell-session.ts";

const f = "```";
const read = (md: string) => {
  const report = parseReport(md);
  const exp = reportedExpectations(report);
  return { report, exp, program: completeProgram(report, exp.invocation) };
};

describe("a constructor-style repr as a comment's value", () => {
  it("is a value, so the line is echoed and compared", () => {
    expect(parseAnnotation(" Fraction(2, 3)")).toMatchObject({ role: "actual", value: "Fraction(2, 3)" });
    expect(parseAnnotation("datetime.date(2021, 3, 4)")).toMatchObject({
      value: "datetime.date(2021, 3, 4)",
    });
    expect(parseAnnotation("gives IPv4Address('10.0.0.1')")).toMatchObject({
      value: "IPv4Address('10.0.0.1')",
    });
  });

  it("a call on names, or a sentence, is still a plain comment", () => {
    expect(parseAnnotation(" see frobnicate(x)")).toBeNull();
    expect(parseAnnotation(" Helper(config)")).toBeNull();
    expect(parseAnnotation(" now call Fraction(1, 2) again")).toBeNull();
  });
});

describe("a line marked as working beside one marked wrong", () => {
  it("only the wrong one is the claim", () => {
    const a = annotate(
      "from fractions import Fraction\nFraction('0.25').limit_denominator(3)  # Fraction(1, 3)  correct\nFraction('0.125').limit_denominator(7)  # Fraction(1, 7) wrong\n",
      "python",
    );
    expect(a.checks.map((c) => [c.role, c.value, c.flagged])).toEqual([["actual", "Fraction(1, 7)", true]]);
    expect(a.code).toContain("_echo(Fraction('0.125').limit_denominator(7))");
    expect(a.code).not.toContain("_echo(Fraction('0.25')");
  });

  it("a word that is the value itself is not a remark", () => {
    expect(parseAnnotation(" ok")).toBeNull();
    expect(parseAnnotation(" => 'ok'")).toMatchObject({ value: "'ok'" });
  });
});

describe("X in <version> instead of Y", () => {
  it("the first value is the claim and the second the expected one", () => {
    expect(parseAnnotation(" returns false in 2.4.1 instead of true")).toMatchObject({
      role: "actual",
      value: "false",
      instead: "true",
    });
    expect(parseAnnotation(" 0 instead of 1")).toMatchObject({ value: "0", instead: "1" });
    const { exp, program } = read(
      `# hostnames refused\n\n${f}\nchecker.isHost("svc-1:8080", { strict: false });  // returns false in 2.4.1 instead of true\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["false"] });
    expect(exp.expectedOutput).toEqual(["true"]);
    expect(program?.completions.join(" ")).toContain('printed the value of `checker.isHost("svc-1:8080"');
  });

  it("prose after 'instead of' is not a value", () => {
    expect(parseAnnotation(" false instead of what the docs describe for it")?.instead).toBeUndefined();
  });
});

describe("assert written as a call", () => {
  it("`assert(a == b)` is the snippet's own assertion", () => {
    const { exp } = read(
      `# keys change type\n\n${f}python\nimport pickle\nd = {1: 'x'}\ne = pickle.loads(pickle.dumps(d))\nassert(list(d) == list(e))\n${f}\n\nThe assert should pass.\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "AssertionError" });
    expect(exp.actual.source).toContain("assert(list(d) == list(e))");
  });

  it("a name that starts with assert is not one", () => {
    const { exp } = read(`# x\n\n${f}python\nassertions = [1]\nprint(assertions)\n${f}\n`);
    expect(exp.actual.kind).not.toBe("exception");
  });
});

describe("a value commented on its own line under a print", () => {
  it("is what the print showed", () => {
    const a = annotate(
      "import statistics\nprint(statistics.mode([1, 1, 2]))\n# 1\nprint(statistics.quantiles([1, 2, 3, 4], n=2))\n# [2.5]\n# (on every run)\n",
      "python",
    );
    expect(a.checks.map((c) => c.value)).toEqual(["1", "[2.5]"]);
    expect(a.code).toContain("print(statistics.mode([1, 1, 2]))");
  });

  it("a prose comment, or one under a statement that prints nothing, is not", () => {
    const a = annotate("x = [3, 1]\n# 2\nprint(sorted(x))\n# sorted copy here\n", "python");
    expect(a.checks).toEqual([]);
    // The first line of an object printed over several comment lines is no value of its own.
    const js = annotate('console.log(JSON.stringify(o, null, 2));\n// {\n//   "a": 1\n// }\n', "javascript");
    expect(js.checks).toEqual([]);
  });
});

describe("`// unexpected: …` under the statement", () => {
  it("is the claim, flagged as wrong", () => {
    const a = annotate(
      "const p = require('argz')\nconsole.log(p.parse('--a-b.c'));\n\n// unexpected: { 'a-b': { c: true } }\n",
      "javascript",
    );
    expect(a.checks.map((c) => [c.role, c.value, c.flagged])).toEqual([
      ["actual", "{ 'a-b': { c: true } }", true],
    ]);
  });
});

describe("a function body pasted as the snippet", () => {
  it("`return x; // value` at the top level echoes x", () => {
    const { program, exp } = read(
      "# wrong day\n\ncode:\n\nlet out=luxonish('01.02.2020','YYYY-MM-DD').toISO();\nreturn out;// 2001-02-20\n",
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["2001-02-20"] });
    expect(program?.files[program.entry]).toContain("_echo(out);");
  });

  it("a return inside a function is left alone", () => {
    const a = annotate("function f() {\nreturn 2; // 2\n}\nf();", "javascript");
    expect(a.code).toContain("return 2; // 2");
    expect(a.code).not.toContain("_echo(2)");
  });
});

describe("a Windows shell's `>` prompt running a script", () => {
  it("is a shell session with one run per prompt", () => {
    const runs = parseShellSession(
      "> python tool.py --name=\"a b\"\nNamespace(name='a b')\n> python tool.py --bad\nusage: tool.py [-h]\n",
    );
    expect(runs.map((r) => [r.script?.file, r.script?.args, r.output])).toEqual([
      ["tool.py", ["--name=a b"], ["Namespace(name='a b')"]],
      ["tool.py", ["--bad"], ["usage: tool.py [-h]"]],
    ]);
  });

  it("the run the report calls wrong is the claim, read with its arguments", () => {
    const { exp } = read(
      `# option swallowed\n\n${f}python\nimport argparse\np = argparse.ArgumentParser()\np.add_argument("rest", nargs="*")\nprint(p.parse_args())\n${f}\n\nWhat happens:\n${f}\n> python tool.py --zz="x y"\nNamespace(rest=['--zz=x y'])\n${f}\n`,
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["Namespace(rest=['--zz=x y'])"] });
    expect(exp.invocation).toEqual({ file: "tool.py", args: ["--zz=x y"] });
  });

  it("Node's REPL prompt is still a REPL", () => {
    const { report } = read(`# r\n\n${f}\n> [1, 2].at(-1)\n2\n${f}\n`);
    expect(report.blocks[0]!.kind).toBe("node-transcript");
  });
});

describe("labelled lines with an unquoted array, and a documentation signature", () => {
  it("`result:` / `expect:` before a bare array are the claim and the expected value", () => {
    const { exp, program } = read(
      "# pairs wrong\n\n_.pairUp(list, [n=2])\n\n_.pairUp([ 'a', 'b', 'c', 'd' ],2)\n\nresult:  [['a', 'b', 'c', 'd']]\n\nexpect:  [['a', 'b'], ['c', 'd']]\n",
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["[['a', 'b', 'c', 'd']]"] });
    expect(exp.expectedOutput).toEqual(["[['a', 'b'], ['c', 'd']]"]);
    const code = program?.files[program.entry] ?? "";
    expect(code).toContain("_echo(_.pairUp([ 'a', 'b', 'c', 'd' ],2));");
    // The signature names the function; it is not run.
    expect(code).not.toContain("[n=2]");
  });
});

describe("unfenced prints, each followed by the value it showed", () => {
  it("each value is its print's result", () => {
    const { exp, program } = read(
      "# wrong ratios\n\nThese come back wrong.\nprint(Ratio(1.1))\n1/1\nprint(Ratio(1.3))\n13/10\n\nThat is all.\n",
    );
    expect(exp.actual).toMatchObject({ kind: "output", output: ["1/1", "13/10"] });
    expect(program?.files[program.entry]).toContain("print(Ratio(1.3))");
  });

  it("a sentence after a print is not its value", () => {
    const { exp } = read("# x\n\nprint(Ratio(1.1))\nThis prints nothing useful.\n");
    expect(exp.actual.output).toEqual([]);
  });
});

describe("a package.json line after a 'Version :' label", () => {
  it("pins the package it names", async () => {
    const { findVersionMentions } = await import("../../../src/repro/versions.ts");
    expect(findVersionMentions('Version : "left-pad": "^1.3.0",\n')).toEqual([
      { name: "left-pad", version: "1.3.0", style: "listing" },
    ]);
    // A bare "version: 1.2.3" names no package.
    expect(findVersionMentions("version: 1.2.3\n")).toEqual([]);
  });
});

describe("a run that dies on the report's own typo after printing part of the claim", () => {
  it("is PARTIAL, not a question about the undefined name", async () => {
    const { matchRun } = await import("../../../src/repro/match.ts");
    const reported = {
      kind: "output" as const,
      exceptionType: null,
      exceptionMessage: null,
      output: ["1-52-2021", "2-52-2021"],
      source: "",
    };
    const died = {
      exitCode: 1,
      stoppedBy: null,
      stdout: "1-52-2021\n",
      stderr: "ReferenceError: log is not defined\n",
      exception: { type: "ReferenceError", message: "log is not defined" },
      durationMs: 5,
    };
    expect(matchRun(reported, died).kind).toBe("different-failure");
    // Nothing of the claim printed: the undefined name is still what the report must give.
    expect(matchRun(reported, { ...died, stdout: "" }).kind).toBe("needs");
  });
});
