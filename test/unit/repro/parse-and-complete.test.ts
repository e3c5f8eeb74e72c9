import { describe, expect, it } from "vitest";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { detectLanguage } from "../../../src/repro/detect-language.ts";
import { findStaticNeeds } from "../../../src/repro/needs.ts";
import { parseNodeException, parsePythonException } from "../../../src/repro/outcome.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import {
  nodeScriptFromTranscript,
  parseTranscript,
  pythonScriptFromTranscript,
} from "../../../src/repro/transcript.ts";
import { findRuntimeMention, findVersionMentions } from "../../../src/repro/versions.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const fence = "```";

describe("parseReport", () => {
  const md = [
    "# `parse()` crashes on empty input",
    "",
    "Using semver@5.0.0 and lodash==4.17.4 on Node.js v18.19.0.",
    "",
    "## Steps to reproduce",
    "",
    `${fence}js`,
    'const x = require("semver");',
    `${fence}`,
    "",
    "## Actual behaviour",
    "",
    `${fence}`,
    "TypeError: x is not a function",
    "    at Object.<anonymous> (/a/b.js:1:1)",
    `${fence}`,
    "",
    "**Expected:** it returns `null`.",
  ].join("\n");
  const r = parseReport(md);
  it("reads the title, blocks, sections, versions and runtime", () => {
    expect(r.title).toBe("parse() crashes on empty input");
    expect(r.blocks.map((b) => [b.kind, b.language, b.section])).toEqual([
      ["code", "javascript", "steps"],
      ["error-output", "javascript", "actual"],
    ]);
    expect(r.versions).toEqual([
      { name: "semver", version: "5.0.0", style: "@" },
      { name: "lodash", version: "4.17.4", style: "==" },
    ]);
    expect(r.runtime).toEqual({ name: "node", version: "18.19.0" });
  });
  it("takes the reported exception from the error output and the expected value from the Expected section", () => {
    const e = reportedExpectations(r);
    expect(e.actual).toMatchObject({
      kind: "exception",
      exceptionType: "TypeError",
      exceptionMessage: "x is not a function",
    });
    expect(e.expectedOutput).toEqual(["null"]);
  });
});

describe("classifyBlock / detectLanguage", () => {
  it("tells code, transcripts, tracebacks, listings and output apart", () => {
    expect(classifyBlock(null, "def f(x):\n    return x\nprint(f(1))").kind).toBe("code");
    expect(classifyBlock("python", ">>> 1 + 1\n2")).toEqual({
      kind: "python-transcript",
      language: "python",
    });
    expect(classifyBlock(null, "> [1, 10, 2].sort()\n[ 1, 10, 2 ]").kind).toBe("node-transcript");
    expect(
      classifyBlock(null, 'Traceback (most recent call last):\n  File "x", line 1\nKeyError: 1').kind,
    ).toBe("traceback");
    expect(classifyBlock(null, "numpy==1.26.4\npandas==2.1.0").kind).toBe("versions");
    expect(classifyBlock(null, "proj@1.0.0 /x\n└── semver@5.0.0").kind).toBe("versions");
    expect(classifyBlock(null, "0.5 -> 0\n2.5 -> 2").kind).toBe("output");
    expect(classifyBlock("ts", "const a: number = 1;").language).toBe("typescript");
    expect(detectLanguage("const x = require('ms');\nconsole.log(x('1d'));")).toBe("javascript");
    expect(detectLanguage("import json\nprint(json.dumps({}))")).toBe("python");
  });
});

describe("versions", () => {
  it("finds npm, pip, prose and listing styles, and skips runtimes and OS names", () => {
    const v = findVersionMentions(
      "ms@0.7.0, requests==2.31.0, numpy version 1.26.4, Ubuntu 22.04, Python 3.11.4\nattrs     23.1.0",
    );
    expect(v.map((m) => `${m.name}:${m.version}`)).toEqual([
      "ms:0.7.0",
      "requests:2.31.0",
      "attrs:23.1.0",
      "numpy:1.26.4",
    ]);
    expect(findRuntimeMention("python3.10 on mac")).toEqual({ name: "python", version: "3.10" });
  });
});

describe("transcripts", () => {
  it("replays a Python session with REPL echo semantics and keeps its printed lines", () => {
    const t = parseTranscript(
      ">>> xs = [3, 1]\n>>> xs.sort()\n>>> xs\n[1, 3]\n>>> def f():\n...     return 1\n...\n>>> f()\n1",
      "python",
    );
    expect(t.output).toEqual(["[1, 3]", "1"]);
    const script = pythonScriptFromTranscript(t);
    expect(script).toContain("xs = [3, 1]\n_echo(xs.sort())\n_echo(xs)\ndef f():\n    return 1\n_echo(f())");
  });
  it("replays a Node session, drops `undefined` echoes, and reads the Uncaught error", () => {
    const t = parseTranscript(
      "> const a = [1, 10, 2]\nundefined\n> a.sort()\n[ 1, 10, 2 ]\n> JSON.parse('{')\nUncaught SyntaxError: Unexpected end of JSON input",
      "node",
    );
    expect(t.output).toEqual(["[ 1, 10, 2 ]"]);
    expect(parseNodeException(t.errorText ?? "")).toEqual({
      type: "SyntaxError",
      message: "Unexpected end of JSON input",
    });
    expect(nodeScriptFromTranscript(t)).toContain("let a = [1, 10, 2];\n_echo(a.sort());");
  });
});

describe("completeProgram", () => {
  const program = (md: string) => completeProgram(parseReport(md))!;
  it("adds missing stdlib imports and an entry point, without touching the logic", () => {
    const p = program(
      `# t\n\n${fence}python\ndef main():\n    print(json.dumps({"d": Decimal("1")}))\n${fence}\n`,
    );
    expect(p.files["reproduction.py"]).toBe(
      'import json\nfrom decimal import Decimal\ndef main():\n    print(json.dumps({"d": Decimal("1")}))\n\n\nif __name__ == "__main__":\n    main()\n',
    );
    expect(p.completions).toHaveLength(2);
  });
  it("adds the require of a named npm package and runs top-level await as ESM or in an async wrapper", () => {
    const cjs = program(`# t\nWith ms@0.7.0\n\n${fence}js\nconsole.log(ms("1 week"));\n${fence}\n`);
    expect(cjs.entry).toBe("reproduction.cjs");
    expect(cjs.files[cjs.entry]).toMatch(/^const ms = require\("ms"\);\n/);
    expect(cjs.dependencies).toEqual(["ms"]);
    const esm = program(
      `# t\n\n${fence}js\nconst r = await Promise.resolve(1);\nconsole.log(r);\n${fence}\n`,
    );
    expect(esm.entry).toBe("reproduction.mjs");
    const wrapped = program(
      `# t\n\n${fence}js\nconst fs = require("fs");\nawait fs.promises.readFile("x");\n${fence}\n`,
    );
    expect(wrapped.files[wrapped.entry]).toContain("(async () => {");
  });
  it("combines blocks of one program and keeps named files separate", () => {
    const p = program(
      `# t\n\n\`util.py\`:\n\n${fence}python\ndef twice(x):\n    return 2 * x\n${fence}\n\n${fence}python\nfrom util import twice\nprint(twice(2))\n${fence}\n`,
    );
    expect(Object.keys(p.files).sort()).toEqual(["reproduction.py", "util.py"]);
    expect(p.dependencies).toEqual([]);
  });
  it("finds what the sandbox cannot have", () => {
    const needs = (code: string) =>
      findStaticNeeds(program(`# t\n\n${fence}python\n${code}\n${fence}\n`)).map((n) => n.reason);
    expect(needs("name = input()\nprint(name)")[0]).toMatch(/standard input/);
    expect(needs("import requests\nprint(requests.get('https://x.example').text)")[0]).toMatch(/network/);
    expect(needs("print(open('data.csv').read())")[0]).toMatch(/data\.csv/);
    expect(needs("open('out.txt', 'w').write('x')\nprint(open('out.txt').read())")).toEqual([]);
  });
});

