/**
 * Shapes seen in pasted CI logs (issue 10, the hold7 dev cases): a traceback cut before its file, a runner's
 * per-file crash line, a failure named only by its result line, describe blocks nested in a report. Each
 * rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { prefixOf } from "../../../src/logs/prefix.ts";

const ids = (text: string) => parseLog(text).failures.map((f) => f.test);

describe("pytest: a failure block cut before its traceback names a file", () => {
  const block = [
    "=================================== FAILURES ===================================",
    "_________________________________ test_failing _________________________________",
    "",
    "    def test_failing():",
    ">       assert 1 == 0",
    "E       assert 1 == 0",
  ];
  it("takes the one test file the progress lines ran", () => {
    expect(
      ids(["collected 2 items", "", "tests/test_two.py .F     [100%]", "", ...block].join("\n")),
    ).toEqual(["tests/test_two.py::test_failing"]);
  });
  it("keeps the bare title when the progress lines ran two files", () => {
    const log = ["tests/test_one.py .    [ 50%]", "tests/test_two.py F    [100%]", "", ...block].join("\n");
    expect(ids(log)).toEqual(["test_failing"]);
  });
  it("reads no progress line into a failure on a green run", () => {
    const log = ["collected 2 items", "", "tests/test_two.py ..    [100%]", "", "2 passed in 0.01s"].join(
      "\n",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("jest: a ✕ line whose ● block the log never reaches", () => {
  const head = [
    " FAIL  src/a.test.js",
    "  A",
    '    ✕ takes "b" (24ms)',
    "    ✕ takes c (4ms)",
    "    ✓ takes d (9ms)",
    "",
    '  ● A › takes "b"',
    "",
    "    expect(received).toBe(expected)",
    "",
    "      at Object.<anonymous> (src/a.test.js:3:5)",
  ];
  it("is a failure of its own when the log ends before jest's Tests: line", () => {
    expect(ids(head.join("\n")).sort()).toEqual([
      'src/a.test.js > A > takes "b"',
      "src/a.test.js > A > takes c",
    ]);
  });
  it("is not added when the log goes on to jest's Tests: line", () => {
    const log = [...head, "", "Tests:       2 failed, 1 passed, 3 total"].join("\n");
    expect(ids(log)).toEqual(['src/a.test.js > A > takes "b"']);
  });
  it("reads a green listing as no failure", () => {
    const log = [" PASS  src/a.test.js", "  A", "    ✓ takes d (9ms)", "    ✓ takes e (1 ms)"].join("\n");
    expect(ids(log)).toEqual([]);
    expect(parseLog(log).tests.map((t) => t.id)).toEqual([
      "src/a.test.js > A > takes d",
      "src/a.test.js > A > takes e",
    ]);
  });
});

describe("bun: a paste that starts at a test file's line, without `bun test`'s header", () => {
  const body = [
    "index.spec.ts:",
    "13 | test('run()', async () => {",
    "14 |   expect(await run('x')).toBe(1);",
    "error: expect(received).toBe(expected)",
    "",
    "      at <anonymous> (/home/me/proj/index.spec.ts:14:43)",
    "✗ run() [7.16ms]",
    "✓ other() [0.10ms]",
  ];
  it("reads its results once bun's count lines confirm the run", () => {
    const r = parseLog(
      [...body, "", " 1 pass", " 1 fail", "Ran 2 tests across 1 files. [104.00ms]"].join("\n"),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["index.spec.ts > run()", "index.spec.ts", 14],
    ]);
  });
  it("takes nothing when no bun count line follows", () => {
    expect(ids(body.join("\n")).filter((t) => t?.includes("run()"))).toEqual([]);
  });
});

describe("cargo: `---- name stdout ----` blocks pasted from libtest's `failures:` heading", () => {
  it("are failures under the heading even when their panic is cut", () => {
    const log = [
      "failures:",
      "",
      "---- a::first stdout ----",
      "thread 'a::first' panicked at tests/a.rs:19:10:",
      "boom",
      "",
      "---- a::second stdout ----",
      "running `cargo build`",
    ].join("\n");
    expect(ids(log)).toEqual(["a::first", "a::second"]);
  });
  it("are not, without the heading and without a panic", () => {
    const log = ["Some notes:", "", "---- a::second stdout ----", "running `cargo build`"].join("\n");
    expect(ids(log)).toEqual([]);
  });
  it("nor after libtest's closing list of names", () => {
    const log = ["failures:", "    a::first", "", "---- a::second stdout ----", "running `cargo build`"].join(
      "\n",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("a Jenkins console pasted as a quote: `> 12:04:11 ` before each line", () => {
  it("knows the bare clock and the quote around a clock as prefixes", () => {
    expect(prefixOf("12:04:11 beam.ATest > t FAILED")).toEqual({ shape: "clock", length: 9 });
    expect(prefixOf("> 12:04:11 beam.ATest > t FAILED")).toEqual({ shape: "quote+clock", length: 11 });
    expect(prefixOf("> [12:04:11] x")).toEqual({ shape: "quote+clock", length: 13 });
    expect(prefixOf("12:04 x")).toBeNull();
    expect(prefixOf("123:04:11 x")).toBeNull();
  });
});

describe("gradle: a paste that opens inside a failure's stack", () => {
  const stack = [
    "        at org.junit.Assert.assertEquals(Assert.java:126)",
    "        at beam.plots.ATest.testWalk(ATest.java:95)",
    "",
  ];
  const header = [
    "beam.plots.ATest > testCar FAILED",
    "    java.lang.AssertionError: expected:<8> but was:<46>",
  ];
  it("takes the stack's last frame as a test when a FAILED header of its class follows", () => {
    const log = [...stack, ...header].map((l) => `> 12:04:11 ${l}`).join("\n");
    expect(ids(log)).toEqual(["beam.plots.ATest.testWalk", "beam.plots.ATest.testCar"]);
  });
  it("does not when the frame's class has no FAILED header", () => {
    const log = [...stack, "beam.plots.BTest > testCar FAILED", "    java.lang.AssertionError"].join("\n");
    expect(ids(log)).toEqual(["beam.plots.BTest.testCar"]);
  });
  it("does not from a stack alone", () => {
    expect(ids(stack.join("\n"))).toEqual([]);
  });
});

describe("playwright: the recap's failed list", () => {
  const recap = [
    "  3 failed",
    "    [Chromium] › e2e/a.spec.ts:7:11 › Outer › Inner › works ",
    "    [Webkit] › e2e/a.spec.ts:7:11 › Outer › Inner › works ",
  ];
  it("names its failures when pasted alone, one per test across projects", () => {
    expect(ids(recap.join("\n"))).toEqual(["e2e/a.spec.ts > Outer > Inner > works"]);
  });
  it("adds nothing a failure block already reported", () => {
    const log = [
      "Running 1 test using 1 worker",
      "  1) [Chromium] › e2e/a.spec.ts:7:11 › Outer › Inner › works ──────",
      "",
      "    Error: expect(received).toBe(expected)",
      "      at /w/e2e/a.spec.ts:8:5",
      "",
      "  1 failed",
      "    [Chromium] › e2e/a.spec.ts:7:11 › Outer › Inner › works ",
      "  2 passed",
    ].join("\n");
    expect(ids(log)).toEqual(["e2e/a.spec.ts > Outer > Inner > works"]);
  });
  it("is not read from a count line without the recap's entries", () => {
    expect(ids(["  3 failed", "    see the report", "  4 passed"].join("\n"))).toEqual([]);
  });
});

describe("surefire 2: a recap heading pasted alone, its entries below it", () => {
  it("reads the entries that name a test method and its fully qualified class", () => {
    const log = [
      "Results :",
      "",
      "Tests in error: ",
      "  testLate(org.acme.batch.ParserTests)",
      "",
      "Tests run: 13, Failures: 0, Errors: 1, Skipped: 1",
    ].join("\n");
    expect(ids(log)).toEqual(["org.acme.batch.ParserTests.testLate"]);
  });
  it("reads nothing when the next line is no such entry", () => {
    expect(ids(["Tests in error: ", "  none, see above"].join("\n"))).toEqual([]);
    expect(ids(["Failed tests:", "  testLate(ParserTests)"].join("\n"))).toEqual([]);
  });
});

describe("unittest: a test file run as a script, pasted in inline code", () => {
  const block = (open: string) =>
    [
      `${open}======================================================================`,
      "FAIL: test_empty (__main__.IndriTest)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/home/me/src/pyndri/tests/pyndri_tests.py", line 121, in setUp',
      "    self.assertEqual(ret, 0)",
      "AssertionError: -11 != 0",
      "",
    ].join("\n");
  it("reads the first rule with its backtick, and the place under the test directory", () => {
    const r = parseLog(block("`"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["__main__.IndriTest.test_empty", "tests/pyndri_tests.py", 121],
    ]);
  });
  it("keeps an absolute path that has no test directory", () => {
    const r = parseLog(block("").replace("/pyndri/tests/", "/pyndri/"));
    expect(r.failures.map((f) => f.file)).toEqual(["/home/me/src/pyndri/pyndri_tests.py"]);
  });
  it("reads no backtick-wrapped rule without a FAIL header as a failure", () => {
    expect(
      ids("`======================================================================`\nsome text"),
    ).toEqual([]);
  });
});

describe("AVA: a test file whose process exited badly", () => {
  it("is a failure of the file, with no test id", () => {
    const log = [
      "   1 passed",
      "   2 exceptions",
      "",
      "  ✖ test/js/app.js exited with a non-zero exit code: 1",
      "  ✘ [fail]: test/sw.mjs exited due to SIGKILL",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.test, f.file, f.errorType])).toEqual([
      [null, "test/js/app.js", "ExitCode"],
      [null, "test/sw.mjs", "SIGKILL"],
    ]);
  });
  it("is not read from a process line without AVA's mark, nor from a green run", () => {
    expect(ids("worker test/js/app.js exited with a non-zero exit code: 1")).toEqual([]);
    expect(ids(["  ✔ adds", "  ✔ subtracts", "", "  2 tests passed"].join("\n"))).toEqual([]);
  });
});

describe("a JavaScript stack from a laptop: the checkout is the directory of its node_modules", () => {
  const log = (second: string) =>
    [
      "  main",
      "    1) should fail",
      "",
      "  0 passing (1s)",
      "  1 failing",
      "",
      "  1) main",
      "       should fail:",
      "",
      "      AssertionError: expected false to equal true",
      "      at Context.<anonymous> (file:///Users/me/amber/test/integration/a.test.ts:20:12)",
      second,
    ].join("\n");
  it("takes the test's frame relative to it", () => {
    const r = parseLog(log("      at callFn (/Users/me/amber/node_modules/mocha/lib/runnable.js:387:21)"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["main > should fail", "test/integration/a.test.ts", 20],
    ]);
  });
  it("keeps the absolute path when no frame runs through a node_modules above it", () => {
    const r = parseLog(log("      at callFn (/opt/lib/node_modules/mocha/lib/runnable.js:387:21)"));
    expect(r.failures.map((f) => f.file)).toEqual(["/Users/me/amber/test/integration/a.test.ts"]);
  });
});

describe("pytest: a paste that opens at the last block's closing place line", () => {
  const summary = [
    "=========================== short test summary info ============================",
    "FAILED tests/test_a.py::test_one - AssertionError: assert 1",
    "FAILED tests/test_b.py::test_two - AssertionError: asse...",
    "========================= 2 failed, 3 passed in 1.31s ==========================",
  ];
  it("gives that place to the summary's last failure, in its file", () => {
    const r = parseLog(["tests/test_b.py:40: AssertionError", ...summary].join("\n"));
    expect(r.failures.map((f) => [f.test, f.line])).toEqual([
      ["tests/test_a.py::test_one", null],
      ["tests/test_b.py::test_two", 40],
    ]);
  });
  it("not when the place is in another file, or not right above the summary", () => {
    const other = parseLog(["tests/test_a.py:40: AssertionError", ...summary].join("\n"));
    expect(other.failures.map((f) => f.line)).toEqual([null, null]);
    const apart = parseLog(["tests/test_b.py:40: AssertionError", "some output", ...summary].join("\n"));
    expect(apart.failures.map((f) => f.line)).toEqual([null, null]);
  });
});
