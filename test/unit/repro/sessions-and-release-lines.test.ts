/**
 * Shell sessions that write or show the script they run (`$ cat > test.js` … `<Ctrl+D>`, `$ cat test.js`), run it
 * through its shebang (`$ ./t.js`), or install a release first (`$ npm i pkg@1.2.3`) on each of two sides; release
 * lines named instead of releases (`pkg@5`); the release a report without a version is run on. Reports written
 * for these tests.
 */
import { describe, expect, it } from "vitest";
import { asBundlerCommonJs, completeProgram } from "../../../src/repro/complete.ts";
import { pinDependencies, releaseLine } from "../../../src/repro/dependencies.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { messagesAgree, outputAppears } from "../../../src/repro/match.ts";
import { normalizeText } from "../../../src/repro/normalize.ts";
import { parseNodeException } from "../../../src/repro/outcome.ts";
import { pastedErrorDump, reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseShellSession, sessionFiles } from "../../../src/repro/shell-session.ts";
import { leadVerdict } from "../../../src/repro/version-verdict.ts";
import { findVersionMentions } from "../../../src/repro/versions.ts";
import { npmReleaseFor } from "../../../src/install/registry-lookup.ts";

const f = "```";

describe("files a shell session writes or shows", () => {
  it("reads `cat > f` up to Ctrl+D, a heredoc up to its marker, and `cat f` up to the next prompt", () => {
    const text = [
      "$ mkdir demo && cd demo",
      "$ cat > app.js",
      "const x = require('left-pad')",
      "console.log(x('a', 3))",
      "^D",
      "$ cat <<'EOF' > b.py",
      "print(1)",
      "EOF",
      "$ cat shown.js",
      "console.log(2)",
      "",
      "$ node app.js",
      "  a",
    ].join("\n");
    expect(sessionFiles(text)).toEqual([
      { file: "app.js", content: "const x = require('left-pad')\nconsole.log(x('a', 3))", how: "written" },
      { file: "b.py", content: "print(1)", how: "written" },
      { file: "shown.js", content: "console.log(2)", how: "shown" },
    ]);
    expect(sessionFiles("$ cat notes.txt\nhello")).toEqual([]);
  });

  it("runs the file the session wrote, by the name it runs it, with that run's arguments and output", () => {
    const md = [
      "# flag comes out wrong",
      "",
      `${f}sh`,
      "$ cat > cli.js",
      "const opts = require('tiny-flags')(process.argv.slice(2))",
      "console.log(opts)",
      "<Ctrl+D>",
      "$ node cli.js --fast",
      "{ fast: 'yes' }",
      f,
    ].join("\n");
    const report = parseReport(md);
    const program = completeProgram(report)!;
    expect(program.entry).toBe("cli.js");
    expect(program.files["cli.js"]).toContain("require('tiny-flags')");
    expect(program.args).toEqual(["--fast"]);
    expect(program.dependencies).toEqual(["tiny-flags"]);
    expect(reportedExpectations(report).actual).toMatchObject({
      kind: "output",
      output: ["{ fast: 'yes' }"],
    });
  });

  it("a run shown once, beside runs shown again with the output wanted, is not the reported bug", () => {
    const f = "```";
    const md = [
      "`cli.js`:",
      `${f}js`,
      "#!/usr/bin/env node",
      "console.log(require('tiny-flags')(process.argv.slice(2)));",
      f,
      "Today:",
      f,
      "$ ./cli.js --fast go",
      "{ _: [ 'go' ], fast: true }",
      "$ ./cli.js --fast yes",
      "{ _: [], fast: true }",
      f,
      "What I want for the case that fails:",
      f,
      "$ ./cli.js --fast yes",
      "{ _: [ 'yes' ], fast: true }",
      f,
    ].join("\n");
    const actual = reportedExpectations(parseReport(md)).actual;
    // Not `--fast go` (shown once: nothing says it is wrong), but the run the report shows twice.
    expect(actual).toMatchObject({ kind: "output", output: ["{ _: [], fast: true }"] });
    expect(actual?.source).toContain("--fast yes");
  });

  it("runs the program as the invocation taken as the claim, and takes its second showing as the output wanted", () => {
    const md = [
      "`cli.js`:",
      `${f}js`,
      "#!/usr/bin/env node",
      "console.log(require('tiny-flags')(process.argv.slice(2)));",
      f,
      "Today:",
      f,
      "$ ./cli.js --fast go",
      "{ _: [ 'go' ], fast: true }",
      "$ ./cli.js --fast yes",
      "{ _: [], fast: true }",
      f,
      "What I want for the case that fails:",
      f,
      "$ ./cli.js --fast yes",
      "{ _: [ 'yes' ], fast: true }",
      f,
    ].join("\n");
    const report = parseReport(md);
    const exp = reportedExpectations(report);
    expect(exp.invocation).toEqual({ file: "cli.js", args: ["--fast", "yes"] });
    expect(exp.expectedOutput).toEqual(["{ _: [ 'yes' ], fast: true }"]);
    // Not the first run with arguments (`--fast go`): the output compared must be that of the same invocation.
    expect(completeProgram(report, exp.invocation)?.args).toEqual(["--fast", "yes"]);
    expect(completeProgram(report)?.args).toEqual(["--fast", "go"]);
  });

  it("of runs shown once each, takes the one ending in an error beside clean ones as the claim", () => {
    const md = [
      `${f}js`,
      "// t.js",
      "console.log(require('tiny-flags')(process.argv.slice(2)));",
      f,
      f,
      "$ node t.js --n 8",
      "{ n: 8 }",
      "$ node t.js --n 9",
      "/w/t.js:1",
      "RangeError: too many flags",
      "    at parse (/w/node_modules/tiny-flags/index.js:3:9)",
      f,
    ].join("\n");
    const report = parseReport(md);
    const exp = reportedExpectations(report);
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "RangeError" });
    expect(exp.invocation).toEqual({ file: "t.js", args: ["--n", "9"] });
    expect(completeProgram(report, exp.invocation)?.args).toEqual(["--n", "9"]);
  });

  it("reads `$ ./script.js args` as a run of that script through its shebang", () => {
    const runs = parseShellSession("$ ./t.js --all true\n{ all: true }\n$ ./t.js --no-all\n{ all: false }");
    expect(runs.map((r) => [r.interpreter, r.script, r.output])).toEqual([
      ["node", { file: "t.js", args: ["--all", "true"] }, ["{ all: true }"]],
      ["node", { file: "t.js", args: ["--no-all"] }, ["{ all: false }"]],
    ]);
  });
});

