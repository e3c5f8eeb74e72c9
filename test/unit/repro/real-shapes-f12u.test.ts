/**
 * Shapes of hold17's real reports whose bad output was read wrongly (issue 12): a comment that says what a line
 * "will print", a version range in an environment list (">=19.0.0"), a package manifest's version printed by a
 * shell command, and a REPL session the reporter annotates with `#` comments. Reports written here, in those shapes.
 */
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../../src/repro/annotations.ts";
import { foldRuns, matchRun, type RunObservation } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseTranscript } from "../../../src/repro/transcript.ts";
import { findVersionMentions } from "../../../src/repro/versions.ts";
import { run } from "./observed-run.ts";

const f = "```";
const verdict = (md: string, r: RunObservation) => {
  const exp = reportedExpectations(parseReport(md));
  return foldRuns([matchRun(exp.actual, r, exp.expectedOutput, exp.expectedException)]).verdict;
};

describe("a comment that says what the line will print", () => {
  it("reads the value after a modal verb of output", () => {
    expect(parseAnnotation('will print ")"')).toMatchObject({ role: "actual", kind: "output", value: '")"' });
    expect(parseAnnotation("still returns 3")).toMatchObject({ role: "actual", value: "3" });
    expect(parseAnnotation("now prints: [1, 2]")).toMatchObject({ role: "actual", value: "[1, 2]" });
    // Prose after the modal is no value.
    expect(parseAnnotation("will print the whole key back when nothing matches here")).toBeNull();
  });

  it("matches only the stated value", () => {
    const md = `# key with a colon\n\n${f}javascript\nconst v = lookup("Hi :)");\nconsole.log(v) // will print ")"\n${f}\n`;
    expect(verdict(md, run({ stdout: ")\n" }))).toBe("REPRODUCED");
    expect(verdict(md, run({ stdout: "Hi :)\n" }))).toBe("NOT_REPRODUCED");
  });
});

describe("versions named as a range or by a manifest", () => {
  it("a range from a release names that release", () => {
    expect(findVersionMentions("- i18next version: >=19.0.0")).toEqual([
      { name: "i18next", version: "19.0.0", style: "word" },
    ]);
    expect(findVersionMentions("Lodash version: ^4.17.1")[0]?.version).toBe("4.17.1");
    // A comparison in prose is no package.
    expect(findVersionMentions("if count >= 1.5 it fails")).toEqual([]);
    expect(findVersionMentions("when width >= 2.0.0 pixels")).toEqual([]);
  });

  it("a package.json's version printed by grep or cat is that package's release", () => {
    const shell = `$ grep version node_modules/minimatch/package.json\n  "version": "2.0.1",\n$ node --version\nv0.10.33`;
    expect(findVersionMentions(shell)).toEqual([{ name: "minimatch", version: "2.0.1", style: "listing" }]);
    expect(
      findVersionMentions(`$ cat node_modules/@scope/pkg/package.json | grep version\n"version": "1.2.3"`),
    ).toEqual([{ name: "@scope/pkg", version: "1.2.3", style: "listing" }]);
    // A version line with no manifest named above it stays unread (the name "version" is no package).
    expect(findVersionMentions(`$ grep version package.json\n  "version": "2.0.1",`)).toEqual([]);
  });
});

describe("a REPL session annotated with the reporter's comments", () => {
  const session = [
    "# I compared the module with the cal utility.",
    ">>> print(month(9))",
    "#   is wrong. It looks like this:",
    ">>> print(month(9))",
    "   September",
    " 1  2  3",
    "",
    "#   It should match what cal prints:",
    "#   $ cal 9",
    "   September",
    " 1  2 14",
    "# Am I missing something?",
  ].join("\n");

  it("comments are not output, and one after a statement's output ends it", () => {
    const t = parseTranscript(session, "python");
    expect(t.output).toEqual(["   September", " 1  2  3"]);
    expect(t.inputs).toEqual(["print(month(9))", "print(month(9))"]);
  });

  it("the run printing the reported month reproduces; the other month does not", () => {
    const md = `# month() is wrong\n\n${f}python\n${session}\n${f}\n`;
    expect(verdict(md, run({ stdout: "   September\n 1  2  3\n   September\n 1  2  3\n" }))).toBe(
      "REPRODUCED",
    );
    expect(verdict(md, run({ stdout: "   September\n 1  2 14\n   September\n 1  2 14\n" }))).toBe(
      "NOT_REPRODUCED",
    );
  });

  it("a session without the reporter's comments keeps a printed `#` line as output", () => {
    const t = parseTranscript(">>> print('# heading')\n# heading\n>>> 1\n1", "python");
    expect(t.output).toEqual(["# heading", "1"]);
  });
});

describe("the value a report says the code turns its input into", () => {
  it("is the value seen, with the call on a line of its own between the verb and `into`", () => {
    const md = `# Rounding\n\nWhy does the library turn\nfmt.format(0.999, { code: 'EUR'})\n\ninto "1,00 €"?\n\nCan it be avoided?\n`;
    const exp = reportedExpectations(parseReport(md));
    expect(exp.actual.output).toEqual(["1,00 €"]);
    expect(verdict(md, run({ stdout: "1,00 €\n" }))).toBe("REPRODUCED");
    expect(verdict(md, run({ stdout: "0,999 €\n" }))).toBe("NOT_REPRODUCED");
  });

  it("is the value wanted when the words want it, and nothing when the reporter does the converting", () => {
    const wanted = reportedExpectations(
      parseReport("# Slugs\n\nI want to turn `a b` into `a-b` with `slug('a b')`.\n"),
    );
    expect(wanted.actual.output).not.toContain("a-b");
    const how = reportedExpectations(
      parseReport("# Slugs\n\nHow can I convert `a b` to `a-b`? `slug('a b')`\n"),
    );
    expect(how.actual.output).not.toContain("a-b");
    const step = reportedExpectations(
      parseReport("# Crash\n\nI convert the option to `true` and call `run()`, and it crashes.\n"),
    );
    expect(step.actual.output).not.toContain("true");
  });
});

describe("a step quoted inline as an assignment, and a method named as a place", () => {
  const md = [
    "# handler result is not interpolated",
    "",
    "1. Make an instance:",
    "```javascript",
    "const lib = make();",
    "```",
    '2. Translate with it: `const out = lib.t("abc", { n: "1" })`',
    "",
    '**Actual result:** `"as {{n}}"`',
    "",
    "It seems the handler only runs after the step inside `Engine.translate()`.",
    "",
  ].join("\n");

  it("the assignment shows the value it binds; the method named as where it happens is not run", () => {
    const values = parseReport(md).blocks.map((b) => b.runValue);
    expect(values).toContain('const out = lib.t("abc", { n: "1" })\n_echo(out);');
    expect(values.join("\n")).not.toContain("Engine.translate()");
  });

  it("binding a module or defining a function shows nothing", () => {
    const values = (text: string) => parseReport(text).blocks.map((b) => b.runValue);
    expect(
      values("# x\n\nI load it with `const chalk = require('chalk');` and then it fails.\n").join("\n"),
    ).not.toContain("_echo(chalk)");
    expect(values("# x\n\nWith `const f = (o = {}) => ({ ...o })` it fails.\n").join("\n")).not.toContain(
      "_echo(f)",
    );
  });
});
