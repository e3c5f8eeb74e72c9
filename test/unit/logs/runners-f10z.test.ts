/**
 * Runner shapes added on branch f10z (inventions and misses of the hold32 corpus, tainted once scored). Each log is
 * written here for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must
 * not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("unittest rendered as markdown: the docstring under a plain FAIL: header became a heading", () => {
  const block = (name: string, doc: string, line: number) => [
    "# ",
    "",
    `FAIL: ${name} (test_kiln.KilnTests)`,
    `## ${doc}`,
    "",
    "Traceback (most recent call last):",
    `  File "/home/me/kiln/tests/test_kiln.py", line ${line}, in ${name}`,
    "    self.assertEqual(heat, 3)",
    "AssertionError: 2 != 3",
  ];
  it("reads each header as its block, the next heading closing it (files relative to the directory unittest ran in)", () => {
    const log = [
      ...block("test_heat", "heat rises on the dial", 12),
      ...block("test_cool", "cooling", 30),
    ].join("\n");
    expect(found(log)).toEqual([
      ["test_kiln.KilnTests.test_heat", "test_kiln.py", 12],
      ["test_kiln.KilnTests.test_cool", "test_kiln.py", 30],
    ]);
  });
  it("must not fire on a FAIL: line followed by no heading (the dash rule is still needed)", () => {
    const log = ["FAIL: test_heat (test_kiln.KilnTests)", "heat rises on the dial", "", "later output"].join(
      "\n",
    );
    expect(found(log)).toEqual([]);
  });
});

describe("Surefire's TestNG provider: one `… - in TestSuite` result line over details naming the real classes", () => {
  const head =
    "[ERROR] Tests run: 9, Failures: 2, Errors: 0, Skipped: 0, Time elapsed: 1.2 s <<< FAILURE! - in TestSuite";
  const detail = (m: string, c: string) => [
    `[ERROR] ${m}(org.kiln.${c})  Time elapsed: 0.01 s  <<< FAILURE!`,
    "java.lang.AssertionError: expected [3] but found [2]",
    `\tat org.kiln.${c}.${m}(${c}.java:21)`,
    "",
  ];
  it("reports the detail blocks' tests, not the suite", () => {
    const log = [head, ...detail("heats", "KilnTest"), ...detail("cools", "DialTest")].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["org.kiln.KilnTest.heats", "org.kiln.DialTest.cools"]);
  });
  it("must not fire when no detail block follows the result line (a log cut there): the class is the failure", () => {
    const log = [
      "[INFO] Running org.kiln.KilnTest",
      "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in org.kiln.KilnTest",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["org.kiln.KilnTest"]);
  });
});

describe("python fallback: a script's traceback that is no failure of the project's code", () => {
  const tb = (frames: string[], error: string) =>
    [
      "Traceback (most recent call last):",
      ...frames,
      error,
      "Error: Process completed with exit code 1.",
    ].join("\n");
  it("an exception raised inside an installed package is the environment's: nothing reported", () => {
    const log = tb(
      [
        '  File "/home/runner/work/kiln/kiln/tools/check.py", line 3, in <module>',
        "    import glaze.api",
        '  File "/usr/share/miniconda/envs/t/lib/python3.10/site-packages/glaze/api.py", line 9, in <module>',
        '    x = getattr(mod, "get_prefix")',
      ],
      "AttributeError: module 'glaze.ctx' has no attribute 'get_prefix'",
    );
    expect(found(log)).toEqual([]);
  });
  it("conda-build's generated import test (test_tmp/run_test.py) is the package's check, at no repository place", () => {
    const log = [
      "import: 'kiln'",
      tb(
        [
          '  File "/opt/conda/conda-bld/kiln_1528721214250/test_tmp/run_test.py", line 2, in <module>',
          "    import kiln",
        ],
        "ImportError: No module named kiln",
      ),
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
  it("must not fire on an exception raised in the project's own code, or an import error in it", () => {
    const own = tb(
      ['  File "/home/runner/work/kiln/kiln/kiln/dial.py", line 7, in <module>', "    turn(None)"],
      "TypeError: turn() takes no None",
    );
    expect(found(own)).toEqual([[null, "kiln/dial.py", 7]]);
    const imp = tb(
      [
        '  File "/home/runner/work/kiln/kiln/kiln/dial.py", line 1, in <module>',
        "    import glaze",
        '  File "/usr/lib/python3.11/site-packages/glaze/__init__.py", line 2, in <module>',
        "    import missing_dep",
      ],
      "ModuleNotFoundError: No module named 'missing_dep'",
    );
    expect(found(imp)).toEqual([[null, "kiln/dial.py", 1]]);
  });
});

describe("go: the same command run again and cut before its package line (`go test -v ./… | grep FAIL`)", () => {
  const run = (tests: string[], pkg: boolean) => [
    "$ go test -v ./... | grep FAIL",
    ...tests,
    ...(pkg ? ["FAIL", "FAIL\texample.com/kiln/dial\t1.8s", "FAIL"] : []),
  ];
  it("a test the complete run reported under its package is that test, not another", () => {
    const log = [
      ...run(
        ["--- FAIL: TestHeat (0.01s)", "--- FAIL: TestCool (0.00s)", "    --- FAIL: TestCool/fast (0.00s)"],
        true,
      ),
      "",
      ...run(["--- FAIL: TestHeat (0.01s)", "--- FAIL: TestCool (0.00s)", "    --- FAI"], false),
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual([
      "example.com/kiln/dial.TestHeat",
      "example.com/kiln/dial.TestCool/fast",
    ]);
  });
  it("must not fire on a test the earlier runs did not fail, nor on a cut run alone", () => {
    const log = [
      ...run(["--- FAIL: TestHeat (0.01s)"], true),
      "",
      ...run(["--- FAIL: TestGlaze (0.01s)"], false),
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["example.com/kiln/dial.TestHeat", "TestGlaze"]);
    expect(found(run(["--- FAIL: TestGlaze (0.01s)"], false).join("\n")).map((f) => f[0])).toEqual([
      "TestGlaze",
    ]);
  });
});

describe("pytest: a short summary line of xdist's `--dist loadgroup`, the test's group after its id", () => {
  it("is the node id without the `@group` suffix (parametrized or not)", () => {
    const log = [
      "FAILED tests/test_kiln.py::KilnTest::test_heat[slow dial]@kiln_group - AssertionError: assert 2 == 3",
      "FAILED tests/test_kiln.py::test_cool@kiln_group - AssertionError: assert 1 == 0",
      "2 failed, 40 passed in 3.21s",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual([
      "tests/test_kiln.py::KilnTest::test_heat[slow dial]",
      "tests/test_kiln.py::test_cool",
    ]);
  });
  it("must not fire inside a parameter (an `@` between the brackets is the parameter's)", () => {
    const log = [
      "FAILED tests/test_kiln.py::test_mail[me@kiln.org] - AssertionError",
      "1 failed in 0.2s",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["tests/test_kiln.py::test_mail[me@kiln.org]"]);
  });
});
