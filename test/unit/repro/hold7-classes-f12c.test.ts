/**
 * Classes of hold7's remaining misses (fixer f12c), each on reports written here: the same library line raising
 * the same exception type with a message the runtime words differently; a data file the code reads, shown under
 * its name; markup output compared as markup.
 */
import { describe, expect, it } from "vitest";
import { missingApi } from "../../../src/repro/attempt.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { pinDependencies } from "../../../src/repro/dependencies.ts";
import { matchRun, type RunObservation, thrownInLibrary } from "../../../src/repro/match.ts";
import type { ExecutedRun } from "../../../src/repro/execute.ts";
import { parseNodeException, parsePythonException, pythonRaisingFrame } from "../../../src/repro/outcome.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const run = (stderr: string, stdout = ""): RunObservation => ({
  exitCode: stderr ? 1 : 0,
  stoppedBy: null,
  stdout,
  stderr,
  exception: stderr ? parsePythonException(stderr) : null,
  durationMs: 10,
});

const newerTraceback = [
  "Traceback (most recent call last):",
  '  File "<stdin>", line 1, in <module>',
  '    shelf.lookup("k")',
  "    ~~~~~~~~~~~~^^^^^",
  '  File "../Lib/shelfy.py", line 90, in lookup',
  "    return self._resolve(key,",
  "           ~~~~~~~~~~~~~^^^^^",
  "                         d)",
  "                         ^^",
  '  File "../Lib/shelfy.py", line 120, in _resolve',
  '    if "@" in value:',
  "      ^^^^^^^^^^^^",
  "TypeError: argument of type 'NoneType' is not a container or iterable",
].join("\n");

const report = [
  "# lookup raises TypeError on an empty entry",
  "",
  `${f}py`,
  "import shelfy",
  "shelf = shelfy.Shelf(empty_ok=True)",
  'shelf.lookup("k")',
  f,
  "",
  `${f}`,
  newerTraceback,
  f,
].join("\n");

const olderRun = (line: string, fn = "_resolve", type = "TypeError") =>
  [
    "Traceback (most recent call last):",
    '  File "/workspace/reproduction.py", line 3, in <module>',
    '    shelf.lookup("k")',
    '  File "/usr/lib/python3.11/shelfy.py", line 88, in lookup',
    "    return self._resolve(key,",
    `  File "/usr/lib/python3.11/shelfy.py", line 118, in ${fn}`,
    `    ${line}`,
    "       ^^^^^^^^^^^^",
    `${type}: argument of type 'NoneType' is not iterable`,
  ].join("\n");

describe("the same exception type raised at the reported library line", () => {
  it("reads the traceback's last frame and its source line, markers and continuations aside", () => {
    expect(pythonRaisingFrame(newerTraceback)).toEqual({
      file: "shelfy.py",
      path: "../Lib/shelfy.py",
      function: "_resolve",
      line: 'if "@" in value:',
    });
  });

  it("is the reported failure when the message is worded differently by this runtime", () => {
    const { actual } = reportedExpectations(parseReport(report));
    expect(actual.raisedAt?.function).toBe("_resolve");
    const m = matchRun(actual, run(olderRun('if "@" in value:')));
    expect(m.kind).toBe("match");
    expect(m.detail).toContain("at the reported line");
  });

  it("does not fire on another line, another function, or in the reporter's own script", () => {
    const { actual } = reportedExpectations(parseReport(report));
    expect(matchRun(actual, run(olderRun('if "#" in value:'))).kind).toBe("different-failure");
    expect(matchRun(actual, run(olderRun('if "@" in value:', "_other"))).kind).toBe("different-failure");
    expect(matchRun(actual, run(olderRun('if "@" in value:', "_resolve", "ValueError"))).kind).toBe(
      "different-failure",
    );
    const own = olderRun('if "@" in value:').replace(
      '/usr/lib/python3.11/shelfy.py", line 118',
      '/workspace/shelfy.py", line 118',
    );
    expect(matchRun(actual, run(own)).kind).toBe("different-failure");
    // A frame at a script's top level says nothing about which failure it was.
    const top = [
      "Traceback (most recent call last):",
      '  File "t.py", line 2, in <module>',
      "    x = int(s)",
      "ValueError: invalid literal for int() with base 10: 'a'",
    ].join("\n");
    const topReport = `# int fails\n\n${f}py\ns = "a"\nx = int(s)\n${f}\n\n${f}\n${top}\n${f}\n`;
    const { actual: a2 } = reportedExpectations(parseReport(topReport));
    const topRun = [
      "Traceback (most recent call last):",
      '  File "/workspace/reproduction.py", line 2, in <module>',
      "    x = int(s)",
      "ValueError: invalid literal for int() with base 10: 'b'",
    ].join("\n");
    expect(matchRun(a2, run(topRun)).kind).toBe("different-failure");
  });
});

