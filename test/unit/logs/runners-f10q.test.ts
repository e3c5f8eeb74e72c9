/**
 * Classes from the hold24 set's misses and inventions (issue 10, fixer f10q). Each rule has a case where it must not
 * fire. All text below is written for these tests (no case's names).
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);

describe("mocha: old mocha's one-line entry (`1) Suite test:`) at a shifted indent", () => {
  it("reads an entry at the margin with an error and a frame", () => {
    const log = [
      "1) kettle pours half:",
      "     Error: Expected 2 to be 1",
      "      at assert (node_modules/expect/lib/assert.js:22:9)",
      "      at Context.<anonymous> (test/kettle.spec.js:16:21)",
      "",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["kettle pours half", "test/kettle.spec.js", 16],
    ]);
  });
  it("reads an entry indented by one or four spaces, and `Uncaught` before the error", () => {
    const one = [
      " 1) kettle lid clicks shut:",
      "     Uncaught AssertionError: open",
      "      at test/lid.js:4:2",
      "",
    ];
    expect(ids(one.join("\n"))).toEqual(["kettle lid clicks shut"]);
    const four = [
      "    1) kettle boils:",
      "        AssertionError: cold",
      "         at Context.<anonymous> (test/b.js:3:1)",
    ];
    expect(ids(four.join("\n"))).toEqual(["kettle boils"]);
  });
  it("takes mocha's own timeout message for the frame it never prints", () => {
    const log = [
      "    1) kettle waits for the whistle:",
      '        Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves.',
      "",
    ].join("\n");
    expect(ids(log)).toEqual(["kettle waits for the whistle"]);
  });
  it("reads nothing from a numbered line with no error and frame under it, or an error with no frame", () => {
    const prose = [
      "1) Install the kettle:",
      "   run make install",
      "2) Pour:",
      "   Error: not a mocha error",
      "",
    ];
    expect(ids(prose.join("\n"))).toEqual([]);
    const noFrame = ["1) kettle pours:", "     Error: spilled", "", "done"];
    expect(ids(noFrame.join("\n"))).toEqual([]);
    // An error line at the number's own indent is not the entry's.
    const flat = ["1) kettle pours:", "Error: spilled", "    at x (test/k.js:1:1)"];
    expect(ids(flat.join("\n"))).toEqual([]);
  });
});

describe("CTest: the `The following tests FAILED:` list indented by a paste", () => {
  it("reads the list under an indented heading, and entries closed by an indented `Errors while running CTest`", () => {
    const headed = [
      " The following tests FAILED:",
      "          7 - kettle_pour (Failed)",
      " Errors while running CTest",
      "",
    ];
    expect(ids(headed.join("\n"))).toEqual(["kettle_pour"]);
    const unheaded = ["          7 - kettle_pour (Failed)", "  Errors while running CTest", ""];
    expect(ids(unheaded.join("\n"))).toEqual(["kettle_pour"]);
  });
  it("reads nothing from an indented heading with no entry under it, nor from entries CTest does not close", () => {
    expect(ids([" The following tests FAILED:", "   see the dashboard", ""].join("\n"))).toEqual([]);
    expect(ids(["          7 - kettle_pour (Failed)", "  all done", ""].join("\n"))).toEqual([]);
  });
});

describe("java-stack: a stack joined by HTML `<br>`, and JDK 17's `(Native Method)` reflection frame", () => {
  const frames = [
    "org.opentest4j.AssertionFailedError: expected: <1> but was: <3>",
    "\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)",
    "\tat org.kettle.PourTest.poursHalf(PourTest.java:41)",
    "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
    "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke(NativeMethodAccessorImpl.java:62)",
  ];
  it("reads the stack as lines split at `<br/>` (and `<br>`)", () => {
    expect(ids(frames.join("<br/>"))).toEqual(["org.kettle.PourTest.poursHalf"]);
    expect(ids(frames.join("<br>"))).toEqual(["org.kettle.PourTest.poursHalf"]);
  });
  it("reads a plain stack whose caller is the JDK's native reflection frame", () => {
    expect(ids(frames.join("\n"))).toEqual(["org.kettle.PourTest.poursHalf"]);
  });
  it("reads nothing from an ordinary exception, or an assertion thrown in application code, joined by `<br/>`", () => {
    const npe = ["java.lang.NullPointerException: lid", ...frames.slice(1)];
    expect(ids(npe.join("<br/>"))).toEqual([]);
    const app = [
      frames[0],
      "\tat org.kettle.Boiler.check(Boiler.java:12)",
      "\tat org.kettle.PourTest.poursHalf(PourTest.java:41)",
      frames[3],
    ];
    expect(ids(app.join("<br/>"))).toEqual([]);
  });
  it("reads nothing when the test class's frame is called by another class, not through reflection", () => {
    const helper = [frames[0], frames[1], frames[2], "\tat org.kettle.Harness.run(Native Method)"];
    expect(ids(helper.join("\n"))).toEqual([]);
  });
});

describe("Playwright: a failure header behind GitHub's `Error: ` annotation label", () => {
  const block = [
    "Error:   1) e2e/kettle.spec.ts:7:1 › pours half ========================================",
    "    Error: expect(received).toHaveText(expected)",
    "",
    '    Expected string: "half"',
    '    Received string: "full"',
  ];
  it("reads the header and places a block cut before its frames at the header's line", () => {
    const r = parseLog(block.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["e2e/kettle.spec.ts > pours half", "e2e/kettle.spec.ts", 7],
    ]);
  });
  it("reads nothing from an annotation that is no Playwright header, or a header with no error under it", () => {
    expect(ids(["Error:   1) the kettle is cold ====", "    Error: no power", ""].join("\n"))).toEqual([]);
    expect(ids([block[0], "    see the report", ""].join("\n"))).toEqual([]);
  });
});

describe("go: testify's failure block pasted alone names its test by its `Test:` label", () => {
  const block = [
    "    kettle_test.go:61: ",
    "        \tError Trace:\tinternal/kettle/helpers.go:61",
    "        \t            \tGOROOT/src/testing/testing.go:1211",
    "        \tError:      \tfailed to empty the kettle",
    "        \tTest:       \tTestPourHalf",
    "        \tMessages:   \tlid stuck",
  ];
  it("reads the block alone: the test, placed at the trace's first frame outside Go's sources", () => {
    const r = parseLog(block.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["TestPourHalf", "internal/kettle/helpers.go", 61],
    ]);
  });
  it("leaves the test to go's own lines when the log has them", () => {
    const log = [
      "=== RUN   TestPourHalf",
      ...block,
      "--- FAIL: TestPourHalf (0.00s)",
      "FAIL",
      "FAIL\texample.com/kettle\t0.01s",
    ];
    expect(ids(log.join("\n"))).toEqual(["example.com/kettle.TestPourHalf"]);
  });
  it("reads nothing from a block with no `Test:` label, or one that names no test function", () => {
    expect(ids(block.filter((l) => !l.includes("Test:")).join("\n"))).toEqual([]);
    expect(ids(block.map((l) => l.replace("TestPourHalf", "pour half")).join("\n"))).toEqual([]);
  });
});

describe("pytest: a collection error's own lines with its `ERROR collecting` header cut away", () => {
  const importBody = [
    "ImportError while importing test module '/home/me/kettle/tests/test_pour.py'.  ",
    "Hint: make sure your test modules/packages have valid Python names.  ",
    "Traceback:  ",
    "tests/test_pour.py:3: in <module>  ",
    "    from kettle import pour  ",
    "kettle.py:1: in <module>  ",
    "    import boiler  ",
    "E   ModuleNotFoundError: No module named 'boiler'  ",
  ];
  it("reads `ImportError while importing test module` with pytest's Hint: the module, from the frame it ends with", () => {
    const r = parseLog(importBody.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["tests/test_pour.py", "tests/test_pour.py", 3],
    ]);
  });
  const mismatch = [
    "import file mismatch:",
    "which is not the same as the test file we want to collect:",
    "  /src/kettle-1.0/.pybuild/cpython3_3.11/build/kettle/tests/lid.py",
    "HINT: remove __pycache__ / .pyc files and/or use a unique basename for your test file modules",
    "",
  ];
  it("reads `import file mismatch`'s tail: the module, relative to pybuild's build directory", () => {
    expect(ids(mismatch.join("\n"))).toEqual(["kettle/tests/lid.py"]);
  });
  it("reads nothing without pytest's Hint line, and reports a module once when its header is there", () => {
    expect(ids(importBody.filter((l) => !l.startsWith("Hint")).join("\n"))).toEqual([]);
    expect(ids(mismatch.filter((l) => !l.startsWith("HINT")).join("\n"))).toEqual([]);
    const whole = [
      "============================= test session starts ==============================",
      "collected 0 items / 1 error",
      "",
      "==================================== ERRORS ====================================",
      "______________________ ERROR collecting tests/test_pour.py ______________________",
      ...importBody.map((l) => l.trimEnd()),
      "=========================== short test summary info ============================",
      "ERROR tests/test_pour.py",
      "=============================== 1 error in 0.10s ===============================",
    ];
    expect(ids(whole.join("\n"))).toEqual(["tests/test_pour.py"]);
  });
});

describe("pytest: a short-summary entry that ends the log with no reason, under one with a reason, may be cut", () => {
  const summary = [
    "=========================== short test summary info ============================",
    "ERROR tests/test_lid.py::TestLid - AttributeError: 'TestLid' object has no attribute 'runTest'",
    "ERROR tests/test_pour.py::TestPour",
  ];
  it("names no test from the cut last entry", () => {
    expect(ids(summary.join("\n"))).toEqual(["tests/test_lid.py::TestLid"]);
  });
  it("keeps the entry when any line follows it, or when the entries carry no reasons at all", () => {
    expect(
      ids([...summary, "========================= 2 errors in 0.31s ========================="].join("\n")),
    ).toEqual(["tests/test_lid.py::TestLid", "tests/test_pour.py::TestPour"]);
    const bare = [summary[0], "FAILED tests/test_lid.py::test_a", "FAILED tests/test_pour.py::test_b"];
    expect(ids(bare.join("\n"))).toEqual(["tests/test_lid.py::test_a", "tests/test_pour.py::test_b"]);
  });
});
