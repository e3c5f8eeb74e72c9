/**
 * Runner outputs and framings added on branch pl10h (issue 10, classes seen in real pasted CI logs): rustdoc's
 * crate-level doc-test names and a doc-test's panic pasted alone, libtest at the tail of a Nix build, a TRX fragment
 * and its other outcomes, a self-hosted runner's checkout, jest blocks with no `FAIL` line (pasted alone, damaged
 * bullets, an HTML tag before them) and jest's bare summary, Julia's summary, an RSpec block pasted without its
 * heading, a spec inside an installed gem, Azure Pipelines' exit-code annotations, and framing: Ant's task column, a
 * workspace runner's package column, Nix's `       > ` tail, a clock before docker compose's column. The logs are
 * written here for a small kettle library of our own, in the runners' byte layout; each rule has a case that must
 * not fire.
 */
import { describe, expect, it } from "vitest";
import { createPathMapper } from "../../../src/logs/normalize.ts";
import { parseLog } from "../../../src/logs/index.ts";
import { unmangleBullet } from "../../../src/logs/parsers/jest.ts";
import { prefixOf } from "../../../src/logs/prefix.ts";

const parsed = (lines: string[]) => parseLog(lines.join("\n"));
const found = (lines: string[]) => parsed(lines).failures.map((f) => [f.test, f.file, f.line]);
const ids = (lines: string[]) => parsed(lines).failures.map((f) => f.test);

describe("cargo doc-tests", () => {
  it("reads a crate-level doc-test's name, with its two spaces", () => {
    const log = [
      "   Doc-tests kettle",
      "",
      "running 2 tests",
      "test src/lib.rs - pour (line 12) ... ok",
      "test src/lib.rs -  (line 3) ... FAILED",
      "",
      "failures:",
      "",
      "---- src/lib.rs -  (line 3) stdout ----",
      "Test executable failed (exit status: 101).",
      "",
      "failures:",
      "    src/lib.rs -  (line 3)",
      "",
      "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.21s",
    ];
    expect(ids(log)).toEqual(["src/lib.rs -  (line 3)"]);
  });

  // f10w: the doc-test program's own panic (same file, column 1) is a line of the program rustdoc builds, not of
  // src/pour.rs, so the failure is placed at the doc comment's line that the test's name gives.
  it("fails a doc-test whose panic is pasted alone, at the doc comment's line its name gives", () => {
    const log = [
      "thread 'src/pour.rs - pour::half (line 7)' panicked at 'test executable failed:",
      "",
      "thread 'main' panicked at 'assertion failed: `(left == right)`",
      "  left: `249`,",
      " right: `250`', src/pour.rs:9:1",
    ];
    expect(found(log)).toEqual([["src/pour.rs - pour::half (line 7)", "src/pour.rs", 7]]);
  });

  it("places a panic of Rust before 1.14, which printed no column", () => {
    const log = [
      "running 1 test",
      "test pour ... FAILED",
      "",
      "failures:",
      "",
      "---- pour stdout ----",
      "\tthread 'pour' panicked at 'assertion failed: kettle.full()', src/pour.rs:90",
      "note: Run with `RUST_BACKTRACE=1` for a backtrace.",
      "",
      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured",
    ];
    expect(found(log)).toEqual([["pour", "src/pour.rs", 90]]);
  });

  it("names no test from a program's or a worker thread's panic pasted alone", () => {
    expect(ids(["thread 'main' panicked at src/main.rs:4:5:", "kettle is empty"])).toEqual([]);
    expect(ids(["thread 'tokio-runtime-worker' panicked at 'boiled dry', src/heat.rs:3:9"])).toEqual([]);
  });
});

