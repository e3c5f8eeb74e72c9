/**
 * Log shapes from hold14's misses (issue 10, branch f10b): build-system harnesses (automake's `make check`,
 * `meson test`) and CTest's failed list cut above its heading. Each rule has a case where it must not fire. The logs
 * are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const lines = (...l: string[]) => l.join("\n");
const rule = "=".repeat(76);

describe("automake's test harness (make check)", () => {
  const summary = (pass: number, fail: number, xfail = 0, xpass = 0, error = 0) => [
    rule,
    "Testsuite summary for kettle 1.2",
    rule,
    `# TOTAL: ${pass + fail + xfail + xpass + error}`,
    `# PASS:  ${pass}`,
    "# SKIP:  0",
    `# XFAIL: ${xfail}`,
    `# FAIL:  ${fail}`,
    `# XPASS: ${xpass}`,
    `# ERROR: ${error}`,
    rule,
  ];
  it("fails FAIL, XPASS and ERROR lines the summary box confirms, by the name printed", () => {
    const r = parseLog(
      lines(
        "make[2]: Entering directory '/build/kettle-1.2/tests'",
        "PASS: pour.sh",
        "FAIL: lid.sh",
        "XFAIL: spout.sh",
        "XPASS: handle.sh",
        "ERROR: tests/base",
        "SKIP: steam.sh",
        ...summary(1, 1, 1, 1, 1),
        "make[2]: *** [Makefile:712: test-suite.log] Error 1",
      ),
    );
    expect(r.failures.map((f) => f.test)).toEqual(["lid.sh", "handle.sh", "tests/base"]);
    expect(r.tests.find((t) => t.id === "pour.sh")?.outcome).toBe("passed");
    expect(r.tests.find((t) => t.id === "spout.sh")?.outcome).toBe("passed");
    expect(r.tests.find((t) => t.id === "steam.sh")?.outcome).toBe("skipped");
  });
  it("names a TAP test's script once, whatever its numbered lines", () => {
    const log = lines(
      "PASS: t/jar.t 1 - opens",
      "FAIL: t/jar.t 2 - closes",
      "FAIL: t/jar.t 3 - seals",
      ...summary(1, 2),
    );
    expect(ids(log)).toEqual(["t/jar.t"]);
  });
  it("is green when the summary counts no failure (an XFAIL, a test driver's crash line)", () => {
    const log = lines(
      "PASS: pour",
      '../build-aux/test-driver: line 107: 4242 Segmentation fault      "$@" > $log_file 2>&1',
      "XFAIL: crash",
      ...summary(1, 0, 1),
    );
    const r = parseLog(log);
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toBeUndefined();
  });
  it("reads the serial harness's box, and a located error in the test's own output is that test's", () => {
    const r = parseLog(
      lines(
        "make[1]: Entering directory '/home/me/kettle-1.2'",
        "Running suite(s): jar",
        "jar_io.c:88: Error in call to fwrite: Broken pipe",
        "FAIL: runner",
        "==================",
        "1 of 1 test failed",
        "==================",
        "make[1]: *** [Makefile:902: check-TESTS] Error 1",
      ),
    );
    expect(r.failures.map((f) => [f.format, f.test])).toEqual([["automake", "runner"]]);
  });
  it("fails the test a driver trailer names (a test's .log printed by CI)", () => {
    const log = lines(
      "Expected the lid to be shut",
      "",
      "Test failed!",
      "FAIL 071_lid_shut.test (exit status: 1)",
    );
    expect(ids(log)).toEqual(["071_lid_shut.test"]);
    expect(ids(lines("all good", "PASS 072_lid_open.test (exit status: 0)"))).toEqual([]);
  });
  it("reads test-suite.log's section once (its header and its trailer)", () => {
    const log = lines(
      "FAIL: tests/lid",
      "===============",
      "",
      "lid stuck",
      "FAIL tests/lid (exit status: 1)",
    );
    expect(ids(log)).toEqual(["tests/lid"]);
  });
  it("does not read FAIL: lines no automake line confirms", () => {
    expect(ids(lines("PASS: pour.sh", "FAIL: lid.sh", "make: *** [check] Error 1"))).toEqual([]);
    // The box must sit under the result lines, not anywhere.
    expect(ids(lines("FAIL: lid.sh", "some output", "more output", "other", "1 of 3 tests failed"))).toEqual(
      [],
    );
  });
  it("leaves unittest's FAIL: blocks to unittest", () => {
    const log = lines(
      "======================================================================",
      "FAIL: test_pour (tests.test_jar.JarTests.test_pour)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/src/tests/test_jar.py", line 9, in test_pour',
      "    self.assertEqual(1, 2)",
      "AssertionError: 1 != 2",
      "",
      "----------------------------------------------------------------------",
      "Ran 3 tests in 0.001s",
      "",
      "FAILED (failures=1)",
      "FAIL: python-tests",
      ...summary(2, 1),
    );
    expect(parseLog(log).failures.map((f) => [f.format, f.test])).toEqual([
      ["unittest", "tests.test_jar.JarTests.test_pour"],
      ["automake", "python-tests"],
    ]);
  });
});

describe("meson test", () => {
  it("fails FAIL, TIMEOUT and UNEXPECTEDPASS lines by the test's name, without its suite", () => {
    const r = parseLog(
      lines(
        " 1/6 kettle:unit / pour           OK              0.02s",
        " 2/6 kettle:unit / lid            FAIL            0.07s   exit status 1",
        " 3/6 kettle:unit / spout          EXPECTEDFAIL    0.01s   exit status 1",
        " 4/6 kettle:slow / boil           TIMEOUT        30.01s   killed by signal 15 SIGTERM",
        " 5/6 steam                        UNEXPECTEDPASS  0.01s",
        " 6/6 handle                       SKIP            0.00s",
        "",
        "Ok:                 1",
        "Expected Fail:      1",
        "Fail:               1",
        "Unexpected Pass:    1",
        "Skipped:            1",
        "Timeout:            1",
      ),
    );
    expect(r.failures.map((f) => f.test)).toEqual(["lid", "boil", "steam"]);
    expect(r.tests.find((t) => t.id === "pour")?.outcome).toBe("passed");
  });
  it("reads old meson's `0.07 s` and ignores a line cut before its duration", () => {
    const log = lines(
      "1/3 jar-open                 FAIL     0.07 s (exit status 1)",
      "2/3 jar-close                FAIL     0.06s   exit status 1",
      "3/3 jar-seal                 FAI",
    );
    expect(ids(log)).toEqual(["jar-open", "jar-close"]);
  });
  it("does not read progress counters that are no meson result", () => {
    expect(
      ids(
        lines(
          "[3/10] Compiling C object kettle.p/lid.c.o FAIL",
          "3/10 files FAIL to compile",
          "12/10 jar FAIL 0.1s",
          "  2/5 Test  #2: jar_test .........................   Passed    0.01 sec",
        ),
      ),
    ).toEqual([]);
  });
});

describe("CTest: the failed list whose heading was cut", () => {
  const entries = ["  7 - jar_seal (Not Run)", "\t  8 - jar_lid (Failed)", "9 - jar_spout (Timeout)"];
  it("reads the run of entries CTest's `Errors while running CTest` closes", () => {
    expect(
      ids(lines(...entries, "Errors while running CTest", "Output from these tests are in: /b/LastTest.log")),
    ).toEqual(["jar_seal", "jar_lid", "jar_spout"]);
  });
  it("does not read entries nothing of CTest's closes, nor the did-not-run list", () => {
    expect(ids(lines(...entries, "make: *** [test] Error 8"))).toEqual([]);
    expect(ids(lines(...entries, "", "Errors while running CTest"))).toEqual([]);
    expect(ids(lines("  3 - jar_big (Disabled)", "Errors while running CTest"))).toEqual([]);
  });
});
