/**
 * NEEDS_INFO questions for reports with no runnable code name what THIS report has and what it lacks (issue 12,
 * f12r): a call written in a sentence outside backticks, data quoted inline (an input and what came out), API
 * names, a Python session pasted in the text, and an HTML input in the prose that is no screenshot. Reports
 * written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import {
  noCodeQuestions,
  proseCalls,
  proseSession,
  python2Question,
  type QuestionInput,
  screenshotCount,
} from "../../../src/repro/questions.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

function input(markdown: string, pkg: string | null = null): QuestionInput {
  const report = parseReport(markdown);
  return { report, expectations: reportedExpectations(report), markdown, text: markdown, package: pkg };
}

describe("calls written in sentences, outside backticks", () => {
  it("reads a dotted chain and a camelCase call whose arguments go on past the line", () => {
    expect(proseCalls("We saw that zod.string().min(2) returns true for an empty string.")).toEqual([
      "zod.string().min(2)",
    ]);
    expect(proseCalls("My setup: cleanMarkup(this.value, {\nallowed: ['p']\n})")).toEqual([
      "cleanMarkup(this.value, {…",
    ]);
  });

  it("does not take a word before a bracket, a plain function name, or inline code for a call", () => {
    expect(proseCalls("Every URL(s) and function(s) on Node.js (v18) fail, e.g.(this) one.")).toEqual([]);
    expect(proseCalls("The parse function is slow.")).toEqual([]);
    expect(proseCalls("Calling `a.b(1)` fails.")).toEqual([]);
  });

  it("asks for the prose call as a program, naming what it needs", () => {
    const q = noCodeQuestions(
      input("# bug\n\nWe noticed that zod.string().min(2) returns true for `''`.\n", "zod"),
    );
    expect(q[0]).toContain("only inline in its text (`zod.string().min(2)`)");
    expect(q[0]).toContain("defines or imports `zod`");
  });
});

describe("data and names quoted inline", () => {
  it("keeps the stated outcome's question when the words say what came out", () => {
    const q = noCodeQuestions(
      input("# odd\n\nThe word `cactus` came out as `cactuses` in our app.\n", "inflect-x"),
    );
    expect(q[0]).toMatch(/^The report shows the output `cactuses` but not the code that produces it/);
  });

  it("asks which quoted value is the outcome when the words do not say", () => {
    const q = noCodeQuestions(
      input("# odd\n\nThe word `cactus` and then `cactuses`, in our app.\n", "inflect-x"),
    );
    expect(q[0]).toContain("quotes `cactus` and `cactuses` in its text but no code that calls `inflect-x`");
    expect(q[1]).toBe(
      "Which of the quoted values is what you get, and what did you expect instead (verbatim)?",
    );
  });

  it("does not take a version, a path, a file name or the package's name for data", () => {
    const q = noCodeQuestions(
      input("# slow\n\nSince `2.1.0`, `lib/run.js` reads `.env` through `loadr` slowly.\n", "loadr"),
    );
    expect(q[0]).toMatch(/^The report describes the problem in words only \(no code block, no screenshot\)/);
  });

  it("names the API a report is about, the dotted name over its root", () => {
    const q = noCodeQuestions(
      input("# bug\n\nThe `shutil` module leaves `shutil.move2` out of `__all__`.\n", "cpython"),
    );
    expect(q[0]).toContain("names `shutil.move2` and `__all__` but shows no code that uses them");
  });
});

describe("a Python session pasted in the text", () => {
  it("finds the names it uses and never binds", () => {
    expect(proseSession("Here:\n>>> for ch in 'abc':\n...     n[ch] += 1\n>>> n['a']\n2")).toEqual({
      first: ">>> for ch in 'abc':",
      unbound: ["n"],
    });
    expect(proseSession(">>> import math\n>>> math.floor(2.5)\n2")?.unbound).toEqual([]);
    expect(proseSession("No session here, only a > quote.")).toBeNull();
  });

  it("asks for the whole session from where the name is made", () => {
    const session = ">>> for ch in 'abc':\n...     n[ch] += 1\n>>> n['a']\n2\n";
    // In a sentence's paragraph, and as a paragraph of its own (which the parser keeps as a transcript block).
    for (const md of [
      `# doc\n\nThe docstring is off:\n${session}`,
      `# doc\n\nThe docstring is off:\n\n${session}`,
    ])
      expect(noCodeQuestions(input(md, "cpython"))[0]).toContain("and it uses `n`, which it never defines");
  });
});

describe("screenshots", () => {
  it("counts a markdown image and an <img> with an address, not an HTML input quoted in prose", () => {
    expect(screenshotCount('<img width="300" src="https://example.com/a.png">')).toBe(1);
    expect(screenshotCount("![x](https://example.com/a.png)")).toBe(1);
    expect(
      screenshotCount("Input: <<img<canvas>img src=1 onerror=alert('x')> and <img src=1 onerror=f()>"),
    ).toBe(0);
  });
});

describe("Python 2 code", () => {
  it("says a print statement is Python 2 code instead of asking for the exact code", () => {
    const q = python2Question(
      "This line of the code does not parse: `print repr(x)` (SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?). Could you paste the exact code you run (no `...`, placeholders or REPL output mixed in)?",
    );
    expect(q).toBe(
      "This line of the code does not parse: `print repr(x)` (SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?). It is Python 2 code (a `print` statement), and the sandbox runs Python 3: could you give the code as it runs on Python 3, and say whether the problem shows there?",
    );
  });

  it("leaves any other parse error's question alone", () => {
    const other =
      "This line of the code does not parse: `x = (1` (SyntaxError: '(' was never closed). Could you paste the exact code you run (no `...`, placeholders or REPL output mixed in)?";
    expect(python2Question(other)).toBe(other);
  });
});
