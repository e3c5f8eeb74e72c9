/**
 * Runner lines a paste keeps without the rest of the run: Surefire 2's `Failed tests:` recap without Maven's
 * `[INFO]`/`[ERROR]` prefixes, and xUnit.net's own `[xUnit.net 00:00:01.20]     Name [FAIL]` lines.
 * Each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("Surefire 2 recap without Maven's prefixes", () => {
  it("the heading's own entry names the failing test by its qualified class", () => {
    const log = [
      "Results :",
      "",
      "Failed tests:   totalAddsTax(com.shop.CartTest): expected:<13> but was:<12>",
      "  emptyCart(com.shop.CartTest): expected:<0> but was:<1>",
      "",
      "Tests run: 40, Failures: 2, Errors: 0, Skipped: 0",
      "",
      "[INFO] BUILD FAILURE",
      "",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual([
      "com.shop.CartTest.totalAddsTax",
      "com.shop.CartTest.emptyCart",
    ]);
  });

  it("not prose that says `Failed tests:`, nor an entry without a qualified class", () => {
    expect(found(["Failed tests: see the report above", "Tests run: 3", ""].join("\n"))).toEqual([]);
    expect(found(["Failed tests:   totalAddsTax(CartTest): expected:<13>", ""].join("\n"))).toEqual([]);
  });
});

describe("xUnit.net runner lines", () => {
  const x = (body: string) => `[xUnit.net 00:05:23.48] ${body}`;

  it("a `[FAIL]` line with its message and frames is a failing test, theory arguments kept", () => {
    const log = [
      x("  Starting:    Shop.Tests"),
      x('    Shop.Tests.CartTests.AddsTax(rate: "0.2") [FAIL]'),
      x("      Expected value to be 2, but found 134."),
      x("      Stack Trace:"),
      x("           at FluentAssertions.Execution.LateBoundTestFramework.Throw(String message)"),
      x(
        "        /home/me/shop/test/Shop.Tests/CartTests.cs(21,0): at Shop.Tests.CartTests.AddsTax(String rate)",
      ),
      x("  Finished:    Shop.Tests"),
      "",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.line, f.message])).toEqual([
      ['Shop.Tests.CartTests.AddsTax(rate: "0.2")', 21, "Expected value to be 2, but found 134."],
    ]);
    expect(r.failures[0]!.file).toMatch(/test\/Shop\.Tests\/CartTests\.cs$/);
  });

  it("the same failure in xUnit's and VSTest's lines is one failure", () => {
    const log = [
      x("    Shop.Tests.CartTests.AddsTax [FAIL]"),
      x("      Assert.Equal() Failure"),
      "  Failed Shop.Tests.CartTests.AddsTax [12 ms]",
      "  Error Message:",
      "   Assert.Equal() Failure",
      "",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["Shop.Tests.CartTests.AddsTax"]);
  });

  it("nothing from xUnit lines of passing and skipped tests", () => {
    const log = [
      x("  Starting:    Shop.Tests"),
      x("    Shop.Tests.CartTests.Slow [SKIP]"),
      x("      waiting for a fix"),
      x("  Finished:    Shop.Tests"),
      "",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});
