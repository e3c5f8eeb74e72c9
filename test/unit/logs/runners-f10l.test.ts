/**
 * Shapes added on branch f10l (hold20's classes): pytest ids printed relative to a directory below the repository's
 * root (tox), go's package read from a failing test's own trace frame when the log has no package line, a go result
 * line that lost its `--- FAIL` marker above go's race line, and libtool's `.libs/lt-NAME` test binaries under
 * automake. The logs are written here for a small kettle library of our own, in the tools' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) =>
  parseLog(text).failures.map((f) => [f.format, f.test, f.file ?? null, f.line ?? null]);
const ids = (text: string) => parseLog(text).tests.map((t) => [t.id, t.outcome]);

describe("pytest under tox: `../` ids resolved against the directory tox ran pytest in", () => {
  const summary = [
    "=========================== short test summary info ============================",
    "FAILED ../../tests/test_pour.py::test_half - AssertionError: 3 != 4",
    "========================= 1 failed, 12 passed in 0.41s =========================",
  ];

  it("tox 4's `exit` line after the run names the directory: the id is repo-relative", () => {
    const log = [
      ...summary,
      "py311: exit 1 (0.92 seconds) /home/runner/work/kettle/kettle/.tmp/py311> pytest /home/runner/work/kettle/kettle/tests pid=812",
      "  py311: FAIL code 1 (9.10=setup[8.18]+cmd[0.92] seconds)",
    ];
    expect(found(`${log.join("\n")}\n`)).toEqual([
      ["pytest", "tests/test_pour.py::test_half", "tests/test_pour.py", null],
    ]);
    expect(ids(`${log.join("\n")}\n`)).toEqual([["tests/test_pour.py::test_half", "failed"]]);
  });

  it("tox 4's `commands[0]` line before the run names it too", () => {
    const log = ["py311: commands[0] /builds/kettle/kettle/sub/dir/deeper> pytest ..", ...summary];
    expect(found(`${log.join("\n")}\n`)).toEqual([
      ["pytest", "sub/tests/test_pour.py::test_half", "sub/tests/test_pour.py", null],
    ]);
  });

  it("no directory named (rule changed on branch f10u): taken from its topmost `tests` directory", () => {
    expect(found(`${summary.join("\n")}\n`)).toEqual([
      ["pytest", "tests/test_pour.py::test_half", "tests/test_pour.py", null],
    ]);
  });

  it("must not fire: a directory named outside the checkout, or a path that would leave the repository", () => {
    const outside = [...summary, "py311: exit 1 (0.92 seconds) /tmp/elsewhere> pytest /tmp/kettle/tests"];
    expect(found(`${outside.join("\n")}\n`)[0]![1]).toBe("../../tests/test_pour.py::test_half");
    const shallow = [
      ...summary,
      "py311: exit 1 (0.92 seconds) /home/runner/work/kettle/kettle/.tmp> pytest x",
    ];
    expect(found(`${shallow.join("\n")}\n`)[0]![1]).toBe("../../tests/test_pour.py::test_half");
  });
});

describe("go: the package of a failing test's own trace frame when no package line follows (a cut log)", () => {
  const timeout = [
    "panic: test timed out after 10m0s",
    "\trunning tests:",
    "\t\tTestSuite (9m59s)",
    "\t\tTestSuite/TestPours (9m58s)",
    "",
    "goroutine 12 [semacquire, 9 minutes]:",
    "sync.(*WaitGroup).Wait(0xc000123)",
    "\t/opt/hostedtoolcache/go/1.23.1/x64/src/sync/waitgroup.go:118 +0xa5",
  ];

  it("a testify suite method named as the running subtest gives the package", () => {
    const log = [
      ...timeout,
      "example.com/kettle/v2/pour.(*kettleSuite).TestPours(0xc0001)",
      "\t/home/runner/work/kettle/kettle/pour/pour_test.go:41 +0x3c",
    ];
    expect(found(`${log.join("\n")}\n`)).toEqual([
      ["go", "example.com/kettle/v2/pour.TestSuite/TestPours", "pour/pour_test.go", 41],
    ]);
  });

  it("the top test's function frame gives it, an external test package's `_test` dropped", () => {
    const log = [
      ...timeout,
      "example.com/kettle/pour_test.TestSuite.func1()",
      "\t/home/runner/work/kettle/kettle/pour/pour_test.go:19 +0x3c",
    ];
    expect(found(`${log.join("\n")}\n`)[0]![1]).toBe("example.com/kettle/pour.TestSuite/TestPours");
  });

  it("must not fire: a frame of another test's name, or a plain function named like the subtest", () => {
    const other = [
      ...timeout,
      "example.com/kettle/boil.TestBoil.func1()",
      "\t/home/runner/work/kettle/kettle/boil/boil_test.go:9 +0x3c",
      "example.com/kettle/boil.TestPours()",
      "\t/home/runner/work/kettle/kettle/boil/boil_test.go:30 +0x3c",
    ];
    expect(found(`${other.join("\n")}\n`)[0]![1]).toBe("TestSuite/TestPours");
  });

  it("the package line still wins when the log has one", () => {
    const log = [
      ...timeout,
      "example.com/kettle/other.(*kettleSuite).TestPours(0xc0001)",
      "\t/home/runner/work/kettle/kettle/other/pour_test.go:41 +0x3c",
      "FAIL\texample.com/kettle/pour\t600.2s",
    ];
    expect(found(`${log.join("\n")}\n`)[0]![1]).toBe("example.com/kettle/pour.TestSuite/TestPours");
  });
});

describe("go: a result line that lost its `--- FAIL` marker, above go's race line", () => {
  it("`: TestX (0.02s)` then `testing.go:N: race detected during execution of test` is TestX's failure", () => {
    const log = [": TestPourRace (0.02s)", "    testing.go:1446: race detected during execution of test"];
    expect(
      parseLog(`${log.join("\n")}\n`).failures.map((f) => [f.test, f.errorType, f.file ?? null]),
    ).toEqual([["TestPourRace", "data race", null]]);
  });

  it("must not fire: the same line with other output under it, or the race line alone", () => {
    expect(found(": TestPourRace (0.02s)\n    pour_test.go:12: poured 3 cups\n")).toEqual([]);
    expect(found("    testing.go:1446: race detected during execution of test\n")).toEqual([]);
  });
});

describe("automake: libtool's `.libs/lt-NAME` binary is the test NAME (its wrapper script), directory kept", () => {
  it("the harness's trailer with the binary's path", () => {
    const log = [
      "/kettle/pour: **",
      "kettle:ERROR:pour-self-test.c:57:pour_func: assertion failed (cups == 4): (3 == 4)",
      "FAIL /builddir/build/BUILD/kettle-0.7.3/libkettle/.libs/lt-pour-self-test (exit status: 134)",
    ];
    expect(ids(`${log.join("\n")}\n`)).toEqual([["libkettle/pour-self-test", "failed"]]);
  });

  it("`.libs/NAME` without fast-install", () => {
    expect(ids("FAIL .libs/pour-self-test (exit status: 1)\nPASS boil-test (exit status: 0)\n")).toEqual([
      ["boil-test", "passed"],
      ["pour-self-test", "failed"],
    ]);
  });

  it("must not fire: a test named `lt-…` outside `.libs`, or `.libs` above the name's directory", () => {
    const log = "FAIL tests/lt-pour (exit status: 1)\nFAIL tests/.libs/x/pour (exit status: 1)\n";
    expect(
      parseLog(log)
        .tests.map((t) => t.id)
        .sort(),
    ).toEqual(["tests/.libs/x/pour", "tests/lt-pour"]);
  });
});
