/**
 * Reports and runner output that reach the log in part: JUnit `<testcase>` elements with no `<testsuite>` around
 * them (pasted, or cut mid-file), and reporters whose lines each runner worker prefixes. Each rule has a case where
 * it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("JUnit XML fragments", () => {
  it("testcases with no testsuite: each failure or error is a failing test, passing ones pass", () => {
    const log = [
      "Here is the report:",
      '  <testcase classname="com.acme.CartTest" name="addsTax" time="0.1">',
      '    <failure message="expected 13 but was 12" type="java.lang.AssertionError">java.lang.AssertionError: expected 13 but was 12',
      "\tat com.acme.CartTest.addsTax(CartTest.java:21)",
      "</failure>",
      "  </testcase>",
      '  <testcase classname="com.acme.CartTest" name="empty" time="0.1"/>',
      '  <testcase classname="com.acme.CartTest" name="removes" time="0.1">',
      '    <error type="java.lang.NullPointerException"/>',
      "  </testcase>",
      "Any idea why?",
    ].join("\n");
    const parsed = parseLog(log);
    expect(found(log)).toEqual([
      ["com.acme.CartTest.addsTax", "src/test/java/com/acme/CartTest.java", 21],
      ["com.acme.CartTest.removes", null, null],
    ]);
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["com.acme.CartTest.addsTax", "failed"],
      ["com.acme.CartTest.empty", "passed"],
      ["com.acme.CartTest.removes", "error"],
    ]);
  });

  it("a fragment ends at the first line that is not XML: later text is not the report's", () => {
    const log = [
      '<testcase classname="a.B" name="ok"/>',
      "FAILED: something else printed this",
      "<failure>not inside any testcase</failure>",
    ].join("\n");
    expect(parseLog(log).tests.map((t) => t.id)).toEqual(["a.B.ok"]);
    expect(found(log).filter((f) => f[0] !== null)).toEqual([]);
  });

  it("a testcase cut inside its failure's message attribute failed, with the message written so far", () => {
    const log = [
      '    <testcase classname="Calc.Tests.AddTests" name="Adds(1,2)" time="0.7">',
      '      <failure type="failure" message="Expected: 3&#xD;&#xA;  But was: 4&#xD;&#xA; and then the pas',
    ].join("\n");
    const f = parseLog(log).failures;
    expect(f.map((x) => x.test)).toEqual(["Calc.Tests.AddTests.Adds(1,2)"]);
    expect(f[0]!.message).toContain("But was: 4");
  });

  it("a passing testcase cut before its end is no failure, and a testcase mentioned mid-line starts nothing", () => {
    const cut = ['<testcase classname="a.B" name="ok" time="1">', "  <system-out>hello"].join("\n");
    expect(found(cut)).toEqual([]);
    const prose = 'we expected <testcase name="x"><failure/></testcase> in the file';
    expect(parseLog(prose).tests).toEqual([]);
    expect(found(prose)).toEqual([]);
  });
});

describe("WebdriverIO spec reporter", () => {
  const P = "[chrome 120.0.6099.109 linux #0-0]";
  const report = [
    "[0-0] RUNNING in chrome - file:///test/specs/cart.e2e.js",
    '[0-0] Error in "cart.totals.adds tax"',
    "[0-0] ✖ printed by a test, not the reporter",
    "",
    ' "spec" Reporter:',
    "------------------------------------------------------------------",
    `${P} Running: chrome (v120.0.6099.109) on linux`,
    `${P} Session ID: 0c0ffee`,
    `${P}`,
    `${P} » test/specs/cart.e2e.js`,
    `${P} cart`,
    `${P}    ✓ lists items`,
    `${P}    ✖ empties`,
    `${P}`,
    `${P}     totals`,
    `${P}        ✖ adds tax`,
    `${P}        - rounds`,
    `${P}`,
    `${P} 1 passing (1.2s)`,
    `${P} 2 failing`,
    `${P} 1 skipped`,
    `${P}`,
    `${P} 1) cart empties`,
    `${P} element ("#empty") still not displayed after 5000ms`,
    `${P} Error: element ("#empty") still not displayed after 5000ms`,
    `${P}     at async Context.<anonymous> (file:///home/runner/work/shop/shop/test/specs/cart.e2e.js:8:5)`,
    `${P}`,
    `${P} 2) totals adds tax`,
    "Expected: 13",
    "Received: 12",
    `${P} Error: Expect $(\`#total\`) to have text`,
    `${P}     at Context.<anonymous> (file:///home/runner/work/shop/shop/test/specs/cart.e2e.js:14:31)`,
    "",
    "Spec Files:\t 0 passed, 1 failed, 1 total (100% completed) in 00:00:09",
  ].join("\n");

  it("names each ✖ test by its describes and takes the place from its failure's frame", () => {
    const parsed = parseLog(report);
    expect(found(report)).toEqual([
      ["cart > empties", "test/specs/cart.e2e.js", 8],
      ["cart > totals > adds tax", "test/specs/cart.e2e.js", 14],
    ]);
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["cart > lists items", "passed"],
      ["cart > totals > rounds", "skipped"],
      ["cart > empties", "failed"],
      ["cart > totals > adds tax", "failed"],
    ]);
    expect(parsed.failures[1]!.errorType).toBe("Error");
  });

  it("a green report, and worker-prefixed lines that hold no test or count line, report nothing", () => {
    const green = [
      `${P} Running: chrome (v120.0.6099.109) on linux`,
      `${P} » test/specs/cart.e2e.js`,
      `${P} cart`,
      `${P}    ✓ lists items`,
      `${P}`,
      `${P} 1 passing (1.2s)`,
      "Spec Files:\t 1 passed, 1 total (100% completed) in 00:00:04",
    ].join("\n");
    expect(found(green)).toEqual([]);
    expect(parseLog(green).tests.map((t) => t.outcome)).toEqual(["passed"]);
    // A report whose `Running:` preface was cut still counts from its `✖` line (branch pl10: a real paste,
    // hold6-mocha-wdio-spec-prefix-webdriverio-5220, has this shape); prefixed lines with no test or count line do not.
    const cut = [`${P} cart`, `${P}    ✖ empties`, `${P} 1 failing`, `${P} 1) cart empties`].join("\n");
    expect(found(cut)).toEqual([["cart > empties", null, null]]);
    const stray = [`${P} cart`, `${P} some output`, `${P} 1) cart empties`].join("\n");
    expect(parseLog(stray).tests).toEqual([]);
  });
});

describe("RSpec documentation format cut short", () => {
  const listing = [
    "Stock",
    "  #add",
    "    adds to an empty sku",
    "    when the sku exists",
    "      is expected to eq 2 (FAILED - 1)",
    "  .load",
    "    reads a file (FAILED - 2)",
    "  ledger Ledger",
    "    #sum",
    "      sums (FAILED - 3)",
    "",
  ];

  it("a `#method` group under a described class joins it without a space, as RSpec's full description does", () => {
    const ids = found(listing.join("\n")).map((f) => f[0]);
    expect(ids).toEqual([
      "Stock#add when the sku exists is expected to eq 2",
      "Stock.load reads a file",
      "Stock ledger Ledger #sum sums",
    ]);
  });

  it("a log cut inside `Failures:` keeps the blocks it has and the marked examples after the cut", () => {
    const log = [
      ...listing,
      "Failures:",
      "",
      "  1) Stock#add when the sku exists is expected to eq 2",
      "     Failure/Error: it { expect(inv.total).to eq(2) }",
      "",
      "       expected: 2",
      "            got: 3",
      "     # ./spec/stock_spec.rb:22:in `block (4 levels) in <top (required)>'",
      "",
      "  2) Stock.load reads a file",
      "     Failure/Error: Stock.load('x')",
    ].join("\n");
    expect(
      found(log)
        .map((f) => f[0])
        .sort(),
    ).toEqual([
      "Stock ledger Ledger #sum sums",
      "Stock.load reads a file",
      "spec/stock_spec.rb > Stock#add when the sku exists is expected to eq 2",
    ]);
  });

  it("nothing from the marks when the re-run list names the failures, or the count line says none failed", () => {
    const log = [
      ...listing,
      "Finished in 0.2 seconds",
      "3 examples, 1 failure",
      "",
      "Failed examples:",
      "",
      "rspec ./spec/stock_spec.rb:22 # Stock#add when the sku exists is expected to eq 2",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual([
      "spec/stock_spec.rb > Stock#add when the sku exists is expected to eq 2",
    ]);
    const green = [...listing.filter((l) => !l.includes("FAILED")), "3 examples, 0 failures"].join("\n");
    expect(found(green)).toEqual([]);
  });
});
