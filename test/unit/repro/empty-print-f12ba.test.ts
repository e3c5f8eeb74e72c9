/**
 * A print's comment calling what it shows empty (issue 12, hold22 `print(cookie) # empty ;  expected {…}`): the
 * claim is a run that exits 0 and prints nothing but blank lines. Written here for other modules; must-not-fire first.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const fence = "```";
const report = (code: string, lang = "python") =>
  reportedExpectations(
    parseReport(`# t\n\nThe parsed value is lost:\n\n${fence}${lang}\n${code}\n${fence}\n`),
  ).actual;

describe("a print commented as empty", () => {
  it("must not fire: 'empty list' / 'empty dict' (they print [] and {}), or a comment that is no such word", () => {
    expect(report("import re\nprint(re.findall('x', 'abc'))  # empty list").kind).not.toBe("exit");
    expect(report("import json\nprint(json.loads('{}'))  # empty dict, expected {'a': 1}").kind).not.toBe(
      "exit",
    );
    expect(report("print(sorted([]))  # this is fine").kind).not.toBe("exit");
  });

  it("must not fire: a second print (which one would be empty?)", () => {
    expect(
      report("from email.message import Message\nm = Message()\nprint(m)  # empty\nprint(len(m))").kind,
    ).not.toBe("exit");
  });

  it("must not fire: a run that printed no line at all (the commented print never ran, e.g. in an uncalled def)", () => {
    const actual = report(
      "from http.cookies import SimpleCookie\ndef show(raw):\n    c = SimpleCookie(raw)\n    print(c)  # empty",
    );
    expect(foldRuns([matchRun(actual, run({ stdout: "" }))]).verdict).not.toBe("REPRODUCED");
    const js = report("function show(m) {\n  console.log([...m.keys()].join(','));  // nothing\n}", "js");
    expect(foldRuns([matchRun(js, run({ stdout: "" }))]).verdict).not.toBe("REPRODUCED");
    // The print ran and wrote its blank line: the claim holds.
    expect(foldRuns([matchRun(actual, run({ stdout: "\n" }))]).verdict).toBe("REPRODUCED");
  });

  it("reads `# empty ; expected X` as a quiet run, exit 0", () => {
    const actual = report(
      "from configparser import ConfigParser\ncp = ConfigParser()\ncp.read_string('[s]\\nk = v')\nprint(cp.defaults())  # empty ;  expected {'k': 'v'}",
    );
    expect(actual).toMatchObject({ kind: "exit", exitCode: 0, silent: true });
    expect(actual.source).toMatch(/`print\(cp\.defaults\(\)\)`.*it prints nothing/);
    // A blank line printed is the claim; the value wanted printed is not.
    expect(foldRuns([matchRun(actual, run({ stdout: "\n" }))]).verdict).toBe("REPRODUCED");
    expect(foldRuns([matchRun(actual, run({ stdout: "{'k': 'v'}\n" }))]).verdict).toBe("NOT_REPRODUCED");
    expect(
      foldRuns([matchRun(actual, run({ exitCode: 1, exception: { type: "KeyError", message: "k" } }))])
        .verdict,
    ).not.toBe("REPRODUCED");
  });

  it("reads JavaScript's `// nothing` on the one console.log too", () => {
    expect(
      report("const m = new Map();\nconsole.log([...m.keys()].join(','));  // nothing", "js"),
    ).toMatchObject({
      kind: "exit",
      silent: true,
    });
  });
});
