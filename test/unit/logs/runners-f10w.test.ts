/**
 * Rules added on branch f10w (classes of the hold26–hold29 corpus, tainted): where a failure is placed when the
 * log's paths are a laptop's or a package build's, a doc-test's place, and more. Each log is written here for a
 * small kiln project of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("location: a checkout outside any CI's known root", () => {
  it.each<[string, string[], unknown]>([
    [
      "phpunit: the test class's file under `tests/` names the checkout (namespace mapped by PSR-4)",
      [
        "PHPUnit 9.6.0 by Sebastian Bergmann and contributors.",
        "",
        "F.                                                                  2 / 2 (100%)",
        "",
        "There was 1 failure:",
        "",
        "1) kiln\\FireTest::testCone",
        "Failed asserting that 5 matches expected 6.",
        "",
        "/home/me/code/kiln/src/Cone.php:12",
        "/home/me/code/kiln/tests/Unit/FireTest.php:20",
        "",
        "FAILURES!",
        "Tests: 2, Assertions: 2, Failures: 1.",
      ],
      [["kiln\\FireTest::testCone", "src/Cone.php", 12]],
    ],
    [
      "phpunit must not fire: a class file under no test directory keeps its absolute path",
      [
        "1) kiln\\FireTest::testCone",
        "Failed asserting that 5 matches expected 6.",
        "",
        "/home/me/code/kiln/checks/FireTest.php:20",
        "",
        "FAILURES!",
        "Tests: 2, Assertions: 2, Failures: 1.",
      ],
      [["kiln\\FireTest::testCone", "/home/me/code/kiln/checks/FireTest.php", 20]],
    ],
    [
      "minitest: a `tests/` directory as well as `test/`",
      [
        "  1) Failure:",
        "KilnTest#test_cone [/Users/me/kiln/tests/kiln_test.rb:9]:",
        "Expected: 6",
        "  Actual: 5",
        "",
        "3 runs, 3 assertions, 1 failures, 0 errors, 0 skips",
      ],
      [["KilnTest#test_cone", "tests/kiln_test.rb", 9]],
    ],
    [
      "unittest: a module named by its file alone, run from `tests/`: another frame of the project places the checkout",
      [
        "ERROR: test_cone (test_fire.FireTests.test_cone)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/home/me/kiln/tests/test_fire.py", line 8, in test_cone',
        "    cone_for(1222)",
        '  File "/home/me/kiln/kiln/cones.py", line 4, in cone_for',
        "    return TABLE[c]",
        "KeyError: 1222",
        "",
        "----------------------------------------------------------------------",
        "Ran 2 tests in 0.001s",
        "",
        "FAILED (errors=1)",
      ],
      [["test_fire.FireTests.test_cone", "kiln/cones.py", 4]],
    ],
    [
      "unittest must not fire: no frame outside `tests/` leaves the module's own directory as the root",
      [
        "FAIL: test_cone (test_fire.FireTests.test_cone)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/home/me/kiln/tests/test_fire.py", line 8, in test_cone',
        "    self.assertEqual(5, 6)",
        "AssertionError: 5 != 6",
        "",
        "----------------------------------------------------------------------",
        "Ran 2 tests in 0.001s",
        "",
        "FAILED (failures=1)",
      ],
      [["test_fire.FireTests.test_cone", "test_fire.py", 8]],
    ],
    [
      "unittest: a path whose start the runner elided (`.../`) ends with the test's module",
      [
        "ERROR: testCone (kiln.tests.fire_test.FireTest)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File ".../kiln/kiln/tests/fire_test.py", line 7, in testCone',
        "    raise ValueError('cold')",
        "ValueError: cold",
        "",
        "----------------------------------------------------------------------",
        "Ran 1 test in 0.001s",
        "",
        "FAILED (errors=1)",
      ],
      [["kiln.tests.fire_test.FireTest.testCone", "kiln/tests/fire_test.py", 7]],
    ],
  ])("%s", (_, log, want) => {
    expect(found(log.join("\n"))).toEqual(want);
  });
});

describe("location: jest's suite that failed to run, the error in another module", () => {
  /** jest's report of the suite, its stack cut after the error's own frame. */
  const suite = (...frames: string[]) => [
    "FAIL src/Kiln.test.tsx",
    "  ● Test suite failed to run",
    "",
    "    TypeError: Cannot read property 'Component' of undefined",
    "",
    "      at Object.<anonymous> (src/Kiln.tsx:6:34)",
    ...frames,
    "",
    "Test Suites: 1 failed, 1 total",
  ];
  it.each<[string, string[], unknown]>([
    [
      "the test file's own frame further down the stack places the suite",
      suite("      at Object.<anonymous> (src/Kiln.test.tsx:5:15)"),
      [[null, "src/Kiln.test.tsx", 5]],
    ],
    [
      "must not fire: no frame of the test file leaves the suite with no line",
      suite(),
      [[null, "src/Kiln.test.tsx", null]],
    ],
  ])("%s", (_, log, want) => {
    expect(found(log.join("\n"))).toEqual(want);
  });
});

