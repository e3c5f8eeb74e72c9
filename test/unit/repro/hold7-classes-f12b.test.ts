/**
 * Classes from the hold7 misses (issue 12, fixer f12b): a fenced block under "Current Behaviour" / "Expected
 * Behaviour" (or after "fails, with this message:") that is one value and not a program, and letter case kept
 * when a run's output is compared with a report's (`"A1b"` is not `'A1B'`). Every report here is written for
 * these tests; each rule has a case where it must not fire.
 */
import { inspect } from "node:util";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { JS_ECHO_PRELUDE, parseAnnotation, splitComment } from "../../../src/repro/annotations.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { looseKey } from "../../../src/repro/normalize.ts";
import { loneValue, parseReport } from "../../../src/repro/parse-report.ts";
import { plainCodeRuns } from "../../../src/repro/plain-code.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { JS_BIND_PACKAGE } from "../../../src/repro/repository-binding.ts";
import { testGlobalsNeeded, testGlobalsPrelude } from "../../../src/repro/test-globals.ts";

const f = "```";
const read = (md: string) => {
  const report = parseReport(md);
  return { report, exp: reportedExpectations(report) };
};

const headed = [
  "# slugify keeps the trailing dash",
  "",
  "# Steps",
  "",
  `${f}js`,
  'slugify("Hello World -", { lower: true });',
  f,
  "",
  "# Current Behaviour",
  "",
  `${f}js`,
  '"hello-world-"',
  f,
  "",
  "# Expected Behaviour",
  "",
  `${f}js`,
  '"hello-world"',
  f,
].join("\n");

describe("a lone value in a code fence under an Actual / Expected heading", () => {
  it("is the output the heading names, not more code to run", () => {
    const { report, exp } = read(headed);
    expect(report.blocks.map((b) => b.kind)).toEqual(["code", "output", "output"]);
    expect(exp.actual.output).toEqual(['"hello-world-"']);
    expect(exp.expectedOutput).toEqual(['"hello-world"']);
  });

  it("after 'fails, with this message:' is the error the code gave", () => {
    const md = [
      "# parse fails",
      "",
      `${f}js`,
      'TOML.parse("a = [1, 2,");',
      f,
      "",
      "fails, with this message:",
      "",
      `${f}js`,
      'SyntaxError {message: "Unexpected end", at: 10}',
      f,
    ].join("\n");
    expect(read(md).report.blocks.map((b) => b.kind)).toEqual(["code", "output"]);
  });

  it("stays code when it is the report's first block, or a program of several lines", () => {
    const first = ["# x", "", "# Current Behaviour", "", `${f}js`, '"hello-world-"', f].join("\n");
    expect(read(first).report.blocks.map((b) => b.kind)).toEqual(["code"]);
    const program = headed.replace('"hello-world-"', 'const s = slugify("a -");\nconsole.log(s);');
    expect(read(program).report.blocks.map((b) => b.kind)).toEqual(["code", "code", "output"]);
  });

  it("is read by the value test only for single values", () => {
    expect(loneValue('"A1b"')).toBe(true);
    expect(loneValue("[1, 2, 3]")).toBe(true);
    expect(loneValue('RangeError {message: "bad"}')).toBe(true);
    expect(loneValue("camelcase('x');\nconsole.log(1)")).toBe(false);
    expect(loneValue("doSomething(a, b)")).toBe(false);
  });
});

describe("letter case when a run is compared with the report", () => {
  it("is kept: quotes are loose, case is not", () => {
    expect(looseKey('"A1b"')).toBe(looseKey("'A1b'"));
    expect(looseKey('"A1b"')).not.toBe(looseKey("'A1B'"));
  });

  it("never calls a run that printed another case REPRODUCED", () => {
    const m = matchRun(
      { kind: "output", exceptionType: null, exceptionMessage: null, output: ['"A1b"'], source: "test" },
      { exitCode: 0, stoppedBy: null, stdout: "'A1B'\n", stderr: "", exception: null, durationMs: 5 },
      ['"A1B"'],
    );
    expect(foldRuns([m, m, m]).verdict).toBe("NOT_REPRODUCED");
  });

  it("still reproduces the same value printed with other quotes", () => {
    const m = matchRun(
      { kind: "output", exceptionType: null, exceptionMessage: null, output: ['"A1b"'], source: "test" },
      { exitCode: 0, stoppedBy: null, stdout: "'A1b'\n", stderr: "", exception: null, durationMs: 5 },
      ['"A1B"'],
    );
    expect(foldRuns([m, m, m]).verdict).toBe("REPRODUCED");
  });
});

