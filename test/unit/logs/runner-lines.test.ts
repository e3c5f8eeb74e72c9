/**
 * Runner lines a paste keeps without the rest of the run: Surefire 2's `Failed tests:` recap without Maven's
 * `[INFO]`/`[ERROR]` prefixes, and xUnit.net's own `[xUnit.net 00:00:01.20]     Name [FAIL]` lines.
 * Each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { prefixOf } from "../../../src/logs/prefix.ts";

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

describe("turborepo's task column and a Playwright header pasted mid-line", () => {
  const run = (prefix: string) =>
    [
      "                                 2) [chromium] › email.spec.ts:28:1 › contact form ──────────────",
      `${prefix}`,
      `${prefix}    Error: expect(received).toBeTruthy()`,
      `${prefix}`,
      `${prefix}      33 |   // Check the toast`,
      `${prefix}    > 34 |   expect(await page.isVisible('li')).toBeTruthy();`,
      `${prefix}         |                                      ^`,
      "",
    ].join("\n");

  it("the column `@scope/pkg:task: ` is framing, and the padded header opens the block", () => {
    expect(found(run("@acme/e2e-tests:dev:test: ").replaceAll(": \n", ":\n"))).toEqual([
      ["email.spec.ts > contact form", "email.spec.ts", 34],
    ]);
    expect(found(run("web:test: "))).toEqual([["email.spec.ts > contact form", "email.spec.ts", 34]]);
  });

  it("reads the shape: an npm package name, its task and a colon", () => {
    expect(prefixOf("@acme/e2e-tests:dev:test:   1) x")).toEqual({
      shape: "turbo:@acme/e2e-tests:dev:test:",
      length: 26,
    });
    expect(prefixOf("web:test:")?.shape).toBe("turbo:web:test:");
    expect(prefixOf("INFO:root: started")).toBeNull();
    expect(prefixOf("https://example.com/a: moved")).toBeNull();
  });

  it("not a padded header without an error line, nor `name:word:` lines that differ", () => {
    const noError = run("web:test: ").replace(
      "Error: expect(received).toBeTruthy()",
      "waiting for the toast",
    );
    expect(found(noError)).toEqual([]);
    const generic = [
      "src/a.c:3:5: error: x undeclared",
      "src/a.c:4:1: error: y undeclared",
      "make: *** [all] Error 1",
      "",
    ];
    expect(found(generic.join("\n"))).toEqual(
      [
        ["src/a.c", 3],
        ["src/a.c", 4],
      ].map(([f, l]) => [null, f, l]),
    );
  });
});
