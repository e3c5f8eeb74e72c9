/**
 * hold37's test-half classes (issue 10, scored at session 24's end, so tainted now): a bare `error:` that a test
 * prints between libtest's `running N tests` and its result under `--nocapture`, and zig's closing `error: the
 * following build command failed with exit code 1:`, both read as a rustc build failure (`build:null`); Crystal's spec
 * runner (RSpec's layout for `_spec.cr`); automake's summary box cut after its head, read as a count of zero. Each rule
 * with the logs it must leave alone. The logs are written here for a small lighthouse project of our own, in the
 * runners' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const lines = (...l: string[]) => l.join("\n");
const failures = (log: string) => parseLog(log).failures.map((f) => [f.category, f.test, f.file, f.line]);

describe("cargo: a bare error: inside a test run is the tests' output", () => {
  const run = (...body: string[]) =>
    lines(
      "+ cargo test -- --nocapture",
      "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.19s",
      "     Running unittests src/lib.rs (target/debug/deps/lighthouse-3f1c24113726f165)",
      "",
      "running 2 tests",
      ...body,
    );

  it("a green run that prints `error:` yields no failure", () => {
    const log = run(
      "test tests::beam_turns ... ok",
      "error: fog horn not wired (printed by the test)",
      "test tests::beam_sweeps ... ok",
      "",
      "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      "",
    );
    expect(failures(log)).toEqual([]);
    expect(parseLog(log).tests.map((t) => t.outcome)).toEqual(["passed", "passed"]);
  });

  it("a failing test's printed error: stays in its failure, with its place (counter-example)", () => {
    const log = run(
      "test tests::beam_turns ... ok",
      "test tests::beam_sweeps ... FAILED",
      "",
      "failures:",
      "",
      "---- tests::beam_sweeps stdout ----",
      "error: lens cracked",
      "",
      "thread 'tests::beam_sweeps' panicked at src/lib.rs:40:9:",
      "assertion `left == right` failed",
      "  left: 3",
      " right: 4",
      "",
      "failures:",
      "    tests::beam_sweeps",
      "",
      "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      "",
      "error: test failed, to rerun pass `--lib`",
    );
    expect(failures(log)).toEqual([["test", "tests::beam_sweeps", "src/lib.rs", 40]]);
    expect(parseLog(log).failures[0]!.stack).toContain("error: lens cracked");
  });

  it("rustc's errors before any run stay build failures, with and without a code (counter-example)", () => {
    const log = lines(
      "   Compiling lighthouse v0.1.0 (/work/lighthouse)",
      "error[E0425]: cannot find value `beam` in this scope",
      "  --> src/lib.rs:12:5",
      "   |",
      "12 |     beam",
      "   |     ^^^^ not found in this scope",
      "",
      "error: could not compile `lighthouse` (lib test) due to 1 previous error",
    );
    expect(failures(log)).toEqual([["build", null, "src/lib.rs", 12]]);
    const bare = lines(
      "   Compiling lighthouse v0.1.0 (/work/lighthouse)",
      "error: expected one of `!` or `::`, found `lamp`",
      " --> src/lib.rs:3:5",
      "",
      "error: could not compile `lighthouse` (lib) due to 1 previous error",
    );
    expect(failures(bare)).toEqual([["build", null, "src/lib.rs", 3]]);
  });

  it("a doc-test's compile error inside its run keeps its code and is the doc-test's failure (counter-example)", () => {
    const log = lines(
      "   Doc-tests lighthouse",
      "",
      "running 1 test",
      "test src/lib.rs - flash (line 3) ... FAILED",
      "",
      "failures:",
      "",
      "---- src/lib.rs - flash (line 3) stdout ----",
      "error[E0425]: cannot find value `lamp` in this scope",
      " --> src/lib.rs:5:1",
      "",
      "failures:",
      "    src/lib.rs - flash (line 3)",
      "",
      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s",
    );
    expect(failures(log).map((f) => f[1])).toEqual(["src/lib.rs - flash (line 3)"]);
  });
});

describe("a build tool's exit status under a bare error: is no rustc diagnostic", () => {
  it("zig build's closing line: only zig's failed test is reported", () => {
    const log = lines(
      "$ zig build test",
      "run test: error: 'test.beam_turns' failed",
      "run test: error: the following test command failed:",
      "/home/me/lighthouse/zig-cache/o/0123456789abcdef/test --listen=-",
      "Build Summary: 1/3 steps succeeded; 1 failed; 2/3 tests passed; 1 failed",
      "error: the following build command failed with exit code 1:",
      "/home/me/lighthouse/zig-cache/o/fedcba9876543210/build /usr/bin/zig /home/me/lighthouse test",
    );
    expect(failures(log)).toEqual([["test", "test.beam_turns", null, null]]);
  });

  it("an error: that names no command is still read (counter-example)", () => {
    const log = lines(
      "   Compiling lighthouse v0.1.0 (/work/lighthouse)",
      "error: linking with `cc` failed: exit status: 1",
      "  |",
      "  = note: /usr/bin/ld: cannot find -lbeam",
      "",
      "error: could not compile `lighthouse` (lib test) due to 1 previous error",
    );
    expect(failures(log).map((f) => f[0])).toEqual(["build"]);
  });
});

describe("Crystal spec: RSpec's layout for _spec.cr files", () => {
  const log = (...tail: string[]) =>
    lines(
      "Failures:",
      "",
      "  1) Lighthouse beam turns clockwise",
      "     Failure/Error: beam.direction.should eq :cw",
      "",
      "       Expected: :cw",
      "            got: :ccw",
      "",
      "     # ./spec/beam_spec.cr:14",
      "",
      "Finished in 3.1 milliseconds",
      ...tail,
    );

  it("takes the file from the re-run line and counts errors as failed examples", () => {
    const parsed = parseLog(
      log(
        "5 examples, 1 failures, 1 errors, 0 pending",
        "",
        "Failed examples:",
        "",
        "crystal spec ./spec/beam_spec.cr:12 # Lighthouse beam turns clockwise",
      ),
    );
    expect(
      failures(
        log(
          "3 examples, 1 failures, 0 errors, 0 pending",
          "",
          "Failed examples:",
          "",
          "crystal spec ./spec/beam_spec.cr:12 # Lighthouse beam turns clockwise",
        ),
      ),
    ).toEqual([["test", "spec/beam_spec.cr > Lighthouse beam turns clockwise", "spec/beam_spec.cr", 14]]);
    // 5 examples less 1 failure and 1 error.
    expect(parsed.counts.rspec).toMatchObject({ passed: 3 });
    // No RSpec matcher error is invented for a Crystal spec.
    expect(parsed.failures[0]!.errorType).toBeNull();
  });

  it("RSpec's own count line and re-run lines read as before (counter-example)", () => {
    const rb = lines(
      "Failures:",
      "",
      "  1) Lighthouse beam turns clockwise",
      "     Failure/Error: expect(beam.direction).to eq(:cw)",
      "",
      "       expected: :cw",
      "            got: :ccw",
      "",
      "     # ./spec/beam_spec.rb:14:in `block (2 levels) in <top (required)>'",
      "",
      "Finished in 0.01 seconds (files took 0.1 seconds to load)",
      "3 examples, 1 failure, 1 pending",
      "",
      "Failed examples:",
      "",
      "rspec ./spec/beam_spec.rb:12 # Lighthouse beam turns clockwise",
    );
    const parsed = parseLog(rb);
    expect(failures(rb)).toEqual([
      ["test", "spec/beam_spec.rb > Lighthouse beam turns clockwise", "spec/beam_spec.rb", 14],
    ]);
    expect(parsed.counts.rspec).toMatchObject({ passed: 1, skipped: 1 });
    expect(parsed.failures[0]!.errorType).toBe("RSpec::Expectations::ExpectationNotMetError");
  });
});

describe("automake: a summary box cut after its head counts nothing", () => {
  const results = [
    "make[2]: Entering directory '/home/me/lighthouse/tests'",
    "PASS: beam",
    "FAIL: horn",
    "PASS: lens",
  ];
  const rule = "=".repeat(76);

  it("the FAIL line above a cut box is the failure (no zero count reads the run as green)", () => {
    expect(
      failures(lines(...results, rule, "Testsuite summary for lighthouse 1.0", "================")),
    ).toEqual([["test", "horn", null, null]]);
  });

  it("a whole box still counts, and a green box still clears the run (counter-examples)", () => {
    const whole = lines(
      ...results,
      rule,
      "Testsuite summary for lighthouse 1.0",
      rule,
      "# TOTAL: 3",
      "# PASS:  2",
      "# SKIP:  0",
      "# XFAIL: 0",
      "# FAIL:  1",
      "# XPASS: 0",
      "# ERROR: 0",
      rule,
    );
    expect(failures(whole)).toEqual([["test", "horn", null, null]]);
    expect(parseLog(whole).counts.automake).toMatchObject({ passed: 2, failed: 1 });
    const green = lines(
      "PASS: beam",
      "PASS: lens",
      rule,
      "Testsuite summary for lighthouse 1.0",
      rule,
      "# TOTAL: 2",
      "# PASS:  2",
      "# SKIP:  0",
      "# XFAIL: 0",
      "# FAIL:  0",
      "# XPASS: 0",
      "# ERROR: 0",
      rule,
    );
    expect(failures(green)).toEqual([]);
    expect(parseLog(green).counts.automake).toMatchObject({ passed: 2, failed: 0 });
  });
});