describe("a comment giving the value seen, a verdict on it and the value it should be", () => {
  it("takes the value seen as the claim and the other as the expected one", () => {
    expect(parseAnnotation('=> "-1.2" not correct should be "-1.3"')).toMatchObject({
      role: "actual",
      kind: "output",
      value: '"-1.2"',
      flagged: true,
      instead: '"-1.3"',
    });
    expect(parseAnnotation("3, wrong, should be 4")).toMatchObject({ value: "3", instead: "4" });
  });

  it("does not fire on a lone expectation, a line marked correct, or prose", () => {
    expect(parseAnnotation("should be 4")).toMatchObject({ role: "expected", value: "4" });
    expect(parseAnnotation('=> "1.3" correct')).toBeNull();
    expect(parseAnnotation("this one should be handled by the caller")).toBeNull();
  });
});

describe("the echo of a value whose class has its own toString", () => {
  const echoed = (value: unknown): string[] => {
    const lines: string[] = [];
    const body = JS_ECHO_PRELUDE.replace(/^.*\n/, "");
    const fn = new Function("_inspect", "console", `${body}\nreturn _echo;`) as (
      i: typeof inspect,
      c: { log: (s: unknown) => void },
    ) => (v: unknown) => void;
    fn(inspect, { log: (s) => lines.push(String(s)) })(value);
    return lines;
  };

  it("prints the object, then the string it reads as", () => {
    class Money {
      constructor(readonly cents: number) {}
      toString() {
        return (this.cents / 100).toFixed(2);
      }
    }
    expect(echoed(new Money(-125))).toEqual(["Money { cents: -125 }", "-1.25"]);
  });

  it("prints plain objects, arrays, dates, errors and strings once, as the REPL does", () => {
    expect(echoed({ a: 1 })).toEqual(["{ a: 1 }"]);
    expect(echoed([1, 2])).toEqual(["[ 1, 2 ]"]);
    expect(echoed(new Date(0))).toHaveLength(1);
    expect(echoed(new RangeError("x"))).toHaveLength(1);
    expect(echoed("A1b")).toEqual(["'A1b'"]);
    expect(echoed(undefined)).toEqual([]);
  });
});

describe("a call written in prose with the value it gives", () => {
  const md = [
    "# padding goes wrong",
    "",
    "Look at this:",
    "pad(\"ab\", 4) gives '  ab' ...OK",
    "pad(\"ab\", -4) gives 'ab  ' ...???",
    "pad(\"abc\", 4) gives ' abc' ...OK",
  ].join("\n");

  it("is code with its result as a check; the line marked ??? is the claim, the ...OK ones are not", () => {
    const { report, exp } = read(md);
    const code = report.blocks.filter((b) => b.kind === "code");
    expect(code).toHaveLength(1);
    expect(code[0]!.runValue).toBe('pad("ab", 4)\n_echo(pad("ab", -4)); //=> \'ab  \' wrong\npad("abc", 4)');
    expect(code[0]!.checks.map((c) => [c.value, c.flagged])).toEqual([["'ab  '", true]]);
    expect(exp.actual.output).toEqual(["'ab  '"]);
  });

  it("is not taken from a sentence that merely names a call", () => {
    const prose = "# x\n\nI think pad(s, n) returns the wrong thing when n is negative, see the docs.";
    // The call alone is quoted code (as before this rule); the words after it are no value to look for.
    const code = read(prose).report.blocks.filter((b) => b.kind === "code");
    expect(code.map((b) => [b.value, b.checks.length])).toEqual([["pad(s, n)", 0]]);
    expect(parseAnnotation("=> the wrong thing when n is negative, see the docs.")).toBeNull();
    expect(splitComment("const n = pad(s, 4);", "js")).toEqual({
      code: "const n = pad(s, 4);",
      comment: null,
    });
  });
});

