/**
 * Shapes added on branch f10e (hold16's classes): a test script's exit status is no failure, a bare `error:` line
 * outside any cargo/rustc output is no build failure, and look-alike runner text never outvotes the runner's own
 * summary. The logs are written here for a small kettle library of our own, in the runners' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("a failed test script names nothing", () => {
  it("npm 6's `Test failed.` under a coverage table: red, no failure", () => {
    const r = parseLog(
      [
        "> kettle@1.0.0 test /home/me/kettle",
        "> nyc --check-coverage --lines 100 tape test/*.js",
        "",
        "----------|----------|----------|",
        "File      |  % Stmts | % Branch |",
        "----------|----------|----------|",
        "All files |       90 |      100 |",
        "----------|----------|----------|",
        "npm ERR! Test failed.  See above for more details.",
        "",
      ].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toEqual(["npm"]);
  });

  it("npm 4's ELIFECYCLE of the `test` script, with the debug-log pointer after a blank line: red, no failure", () => {
    const r = parseLog(
      [
        "npm ERR! code ELIFECYCLE",
        "npm ERR! errno 1",
        "npm ERR! kettle@1.0.0 test: `gulp test`",
        "npm ERR! Exit status 1",
        "npm ERR!",
        "npm ERR! Failed at the kettle@1.0.0 test script 'gulp test'.",
        "",
        "npm ERR! Please include the following file with any support request:",
        "npm ERR!     C:\\Users\\me\\kettle\\npm-debug.log",
        "",
      ].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toEqual(["npm"]);
  });

  it("npm 8's `command failed` of a script running jest (named by its header or its command): red, no failure", () => {
    for (const header of ["> kettle@1.0.0 test:unit", "> kettle@1.0.0 verify"]) {
      const r = parseLog(
        [
          header,
          "> jest --ci",
          "",
          "npm ERR! path /home/me/kettle",
          "npm ERR! command failed",
          "npm ERR! command sh -c jest --ci",
          "",
        ].join("\n"),
      );
      expect(r.failures).toEqual([]);
      expect(r.unnamedFailuresIn).toEqual(["npm"]);
    }
  });

  it("must not fire: a failed BUILD script stays a build failure; a test failure named above keeps the log's failure", () => {
    const build = parseLog(
      [
        "npm ERR! code ELIFECYCLE",
        "npm ERR! errno 1",
        "npm ERR! kettle@1.0.0 build: `node scripts/build.js`",
        "npm ERR! Exit status 1",
      ].join("\n"),
    );
    expect(build.failures.map((f) => [f.format, f.category, f.errorType])).toEqual([
      ["npm", "build", "ELIFECYCLE"],
    ]);
    expect(build.unnamedFailuresIn).toBeUndefined();
    const named = parseLog(
      [
        "not ok 1 - boils water",
        "  ---",
        "  operator: equal",
        "  ...",
        "1..1",
        "# tests 1",
        "# fail  1",
        "npm ERR! Test failed.  See above for more details.",
      ].join("\n"),
    );
    expect(named.failures.map((f) => f.test)).toEqual(["boils water"]);
    expect(named.unnamedFailuresIn).toBeUndefined();
  });

  it("must not fire: a test script's exit under runner summaries that all passed is the wrapper's, not the tests'", () => {
    const r = parseLog(
      [
        "  45 passing (7m)",
        "  7 pending",
        "",
        "npm ERR! code ELIFECYCLE",
        "npm ERR! kettle@1.0.0 test:functional: `node ./scripts/run.js`",
        "npm ERR! Exit status 1",
      ].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toBeUndefined();
  });
});

describe("a bare `error:` line is cargo's only in cargo's output", () => {
  it("rpmbuild's `error: Bad exit status` under a unittest run is no build failure", () => {
    const log = [
      "ERROR: tests (unittest.loader._FailedTest)",
      "----------------------------------------------------------------------",
      "ImportError: Failed to import test module: tests",
      "Traceback (most recent call last):",
      '  File "/usr/lib64/python3.5/unittest/loader.py", line 153, in loadTestsFromName',
      "    module = __import__(module_name)",
      "ImportError: No module named 'tests'",
      "----------------------------------------------------------------------",
      "Ran 1 test in 0.000s",
      "FAILED (errors=1)",
      "RPM build errors:",
      "error: Bad exit status from /var/tmp/rpm-tmp.oCPkDm (%check)",
      "    Bad exit status from /var/tmp/rpm-tmp.oCPkDm (%check)",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.format, f.category])).toEqual([["unittest", "import"]]);
  });

  it("must not fire: a code-less rustc error after cargo's `Compiling` line stays a build failure", () => {
    const log = [
      "   Compiling kettle v0.1.0 (/home/me/kettle)",
      "error: linking with `cc` failed: exit status: 1",
      "  |",
      '  = note: "cc" "-m64" …',
      "",
      "error: could not compile `kettle` (lib) due to 1 previous error",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.format, f.category, f.message])).toEqual([
      ["cargo", "build", "linking with `cc` failed: exit status: 1"],
    ]);
  });
});

describe("RSpec: the run's own count line (under `Finished in`) wins over count lines a test prints", () => {
  const printed = [
    "Failures:",
    "  1) Kettle#boil heats the water",
    "     Failure/Error: expect(kettle.temperature).to eq(100)",
    "1 example, 1 failure",
  ];
  it("a green run whose spec prints a Failures block and a red count line gives no failure", () => {
    const r = parseLog(
      [
        "+ bundle exec rspec spec/kettle_spec.rb",
        ...printed,
        "..",
        "",
        "Finished in 0.001 seconds",
        "2 examples, 0 failures",
        "",
      ].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.counts.rspec?.passed).toBe(2);
    expect(r.unnamedFailuresIn).toBeUndefined();
  });
  it("must not fire: a red run's own count line keeps its failure; a pasted count line alone still counts", () => {
    const red = [
      "F",
      "",
      "Failures:",
      "",
      "  1) Kettle#boil heats the water",
      "     Failure/Error: expect(kettle.temperature).to eq(100)",
      "       expected: 100",
      "            got: 90",
      "     # ./spec/kettle_spec.rb:5:in `block (2 levels) in <top (required)>'",
      "",
      "Finished in 0.01 seconds (files took 0.1 seconds to load)",
      "1 example, 1 failure",
      "",
      "Failed examples:",
      "",
      "rspec ./spec/kettle_spec.rb:4 # Kettle#boil heats the water",
    ];
    expect(found(red.join("\n"))).toEqual([
      ["spec/kettle_spec.rb > Kettle#boil heats the water", "spec/kettle_spec.rb", 5],
    ]);
    const alone = parseLog(["Some output", "3 examples, 1 failure"].join("\n"));
    expect(alone.unnamedFailuresIn).toEqual(["rspec"]);
  });
});

describe("a Rust test's panic pasted with a backtrace cut above the harness frames", () => {
  const panic = (thread: string, frame: string) =>
    [
      `thread '${thread}' panicked at crates/kettle/src/boil.rs:42:5:`,
      "assertion `left == right` failed",
      "  left: 90",
      " right: 100",
      "stack backtrace:",
      "   0: rust_begin_unwind",
      "             at /rustc/e4c626dd9a17a23270bf8e7158e59cf2b9c04840/library/std/src/panicking.rs:645:5",
      "   1: core::panicking::assert_failed",
      "             at /rustc/e4c626dd9a17a23270bf8e7158e59cf2b9c04840/library/core/src/panicking.rs:297:5",
      `   2: ${frame}`,
      "             at ./src/boil.rs:42:5",
    ].join("\n");
  it("fails the test when a frame is the thread's own path (an async test's closure), at the panic's place", () => {
    expect(found(panic("boil::tests::heats_water", "kettle::boil::tests::heats_water::{{closure}}"))).toEqual(
      [["boil::tests::heats_water", "crates/kettle/src/boil.rs", 42]],
    );
  });
  it("must not fire: no frame of the thread's path, or a thread the program named", () => {
    expect(found(panic("boil::tests::heats_water", "kettle::boil::Kettle::heat"))).toEqual([]);
    expect(found(panic("tokio-runtime-worker", "kettle::boil::tests::heats_water::{{closure}}"))).toEqual([]);
  });
});

describe("Surefire: a class whose result line counts an error no detail or recap names", () => {
  const head = [
    "-------------------------------------------------------",
    " T E S T S",
    "-------------------------------------------------------",
    "Running org.kettle.BoilTest",
    "Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.2 sec",
    "Running org.kettle.PourTest",
    "Tests run: 10, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 128.811 sec <<< FAILURE!",
    "Running org.kettle.SteamTest",
  ];
  it("a log cut before the details and recap: the class is the failure", () => {
    expect(found(head.join("\n"))).toEqual([["org.kettle.PourTest", null, null]]);
  });
  it("must not fire: a detail block names the method; a final all-passed total (a flaky rerun) overrules it", () => {
    const detailed = [
      ...head.slice(0, 7),
      "pours(org.kettle.PourTest)  Time elapsed: 0.01 sec  <<< ERROR!",
      "java.lang.IllegalStateException: empty",
      "\tat org.kettle.PourTest.pours(PourTest.java:12)",
      "",
    ];
    expect(found(detailed.join("\n"))).toEqual([
      ["org.kettle.PourTest.pours", "src/test/java/org/kettle/PourTest.java", 12],
    ]);
    const flaky = [
      ...head.slice(0, 7),
      "",
      "Results :",
      "",
      "Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1",
      "",
    ];
    expect(found(flaky.join("\n"))).toEqual([]);
  });
});

describe("unittest: a FAIL header from a runner that labels tests by a dotted path, pasted as a code block", () => {
  const block = [
    "    FAIL: suite.boil.test_heats (tests.suite.boil.TestBoil)",
    "    ----------------------------------------------------------------------",
    "    Traceback (most recent call last)",
    "    ....",
    "    self.assertEqual(kettle.temperature, 100)",
    "    AssertionError: 90 != 100",
  ];
  const head = block[0]!;
  it("the label's last part is the method under the class in parentheses; the code block's indent is framing", () => {
    const r = parseLog(block.join("\n"));
    expect(r.failures.map((f) => [f.test, f.errorType, f.message])).toEqual([
      ["tests.suite.boil.TestBoil.test_heats", "AssertionError", "90 != 100"],
    ]);
  });
  it("must not fire: no dash rule under it, parentheses naming no dotted class, a label off the class's module", () => {
    expect(found([head, "    it failed, see above"].join("\n"))).toEqual([]);
    const other = (h: string) => found([h, ...block.slice(1)].join("\n"));
    expect(other(head.replace("(tests.suite.boil.TestBoil)", "(twice)"))).toEqual([]);
    expect(other(head.replace("suite.boil.", "other."))).toEqual([]);
    expect(other(head.replace("TestBoil", "Boil"))).toEqual([]);
  });
});

describe("pytest: a failure block cut before any frame takes its file from the repr of `self`", () => {
  const block = (repr: string) =>
    [
      "=================================== FAILURES ===================================",
      "____________________________ TestBoil.test_heats _____________________________",
      "[gw0] linux -- Python 3.11.4 /usr/bin/python3",
      `self = ${repr}`,
      "    def test_heats(self):",
      "        kettle = Kettle()",
      ">       self.assertEqual(kettle.boil(), 100)",
    ].join("\n");
  it("unittest's `<mod.Class testMethod=name>` and a plain class's `<mod.Class object at 0x…>`", () => {
    for (const repr of [
      "<tests.unit.test_boil.TestBoil testMethod=test_heats>",
      "<tests.unit.test_boil.TestBoil object at 0x7f3a2c1d9e50>",
    ])
      expect(parseLog(block(repr)).failures.map((f) => f.test)).toEqual([
        "tests/unit/test_boil.py::TestBoil::test_heats",
      ]);
  });
  it("must not fire: a repr of another class or method leaves the title alone", () => {
    for (const repr of [
      "<tests.unit.test_boil.TestPour testMethod=test_heats>",
      "<tests.unit.test_boil.TestBoil testMethod=test_pours>",
    ])
      expect(parseLog(block(repr)).failures.map((f) => f.test)).toEqual(["TestBoil.test_heats"]);
  });
});