describe("two sessions on two releases", () => {
  const md = [
    "# 2.0 broke the default",
    "",
    `${f}sh`,
    "$ cat > run.js",
    "console.log(require('opt-kit')({ dev: false }).dev)",
    "<Ctrl+D>",
    f,
    "",
    "With opt-kit@1.4.0 (works as expected):",
    f,
    "$ npm i opt-kit@1.4.0",
    "$ node run.js --dev",
    "true",
    f,
    "",
    "With opt-kit@2.0.1 (quite unexpected):",
    f,
    "$ npm i opt-kit@2.0.1",
    "$ node run.js --dev",
    "false",
    f,
  ].join("\n");

  it("labels each side by the release it installed; the introducing words pick the bad side", () => {
    const report = parseReport(md);
    const exp = reportedExpectations(report);
    expect(exp.twoVersions?.bad?.label).toBe("opt-kit@2.0.1");
    expect(exp.twoVersions?.good?.label).toBe("opt-kit@1.4.0");
    expect(exp.actual).toMatchObject({ kind: "output", output: ["false"] });
    expect(exp.expectedOutput).toEqual(["true"]);
    const program = completeProgram(report)!;
    expect(pinDependencies(program, report, exp.twoVersions?.bad?.label)).toEqual([
      { name: "opt-kit", version: "2.0.1", source: "reported" },
    ]);
  });

  it("reads what the words introducing one transcript say of it", () => {
    expect(leadVerdict("1. pkg@1.0.0 (behaves as expected)")).toBe("good");
    expect(leadVerdict("On 3.11 it works fine:")).toBe("good");
    expect(leadVerdict("2. pkg@2.0.0 (rather unexpected)")).toBe("bad");
    expect(leadVerdict("and here is the broken one:")).toBe("bad");
    expect(leadVerdict("Then I ran:")).toBeNull();
  });
});