describe("code pasted without a fence with a literal spread over lines", () => {
  it("takes the lines inside the open brackets, up to where they close", () => {
    const raw = ["var a = [", "    {", '      key:"x"', "    }", "];", "console.log(join(a));"].join("\n");
    expect(plainCodeRuns(raw)).toEqual([{ code: raw, firstLine: 0 }]);
  });

  it("stops at prose once the brackets are closed", () => {
    const raw = ["var a = [1,", "  2];", "this is what I see in the console"].join("\n");
    expect(plainCodeRuns(raw)).toEqual([{ code: "var a = [1,\n  2];", firstLine: 0 }]);
  });
});

describe("a label tied to its value with ===", () => {
  it("reads `required ===` as the expected value and `got ===` as the one seen", () => {
    const claims = proseClaims("required === [ { k: 'A' }, { k: 'C' } ]\ngot === [ { k: 'C' } ]");
    expect(claims.expected).toEqual(["[ { k: 'A' }, { k: 'C' } ]"]);
    expect(claims.actual).toEqual(["[ { k: 'C' } ]"]);
  });

  it("does not read a comparison between two names as a claim", () => {
    const claims = proseClaims("so result === other is false here");
    expect(claims.actual).toEqual([]);
    expect(claims.expected).toEqual([]);
  });
});

describe("a line copied out of an AVA test (`t.is(…)`, no `t` bound)", () => {
  const run = (code: string) => {
    const names = testGlobalsNeeded(code, new Set(), []);
    return { names, run: () => new Function(`${testGlobalsPrelude(names)}\n${code}`)() };
  };

  it("gets AVA's assertions: a holding one passes, a failing one is an AssertionError", () => {
    const ok = run("t.is(String(33), '33');\nt.deepEqual([1, { a: 2 }], [1, { a: 2 }]);");
    expect(ok.names).toEqual(["t"]);
    expect(ok.run).not.toThrow();
    const bad = run("t.is(String(34), '33');");
    expect(bad.run).toThrow(/t\.is\(\) failed: "34" vs "33"/);
    expect(() => run("t.true(1 === 2);").run()).toThrow(/AssertionError|t\.true\(\) failed/);
  });

  it("is not defined when the snippet binds `t`, imports AVA, or only reads a `t` of its own", () => {
    expect(testGlobalsNeeded("t.is(a, b)", new Set(["t"]), [])).toEqual([]);
    expect(testGlobalsNeeded("t.is(a, b)", new Set(), ["ava"])).toEqual([]);
    expect(testGlobalsNeeded("const n = t.length; format(t.is)", new Set(), [])).toEqual([]);
  });
});

describe("a name used without an import that is the package's default function's own name", () => {
  const bind = (module: unknown, list: [string, string[], boolean, boolean][]) => {
    const sandbox: Record<string, unknown> = { module };
    runInNewContext(`${JS_BIND_PACKAGE}\n_bindPackage(module, ${JSON.stringify(list)});`, sandbox);
    return sandbox;
  };

  it("is bound to that function (`export default function prettyMilliseconds`)", () => {
    function prettyMilliseconds(ms: number) {
      return `${ms}ms`;
    }
    const s = bind({ default: prettyMilliseconds }, [["prettyMilliseconds", [], false, true]]);
    expect(s.prettyMilliseconds).toBe(prettyMilliseconds);
  });

  it("is not bound to a default function of another name", () => {
    function format(ms: number) {
      return `${ms}ms`;
    }
    const s = bind({ default: format }, [["prettyMilliseconds", [], false, true]]);
    expect(s.prettyMilliseconds).toBeUndefined();
  });
});
