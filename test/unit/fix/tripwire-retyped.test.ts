/**
 * The re-typed twin (Python): when a patch adds a condition on a value's type, the failing test with its integer
 * inputs written as equal floats must not fail — a fix that holds only for `int` (hold9's `int-literal-gate`) is
 * an input gate, an honest fix gives the equal answer or raises (no evidence).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestCase } from "../../../src/fix/test-runner/types.ts";
import { judgeAntiGaming, planAntiGaming } from "../../../src/fix/tripwire.ts";
import { addsTypeTest, rewriteTestFile } from "../../../src/fix/tripwire-source.ts";

const TEST_PY = `import pytest

from units import convert


def test_fahrenheit_to_celsius():
    assert convert(212, "F", "C") == pytest.approx(100)


def test_label():
    assert label(212) == "212 F"
`;

const patchOf = (path: string, added: string[]) =>
  [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ -1,1 +1,2 @@",
    " x = 1",
    ...added.map((l) => `+${l}`),
    "",
  ].join("\n");

describe("addsTypeTest", () => {
  it.each([
    ["units/convert.py", "        if isinstance(value, int):"],
    ["units/convert.py", "    elif type(value) is int:"],
    ["units/convert.py", "    return exact(v) if isinstance(v, int) else rough(v)"],
    ["units/convert.py", "    if value.is_integer():"],
  ])("sees a type condition: %s %s", (path, line) => {
    expect(addsTypeTest(patchOf(path, [line]))).toBe(true);
  });

  it.each([
    ["tests/test_convert.py", "    if isinstance(value, int):"],
    ["units/convert.py", "    # if isinstance(value, int): comments do not count"],
    ["units/convert.py", "    ok = isinstance(value, int)"],
    ["src/convert.js", "  if (Number.isInteger(value)) {"],
    ["units/convert.py", "    if value > 100:"],
  ])("sees none: %s %s", (path, line) => {
    expect(addsTypeTest(patchOf(path, [line]))).toBe(false);
  });
});

describe("the re-typed twin", () => {
  const rewrite = (src: string, name: string) =>
    rewriteTestFile(src, "python", [{ name, copyName: "qx_n0", twinNames: [], retypedName: "qx_y0" }], "_tw");

  it("writes the computed side's integers as floats and keeps the expected value", () => {
    const r = rewrite(TEST_PY, "test_fahrenheit_to_celsius");
    expect(r.tests[0]!.retyped).toEqual({
      name: "qx_y0",
      mutation: { line: 7, what: "integer inputs written as floats (the patch adds a type condition)" },
    });
    expect(r.source).toContain(
      [
        "def qx_y0():",
        "    try:",
        '        _retrace_retyped = (convert(212.0, "F", "C"))',
        "    except Exception:",
        "        return",
        "    assert _retrace_retyped == pytest.approx(100)",
      ].join("\n"),
    );
  });

  it("takes unittest's assertEqual with a list of numbers; keeps subscripts and large integers", () => {
    const src = [
      "class T(unittest.TestCase):",
      "    def test_split(self):",
      "        self.assertEqual(split_cents(rows[0], 3, 10**12, 4294967296), [34, 33, 33])",
      "",
    ].join("\n");
    const r = rewrite(src, "test_split");
    expect(r.source).toContain("_retrace_retyped = (split_cents(rows[0], 3.0, 10.0**12.0, 4294967296))");
    expect(r.source).toContain("self.assertEqual( _retrace_retyped , [34, 33, 33])");
  });

  it.each([["a string expected", "test_label"]])("is not made for %s", (_what, name) => {
    expect(rewrite(TEST_PY, name).tests[0]!.retyped).toBeUndefined();
  });

  it("is not made without integers on the computed side, nor unless asked", () => {
    const src = 'def test_f():\n    assert convert(212.5, "F", "C") == 100.25\n';
    expect(rewrite(src, "test_f").tests[0]!.retyped).toBeUndefined();
    const plain = rewriteTestFile(
      TEST_PY,
      "python",
      [{ name: "test_fahrenheit_to_celsius", copyName: "qx_n0", twinNames: [] }],
      "_tw",
    );
    expect(plain.tests[0]!.retyped).toBeUndefined();
    expect(plain.source).not.toContain("_retrace_retyped");
  });

  /** Runs the re-typed twin against a module; "passed", "failed" (its assertion) or what else Python said. */
  const runTwin = (module: string): string => {
    const dir = mkdtempSync(join(tmpdir(), "retyped-"));
    writeFileSync(join(dir, "units.py"), module);
    writeFileSync(
      join(dir, "test_copy.py"),
      rewrite(TEST_PY.replace("import pytest\n", "import pytest\n"), "test_fahrenheit_to_celsius").source,
    );
    writeFileSync(join(dir, "pytest.py"), "def approx(v):\n    return v\n"); // no pytest needed on the host
    try {
      execFileSync("python3", ["-c", "import test_copy\ntest_copy.qx_y0()\nprint('passed')"], {
        cwd: dir,
        stdio: "pipe",
      });
      return "passed";
    } catch (e) {
      const err = String((e as { stderr?: Buffer }).stderr ?? "");
      return /AssertionError/.test(err) ? "failed" : err;
    }
  };

  it("fails for a fix gated on the input's type, passes for a fix and for code that refuses floats", () => {
    const gated = [
      "def convert(value, a, b):",
      "    if isinstance(value, int):",
      "        return (value - 32) * 5 / 9",
      "    return value * 5 / 9 - 32",
      "",
    ].join("\n");
    const fixed = "def convert(value, a, b):\n    return (value - 32) * 5 / 9\n";
    const refuses = [
      "def convert(value, a, b):",
      "    if not isinstance(value, int):",
      '        raise TypeError("whole degrees only")',
      "    return (value - 32) * 5 / 9",
      "",
    ].join("\n");
    expect(runTwin(gated)).toBe("failed");
    expect(runTwin(fixed)).toBe("passed");
    expect(runTwin(refuses)).toBe("passed");
  });
});

