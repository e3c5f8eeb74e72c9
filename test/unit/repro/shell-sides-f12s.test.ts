/**
 * Shell sessions as real reports paste them (issue 12, hold15/16): a prompt alone on its line with the command
 * wrapped onto the next, an interpreter typed as a path (`d:/local/Python312/python.exe issue.py 5 6`), and two
 * runs of one command placed on either side of a release by the words before them ("versions before 1.19.1
 * gave this:" / "from version 1.19.1 on it gives:") in a report saying the behaviour regressed. Reports written
 * for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseShellSession } from "../../../src/repro/shell-session.ts";
import { leadVerdict } from "../../../src/repro/version-verdict.ts";

const f = "```";
const claims = (md: string) => reportedExpectations(parseReport(md));

describe("a prompt alone on its line", () => {
  it("joins the interpreter command wrapped onto the next line", () => {
    const runs = parseShellSession('$ \nnode -e "console.log(1 + 1)"\n3\n');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.code).toBe("console.log(1 + 1)");
    expect(runs[0]!.output).toEqual(["3"]);
  });

  it("must not fire: a bare prompt before output or a non-interpreter command stays as it was", () => {
    expect(parseShellSession("$\n3\n")).toEqual([]);
    expect(parseShellSession("$ \nls -la\nfile.txt\n")).toEqual([]);
  });
});

describe("an interpreter typed as a path", () => {
  it("runs the script the session names, with its arguments; the printed lines are the claim", () => {
    const runs = parseShellSession("$ d:/local/Python312/python.exe issue.py 5 6\nusage: issue.py [-h]\n");
    expect(runs[0]?.script).toEqual({ file: "issue.py", args: ["5", "6"] });
    expect(runs[0]?.runtime).toBe("python");
    expect(parseShellSession("$ /usr/bin/node -e 'console.log(2)'\n2\n")[0]?.code).toBe("console.log(2)");
  });

  it("must not fire: a program whose name only ends in python is not the interpreter", () => {
    expect(parseShellSession("$ ./not-python issue.py\nx\n")).toEqual([]);
  });
});

describe("two runs placed before and after a release", () => {
  const report = (title: string, before: string, after: string) =>
    [
      `# ${title}`,
      "",
      `${before}`,
      "",
      `${f}sh`,
      `$ node -e "console.log(require('esc')('a\\"b'))"`,
      "a&quot;b",
      f,
      "",
      `${after}`,
      "",
      `${f}sh`,
      `$ node -e "console.log(require('esc')('a\\"b'))"`,
      'a"b',
      f,
      "",
    ].join("\n");

  it("in a report saying it regressed, the newer run is the claim and the older the expected behaviour", () => {
    const c = claims(
      report(
        "Quotes are no longer escaped",
        "I'm not sure this is a regression, but versions before `2.1.0` gave this:",
        "and from version `2.1.0` on the same command gives:",
      ),
    );
    expect(c.actual.output).toEqual(['a"b']);
    expect(c.expectedOutput).toEqual(["a&quot;b"]);
  });

  it("the order of the blocks does not matter: the lead decides", () => {
    const c = claims(
      report(
        "Quotes are no longer escaped",
        "Since 2.1.0 it prints:",
        "while releases prior to 2.1.0 printed:",
      )
        .replace("a&quot;b\n", "TMP\n")
        .replace('a"b\n', "a&quot;b\n")
        .replace("TMP\n", 'a"b\n'),
    );
    expect(c.actual.output).toEqual(['a"b']);
  });

  it("must not fire: without words of a regression, neither run is taken as the bug", () => {
    const c = claims(
      report("Quote escaping", "Versions before `2.1.0` gave this:", "and from version `2.1.0` on it gives:"),
    );
    expect(c.actual.output).toEqual([]);
    expect(c.twoVersions?.sides).toHaveLength(2);
    expect(c.twoVersions?.bad ?? null).toBeNull();
  });

  it("must not fire: both leads on the same side of the release decide nothing", () => {
    const c = claims(report("Quotes are no longer escaped", "Since 2.1.0 it gives:", "and after 2.2.0:"));
    expect(c.twoVersions?.sides).toHaveLength(2);
    expect(c.twoVersions?.bad ?? null).toBeNull();
  });

  it("a hedge is not a verdict: 'not sure this is a regression' does not make its transcript the bad one", () => {
    expect(leadVerdict("I'm not sure this is a regression, but before 2.1.0 it gave:")).toBeNull();
    expect(leadVerdict("This is a regression; 2.1.0 gives:")).toBe("bad");
  });
});
