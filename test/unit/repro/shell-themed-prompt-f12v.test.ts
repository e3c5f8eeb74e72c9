/**
 * A prompt of a shell theme the prompt patterns do not know (`user@host ~ € `, as a powerline theme prints it):
 * read as a prompt when the identical `user@host dir X ` head starts two or more lines of the block, so the
 * session's `cat test.py` defines the file its runs name (issue 12, hold18). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { parseShellSession, sessionFiles, sessionLines } from "../../../src/repro/shell-session.ts";

const session = [
  "me@box ~ € python3.10 test.py",
  "me@box ~ € python3.11 test.py",
  "Traceback (most recent call last):",
  '  File "/home/me/test.py", line 2, in <module>',
  "    f()",
  "ValueError: bad",
  "me@box ~ € cat test.py",
  "def f(): raise ValueError('bad')",
  "f()",
].join("\n");

describe("a themed prompt repeated across a session", () => {
  it("reads each run and the file `cat` shows", () => {
    const runs = parseShellSession(session);
    expect(runs.map((r) => [r.interpreter, r.script?.file, r.errorText !== null])).toEqual([
      ["python3.10", "test.py", false],
      ["python3.11", "test.py", true],
    ]);
    expect(sessionFiles(session)).toEqual([
      { file: "test.py", content: "def f(): raise ValueError('bad')\nf()", how: "shown" },
    ]);
  });

  it("leaves a head seen once as printed text", () => {
    const once = "me@box ~ € python3 test.py\nValueError: bad";
    expect(sessionLines(once)).toEqual(once.split("\n"));
    expect(parseShellSession(once)).toEqual([]);
  });

  it("does not take two different heads for one prompt", () => {
    const lines = ["me@box ~ € python3 a.py", "me@box /tmp € python3 a.py"];
    expect(sessionLines(lines.join("\n"))).toEqual(lines);
  });

  it("does not take repeated output starting with an address and a word for a prompt", () => {
    // A word or ASCII punctuation after `address word` is not a prompt symbol, however often it repeats.
    const log = ["bob@mail.com sent ok done", "bob@mail.com sent ok done", "bob@mail.com queued - later"];
    log.push(log[2]!);
    expect(sessionLines(log.join("\n"))).toEqual(log);
  });
});

describe("PowerShell here-strings", () => {
  const ps = (v: string) =>
    `PS ~>uvx python@${v} -c @'\nprint('it''s', "x")\nimport sys\n'@\nit's x\nPS ~>python -V\nPython ${v}.1`;

  it("reads the code up to the closing `'@` line, the interpreter through its launcher", () => {
    const runs = parseShellSession(ps("3.12"));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      interpreter: "python3.12",
      runtime: "python",
      code: "print('it''s', \"x\")\nimport sys",
      output: ["it's x"],
      errorText: null,
    });
  });

  it("reads nothing when the here-string opener is not the end of the line", () => {
    expect(parseShellSession("PS ~>python -c @' print(1)\n'@\n1")).toEqual([]);
  });

  it("classifies a PowerShell block whose prompt runs an interpreter as a shell session", () => {
    expect(classifyBlock("powershell", ps("3.11")).kind).toBe("shell");
    // A PowerShell prompt running anything else is left to the other rules.
    expect(classifyBlock("powershell", "PS C:\\src> Get-ChildItem\nfoo.txt").kind).not.toBe("shell");
  });
});
