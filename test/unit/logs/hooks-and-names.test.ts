/**
 * Failures outside a test's own body (hooks, class fixtures, cancelled tests), and names that carry more than
 * the test (a Playwright step, a cargo doc-test). Each snippet copies the runner's printed format.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;
const ids = (r: ReturnType<typeof parseLog>) => r.failures.map((f) => f.test);

describe("surefire: hooks and class-level errors", () => {
  const log = lines(
    "[INFO]  T E S T S",
    "[INFO] -------------------------------------------------------",
    "[INFO] Running com.acme.store.BasketTest",
    "[ERROR] Tests run: 3, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! - in com.acme.store.BasketTest",
    "[ERROR] emptiesOnCheckout  Time elapsed: 0.01 s  <<< FAILURE!",
    "org.opentest4j.AssertionFailedError: basket not empty ==> expected: <true> but was: <false>",
    "\tat com.acme.store.BasketTest.verify(BasketTest.java:31)",
    "",
    "[ERROR] addsItems  Time elapsed: 0 s  <<< ERROR!",
    "java.lang.IllegalStateException: no stock service",
    "\tat com.acme.store.BasketTest.setUp(BasketTest.java:14)",
    "",
    "[INFO] Running com.acme.store.StockTest",
    "[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in com.acme.store.StockTest",
    "[ERROR] com.acme.store.StockTest  Time elapsed: 0 s  <<< ERROR!",
    "java.lang.IllegalStateException: database down",
    "\tat com.acme.store.StockTest.connect(StockTest.java:9)",
    "",
    "[INFO] Results:",
    "[INFO] ",
    "[ERROR] Failures: ",
    "[ERROR]   BasketTest.verify:31 basket not empty ==> expected: <true> but was: <false>",
    "[ERROR]   BasketTest.totals:40 expected: <3> but was: <4>",
    "[ERROR] Errors: ",
    "[ERROR]   StockTest.connect:9 IllegalState database down",
    "[ERROR]   BasketTest.setUp:14 IllegalState no stock service",
    "[INFO] ",
    "[ERROR] Tests run: 4, Failures: 2, Errors: 2, Skipped: 0",
  );

  it("a recap entry naming a hook's frame is the detail block whose stack holds that frame", () => {
    const r = parseLog(log);
    expect(ids(r)).toEqual([
      "com.acme.store.BasketTest.emptiesOnCheckout",
      "com.acme.store.BasketTest.addsItems",
      "com.acme.store.StockTest",
      // Named only in the recap (its detail block is not in the log): still a failure of its own.
      "com.acme.store.BasketTest.totals",
    ]);
  });

  it("a class-level error (a failing @BeforeAll) is the class's, located in its test source", () => {
    const r = parseLog(log);
    expect(r.failures.find((f) => f.test === "com.acme.store.StockTest")).toMatchObject({
      file: "src/test/java/com/acme/store/StockTest.java",
      line: 9,
    });
  });
});

describe("node:test spec: tests cancelled by a failing hook", () => {
  it("a `✖ test` without a duration inside a suite is a failed (cancelled) test", () => {
    const r = parseLog(
      lines(
        "▶ pantry",
        "  ✔ opens (0.5ms)",
        "▶ pantry (1.2ms)",
        "▶ with a cellar",
        "  ✖ lists wine",
        "    'test did not finish before its parent and was cancelled'",
        "",
        "  ✖ counts bottles",
        "    'test did not finish before its parent and was cancelled'",
        "",
        "✖ with a cellar (0.9ms)",
        "",
        "  Error: cellar locked",
        "      at SuiteContext.<anonymous> (file:///home/runner/work/p/p/test/cellar.test.mjs:5:11)",
        "",
        "✖ not a test: printed by the app",
        "ℹ tests 3",
        "ℹ pass 1",
        "ℹ fail 0",
        "ℹ cancelled 2",
      ),
    );
    expect(ids(r)).toEqual(["with a cellar > lists wine", "with a cellar > counts bottles"]);
  });

  it("a top-level `✖ line` without a duration stays ordinary output", () => {
    const r = parseLog(
      lines("▶ pantry", "  ✔ opens (0.5ms)", "▶ pantry (1.2ms)", "✖ 0 jars broken", "ℹ pass 1", "ℹ fail 0"),
    );
    expect(r.failures).toEqual([]);
  });
});

describe("playwright: a failing test.step", () => {
  it("the step's title in the failure header is not part of the test id", () => {
    const r = parseLog(
      lines(
        "Running 2 tests using 1 worker",
        "  ✓  1 e2e/cart.spec.ts:4:3 › cart › adds (20ms)",
        "  ✘  2 e2e/cart.spec.ts:9:3 › cart › pays (31ms)",
        "",
        "  1) e2e/cart.spec.ts:9:3 › cart › pays › fill the card form ───────────────────",
        "",
        "    Error: expect(received).toBe(expected)",
        "",
        "        at /home/runner/work/shop/shop/e2e/cart.spec.ts:12:20",
        "",
        "  1 failed",
        "    e2e/cart.spec.ts:9:3 › cart › pays ────────────────────────────────────────",
        "  1 passed (1.1s)",
      ),
    );
    expect(ids(r)).toEqual(["e2e/cart.spec.ts > cart > pays"]);
    expect(r.failures[0]).toMatchObject({ file: "e2e/cart.spec.ts", line: 12 });
  });
});

describe("cargo doc-tests", () => {
  it("a failing doc-test is a test named `file - item (line N)`; `doctest failed, to rerun` is a count", () => {
    const r = parseLog(
      lines(
        "   Doc-tests shelf",
        "",
        "running 2 tests",
        "test src/jar.rs - jar::Jar::fill (line 12) ... FAILED",
        "test src/lib.rs - weigh (line 3) ... ok",
        "",
        "failures:",
        "",
        "---- src/jar.rs - jar::Jar::fill (line 12) stdout ----",
        "Test executable failed (exit status: 101).",
        "",
        "stderr:",
        "",
        "thread 'main' panicked at src/jar.rs:30:9:",
        "jar overflows",
        "",
        "failures:",
        "    src/jar.rs - jar::Jar::fill (line 12)",
        "",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.40s",
        "",
        "error: doctest failed, to rerun pass `--doc`",
      ),
    );
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      test: "src/jar.rs - jar::Jar::fill (line 12)",
      file: "src/jar.rs",
      line: 30,
      message: "jar overflows",
    });
  });
});

describe("unittest class and module fixtures", () => {
  it("an error in setUpClass keeps unittest's id `setUpClass (module.Class)`", () => {
    const r = parseLog(
      lines(
        "setUpClass (tests.test_cellar.CellarTests) ... ERROR",
        "test_add (tests.test_jar.JarTests.test_add) ... ok",
        "",
        "======================================================================",
        "ERROR: setUpClass (tests.test_cellar.CellarTests)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/home/runner/work/app/app/tests/test_cellar.py", line 8, in setUpClass',
        '    raise OSError("cellar locked")',
        "OSError: cellar locked",
        "",
        "----------------------------------------------------------------------",
        "Ran 1 test in 0.001s",
        "",
        "FAILED (errors=1)",
      ),
    );
    expect(ids(r)).toEqual(["setUpClass (tests.test_cellar.CellarTests)"]);
    expect(r.failures[0]).toMatchObject({ file: "tests/test_cellar.py", line: 8, errorType: "OSError" });
  });
});

describe("unittest on a machine that is not a CI runner", () => {
  it("a frame path ending with the test's module names the directory unittest ran in", () => {
    const r = parseLog(
      lines(
        "test_fill (shop.tests.test_jar.JarTests.test_fill) ... FAIL",
        "test_open (shop.tests.test_jar.JarTests.test_open) ... ERROR",
        "",
        "======================================================================",
        "ERROR: test_open (shop.tests.test_jar.JarTests.test_open)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/srv/ci/app/shop/tests/test_jar.py", line 12, in test_open',
        "    jar.open()",
        '  File "/srv/ci/app/shop/jar.py", line 40, in open',
        '    raise OSError("lid stuck")',
        "OSError: lid stuck",
        "",
        "======================================================================",
        "FAIL: test_fill (shop.tests.test_jar.JarTests.test_fill)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/srv/ci/app/shop/tests/test_jar.py", line 8, in test_fill',
        "    self.assertEqual(jar.level, 3)",
        "AssertionError: 2 != 3",
        "",
        "----------------------------------------------------------------------",
        "Ran 2 tests in 0.001s",
        "",
        "FAILED (failures=1, errors=1)",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["shop.tests.test_jar.JarTests.test_open", "shop/jar.py", 40],
      ["shop.tests.test_jar.JarTests.test_fill", "shop/tests/test_jar.py", 8],
    ]);
  });

  it("paths outside that directory stay as printed", () => {
    const r = parseLog(
      lines(
        "======================================================================",
        "ERROR: test_open (shop.tests.test_jar.JarTests.test_open)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/opt/vendor/lidlib/core.py", line 3, in open',
        '    raise OSError("lid stuck")',
        "OSError: lid stuck",
        "",
        "----------------------------------------------------------------------",
        "Ran 1 test in 0.001s",
        "",
        "FAILED (errors=1)",
      ),
    );
    expect(r.failures[0]).toMatchObject({ file: "/opt/vendor/lidlib/core.py", line: 3 });
  });
});

describe("unittest -v tests with a docstring", () => {
  it("reads the outcome from the docstring line that follows the test's own line", () => {
    const log = [
      "test_even (tests.test_slices.SliceTests.test_even)",
      "Lengths divisible by n split evenly ... ok",
      "test_negative (tests.test_slices.SliceTests.test_negative)",
      "Negative sizes must raise, not loop ... FAIL",
      "test_plain (tests.test_slices.SliceTests.test_plain) ... ok",
      "",
      "======================================================================",
      "FAIL: test_negative (tests.test_slices.SliceTests.test_negative)",
      "Negative sizes must raise, not loop",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/w/tests/test_slices.py", line 12, in test_negative',
      "    self.assertRaises(ValueError, slices, [1], -1)",
      "AssertionError: ValueError not raised by slices",
      "",
      "----------------------------------------------------------------------",
      "Ran 3 tests in 0.001s",
      "",
      "FAILED (failures=1)",
    ].join("\n");
    const r = parseLog(log);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["tests.test_slices.SliceTests.test_even", "passed"],
      ["tests.test_slices.SliceTests.test_negative", "failed"],
      ["tests.test_slices.SliceTests.test_plain", "passed"],
    ]);
    expect(r.failures.filter((f) => f.test !== null).map((f) => f.test)).toEqual([
      "tests.test_slices.SliceTests.test_negative",
    ]);
  });
});