describe("release lines instead of releases", () => {
  it("reads `pkg@5`, and of two lines of one package the newer", () => {
    expect(findVersionMentions("(same with widget@3 and widget@5)")).toEqual([
      { name: "widget", version: "5", style: "@" },
    ]);
    expect(findVersionMentions("same on node@16 and python@3")).toEqual([]);
    expect(findVersionMentions("widget@2.1.0 and widget@3")).toEqual([
      { name: "widget", version: "2.1.0", style: "@" },
    ]);
  });

  it("a line is resolved at install, a release is pinned as it is", () => {
    expect(releaseLine("5")).toBe("5");
    expect(releaseLine("5.x")).toBe("5");
    expect(releaseLine("1.2")).toBe("1.2");
    expect(releaseLine("1.2.3")).toBeNull();
    const report = parseReport(
      ["# odd", "", "Tried widget@4 and widget@6.", "", `${f}js`, "console.log(require('widget').v)", f].join(
        "\n",
      ),
    );
    expect(pinDependencies(completeProgram(report)!, report)).toEqual([
      { name: "widget", version: null, within: "6", source: "reported" },
    ]);
  });

  it("the registry answers the newest release in the line that runs on the sandbox's Node", () => {
    const body = {
      "dist-tags": { latest: "7.0.0" },
      versions: {
        "5.0.0": {},
        "5.2.0": { engines: { node: ">=20" } },
        "5.1.3": { engines: { node: ">=12" } },
        "6.0.0": {},
        "7.0.0": {},
      },
    };
    expect(npmReleaseFor(body, null, "5")).toBe("5.2.0");
    expect(npmReleaseFor(body, "18.20.4", "5")).toBe("5.1.3");
    expect(npmReleaseFor(body, "18.20.4", "5.0")).toBe("5.0.0");
    expect(npmReleaseFor(body, "18.20.4", "9")).toBeNull();
    expect(npmReleaseFor(body, "18.20.4", "not a range")).toBeNull();
  });
});

describe("an error dump pasted without a fence", () => {
  it("reads a Node error line with its stack under it, and a Python traceback, from the text", () => {
    const node = pastedErrorDump(
      [
        "const lib = require('lib');",
        "^",
        "Error [ERR_REQUIRE_ESM]: require() of ES Module /x/node_modules/lib/index.js from /x/a.js not supported.",
        "Instead change the require of index.js in /x/a.js to a dynamic import().",
        "at Object. (/x/a.js:1:13) {",
        "code: 'ERR_REQUIRE_ESM'",
        "}",
        "what is this?",
      ].join("\n"),
    );
    expect(node).toMatchObject({
      kind: "exception",
      exceptionType: "Error",
      exceptionMessage: "require() of ES Module /x/node_modules/lib/index.js from /x/a.js not supported.",
    });
    const py = pastedErrorDump(
      "I ran it and got\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'x'\nwhy?",
    );
    expect(py).toMatchObject({ kind: "exception", exceptionType: "KeyError" });
  });

  it("leaves a name in a sentence, with no stack under it, to the prose rules", () => {
    expect(pastedErrorDump("It fails with TypeError: x is not a function when I call it.")).toBeNull();
  });
});

