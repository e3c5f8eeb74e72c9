/**
 * Failure blocks people paste without the runner's header or counts (mocha, Playwright, vitest, Surefire 2),
 * blocks a paste damaged (an RSpec block with a markdown fence and frames that lost their indentation, a
 * unittest header with its docstring), and places only a code frame or a machine's absolute path gives.
 * Each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("mocha", () => {
  it("a numbered block with its title lines, an error and a frame, without mocha's counts", () => {
    const log = [
      "  3) Cart totals",
      "       adds tax to each line:",
      "",
      "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
      "",
      "12 !== 13",
      "",
      "        at Context.<anonymous> (test\\cart.test.js:21:16)",
      "",
      "3 tests failed.",
    ].join("\n");
    expect(found(log)).toEqual([["Cart totals > adds tax to each line", "test/cart.test.js", 21]]);
  });

  it("not a numbered listing line, nor a block without an error and a frame", () => {
    const listing = ["  1) does the thing", "  ✓ does another", "", "  1 passing (3ms)", ""].join("\n");
    expect(found(listing)).toEqual([]);
    const noFrame = ["  2) Cart totals", "       adds tax:", "", "      AssertionError: 1 == 2", ""].join(
      "\n",
    );
    expect(found(noFrame)).toEqual([]);
  });

  it("titles old mocha joins with spaces take the spec tree's describes", () => {
    const log = [
      "  Cart",
      "    totals",
      "      1) adds tax",
      "",
      "  0 passing (5ms)",
      "  1 failing",
      "",
      "  1) Cart totals adds tax:",
      "     AssertionError: 12 == 13",
      "      at Context.<anonymous> (test/cart.test.js:7:20)",
      "",
    ].join("\n");
    expect(found(log)).toEqual([["Cart > totals > adds tax", "test/cart.test.js", 7]]);
  });

  it("keeps the joined title when the tree's entry of that number does not spell it", () => {
    const log = [
      "  Cart",
      "    1) adds tax",
      "",
      "  0 passing (5ms)",
      "  1 failing",
      "",
      "  1) Basket adds tax:",
      "     AssertionError: 12 == 13",
      "",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["Basket adds tax"]);
  });
});

describe("Playwright", () => {
  const block = (rule: string) =>
    [
      `  4) [chromium] › tests/cart.spec.ts:12:5 › cart › adds an item ${rule}`,
      "",
      "    Error: expect(locator).toHaveText(expected) failed",
      "",
      "      13 |     await page.goto('/');",
      "    > 14 |     await expect(page.locator('#n')).toHaveText('1');",
      "         |                                      ^",
      "        at /home/me/shop/tests/cart.spec.ts:14:38",
      "",
    ].join("\n");

  it("a numbered failure block ruled off with ─, without `Running N tests`; a machine's path is the test file", () => {
    expect(found(block("──────────"))).toEqual([
      ["tests/cart.spec.ts > cart > adds an item", "tests/cart.spec.ts", 14],
    ]);
  });

  it("the code frame's line when the frames were cut", () => {
    const cut = block("──────────").replace(
      "        at /home/me/shop/tests/cart.spec.ts:14:38\n",
      "        at /home/me\n",
    );
    expect(found(cut)).toEqual([["tests/cart.spec.ts > cart > adds an item", "tests/cart.spec.ts", 14]]);
  });

  it("without the rule only when the project leads the title; never without an error line", () => {
    // Real CI logs (list reporter with no terminal width) print the header with no rule: the project's
    // `[name] › ` before `file:line:col › title` is then the Playwright evidence.
    expect(found(block(""))).toEqual([
      ["tests/cart.spec.ts > cart > adds an item", "tests/cart.spec.ts", 14],
    ]);
    expect(found(block("").replace("[chromium] › ", ""))).toEqual([]);
    const noError = [
      "  4) [chromium] › tests/cart.spec.ts:12:5 › cart › adds an item ──────────",
      "",
      "    the page was slow today",
      "",
    ].join("\n");
    expect(found(noError)).toEqual([]);
  });
});

describe("vitest", () => {
  it("a lone FAIL block naming a test, with its location", () => {
    const log = [
      " FAIL  src/cart.test.ts > Cart > adds tax",
      " AssertionError: expected 12 to deeply equal 13",
      "",
      "  ❯ src/cart.test.ts:40:15",
      "     40|     expect(total).toEqual(13);",
    ].join("\n");
    expect(found(log)).toEqual([["src/cart.test.ts > Cart > adds tax", "src/cart.test.ts", 40]]);
  });

  it("a lone failed suite is matched by its file", () => {
    const log = [
      "FAIL  tests/cart.ts [ tests/cart.ts ]",
      "Error: No test suite found in file /home/me/shop/tests/cart.ts",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.test, f.file])).toEqual([[null, "tests/cart.ts"]]);
  });

  it("not jest's FAIL header, nor a header with nothing failing under it", () => {
    expect(found(" FAIL  src/cart.test.ts\n")).toEqual([]);
    expect(found(" FAIL  src/cart.test.ts > Cart > adds tax\n\nsomething else entirely\n")).toEqual([]);
  });
});

describe("Surefire 2 without a Running line", () => {
  it("a detail line that names its class in full opens the run", () => {
    const log = [
      "testTotal(com.shop.CartTest)  Time elapsed: 0.01 sec  <<< FAILURE!",
      "java.lang.AssertionError: expected:<1> but was:<2>",
      "\tat com.shop.CartTest.testTotal(CartTest.java:17)",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["com.shop.CartTest.testTotal"]);
  });

  it("not a detail-like line whose name has no package", () => {
    const log = [
      "testTotal(CartTest)  Time elapsed: 0.01 sec  <<< FAILURE!",
      "java.lang.AssertionError: x",
      "",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });

  it("the first recap entry on the `Failed tests:` line itself, and the next one below it", () => {
    const log = [
      "-------------------------------------------------------",
      " T E S T S",
      "-------------------------------------------------------",
      "Running com.shop.CartTest",
      "Tests run: 3, Failures: 2, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec <<< FAILURE!",
      "",
      "Results :",
      "",
      "Failed tests:   testTotal(com.shop.CartTest): expected:<1> but was:<2>",
      "  testTax(com.shop.CartTest): expected:<3> but was:<4>",
      "",
      "Tests run: 3, Failures: 2, Errors: 0, Skipped: 0",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["com.shop.CartTest.testTotal", "com.shop.CartTest.testTax"]);
  });
});

describe("damaged blocks", () => {
  it("RSpec: a fence inside a Failures block, and a frame that lost its indentation, give the spec file", () => {
    const log = [
      "Failures:",
      "",
      "  1) Cart#total adds tax",
      "     Failure/Error: expect(cart.total).to eq 13",
      "```",
      "   expected: 13",
      "        got: 12",
      " # ./spec/cart_spec.rb:9:in `block (2 levels) in <top (required)>'",
      "```",
    ].join("\n");
    expect(found(log)).toEqual([["spec/cart_spec.rb > Cart#total adds tax", "spec/cart_spec.rb", 9]]);
  });

  it("unittest: a docstring between the header and its separator keeps the traceback in the block (one failure)", () => {
    const log = [
      "======================================================================",
      "FAIL: test_total (shop.test_cart.CartTest)",
      "Check the total with tax",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/app/shop/test_cart.py", line 9, in test_total',
      "    self.assertEqual(total, 13)",
      "AssertionError: 12 != 13",
      "",
      "----------------------------------------------------------------------",
      "Ran 3 tests in 0.010s",
      "",
      "FAILED (failures=1)",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => f.test)).toEqual(["shop.test_cart.CartTest.test_total"]);
    expect(r.counts["unittest"]?.failed).toBe(1);
  });

  it("jest: the code frame's line when the stack was cut", () => {
    const log = [
      " FAIL  src/cart.test.js",
      "  ● Cart › adds tax",
      "",
      "    expect(received).toBe(expected)",
      "",
      "       9 |   const total = cart.total();",
      "    > 10 |   expect(total).toBe(13);",
      "         |                 ^",
    ].join("\n");
    expect(found(log)).toEqual([["src/cart.test.js > Cart > adds tax", "src/cart.test.js", 10]]);
  });
});

describe("RSpec documentation format cut before its Failures section", () => {
  const doc = [
    "Cart",
    "  #total",
    "    adds tax (FAILED - 1)",
    "    rounds cents",
    "  #add",
    "    keeps the order (FAILED - 2)",
    "",
  ];

  it("a `(FAILED - n)` example is a failure named by its groups", () => {
    // RSpec writes a `#method` group under a described class without a space (`Cart#total`): real RSpec 3.12
    // output in test/fixtures/logs-real/gen-rspec-doc-pending-actions (`Inventory#add when the sku exists …`).
    expect(parseLog(doc.join("\n")).failures.map((f) => f.test)).toEqual([
      "Cart#total adds tax",
      "Cart#add keeps the order",
    ]);
  });

  it("not when the Failures section names them, nor in a run whose count says nothing failed", () => {
    const withBlocks = [
      ...doc,
      "Failures:",
      "",
      "  1) Cart #total adds tax",
      "     Failure/Error: expect(total).to eq 13",
      "     # ./spec/cart_spec.rb:5:in `block (3 levels) in <top (required)>'",
      "",
      "2 examples, 1 failure",
      "",
      "Failed examples:",
      "",
      "rspec ./spec/cart_spec.rb:5 # Cart #total adds tax",
    ].join("\n");
    expect(parseLog(withBlocks).failures.map((f) => f.test)).toEqual([
      "spec/cart_spec.rb > Cart #total adds tax",
    ]);
    expect(parseLog([...doc, "3 examples, 0 failures"].join("\n")).failures).toEqual([]);
  });
});

describe("dotnet test", () => {
  const run = (result: string, frame: string) =>
    [
      "Starting test execution, please wait...",
      "A total of 1 test files matched the specified pattern.",
      result,
      "  Stack Trace:",
      frame,
      "",
      "Test Run Failed.",
      "Total tests: 2",
      "     Passed: 1",
      "     Failed: 1",
      " Total time: 1.2 Seconds",
    ].join("\n");

  it("VSTest 16's `X name [ms]` marker is a failed result; a frame cut after the method still names the class", () => {
    const r = parseLog(
      run("  X Adds_tax [134ms]", "     at Shop.Tests.CartTests.Adds_tax() in C:\\work\\Shop"),
    );
    expect(r.failures.map((f) => f.test)).toEqual(["Shop.Tests.CartTests.Adds_tax"]);
  });

  it("not an `X` line without its duration, nor a frame of another method", () => {
    expect(parseLog(run("  X Adds_tax", "     at Shop.Tests.CartTests.Adds_tax()")).failures).toEqual([]);
    const other = parseLog(
      run("  Failed Adds_tax [3 ms]", "     at Shop.Tests.Helpers.Check() in C:\\work\\Shop"),
    );
    expect(other.failures.map((f) => f.test)).toEqual(["Adds_tax"]);
  });
});
