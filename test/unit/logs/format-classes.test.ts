/**
 * Classes of input read from the test split's misses once it was tainted (issue 10, branch pl10): each rule reads
 * a whole format or framing, and each has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (text: string) => parseLog(text).failures.map((f) => f.test);
const where = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("go: a build block's errors are one failure per file that does not compile", () => {
  it("joins a file's several type errors into one failure placed at the first", () => {
    const log = [
      "# example.com/pantry/shelf [example.com/pantry/shelf.test]",
      'shelf/label_test.go:6:14: cannot use "three" (untyped string constant) as int value in variable declaration',
      "shelf/shelf_test.go:8:9: invalid argument: s (variable of type *Shelf) for len",
      "shelf/shelf_test.go:11:6: invalid operation: cannot index s (variable of type *Shelf)",
      "FAIL\texample.com/pantry/shelf [build failed]",
    ].join("\n");
    expect(where(log)).toEqual([
      [null, "shelf/label_test.go", 6],
      [null, "shelf/shelf_test.go", 8],
    ]);
    expect(parseLog(log).failures[1]!.message).toContain("11: invalid operation");
  });
  it("keeps two packages' errors in the same file name apart", () => {
    const log = [
      "# example.com/a",
      "a/x.go:3:1: undefined: y",
      "# example.com/b",
      "b/x.go:4:1: undefined: z",
    ].join("\n");
    expect(where(log)).toEqual([
      [null, "a/x.go", 3],
      [null, "b/x.go", 4],
    ]);
  });
});

describe("surefire: the trimmed recap entry `Class.test:line->helper:line message`", () => {
  it("reads the entries of a recap pasted with Maven's levels", () => {
    const log = [
      "[INFO] Results:",
      "[INFO] ",
      "[ERROR] Failures: ",
      "[ERROR]   JarTest.takeNothing:23->checkLeft:9 grams left in honey expected:<50> but was:<49>",
      "[ERROR]   JarTest.takeSome:16->checkLeft:9 grams left in jam expected:<200> but was:<199>",
      "[INFO] ",
      "[ERROR] Tests run: 4, Failures: 2, Errors: 0, Skipped: 0",
    ].join("\n");
    expect(where(log)).toEqual([
      ["JarTest.takeNothing", "src/test/java/JarTest.java", 23],
      ["JarTest.takeSome", "src/test/java/JarTest.java", 16],
    ]);
  });
  it("opens a recap pasted without Maven's prefixes on such an entry", () => {
    const log = [
      "Failed tests: ",
      "  HttpConnectionTest.testKeepAlive:57->testConnect:83 expected [200] but found [500]",
      "  HttpBatchTest.batchUpdate:65->batchWithEmpty:83 expected [200] but found [500]",
      "",
      "Tests run: 51, Failures: 2, Errors: 0, Skipped: 0",
    ].join("\n");
    expect(ids(log)).toEqual(["HttpConnectionTest.testKeepAlive", "HttpBatchTest.batchUpdate"]);
  });
  it("does not open on a heading followed by prose", () => {
    const log = ["Failed tests: ", "  none of them, the build broke first: see above", ""].join("\n");
    expect(ids(log)).toEqual([]);
  });
});

describe("phpunit: numbered entries pasted without banner or heading", () => {
  const entry = (n: number, cls: string, line: number) => [
    `${n}) Pantry\\Tests\\${cls}::testPut`,
    `Error: Call to undefined method Pantry\\Tests\\${cls}::assertLabelled()`,
    "",
    "/home/me/pantry/tests/ShelfCase.php:11",
    `/home/me/pantry/tests/${cls}.php:${line}`,
    "",
  ];
  it("reads an entry once its block reaches a PHP frame, paths under the checkout above `tests/`", () => {
    const log = [
      "/home/me/pantry/tests/ShelfCase.php:11",
      "",
      ...entry(2, "ShelfTest", 14),
      ...entry(3, "LabelTest", 9),
    ];
    expect(where(log.join("\n"))).toEqual([
      ["Pantry\\Tests\\ShelfTest::testPut", "tests/ShelfCase.php", 11],
      ["Pantry\\Tests\\LabelTest::testPut", "tests/ShelfCase.php", 11],
    ]);
  });
  it("takes the test class's own file from its topmost tests directory even when the namespace does not reach it (f10w)", () => {
    const log = [
      "1) Acme\\Deep\\FooTest::testX",
      "Failed asserting that false is true.",
      "",
      "/x/tests/Deep/FooTest.php:7",
    ];
    expect(where(log.join("\n"))).toEqual([["Acme\\Deep\\FooTest::testX", "tests/Deep/FooTest.php", 7]]);
  });
  it("keeps an absolute path as printed when no tests directory holds the class's file", () => {
    const log = [
      "1) Acme\\Deep\\FooTest::testX",
      "Failed asserting that false is true.",
      "",
      "/x/lib/Deep/FooTest.php:7",
    ];
    expect(where(log.join("\n"))).toEqual([["Acme\\Deep\\FooTest::testX", "/x/lib/Deep/FooTest.php", 7]]);
  });
  it("reads nothing from a numbered list without frames", () => {
    const log = [
      "1) App\\Http\\Kernel::handle",
      "is where the request enters;",
      "2) App\\Http\\Kernel::terminate",
      "ends it.",
    ];
    expect(ids(log.join("\n"))).toEqual([]);
  });
});

describe("nose: dotted ids without unittest's parentheses", () => {
  const rule = "=".repeat(70);
  const dash = "-".repeat(70);
  it("reads functions, plain-class methods and generator calls in -v lines and FAIL: headers", () => {
    const log = [
      "tests.test_pantry.TestShelf.test_first ... FAIL",
      "tests.test_pantry.test_scale(3, 0.5, 2) ... FAIL",
      "tests.test_pantry.test_jars ... ok",
      "",
      rule,
      "FAIL: tests.test_pantry.TestShelf.test_first",
      dash,
      "Traceback (most recent call last):",
      '  File "/home/me/pantry/tests/test_pantry.py", line 32, in test_first',
      "    assert_equal(a, b)",
      "AssertionError: 'b' != 'a'",
      "",
      rule,
      "FAIL: tests.test_pantry.test_scale(3, 0.5, 2)",
      dash,
      "Traceback (most recent call last):",
      '  File "/home/me/pantry/tests/test_pantry.py", line 24, in check_scale',
      "    assert_equal(x, want)",
      "AssertionError: 1 != 2",
      "",
      dash,
      "Ran 3 tests in 0.031s",
      "",
      "FAILED (failures=2)",
    ].join("\n");
    expect(where(log)).toEqual([
      ["tests.test_pantry.TestShelf.test_first", "tests/test_pantry.py", 32],
      ["tests.test_pantry.test_scale(3, 0.5, 2)", "tests/test_pantry.py", 24],
    ]);
  });
  it("takes no header without its rule, and no dotted progress line that names no test", () => {
    const log = [
      "FAIL: tests.test_pantry.test_jars",
      "pkg.build.compile ... FAIL",
      "Traceback (most recent call last):",
      '  File "tools/x.py", line 3, in main',
      "ValueError: boom",
    ].join("\n");
    expect(parseLog(log).failures.filter((f) => f.format === "unittest")).toEqual([]);
    expect(parseLog(log).tests.filter((t) => t.format === "unittest")).toEqual([]);
  });
});

describe("rspec: the command line above a documentation-format run cut before Failures:", () => {
  const run = (command: string) =>
    [
      command,
      "",
      "",
      "  pending (FAILED - 1)",
      "  keeps cents (FAILED - 2)",
      "  description (PENDING: later)",
      "",
    ].join("\n");
  it("is no group, and the one spec file it names is the examples' file", () => {
    expect(ids(run("$ bundle exec rspec test.rb --format documentation"))).toEqual([
      "test.rb > pending",
      "test.rb > keeps cents",
    ]);
  });
  it("names no file when it runs two spec files", () => {
    expect(ids(run("$ rspec spec/a_spec.rb spec/b_spec.rb -fd"))).toEqual(["pending", "keeps cents"]);
  });
});

describe("gotestsum: testname result lines and the === Failed summary", () => {
  it("reads each failed test once, under its package as printed, and no parent failed only through a subtest", () => {
    const log = [
      "PASS internal/scale.TestGrams/double (0.00s)",
      "=== RUN   TestGrams/half_odd",
      "    scale_test.go:17: Grams(3, 0.5) = 1, want 2",
      "    --- FAIL: TestGrams/half_odd (0.00s)",
      "FAIL internal/scale.TestGrams/half_odd (0.00s)",
      "--- FAIL: TestGrams (0.00s)",
      "FAIL internal/scale.TestGrams (0.00s)",
      "FAIL internal/scale",
      "",
      "=== Failed",
      "=== FAIL: internal/scale TestGrams/half_odd (0.00s)",
      "    scale_test.go:17: Grams(3, 0.5) = 1, want 2",
      "    --- FAIL: TestGrams/half_odd (0.00s)",
      "",
      "=== FAIL: internal/scale TestGrams (0.00s)",
      "",
      "=== FAIL: internal/scale TestGrams/half_odd (re-run 1) (0.00s)",
      "    scale_test.go:17: Grams(3, 0.5) = 1, want 2",
      "",
      "DONE 2 runs, 4 tests, 3 failures in 1.793s",
    ].join("\n");
    expect(where(log)).toEqual([["internal/scale.TestGrams/half_odd", "internal/scale/scale_test.go", 17]]);
  });
  it("takes the file from a path the output gives in full (testify's Error Trace)", () => {
    const log = [
      "=== Failed",
      "=== FAIL: admission2 TestQueue (1.05s)",
      "    queue_test.go:400: ",
      "        \tError Trace:\t/home/runner/work/otel/otel/internal/arrow/admission2/queue_test.go:400",
      "        \tError:      \tNot equal: ",
    ].join("\n");
    expect(where(log)).toEqual([["admission2.TestQueue", "internal/arrow/admission2/queue_test.go", 400]]);
  });
  it("leaves jest's file headers to files: `FAIL shelf` is no jest suite", () => {
    const log = ["FAIL shelf", "    shelf_test.go:7: boom", "", "Tests: 1 failed, 1 total"].join("\n");
    expect(parseLog(log).formats).not.toContain("jest");
    expect(ids(" FAIL  src/a.test.js\n  ● adds\n\n    expect(1).toBe(2)\n")).toEqual([
      "src/a.test.js > adds",
    ]);
  });
});

describe("dotnet: Microsoft.Testing.Platform's terminal reporter", () => {
  it("reads a failed line with its data row, the class from the method's frame, `/_/` as the repository root", () => {
    const log = [
      '  failed Invalid_Name_Should_Fail ("net9.0;net8.0",Debug) (6s 220ms)',
      "    Assert.AreEqual failed. Expected:<1>. Actual:<-5>. ",
      "      at MSTest.Acceptance.SdkTests.Invalid_Name_Should_Fail(String tfm, BuildConfiguration c) in /_/test/Acceptance/SdkTests.cs:280",
    ].join("\n");
    expect(where(log)).toEqual([
      [
        'MSTest.Acceptance.SdkTests.Invalid_Name_Should_Fail ("net9.0;net8.0",Debug)',
        "test/Acceptance/SdkTests.cs",
        280,
      ],
    ]);
  });
  it("counts the summary, and reads a failure without frames under it", () => {
    const log = [
      "passed Put_AddsJars (12ms)",
      "failed Count_IsZero (1s 020ms)",
      "  Assert.AreEqual failed. Expected:<0>. Actual:<1>.",
      "",
      "Test run summary: Failed! - /w/Pantry.Tests.dll (net9.0|x64)",
      "  total: 2",
      "  failed: 1",
      "  succeeded: 1",
      "  skipped: 0",
      "  duration: 1s 301ms",
    ].join("\n");
    const parsed = parseLog(log);
    expect(parsed.failures.map((f) => f.test)).toEqual(["Count_IsZero"]);
    expect(parsed.counts.dotnet).toMatchObject({ passed: 1, failed: 1 });
  });
  it("reads nothing from a `failed … (12ms)` line with neither frame nor MTP summary", () => {
    expect(ids(["failed upload of cache (12ms)", "  retrying with a smaller chunk"].join("\n"))).toEqual([]);
  });
});

describe("wdio: a worker's report pasted without its Running: preface", () => {
  const w = (s: string) => `[chrome  linux #0-0] ${s}`.trimEnd();
  it("counts from the first test line under the prefix, its describe titles held until then", () => {
    const log = [
      w("Simple suite 1"),
      w("   ✖ compares 1 to 1"),
      w(""),
      w("1 passing (1.6s)"),
      w("1 failing"),
      w(""),
      w("1) Simple suite 1 compares 1 to 1"),
      w("just because"),
    ].join("\n");
    expect(ids(log)).toEqual(["Simple suite 1 > compares 1 to 1"]);
  });
  it("reads nothing from worker-prefixed lines that hold no test or count line", () => {
    const log = [w("Simple suite 1"), w("some log output"), w("1) a numbered note")].join("\n");
    expect(parseLog(log).formats).not.toContain("wdio");
  });
});

describe("cargo: a libtest paste that opens inside a failure's backtrace", () => {
  const opening = [
    "   3: core::panicking::assert_failed",
    "             at /rustc/5980/library/core/src/panicking.rs:394:5",
    "   4: pantry::tests::label_keeps_case",
    "             at ./src/lib.rs:25:9",
    "   5: pantry::tests::label_keeps_case::{{closure}}",
    "             at ./src/lib.rs:24:26",
    "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
    "",
  ];
  it("names the test by the frame its harness closure calls, without the crate", () => {
    const log = [
      ...opening,
      "---- tests::scale stdout ----",
      "",
      "thread 'tests::scale' (1856) panicked at src/lib.rs:15:9:",
      "assertion `left == right` failed",
    ].join("\n");
    expect(where(log)).toEqual([
      ["tests::label_keeps_case", "src/lib.rs", 25],
      ["tests::scale", "src/lib.rs", 15],
    ]);
  });
  it("reads nothing from such a backtrace when no libtest block follows (a binary's own panic)", () => {
    expect(parseLog(opening.join("\n")).failures.filter((f) => f.format === "cargo")).toEqual([]);
  });
});

describe("phpunit: .phpt tests named by their path", () => {
  it("reads a .phpt entry, its id and place relative to the directory above tests/", () => {
    const log = [
      "There were 2 failures:",
      "",
      "1) /tmp/run/tests/output/scale.phpt",
      "Failed asserting that two strings are equal.",
      "--- Expected",
      "+++ Actual",
      "@@ @@",
      "-'2 g'",
      "+'1 g'",
      "",
      "/tmp/run/tests/output/scale.phpt:7",
      "",
      "FAILURES!",
      "Tests: 3, Assertions: 3, Failures: 1.",
    ].join("\n");
    expect(where(log)).toEqual([["tests/output/scale.phpt", "tests/output/scale.phpt", 7]]);
  });
  it("reads a pasted .phpt entry on its comparison, and takes no diff line for a frame", () => {
    const log = [
      "11) /usr/local/src/phpunit/tests/TextUI/failure-isolation.phpt",
      "Failed asserting that string matches format description.",
      "--- Expected",
      "+++ Actual",
      "-%s:%i",
      "+/usr/local/src/phpunit/tests/_files/FailureTest.php:8",
      " 2) FailureTest::testAssertIntegerEqualsInteger",
    ].join("\n");
    expect(where(log)).toEqual([["tests/TextUI/failure-isolation.phpt", null, null]]);
  });
  it("reads nothing from a numbered .phpt line without PHPUnit's comparison or a frame", () => {
    expect(ids(["1) tests/output/scale.phpt", "was renamed in this release"].join("\n"))).toEqual([]);
  });
});

describe("mocha: a paste cut after the counts still names the numbered tests", () => {
  const tree = [
    "  Parser",
    "    1) reads imports",
    "    ✓ reads a string",
    "    nested",
    "      2) throws on a cycle",
    "",
    "  1 passing (12ms)",
    "  2 failing",
  ];
  it("reports each numbered entry of the spec tree as a failure without details", () => {
    const failures = parseLog(tree.join("\n")).failures;
    expect(failures.map((f) => f.test)).toEqual([
      "Parser > reads imports",
      "Parser > nested > throws on a cycle",
    ]);
    expect(failures[0]!.message).toContain("no failure details");
  });
  it("adds nothing when every numbered entry has its block, and nothing without mocha's counts", () => {
    const withBlocks = [
      ...tree,
      "",
      "  1) Parser",
      "       reads imports:",
      "     AssertionError: expected 1 to equal 2",
      "      at Context.<anonymous> (test/parser.js:4:10)",
      "",
      "  2) Parser",
      "       nested",
      "         throws on a cycle:",
      "     Error: no cycle",
      "      at Context.<anonymous> (test/parser.js:9:3)",
    ];
    expect(ids(withBlocks.join("\n"))).toEqual([
      "Parser > reads imports",
      "Parser > nested > throws on a cycle",
    ]);
    expect(ids(tree.slice(0, 5).join("\n"))).toEqual([]);
  });
});

describe("vitest: a test title that ends in brackets of its own", () => {
  it("keeps an it.each row's bracketed value in the id, and still reads a suite marker", () => {
    const row = [
      " FAIL  test/scule.test.ts > splitByCase > new-name-value => [ 'new-name-value' ]",
      "AssertionError: expected [ 'new', '-name' ] to match object [ 'new-name-value' ]",
      " ❯ test/scule.test.ts:36:51",
    ].join("\n");
    expect(ids(row)).toEqual(["test/scule.test.ts > splitByCase > new-name-value => [ 'new-name-value' ]"]);
    const suite = [
      " FAIL  test/a.test.ts [ test/a.test.ts ]",
      "Error: Cannot find module './missing'",
      " ❯ test/a.test.ts:1:1",
    ].join("\n");
    expect(where(suite)).toEqual([[null, "test/a.test.ts", 1]]);
  });
});

describe("AVA's default reporter: the listing, the failure blocks and the counts", () => {
  const run = [
    "",
    "  ✖ camelCase ",
    "  ✔ camelCase with locale option",
    "  - camelCase with a skipped case",
    "  ─",
    "",
    "  camelCase",
    "",
    "  test.js:5",
    "",
    "   4: test('camelCase', t => {",
    "   5:   t.is(camelCase('b2b_x'), 'b2bX');",
    "",
    "  Difference:",
    "",
    "  - 'b2BX'",
    "  + 'b2bX'",
    "",
    "  › file://test.js:5:4",
    "",
    "  ─",
    "",
    "  1 test failed",
    "  1 test skipped",
  ];
  it("names each failed test by its title, placed by its block", () => {
    expect(where(run.join("\n"))).toEqual([["camelCase", "test.js", 5]]);
    expect(parseLog(run.join("\n")).failures[0]!.message).toContain("- 'b2BX'");
    const tests = parseLog(run.join("\n")).tests.map((t) => [t.id, t.outcome]);
    expect(tests).toContainEqual(["camelCase with locale option", "passed"]);
  });
  it("reads nothing from the same marks without AVA's counts (node --test's spec reporter prints them too)", () => {
    const spec = ["  ✖ adds (1.2ms)", "  ✔ subtracts (0.3ms)", "ℹ tests 2", "ℹ pass 1", "ℹ fail 1"].join(
      "\n",
    );
    expect(parseLog(spec).failures.every((f) => f.format !== "ava")).toBe(true);
  });
});

describe("mocha's numbered entries without blocks: only under a failing count", () => {
  it("invents nothing from another tool's numbered list on a green mocha log", () => {
    const log = ["  Build", "    1) Compile", "    2) Bundle", "", "  12 passing (40ms)"].join("\n");
    expect(ids(log)).toEqual([]);
  });
});

describe("AVA: failures only under AVA's failed count, and every run of a log", () => {
  it("drops ✖ lines a passing AVA run does not account for, and reads a second run", () => {
    const log = [
      "  ✖ lint step",
      "  ✔ adds",
      "  ─",
      "",
      "  1 test passed",
      "",
      "> packages/b: ava",
      "  ✖ subtracts",
      "  ─",
      "",
      "  subtracts",
      "",
      "  b.test.js:3",
      "",
      "  ─",
      "",
      "  1 test failed",
    ].join("\n");
    expect(where(log)).toEqual([["subtracts", "b.test.js", 3]]);
  });
});

describe("gotestsum --rerun-fails: a test that passes on its re-run is not a failure", () => {
  it("reports nothing for a test that failed, then passed on re-run, and still reports one that failed again", () => {
    const log = [
      "FAIL shelf.TestFlaky (0.01s)",
      "FAIL shelf.TestBroken (0.01s)",
      "PASS shelf.TestFlaky (re-run 1) (0.01s)",
      "FAIL shelf.TestBroken (re-run 1) (0.01s)",
      "",
      "=== Failed",
      "=== FAIL: shelf TestFlaky (0.01s)",
      "    shelf_test.go:8: flaky",
      "=== FAIL: shelf TestBroken (0.01s)",
      "    shelf_test.go:12: broken",
      "",
      "DONE 2 runs, 4 tests, 2 failures in 0.5s",
    ].join("\n");
    expect(ids(log)).toEqual(["shelf.TestBroken"]);
  });
});
