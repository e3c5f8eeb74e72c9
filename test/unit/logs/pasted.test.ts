/**
 * Logs as people paste them in issue threads: framing prefixes on every line (a package build's elapsed
 * time, Maven's levels around another tool, docker-compose's service column, a markdown quote), and
 * failure blocks without the runner's header, session or summary. Each rule has a case where it must
 * not fire (too short a run, a block without the runner's own evidence).
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { prefixOf } from "../../../src/logs/prefix.ts";

const ids = (text: string) => parseLog(text).failures.map((f) => f.test);

describe("framing prefixes", () => {
  it("knows the shapes, and nothing else", () => {
    expect(prefixOf("[   26s] tests/x.py::t PASSED")).toEqual({ shape: "elapsed", length: 9 });
    expect(prefixOf("[INFO] --- FAIL: TestA (0.00s)")).toEqual({ shape: "level", length: 7 });
    expect(prefixOf("web_1  | FAIL src/a.test.js")?.shape).toBe("service:web");
    expect(prefixOf("> FAIL src/a.test.js")).toEqual({ shape: "quote", length: 2 });
    expect(prefixOf("[12:03:44] ok 1 - a")?.shape).toBe("clock");
    expect(prefixOf("[gw0] [ 13%] FAILED tests/x.py::t")).toBeNull();
    expect(prefixOf("[chromium] › a.spec.ts:3:1 › t")).toBeNull();
    expect(prefixOf("FAIL src/a.test.js")).toBeNull();
    expect(prefixOf("a | b")?.shape).toBe("service:a");
  });

  it("strips a build service's elapsed time from a run of lines", () => {
    const log = [
      "[   26s] + py.test-3.8 -v",
      "[   26s] ============================= test session starts ==============================",
      "[   26s] tests/test_a.py::test_one PASSED         [ 50%]",
      "[   27s] tests/test_a.py::test_two[-v] FAILED     [100%]",
      "[   27s] =================================== FAILURES ===================================",
      "[   27s] _________________________________ test_two[-v] _________________________________",
      "[   27s] ",
      "[   27s]     def test_two():",
      "[   27s] >       assert 1 == 2",
      "[   27s] E       assert 1 == 2",
      "[   27s] ",
      "[   27s] tests/test_a.py:9: AssertionError",
      "[   27s] ========================= 1 failed, 1 passed in 0.05s =========================",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["tests/test_a.py::test_two[-v]", "tests/test_a.py", 9],
    ]);
  });

  it("strips Maven's level from go output it wraps, and Surefire still reads its own lines", () => {
    const go = [
      "[INFO] ---------Exec.Out---------",
      "[INFO] --- FAIL: TestHello (0.00s)",
      "[INFO] FAIL",
      "[INFO] FAIL\texample.com/hello\t0.002s",
      "[INFO] BUILD FAILURE",
    ];
    expect(ids(go.join("\n"))).toEqual(["example.com/hello.TestHello"]);
    const surefire = [
      "[INFO] -------------------------------------------------------",
      "[INFO]  T E S T S",
      "[INFO] -------------------------------------------------------",
      "[INFO] Running com.acme.CalcTest",
      "[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.01 s <<< FAILURE! - in com.acme.CalcTest",
      "[ERROR] adds(com.acme.CalcTest)  Time elapsed: 0.01 s  <<< FAILURE!",
      "java.lang.AssertionError: expected:<3> but was:<4>",
      "\tat com.acme.CalcTest.adds(CalcTest.java:12)",
      "",
      "[INFO] ",
      "[INFO] Results:",
      "[INFO] ",
      "[ERROR] Failures: ",
      "[ERROR]   CalcTest.adds:12 expected:<3> but was:<4>",
      "[INFO] ",
      "[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0",
    ];
    expect(ids(surefire.join("\n"))).toEqual(["com.acme.CalcTest.adds"]);
  });

  it("strips docker-compose's service column and a markdown quote", () => {
    const body = [
      "--- FAIL: TestParse (0.00s)",
      "    parse_test.go:14: got 2, want 3",
      "FAIL",
      "FAIL\texample.com/p\t0.01s",
    ];
    expect(ids(body.map((l) => `api_1  | ${l}`).join("\n"))).toEqual(["example.com/p.TestParse"]);
    expect(ids(body.map((l) => `> ${l}`).join("\n"))).toEqual(["example.com/p.TestParse"]);
  });

  it("leaves a prefix seen on fewer than three lines in a row", () => {
    const log = ["> a quoted remark", "> another", "--- FAIL: TestX (0.00s)", "FAIL\texample.com/q\t0.01s"];
    expect(ids(log.join("\n"))).toEqual(["example.com/q.TestX"]);
    const r = parseLog(["> a", "> b", "plain"].join("\n"));
    expect(r.failures).toEqual([]);
  });
});

describe("failure blocks pasted without their runner's header", () => {
  it("pytest: an indented short summary, and -v FAILED lines of a log cut before its sections", () => {
    const summary = [
      "  failure_demo.py:281: AssertionError",
      "  ========================= short test summary info ==========================",
      "  FAILED failure_demo.py::test_generative[3-6] - assert (3 * 2) < 6",
      "  FAILED failure_demo.py::TestFailing::test_simple - assert 42 == 43",
    ];
    expect(ids(summary.join("\n"))).toEqual([
      "failure_demo.py::test_generative[3-6]",
      "failure_demo.py::TestFailing::test_simple",
    ]);
    const cut = ["tests/t.py::test_a PASSED  [ 50%]", "tests/t.py::test_b FAILED  [100%]"];
    expect(ids(cut.join("\n"))).toEqual(["tests/t.py::test_b"]);
    // With a FAILURES section, the blocks say which tests failed; a green summary overrules progress lines.
    expect(ids([...cut, "========== 2 passed in 0.1s =========="].join("\n"))).toEqual([]);
  });

  it("pytest: an ERROR at setup block with its fixture place, and no block without an E line", () => {
    const log = [
      "_______ ERROR at setup of TestA.test_b _______",
      "file /build/work-py39/pkg-1.0.2/tests/test_x.py, line 12",
      "      def test_b(self, testdir):",
      "E       fixture 'testdir' not found",
      "",
      "/build/work-py39/pkg-1.0.2/tests/test_x.py:12",
    ];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["tests/test_x.py::TestA::test_b", "tests/test_x.py", 12],
    ]);
    expect(ids(["_______ a heading _______", "some text", "more text"].join("\n"))).toEqual([]);
  });

  it("PHPUnit: a failure list with its first numbered entry, and not the sentence alone", () => {
    const log = [
      "There were 2 failures:",
      "",
      "1) Tests\\Feature\\ScriptsTest::testIndexRoute",
      "Failed asserting that false is true.",
      "",
      "/home/circleci/repo/vendor/laravel/framework/src/TestResponse.php:133",
      "/home/circleci/repo/tests/Feature/ScriptsTest.php:23",
      "",
      "2) Tests\\Feature\\ProcessesTest::testShow",
      "The response is not a view.",
      "",
      "/home/travis/build/acme/app/tests/Feature/ProcessesTest.php:53",
    ];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["Tests\\Feature\\ScriptsTest::testIndexRoute", "tests/Feature/ScriptsTest.php", 23],
      ["Tests\\Feature\\ProcessesTest::testShow", "tests/Feature/ProcessesTest.php", 53],
    ]);
    expect(ids(["There were 2 failures:", "", "the build broke twice"].join("\n"))).toEqual([]);
  });

  it("cargo: stdout blocks with the test's panic or the should_panic note, and not without", () => {
    const log = [
      "---- tests::adds stdout ----",
      "thread 'tests::adds' (147207) panicked at src/lib.rs:10:5:",
      "assertion `left == right` failed",
      "---- tests::panics stdout ----",
      "note: test did not panic as expected",
      "---- tests::old stdout ----",
      "\tthread 'tests::old' panicked at 'assertion failed: `(left == right)`",
      "  left: `10`,",
      " right: `0`', tests/crash.rs:155:5",
    ];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["tests::adds", "src/lib.rs", 10],
      ["tests::panics", null, null],
      ["tests::old", "tests/crash.rs", 155],
    ]);
    expect(ids(["---- tests::quiet stdout ----", "hello from the test"].join("\n"))).toEqual([]);
  });

  it("go: compile and vet errors without a column (Go before 1.10) inside a `# pkg` build block only", () => {
    const log = [
      "# github.com/acme/paxos",
      "./acceptor.go:48: Panicf call needs 1 arg but has 2 args",
      "FAIL\tgithub.com/acme/paxos [build failed]",
    ];
    expect(parseLog(log.join("\n")).failures.map((f) => [f.category, f.file, f.line, f.column])).toEqual([
      ["build", "acceptor.go", 48, null],
    ]);
    expect(
      parseLog("./acceptor.go:48: a remark in some other tool's output").failures.filter(
        (f) => f.format === "go",
      ),
    ).toEqual([]);
  });
});
