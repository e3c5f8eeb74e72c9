/**
 * A print commented as empty (issue 12, rv23 / fx4): the claim "it prints nothing" is about the reported package
 * only when the printed value comes from a call into code; a value read from the environment, a file, the network
 * or the input is empty in the sandbox because the sandbox has none of the reporter's.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { printedSource } from "../../../src/repro/printed-source.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const fence = "```";
const report = (code: string, lang = "python") =>
  reportedExpectations(parseReport(`# t\n\nThe value is lost:\n\n${fence}${lang}\n${code}\n${fence}\n`))
    .actual;
const verdictOnBlankLine = (code: string, lang = "python") =>
  foldRuns([matchRun(report(code, lang), run({ stdout: "\n" }))]).verdict;

describe("an empty print of a value from the environment is no claim", () => {
  it("must not fire: the reviewer's inputs (an environment variable, Python and JavaScript)", () => {
    const py = "import os\ntoken = os.environ.get('API_TOKEN', '')\nprint(token)  # empty";
    expect(report(py).kind).not.toBe("exit");
    expect(verdictOnBlankLine(py)).not.toBe("REPRODUCED");
    const js = "const token = process.env.API_TOKEN ?? '';\nconsole.log(token); // nothing";
    expect(report(js, "js").kind).not.toBe("exit");
    expect(verdictOnBlankLine(js, "js")).not.toBe("REPRODUCED");
  });

  it("must not fire: a file, the network, standard input, or a literal", () => {
    for (const code of [
      "with open('config.ini') as f:\n    text = f.read()\nprint(text)  # empty",
      "import urllib.request\nbody = urllib.request.urlopen('http://example.com').read()\nprint(body)  # empty",
      "import sys\nline = sys.stdin.readline()\nprint(line)  # empty",
      "x = ''\nprint(x)  # empty",
    ])
      expect(verdictOnBlankLine(code), code).not.toBe("REPRODUCED");
    const js =
      "const fs = require('fs');\nconst s = fs.readFileSync('a.txt', 'utf8');\nconsole.log(s); // nothing";
    expect(verdictOnBlankLine(js, "js")).not.toBe("REPRODUCED");
  });

  it("counter-example: an empty print from the package's own call is still the claim", () => {
    const py =
      "from configparser import ConfigParser\ncp = ConfigParser()\ncp.read_string('[s]\\nk = v')\nprint(cp.defaults())  # empty";
    expect(report(py)).toMatchObject({ kind: "exit", silent: true });
    expect(verdictOnBlankLine(py)).toBe("REPRODUCED");
    const cookie = "from http.cookies import SimpleCookie\nc = SimpleCookie('a=1; b')\nprint(c)  # empty";
    expect(verdictOnBlankLine(cookie)).toBe("REPRODUCED");
    const js =
      "const qs = require('qs');\nconst out = qs.stringify({ a: [] });\nconsole.log(out); // nothing";
    expect(verdictOnBlankLine(js, "js")).toBe("REPRODUCED");
  });

  it("printedSource follows names to their assignments", () => {
    expect(printedSource("import os\na = os.getenv('X')\nb = a or ''\n", "print(b)").environment).toBe(
      "an environment variable",
    );
    expect(printedSource("import lib\nb = lib.parse('x')\n", "print(b)")).toEqual({
      environment: null,
      called: true,
    });
  });
});
