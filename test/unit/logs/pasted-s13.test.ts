/**
 * Log shapes from hold13's misses (issue 10, branch f10), each read by a general rule. Each rule has a case where it
 * must not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const lines = (...l: string[]) => l.join("\n");

describe("pytest: collection errors' summary lines pasted without the rule", () => {
  const errors = [
    "ERROR kettle/tests/test_pour.py - ImportError: libfoo.so.1: cannot open shared object file",
    "ERROR kettle/tests/test_lid.py - ImportError: libfoo.so.1: cannot open shared object file",
  ];
  it("reads them when pytest's interrupted line confirms them", () => {
    const r = parseLog(
      lines(
        ...errors,
        "!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!",
        "============================== 2 errors in 0.31s ===============================",
        " * ERROR: dev-python/kettle-1.0::gentoo failed (test phase):",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file])).toEqual([
      ["kettle/tests/test_pour.py", "kettle/tests/test_pour.py"],
      ["kettle/tests/test_lid.py", "kettle/tests/test_lid.py"],
    ]);
  });
  it("reads them when the count rule follows directly", () => {
    expect(ids(lines(errors[0]!, "=========== 1 error in 0.12s ===========")).length).toBe(1);
  });
  it("does not read `ERROR file.py - …` lines no pytest line confirms", () => {
    expect(ids(lines(...errors, "make: *** [Makefile:12: test] Error 1"))).toEqual([]);
    // Another line between them and the confirmation: not a run of summary lines.
    expect(
      ids(lines(errors[0]!, "some other output", "!!!! Interrupted: 1 error during collection !!!!")),
    ).toEqual([]);
  });
});

describe("pytest -v: a log cut inside its ERRORS/FAILURES sections", () => {
  const head = [
    "============================= test session starts ==============================",
    "collecting ... collected 4 items",
    "",
    "tests/test_jar.py::test_fill FAILED                                       [ 25%]",
    "tests/test_jar.py::test_seal ERROR                                        [ 50%]",
    "tests/test_jar.py::TestLid::test_twist FAILED                             [ 75%]",
    "tests/test_jar.py::test_label PASSED                                      [100%]",
    "",
  ];
  it("names a block by the -v line with its title, and fails the -v FAILED lines whose block was cut", () => {
    const log = lines(
      ...head,
      "==================================== ERRORS ====================================",
      "_________________________ ERROR at setup of test_seal __________________________",
      "",
      "    @pytest.fixture",
      "    def lid():",
      ">       raise OSError('no lid')",
    );
    expect(ids(log).sort()).toEqual([
      "tests/test_jar.py::TestLid::test_twist",
      "tests/test_jar.py::test_fill",
      "tests/test_jar.py::test_seal",
    ]);
  });
  it("adds nothing when the short summary names the failures", () => {
    const log = lines(
      ...head,
      "=========================== short test summary info ============================",
      "FAILED tests/test_jar.py::test_fill - assert 1 == 2",
      "============================== 1 failed, 1 passed in 0.10s ==============================",
    );
    expect(ids(log)).toEqual(["tests/test_jar.py::test_fill"]);
  });
  it("reports a full block once, under the -v line's id", () => {
    const log = lines(
      "tests/test_jar.py::TestLid::test_twist FAILED                             [100%]",
      "",
      "=================================== FAILURES ===================================",
      "______________________________ TestLid.test_twist ______________________________",
      "",
      "    def test_twist(self):",
      ">       assert twist() == 2",
      "E       assert 1 == 2",
      "",
      "tests/test_jar.py:9: AssertionError",
    );
    expect(ids(log)).toEqual(["tests/test_jar.py::TestLid::test_twist"]);
  });
});

describe("unittest: a module that failed to import (unittest.loader._FailedTest)", () => {
  const block = (name: string, cls: string) => [
    "======================================================================",
    `ERROR: ${name} (${cls})`,
    "----------------------------------------------------------------------",
    `ImportError: Failed to import test module: ${name}`,
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3.9/unittest/loader.py", line 436, in _find_test_path',
    "    module = self._get_module_from_name(name)",
    `  File "/build/kettle/.pybuild/cpython3_3.9/build/${name.replace(/\./g, "/")}.py", line 4, in <module>`,
    "    import numpy",
    "ModuleNotFoundError: No module named 'numpy'",
    "",
  ];
  it("names the module's failure as unittest does, placed in the module under the build directory", () => {
    const r = parseLog(
      lines(
        ...block("tests.test_pour", "unittest.loader._FailedTest"),
        "----------------------------------------------------------------------",
        "Ran 1 test in 0.001s",
        "",
        "FAILED (errors=1)",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["unittest.loader._FailedTest.tests.test_pour", "tests/test_pour.py", 4],
    ]);
  });
  it("gives Python 3.11's form (the name in the parentheses) the same id", () => {
    const r = parseLog(lines(...block("tests.test_pour", "unittest.loader._FailedTest.tests.test_pour")));
    expect(r.failures.map((f) => f.test)).toEqual(["unittest.loader._FailedTest.tests.test_pour"]);
  });
  it("takes no dotted name in any other class's header", () => {
    const log = lines(
      "======================================================================",
      "ERROR: tests.test_pour (kettle.tests.Pour)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "tests/test_pour.py", line 4, in test_pour',
      "ValueError: x",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("RSpec: an error while loading a spec file", () => {
  const block = [
    "An error occurred while loading ./spec/kettle/pour_spec.rb.",
    "Failure/Error: RSpec.describe Kettle::Pour do",
    "",
    "NameError:",
    "  uninitialized constant Kettle::Pour",
    "# ./spec/kettle/pour_spec.rb:5:in `<top (required)>'",
  ];
  it("is the spec file's failure (no example), at its frame", () => {
    const r = parseLog(
      lines(
        ...block,
        "No examples found.",
        "",
        "Finished in 0.00004 seconds (files took 0.2 seconds to load)",
        "0 examples, 0 failures, 1 error occurred outside of examples",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line, f.errorType, f.message])).toEqual([
      [null, "spec/kettle/pour_spec.rb", 5, "NameError", "uninitialized constant Kettle::Pour"],
    ]);
  });
  it("is nothing without RSpec's block under the sentence", () => {
    expect(
      parseLog(lines("An error occurred while loading ./spec/kettle/pour_spec.rb.", "see the wiki")).failures,
    ).toEqual([]);
  });
});

describe("jest: a suite that failed to run is its test file's failure", () => {
  it("names the test file even when the error points at the module it imports", () => {
    const r = parseLog(
      lines(
        " FAIL  src/jar/Jar.test.js",
        "  ● Test suite failed to run",
        "",
        "    Cannot find module './Jar.css' from 'Jar.js'",
        "",
        "      at Resolver.resolveModule (node_modules/jest-resolve/build/index.js:179:17)",
        "      at Object.<anonymous> (src/jar/Jar.js:3:1)",
        "",
        "Test Suites: 1 failed, 1 total",
        "Tests:       0 total",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line, f.category])).toEqual([
      [null, "src/jar/Jar.test.js", null, "import"],
    ]);
    expect(r.failures[0]!.stack).toContain("src/jar/Jar.js:3:1");
  });
  it("keeps a frame in the test file itself as the place", () => {
    const r = parseLog(
      lines(
        " FAIL  src/jar/Jar.test.js",
        "  ● Test suite failed to run",
        "",
        "    ReferenceError: window is not defined",
        "",
        "      at Object.<anonymous> (src/jar/Jar.test.js:7:5)",
        "",
        "Tests:       0 total",
      ),
    );
    expect(r.failures.map((f) => [f.file, f.line])).toEqual([["src/jar/Jar.test.js", 7]]);
  });
  it("reads a status in markdown bold, and a cut block's code frame as the test file's line", () => {
    const r = parseLog(
      lines(
        "**FAIL**  test/unit/jar.spec.js",
        "  ● Test suite failed to run",
        "",
        "    Configuration error:",
        "",
        "    Could not locate module @/jar mapped as: src/$1.",
        "",
        "      1 | import Vue from 'vue'",
        "    > 2 | import Jar from '@/jar'",
        "        | ^",
        "",
        "      at createNoMappedModuleFoundError (C:\\Us",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([[null, "test/unit/jar.spec.js", 2]]);
  });
  it("does not take markdown bold around other words for a header", () => {
    expect(
      parseLog(lines("**FAILED**  src/jar/Jar.test.js", "  ● Test suite failed to run")).formats,
    ).not.toContain("jest");
  });
});

describe("JUnit XML: a classname that repeats the name (CTest's --output-junit)", () => {
  const xml = (cls: string, name: string, out: string) =>
    lines(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuite name="(empty)" tests="1" failures="1">',
      `  <testcase name="${name}" classname="${cls}" time="0.01" status="fail">`,
      '    <failure message=""/>',
      `    <system-out>${out}</system-out>`,
      "  </testcase>",
      "</testsuite>",
    );
  it("is named by the name alone, placed by the program's `file:line:` report", () => {
    const f = parseLog(xml("jar_fill", "jar_fill", "tests/jar_fill.c:12: expected 3 got 2\n")).failures;
    expect(f.map((x) => [x.test, x.file, x.line, x.message])).toEqual([
      ["jar_fill", "tests/jar_fill.c", 12, "expected 3 got 2"],
    ]);
  });
  it("keeps classname.name when they differ", () => {
    expect(ids(xml("jar", "jar_fill", "filling\n"))).toEqual(["jar.jar_fill"]);
  });
});

describe("cargo: a test thread's panic line alone, no backtrace", () => {
  it("names the test a module-path thread name gives (libtest names a test's thread so)", () => {
    const f = parseLog(
      lines(
        "thread 'tests::pours_half' panicked at 'assertion failed: `(left == right)`",
        "  left: `1`,",
        " right: `2`', src/jar.rs:40:9",
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      ),
    ).failures;
    expect(f.map((x) => [x.test, x.file, x.line])).toEqual([["tests::pours_half", "src/jar.rs", 40]]);
  });
  it("names no test for main's, a worker's or an unnamed thread's panic", () => {
    for (const thread of ["main", "tokio-runtime-worker", "<unnamed>", "pours_half"])
      expect(
        ids(
          lines(
            `thread '${thread}' panicked at src/jar.rs:40:9:`,
            "boom",
            "note: run with `RUST_BACKTRACE=1`",
          ),
        ),
      ).toEqual([]);
  });
});

describe("Playwright's line reporter: a test's console output under its title", () => {
  it("is the test's output, not a failure of the log's", () => {
    const log = lines(
      "Running 2 tests using 1 worker",
      "[1/2] spec/jar.spec.js:3:1 › jar opens",
      "spec/jar.spec.js:3:1 › jar opens",
      "spec/jar.js:10:3: error: console line the test printed",
      "",
      "[2/2] spec/jar.spec.js:8:1 › jar closes",
      "  1) spec/jar.spec.js:8:1 › jar closes ───────────────────",
      "",
      "    Error: expect(received).toBe(expected)",
      "",
      "        at /builds/acme/jar/spec/jar.spec.js:9:20",
      "",
      "  1 failed",
      "    spec/jar.spec.js:8:1 › jar closes ────────────────────",
      "  1 passed (2.1s)",
    );
    expect(parseLog(log).failures.map((f) => [f.format, f.test])).toEqual([
      ["playwright", "spec/jar.spec.js > jar closes"],
    ]);
  });
  it("leaves a line that repeats no title the run printed to the other formats", () => {
    const log = lines(
      "Running 1 test using 1 worker",
      "[1/1] spec/jar.spec.js:8:1 › jar closes",
      "spec/jar.js:10:3 › not a title of this run",
      "Error: the jar broke",
      "",
      "  1) spec/jar.spec.js:8:1 › jar closes ───────────────────",
      "",
      "    Error: expect(received).toBe(expected)",
      "",
      "  1 failed",
      "    spec/jar.spec.js:8:1 › jar closes ────────────────────",
    );
    expect(parseLog(log).failures.map((f) => f.file)).toContain("spec/jar.js");
  });
});
