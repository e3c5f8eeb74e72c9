/**
 * Classes from the hold6-9 misses (issue 12, fixer f12g): output pasted in the words under a lead that says a
 * program gave it; a value comment right under a bare expression; `require()` of an ES-module-only release rerun
 * as an ES module; Node's depth cuts (`[Object]`, `[Array]`) compared as cuts; the runtime-mismatch rule. Every
 * report here is written for these tests; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { annotate } from "../../../src/repro/annotations.ts";
import { asksForError, raisedInInstalledPython } from "../../../src/repro/asked-error.ts";
import { cutMatches } from "../../../src/repro/depth-cut.ts";
import { asEsModule, esModuleEntry, requiresEsModule } from "../../../src/repro/esm-retry.ts";
import { outputAppears } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { namedRuntimeVersions, runtimeShortfall, shortfallError } from "../../../src/repro/runtime-rule.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));

describe("output pasted in the words under a lead that says the program gave it", () => {
  it("reads an object printed over several unfenced lines after 'and what you get is:'", () => {
    const e = read(
      [
        "# merge drops a key",
        "",
        "Given:",
        "var a = { x: 1, y: 2 };",
        "var b = merge(a, {});",
        "console.log(b);",
        "",
        "and what you get is:",
        "{",
        '  "x" : 1',
        "}",
      ].join("\n"),
    );
    expect(e.actual.kind).toBe("output");
    expect(e.actual.output).toEqual(["{", '"x" : 1', "}"]);
  });

  it("takes the first of two led blocks as the claim when the second sets itself against it (whereas)", () => {
    const e = read(
      [
        "# rounding differs from CPython",
        "",
        "When I run",
        "print(round(2.675, 2))",
        "MicroPython gives me",
        "[2.68]",
        "whereas CPython gives",
        "[2.67]",
        "which is what I would expect.",
      ].join("\n"),
    );
    expect(e.actual.output).toEqual(["[2.68]"]);
    expect(e.expectedOutput).toEqual(["[2.67]"]);
  });

  it("reads printed markup in a code span after 'It prints'", () => {
    const e = read(
      [
        "# escaping",
        "",
        f,
        "const { render } = require('tiny-md')",
        "console.log(render('<b>'))",
        f,
        "",
        "**Actual behavior**",
        "- It prints",
        '`<p class="x"><b></p>`',
        "",
        "**Expected behavior**",
        "- the tag escaped",
      ].join("\n"),
    );
    expect(e.actual.output).toEqual(['<p class="x"><b></p>']);
  });

  it("does not pick a side when two plain leads give values and nothing tells them apart", () => {
    const e = read(
      ["# two engines", "", "print(1/3)", "Engine A gives", "[0.333]", "Engine B gives", "[0.3333]"].join(
        "\n",
      ),
    );
    expect(e.actual.kind).toBe("unknown");
  });

  it("never takes a block led by the wanted side as the actual one", () => {
    const e = read(
      ["# sort", "", "console.log(sortIt([2, 1]))", "", "The correct result is:", "[1, 2]"].join("\n"),
    );
    expect(e.actual.kind).toBe("unknown");
  });
});

describe("a value comment right under a bare expression", () => {
  it("is the expression's result, echoed", () => {
    const a = annotate(
      "const join = require('j')\n\njoin('a', 'B/', '/')\n// http://x.org/B//\n",
      "javascript",
    );
    expect(a.checks.map((c) => c.value)).toEqual(["http://x.org/B//"]);
    expect(a.code).toContain("_echo(join('a', 'B/', '/'))");
  });

  it("a ❌ marks the claim; a ✔️ line and a line under `// correct` are no claim", () => {
    const a = annotate(
      [
        "f('0.5')",
        "// ✔️ '1/2'",
        "",
        "f('0.50000000000000000001')",
        "// ❌ '1/3'",
        "",
        "// correct",
        "f('1')",
        "// '1'",
      ].join("\n"),
      "javascript",
    );
    expect(a.checks.map((c) => [c.value, c.flagged])).toEqual([["'1/3'", true]]);
  });

  it("not words, not a statement, not a comment away from the expression", () => {
    const a = annotate(
      ["f(1)", "// this should work fine", "g(2)", "// x = 3", "h(3)", "", "// 4"].join("\n"),
      "javascript",
    );
    expect(a.checks).toEqual([]);
    // Under an assignment or a declaration: no value of its own.
    expect(annotate("const x = f(1)\n// 3\ny = g(2)\n// 4\n", "javascript").checks).toEqual([]);
  });
});

describe("require() of an ES-module-only release, rerun as an ES module", () => {
  it("recognises Node's refusal, with or without the code", () => {
    expect(requiresEsModule({ type: "Error [ERR_REQUIRE_ESM]", message: "require() of ES Module x" })).toBe(
      true,
    );
    expect(
      requiresEsModule({ type: "Error", message: "require() of ES Module /w/node_modules/a/i.js" }),
    ).toBe(true);
    expect(requiresEsModule({ type: "TypeError", message: "x is not a function" })).toBe(false);
    expect(requiresEsModule(null)).toBe(false);
  });

  it("keeps the statements: a whole-module binding takes the default export, named bindings the exports", () => {
    const out = asEsModule(
      [
        "'use strict';",
        "var urlJoin = require('url-join');",
        'const { a, b: c } = require("pkg");',
        "const d = require('dd').default;",
        "function f() { return require('node:util'); }",
        "console.log(urlJoin('/', '/'), __dirname);",
      ].join("\n"),
    );
    expect(out).not.toBeNull();
    // The imports at the top, each binding where its require was.
    expect(out!.split("\n").slice(0, 3)).toEqual([
      'import * as __esm0 from "url-join";',
      'import * as __esm1 from "pkg";',
      'import * as __esm2 from "dd";',
    ]);
    expect(out).toContain('var urlJoin = ("default" in __esm0 ? __esm0.default : __esm0);');
    expect(out).toContain("const { a, b: c } = __esmPick(__esm1);");
    expect(out).toContain("const d = __esm2.default;");
    // A require left inside a function gets Node's createRequire; __dirname its file name.
    expect(out).toContain("const require = __createRequire(import.meta.url);");
    expect(out).toContain("const __dirname =");
    expect(out).toContain("function f() { return require('node:util'); }");
  });

  it("declares a name assigned without a declaration, as CommonJS allowed", () => {
    const out = asEsModule("const { match } = require('p')\nfn = match([])\nconsole.log(fn('/'))\n");
    expect(out).toContain("var fn;");
    expect(asEsModule("const a = require('p')\nconst b = 1\n")).not.toContain("var ");
  });

  it("nothing to rewrite: no top-level require binding, or already an ES module", () => {
    expect(asEsModule("console.log(1)")).toBeNull();
    expect(asEsModule("import x from 'y';\nconst z = require('z');")).toBeNull();
    expect(esModuleEntry("reproduction.cjs")).toBe("reproduction.mjs");
    expect(esModuleEntry("test.js")).toBe("test.mjs");
  });
});

describe("Node's depth cuts compared as cuts", () => {
  it("[Object] matches any object there, [Array] any array", () => {
    expect(cutMatches("{a:{b:[Object]}}", "{a:{b:{c:{d:1}}}}", true)).toBe(true);
    expect(cutMatches("[[Array],2]", "[[1,[2]],2]", true)).toBe(true);
    expect(cutMatches("{a:[Object]}", "x={a:Foo{n:1}};", false)).toBe(true);
    expect(cutMatches("{a:[Object]}", "{a:[Object]}", true)).toBe(true);
    // Brackets inside strings and the printer's own `Symbol(x)` do not end the value early.
    expect(cutMatches("{a:[Object],b:2}", "{a:{s:Symbol(x),t:'}'},b:2}", true)).toBe(true);
  });

  it("a cut never matches another kind of value or different text around it", () => {
    expect(cutMatches("{a:[Object]}", "{a:1}", true)).toBe(false);
    expect(cutMatches("{a:[Array]}", "{a:{b:1}}", true)).toBe(false);
    expect(cutMatches("{a:[Object],b:2}", "{a:{c:1},b:3}", true)).toBe(false);
    expect(cutMatches("{a:1}", "{a:1}", true)).toBe(false);
  });

  it("a reported line with a cut appears in a run that printed the value in full", () => {
    expect(
      outputAppears(
        ["{ user: { tags: [Array], meta: [Object] } }"],
        "{ user: { tags: [ 'x' ], meta: { k: 1 } } }\n",
      ),
    ).toBe(true);
    expect(
      outputAppears(
        ["{ user: { tags: [Array], meta: [Object] } }"],
        "{ user: { tags: [ 'x' ], meta: null } }\n",
      ),
    ).toBe(false);
  });
});

describe("the runtime-mismatch rule", () => {
  const run = (type: string, message: string, stderr = "Traceback (most recent call last):\n") => ({
    exception: { type, message },
    stderr,
  });
  const report = (versions: string) =>
    parseReport(
      [
        "# b64",
        "",
        f + "python",
        "import base64",
        f,
        "",
        "### CPython versions tested on:",
        "",
        versions,
        "",
      ].join("\n"),
    );

  it("reads the CPython template's version list", () => {
    expect(namedRuntimeVersions(report("3.10, 3.12"), "python")).toEqual(["3.10", "3.12"]);
    expect(namedRuntimeVersions(report("CPython main branch"), "python")).toEqual(["main"]);
  });

  it("a newer runtime named, and the run stops on what this one lacks: an infrastructure error, both runtimes said", () => {
    const d = runtimeShortfall({
      runtime: "python",
      sandbox: "3.11.2",
      claims: true,
      named: ["main"],
      runs: [run("TypeError", "b64decode() got an unexpected keyword argument 'ignorechars'")],
      claimedType: "binascii.Error",
    });
    expect(d).toMatchObject({ ran: "3.11.2", needs: "main" });
    const e = shortfallError(d!);
    expect(e.kind).toBe("infrastructure");
    expect(e.exitCode).toBe(3);
    expect(e.message).toBe(
      "this sandbox cannot run the report: the report needs Python from the main branch (the report names the main branch), and the sandbox ran Python 3.11.2: the code uses `b64decode(ignorechars=…)`, which Python 3.15 added; here the run stopped on TypeError: b64decode() got an unexpected keyword argument 'ignorechars'. That says nothing about the reported bug, so no verdict was given",
    );
    expect(e.hint).toMatch(/`sandbox\.image` in \.github\/retrace\.yml/);
    expect(e.hint).toMatch(
      /RETRACE_SANDBOX_IMAGE \(it has no --image flag yet: `--image` is the setting to add\)/,
    );
    const fstring = runtimeShortfall({
      runtime: "python",
      sandbox: "3.11.2",
      claims: true,
      named: ["3.10", "3.12"],
      runs: [
        run(
          "SyntaxError",
          "f-string: expecting '}'",
          '  File "/workspace/r.py", line 1\n    print(f"{"a"}")\n',
        ),
      ],
      claimedType: null,
    });
    expect(fstring).toMatchObject({ needs: "3.12", source: "the report names 3.10, 3.12" });
    expect(fstring?.why).toBe(
      "the code uses syntax this runtime does not parse; here the run stopped on SyntaxError: f-string: expecting '}'",
    );
  });

  it("an API a later release added needs that release even when the report names no runtime", () => {
    const node = runtimeShortfall({
      runtime: "node",
      sandbox: "v18.20.4",
      claims: true,
      named: [],
      runs: [run("TypeError", "xs.toSorted is not a function", "")],
      claimedType: null,
    });
    expect(node).toMatchObject({ ran: "18.20.4", needs: "20", source: "the API's release" });
    expect(node?.why).toBe(
      "the code uses `toSorted`, which Node.js 20 added; here the run stopped on TypeError: xs.toSorted is not a function",
    );
    // The report names a newer line than the API's: that one is what it needs.
    expect(
      runtimeShortfall({
        runtime: "node",
        sandbox: "18.20.4",
        claims: true,
        named: ["22"],
        runs: [run("TypeError", "xs.toSorted is not a function", "")],
        claimedType: null,
      }),
    ).toMatchObject({ needs: "22", source: "the report names 22" });
    expect(
      runtimeShortfall({
        runtime: "python",
        sandbox: "3.11.2",
        claims: false,
        named: [],
        runs: [run("ModuleNotFoundError", "No module named '_pydatetime'")],
        claimedType: null,
      }),
    ).toMatchObject({ needs: "3.12" });
    // An API this runtime already has (Node 18's findLast) is no shortfall.
    expect(
      runtimeShortfall({
        runtime: "node",
        sandbox: "18.20.4",
        claims: true,
        named: [],
        runs: [run("TypeError", "xs.findLast is not a function", "")],
        claimedType: null,
      }),
    ).toBeNull();
  });

  it("a report on an OLDER runtime, or a newer one whose code ran fine here, is judged: no shortfall", () => {
    const base = { runtime: "python" as const, sandbox: "3.11.2", claims: true, claimedType: null };
    // The reporter's 3.9 lacked what ours has, or its bug was 3.9's: ours decides the verdict.
    expect(
      runtimeShortfall({ ...base, named: ["3.9"], runs: [run("ValueError", "no members with value 252")] }),
    ).toBeNull();
    // The report names 3.13, and the code ran to the end here (or failed on its own): judged normally.
    expect(
      runtimeShortfall({ ...base, named: ["3.13"], runs: [{ exception: null, stderr: "" }] }),
    ).toBeNull();
    expect(runtimeShortfall({ ...base, named: ["3.13"], runs: [run("KeyError", "'x'")] })).toBeNull();
    // Node 4 named, the run fine on 18.
    expect(
      runtimeShortfall({
        runtime: "node",
        sandbox: "18.20.4",
        claims: true,
        named: ["4"],
        runs: [{ exception: null, stderr: "" }],
        claimedType: null,
      }),
    ).toBeNull();
  });

  it("does not fire: the sandbox's own line named, only older ones, the error claimed, a typo, a library's error", () => {
    const lacks = [run("TypeError", "f() got an unexpected keyword argument 'x'")];
    const base = { runtime: "python" as const, sandbox: "3.11.2", claims: true, claimedType: null };
    expect(runtimeShortfall({ ...base, named: ["3.11", "3.12"], runs: lacks })).toBeNull();
    expect(runtimeShortfall({ ...base, named: ["3.9"], runs: lacks })).toBeNull();
    expect(runtimeShortfall({ ...base, named: [], runs: lacks })).toBeNull();
    expect(
      runtimeShortfall({
        ...base,
        named: ["3.12"],
        runs: lacks,
        claimedType: "TypeError",
        claimedMessage: "unexpected keyword argument 'x'",
      }),
    ).toBeNull();
    // A report that states no behaviour (a quoted fragment of the library's source): nothing to decide.
    expect(runtimeShortfall({ ...base, claims: false, named: ["3.13"], runs: lacks })).toBeNull();
    const typo = run(
      "SyntaxError",
      "invalid syntax",
      '  File "/workspace/r.py", line 3\n    This worked before\n',
    );
    expect(runtimeShortfall({ ...base, named: ["3.13"], runs: [typo] })).toBeNull();
    expect(runtimeShortfall({ ...base, named: ["3.13"], runs: [run("ValueError", "bad value")] })).toBeNull();
    // Node: a keyword-argument lack is Python's; a Node report on 20 whose library throws is not decided here.
    expect(
      runtimeShortfall({ ...base, runtime: "node", sandbox: "18.20.4", named: ["20"], runs: lacks }),
    ).toBeNull();
  });
});