describe("libtest at the tail of a Nix build", () => {
  const tail = [
    "error: builder for '/nix/store/0k2v-kettle-0.3.0.drv' failed with exit code 101;",
    "       last 12 log lines:",
    "       > Running phase: checkPhase",
    "       >      Running unittests src/lib.rs (target/release/deps/kettle-4f1c)",
    "       >",
    "       > running 2 tests",
    "       > test pour::tests::half ... FAILED",
    "       > test pour::tests::full ... ok",
    "       >",
    "       > failures:",
    "       >     pour::tests::half",
    "       >",
    "       > test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "       For full logs, run 'nix log /nix/store/0k2v-kettle-0.3.0.drv'.",
  ];

  it("reads the tail's test and takes Nix's error for no build failure", () => {
    const r = parsed(tail);
    expect(r.failures.map((f) => [f.category, f.test])).toEqual([["test", "pour::tests::half"]]);
    // The same behind a remote builder's `remote: `.
    expect(ids(tail.map((l) => `remote: ${l}`))).toEqual(["pour::tests::half"]);
  });

  it("takes only Nix's seven columns as its tail marker", () => {
    expect(prefixOf("       > test a ... ok")).toEqual({ shape: "nix-tail", length: 9 });
    expect(prefixOf("       >")).toEqual({ shape: "nix-tail", length: 8 });
    // jest's code frame line and a quote indented otherwise are not.
    expect(prefixOf("    > 12 |     expect(pour(500)).toBe(250);")).toBeNull();
    expect(prefixOf("   > a quote")).toBeNull();
  });
});

describe("framing columns", () => {
  it("strips Ant's task column, right-aligned to column 11, and nothing like it", () => {
    expect(prefixOf("     [exec] running tests")).toEqual({ shape: "ant:exec", length: 12 });
    expect(prefixOf("    [junit] Tests run: 3")).toEqual({ shape: "ant:junit", length: 12 });
    // Playwright's project label before its separator, a column-0 tag, a label off Ant's column.
    expect(prefixOf("    [webkit] › pour.spec.ts:3:1 › pours")).toBeNull();
    expect(prefixOf(" [chromium] › pour.spec.ts:3:1 › pours")).toBeNull();
    expect(prefixOf("[exec] running tests")).toBeNull();
    expect(prefixOf("  [exec] running tests")).toBeNull();
  });

  it("strips a workspace runner's package column, not a tool's word before a colon", () => {
    expect(prefixOf("@kettle/core:   3 passing (12ms)")).toEqual({
      shape: "workspace:@kettle/core",
      length: 14,
    });
    expect(prefixOf("kettle-core: 3 passing")).toEqual({ shape: "workspace:kettle-core", length: 13 });
    expect(prefixOf("@kettle/core:")).toEqual({ shape: "workspace:@kettle/core", length: 13 });
    for (const l of ["error: could not compile `kettle`", "hint: use --force", "go: downloading x v1.0.0"])
      expect(prefixOf(l)).toBeNull();
  });

  it("reads mocha's failures under a package column, titles on three lines", () => {
    const p = "@kettle/core: ";
    const log = [
      `${p}  12 passing (40ms)`,
      `${p}  1 failing`,
      `${p}`,
      `${p}  1) Kettle`,
      `${p}       pour`,
      `${p}         gives half a litre:`,
      `${p}      AssertionError: expected 249 to equal 250`,
      `${p}      at Context.<anonymous> (test/pour.spec.ts:14:20)`,
      `${p}`,
    ];
    expect(found(log)).toEqual([["Kettle > pour > gives half a litre", "test/pour.spec.ts", 14]]);
  });

  it("strips a service column behind a clock column (docker compose under a timestamping CI)", () => {
    const rule = "─".repeat(60);
    const log = [
      "13:08:09   ✘  1 [webkit] › pour.spec.ts:3:1 › pours half (2.1s)",
      "13:08:09 web-1       |",
      `13:08:09 web-1       |   1) [webkit] › pour.spec.ts:3:1 › pours half ${rule}`,
      "13:08:09 web-1       |",
      "13:08:09 web-1       |     Error: expect(received).toBe(expected)",
      "13:08:10 web-1       |",
      "13:08:10 web-1       |     Expected: 250",
      "13:08:10 web-1       |     Received: 249",
      "13:08:10 web-1       |",
      "13:08:10 web-1       |   1 failed",
      "13:08:10 web-1       |     [webkit] › pour.spec.ts:3:1 › pours half",
    ];
    expect(ids(log)).toEqual(["pour.spec.ts > pours half"]);
  });

  it("keeps a clock-only log as it was (no column behind it)", () => {
    const log = [
      "13:08:09 FAILED tests/test_pour.py::test_half - assert 249 == 250",
      "13:08:09 ========================= 1 failed, 3 passed in 0.12s =========================",
      "13:08:10 done",
    ];
    expect(ids(log)).toEqual(["tests/test_pour.py::test_half"]);
  });
});

