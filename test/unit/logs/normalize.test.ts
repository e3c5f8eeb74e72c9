import { describe, expect, it } from "vitest";
import { createPathMapper, normalizeLine, normalizeText, stripAnsi } from "../../../src/logs/normalize.ts";

const id = (s: string) => s;

describe("normalizeLine", () => {
  it("keeps what a terminal shows after a carriage return (GitLab section markers, progress bars)", () => {
    const id = (t: string) => t;
    const gitlab =
      'section_end:1763800006:get_sources\r\u001b[0Ksection_start:1763800006:step_script\r\u001b[0K\u001b[0K\u001b[36;1mExecuting "step_script" stage of the job script\u001b[0;m';
    expect(normalizeLine(gitlab, id)?.text).toBe('Executing "step_script" stage of the job script');
    expect(normalizeLine("Downloading 10%\rDownloading 100%\r\n".replace("\n", ""), id)?.text).toBe(
      "Downloading 100%",
    );
  });

  it("removes the runner timestamp, CR and ANSI colours", () => {
    const n = normalizeLine("2024-05-02T10:11:12.1234567Z \u001b[31mFAIL\u001b[39m src/a.test.js\r", id);
    expect(n).toEqual({ text: "FAIL src/a.test.js", ghError: false });
  });

  it("drops group, endgroup, debug and command markers, keeps the text of ##[error]", () => {
    expect(normalizeLine("2024-05-02T10:11:12.0000000Z ##[group]Run npm test", id)).toBeNull();
    expect(normalizeLine("##[endgroup]", id)).toBeNull();
    // dart test's github reporter: a group title that is a test's result line is kept.
    expect(normalizeLine("##[group]❌ test/a_test.dart: adds (failed)", id)?.text).toBe(
      "❌ test/a_test.dart: adds (failed)",
    );
    expect(normalizeLine("##[group]✅ Passing tests", id)?.text).toBe("✅ Passing tests");
    expect(normalizeLine("##[group]❌", id)).toBeNull();
    expect(normalizeLine("##[debug]Evaluating: success()", id)).toBeNull();
    expect(normalizeLine("##[error]Process completed with exit code 1.", id)).toEqual({
      text: "Process completed with exit code 1.",
      ghError: true,
    });
    expect(normalizeLine("##[warning]Node 16 is deprecated", id)).toEqual({
      text: "Node 16 is deprecated",
      ghError: false,
    });
  });

  it("keeps lines that only look like timestamps", () => {
    expect(normalizeLine("2024-05-02 is the date", id)?.text).toBe("2024-05-02 is the date");
  });

  it("strips OSC hyperlinks and cursor sequences", () => {
    expect(stripAnsi("\u001b]8;;file:///x\u0007link\u001b]8;;\u0007 \u001b[2K\u001b[1Gdone")).toBe(
      "link done",
    );
  });
});

describe("createPathMapper", () => {
  const map = createPathMapper();
  it.each([
    ["/home/runner/work/calc/calc/src/x.py", "src/x.py"],
    ['  File "/home/runner/work/acme-app/acme-app/app/main.py", line 3', '  File "app/main.py", line 3'],
    ["/Users/runner/work/calc/calc/lib/a.ts:3:4", "lib/a.ts:3:4"],
    ["/__w/calc/calc/pkg/b.go:12", "pkg/b.go:12"],
    ["/github/workspace/src/c.rs", "src/c.rs"],
    ["D:\\a\\calc\\calc\\src\\user.ts(7,9): error", "src\\user.ts(7,9): error"],
    ["at f (/home/runner/work/r/r/a.js:1:2) and /home/runner/work/r/r/b.js", "at f (a.js:1:2) and b.js"],
    ["/usr/lib/go-1.19/src/testing/testing.go:1396", "/usr/lib/go-1.19/src/testing/testing.go:1396"],
    ["/builds/acme/ledger-js/src/money.js:11:29", "src/money.js:11:29"],
    ["at formatCents (/builds/acme/ledger-js/src/money.js:11:29)", "at formatCents (src/money.js:11:29)"],
    ["/var/lib/jenkins/workspace/ledger-php/tests/MoneyTest.php:18", "tests/MoneyTest.php:18"],
    ["/home/jenkins/agent/workspace/ledger/src/a.py", "src/a.py"],
    ["/opt/builds/a/b/c.txt", "/opt/builds/a/b/c.txt"],
  ])("%s", (input, expected) => {
    expect(map(input)).toBe(expected);
  });

  it("maps repoRoot prefixes (the sandbox's /workspace) and only those", () => {
    const m = createPathMapper({ repoRoot: ["/workspace", "/tmp/build/"] });
    expect(m("/workspace/src/a.py:3: AssertionError")).toBe("src/a.py:3: AssertionError");
    expect(m("/tmp/build/x.c:1:2: error: y")).toBe("x.c:1:2: error: y");
    expect(m("/workspaces/other/a.py")).toBe("/workspaces/other/a.py");
  });

  it("with repoName, maps only that repository's checkout", () => {
    const m = createPathMapper({ repoName: "acme/calc" });
    expect(m("/home/runner/work/calc/calc/a.py")).toBe("a.py");
    expect(m("/home/runner/work/other/other/a.py")).toBe("/home/runner/work/other/other/a.py");
    // GitLab with nested groups: any depth before the project's own directory.
    expect(m("/builds/acme/backend/calc/a.py")).toBe("a.py");
  });
});

describe("normalizeText", () => {
  it("says per line, in the one flags object it is given, whether the line was an ##[error] annotation", () => {
    const flags = { ghError: false };
    expect(normalizeText("2024-05-01T10:00:00.1Z ##[error]boom", id, flags)).toBe("boom");
    expect(flags.ghError).toBe(true);
    expect(normalizeText("plain line", id, flags)).toBe("plain line");
    expect(flags.ghError).toBe(false);
    expect(normalizeText("##[group]Run tests", id, flags)).toBeNull();
    for (const raw of ["a\r", "\u001b[31mx\u001b[0m", "##[error]e", "##[warning]w", "`code`", "x\rwin"])
      expect(normalizeText(raw, id, flags)).toBe(normalizeLine(raw, id)?.text ?? null);
  });
});
