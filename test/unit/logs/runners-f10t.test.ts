/**
 * Runner shapes added on branch f10t (misses of the hold27 corpus, tainted once scored). Each log is written here
 * for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("pytest -s -v: a test's own output between `path::name ` and its outcome", () => {
  it("a passing test that prints `FAILED …` and a count line of its own, under a closing count of passes only: no failure", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 2 items",
      "",
      "tests/test_oven.py::test_echoes_words FAILED tests/test_oven.py::test_other - old run",
      "=== 1 failed, 2 passed in 0.01s ===",
      "PASSED",
      "tests/test_oven.py::test_plain PASSED",
      "",
      "============================== 2 passed in 0.41s ===============================",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });

  it("must fire: the same FAILED line under a closing count that counts the failure (no short summary, -rN)", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 2 items",
      "",
      "tests/test_oven.py::test_heats FAILED",
      "tests/test_oven.py::test_plain PASSED",
      "",
      "========================= 1 failed, 1 passed in 0.41s ==========================",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["tests/test_oven.py::test_heats"]);
  });

  it("must fire: a log cut before its closing count keeps the FAILED outcome", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 2 items",
      "",
      "tests/test_oven.py::test_heats FAILED                                    [ 50%]",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["tests/test_oven.py::test_heats"]);
  });
});

describe("autopkgtest's bare elapsed seconds before each line", () => {
  it("`148s ` before each line of a go -v run is framing", () => {
    const log = [
      "148s === RUN   TestKilnHeats",
      "148s     kiln_test.go:80: want 900 got 850",
      "148s --- FAIL: TestKilnHeats (0.00s)",
    ].join("\n");
    expect(found(log)).toEqual([["TestKilnHeats", "kiln_test.go", 80]]);
  });

  it("must not fire: a single line opening with seconds keeps its text", () => {
    const log = ["12s elapsed; 3 tests", "--- FAIL: TestKilnCools (0.00s)", "    kiln_test.go:9: cold"].join(
      "\n",
    );
    expect(found(log).map((f) => f[0])).toEqual(["TestKilnCools"]);
  });
});

describe("go build failure in a GOPATH checkout", () => {
  it("the compiler's src/<import path>/ file is named inside its repository", () => {
    const log = [
      "# github.com/potter/kiln/glaze",
      "src/github.com/potter/kiln/glaze/mix_test.go:12: constant 300 overflows byte",
      "FAIL\tgithub.com/potter/kiln/glaze [build failed]",
    ].join("\n");
    expect(found(log)).toEqual([[null, "glaze/mix_test.go", 12]]);
  });

  it("a package off a code host is named from its own directory; a relative file is kept", () => {
    const log = [
      "# kiln.example/glaze",
      "/home/u/go/src/kiln.example/glaze/mix_test.go:3:1: undefined: Mix",
      "FAIL\tkiln.example/glaze [build failed]",
      "# github.com/potter/kiln",
      "./oven_test.go:7:2: undefined: Oven",
      "FAIL\tgithub.com/potter/kiln [build failed]",
    ].join("\n");
    expect(found(log)).toEqual([
      [null, "mix_test.go", 3],
      [null, "oven_test.go", 7],
    ]);
  });
});

describe("jest 22's file header, the duration without its space", () => {
  it("`FAIL x.ts (6.658s)` in the summary of failing tests names the failure's file", () => {
    const log = [
      "PASS __tests__/glaze.ts",
      "",
      "Summary of all failing tests",
      "FAIL __tests__/kiln/heats.ts (6.658s)",
      "  ● kiln heats to cone 6",
      "",
      "    expect(received).toBe(expected)",
      "",
      "      at Object.<anonymous> (__tests__/kiln/heats.ts:9:20)",
    ].join("\n");
    expect(found(log).map((f) => [f[0], f[1]])).toEqual([
      ["__tests__/kiln/heats.ts > kiln heats to cone 6", "__tests__/kiln/heats.ts"],
    ]);
  });

  it("must not fire: gotestsum's `FAIL pkg.TestX (0.00s)` is no jest header", () => {
    const log = ["FAIL kiln.TestHeats (0.00s)", "  ● kiln heats"].join("\n");
    expect(found(log).some((f) => String(f[0]).includes(" > "))).toBe(false);
  });
});

describe("libtest: a pasted doc-test block", () => {
  it("rustdoc's `Test executable failed` makes the block a failure; the item-less name has one space", () => {
    const log = [
      "---- src/lib.rs - (line 29) stdout ----",
      "Test executable failed (exit code 101).",
      "stderr:",
      "thread 'main' panicked at 'assertion failed: a >= 64', src/lib.rs:10:1",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["src/lib.rs - (line 29)"]);
  });

  it("must not fire: a block of another name with the same line, nor a doc-test block with no failure", () => {
    const log = [
      "---- kiln_heats stdout ----",
      "Test executable failed (exit code 101).",
      "",
      "---- src/lib.rs - kiln (line 3) stdout ----",
      "hello from the example",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("a Kotlin spec framework's assertion stack alone", () => {
  const stack = (caller: string) =>
    [
      "org.opentest4j.AssertionFailedError: expected: [1] but was: []",
      "\tat org.potter.KilnTests$1$3.invokeSuspend(KilnTests.kt:40)",
      "\tat org.potter.KilnTests$1$3.invoke(KilnTests.kt)",
      `\tat ${caller}`,
      "\tat java.base/java.lang.Thread.run(Thread.java:830)",
    ].join("\n");

  it("the lambda kotlintest ran (its `invoke`, a frame with no line) is the test", () => {
    const log = stack(
      "io.kotlintest.runner.jvm.TestCaseExecutor$run$1.invokeSuspend(TestCaseExecutor.kt:133)",
    );
    expect(found(log).map((f) => [f[0], f[2]])).toEqual([["org.potter.KilnTests$1$3.invoke", 40]]);
  });

  it("must not fire: the same anonymous frame called by the JDK (a Runnable inside a test)", () => {
    const log = stack(
      "java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1128)",
    );
    expect(found(log)).toEqual([]);
  });
});