describe("TRX", () => {
  const result = (name: string, outcome: string, body: string[] = []) => [
    ` <UnitTestResult executionId="1" testId="2" testName="${name}" computerName="ci" duration="00:00:00.01" outcome="${outcome}" testType="13cdc9d9-ddb5-4fa4-a97d-d965ccfc6d4b">`,
    ...body,
    " </UnitTestResult>",
  ];
  const failure = [
    "   <Output>",
    "     <ErrorInfo>",
    "       <Message>Assert.Equal() Failure: expected 250, actual 249</Message>",
    "       <StackTrace>   at Kettle.Tests.PourTests.Half() in /home/ci/actions-runner/_work/kettle/kettle/tests/Kettle.Tests/PourTests.cs:line 11</StackTrace>",
    "     </ErrorInfo>",
    "   </Output>",
  ];

  it("reads a UnitTestResult pasted without its TestRun, and a self-hosted runner's checkout", () => {
    expect(found(result("Kettle.Tests.PourTests.Half", "Failed", failure))).toEqual([
      ["Kettle.Tests.PourTests.Half", "tests/Kettle.Tests/PourTests.cs", 11],
    ]);
  });

  it("fails a result that timed out, and not one that did not run", () => {
    const log = [
      "<Results>",
      ...result("Kettle.Tests.PourTests.Slow", "Timeout"),
      ...result("Kettle.Tests.PourTests.Full", "NotExecuted"),
      ...result("Kettle.Tests.PourTests.Empty", "PassedButRunAborted"),
      "</Results>",
    ];
    const r = parsed(log);
    expect(r.failures.map((f) => f.test)).toEqual(["Kettle.Tests.PourTests.Slow"]);
    expect(r.counts["trx"]).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
  });

  it("reads no fragment from an element named in prose, and ends a fragment at the log's next line", () => {
    expect(ids(['see the <UnitTestResult outcome="Failed"> element in the report'])).toEqual([]);
    const r = parsed([...result("Kettle.Tests.PourTests.Half", "Failed", failure), "Build FAILED."]);
    expect(r.failures.map((f) => f.test)).toEqual(["Kettle.Tests.PourTests.Half"]);
  });

  it("maps a self-hosted runner's checkout only at a `_work` directory of its own", () => {
    const map = createPathMapper();
    expect(map("at /srv/runner/_work/kettle/kettle/src/pour.ts:3:1")).toBe("at src/pour.ts:3:1");
    expect(map("at /srv/my_work/kettle/kettle/src/pour.ts:3:1")).toBe(
      "at /srv/my_work/kettle/kettle/src/pour.ts:3:1",
    );
  });
});

