/**
 * Shell sessions typed at a prompt that shows user and host then a directory after a space, as fish
 * (`user@host ~> `) and zsh (`user@host ~ % `) print it: each `-c`/`-e` invocation is a run, and the next such
 * prompt ends the previous run's output. Sessions written for these tests.
 */
import { describe, expect, it } from "vitest";
import { parseShellSession } from "../../../src/repro/shell-session.ts";

describe("user@host prompts with a directory after a space", () => {
  it("reads each fish-style invocation and stops its output at the next prompt, whatever command it runs", () => {
    const runs = parseShellSession(
      [
        "ann@box ~> python3 -V",
        "Python 3.11.2",
        "ann@box ~> python3 -c 'print(len(\"ab\"))'",
        "2",
        "ann@box ~> pypy3 -V",
        "Python 3.9.16 [PyPy 7.3.11]",
        "ann@box ~> pypy3 -c 'print(len(\"ab\"))'",
        "3",
      ].join("\n"),
    );
    expect(runs.map((r) => [r.interpreter, r.code, r.output])).toEqual([
      ["python3", 'print(len("ab"))', ["2"]],
      ["pypy3", 'print(len("ab"))', ["3"]],
    ]);
  });

  it("reads a zsh-style prompt (`user@host dir % `) and a node -e invocation", () => {
    const runs = parseShellSession("bo@mac proj % node -e 'console.log(1 + 1)'\n2\nbo@mac proj % ls\nx.js");
    expect(runs.map((r) => [r.interpreter, r.code, r.output])).toEqual([
      ["node", "console.log(1 + 1)", ["2"]],
    ]);
  });

  it("still reads the bash prompt `user@host:~/dir$ `", () => {
    const runs = parseShellSession("me@pc:~/w$ python3 -c 'print(4)'\n4");
    expect(runs.map((r) => [r.code, r.output])).toEqual([["print(4)", ["4"]]]);
  });

  it("does not take an e-mail address or a `>` quote in output as a prompt", () => {
    expect(parseShellSession("mail ann@box.org > python -c 'print(1)'\n1")).toEqual([]);
    const runs = parseShellSession(
      "$ node -e 'console.log(\"a@b c> d\")'\na@b c> d\n$ node -e 'console.log(2)'\n2",
    );
    expect(runs.map((r) => r.output)).toEqual([["a@b c> d"], ["2"]]);
  });
});
