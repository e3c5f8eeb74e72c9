/**
 * Runs a paste or a killed job cut before the runner printed its details: libtest progress lines with no
 * `failures:` section, a `go test -json` stream cut before the test's `fail` event, and old pytest setup
 * blocks whose missing fixture has no `E   ` prefix. Each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("libtest progress lines", () => {
  it("a FAILED progress line with no failures section is a failing test", () => {
    const log = [
      "running 3 tests",
      "test parse::empty ... ok",
      "test parse::nested ... FAILED",
      "test render ... ignored",
      "",
    ].join("\n");
    expect(found(log)).toEqual([["parse::nested", null, null]]);
  });

  it("a FAILED test with its stdout block is reported once, from the block", () => {
    const log = [
      "running 2 tests",
      "test a ... ok",
      "test b ... FAILED",
      "",
      "failures:",
      "",
      "---- b stdout ----",
      "thread 'b' panicked at src/lib.rs:9:5:",
      "assertion failed: false",
      "",
      "failures:",
      "    b",
      "",
      "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
      "",
    ].join("\n");
    expect(found(log)).toEqual([["b", "src/lib.rs", 9]]);
  });

  it("nothing from progress lines that all passed, nor from a FAILED line outside a run", () => {
    const green = ["running 2 tests", "test a ... ok", "test b ... ignored", ""].join("\n");
    expect(found(green)).toEqual([]);
    const prose = ["I ran the suite and saw", "test b ... FAILED", "on my machine", ""].join("\n");
    expect(found(prose)).toEqual([]);
  });
});

describe("go test -json cut before the fail event", () => {
  const ev = (action: string, test: string, output?: string) =>
    JSON.stringify({
      Time: "2020-05-19T10:14:26.98+09:00",
      Action: action,
      Package: "example.com/m",
      Test: test,
      ...(output === undefined ? {} : { Output: output }),
    });

  it("the test's own `--- FAIL:` output line makes it failed", () => {
    const log = [
      ev("run", "TestPanic"),
      ev("output", "TestPanic", "=== RUN   TestPanic\n"),
      ev("output", "TestPanic", "--- FAIL: TestPanic (0.00s)\n"),
      ev("output", "TestPanic", "panic: boom [recovered]\n"),
      '{"Time":"2020-05-19T10:14:26.99+09:00","Action":"output","Package":"',
      "",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["example.com/m.TestPanic"]);
  });

  it("not a test still running, nor a test whose output names another test's failure", () => {
    const running = [ev("run", "TestA"), ev("output", "TestA", "=== RUN   TestA\n"), ""].join("\n");
    expect(found(running)).toEqual([]);
    const other = [
      ev("run", "TestA"),
      ev("output", "TestA", "=== RUN   TestA\n"),
      ev("output", "TestA", "    a_test.go:9: expected --- FAIL: TestB (0.00s) in the report\n"),
      ev("output", "TestA", "--- FAIL: TestAB (0.00s)\n"),
      "",
    ].join("\n");
    expect(found(other)).toEqual([]);
    const passed = [
      ev("run", "TestA"),
      ev("output", "TestA", "--- FAIL: TestA (0.00s)\n"),
      ev("pass", "TestA"),
      "",
    ].join("\n");
    expect(found(passed)).toEqual([]);
  });
});

describe("old pytest setup errors", () => {
  const block = (evidence: string) =>
    [
      "_______________ ERROR at setup of test_collect ________________",
      "file /builddir/build/BUILD/proj-1.3.0/tests/test_collector.py, line 69",
      "  def test_collect(prepare_dirs, mocker):",
      evidence,
      "        available fixtures: pytestconfig, recwarn, monkeypatch, prepare_dirs",
      "        use 'py.test --fixtures [testpath]' for help on them.",
      "",
      "/builddir/build/BUILD/proj-1.3.0/tests/test_collector.py:69",
      "=============== 28 passed, 1 error in 0.32 seconds ================",
      "",
    ].join("\n");

  it("a pasted setup block whose missing fixture has no `E   ` prefix is an error of that test", () => {
    expect(found(block("        fixture 'mocker' not found"))).toEqual([
      ["tests/test_collector.py::test_collect", "tests/test_collector.py", 69],
    ]);
  });

  it("not a pasted block with neither an `E   ` line nor a missing fixture", () => {
    expect(found(block("        mocker = prepare(dirs)"))).toEqual([]);
  });
});

describe("pytest-xdist crashed worker", () => {
  const log = (line: string) =>
    [
      "=================================== FAILURES ===================================",
      "_ tests/test_integration/test_backends/test_redis_backend/test_redis_unsupported.py _",
      "[gw3] linux -- Python 3.12.13 /home/runner/work/proj/proj/.venv/bin/python3",
      line,
      "",
    ].join("\n");

  it("a wide block title and the worker's crash line name the test it was running", () => {
    const r = parseLog(
      log(
        "worker 'gw3' crashed while running 'tests/test_integration/test_backends/test_redis_backend/test_redis_unsupported.py::test_algo[True]'",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.errorType])).toEqual([
      [
        "tests/test_integration/test_backends/test_redis_backend/test_redis_unsupported.py::test_algo[True]",
        "WorkerCrashed",
      ],
    ]);
  });

  it("not a short `_ x _` line, and the crash names its test, not the block's file", () => {
    const short = [
      "=================================== FAILURES ===================================",
      "_ note _",
      "worker 'gw0' crashed while running 'tests/test_a.py::test_b'",
      "",
    ].join("\n");
    expect(found(short)).toEqual([]);
    expect(found(log("[gw3] node down: Not properly terminated")).map((f) => f[0])).not.toContain(
      "tests/test_integration/test_backends/test_redis_backend/test_redis_unsupported.py::test_algo[True]",
    );
  });
});

describe("RSpec Failures: section with the reporter's sentence before its block", () => {
  const log = (failureLine: string) =>
    [
      "Failures:",
      "one test fails when run with rspec 3, all tests pass with rspec 2",
      "",
      "  1) Shell execute returns the output",
      failureLine,
      "       expected false to respond to `false?`",
      "     # ./spec/shell_spec.rb:19:in `block (3 levels) in <top (required)>'",
      "",
    ].join("\n");

  it("the block after the sentence is a failure", () => {
    expect(found(log("     Failure/Error: result.empty?.should be_false"))).toEqual([
      ["spec/shell_spec.rb > Shell execute returns the output", "spec/shell_spec.rb", 19],
    ]);
  });

  it("not a numbered list under a sentence without RSpec's Failure/Error line, nor after long prose", () => {
    expect(found(log("     we tried again"))).toEqual([]);
    const prose = [
      "Failures:",
      "line one of the story",
      "line two of the story",
      "line three of the story",
      "line four of the story",
      "",
      "  1) Shell execute returns the output",
      "     Failure/Error: result.empty?.should be_false",
      "     # ./spec/shell_spec.rb:19:in `block (3 levels) in <top (required)>'",
      "",
    ].join("\n");
    expect(found(prose)).toEqual([]);
  });
});