describe("outcome parsing", () => {
  it("reads the last exception of a chained Python traceback and dotted names", () => {
    const tb =
      'Traceback (most recent call last):\n  File "a.py", line 1\nKeyError: \'a\'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "a.py", line 3\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)';
    expect(parsePythonException(tb)).toEqual({
      type: "json.decoder.JSONDecodeError",
      message: "Expecting value: line 1 column 1 (char 0)",
    });
    expect(parsePythonException("packaging.version.InvalidVersion: Invalid version: 'x'")).toEqual({
      type: "packaging.version.InvalidVersion",
      message: "Invalid version: 'x'",
    });
  });
  it("reads Node's uncaught error after the source excerpt", () => {
    const err =
      "/workspace/r.cjs:2\nx()\n^\n\nTypeError: x is not a function\n    at Object.<anonymous> (/workspace/r.cjs:2:1)\n\nNode.js v18.20.4";
    expect(parseNodeException(err)).toEqual({ type: "TypeError", message: "x is not a function" });
  });
});

describe("hostile code blocks (fourth red team)", () => {
  it("a Python block with a 60,000-space line is completed in linear time, names bound as before", () => {
    const { value: p, ms } = cpuMs(() =>
      completeProgram(
        parseReport(
          `# t\n\n\`\`\`python\na, b: int = 2, 3\nx = 1\n${" ".repeat(60_000)}\nprint(x, a, b)\n\`\`\`\n`,
        ),
      ),
    );
    expect(ms).toBeLessThan(2_000);
    expect(p).not.toBeNull();
    expect(p!.files[p!.entry]).toContain("print(x, a, b)");
    // x, a and b are bound by the block itself: nothing is reported missing.
    expect(p!.dependencies).toEqual([]);
  });
});
