/**
 * A report whose complaint is that a call does not throw ("`f(x)` ought to throw an exception, and it doesn't"):
 * the call in the sentence is the program, a run that completes is the claim, a run that throws is the
 * behaviour the reporter asked for. And an unlabelled block of `var x = …` lines is JavaScript. Reports written
 * for these tests. And a comment giving the state a statement leaves a variable in (`// now target is {}`).
 */
import { describe, expect, it } from "vitest";
import { annotate } from "../../../src/repro/annotations.ts";
import { detectLanguage } from "../../../src/repro/detect-language.ts";
import { matchRun, outputAppears, type RunObservation } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import {
  onlyWantedError,
  reportedExpectations,
  statedNoThrow,
} from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

describe("a call said to throw and not throwing", () => {
  const report =
    "# netmask accepts a huge prefix\n\nnetmask.parse('10.0.0.0/999') should throw an error, but it doesn't.\n";

  it("runs the call in the sentence", () => {
    const parsed = parseReport(report);
    const code = parsed.blocks.filter((b) => b.kind === "code").map((b) => b.value);
    expect(code).toEqual(["netmask.parse('10.0.0.0/999')"]);
  });

  it("claims a run that completes; a run that throws is not a reproduction", () => {
    const e = reportedExpectations(parseReport(report));
    expect(e.actual).toMatchObject({ kind: "exit", exitCode: 0 });
    expect(matchRun(e.actual, run({})).kind).toBe("match");
    const thrown = run({
      exitCode: 1,
      stderr: "Error: bad prefix\n    at parse (/w/node_modules/netmask/index.js:3:9)\n",
      exception: { type: "Error", message: "bad prefix" },
    } as Partial<RunObservation>);
    expect(matchRun(e.actual, thrown).kind).not.toBe("match");
  });

  it("does not read a report that says it throws, or doesn't throw but returns something", () => {
    expect(statedNoThrow("parse('x') throws an exception.")).toBeNull();
    expect(statedNoThrow("It should throw, but it doesn't return the right error either")).toBeNull();
    expect(statedNoThrow("It doesn't throw an error; it returns NaN.")).toBeNull();
    expect(statedNoThrow("It ought to throw an exception, and it doesn't.")).not.toBeNull();
  });

  it("a call the sentence only names, with nothing said about it, is not run", () => {
    const parsed = parseReport("# docs\n\nnetmask.parse('10.0.0.0/8') is what I use every day.\n");
    expect(parsed.blocks.filter((b) => b.kind === "code")).toEqual([]);
  });
});

describe("an error the report only says ought to be raised", () => {
  // Written for this test, in the shape of a real stdlib report (hold24): the words say the call succeeds where it
  // ought to raise; the only error named is the wanted one, quoted as code.
  const report = [
    "# tokens: an empty quoted token ends the file",
    "",
    "When an empty token comes first, parsing ends successfully and skips the rest. It ought to raise `tokens.TokenError`.",
    "",
    "```python",
    "import tokens",
    "print(tokens.parse('\"\" x'))",
    "```",
    "",
  ].join("\n");

  it("claims a run that completes: the named error is the wanted one, also when quoted as code", () => {
    const e = reportedExpectations(parseReport(report));
    expect(e.actual).toMatchObject({ kind: "exit", exitCode: 0 });
    expect(e.actual.source).toContain("ought to raise tokens.TokenError");
    expect(matchRun(e.actual, run({ stdout: "[]\n" })).kind).toBe("match");
    const raised = run({
      exitCode: 1,
      stderr:
        'Traceback (most recent call last):\n  File "r.py", line 2, in <module>\ntokens.TokenError: empty token\n',
      exception: { type: "tokens.TokenError", message: "empty token" },
    } as Partial<RunObservation>);
    expect(matchRun(e.actual, raised).kind).not.toBe("match");
  });

  it("other error words, or a negated wish, leave the claim an error", () => {
    expect(onlyWantedError("It crashes on an empty token. It should raise ValueError instead.")).toBeNull();
    expect(onlyWantedError("parse() should not raise on an empty token.")).toBeNull();
    expect(onlyWantedError("It raises KeyError; it should raise ValueError.")).toBeNull();
    expect(onlyWantedError("The result is wrong.")).toBeNull();
    expect(onlyWantedError("This should raise a ValueError.")).not.toBeNull();
    expect(onlyWantedError("I would expect it to throw a RangeError here.")).not.toBeNull();
  });

  it("an error quoted as code and named as happening is still the claim", () => {
    const e = reportedExpectations(
      parseReport(
        "# parse fails\n\nParsing `x` raises `tokens.TokenError`.\n\n```python\nimport tokens\ntokens.parse('x')\n```\n",
      ),
    );
    expect(e.actual).toMatchObject({ kind: "exception", exceptionType: "TokenError" });
  });
});

describe("an unlabelled block of var declarations", () => {
  it("is JavaScript", () => {
    expect(detectLanguage("var target = {}\nlib.set(target, '', 'foo') // now target is {}")).toBe(
      "javascript",
    );
  });
  it("a sentence with the word var is not", () => {
    expect(detectLanguage("the var keyword = old style")).toBe("text");
    expect(detectLanguage("obj[path] = value")).toBe("text");
  });
});

describe("a comment giving the state a statement leaves a variable in", () => {
  it("echoes the variable after the line, the value its check", () => {
    const a = annotate("var target = {}\nlib.set(target, '', 'foo') // now target is {}", "javascript");
    expect(a.checks).toMatchObject([{ line: 2, code: "lib.set(target, '', 'foo')", value: "{}" }]);
    expect(a.code).toContain("_echo(target);");
    const b = annotate("let xs = [1]\nxs.push(2) // xs is now [1, 2]", "javascript");
    expect(b.checks.map((c) => c.value)).toEqual(["[1, 2]"]);
  });

  it("not for a variable the line does not name, nor without 'now'", () => {
    expect(annotate("var a = {}\nlib.reset() // now a is {}", "javascript").checks).toEqual([]);
    expect(annotate("var a = {}\nlib.set(a, 'x', 1) // now this is wrong", "javascript").checks).toEqual([]);
  });

  it("an object's keys quoted or not are the same keys; other differences still count", () => {
    expect(outputAppears(["{3: 'foo'}"], "{ '3': 'foo' }\n")).toBe(true);
    expect(outputAppears(["{3: 'foo'}"], "{ '3': 'bar' }\n")).toBe(false);
    expect(outputAppears(["{a: 'foo'}"], "{ b: 'foo' }\n")).toBe(false);
  });
});

describe("a module's own Error class", () => {
  const reported = {
    kind: "exception" as const,
    exceptionType: "binascii.Error",
    exceptionMessage: "Incorrect padding",
    output: [],
    source: "test",
  };
  const thrown = (type: string, message: string) =>
    run({
      exitCode: 1,
      stderr: `${type}: ${message}\n`,
      exception: { type, message },
    } as Partial<RunObservation>);

  it("is that class, not any …Error", () => {
    expect(matchRun(reported, thrown("binascii.Error", "Incorrect padding")).kind).toBe("match");
    const other = matchRun(
      reported,
      thrown("TypeError", "b64decode() got an unexpected keyword argument 'x'"),
    );
    expect(other.detail).not.toMatch(/same exception type/);
  });

  it("a bare reported Error still stands for any …Error", () => {
    const bare = { ...reported, exceptionType: "Error", exceptionMessage: "bad input" };
    expect(matchRun(bare, thrown("TypeError", "bad input")).kind).toBe("match");
  });
});
