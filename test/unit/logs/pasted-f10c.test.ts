/**
 * Log shapes from issue 10's remaining classes (branch f10c), each read by a general rule, each with a case where
 * the rule must not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const lines = (...l: string[]) => l.join("\n");

describe("go test under a run-per-package tool's `testing: <pkg>` header", () => {
  const run = (pkg: string) => [
    "      command: go test -buildmode pie -compiler gc",
    `      testing: ${pkg}`,
    pkg,
    "",
    "--- FAIL: TestPourHalf (0.01s)",
    "    pour_test.go:41: got 3, want 2",
    "FAIL",
  ];
  it("takes the package from the header when go's own package line was cut", () => {
    const r = parseLog(lines(...run("example.org/kettle/pour")));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["example.org/kettle/pour.TestPourHalf", "pour_test.go", 41],
    ]);
  });
  it("gives each package's failures their own header", () => {
    const log = lines(...run("example.org/kettle/pour"), ...run("example.org/kettle/lid"));
    expect(ids(log)).toEqual(["example.org/kettle/pour.TestPourHalf", "example.org/kettle/lid.TestPourHalf"]);
  });
  it("lets go's own package line win over the header", () => {
    const log = lines(...run("example.org/kettle/pour"), "FAIL\texample.org/kettle/spout\t0.02s");
    expect(ids(log)).toEqual(["example.org/kettle/spout.TestPourHalf"]);
  });
  it("does not take a header that names no import path (`testing: all`)", () => {
    const log = lines("testing: all", "--- FAIL: TestPourHalf (0.01s)", "    pour_test.go:41: got 3", "FAIL");
    expect(ids(log)).toEqual(["TestPourHalf"]);
  });
});

describe("go test: event lines a bot joined into one line", () => {
  it("reads `=== RUN X --- FAIL: X (0.00s) output` as the run, the verdict and its output", () => {
    const r = parseLog("=== RUN   TestLid --- FAIL: TestLid (0.00s) lid stuck");
    expect(r.failures.map((f) => f.test)).toEqual(["TestLid"]);
  });
  it("reads several joined tests, failing only the failed one", () => {
    const log = "=== RUN   TestA --- PASS: TestA (0.00s) === RUN   TestB --- FAIL: TestB (0.01s) b broke";
    expect(ids(log)).toEqual(["TestB"]);
  });
  it("does not split a joined line that only passed", () => {
    expect(ids("=== RUN   TestA --- PASS: TestA (0.00s)")).toEqual([]);
  });
  it("does not split a test's own output that quotes a verdict", () => {
    const log = lines(
      "=== RUN   TestQuote",
      "    quote_test.go:9: printed: --- FAIL: TestOther (0.00s)",
      "--- PASS: TestQuote (0.00s)",
      "PASS",
      "ok  \texample.org/q\t0.01s",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("Playwright: a describe or test title that holds ` › ` itself", () => {
  const list = (frame: string) =>
    lines(
      "Running 2 tests using 1 worker",
      "",
      "  ✘  1 spec/a.spec.ts:6:3 › units › volume › cup in ml (20ms)",
      "  ✓  2 spec/a.spec.ts:9:3 › units › volume › litre in ml (20ms)",
      "",
      "  1) spec/a.spec.ts:6:3 › units › volume › cup in ml ──────────────────────",
      "",
      "    Error: expect(received).toBe(expected) // Object.is equality",
      "",
      "    Expected: 236",
      "    Received: 237",
      "",
      frame,
      '       6 |   test("cup in ml", () => {',
      '    >  7 |     expect(toMl(1, "cup")).toBe(236);',
      "         |                            ^",
      "        at /home/runner/work/p/p/spec/a.spec.ts:7:28",
      "",
      "  1 failed",
      "    spec/a.spec.ts:6:3 › units › volume › cup in ml ───────────────────────",
      "  1 passed (1.2s)",
    );
  it("keeps the title whole when the code frame shows it as one string literal", () => {
    const r = parseLog(list('       5 | test.describe("units › volume", () => {'));
    expect(r.failures.map((f) => f.test)).toEqual(["spec/a.spec.ts > units › volume > cup in ml"]);
    expect(r.tests.find((t) => t.id.includes("litre"))?.id).toBe(
      "spec/a.spec.ts > units › volume > litre in ml",
    );
  });
  it("splits as before when the frame shows two nested describes", () => {
    const r = parseLog(list('       5 |   test.describe("volume", () => {'));
    expect(r.failures.map((f) => f.test)).toEqual(["spec/a.spec.ts > units > volume > cup in ml"]);
  });
  it("keeps it whole in Playwright's JUnit report too", () => {
    const xml = lines(
      '<testsuites><testsuite name="a.spec.ts" tests="1" failures="1">',
      '<testcase name="units › volume › cup in ml" classname="a.spec.ts" time="0.02">',
      '<failure message="boom" type="expect.toBe"><![CDATA[  a.spec.ts:6:3 › units › volume › cup in ml ────',
      "    Error: expect(received).toBe(expected)",
      '       5 | test.describe("units › volume", () => {',
      '    >  7 |     expect(toMl(1, "cup")).toBe(236);',
      "        at /home/runner/work/p/p/spec/a.spec.ts:7:28",
      "]]></failure>",
      "</testcase>",
      "</testsuite></testsuites>",
    );
    expect(ids(xml)).toEqual(["spec/a.spec.ts > units › volume > cup in ml"]);
  });
});

describe("jest: a test file printed as a machine's absolute Windows path", () => {
  const log = (header: string) =>
    lines(
      ` FAIL  ${header}`,
      "  ● Cart › adds tax",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "",
      "    > 5 |   expect(tax(1)).toBe(3);",
      "",
      "Test Suites: 1 failed, 1 total",
      "Tests:       1 failed, 1 total",
    );
  it("takes the path from the topmost source or test directory", () => {
    expect(ids(log("C:\\Users\\me\\shop\\src\\cart\\cart.test.js"))).toEqual([
      "src/cart/cart.test.js > Cart > adds tax",
    ]);
    expect(ids(log("E:/work/shop/__tests__/cart.test.js"))).toEqual([
      "__tests__/cart.test.js > Cart > adds tax",
    ]);
  });
  it("strips GitHub's Windows checkout written with forward slashes", () => {
    expect(ids(log("D:/a/shop/shop/web/cart.test.js"))).toEqual(["web/cart.test.js > Cart > adds tax"]);
  });
  it("takes the file's name when no such directory is in the path", () => {
    expect(ids(log("C:\\Users\\me\\shop\\cart.test.js"))).toEqual(["cart.test.js > Cart > adds tax"]);
  });
  it("leaves a relative path as printed", () => {
    expect(ids(log("shop/lib/cart.test.js"))).toEqual(["shop/lib/cart.test.js > Cart > adds tax"]);
  });
});

describe("Nix's make-based test harness inside a Nix build log", () => {
  it("reads `running test tests/x.sh... [FAIL]` and its indented trace, under nix's `pkg> ` framing", () => {
    const r = parseLog(
      lines(
        "nix-2.3> running test tests/gc.sh... [PASS]",
        "nix-2.3> running test tests/remote.sh... [FAIL]",
        "nix-2.3>     + clearStore",
        "nix-2.3>     error: cannot connect to 'ssh://localhost'",
        "nix-2.3> make: *** [mk/tests.mk:12: installcheck] Error 1",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.message])).toEqual([
      ["tests/remote.sh", "tests/remote.sh", "error: cannot connect to 'ssh://localhost'"],
    ]);
  });
  it("reports nothing when every script passed or was skipped", () => {
    expect(
      ids(
        lines(
          "running test tests/gc.sh... [PASS]",
          "running test tests/ssh.sh... [SKIP]",
          "all tests passed",
        ),
      ),
    ).toEqual([]);
  });
  it("does not read a line that names no script", () => {
    expect(ids(lines("running test suite... [FAIL]"))).not.toContain("suite");
  });
});

describe("jest: `Test suite failed to run` pasted without its FAIL header and bullet", () => {
  const suite = (head: string, counts: string) =>
    lines(
      head,
      "",
      "    D:/dev/kettle/__tests__/Pour.test.js: Unexpected token (4:20)",
      "         3 | it('pours', () => {",
      "      >  4 |   const r = render(<Pour />);",
      "           |                    ^",
      "",
      counts,
      "Tests:       0 total",
    );
  it("reads it, its file from Babel's first line, when jest's count confirms a failed suite", () => {
    const r = parseLog(suite("`Test suite failed to run`", "Test Suites: 1 failed, 1 total"));
    expect(r.failures.map((f) => [f.test, f.file, f.line, f.category])).toEqual([
      [null, "__tests__/Pour.test.js", 4, "syntax"],
    ]);
  });
  it("reads it with the bullet kept too", () => {
    const r = parseLog(suite("  ● Test suite failed to run", "Test Suites: 1 failed, 1 total"));
    expect(r.failures.map((f) => f.file)).toEqual(["__tests__/Pour.test.js"]);
  });
  it("reports nothing when no jest count says a suite failed", () => {
    expect(parseLog(suite("`Test suite failed to run`", "Test Suites: 1 passed, 1 total")).failures).toEqual(
      [],
    );
    expect(parseLog(suite("`Test suite failed to run`", "")).failures).toEqual([]);
  });
});

describe("TKG's target summary (OpenJDK test kit)", () => {
  const summary = (failed: string, total: string) =>
    lines(
      "TEST TARGETS SUMMARY",
      "PASSED test targets:",
      "\tjdk_math_0",
      "FAILED test targets:",
      failed,
      "",
      total,
    );
  it("reads the failed targets when TKG's count line counts failures", () => {
    const r = parseLog(
      summary("\tjdk_net_0", "TOTAL: 12   EXECUTED: 2   PASSED: 1   FAILED: 1   DISABLED: 0   SKIPPED: 10"),
    );
    expect(r.failures.map((f) => f.test)).toEqual(["jdk_net_0"]);
  });
  it("reads it under Jenkins timestamper's clock", () => {
    const log = summary("\tjdk_net_0", "TOTAL: 2   EXECUTED: 2   PASSED: 1   FAILED: 1   SKIPPED: 0")
      .split("\n")
      .map((l) => `06:39:56  ${l}`)
      .join("\n");
    expect(ids(log)).toEqual(["jdk_net_0"]);
  });
  it("reads nothing without the count line, or when it counts no failure", () => {
    expect(ids(summary("\tjdk_net_0", "make: *** [Makefile:9: _sanity] Error 2"))).toEqual([]);
    expect(ids(summary("", "TOTAL: 2   EXECUTED: 2   PASSED: 2   FAILED: 0   SKIPPED: 0"))).toEqual([]);
  });
});

describe("a bot's list of Jenkins test-report links", () => {
  const entry = (href: string, text: string) =>
    lines(
      "Those are the test failures: ",
      "<details>",
      `<summary><a href="https://ci.example.org/job/kettle/12/testReport/${href}">${text}</a></summary>`,
      "org.opentest4j.AssertionFailedError: expected: &lt;2&gt; but was: &lt;3&gt;<br/>\tat org.acme.kettle.PourTest.pours(PourTest.java:30)<br/>",
      "</details>",
    );
  it("reads a link whose text agrees with its report path as the test's JUnit id", () => {
    const r = parseLog(
      entry("org.acme.kettle/PourTest/pours_int__2_/", "org.acme.kettle.PourTest.pours(int)[2]"),
    );
    expect(r.failures.map((f) => [f.test, f.message])).toEqual([
      ["org.acme.kettle.PourTest.pours(int)[2]", "expected: <2> but was: <3>"],
    ]);
    expect(ids(entry("(root)/PourTest/pours/", "PourTest.pours"))).toEqual(["PourTest.pours"]);
  });
  it("does not read a link whose text names another class than its path", () => {
    expect(ids(entry("org.acme.kettle/PourTest/pours/", "see the report"))).toEqual([]);
    expect(ids(entry("org.acme.kettle/LidTest/opens/", "org.acme.kettle.PourTest.pours"))).toEqual([]);
  });
});
