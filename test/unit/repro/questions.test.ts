// NEEDS_INFO questions name what THIS report lacks, and never ask for what it gives (issue 12, item 4).
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import {
  noCodeQuestions,
  type QuestionInput,
  reportGaps,
  runQuestions,
  versionQuestion,
} from "../../../src/repro/questions.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

function input(markdown: string, pkg: string | null = null): QuestionInput {
  const report = parseReport(markdown);
  return { report, expectations: reportedExpectations(report), markdown, text: markdown, package: pkg };
}

describe("NEEDS_INFO questions for a report without runnable code", () => {
  it("code only inline in prose: quotes it and names the name it needs", () => {
    const q = noCodeQuestions(
      input("# bug\n\n`qs.parse('a[]=b')` returns an object without the array.\n", "qs"),
    );
    expect(q[0]).toContain("only inline in its text (`qs.parse('a[]=b')`)");
    expect(q[0]).toContain("defines or imports `qs`");
    expect(q.length).toBeLessThanOrEqual(3);
  });

  it("a screenshot-only report asks for the code and output as text", () => {
    const q = noCodeQuestions(input("# bug\n\nSee below.\n\n![shot](https://example.com/a.png)\n", "ms"));
    expect(q[0]).toMatch(/^The report shows the problem only in a screenshot/);
  });

  it("a traceback without code: names its line and quotes the exception line", () => {
    const md =
      '# crash\n\n```\nTraceback (most recent call last):\n  File "x.py", line 1, in <module>\nValueError: bad value\n```\n';
    const q = noCodeQuestions(input(md, "cpython"));
    expect(q[0]).toContain("The block at line 3 shows a traceback (`ValueError: bad value`)");
    // CPython's reports: the package is the runtime, never "which version of `cpython`".
    expect(q.join(" ")).not.toContain("`cpython`");
    expect(q.at(-1)).toMatch(/^Which version of Python \(`python --version`\)/);
  });

  it("a report that gives the package's version and the runtime is not asked for versions", () => {
    const i = input(
      "# bug\n\nUsing lodash@4.17.21 on Node v18.1.0, it prints `3` but expected `2`.\n",
      "lodash",
    );
    expect(versionQuestion(i, [])).toBeNull();
    expect(noCodeQuestions(i).join(" ")).not.toMatch(/which version|--version/i);
  });

  it("a version in prose ('against 1.1.0') is the package's: only the runtime is asked, naming what is given", () => {
    const q = versionQuestion(input("# bug\n\nI ran it against 1.1.0 and it is wrong.\n", "foo"), []);
    expect(q).not.toContain("`foo`");
    expect(q).toContain("The report gives `1.1.0`");
    expect(q).toMatch(/^Which version of the runtime/);
  });

  it("only the missing side of the outcome is asked: a stated expectation is quoted, not asked for", () => {
    const q = noCodeQuestions(
      input("# bug\n\nUsing foo@1.0.0 on Node 18.0.0.\n\n## Expected\n\n`42`\n", "foo"),
    );
    expect(q.join(" ")).toContain("The report says what it expects (`42`) but not what you get instead");
    expect(q.join(" ")).not.toContain("what did you expect");
  });

  it("the model's evidence lists the same gaps", () => {
    const inline = reportGaps(
      input("# bug\n\n`qs.parse('a[]=b')` returns an object without the array.\n", "qs"),
    );
    expect(inline).toContain("missing from the report: code only inline in the prose: `qs.parse('a[]=b')`");
    expect(inline).toContain(
      "missing from the report: the version of `qs` and of Node.js (`node --version`)",
    );
    const shot = reportGaps(input("# bug\n\nSee below.\n\n![s](https://e.x/a.png)\n", "qs"));
    expect(shot).toContain("missing from the report: 1 screenshot(s): their content is not in the text");
  });
});

describe("NEEDS_INFO questions after a run", () => {
  it("an undefined name: names it and the report's line that uses it", () => {
    const i = input("# bug\n\n```js\nconst x = 1;\nconsole.log(items.length);\n```\n");
    const q = runQuestions(i, { verdict: "NEEDS_INFO", missingName: "items", questions: ["generic"] }, "");
    expect(q).toEqual([
      "The code uses `items` at line 5 of the report (`console.log(items.length);`) but never defines or imports it: could you include where `items` comes from (its value, or the import), so the snippet runs on its own?",
    ]);
  });

  it("a line that does not parse: gives its line in the report and keeps the parser's message", () => {
    const i = input("# bug\n\n```py\nx = 1\nprint(x +)\n```\n");
    const old =
      "This line of the code does not parse: `print(x +)` (SyntaxError: invalid syntax). Could you paste the exact code you run?";
    const q = runQuestions(i, { verdict: "NEEDS_INFO", badLine: "print(x +)", questions: [old] }, "");
    expect(q[0]).toBe(
      "Line 5 of the report does not parse: `print(x +)` (SyntaxError: invalid syntax). Could you paste the exact code you run?",
    );
  });

  it("output no one calls wrong: quotes what ran and the block with no stated role", () => {
    const i = input("# bug\n\n```js\nconsole.log(f(1));\n```\n\n```\n3\n```\n");
    const [q] = runQuestions(i, { verdict: "NEEDS_INFO", noClaim: true, questions: ["generic"] }, "2\n");
    expect(q).toContain("prints `2`");
    expect(q).toContain("the block at line 7 (`3`) is not marked as what you get or what you expect");
  });

  it("a report that states the expected value is not asked what it expected", () => {
    const i = input("# bug\n\n```js\nconsole.log(f(1));\n```\n\n## Expected\n\n`42`\n");
    const [q] = runQuestions(i, { verdict: "NEEDS_INFO", noClaim: true, questions: ["generic"] }, "2\n");
    expect(q).toContain("The report expects `42`: which line is wrong?");
    expect(q).not.toContain("what did you expect");
  });

  it("other verdicts' questions pass through", () => {
    const i = input("# bug\n");
    expect(runQuestions(i, { verdict: "PARTIAL", noClaim: true, questions: ["keep"] }, "x")).toEqual([
      "keep",
    ]);
  });
});

describe("report lines", () => {
  it("an indented code block's line is its code's line (no fence to skip)", () => {
    const md = "# bug\n\nRunning:\n\n    let byCategory = _.groupBy(items, 'category')\n\nused to work.\n";
    const q = runQuestions(
      { ...input(md), text: md },
      { verdict: "NEEDS_INFO", missingName: "items", questions: ["generic"] },
      "",
    );
    expect(q[0]).toContain("at line 5 of the report (`let byCategory = _.groupBy(items, 'category')`)");
  });
});