describe("jest blocks with no FAIL line", () => {
  const body = (file: string, line: number) => [
    "",
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    "    Expected: 250",
    "    Received: 249",
    "",
    `      ${line - 1} |   it('pours half', () => {`,
    `    > ${line} |     expect(pour(500)).toBe(250);`,
    "         |                       ^",
    "",
    `      at Object.<anonymous> (${file}:${line}:23)`,
    "",
  ];

  it("takes the test file from the block's outermost frame in the repository", () => {
    const log = [
      "  ● Kettle › pours half",
      ...body("test/pour.test.js", 7),
      "  ● Kettle › pours a full litre",
      "",
      "    TypeError: Cannot read properties of undefined (reading 'litres')",
      "",
      "      at litresOf (src/kettle.js:12:9)",
      "      at Object.<anonymous> (test/full.test.js:4:5)",
      "",
    ];
    expect(found(log)).toEqual([
      ["test/pour.test.js > Kettle > pours half", "test/pour.test.js", 7],
      ["test/full.test.js > Kettle > pours a full litre", "src/kettle.js", 12],
    ]);
  });

  it("reads a header that lost its indentation, or has an HTML tag before it", () => {
    expect(ids(["`● Kettle › pours half", ...body("test/pour.test.js", 7), "`"])).toEqual([
      "test/pour.test.js > Kettle > pours half",
    ]);
    expect(ids(["<h4>  ● Kettle › pours half", ...body("test/pour.test.js", 7), "</h4>"])).toEqual([
      "test/pour.test.js > Kettle > pours half",
    ]);
  });

  it("reads bullets lost to a console's encoding", () => {
    expect(unmangleBullet("  ??? Kettle ??? pours half")).toBe("  ● Kettle › pours half");
    expect(unmangleBullet("  â—\u008f Kettle â€º pours half")).toBe("  ● Kettle › pours half");
    expect(unmangleBullet("  ? Kettle ? pours half")).toBe("  ● Kettle › pours half");
    expect(ids(["  ??? Kettle ??? pours half", ...body("test/pour.test.js", 7)])).toEqual([
      "test/pour.test.js > Kettle > pours half",
    ]);
    // Under a FAIL header, the one-character damage too.
    expect(
      ids(["FAIL test/pour.test.js", "  ? Kettle ? pours half", ...body("test/pour.test.js", 7)]),
    ).toEqual(["test/pour.test.js > Kettle > pours half"]);
  });

  it("forms no id without a frame or without jest's body, and leaves other bullets alone", () => {
    // Cut after the header: no file.
    expect(ids(["  ● Kettle › pours half", "", "    expect(received).toBe(expected)", ""])).toEqual([]);
    // systemd's status: a bullet, indented lines, no expect and no code frame.
    const status = [
      "● kettle.service - Kettle daemon",
      "     Loaded: loaded (/etc/systemd/system/kettle.service; enabled)",
      "     Active: failed (Result: exit-code)",
      "    at boil (/usr/lib/kettle/heat.js:3:4)",
    ];
    expect(ids(status)).toEqual([]);
    // difflib's hint line in a unittest failure is no damaged bullet: unittest still reads its failure.
    const unittest = [
      "======================================================================",
      "FAIL: test_half (tests.test_pour.PourTest.test_half)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/home/me/kettle/tests/test_pour.py", line 9, in test_half',
      '    self.assertEqual(pour("half"), "halt")',
      "AssertionError: 'half' != 'halt'",
      "- half",
      "?    ^",
      "+ halt",
      "?    ^",
      "",
      "",
      "----------------------------------------------------------------------",
      "Ran 1 test in 0.001s",
      "",
      "FAILED (failures=1)",
    ];
    expect(ids(unittest)).toEqual(["tests.test_pour.PourTest.test_half"]);
  });
});

describe("a red summary that names no test", () => {
  it("jest's bare counts make the run red, not a failure", () => {
    const r = parsed([
      "Test Suites: 1 failed, 4 passed, 5 total",
      "Tests:       2 failed, 40 passed, 42 total",
      "Snapshots:   0 total",
      "Time:        3.2 s",
    ]);
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toEqual(["jest"]);
  });

  it("jest's green counts are green, and PHPUnit's count line stays PHPUnit's", () => {
    const green = parsed(["Test Suites: 5 passed, 5 total", "Tests:       1 skipped, 41 passed, 42 total"]);
    expect(green.unnamedFailuresIn).toBeUndefined();
    expect(green.counts["jest"]).toMatchObject({ passed: 41, skipped: 1 });
    const phpunit = parsed(["FAILURES!", "Tests: 5, Assertions: 9, Failures: 1."]);
    expect(phpunit.formats).not.toContain("jest");
  });

  it("Julia's summary table and its error make the run red; a table with no Fail column is green", () => {
    const red = parsed([
      "Test Failed at /home/me/Kettle.jl/test/runtests.jl:5",
      "  Expression: pour(500) == 250",
      "   Evaluated: 249 == 250",
      "Test Summary: | Pass  Fail  Total  Time",
      "Kettle        |    3     1      4  0.2s",
      "  pour        |    1     1      2  0.1s",
      "  boil        |    2            2  0.1s",
      "ERROR: LoadError: Some tests did not pass: 3 passed, 1 failed, 0 errored, 0 broken.",
    ]);
    // The table's one failing leaf names the failure (f10ba's leaf-row rule); the path is outside any checkout
    // Retrace knows, so it is not placed.
    expect(red.failures.map((f) => [f.format, f.test, f.file])).toEqual([["julia", "Kettle/pour", null]]);
    expect(red.unnamedFailuresIn).toBeUndefined();
    expect(red.counts["julia"]).toMatchObject({ passed: 3, failed: 1 });
    const green = parsed(["Test Summary: | Pass  Total  Time", "Kettle        |    4      4  0.2s"]);
    expect(green.unnamedFailuresIn).toBeUndefined();
    expect(green.counts["julia"]).toMatchObject({ passed: 4 });
    // The error alone (the table above the paste).
    expect(
      parsed(["ERROR: LoadError: Some tests did not pass: 3 passed, 0 failed, 1 errored, 0 broken."])
        .unnamedFailuresIn,
    ).toEqual(["julia"]);
  });
});

