/**
 * Runners the hold9 scoring found unread (issue 10, branch pl10c): CTest, Bazel, minitest, ExUnit, Karma, Pest,
 * Node's tools/test.py, and shapes of known runners (Playwright's list reporter pasted without its header, pytest's
 * short summary without its rule behind a Nix build prefix, RSpec's spec file from absolute frames, nose's docstring
 * headers). Each runner has a green or look-alike case where it must not report a failure. The logs are written
 * here in the runners' shapes, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (text: string) => parseLog(text).failures.map((f) => f.test);
const where = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("CTest", () => {
  it("reads `***Failed` result lines when the failed list was cut from the log", () => {
    const log = [
      "Test project /home/ci/pantry/build",
      "    Start 1: shelf_test",
      "1/5 Test #1: shelf_test .......................   Passed    0.01 sec",
      "    Start 2: jar_test",
      "2/5 Test #2: jar_test .........................***Failed    0.02 sec",
      "jar: expected 3 lids, got 2",
      "    Start 3: label_test",
      "3/5 Test #3: label_test .......................***Exception: SegFault  0.01 sec",
      "4/5 Test #4: lid_test .........................Subprocess aborted***Exception:   0.01 sec",
      "5/5 Test #5: box_test .........................***Skipped   0.00 sec",
    ].join("\n");
    expect(ids(log)).toEqual(["jar_test", "label_test", "lid_test"]);
  });
  it("reads the failed list with trailing blanks and counts each test once", () => {
    const log = [
      "2/2 Test #2: jar_test .........................***Failed    0.02 sec",
      "",
      "50% tests passed, 1 tests failed out of 2",
      "",
      "The following tests FAILED:  ",
      "\t  2 - jar_test (Failed)",
      "\t  5 - lid_test (Timeout)",
    ].join("\n");
    expect(ids(log)).toEqual(["jar_test", "lid_test"]);
  });
  it("names the GoogleTest test, not the CTest entry, when the entry's output holds it", () => {
    const log = [
      "1/1 Test #1: ring_test ........................***Failed    0.01 sec",
      "[==========] Running 1 test from 1 test suite.",
      "[ RUN      ] Ring.Wraps",
      "tests/ring_test.cc:9: Failure",
      "Expected equality of these values:",
      "[  FAILED  ] Ring.Wraps (0 ms)",
      "",
      "The following tests FAILED:",
      "\t  1 - ring_test (Failed)",
    ].join("\n");
    expect(ids(log)).toEqual(["Ring.Wraps"]);
  });
  it("reports nothing for a green run", () => {
    const log = [
      "1/2 Test #1: shelf_test .......................   Passed    0.01 sec",
      "2/2 Test #2: jar_test .........................   Passed    0.01 sec",
      "",
      "100% tests passed, 0 tests failed out of 2",
    ].join("\n");
    expect(parseLog(log).failures).toEqual([]);
  });
});

describe("Bazel", () => {
  it("reads the summary's FAILED and TIMEOUT targets once each, with the FAIL: progress line", () => {
    const log = [
      "FAIL: //pantry/jar:jar_test (see /home/ci/.cache/bazel/_bazel_ci/1f/execroot/_main/bazel-out/k8-fastbuild/testlogs/pantry/jar/jar_test/test.log)",
      "INFO: Build completed, 2 tests FAILED, 9 total actions",
      "//pantry/shelf:shelf_test                                       PASSED in 0.3s",
      "//pantry/label:label_test                              (cached) PASSED in 0.2s",
      "//pantry/jar:jar_test                                           FAILED in 2 out of 2 in 0.6s",
      "//pantry/lid:lid_test                                          TIMEOUT in 60.0s",
      "//pantry/box:box_test                                 FLAKY, failed in 1 out of 2 in 0.9s",
      "",
      "Executed 4 out of 5 tests: 3 tests pass and 2 fail locally.",
    ].join("\n");
    expect(ids(log)).toEqual(["//pantry/jar:jar_test", "//pantry/lid:lid_test"]);
    const box = parseLog(log).tests.find((t) => t.id === "//pantry/box:box_test");
    expect(box).toMatchObject({ outcome: "passed", flaky: true });
  });
  it("reports nothing for a green summary", () => {
    const log = [
      "//pantry/shelf:shelf_test                                       PASSED in 0.3s",
      "",
      "Executed 1 out of 1 test: 1 test passes.",
    ].join("\n");
    expect(parseLog(log).failures).toEqual([]);
  });
});

describe("minitest", () => {
  it("reads numbered Failure:/Error: blocks as Class#method, placed by the bracket or the first frame", () => {
    const log = [
      "Run options: --seed 1234",
      "",
      "# Running:",
      "",
      ".FE.",
      "",
      "Finished in 0.001s, 3000.0 runs/s, 2000.0 assertions/s.",
      "",
      "  1) Failure:",
      "JarTest#test_lids [/home/me/pantry/test/jar_test.rb:12]:",
      "Expected: 3",
      "  Actual: 2",
      "",
      "  2) Error:",
      "JarTest#test_open:",
      "NoMethodError: undefined method `twist' for nil",
      "    /home/me/pantry/test/jar_test.rb:20:in `test_open'",
      "",
      "4 runs, 3 assertions, 1 failures, 1 errors, 0 skips",
    ].join("\n");
    expect(where(log)).toEqual([
      ["JarTest#test_lids", "test/jar_test.rb", 12],
      ["JarTest#test_open", "test/jar_test.rb", 20],
    ]);
  });
  it("reads Rails' unnumbered blocks and a spec-style name", () => {
    const log = [
      "Failure:",
      "Shelf::label#test_0001_prints the name [test/models/shelf_test.rb:7]:",
      "Expected nil to be truthy.",
      "",
      "bin/rails test test/models/shelf_test.rb:6",
    ].join("\n");
    expect(where(log)).toEqual([["Shelf::label#test_0001_prints the name", "test/models/shelf_test.rb", 7]]);
  });
  it("reports nothing for a green count line, nor for a `Failure:` line of another tool", () => {
    expect(parseLog("12 runs, 30 assertions, 0 failures, 0 errors, 0 skips").failures).toEqual([]);
    expect(ids("Failure:\nthe disk is full, please retry\n")).toEqual([]);
  });
});

describe("ExUnit", () => {
  it("reads numbered `test … (Module)` blocks with their place", () => {
    const log = [
      "Running ExUnit with seed: 4242, max_cases: 4",
      "",
      "..",
      "",
      "  1) test weighs a full jar (PantryTest)",
      "     test/pantry_test.exs:8",
      "     Assertion with == failed",
      "     code:  assert Pantry.weigh(:jar) == 500",
      "     left:  450",
      "     right: 500",
      "     stacktrace:",
      "       test/pantry_test.exs:9: (test)",
      "",
      "  2) doctest Pantry.count/1 (1) (PantryTest)",
      "     ** (MatchError) no match of right hand side value: 3",
      "     stacktrace:",
      "       lib/pantry.ex:4: Pantry.count/1",
      "",
      "Finished in 0.04 seconds (0.00s async, 0.04s sync)",
      "1 doctest, 3 tests, 2 failures",
    ].join("\n");
    expect(where(log)).toEqual([
      ["test weighs a full jar (PantryTest)", "test/pantry_test.exs", 8],
      ["doctest Pantry.count/1 (1) (PantryTest)", "lib/pantry.ex", 4],
    ]);
  });
  it("does not read a mocha block whose title happens to look like ExUnit's", () => {
    const log = [
      "  1) test helpers (Jar)",
      "       opens:",
      "     AssertionError: expected 1 to equal 2",
      "      at Context.<anonymous> (test/jar.test.js:4:10)",
    ].join("\n");
    expect(parseLog(log).failures.every((f) => f.format !== "exunit")).toBe(true);
  });
});

describe("Karma", () => {
  it("reads a FAILED spec without its browser label, once however often it is redrawn", () => {
    const log = [
      "Chrome Headless 120.0.0.0 (Linux x86_64) Pantry jar counts lids FAILED",
      "\tExpected 2 to be 3.",
      "\t    at UserContext.<anonymous> (src/app/jar.spec.ts:14:22)",
      "Chrome Headless 120.0.0.0 (Linux x86_64): Executed 7 of 20 (1 FAILED) (0 secs / 0.1 secs)",
      "Chrome Headless 120.0.0.0 (Linux x86_64) Pantry jar counts lids FAILED",
      "\tExpected 2 to be 3.",
      "Chrome Headless 120.0.0.0 (Linux x86_64): Executed 20 of 20 (1 FAILED) (0.2 secs / 0.1 secs)",
    ].join("\n");
    expect(where(log)).toEqual([["Pantry jar counts lids", "src/app/jar.spec.ts", 14]]);
  });
  it("reports nothing for a green run", () => {
    const log = "Firefox 115.0 (Ubuntu 0.0.0): Executed 20 of 20 SUCCESS (0.3 secs / 0.2 secs)";
    expect(parseLog(log).failures).toEqual([]);
  });
});

describe("Pest", () => {
  it("reads `FAILED  Class > test` blocks and a tree's ⨯ test whose block was cut", () => {
    const log = [
      "   PASS  Tests\\Unit\\ShelfTest",
      "  ✓ it holds jars                                                    0.01s  ",
      "",
      "   FAIL  Tests\\Feature\\JarTest",
      "  ⨯ it counts lids                                                   0.02s  ",
      "  ⨯ it opens                                                         0.01s  ",
      "  ────────────────────────────────────────────────────────────────────────────",
      "   FAILED  Tests\\Feature\\JarTest > it counts lids                             ",
      "  Failed asserting that 2 is identical to 3.",
      "",
      "  at tests/Feature/JarTest.php:9",
      "      8▕ it('counts lids', function () {",
      "  ➜   9▕     expect(lids())->toBe(3);",
    ].join("\n");
    // In the log's order: the cut test's `⨯` line comes before the other's block.
    expect(where(log)).toEqual([
      ["Tests\\Feature\\JarTest > it opens", null, null],
      ["Tests\\Feature\\JarTest > it counts lids", "tests/Feature/JarTest.php", 9],
    ]);
  });
  it("reports nothing for a green tree", () => {
    const log = [
      "   PASS  Tests\\Unit\\ShelfTest",
      "  ✓ it holds jars                                                    0.01s  ",
      "",
      "  Tests:    1 passed (1 assertions)",
    ].join("\n");
    expect(parseLog(log).failures).toEqual([]);
  });
});

describe("Node's tools/test.py", () => {
  it("names each failed block by its Path:, placed by the first frame under test/", () => {
    const log = [
      "=== release test-fs-jar ===",
      "Path: parallel/test-fs-jar",
      "node:assert:124",
      "  throw new AssertionError(obj);",
      "AssertionError [ERR_ASSERTION]: 2 == 3",
      "    at Object.<anonymous> (/home/ci/node/test/parallel/test-fs-jar.js:7:8)",
      "    at node:internal/main/run_main_module:28:49",
      "Command: out/Release/node /home/ci/node/test/parallel/test-fs-jar.js",
      "=== release test-lid ===",
      "Path: sequential/test-lid",
      "Command: out/Release/node /home/ci/node/test/sequential/test-lid.js",
      "--- TIMEOUT ---",
      "[00:41|% 100|+ 310|-   2]: Done",
    ].join("\n");
    expect(where(log)).toEqual([
      ["parallel/test-fs-jar", "test/parallel/test-fs-jar.js", 7],
      ["sequential/test-lid", null, null],
    ]);
  });
  it("reports nothing for a green run", () => {
    expect(parseLog("[00:41|% 100|+ 312|-   0]: Done").failures).toEqual([]);
  });
});

describe("shapes of known runners", () => {
  it("Playwright: a list-reporter paste without `Running N tests` and its unruled failure header", () => {
    const log = [
      "  ✓  3 [firefox] › e2e/jar.spec.ts:4:3 › jar › opens (1.2s)",
      "  ✘  4 [firefox] › e2e/jar.spec.ts:9:3 › jar › counts lids (3.0s)",
      "",
      "  1) [firefox] › e2e/jar.spec.ts:9:3 › jar › counts lids ",
      "",
      "    Error: expect(received).toBe(expected) // Object.is equality",
      "",
      "    Expected: 3",
      "    Received: 2",
    ].join("\n");
    expect(ids(log)).toEqual(["e2e/jar.spec.ts > jar > counts lids"]);
  });
  it("pytest: short-summary lines behind a Nix build prefix, without the section rule", () => {
    const log = [
      "pantry> FAILED tests/test_jar.py::test_lids[3] - AssertionError: assert {'failed': 1} == {'failed': 0}",
      "pantry> FAILED tests/test_jar.py::test_open - KeyError: 'lid'",
      "pantry> ERROR tests/test_shelf.py::test_hold - fixture 'shelf' not found",
    ].join("\n");
    expect(ids(log)).toEqual([
      "tests/test_jar.py::test_lids[3]",
      "tests/test_jar.py::test_open",
      "tests/test_shelf.py::test_hold",
    ]);
  });
  it("pytest: a stray FAILED line without a node id is no test", () => {
    expect(ids("FAILED to connect to the cache, retrying")).toEqual([]);
  });
  it("RSpec: the spec file from an absolute frame under a repository directory called gems", () => {
    const log = [
      "Failures:",
      "",
      "  1) Jar counts lids",
      "     Failure/Error: expect(jar.lids).to eq(3)",
      "       expected: 3",
      "            got: 2",
      "     # /home/me/.rvm/gems/ruby-3.2.0/gems/rspec-expectations-3.12.0/lib/rspec/expectations/fail_with.rb:37:in `fail_with'",
      "     # /home/me/pantry/spec/gems/jar_spec.rb:5:in `block (2 levels) in <top (required)>'",
      "",
      "1 example, 1 failure",
    ].join("\n");
    expect(where(log)).toEqual([["spec/gems/jar_spec.rb > Jar counts lids", "spec/gems/jar_spec.rb", 5]]);
  });
  it("nose: a docstring header names no test, and its traceback is not reported as a failure of its own (a paste cut before `Ran`)", () => {
    const log = [
      "======================================================================",
      "FAIL: Check that the jar keeps its lid.",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/home/me/pantry/pantry/tests/test_jar.py", line 12, in test_lid',
      "    eq_(jar.lids, 3)",
      "AssertionError: 2 != 3",
      "",
      "======================================================================",
      "FAIL: test_open (pantry.tests.test_jar.JarTestCase)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/home/me/pantry/pantry/tests/test_jar.py", line 20, in test_open',
      "    eq_(jar.open, True)",
      "AssertionError: False != True",
    ].join("\n");
    expect(ids(log)).toEqual(["pantry.tests.test_jar.JarTestCase.test_open"]);
  });
});
