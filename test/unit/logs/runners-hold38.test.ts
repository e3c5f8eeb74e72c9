/**
 * Runner shapes added on branch f10v (misses of the hold38 corpus's dev half, tainted once scored). Each log is
 * written here for a small kiln library of our own, in the runners' byte layout; each rule has a case where it
 * must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("AVA's TAP: hook comments are no tape headers", () => {
  const avaHooks = [
    "TAP version 13",
    "# before hook",
    "ok 1 - kiln heats",
    "not ok 2 - kiln cools",
    "  ---",
    "    name: AssertionError",
    "    message: Rejected promise returned by test",
    "    values:",
    "      'Rejected promise returned by test. Reason:': |-",
    "        Error {",
    "          message: 'too hot',",
    "        }",
    "    at: >-",
    "      test/kiln.js:21:4",
    "",
    "      ----",
    "",
    "      Kiln.cool (node_modules/kiln-driver/lib/cool.js:30:12)",
    "  ...",
    "# after.always hook",
    "",
    "1..2",
    "# tests 2",
    "# pass 1",
    "# fail 1",
  ];

  it("the failing result is the test, placed at the first line of AVA's folded `at:`", () => {
    expect(found(avaHooks.join("\n"))).toEqual([["kiln cools", "test/kiln.js", 21]]);
  });

  it('a hook for one test (`# beforeEach hook for "…"`) names no test either', () => {
    const log = avaHooks.map((l) =>
      l === "# before hook" ? '# beforeEach.always hook for "kiln heats"' : l,
    );
    expect(found(log.join("\n")).map((f) => f[0])).toEqual(["kiln cools"]);
  });

  it("must fire: a tape test whose header only begins like a hook stays the header's test", () => {
    const log = [
      "TAP version 13",
      "# before hook runs the fan",
      "ok 1 should be equal",
      "not ok 2 should be strictly equal",
      "  ---",
      "    operator: equal",
      "    expected: 1",
      "    actual:   2",
      "    at: Test.<anonymous> (/home/u/kiln/test/fan.js:9:5)",
      "  ...",
      "",
      "1..2",
      "# tests 2",
      "# pass  1",
      "# fail  1",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["before hook runs the fan"]);
  });
});

describe("AVA 0.x's TAP: the title echoed above its line", () => {
  it("a green run cut after a result that repeats its header (a paste ends there): no failure", () => {
    const log = [
      "> ava -t test/index.js",
      "",
      "TAP version 13",
      "# kiln heats to cone 6",
      "ok 1 - kiln heats to cone 6",
      "# kiln cools slowly",
      "ok 2 - kiln cools slowly",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });

  it("must fire: an echoed test that failed is that test", () => {
    const log = [
      "TAP version 13",
      "# kiln heats to cone 6",
      "ok 1 - kiln heats to cone 6",
      "# kiln cools slowly",
      "not ok 2 - kiln cools slowly",
      "  ---",
      "    operator: is",
      "    expected: 20",
      "    actual: 80",
      "  ...",
      "",
      "1..2",
      "# tests 2",
      "# pass 1",
      "# fail 1",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["kiln cools slowly"]);
  });

  it("must fire: a tape stream cut inside a header whose assertions do not repeat it died there", () => {
    const log = [
      "TAP version 13",
      "# kiln heats",
      "ok 1 should be equal",
      "/home/u/kiln/test/heat.js:12",
      "TypeError: Cannot read properties of undefined (reading 'cone')",
      "    at Test.<anonymous> (/home/u/kiln/test/heat.js:12:20)",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["kiln heats"]);
  });

  it("must fire: a header echoed by its first result, then a second assertion, then the cut: died there", () => {
    const log = [
      "TAP version 13",
      "# kiln heats",
      "ok 1 kiln heats",
      "ok 2 should be equal",
      "# kiln cools",
      "ok 3 should be equal",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["kiln cools"]);
  });
});

describe("EUnit: an exception raised below the test, under rebar3", () => {
  const red = [
    "===> Verifying dependencies...",
    "===> Compiling kiln",
    "kiln_tests: heat_test...*failed*",
    "in function file:consult/1",
    '  called as consult("../priv/cones.config")',
    "in call from kiln_tests:heat_test/0 (/home/u/src/kiln/_build/test/lib/kiln/test/kiln_tests.erl, line 14)",
    "in call from kiln_tests:heat_test/0",
    "**error:{badmatch,{error,enoent}}",
    "",
    "",
    "=======================================================",
    "  Failed: 1.  Skipped: 0.  Passed: 2.",
    "===> Uncaught error in rebar_core. Run with DEBUG=1 to see stacktrace",
    "===> Uncaught error: {'EXIT',",
    "                         {{badmatch,{error,{rebar_prv_eunit,unknown_error}}},",
    "                          [{rebar_prv_eunit,do,1,",
    '                               [{file,"src/rebar_prv_eunit.erl"},{line,47}]},',
    "                           {rebar_core,do,2,",
    '                               [{file,"src/rebar_core.erl"},{line,122}]}]}}',
  ];

  it("the test is the frame EUnit's `*failed*` line names, placed at the application's own file", () => {
    expect(found(red.join("\n"))).toEqual([["kiln_tests:heat_test/0", "test/kiln_tests.erl", 14]]);
  });

  it("a green run's summary drops it (`All 3 tests passed.`)", () => {
    const log = red.map((l) => (l.includes("Failed: 1.") ? "  All 3 tests passed." : l));
    expect(found(log.join("\n"))).toEqual([]);
  });

  it("a stack with no `*failed*` line naming one of its frames names no test", () => {
    const noHeader = red.filter((l) => !l.includes("*failed*"));
    expect(found(noHeader.join("\n"))).toEqual([]);
    const other = red.map((l) => (l.includes("*failed*") ? "kiln_tests: cool_test...*failed*" : l));
    expect(found(other.join("\n"))).toEqual([]);
  });

  it("rebar3's own crash alone, under a count of no failure, is no test", () => {
    const log = [
      "=======================================================",
      "  All 2 tests passed.",
      ...red.slice(12),
    ];
    expect(found(log.join("\n"))).toEqual([]);
  });

  it("must fire as before: the exception right under the test's own `in function` line", () => {
    const log = [
      "kiln_tests: cool_test...*failed*",
      "in function kiln_tests:cool_test/0 (test/kiln_tests.erl, line 22)",
      "**error:{assertEqual,[{module,kiln_tests},{line,22},{expected,20},{value,80}]}",
      "",
      "=======================================================",
      "  Failed: 1.  Skipped: 0.  Passed: 2.",
    ].join("\n");
    expect(found(log)).toEqual([["kiln_tests:cool_test/0", "test/kiln_tests.erl", 22]]);
  });
});