describe("printed structures laid out differently", () => {
  it("matches the same characters in order whatever the line breaks, only for structures", () => {
    const reported = ["{ _: [],", "  'long-name': true,", "  longName: [ false, true ],", "  '$0': 't.js' }"];
    const observed = "{\n  _: [],\n  'long-name': true,\n  longName: [ false, true ],\n  '$0': 't.js'\n}\n";
    expect(outputAppears(reported, observed)).toBe(true);
    expect(outputAppears(reported, observed.replace("false, true", "true"))).toBe(false);
  });
});

describe("an error message over several lines, and paths the reporter redacted", () => {
  it("reads Node's error whose message runs on before its stack", () => {
    const stderr = [
      "/workspace/a.cjs:1",
      "const lib = require('lib');",
      "            ^",
      "",
      "Error [ERR_REQUIRE_ESM]: require() of ES Module /workspace/node_modules/lib/index.js from /workspace/a.cjs not supported.",
      "Instead change the require of index.js in /workspace/a.cjs to a dynamic import() which is available in all CommonJS modules.",
      "    at Object.<anonymous> (/workspace/a.cjs:1:13) {",
      "  code: 'ERR_REQUIRE_ESM'",
      "}",
    ].join("\n");
    expect(parseNodeException(stderr)).toEqual({
      type: "Error",
      message:
        "require() of ES Module /workspace/node_modules/lib/index.js from /workspace/a.cjs not supported.",
    });
  });

  it("a redacted root (`<cut>\\…`, `<FOLDER_PATH>/…`, `~/…`) is a path like any other", () => {
    expect(
      messagesAgree(
        "require() of ES Module <cut>\\Bot\\node_modules\\lib\\index.js from <cut>\\Bot\\a.js not supported.",
        "require() of ES Module /workspace/node_modules/lib/index.js from /workspace/a.cjs not supported.",
      ),
    ).toBe(true);
    expect(normalizeText("at <FOLDER_PATH>/node_modules/figlet/dist/figlet.cjs:1110:5")).toBe("at <path>");
    expect(messagesAgree("cannot read <cut>\\a.js", "cannot write /workspace/a.js")).toBe(false);
  });
});

describe("imports written for a bundler", () => {
  it("runs a snippet importing a package's inner path without an extension as CommonJS, requires hoisted", () => {
    const out = asBundlerCommonJs(
      [
        "console.log(fmt(1));",
        "import fmt, { parse as p } from 'tiny-date/fp'",
        "import * as all from 'tiny-date';",
        "import { one } from 'tiny-date/sub';",
      ].join("\n"),
    );
    expect(out).toBe(
      [
        "const _default = (m) => (m && m.__esModule ? m.default : m);",
        'const fmt = _default(require("tiny-date/fp"));',
        'const { parse: p } = require("tiny-date/fp");',
        'const all = require("tiny-date");',
        'const { one } = require("tiny-date/sub");',
        "console.log(fmt(1));",
      ].join("\n"),
    );
  });

  it("leaves alone modules Node resolves, and what it cannot rewrite", () => {
    expect(asBundlerCommonJs("import { x } from 'pkg';\nx();")).toBeNull();
    expect(asBundlerCommonJs("import { x } from 'pkg/sub.js';\nx();")).toBeNull();
    expect(asBundlerCommonJs("import { x } from 'pkg/sub';\nexport const y = x;")).toBeNull();
    expect(asBundlerCommonJs("import { x } from 'pkg/sub';\nconsole.log(import.meta.url);")).toBeNull();
  });

  it("is how the report's program is completed", () => {
    const report = parseReport(
      [
        "# t",
        "",
        `${f}js`,
        "import { format } from 'tiny-date/fp'",
        "console.log(format(new Date(0), 'yyyy'))",
        f,
      ].join("\n"),
    );
    const program = completeProgram(report)!;
    expect(program.moduleFormat).toBe("cjs");
    expect(program.files[program.entry]).toContain('const { format } = require("tiny-date/fp");');
    expect(program.dependencies).toEqual(["tiny-date"]);
  });
});