describe("a data file the code reads, shown under its name", () => {
  const withFile = (label: string, read: string) =>
    [
      "# interpolation fails",
      "",
      "with this file,",
      "",
      label,
      `${f}ini`,
      "[dummy]",
      "a",
      "b = %(a)s",
      f,
      "and this script:",
      "",
      `${f}python`,
      "import configparser",
      "config = configparser.ConfigParser(allow_no_value=True)",
      `config.read(${read})`,
      'print(config.get("dummy", "b"))',
      f,
    ].join("\n");

  it("is written beside the program", () => {
    const p = completeProgram(parseReport(withFile("**config.ini**", '"config.ini"')))!;
    expect(p.files["config.ini"]).toBe("[dummy]\na\nb = %(a)s\n");
    expect(p.completions.join(" ")).toContain("`config.ini`");
  });

  it("is not written when the code never names it, or under another name", () => {
    expect(
      completeProgram(parseReport(withFile("**config.ini**", "path")))!.files["config.ini"],
    ).toBeUndefined();
    const other = completeProgram(parseReport(withFile("**other.ini**", '"config.ini"')))!;
    expect(Object.keys(other.files)).toEqual(["reproduction.py"]);
  });
});

describe("markup compared as markup", () => {
  const pretty = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    "<fruit>",
    "  pearplum",
    "  <seed/>",
    "</fruit>",
  ].join("\n");
  const output = (s: string[]) => ({
    kind: "output" as const,
    exceptionType: null,
    exceptionMessage: null,
    output: s,
    source: "the report's words",
  });

  it("matches a one-line report against the pretty-printed run, when an expected markup differs", () => {
    const m = matchRun(output(["<fruit>pearplum<seed /></fruit>"]), run("", pretty), [
      "<fruit>pear<seed />plum</fruit>",
    ]);
    expect(m.kind).toBe("match");
    expect(m.detail).toContain("markup");
  });

  it("does not fire without an expected markup, when it lays out the same, or on other text", () => {
    expect(matchRun(output(["<fruit>pearplum<seed /></fruit>"]), run("", pretty)).kind).toBe("clean");
    expect(
      matchRun(output(["<fruit>pearplum<seed /></fruit>"]), run("", pretty), [
        "<fruit>\n  pearplum\n  <seed/>\n</fruit>",
      ]).kind,
    ).toBe("clean");
    expect(
      matchRun(output(["<fruit>pear plum<seed /></fruit>"]), run("", pretty), [
        "<fruit>pear<seed />plum</fruit>",
      ]).kind,
    ).toBe("clean");
    // The run printed the expected markup, laid out otherwise: not a reproduction.
    const fixed = pretty.replace("  pearplum\n  <seed/>", "  pear\n  <seed/>\n  plum");
    expect(
      matchRun(output(["<fruit>pearplum<seed /></fruit>"]), run("", fixed), [
        "<fruit>pear<seed />plum</fruit>",
      ]).kind,
    ).toBe("clean");
  });
});

