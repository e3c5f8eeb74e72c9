/**
 * Classes from the hold14 misses (issue 12, fixer f12o): a bare `import ` line whose next line was read as the
 * module list (an ERROR exit installing `class`); a word that ends a sentence read as the package name of the
 * "Version x.y.z" after it; a run that stops on what the runtime's own DeprecationWarning says a later release
 * changes. Every report here is written for these tests; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { annotate } from "../../../src/repro/annotations.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { detectLanguage } from "../../../src/repro/detect-language.ts";
import { dollarAsNode } from "../../../src/repro/dollar-session.ts";
import { outputAppears } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { plainLanguage } from "../../../src/repro/plain-code.ts";
import { referenceLead } from "../../../src/repro/reference-lead.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { runtimeShortfall } from "../../../src/repro/runtime-rule.ts";
import { findBareVersions, findVersionMentions } from "../../../src/repro/versions.ts";

const f = "```";

describe("a Python import line is read on its own line", () => {
  const deps = (code: string) =>
    completeProgram(parseReport(["# parser splits a value", "", `${f}python`, code, f].join("\n")))!
      .dependencies;

  it("installs nothing for a bare `import ` line followed by a class (no module named `class`)", () => {
    const d = deps(
      [
        "import ",
        "class Probe(Base):",
        "    def handle(self, tag):",
        "        print(tag)",
        "",
        "Probe().feed('<a>')",
      ].join("\n"),
    );
    expect(d).not.toContain("class");
    expect(d).toEqual([]);
  });

  it("never installs a keyword, whatever the import line holds", () => {
    expect(deps(["import def", "print(1)"].join("\n"))).toEqual([]);
  });

  it("must not fire: a real import on its own line is still a dependency", () => {
    expect(deps(["import numpy", "class Probe:", "    pass", "print(numpy.zeros(2))"].join("\n"))).toEqual([
      "numpy",
    ]);
  });
});

describe("a word that ends a sentence is not the name of the version after it", () => {
  it('reads "a wrong result. Version 0.3.7." as a bare version, not the package `result.`', () => {
    const text = "A plain comparison gives me a wrong result. Version 0.3.7.";
    expect(findVersionMentions(text).map((m) => m.name)).not.toContain("result.");
    expect(findVersionMentions(text)).toEqual([]);
    expect(findBareVersions(text)).toEqual(["0.3.7"]);
  });

  it("must not fire: a name followed by its version in one sentence is still read", () => {
    expect(findVersionMentions("I use deep-diff version 0.3.7 here.")).toEqual([
      { name: "deep-diff", version: "0.3.7", style: "word" },
    ]);
  });
});

describe("the runtime's own warning that a later release changes what the run stopped on", () => {
  const warned = [
    "/workspace/r.py:12: DeprecationWarning: in 3.12 __contains__ will no longer raise TypeError, but will return True or",
    "False depending on whether the value is a member or the value of a member",
    "  print(3 in Weekday)",
    "Traceback (most recent call last):",
    '  File "/workspace/r.py", line 12, in <module>',
    "TypeError: unsupported operand type(s) for 'in': 'int' and 'EnumType'",
  ].join("\n");
  const run = (stderr: string) => ({
    exception: { type: "TypeError", message: "unsupported operand type(s) for 'in': 'int' and 'EnumType'" },
    stderr,
  });
  const input = (named: string[], stderr = warned) => ({
    runtime: "python" as const,
    sandbox: "3.11.2",
    claims: true,
    named,
    runs: [run(stderr), run(stderr)],
    claimedType: null,
  });

  it("is a shortfall when the report names a newer runtime (3.12) and none of ours", () => {
    const s = runtimeShortfall(input(["3.12"]));
    expect(s).toMatchObject({ ran: "3.11.2", needs: "3.12" });
    expect(s!.why).toMatch(/this runtime's own warning says so/);
  });

  it("must not fire when the report names our runtime (3.11) or an older one", () => {
    expect(runtimeShortfall(input(["3.11"]))).toBeNull();
    expect(runtimeShortfall(input(["3.10"]))).toBeNull();
    expect(runtimeShortfall(input(["3.11", "3.12"]))).toBeNull();
  });

  it("must not fire without the warning, or when the warning names another exception", () => {
    const bare = "Traceback (most recent call last):\nTypeError: unsupported operand type(s)";
    expect(runtimeShortfall(input(["3.12"], bare))).toBeNull();
    const other = "r.py:3: DeprecationWarning: in 3.12 this will raise ValueError\n" + bare;
    expect(runtimeShortfall(input(["3.12"], other))).toBeNull();
  });
});

describe("Python in a page, a quoted Python line, a program under a 'gave:' lead", () => {
  const blocks = (md: string) => parseReport(md).blocks.map((b) => [b.kind, b.language, b.value]);

  it("reads the Python of an HTML page's `<script type=\"text/python\">` as the block's code", () => {
    const md = [
      "# import fails",
      "",
      `${f}HTML`,
      "<!DOCTYPE html>",
      '<html><body onload="brython()">',
      '    <script type="text/python">',
      "        # Raises ValueError: bad bits",
      "        import ipaddress",
      "    </script>",
      "</body></html>",
      f,
    ].join("\n");
    expect(blocks(md)).toEqual([["code", "python", "# Raises ValueError: bad bits\nimport ipaddress"]]);
    const e = reportedExpectations(parseReport(md));
    expect(e.actual).toMatchObject({
      kind: "exception",
      exceptionType: "ValueError",
      exceptionMessage: "bad bits",
    });
  });

  it("must not fire: an HTML page with only JavaScript scripts stays what it was", () => {
    const md = ["# page", "", `${f}html`, "<html><script>console.log(1)</script></html>", f].join("\n");
    expect(blocks(md)[0]![1]).not.toBe("python");
  });

  it("reads `if isinstance(object, type):` quoted in the words as Python, not JavaScript", () => {
    expect(plainLanguage("if isinstance(object, type):")).toBe("python");
    expect(plainLanguage("for k in d:")).toBe("python");
    // must not fire: JavaScript's `if (…)` and an object literal's key
    expect(plainLanguage("if (a) b();")).toBe("javascript");
    expect(plainLanguage("if (isArray(x)) {")).toBe("javascript");
  });

  it("keeps a block that opens with an import as code under a lead ending 'gave:'", () => {
    const md = [
      "# wrong error",
      "",
      "`get_type_hints(123)` raises",
      "",
      `${f}python`,
      "from typing import get_type_hints",
      f,
      "",
      "Asked for a tiny example, the reporter gave:",
      "",
      f,
      "from typing import get_type_hints",
      "get_type_hints(123)",
      f,
    ].join("\n");
    expect(blocks(md).at(-1)).toEqual([
      "code",
      "python",
      "from typing import get_type_hints\nget_type_hints(123)",
    ]);
  });

  it("must not fire: a value under 'it gave:' after the code is still output", () => {
    const md = ["# x", "", `${f}python`, "print(1 + 1)", f, "", "and it gave:", "", f, "3", f].join("\n");
    expect(blocks(md).at(-1)![0]).toBe("output");
  });
});

describe("a comment naming an error over the statement it describes", () => {
  it("claims the error for the statement under it", () => {
    const a = annotate("# Raises ValueError: host bits set\nimport ipaddress", "python");
    expect(a.checks).toEqual([
      expect.objectContaining({
        line: 2,
        code: "import ipaddress",
        kind: "error",
        value: "ValueError: host bits set",
      }),
    ]);
  });

  it("must not fire over a definition, or for words that name no error type", () => {
    expect(annotate("# raises ValueError on bad input\ndef f(x):\n    pass", "python").checks).toEqual([]);
    expect(annotate("# raises an error sometimes\nf(1)", "python").checks).toEqual([]);
  });
});

describe("a TypeScript `as` assertion closing a statement", () => {
  it("reads an unlabelled block with `diff(a, b) as deepDiff.IDiff[];` as TypeScript", () => {
    expect(
      detectLanguage("let a = [1];\nlet changes = diff(a, a) as deepDiff.IDiff[];\nconsole.log(changes);"),
    ).toBe("typescript");
  });

  it("must not fire on Python's `as` (an import alias, a with-statement)", () => {
    expect(detectLanguage("import numpy as np\nprint(np.zeros(2))")).toBe("python");
    expect(detectLanguage("with open(p) as f:\n    print(f.read())")).toBe("python");
  });
});

describe("a Node session under a shell's `$ ` prompt", () => {
  it("reads `$ var x = require(…)` / `$ x.f('a')` / `'a'` as a Node session, fenced or not", () => {
    const session = [
      "$ var inflection = require('inflection')",
      "$ inflection.pluralize('education')",
      "'education'",
    ].join("\n");
    expect(dollarAsNode(session)).toBe(
      "> var inflection = require('inflection')\n> inflection.pluralize('education')\n'education'",
    );
    const unfenced = parseReport(["# plural is wrong", "", session].join("\n")).blocks;
    expect(unfenced.map((b) => b.kind)).toEqual(["node-transcript"]);
    const fenced = parseReport(["# plural is wrong", "", `${f}sh`, session, f].join("\n")).blocks;
    expect(fenced.map((b) => b.kind)).toEqual(["node-transcript"]);
  });

  it("must not fire on a shell session: commands are words then a space", () => {
    expect(dollarAsNode('$ node -e "console.log(1)"\n1')).toBeNull();
    expect(dollarAsNode("$ npm i inflection\nadded 1 package")).toBeNull();
    expect(dollarAsNode("$ x.f('a')\n$ ls\nfile")).toBeNull();
    // nothing answered: no session
    expect(dollarAsNode("$ x.f('a')")).toBeNull();
  });
});

describe("a lead that is only the contrast", () => {
  it("'rather than' between two errors makes the second the expected side", () => {
    expect(referenceLead("rather than")).toBe(true);
    expect(referenceLead("instead of:")).toBe(true);
  });

  it("must not fire inside a longer lead that introduces what the run printed", () => {
    expect(referenceLead("it printed this rather than the error:")).toBe(false);
  });
});

describe("a shell session running a versioned interpreter is no Node session", () => {
  it("must not fire on `$ python3.9 -c '…'` or `$ python3.11 /enum_test.py`", () => {
    expect(dollarAsNode("$ python3.9 -c 'import datetime'\nTraceback (most recent call last):")).toBeNull();
    expect(dollarAsNode("$ python3.11 /enum_test.py\nAssertionError")).toBeNull();
  });
});

describe("'The right answer would be …:' introduces the expected side", () => {
  it("reads a lead naming the right answer as the reference", () => {
    expect(referenceLead("The right answer would be something like this:")).toBe(true);
  });

  it("must not fire when the lead says it is not the right answer", () => {
    expect(referenceLead("That is not the right answer:")).toBe(false);
  });
});

describe("Node's `[Object: null prototype]` mark is no difference in a printed value", () => {
  it("finds `{ test: { 0: 'apple' } }` in Node 18's null-prototype printing", () => {
    const printed = "[Object: null prototype] {\n  test: [Object: null prototype] { '0': 'apple' }\n}";
    expect(outputAppears(["{ test: { 0: 'apple' } }"], printed)).toBe(true);
  });

  it("must not fire for another value under the same mark", () => {
    const printed = "[Object: null prototype] {\n  test: [Object: null prototype] { '0': 'pear' }\n}";
    expect(outputAppears(["{ test: { 0: 'apple' } }"], printed)).toBe(false);
  });
});