describe("RSpec", () => {
  it("reads a block pasted without its Failures: heading, by RSpec's Failure/Error line", () => {
    const log = [
      "1) Kettle#pour ",
      "     Failure/Error: it { should pour 250 }",
      "       expected 250, got 249",
      "     # ./spec/kettle_spec.rb:15:in `block (3 levels) in <top (required)>'",
      "",
      "  2) Kettle#boil raises when empty",
      "     Failure/Error: expect { kettle.boil }.to raise_error(Kettle::Empty)",
      "       expected Kettle::Empty but nothing was raised",
      "     # ./spec/kettle_spec.rb:22:in `block (2 levels) in <top (required)>'",
    ];
    expect(found(log)).toEqual([
      ["spec/kettle_spec.rb > Kettle#pour", "spec/kettle_spec.rb", 15],
      ["spec/kettle_spec.rb > Kettle#boil raises when empty", "spec/kettle_spec.rb", 22],
    ]);
  });

  it("takes no numbered block without Failure/Error (mocha, minitest, a list)", () => {
    expect(ids(["1) Kettle pours half", "   it poured 249", "   # ./spec/kettle_spec.rb:15"])).toEqual([]);
    expect(ids(["1) buy a kettle", "2) fill it"])).toEqual([]);
  });

  it("takes the spec file of an installed gem's own specs, not RSpec's gems", () => {
    const log = [
      "Failures:",
      "",
      "  1) Kettle pours half",
      "     Failure/Error: Kettle.pour(500).should == 250",
      "       expected: 250",
      "            got: 249 (using ==)",
      "     # /usr/share/gems/gems/rspec-expectations-3.12.0/lib/rspec/expectations/fail_with.rb:29:in `fail_with'",
      "     # /usr/share/gems/gems/kettle-1.2.0/spec/kettle_spec.rb:15",
      "     # /usr/share/gems/gems/rspec-core-3.12.0/lib/rspec/core/example.rb:48:in `instance_eval'",
    ];
    expect(found(log)).toEqual([["spec/kettle_spec.rb > Kettle pours half", "spec/kettle_spec.rb", 15]]);
  });
});

describe("Azure Pipelines' exit-code annotations", () => {
  it("are no failure: they name no test and no file", () => {
    for (const l of [
      "##[error]Error: The process '/usr/bin/dotnet' failed with exit code 1",
      "##[error]Bash exited with code '1'.",
      "##[error]PowerShell exited with code '1'.",
      "##[error]Cmd.exe exited with code '1'.",
      "##[error]Script failed with exit code: 2",
      "##[error]Dotnet command failed with non-zero exit code on the following projects : /a/Kettle.Tests.csproj",
    ])
      expect(ids(["No Result Found to Publish '/a/_temp/run.trx'.", l])).toEqual([]);
  });

  it("an annotation that says what failed is still read", () => {
    const r = parsed(["##[error]src/Kettle/Pour.cs(12,5): error CS1002: ; expected"]);
    expect(r.failures.length).toBe(1);
  });
});
