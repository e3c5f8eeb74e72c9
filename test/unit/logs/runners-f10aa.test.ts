/**
 * Runner shapes added on branch f10aa (misses of the hold30 and hold32 corpora, tainted: both already scored). Each
 * log is written here for a small kiln library of our own, in the runners' byte layout; each rule has a case where it
 * must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("RSpec's Failures: section pasted as a markdown task list (`- [ ]  1) Group example`)", () => {
  it("reads each boxed entry as RSpec's numbered block", () => {
    const log = [
      "Failures:",
      "",
      "- [ ]  1) Kiln heats to the set point",
      "     Failure/Error: expect(kiln.heat).to eq(3)",
      "       expected: 3",
      "            got: 2",
      "     # ./spec/kiln_spec.rb:12:in `block (2 levels) in <top (required)>'",
      "- [x]  2) Kiln cools down",
      "     Failure/Error: expect(kiln.cool).to eq(0)",
      "     # ./spec/kiln_spec.rb:30:in `block (2 levels) in <top (required)>'",
    ].join("\n");
    expect(found(log)).toEqual([
      ["spec/kiln_spec.rb > Kiln heats to the set point", "spec/kiln_spec.rb", 12],
      ["spec/kiln_spec.rb > Kiln cools down", "spec/kiln_spec.rb", 30],
    ]);
  });
  it("must not fire on a numbered task list outside a Failures: section", () => {
    const log = [
      "Release checklist:",
      "",
      "- [ ]  1) Kiln heats to the set point",
      "     bump the version",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("minitest 4: the name's line cut inside its [file:line] by a fixed width", () => {
  it("joins the next line to it, with no space", () => {
    const log = [
      "  1) Failure:",
      "test_heat(TestKiln) [/home/ci/kiln/test/controllers/test_ki",
      "ln_controller.rb:80]:",
      "Failed assertion, no message given.",
      "",
      "2 tests, 2 assertions, 1 failures, 0 errors, 0 skips",
    ].join("\n");
    expect(found(log)).toEqual([["TestKiln#test_heat", "test/controllers/test_kiln_controller.rb", 80]]);
  });
  it("must not fire when the next line does not close the bracket with :line]", () => {
    const log = [
      "  1) Failure:",
      "test_heat(TestKiln) [/home/ci/kiln/test/controllers/test_ki",
      "the dial went too far",
      "",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("Catch2's console blocks copied double-spaced (a blank line between every two lines)", () => {
  const dashes = "-".repeat(79);
  const block = (section: string, verdict: string) => [
    dashes,
    "",
    "kiln dial",
    "",
    "",
    `  ${section}`,
    "",
    dashes,
    "",
    "./tests/test_kiln.cpp:40",
    ".".repeat(79),
    "",
    "",
    "./tests/test_kiln.cpp:17: ",
    "",
    verdict,
    "",
    "",
    "  REQUIRE( dial.isValid() )",
    "",
    "with expansion:",
    "",
    "  false",
    "",
  ];
  it("reads the blocks, the place and its FAILED: split by the copy", () => {
    const log = [...block("turns left", "FAILED:"), ...block("turns right", "FAILED:")].join("\n");
    expect(found(log)).toEqual([
      ["kiln dial/turns left", "tests/test_kiln.cpp", 17],
      ["kiln dial/turns right", "tests/test_kiln.cpp", 17],
    ]);
  });
  it("must not fire on a passed assertion printed the same way (`-s`, PASSED:)", () => {
    expect(found(block("turns left", "PASSED:").join("\n"))).toEqual([]);
  });
});

describe("gocheck: a report whose 70-dash separator the paste cut", () => {
  it("reads the FAIL: line when its file is a Go test file", () => {
    const log = [
      "FAIL\tgithub.com/kiln/kiln/integration\t12.1s",
      "",
      "FAIL: dial_test.go:88: DialSuite.TestTurn ",
      "dial_test.go:96: ",
      "c.Assert(pos, checker.Equals, 5) ",
      "... obtained int = 4 ",
      "... expected int = 5 ",
    ].join("\n");
    expect(found(log)).toEqual([["DialSuite.TestTurn", null, null]]);
  });
  it("must not fire on the same shape naming a non-test file without the separator", () => {
    const log = ["FAIL: dial.go:88: Dial.Turn", "the dial stuck"].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("automake's test-suite.log rendered as markdown (its = rules made headings of the lines above)", () => {
  const rows = [
    "# TOTAL: 2",
    "# PASS:  1",
    "# SKIP:  0",
    "# XFAIL: 0",
    "# FAIL:  1",
    "# XPASS: 0",
    "# ERROR: 0",
  ];
  it("reads a section's `# FAIL: name` heading under the summary rows", () => {
    const log = [
      "# ",
      "#    kiln 1.0: tests/test-suite.log",
      ...rows,
      "",
      "# FAIL: tests/dial",
      "dial stuck",
    ].join("\n");
    expect(found(log)).toEqual([["tests/dial", null, null]]);
  });
  it("must not fire on such a heading without automake's summary rows", () => {
    expect(found(["# FAIL: tests/dial", "dial stuck"].join("\n"))).toEqual([]);
  });
});

describe("old mocha's one-line entry whose AssertionError has no frame (mocha printed its stack empty)", () => {
  it("reads the entry, its titles joined (no spec tree to split them)", () => {
    const log = ["1) kiln dial should turn to five:", "     AssertionError: [4,4] deepEqual [5,5]"].join(
      "\n",
    );
    expect(found(log)).toEqual([["kiln dial should turn to five", null, null]]);
  });
  it("must not fire on another error with no frame", () => {
    const log = ["1) kiln dial should turn to five:", "     Error: the dial is stuck"].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("TAP: a lone `not ok N` kept by a paste, with tape's YAML diagnostics under it", () => {
  it("reads the result when its block opens with `operator:`", () => {
    const log = [
      "  ...",
      "not ok 12 should be equal",
      "  ---",
      "    operator: equal",
      "    expected: 5",
      "    actual:   4",
    ].join("\n");
    expect(found(log)).toEqual([["should be equal", null, null]]);
  });
  it("must not fire on a lone `not ok` line without such a block (a test's own output)", () => {
    expect(found(["not ok 12 should be equal", "  the dial is stuck"].join("\n"))).toEqual([]);
  });
});

describe("GHC before 8: an error headed by its place alone, the message indented below (cabal indents it again)", () => {
  it("reads the place and the message", () => {
    const log = [
      "    [3 of 3] Compiling Main             ( Tests/Kiln.hs, dist/build/t/Main.o )",
      "    ",
      "    Tests/Kiln.hs:31:9:",
      "        Constructor ‘Dial’ should have 3 arguments, but has been given 2",
    ].join("\n");
    expect(found(log)).toEqual([[null, "Tests/Kiln.hs", 31]]);
  });
  it("must not fire on a warning head, nor on a place with nothing deeper under it", () => {
    const log = [
      "Tests/Kiln.hs:3:1: Warning:",
      "    The import of ‘Data.List’ is redundant",
      "Tests/Kiln.hs:31:9:",
      "done",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("sbt's scripted plugin tests: `[error] x group / name` under which scripted prints its cause", () => {
  it("reads the test as printed", () => {
    const log = [
      "[error] x kiln / heat ",
      "[error]  Cause of test exception: {line 18}  Command succeeded but failure was expected",
    ].join("\n");
    expect(found(log)).toEqual([["kiln / heat", null, null]]);
  });
  it("must not fire on an `x …` error line without scripted's cause line", () => {
    expect(found(["[error] x kiln / heat", "[error] something else"].join("\n"))).toEqual([]);
  });
});

describe("EUnit: `in function m:f/A (file.erl, line N)` over EUnit's `**error:` line", () => {
  it("reads the test, a compiler-named fun as the function it is in", () => {
    const log = [
      "in function kiln_tests:'-heat/1-fun-0-'/2 (test/kiln_tests.erl, line 12)",
      "**error:{assertEqual_failed,[{module,kiln_tests},",
      "                     {line,12},",
      "                     {expected,3},",
      "                     {value,2}]}",
    ].join("\n");
    expect(found(log)).toEqual([["kiln_tests:heat/1", "test/kiln_tests.erl", 12]]);
  });
  it("must not fire on an `in function` line without EUnit's exception under it (a crash report's frame)", () => {
    const log = [
      "in function kiln_tests:heat_test/0 (test/kiln_tests.erl, line 12)",
      "in call from x:y/1",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("Robot Framework's console: `| FAIL |` test lines under a suite heading between `=` rules", () => {
  const eq = "=".repeat(78);
  const pad = (name: string, status: string) => `${name.padEnd(70)}| ${status} |`;
  it("reads a failed test as suite.test, and not the suite's own status line", () => {
    const log = [
      eq,
      "Kiln :: Kiln tests",
      eq,
      "Kiln.Dial :: Dial behaviour",
      eq,
      pad("Turns Left", "PASS"),
      "-".repeat(78),
      pad("Turns Right", "FAIL"),
      "4 != 5",
      "-".repeat(78),
      pad("Kiln.Dial :: Dial behaviour", "FAIL"),
      "2 tests, 1 passed, 1 failed",
      eq,
    ].join("\n");
    expect(found(log)).toEqual([["Kiln.Dial.Turns Right", null, null]]);
  });
  it("must not fire on a `| FAIL |` line with no suite heading between rules above it", () => {
    expect(found([pad("Turns Right", "FAIL"), "4 != 5"].join("\n"))).toEqual([]);
  });
});