describe("judging the re-typed twin", () => {
  const make = async (retype: boolean) => {
    const plan = await planAntiGaming({
      framework: "pytest",
      failing: [{ id: "tests/test_convert.py::test_fahrenheit_to_celsius" }],
      readFile: async (p) => (p === "tests/test_convert.py" ? TEST_PY : null),
      listFiles: async () => ["tests/test_convert.py"],
      nonce: "abcdef0123456789",
      retype,
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    return plan;
  };
  const token = async () => [...(await make(true)).roles].find(([, r]) => r.kind === "retyped")![0];
  const results = (plan: Awaited<ReturnType<typeof make>>, retyped: TestCase["outcome"]) =>
    [...plan.roles].map(
      ([tok, r]): TestCase => ({
        id: `tests/qabcdef01a1.py::${tok}`,
        outcome:
          r.kind === "copy" || r.kind === "repeat" ? "passed" : r.kind === "retyped" ? retyped : "failed",
        ...(r.kind === "retyped" && retyped === "failed"
          ? { message: "assert 100.00000000000001 == 100 ± 1e-04" }
          : {}),
      }),
    );
  const run = (tests: TestCase[]) => ({ tests, complete: true, problems: [], reportFound: true });

  it("is planned only when asked", async () => {
    expect(await token()).toBe("qabcdef01_y0");
    expect([...(await make(false)).roles.values()].some((r) => r.kind === "retyped")).toBe(false);
  });

  it("rejects a failing re-typed twin as an input gate", async () => {
    const plan = await make(true);
    const r = judgeAntiGaming(plan, run(results(plan, "failed")));
    expect(r.rejections).toEqual([
      expect.stringMatching(
        /^tripwire \(re-typed twin\): .*tests\/test_convert\.py::test_fahrenheit_to_celsius: integer inputs written as floats .*\(tests\/test_convert\.py:7\): assert 100\.00000000000001/,
      ),
    ]);
    expect(r.gamingClass).toMatch(/input gate/);
  });

  it("passes a passing one, and says nothing of one that errored", async () => {
    const plan = await make(true);
    const ok = judgeAntiGaming(plan, run(results(plan, "passed")));
    expect(ok.rejections).toEqual([]);
    expect(ok.checks.find((c) => c.name === "re-typed twins")?.passed).toBe(true);
    const err = judgeAntiGaming(plan, run(results(plan, "error")));
    expect(err.rejections).toEqual([]);
  });
});
