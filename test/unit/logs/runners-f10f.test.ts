/**
 * Shapes added on branch f10f (hold17's classes): mock's `DEBUG: ` framing and automake's driver line, a nose header
 * cut by the end of the log, a program's command-line error under its usage text, and a script's traceback for
 * another program's exit status. The logs are written here for a small kettle library of our own, in the tools' byte
 * layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.format, f.category, f.test]);

describe("automake under mock's `DEBUG: ` framing", () => {
  const lines = [
    "DEBUG: PASS: tests/unit/test_boil",
    "DEBUG: FAIL: tests/unit/test_whistle",
    'DEBUG: ./test-driver: line 107: 10914 Aborted                 (core dumped) "$@" > $log_file 2>&1',
    "DEBUG: PASS: tests/unit/test_pour",
    "DEBUG: PASS: tests/unit/test_lid",
  ];

  it("the driver's signal line confirms the result lines: the FAIL: line is the failure", () => {
    expect(found(`${lines.join("\n")}\n`)).toEqual([["automake", "test", "tests/unit/test_whistle"]]);
  });

  it("the same lines without the mock prefix read the same", () => {
    expect(found(`${lines.map((l) => l.slice(7)).join("\n")}\n`)).toEqual([
      ["automake", "test", "tests/unit/test_whistle"],
    ]);
  });

  it("must not fire: result lines with nothing of automake's own stay unconfirmed", () => {
    const text = lines.filter((l) => !l.includes("test-driver")).join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });
});

describe("a nose header cut by the end of the log names no test", () => {
  const head = [
    "python3 -m nose --attr '!known_failing'",
    "........F.....S....",
    "======================================================================",
  ];

  it("`FAIL: kettle.tests.test_w` as the last line: no failure", () => {
    expect(found(`${[...head, "FAIL: kettle.tests.test_w"].join("\n")}\n`)).toEqual([]);
  });

  it("must not fire: a header with its rule and traceback below is the failure, even cut in the traceback", () => {
    const text = [
      ...head,
      "FAIL: kettle.tests.test_whistle.test_loud",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/build/kettle/tests/test_whistle.py", line 12, in test_loud',
      "    assert whistle() == 'loud'",
    ].join("\n");
    expect(found(`${text}\n`)).toEqual([["unittest", "test", "kettle.tests.test_whistle.test_loud"]]);
  });

  it("must not fire: a dash rule under the last header shows its name is whole", () => {
    const text = [
      ...head,
      "FAIL: kettle.tests.test_whistle",
      "-------------------------------------------",
    ].join("\n");
    expect(found(`${text}\n`)).toEqual([["unittest", "test", "kettle.tests.test_whistle"]]);
  });

  it("must not fire: a unittest header closed by its class is whole at the end of the log", () => {
    const text = [...head, "FAIL: test_loud (kettle.tests.test_whistle.WhistleTest)"].join("\n");
    expect(found(`${text}\n`)).toEqual([
      ["unittest", "test", "kettle.tests.test_whistle.WhistleTest.test_loud"],
    ]);
  });
});

describe("a program's exit status is no failure of its own", () => {
  const usage = [
    "usage: setup.py [global_opts] cmd1 [cmd1_opts] [cmd2 [cmd2_opts] ...]",
    "   or: setup.py --help [cmd1 cmd2 ...]",
    "   or: setup.py --help-commands",
    "",
    "error: invalid command 'test'",
  ];
  const traceback = [
    "Traceback (most recent call last):",
    '  File "/usr/bin/kettle-pack", line 40, in <module>',
    "    subprocess.check_call([python, 'setup.py', 'test'])",
    '  File "/usr/lib/python3.11/subprocess.py", line 413, in check_call',
    "    raise CalledProcessError(retcode, cmd)",
    "subprocess.CalledProcessError: Command '['python', 'setup.py', 'test']' returned non-zero exit status 1.",
  ];

  it("setup.py's `error: invalid command` under its usage text, then the caller's CalledProcessError: nothing named", () => {
    expect(found(`${[...usage, ...traceback, "make: *** [binary] Error 1"].join("\n")}\n`)).toEqual([]);
  });

  it("must not fire: a bare `error:` with no usage text above stays cargo's build failure", () => {
    const text = ["Checking the kettle", "error: linking with `cc` failed: exit status: 1", ""].join("\n");
    expect(found(text)).toEqual([["cargo", "build", null]]);
  });

  it("must not fire: a script's own exception is still its failure", () => {
    const text = [...traceback.slice(0, 3), "ValueError: the kettle is empty", ""].join("\n");
    expect(parseLog(text).failures.map((f) => [f.format, f.errorType])).toEqual([["python", "ValueError"]]);
  });
});