describe("location: a libtest doc-test", () => {
  const head = [
    "   Doc-tests kiln",
    "",
    "running 2 tests",
    "test src/lib.rs - cone_for (line 14) ... FAILED",
    "test src/lib.rs - scale (line 6) ... FAILED",
    "",
    "failures:",
    "",
    "---- src/lib.rs - cone_for (line 14) stdout ----",
    "Test executable failed (exit status: 101).",
    "",
    "stderr:",
    "",
    "thread 'main' (28383) panicked at src/lib.rs:6:1:",
    "assertion `left == right` failed",
    "",
    "---- src/lib.rs - scale (line 6) stdout ----",
    "Test executable failed (exit status: 101).",
    "",
    "stderr:",
    "",
    "thread 'main' (30944) panicked at src/lib.rs:12:9:",
    "factor must be positive, got 0",
    "",
    "failures:",
    "    src/lib.rs - cone_for (line 14)",
    "    src/lib.rs - scale (line 6)",
    "",
    "test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s",
  ];
  it("the example's own panic (column 1, the program's line) is placed at the doc comment's line", () => {
    expect(found(head.join("\n"))[0]).toEqual(["src/lib.rs - cone_for (line 14)", "src/lib.rs", 14]);
  });
  it("must not fire: a panic in the crate's code the example calls keeps its real place", () => {
    expect(found(head.join("\n"))[1]).toEqual(["src/lib.rs - scale (line 6)", "src/lib.rs", 12]);
  });
  it("must not fire: an ordinary test's column-1 panic is its own place", () => {
    const log = [
      "running 1 test",
      "test tests::cone ... FAILED",
      "",
      "failures:",
      "",
      "---- tests::cone stdout ----",
      "thread 'tests::cone' panicked at src/lib.rs:40:1:",
      "boom",
      "",
      "failures:",
      "    tests::cone",
      "",
      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    ];
    expect(found(log.join("\n"))).toEqual([["tests::cone", "src/lib.rs", 40]]);
  });
});

describe("automake / a Makefile's check: a bare `FAIL: name` with no count line", () => {
  it("make's error on automake's check target confirms the result lines (summary box cut away)", () => {
    const log = [
      "PASS: tests/fire.sh",
      "FAIL: tests/glaze.sh",
      "make[2]: *** [Makefile:1046: check-TESTS] Error 1",
      "make[1]: *** [Makefile:1313: check-am] Error 2",
    ];
    expect(found(log.join("\n"))).toEqual([["tests/glaze.sh", null, null]]);
  });

  it("a `FAIL: name` right under cmp's report on that file", () => {
    const log = ["out/cone.txt test/cone.txt differ: byte 96, line 4", "FAIL: cone.txt"];
    expect(found(log.join("\n"))).toEqual([["cone.txt", null, null]]);
  });

  it("must not fire: a prose `FAIL:` line of a green run, and one under cmp's report on another file", () => {
    const green = [
      "checking the kiln",
      "FAIL: is only a word the fixture prints",
      "FAIL: cone-ok",
      "all good",
    ];
    expect(found(green.join("\n"))).toEqual([]);
    const other = ["out/cone.txt test/cone.txt differ: byte 96, line 4", "FAIL: glaze.txt"];
    expect(found(other.join("\n"))).toEqual([]);
  });
});

describe("pytest: a test that runs pytest inside pytest (pytester)", () => {
  const log = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0",
    "rootdir: /work/kiln",
    "plugins: anyio-3.6.2",
    "collected 2 items",
    "",
    "tests/test_plugin.py F.                                                  [100%]",
    "",
    "=================================== FAILURES ===================================",
    "_____________________________ test_reports_cones ______________________________",
    "",
    "pytester = <Pytester PosixPath('/tmp/pytest-of-me/pytest-0/test_reports_cones0')>",
    "",
    "    def test_reports_cones(pytester):",
    '        pytester.makepyfile("def test_inner(): assert 5 == 6")',
    "        result = pytester.runpytest()",
    ">       result.assert_outcomes(passed=1)",
    "E       AssertionError: assert {'failed': 1, 'passed': 0} == {'passed': 1}",
    "",
    "tests/test_plugin.py:12: AssertionError",
    "----------------------------- Captured stdout call -----------------------------",
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0",
    "rootdir: /tmp/pytest-of-me/pytest-0/test_reports_cones0",
    "collected 1 item",
    "",
    "test_reports_cones.py F                                                  [100%]",
    "",
    "=================================== FAILURES ===================================",
    "__________________________________ test_inner __________________________________",
    "",
    "    def test_inner(): assert 5 == 6",
    "E   assert 5 == 6",
    "",
    "test_reports_cones.py:1: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED test_reports_cones.py::test_inner - assert 5 == 6",
    "============================== 1 failed in 0.01s ===============================",
    "=========================== short test summary info ============================",
    "FAILED tests/test_plugin.py::test_reports_cones - AssertionError: assert {'failed': 1, 'passed': 0} == {'passed': 1}",
    "========================= 1 failed, 1 passed in 0.12s ==========================",
  ];
  it("the inner session in the captured output is the block's text, its failures none of this run's", () => {
    expect(found(log.join("\n"))).toEqual([
      ["tests/test_plugin.py::test_reports_cones", "tests/test_plugin.py", 12],
    ]);
  });
  it("must not fire: a second session after the first's count line is a run of its own", () => {
    const second = [
      "============================= test session starts ==============================",
      "collected 1 item",
      "",
      "tests/test_glaze.py F                                                    [100%]",
      "",
      "=================================== FAILURES ===================================",
      "__________________________________ test_glaze __________________________________",
      "",
      "    def test_glaze(): assert 1 == 2",
      "E   assert 1 == 2",
      "",
      "tests/test_glaze.py:1: AssertionError",
      "=========================== short test summary info ============================",
      "FAILED tests/test_glaze.py::test_glaze - assert 1 == 2",
      "============================== 1 failed in 0.01s ===============================",
    ];
    expect(found([...log, ...second].join("\n"))).toEqual([
      ["tests/test_plugin.py::test_reports_cones", "tests/test_plugin.py", 12],
      ["tests/test_glaze.py::test_glaze", "tests/test_glaze.py", 1],
    ]);
  });
});
