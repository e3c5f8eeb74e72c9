/**
 * Shapes the real-runner fixtures do not cover: older runner versions, plugins (pytest-rerunfailures),
 * suite-level failures, other compilers and linters read by the generic parser. Each snippet copies the
 * tool's printed format.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("pytest", () => {
  it("RERUN then PASSED (pytest-rerunfailures) is a flaky pass; RERUN then FAILED stays failed", () => {
    const r = parseLog(
      lines(
        "============================= test session starts ==============================",
        "tests/test_net.py::test_fetch RERUN                                        [ 50%]",
        "tests/test_net.py::test_fetch PASSED                                       [ 50%]",
        "tests/test_net.py::test_post RERUN                                         [100%]",
        "tests/test_net.py::test_post FAILED                                        [100%]",
        "=========================== short test summary info ============================",
        "FAILED tests/test_net.py::test_post - TimeoutError: timed out",
        "==================== 1 failed, 1 passed, 2 rerun in 0.31s =====================",
      ),
    );
    expect(r.tests).toEqual([
      {
        id: "tests/test_net.py::test_fetch",
        outcome: "passed",
        flaky: true,
        format: "pytest",
        file: "tests/test_net.py",
      },
      {
        id: "tests/test_net.py::test_post",
        outcome: "failed",
        flaky: false,
        format: "pytest",
        file: "tests/test_net.py",
      },
    ]);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      test: "tests/test_net.py::test_post",
      errorType: "TimeoutError",
      message: "TimeoutError: timed out",
    });
  });

  it("a SyntaxError while collecting is a syntax failure of that module", () => {
    const r = parseLog(
      lines(
        "============================= test session starts ==============================",
        "collected 0 items / 1 error",
        "",
        "==================================== ERRORS ====================================",
        "_____________________ ERROR collecting tests/test_bad.py ______________________",
        "/usr/lib/python3/dist-packages/_pytest/python.py:617: in _importtestmodule",
        "    mod = import_path(self.path, mode=importmode, root=self.config.rootpath)",
        'E     File "/home/runner/work/app/app/tests/test_bad.py", line 3',
        "E       def f(:",
        "E             ^",
        "E   SyntaxError: invalid syntax",
        "=========================== short test summary info ============================",
        "ERROR tests/test_bad.py",
        "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!",
        "=============================== 1 error in 0.05s ===============================",
      ),
    );
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      category: "syntax",
      test: "tests/test_bad.py",
      errorType: "SyntaxError",
    });
  });
});

describe("unittest", () => {
  it("reads the Python < 3.11 form `test_x (module.Class)`", () => {
    const r = parseLog(
      lines(
        "test_add (test_calc.CalcTest) ... ok",
        "test_div (test_calc.CalcTest) ... FAIL",
        "",
        "======================================================================",
        "FAIL: test_div (test_calc.CalcTest)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/home/runner/work/calc/calc/test_calc.py", line 11, in test_div',
        "    self.assertEqual(div(7, 2), 3.5)",
        "AssertionError: 3 != 3.5",
        "",
        "----------------------------------------------------------------------",
        "Ran 2 tests in 0.001s",
        "",
        "FAILED (failures=1)",
      ),
    );
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["test_calc.CalcTest.test_add", "passed"],
      ["test_calc.CalcTest.test_div", "failed"],
    ]);
    expect(r.failures[0]).toMatchObject({
      file: "test_calc.py",
      line: 11,
      errorType: "AssertionError",
      message: "3 != 3.5",
    });
  });
});

describe("python tracebacks", () => {
  it("a chained exception is one failure with the last exception", () => {
    const r = parseLog(
      lines(
        "Traceback (most recent call last):",
        '  File "/home/runner/work/app/app/app/config.py", line 4, in <module>',
        "    import tomllib",
        "ModuleNotFoundError: No module named 'tomllib'",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "/home/runner/work/app/app/app/config.py", line 6, in <module>',
        "    import tomli as tomllib",
        "ImportError: cannot import name 'loads' from 'tomli'",
        "Error: Process completed with exit code 1.",
      ),
    );
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      category: "import",
      errorType: "ImportError",
      file: "app/config.py",
      line: 6,
    });
  });
});

describe("jest and vitest suite failures", () => {
  it("jest: Test suite failed to run (a missing module) is an import failure without a test id", () => {
    const r = parseLog(
      lines(
        "FAIL src/app.test.ts",
        "  ● Test suite failed to run",
        "",
        "    Cannot find module './missing' from 'src/app.test.ts'",
        "",
        "      1 | import { run } from './missing';",
        "",
        "      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)",
        "",
        "Test Suites: 1 failed, 1 total",
        "Tests:       0 total",
      ),
    );
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ category: "import", test: null, file: "src/app.test.ts" });
  });

  it("vitest: a file that fails to load is a failure of the file", () => {
    const r = parseLog(
      lines(
        "",
        " RUN  v3.2.7 /home/runner/work/calc/calc",
        "",
        " ❯ test/broken.test.ts (0 test)",
        "",
        "⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯",
        "",
        " FAIL  test/broken.test.ts [ test/broken.test.ts ]",
        'Error: Failed to resolve import "./nope" from "test/broken.test.ts". Does the file exist?',
        " ❯ test/broken.test.ts:1:22",
        "",
        "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯",
        "",
        " Test Files  1 failed (1)",
        "      Tests  no tests",
        "   Duration  310ms",
      ),
    );
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      format: "vitest",
      category: "import",
      test: null,
      file: "test/broken.test.ts",
      line: 1,
    });
  });
});

describe("go -json build events (Go 1.24+)", () => {
  it("reads build-output and build-fail", () => {
    const r = parseLog(
      lines(
        '{"ImportPath":"example.com/calc/broken [example.com/calc/broken.test]","Action":"build-output","Output":"# example.com/calc/broken [example.com/calc/broken.test]\\n"}',
        '{"ImportPath":"example.com/calc/broken [example.com/calc/broken.test]","Action":"build-output","Output":"broken/broken.go:3:29: undefined: undefinedName\\n"}',
        '{"ImportPath":"example.com/calc/broken [example.com/calc/broken.test]","Action":"build-fail"}',
        '{"Time":"2025-01-01T00:00:00Z","Action":"fail","Package":"example.com/calc/broken","Elapsed":0,"FailedBuild":"example.com/calc/broken [example.com/calc/broken.test]"}',
      ),
    );
    expect(r.failures).toEqual([
      expect.objectContaining({
        format: "go-json",
        category: "build",
        file: "broken/broken.go",
        line: 3,
        column: 29,
        message: "undefined: undefinedName",
      }),
    ]);
  });
});

describe("cargo", () => {
  it("reads the pre-1.73 one-line panic", () => {
    const r = parseLog(
      lines(
        "running 1 test",
        "test tests::adds ... FAILED",
        "",
        "failures:",
        "",
        "---- tests::adds stdout ----",
        "thread 'tests::adds' panicked at 'assertion failed: `(left == right)`', src/lib.rs:15:9",
        "",
        "failures:",
        "    tests::adds",
        "",
        "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
      ),
    );
    expect(r.failures[0]).toMatchObject({
      test: "tests::adds",
      file: "src/lib.rs",
      line: 15,
      column: 9,
      errorType: "panic",
    });
  });
});

describe("TAP", () => {
  it("reads plain TAP with SKIP/TODO directives", () => {
    const r = parseLog(
      lines(
        "TAP version 13",
        "ok 1 - parses",
        "not ok 2 - formats # TODO later",
        "ok 3 - skipped one # SKIP no db",
        "not ok 4 - adds",
        "1..4",
      ),
    );
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["parses", "passed"],
      ["formats", "skipped"],
      ["skipped one", "skipped"],
      ["adds", "failed"],
    ]);
    expect(r.failures.map((f) => f.test)).toEqual(["adds"]);
  });
});

describe("generic file:line[:col]: message", () => {
  it("reads gcc, mypy, flake8 and ::error, and ignores warnings, notes and bare locations", () => {
    const r = parseLog(
      lines(
        "src/main.c:12:5: error: 'count' undeclared (first use in this function)",
        "src/main.c:14:1: warning: control reaches end of non-void function [-Wreturn-type]",
        "src/main.c:12:5: note: each undeclared identifier is reported only once",
        'app/models.py:31: error: Incompatible return value type (got "int", expected "str")  [return-value]',
        "app/views.py:1:1: F401 'os' imported but unused",
        "::error file=app/deploy.sh,line=4,col=2::Missing quote",
        "README.md:3: see the docs",
      ),
    );
    expect(r.failures.map((f) => [f.category, f.file, f.line, f.column, f.errorType])).toEqual([
      ["build", "src/main.c", 12, 5, "error"],
      ["type-check", "app/models.py", 31, null, "return-value"],
      ["lint", "app/views.py", 1, 1, "F401"],
      ["build", "app/deploy.sh", 4, 2, null],
    ]);
  });
});

describe("gradle with TestNG suite names", () => {
  it("reads `Suite name > Test name > pkg.Class.method FAILED` as the method's failure", () => {
    const r = parseLog(
      [
        "> Task :test",
        "",
        "Gradle suite > Gradle test > org.example.cart.TotalsTest.addsTax FAILED",
        "    java.lang.AssertionError: expected [12] but found [10]",
        "        at org.testng.Assert.fail(Assert.java:110)",
        "        at org.example.cart.TotalsTest.addsTax(TotalsTest.java:31)",
        "",
        "Nightly suite > checkout smoke > org.example.cart.TotalsTest.roundsDown PASSED",
        "",
        "2 tests completed, 1 failed",
      ].join("\n"),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["org.example.cart.TotalsTest.addsTax", "src/test/java/org/example/cart/TotalsTest.java", 31],
    ]);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["org.example.cart.TotalsTest.addsTax", "failed"],
      ["org.example.cart.TotalsTest.roundsDown", "passed"],
    ]);
  });

  it("does not take prose with a `>` and a trailing FAILED for a test", () => {
    const r = parseLog("Build step > deploy to staging FAILED\n");
    expect(r.failures.filter((f) => f.format === "gradle")).toEqual([]);
  });
});

describe("go test files named from the module root", () => {
  it("learns the module root from a goroutine frame when the log has one package", () => {
    const r = parseLog(
      [
        "=== RUN   TestTotal",
        "    cart_test.go:14: Total() = 9, want 10",
        "--- FAIL: TestTotal (0.00s)",
        "=== RUN   TestFirst",
        "--- FAIL: TestFirst (0.00s)",
        "panic: runtime error: index out of range [0] with length 0 [recovered]",
        "\tpanic: runtime error: index out of range [0] with length 0",
        "",
        "goroutine 7 [running]:",
        "example.org/shop/internal/cart.First(...)",
        "\tinternal/cart/cart.go:21",
        "example.org/shop/internal/cart.TestFirst(0xc0000a2d00?)",
        "\tinternal/cart/cart_test.go:30 +0x1b",
        "FAIL\texample.org/shop/internal/cart\t0.004s",
        "FAIL",
      ].join("\n"),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["example.org/shop/internal/cart.TestTotal", "internal/cart/cart_test.go", 14],
      ["example.org/shop/internal/cart.TestFirst", "internal/cart/cart.go", 21],
    ]);
  });

  it("leaves the bare file name when nothing in the log tells the package's directory", () => {
    const r = parseLog(
      [
        "=== RUN   TestTotal",
        "    cart_test.go:14: Total() = 9, want 10",
        "--- FAIL: TestTotal (0.00s)",
        "FAIL\texample.org/shop/internal/cart\t0.004s",
      ].join("\n"),
    );
    expect(r.failures.map((f) => f.file)).toEqual(["cart_test.go"]);
  });
});

describe("surefire with JUnit 5 @Nested classes", () => {
  it("names a nested test by its nested class, once, from the detail block and the recap", () => {
    const r = parseLog(
      [
        "[INFO] -------------------------------------------------------",
        "[INFO]  T E S T S",
        "[INFO] -------------------------------------------------------",
        "[INFO] Running org.shop.CartTest",
        "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in org.shop.CartTest",
        "[ERROR] addsTax  Time elapsed: 0.01 s  <<< FAILURE!",
        "org.opentest4j.AssertionFailedError: expected: <12> but was: <10>",
        "\tat org.shop.CartTest$WithItems.addsTax(CartTest.java:21)",
        "",
        "[INFO] Results:",
        "[INFO] ",
        "[ERROR] Failures: ",
        "[ERROR]   CartTest$WithItems.addsTax:21 expected: <12> but was: <10>",
        "[INFO] ",
        "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0",
      ].join("\n"),
    );
    expect(r.failures.map((f) => [f.test, f.line])).toEqual([["org.shop.CartTest$WithItems.addsTax", 21]]);
  });
});

describe("rspec markers that are not part of a description", () => {
  it("reads `N) example FIXED` (a pending example that passed) as the example, with RSpec's reason", () => {
    const r = parseLog(
      [
        "Failures:",
        "",
        "  1) Cart totals rounds down FIXED",
        "     Expected pending 'rounding is not done yet' to fail. No error was raised.",
        "     # ./spec/cart_spec.rb:12",
        "",
        "Finished in 0.01 seconds (files took 0.1 seconds to load)",
        "2 examples, 1 failure",
        "",
        "Failed examples:",
        "",
        "rspec ./spec/cart_spec.rb:10 # Cart totals rounds down",
      ].join("\n"),
    );
    expect(r.failures.map((f) => [f.test, f.message])).toEqual([
      [
        "spec/cart_spec.rb > Cart totals rounds down",
        "Expected pending 'rounding is not done yet' to fail. No error was raised.",
      ],
    ]);
  });
});
