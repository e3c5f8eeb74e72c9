/**
 * GoogleTest's console output and its XML report, and CTest's failed-test list around them. Each rule has a case
 * where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("GoogleTest", () => {
  it("a failed test's assertion place, a parameterized name without its `where` part, an exception without place", () => {
    const log = [
      "[==========] Running 3 tests from 2 test suites.",
      "[ RUN      ] QueueTest.PopsInOrder",
      "/home/runner/work/q/q/tests/queue_test.cc:14: Failure",
      "Expected equality of these values:",
      "  q.pop()",
      "    Which is: 2",
      "  1",
      "[  FAILED  ] QueueTest.PopsInOrder (0 ms)",
      "[ RUN      ] Sizes/QueueParamTest.Holds/1",
      "D:\\a\\q\\q\\tests\\queue_test.cc(31): error: Value of: q.full()",
      "  Actual: false",
      "Expected: true",
      "[  FAILED  ] Sizes/QueueParamTest.Holds/1, where GetParam() = 8 (1 ms)",
      "[ RUN      ] QueueTest.Throws",
      "unknown file: Failure",
      'C++ exception with description "boom" thrown in the test body.',
      "[  FAILED  ] QueueTest.Throws (0 ms)",
      "[ DISABLED ] QueueTest.DISABLED_Later",
      "[  FAILED  ] 3 tests, listed below:",
      "[  FAILED  ] QueueTest.PopsInOrder",
      "[  FAILED  ] Sizes/QueueParamTest.Holds/1, where GetParam() = 8",
      "[  FAILED  ] QueueTest.Throws",
    ].join("\n");
    const parsed = parseLog(log);
    expect(found(log)).toEqual([
      ["QueueTest.PopsInOrder", "tests/queue_test.cc", 14],
      ["Sizes/QueueParamTest.Holds/1", "tests/queue_test.cc", 31],
      ["QueueTest.Throws", null, null],
    ]);
    expect(parsed.failures[2]!.message).toContain('C++ exception with description "boom"');
    expect(parsed.tests.find((t) => t.id === "QueueTest.DISABLED_Later")?.outcome).toBe("skipped");
  });

  it("a passing test that prints a `[  FAILED  ]` line, and a green summary, report nothing", () => {
    const log = [
      "[ RUN      ] GreenTest.Prints",
      "[  FAILED  ] this line is the test's output",
      "[  FAILED  ] Other.Name (3 ms)",
      "[       OK ] GreenTest.Prints (0 ms)",
      "[==========] 1 test from 1 test suite ran. (0 ms total)",
      "[  PASSED  ] 1 test.",
    ].join("\n");
    expect(found(log)).toEqual([]);
    expect(parseLog(log).tests.map((t) => [t.id, t.outcome])).toEqual([["GreenTest.Prints", "passed"]]);
  });

  it("GoogleTest's XML: `Suite.Test` from classname and name, the place from the message, a disabled test skipped", () => {
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites tests="2" failures="1" disabled="1" errors="0" name="AllTests">',
      '  <testsuite name="Sizes/QueueParamTest" tests="2" failures="1" disabled="1" errors="0">',
      '    <testcase name="Holds/1" value_param="8" file="/w/q/tests/queue_test.cc" line="29" status="run" result="completed" time="0." classname="Sizes/QueueParamTest">',
      '      <failure message="/w/q/tests/queue_test.cc:31&#x0A;Value of: q.full()" type=""><![CDATA[/w/q/tests/queue_test.cc:31',
      "Value of: q.full()]]></failure>",
      "    </testcase>",
      '    <testcase name="DISABLED_Later" file="/w/q/tests/queue_test.cc" line="40" status="notrun" result="suppressed" time="0" classname="Sizes/QueueParamTest" />',
      "  </testsuite>",
      "</testsuites>",
    ].join("\n");
    const parsed = parseLog(xml, { repoRoot: "/w/q" });
    expect(parsed.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["Sizes/QueueParamTest.Holds/1", "tests/queue_test.cc", 31],
    ]);
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["Sizes/QueueParamTest.Holds/1", "failed"],
      ["Sizes/QueueParamTest.DISABLED_Later", "skipped"],
    ]);
  });
});

describe("CTest", () => {
  const tail = [
    "50% tests passed, 2 tests failed out of 4",
    "",
    "Total Test time (real) =   0.07 sec",
    "",
    "The following tests FAILED:",
    "\t  1 - queue_test (Failed)",
    "\t  3 - legacy_check (SEGFAULT)",
    "Errors while running CTest",
  ];

  it("an executable CTest lists as failed is a failure unless its GoogleTest output named the failing tests", () => {
    const log = [
      "    Start 1: queue_test",
      "1/4 Test #1: queue_test .......................***Failed    0.04 sec",
      "[ RUN      ] QueueTest.PopsInOrder",
      "/src/tests/queue_test.cc:14: Failure",
      "[  FAILED  ] QueueTest.PopsInOrder (0 ms)",
      "    Start 3: legacy_check",
      "3/4 Test #3: legacy_check .....................***Exception: SegFault  0.01 sec",
      ...tail,
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["QueueTest.PopsInOrder", "legacy_check"]);
  });

  it("without the tests' output, the executables are the failures; a run where all passed reports none", () => {
    expect(found(tail.join("\n")).map((f) => f[0])).toEqual(["queue_test", "legacy_check"]);
    const green = ["100% tests passed, 0 tests failed out of 4", "", "Total Test time (real) =   0.07 sec"];
    expect(found(green.join("\n"))).toEqual([]);
  });
});

describe("bun test", () => {
  it("a `(fail)` test takes the error and frame printed before it; ids are file > describe > test", () => {
    const log = [
      "bun test v1.4.4 (38afee6c8)",
      "",
      "test/cart.test.ts:",
      "(pass) cart > lists [0.11ms]",
      " 9 |   test('adds tax', () => {",
      "10 |     expect(total(cart)).toBe(13);",
      "                               ^",
      "error: expect(received).toBe(expected)",
      "",
      "Expected: 13",
      "Received: 12",
      "",
      "      at <anonymous> (/home/runner/work/shop/shop/test/cart.test.ts:10:31)",
      "(fail) cart > adds tax [0.25ms]",
      "(skip) cart > later",
      "",
      " 1 pass",
      " 1 skip",
      " 1 fail",
      "Ran 3 tests across 1 files. [9.00ms]",
    ].join("\n");
    const parsed = parseLog(log);
    expect(found(log)).toEqual([["test/cart.test.ts > cart > adds tax", "test/cart.test.ts", 10]]);
    expect(parsed.failures[0]!.message).toContain("Received: 12");
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["test/cart.test.ts > cart > lists", "passed"],
      ["test/cart.test.ts > cart > adds tax", "failed"],
      ["test/cart.test.ts > cart > later", "skipped"],
    ]);
  });

  it("bun's JUnit report: the testsuites of file and describes give the id; another producer's nesting does not", () => {
    const report = (root: string) =>
      [
        `<testsuites name="${root}" tests="1" failures="1">`,
        '  <testsuite name="test/cart.test.ts" file="test/cart.test.ts" tests="1" failures="1">',
        '    <testsuite name="cart" file="test/cart.test.ts" line="3" tests="1" failures="1">',
        '      <testcase name="adds tax" classname="cart" file="test/cart.test.ts" line="9">',
        '        <failure type="AssertionError" message="expect(received).toBe(expected)">AssertionError: x',
        "      at test/cart.test.ts:10:31",
        "</failure>",
        "      </testcase>",
        "    </testsuite>",
        "  </testsuite>",
        "</testsuites>",
      ].join("\n");
    expect(found(report("bun test"))).toEqual([
      ["test/cart.test.ts > cart > adds tax", "test/cart.test.ts", 10],
    ]);
    expect(found(report("other")).map((f) => f[0])).toEqual(["cart.adds tax"]);
  });

  it("a test's own `(fail)` output line, and `(fail)` lines outside a bun run, are no failures", () => {
    const green = [
      "bun test v1.4.4 (38afee6c8)",
      "test/green.test.ts:",
      "(fail) this is console output, not a result",
      "(pass) logs a line [0.06ms]",
      " 1 pass",
      " 0 fail",
      "Ran 1 tests across 1 files. [5.00ms]",
    ].join("\n");
    expect(found(green)).toEqual([]);
    const stray = ["test/cart.test.ts:", "error: boom", "(fail) cart > adds tax [0.25ms]"].join("\n");
    expect(parseLog(stray).tests).toEqual([]);
  });
});

describe("jasmine", () => {
  const block = (n: number, name: string, line: number) => [
    `${n}) ${name}`,
    "  Message:",
    "    Expected 'a-b-1' to be 'a-b-2'.",
    "  Stack:",
    "        at <Jasmine>",
    `        at UserContext.<anonymous> (file:///home/runner/work/s/s/spec/unique.spec.mjs:${line}:49)`,
    "        at <Jasmine>",
    "",
  ];

  it("each Failures block is a spec named by its full name, placed by its stack", () => {
    const log = [
      "Started",
      ".F*",
      "",
      "Failures:",
      ...block(1, "uniqueSlug numbers the first duplicate 2", 9),
      "Pending:",
      "",
      "1) uniqueSlug later",
      "  Temporarily disabled with xit",
      "",
      "3 specs, 1 failure, 1 pending spec",
      "Finished in 0.029 seconds",
    ].join("\n");
    expect(found(log)).toEqual([["uniqueSlug numbers the first duplicate 2", "spec/unique.spec.mjs", 9]]);
    expect(parseLog(log).failures[0]!.message).toBe("Expected 'a-b-1' to be 'a-b-2'.");
  });

  it("a block a spec printed is dropped by the count line; a cut log keeps only blocks with Message and Stack", () => {
    const printed = ["Started", "Failures:", "1) not a spec", "  Message:", "    Expected 1 to be 2.", ""];
    expect(found([...printed, ".", "1 spec, 0 failures", "Finished in 0.01 seconds"].join("\n"))).toEqual([]);
    const withReal = [...printed, ".F", "", "Failures:", ...block(1, "real spec", 5), "2 specs, 1 failure"];
    expect(found(withReal.join("\n")).map((f) => f[0])).toEqual(["real spec"]);
    const cut = [...printed, ".F", "", "Failures:", ...block(1, "real spec", 5)];
    expect(found(cut.join("\n")).map((f) => f[0])).toEqual(["real spec"]);
  });
});

describe("Catch2", () => {
  const D = "-".repeat(79);
  const block = (names: string[], place: string, failed: string[]) => [
    D,
    ...names,
    D,
    place,
    ".".repeat(79),
    "",
    ...failed,
    "",
  ];

  it("a test case block with a FAILED: assertion is a failure named test case/section, placed at the assertion", () => {
    const log = [
      "stack_tests is a Catch v2.13.10 host application.",
      "Run with -? for options",
      "",
      ...block(["stack limits", "  rejects a third push"], "tests/stack_test.cpp:18", [
        "tests/stack_test.cpp:19: FAILED:",
        "  REQUIRE_THROWS_AS( s.push(3), std::overflow_error )",
        "because no exception was thrown where one was expected:",
      ]),
      ...block(["parse"], "C:\\src\\tests\\parse_test.cpp(4)", [
        "C:\\src\\tests\\parse_test.cpp(9): FAILED:",
        "due to unexpected exception with message:",
        "  bad input",
      ]),
      "=".repeat(79),
      "test cases: 3 | 1 passed | 2 failed",
      "assertions: 5 | 3 passed | 2 failed",
    ].join("\n");
    const parsed = parseLog(log);
    expect(found(log)).toEqual([
      ["stack limits/rejects a third push", "tests/stack_test.cpp", 19],
      ["parse", "C:/src/tests/parse_test.cpp", 9],
    ]);
    expect(parsed.failures[1]!.errorType).toBe("exception");
  });

  it("a block without a FAILED: line (a test case's own `-s` output, a warning) and a green run report nothing", () => {
    const log = [
      ...block(["stack keeps order"], "tests/stack_test.cpp:5", [
        "tests/stack_test.cpp:9: PASSED:",
        "  REQUIRE( 2 == 2 )",
      ]),
      "=".repeat(79),
      "All tests passed (5 assertions in 3 test cases)",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});
