/**
 * Runner shapes added on branch f10x (misses of hold39's dev half: bats' pretty formatter, behave's plain formatter,
 * gleeunit, luatest, telescope, luvit's runner, phpspec, rackunit). Each log is written here for a small pantry library
 * of our own, in the runners' byte layout; each rule has a green log and a look-alike it must not fire on.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file ?? null, f.line ?? null]);

describe("bats' pretty formatter", () => {
  it("reads a ✗ line with its `in test file` line, also behind a prompt and cut mid-command", () => {
    const log = [
      "$ bats test",
      " ✓ jar opens",
      " ✗ jar seals when full",
      "   (in test file test/jar.bats, line 14)",
      '     `[ "$status" -eq 0 ]\' failed with status 1',
      " ✗ jar pours",
      "   (from function `assert_equal' in file test/helper.bash, line 5,",
      "    in test file test/jar.bats, line 22)",
      '     `assert_equal "$out" 2\' fa',
    ].join("\n");
    expect(found(log)).toEqual([
      ["jar seals when full", "test/jar.bats", 14],
      ["jar pours", "test/jar.bats", 22],
    ]);
  });
  it("must not fire on a green run", () => {
    const log = [" ✓ jar opens", " ✓ jar seals when full", "", "2 tests, 0 failures"].join("\n");
    expect(found(log)).toEqual([]);
  });
  it("must not fire on another runner's ✗ line with no `in test file` line under it", () => {
    const log = [" ✗ jar seals when full", "   expected sealed, got open", "", "Done."].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("behave's plain formatter", () => {
  it("fails a scenario with a failed step under it, placed by the Failing scenarios: list", () => {
    const log = [
      "Feature: Pantry jars",
      "   Scenario: Seal a full jar",
      "       Given a full jar ... passed in 0.000s",
      "        When I seal it ... failed in 0.001s",
      "Assertion Failed: jar stayed open",
      "   Scenario: Pour a cup",
      "       Given a full jar ... passed in 0.000s",
      "        Then a cup is poured ... passed in 0.000s",
      "",
      "Failing scenarios:",
      "  features/jar.feature:2  Seal a full jar",
      "",
      "0 features passed, 1 failed, 0 skipped",
      "1 scenario passed, 1 failed, 0 skipped",
    ].join("\n");
    expect(found(log)).toEqual([["Seal a full jar", "features/jar.feature", 2]]);
  });
  it("must not fire on a green run", () => {
    const log = [
      "Feature: Pantry jars",
      "   Scenario: Pour a cup",
      "       Given a full jar ... passed",
      "        Then a cup is poured ... passed",
      "",
      "1 feature passed, 0 failed, 0 skipped",
      "1 scenario passed, 0 failed, 0 skipped",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
  it("must not fire on a step line `... failed` outside a Feature (a prose log)", () => {
    const log = ["   Scenario: Pour a cup", "        When the build runs ... failed"].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("gleeunit's numbered entries", () => {
  it("reads `1) module.function` with its location line, placed in the module's test file", () => {
    const log = [
      "1) pantry/jar_test.seal_test",
      "     Assertion failed.",
      "        value: False",
      "     location: pantry/jar_test.seal_test:12",
      "     stacktrace:",
      "       pantry/jar_test.seal_test",
      "     output:",
      "",
      "Finished in 0.010 seconds",
      "3 tests, 1 failures",
    ].join("\n");
    expect(found(log)).toEqual([["pantry/jar_test.seal_test", "test/pantry/jar_test.gleam", 12]]);
  });
  it("must not fire on a numbered entry without its location line (another runner's summary)", () => {
    const log = ["1) pantry.seal_test", "     expected sealed", "", "Release notes"].join("\n");
    expect(found(log)).toEqual([]);
  });
  it("must not fire on a green run", () => {
    const log = ["...", "Finished in 0.010 seconds", "3 tests, no failures"].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("luatest's Failed tests: list", () => {
  it("reads each test once, on a path Lua shortened", () => {
    const log = [
      "....F",
      "",
      "Failed tests:",
      "-------------",
      "",
      "1) jar.test_seal",
      "...me/work/pantry///test/jar_test.lua:10: expected: true, actual: false",
      "stack traceback:",
      "        ...me/work/pantry///test/jar_test.lua:10: in function 'jar.test_seal'",
      "2) jar.test_seal",
      "...me/work/pantry///test/jar_test.lua:10: expected: true, actual: false",
      "Ran 5 tests in 0.010 seconds, 4 succeeded, 1 failed",
    ].join("\n");
    expect(found(log)).toEqual([["jar.test_seal", "test/jar_test.lua", 10]]);
  });
  it("must not fire on a green run", () => {
    expect(found(["....", "Ran 4 tests in 0.010 seconds, 4 succeeded, 0 failed"].join("\n"))).toEqual([]);
  });
  it("must not take Surefire's Failed tests: list (no dashed rule under it)", () => {
    const log = [
      "Results :",
      "",
      "Failed tests: ",
      "  1) jar.test_seal",
      "",
      "Tests run: 3, Failures: 1, Errors: 0, Skipped: 0",
    ].join("\n");
    expect(parseLog(log).failures.filter((f) => f.format === "luatest")).toEqual([]);
  });
});

describe("telescope's failure blocks", () => {
  it("reads the named blocks under its count line, placed outside telescope.lua through a build copy", () => {
    const log = [
      "12 tests 11 passed 40 assertions 1 failed 0 errors 0 unassertive 0 pending",
      "",
      "jar seals when full:",
      "Failed asserting that",
      "  (actual)   : open",
      " equals to",
      "  (expected) : sealed",
      "stack traceback:",
      "        /src/pantry/build/test/lua/telescope.lua:199: in function 'assert_equal'",
      "        ...y/build/test/lua/unit/jar.lua:30: in function <...y/build/test/lua/unit/jar.lua:25>",
      "        [C]: in function 'xpcall'",
    ].join("\n");
    expect(found(log)).toEqual([["jar seals when full", "test/lua/unit/jar.lua", 30]]);
  });
  it("must not fire on a green run", () => {
    const log = [
      "12 tests 12 passed 40 assertions 0 failed 0 errors 0 unassertive 0 pending",
      "jar seals when full:",
      "Failed asserting that",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
  it("must not take a `name:` line with no count line above it", () => {
    expect(found(["jar seals when full:", "Failed asserting that", "  (actual) : open"].join("\n"))).toEqual(
      [],
    );
  });
});

describe("luvit's test runner", () => {
  it("reads a FAILED file confirmed by its FAIL block; an earlier green run does not hide it", () => {
    const log = [
      "test-jar.lua SUCCESS",
      "test-lid.lua SUCCESS",
      "Done",
      "",
      "test-jar.lua FAILED",
      "test-lid.lua SUCCESS",
      "",
      "FAIL (test-jar.lua)",
      "  FAIL assert - assertion failed - Line: 9",
      "Done",
    ].join("\n");
    expect(found(log)).toEqual([["test-jar.lua", null, null]]);
  });
  it("must not fire on a green run, nor on a FAILED line with no FAIL block", () => {
    expect(found(["test-jar.lua SUCCESS", "test-lid.lua SUCCESS", "Done"].join("\n"))).toEqual([]);
    expect(found(["build.lua FAILED", "Done"].join("\n"))).toEqual([]);
  });
  it("a later run that passes the file clears it", () => {
    const log = [
      "test-jar.lua FAILED",
      "",
      "FAIL (test-jar.lua)",
      "  FAIL assert",
      "Done",
      "test-jar.lua SUCCESS",
      "Done",
    ];
    expect(found(log.join("\n"))).toEqual([]);
  });
});

describe("phpspec's failed examples section", () => {
  it("reads `N  ✘ title` under the spec's resource, placed at the spec file's line", () => {
    const log = [
      "----  failed examples",
      "",
      "        Pantry/Jar",
      "  12  ✘ seals when full",
      "        expected true, but got false.",
      "",
      "----  broken examples",
      "",
      "        Pantry/Lid",
      "  30  ! fits a jar",
      '        exception [err:TypeError("bad")] has been thrown.',
      "",
      "2 specs",
      "5 examples (3 passed, 1 failed, 1 broken)",
    ].join("\n");
    expect(found(log)).toEqual([
      ["Pantry/Jar > seals when full", "spec/Pantry/JarSpec.php", 12],
      ["Pantry/Lid > fits a jar", "spec/Pantry/LidSpec.php", 30],
    ]);
  });
  it("must not fire on a green run", () => {
    expect(found(["2 specs", "5 examples (5 passed)"].join("\n"))).toEqual([]);
  });
  it("must not take PHPUnit's testdox ✘ line", () => {
    const log = [
      "Jar (Tests\\Jar)",
      " ✘ Seals when full",
      "   │",
      "   │ Failed asserting that false is true.",
      "   │",
      "   │ /app/tests/JarTest.php:12",
    ].join("\n");
    expect(parseLog(log).failures.filter((f) => f.format === "phpspec")).toEqual([]);
  });
});

describe("rackunit's text UI and raco test", () => {
  it("reads a FAILURE block with its suite path, placed at a Racket file's location", () => {
    const log = [
      "--------------------",
      "Pantry > jar seals",
      "FAILURE",
      "name:       check-equal?",
      "location:   pantry/jar-test.rkt:12:4",
      "actual:     'open",
      "expected:   'sealed",
      "--------------------",
      "2 success(es) 1 failure(s) 0 error(s) 3 test(s) run",
    ].join("\n");
    expect(found(log)).toEqual([["Pantry > jar seals", "pantry/jar-test.rkt", 12]]);
  });
  it("must not fire on a green run", () => {
    expect(found("3 success(es) 0 failure(s) 0 error(s) 3 test(s) run")).toEqual([]);
  });
  it("must not take a 20-dash rule and a FAILURE line without rackunit's fields", () => {
    const log = ["--------------------", "Deploy", "FAILURE", "see the console above"].join("\n");
    expect(parseLog(log).failures.filter((f) => f.format === "rackunit")).toEqual([]);
  });
});