describe("a report that says the call throws, quoting nothing", () => {
  const throwsReport = [
    "# template throws on escapes",
    "",
    "With 1.2.4 this worked perfectly, but on 1.3.3 it throws:",
    "",
    `${f} js`,
    `console.log("a" + _.template('<%= "\\n" %>', {}) + "b");`,
    f,
  ].join("\n");
  const unquoted = {
    kind: "error-unspecified" as const,
    exceptionType: null,
    exceptionMessage: null,
    output: [],
    source: "the report's words",
  };
  const nodeRun = (frames: string[], type = "SyntaxError"): RunObservation => ({
    exitCode: 1,
    stoppedBy: null,
    stdout: "",
    stderr: [`${type}: Invalid or unexpected token`, ...frames].join("\n"),
    exception: { type, message: "Invalid or unexpected token" },
    durationMs: 10,
  });

  it("binds `_` to the repository's package and installs the release the prose does not call good", () => {
    const report = parseReport(throwsReport);
    const p = completeProgram(report, null, "underscore")!;
    expect(p.files[p.entry]).toContain('require("underscore")');
    expect(pinDependencies(p, report, null, "underscore").map((x) => `${x.name}@${x.version}`)).toEqual([
      "underscore@1.3.3",
    ]);
    // In another repository's report `_` stays lodash's.
    expect(completeProgram(report, null, "left-pad")!.files["reproduction.cjs"]).toContain(
      'require("lodash")',
    );
  });

  it("is reproduced by an error thrown inside the library", () => {
    const m = matchRun(
      unquoted,
      nodeRun([
        "    at new Function (<anonymous>)",
        "    at Function.template (/workspace/node_modules/underscore/underscore.js:981:18)",
        "    at Object.<anonymous> (/workspace/reproduction.cjs:2:21)",
      ]),
    );
    expect(m.kind).toBe("match");
    expect(m.detail).toContain("`underscore`");
    expect(
      thrownInLibrary('  File "/usr/lib/python3.11/csv.py", line 9, in f\n    x()\nValueError: v'),
    ).toBeNull();
    const py =
      'Traceback (most recent call last):\n  File "/workspace/reproduction.py", line 2, in <module>\n    csv.f()\n  File "/usr/lib/python3.11/csv.py", line 9, in f\n    raise ValueError("v")\nValueError: v';
    expect(thrownInLibrary(py)).toContain("standard library");
  });

  it("is not reproduced by an error the snippet's own lines throw, or a warning's stack before it", () => {
    const own = nodeRun(["    at Object.<anonymous> (/workspace/reproduction.cjs:2:21)"], "TypeError");
    expect(matchRun(unquoted, own).kind).toBe("unconfirmed-failure");
    const warned: RunObservation = {
      ...own,
      stderr: [
        "Warning: deprecated",
        "    at warn (/workspace/node_modules/underscore/underscore.js:10:3)",
        own.stderr,
      ].join("\n"),
    };
    expect(matchRun(unquoted, warned).kind).toBe("unconfirmed-failure");
  });
});

describe("an ESM-only newest release under the report's require()", () => {
  const esm = (stderr: string): ExecutedRun => ({
    ...run(""),
    exitCode: 1,
    stderr,
    exception: parseNodeException(stderr),
    runtimeVersion: "18.20.4",
    stdoutTruncated: false,
    stderrTruncated: false,
  });

  it("is a missing API of our version choice (an older release line is tried), read from Node's own line", () => {
    const text = [
      "/workspace/reproduction.cjs:1",
      "const { match } = require('some-router')",
      "Error [ERR_REQUIRE_ESM]: require() of ES Module /workspace/node_modules/some-router/dist/index.js from /workspace/reproduction.cjs not supported.",
      "Instead change the require of index.js in /workspace/reproduction.cjs to a dynamic import() which is available in all CommonJS modules.",
      "    at Object.<anonymous> (/workspace/reproduction.cjs:1:19) {",
      "  code: 'ERR_REQUIRE_ESM'",
      "}",
    ].join("\n");
    expect(missingApi(esm(text))).toContain("require() of ES Module");
  });

  it("is not one for an error of the package's own that only mentions modules", () => {
    const text = [
      "Error: require() is not allowed here",
      "    at f (/workspace/node_modules/x/index.js:1:1)",
    ].join("\n");
    expect(missingApi(esm(text))).toBeNull();
  });
});
