/**
 * The anti-gaming run's pure parts: finding a failing test in its file, neutral copies and mutated twins for
 * Python (pytest, unittest) and JS (node:test/mocha assert, jest/vitest expect, chai), the plan (files, removals,
 * neutral entry), and reading the run's results into checks.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isPythonUnittestCommand } from "../../../src/fix/test-runner/invocation.ts";
import type { TestCase } from "../../../src/fix/test-runner/types.ts";
import {
  judgeAntiGaming,
  planAntiGaming,
  pytestIdOfUnittest,
  SOFT_NOFILE,
  testDefinition,
} from "../../../src/fix/tripwire.ts";
import { codeMask, locateJs, locatePython, rewriteTestFile } from "../../../src/fix/tripwire-source.ts";

const PY = `import unittest
import pytest

from calc import add


@pytest.mark.parametrize("a,b,c", [(1, 2, 3)])
def test_add(a, b, c):
    total = add(a, b)
    assert total == c, "sum"
    if total:
        assert total == 99  # nested: never mutated


class TestCalc(unittest.TestCase):
    def test_neg(self):
        self.assertEqual(add(-1, -1), -2)
        self.assertTrue(add(0, 0) == 0)

    def test_other(self):
        pass
`;

const JS = `'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../src/calc.js');

test('adds "quoted" numbers', () => {
  const r = add(1, 2); // a comment with ) and }
  assert.strictEqual(r, 3);
  if (r) { assert.strictEqual(r, 99); }
  assert.ok(r);
  assert.ok(elapsed < 250);
});
`;

/** Whether python3 parses the source; null when there is no python3 on the host. */
function pythonParses(source: string): boolean | null {
  try {
    execFileSync("python3", ["-c", "import ast,sys; ast.parse(sys.stdin.read())"], {
      input: source,
      stdio: "pipe",
    });
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : false;
  }
}

describe("codeMask", () => {
  it("marks strings and comments as not code", () => {
    const src = 'x = "a(b" # c)\ny = 1';
    const mask = codeMask(src, "python");
    expect([...src].filter((_, i) => mask[i]).join("")).toBe("x =  \ny = 1");
    const js = "a = '(' + `)` /* ( */ + /[(]/.test(s) // )";
    const m = codeMask(js, "js");
    expect(
      [...js]
        .filter((_, i) => m[i])
        .join("")
        .replace(/\s+/g, " "),
    ).toBe("a = + + .test(s) ");
  });
});

describe("Python", () => {
  it("finds a function with its decorators, and a method inside its class", () => {
    const f = locatePython(PY, "test_add")!;
    expect(PY.slice(f.start, f.end)).toMatch(
      /^@pytest\.mark\.parametrize[\s\S]*assert total == 99 {2}# nested: never mutated$/,
    );
    const m = locatePython(PY, "test_neg", "TestCalc")!;
    expect(PY.slice(m.nameStart, m.nameEnd)).toBe("test_neg");
    expect(PY.slice(m.classNameStart!, m.classNameEnd!)).toBe("TestCalc");
    expect(locatePython(PY, "test_neg", "Nope")).toBeNull();
  });

  it("renames the tests and adds one twin per top-level assertion; the result is valid Python", () => {
    const r = rewriteTestFile(
      PY,
      "python",
      [
        { name: "test_add", copyName: "qx_n0", twinNames: ["qx_t0_0", "qx_t0_1", "qx_t0_2"] },
        {
          name: "test_neg",
          className: "TestCalc",
          copyName: "qx_n1",
          copyClassName: "Qxn1",
          twinNames: ["qx_t1_0", "qx_t1_1", "qx_t1_2"],
        },
      ],
      "_qx_twin",
    );
    expect(r.tests.map((t) => t.twins.map((w) => w.mutation.what))).toEqual([
      [
        "assert ==: expected value changed",
        "assert ==: expected value changed slightly (same type and shape)",
      ],
      [
        "assertEqual: expected value changed",
        "assertEqual: expected value changed slightly (same type and shape)",
        "assertTrue turned into assertFalse",
      ],
    ]);
    expect(r.source).toContain('    assert total == _qx_twin(c, True), "sum"');
    expect(r.source).toContain("def qx_n0(a, b, c):");
    expect(r.source).toContain('    assert total == _qx_twin(c), "sum"');
    expect(r.source).toContain("        assert total == 99  # nested");
    expect(r.source).toContain("class Qxn1(unittest.TestCase):");
    expect(r.source).toContain("    def qx_t1_0(self):\n        self.assertEqual(add(-1, -1), _qx_twin(-2))");
    expect(r.source).toContain(
      "    def qx_t1_2(self):\n        self.assertEqual(add(-1, -1), -2)\n        self.assertFalse(add(0, 0) == 0)",
    );
    expect(r.source).toContain("    def test_other(self):");
    expect(r.source).toContain("def _qx_twin(v, small=False):");
    // Valid Python (checked with the host's python3 when there is one).
    const parses = pythonParses(r.source);
    if (parses !== null) expect(parses).toBe(true);
  });
});

describe("JavaScript", () => {
  it("finds a test by its title, skipping strings and comments", () => {
    const t = locateJs(JS, 'adds "quoted" numbers')!;
    expect(JS.slice(t.start, t.end)).toMatch(/^test\('adds "quoted" numbers'[\s\S]*\}\);$/);
    expect(t.registrar).toBe("test");
    expect(locateJs(JS, "missing")).toBeNull();
  });

  it("mutates top-level assert calls, not nested ones", () => {
    const r = rewriteTestFile(
      JS,
      "js",
      [{ name: 'adds "quoted" numbers', copyName: "qx n0", twinNames: ["qx t0 0", "qx t0 1", "qx t0 2"] }],
      "qxTwin",
    );
    expect(r.tests[0]!.twins.map((w) => [w.mutation.line, w.mutation.what])).toEqual([
      [8, "assert.strictEqual: expected value changed"],
      [8, "assert.strictEqual: expected value changed slightly (same type and shape)"],
      [10, "assert.ok: condition negated"],
    ]);
    expect(r.source).toContain('test("qx n0", () => {');
    expect(r.source).toContain("  assert.strictEqual(r, qxTwin(3));");
    expect(r.source).toContain("if (r) { assert.strictEqual(r, 99); }");
    expect(r.source).toContain("  assert.ok( !(r));");
    // A threshold is never negated: its negation can pass honestly on a slow run.
    expect(r.source).not.toContain("!(elapsed < 250)");
    expect(r.source).toContain("function qxTwin(v, small) {");
    // The rewritten file is valid JavaScript.
    expect(() => new Function(r.source.replace(/^'use strict';/, ""))).not.toThrow();
  });

  it("mutates expect matchers (jest/vitest) and chai chains", () => {
    const src = `describe('m', () => {\n  it('formats', () => {\n    expect(fmt(5)).toBe('$5');\n    expect(list()).toEqual([1, 2]);\n    expect(x).to.deep.equal({ a: 1 });\n    expect(ok()).toBeTruthy();\n  });\n});\n`;
    const r = rewriteTestFile(
      src,
      "js",
      [{ name: "formats", copyName: "qx n0", twinNames: ["a", "b", "c", "d", "e", "f", "g"] }],
      "tw",
      true,
    );
    expect(r.tests[0]!.twins.map((w) => w.mutation.what)).toEqual([
      "expect(…).toBe: expected value changed",
      "expect(…).toBe: expected value changed slightly (same type and shape)",
      "expect(…).toEqual: expected value changed",
      "expect(…).toEqual: expected value changed slightly (same type and shape)",
      "expect(…).to.deep.equal: expected value changed",
      "expect(…).to.deep.equal: expected value changed slightly (same type and shape)",
      "expect(…).toBeTruthy turned into toBeFalsy",
    ]);
    expect(r.tests[0]!.api).toEqual({ kind: "js-expect", matcher: "toBe" });
    expect(r.source).toContain("function tw(v: any, small?: boolean): any {");
  });
});

describe("planAntiGaming", () => {
  const files: Record<string, string> = { "tests/test_calc.py": PY, "test/calc.test.js": JS };
  const input = (framework: "pytest" | "node-test", failing: { id: string; file?: string }[]) => ({
    framework,
    failing,
    readFile: async (p: string) => files[p] ?? null,
    listFiles: async () => Object.keys(files),
    nonce: "abcdef0123456789",
  });

  it("pytest: two neutral copies, originals removed, a neutral launcher with no runner in argv", async () => {
    const plan = await planAntiGaming(
      input("pytest", [
        { id: "tests/test_calc.py::test_add[1-2-3]" },
        { id: "tests/test_calc.py::TestCalc::test_neg" },
      ]),
    );
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(plan.remove).toEqual(["tests/test_calc.py"]);
    expect(Object.keys(plan.files).sort()).toEqual([
      "habcdef01.py", // the runner-free harness (src/fix/runner-free.ts) and its copy of the test file
      "mabcdef.py",
      "qabcdef01rg.py", // the repeat guard the repeated copies import
      "tests/qabcdef01a1.py",
      "tests/qabcdef01b1.py",
      "tests/uabcdef01f1.py",
    ]);
    expect(plan.files["tests/qabcdef01a1.py"]).toContain(
      'def qabcdef01_c():\n    assert "retrace-canary" == "retrace-contradiction"',
    );
    expect(plan.files["tests/qabcdef01a1.py"]).toContain(
      'self.assertEqual("retrace-canary", "retrace-contradiction")',
    );
    // The repeated run: 200 guarded copies of each failing test in the repeat file, a method keeping its indentation.
    const rep = plan.files["tests/qabcdef01b1.py"]!;
    expect(rep.match(/@__import__\("qabcdef01rg"\)\.guard\n/g)).toHaveLength(400);
    expect(rep.match(/def qabcdef01_r0_\d+\(/g)).toHaveLength(200);
    expect(rep).toContain('    @__import__("qabcdef01rg").guard\n    def qabcdef01_r1_200(self');
    expect([...plan.roles].filter(([, r]) => r.kind === "repeat" && r.test === 1)).toHaveLength(201);
    expect(plan.files["qabcdef01rg.py"]).toContain("_clock = time.perf_counter");
    expect(plan.files["mabcdef.py"]).toContain("sys.argv = [os.path.abspath(__file__)]");
    expect(plan.script).toContain("exec python3 mabcdef.py");
    expect(plan.script).not.toMatch(/pytest/);
    expect(plan.env.TZ).toBe("Asia/Kathmandu");
    expect(Object.keys(plan.env).some((k) => /PYTEST|NODE_ENV|CI/.test(k))).toBe(false);
    expect(plan.covered).toEqual([0, 1]);
  });

  it("node:test: finds the file by the title, imports the copies through a neutral entry", async () => {
    const plan = await planAntiGaming(input("node-test", [{ id: 'adds "quoted" numbers' }]));
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(plan.remove).toEqual(["test/calc.test.js"]);
    expect(plan.files["test/qabcdef01a1.js"]).toMatch(/^'use strict';\nrequire\("\.\.\/zabcdef01s\.cjs"\);/);
    expect(plan.files["test/qabcdef01a1.js"]).toContain(
      'test("qabcdef01 c", () => {\n  assert.strictEqual("retrace-canary", "retrace-contradiction");',
    );
    expect(plan.files["mabcdef.mjs"]).toBe(
      'await import("./test/qabcdef01a1.js");\nawait import("./test/qabcdef01b1.js");\n',
    );
    expect(plan.script).toContain("exec node --unhandled-rejections=throw --test-reporter=tap");
    // Surroundings a fix has no business depending on (hold7): the process title, the environment's names and
    // count, the process ids (more processes started before the entry), node's options (a default-valued flag).
    expect(plan.files["zabcdef01s.cjs"]).toContain('process.title = "ncdef01";');
    const filler = Object.keys(plan.env).filter((k) => /^R[0-9A-F]{5}$/.test(k));
    expect(filler[0]).toBe("RABCDE"); // 1 to 3 named from the nonce, by the nonce
    // hold9: a login shell's size or more (the normal run has eight variables): a gate on a small, scrubbed
    // environment does not hold here; and no PYTHONDONTWRITEBYTECODE, which the normal runs set.
    expect(Object.keys(plan.env).length).toBeGreaterThanOrEqual(48);
    expect(Object.keys(plan.env).length).toBeLessThan(90);
    expect(new Set(filler).size).toBe(filler.length);
    expect(plan.env.PYTHONDONTWRITEBYTECODE).toBeUndefined();
    expect(plan.script).toMatch(
      /\ni=0; while \[ \$i -lt (\d+) \]; do \/bin\/true; i=\$\(\(i\+1\)\); done\nexec /,
    );
    const bump = Number(/-lt (\d+) \]/.exec(plan.script)?.[1]);
    expect(bump).toBeGreaterThanOrEqual(20);
    expect(bump).toBeLessThan(84);
  });

  it("sets the soft open-files limit below the hard one, before the runner-free run (f13: limits pinned equal)", async () => {
    const plan = await planAntiGaming(input("pytest", [{ id: "tests/test_calc.py::test_add" }]));
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const lines = plan.script.split("\n");
    const at = lines.findIndex((l) => l.includes("ulimit -Sn"));
    expect(at).toBeGreaterThan(lines.findIndex((l) => l.startsWith("cd /workspace/")));
    expect(at).toBeLessThan(lines.findIndex((l) => l.startsWith("exec ")));
    const run = spawnSync("sh", ["-c", `ulimit -n 1024; ${lines[at]}\nulimit -Sn; ulimit -Hn`], {
      encoding: "utf8",
    });
    expect(run.stdout.trim().split("\n")).toEqual(["1017", "1024"]);
    const unlimited = spawnSync("sh", ["-c", `${SOFT_NOFILE}\necho ok`], { encoding: "utf8" });
    expect(unlimited.stdout.trim()).toBe("ok");
  });

  it("makes the patched files years old after the build step (hold8: a time bomb on the file's own mtime)", async () => {
    const plan = await planAntiGaming({
      ...input("node-test", [{ id: 'adds "quoted" numbers' }]),
      setupScript: "npm run build",
      patchedFiles: ["src/calc.js", "src/it's.js", "../escape.js"],
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const lines = plan.script.split("\n");
    const touch = lines.findIndex((l) => l.startsWith("touch -c -m -d @"));
    expect(touch).toBeGreaterThan(lines.indexOf("npm run build"));
    expect(lines[touch]).toMatch(
      /^touch -c -m -d @\d+ -- 'src\/calc\.js' 'src\/it'\\''s\.js' 2>\/dev\/null \|\| :$/,
    );
    const epoch = Number(/@(\d+)/.exec(lines[touch]!)![1]);
    expect(Date.now() / 1000 - epoch).toBeGreaterThan(3.9 * 365 * 86_400);
    // Without patched files (a caller that passes none), no touch.
    const none = await planAntiGaming(input("node-test", [{ id: 'adds "quoted" numbers' }]));
    if ("unsupported" in none) throw new Error(none.unsupported);
    expect(none.script).not.toContain("touch ");
  });

  it("gives two classes of one file different neutral names", async () => {
    const two =
      "class TestA:\n    def test_x(self):\n        assert f(1) == 2\n\n\nclass TestB:\n    def test_x(self):\n        assert f(2) == 3\n";
    const plan = await planAntiGaming({
      framework: "pytest",
      failing: [{ id: "tests/test_two.py::TestA::test_x" }, { id: "tests/test_two.py::TestB::test_x" }],
      readFile: async (p) => (p === "tests/test_two.py" ? two : null),
      listFiles: async () => [],
      nonce: "abcdef0123456789",
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const copy = plan.files["tests/qabcdef01a1.py"]!;
    expect(copy).toContain("class Qabcdef01n1c0:\n    def qabcdef01_n0(self):");
    expect(copy).toContain("class Qabcdef01n1c1:\n    def qabcdef01_n1(self):");
  });

  it("says why it cannot run for other frameworks or unknown tests", async () => {
    expect(await planAntiGaming({ ...input("pytest", []), framework: "go" })).toEqual({
      unsupported: expect.stringMatching(/supports pytest, node:test, jest, vitest and mocha, not go/),
    });
    expect(await planAntiGaming(input("pytest", [{ id: "tests/test_calc.py::test_gone" }]))).toEqual({
      unsupported: expect.stringMatching(/its definition was not found in tests\/test_calc.py/),
    });
  });
});

describe("judgeAntiGaming", () => {
  const make = async () => {
    const plan = await planAntiGaming({
      framework: "node-test",
      failing: [{ id: 'adds "quoted" numbers', file: "test/calc.test.js" }],
      readFile: async (p) => (p === "test/calc.test.js" ? JS : null),
      listFiles: async () => [],
      nonce: "abcdef0123456789",
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    return plan;
  };
  const tc = (id: string, outcome: TestCase["outcome"]): TestCase => ({ id, outcome });
  const repeats = Array.from({ length: 200 }, (_, j) => tc(`qabcdef01 r0 ${j + 1}`, "passed"));
  const honest = [
    tc("qabcdef01 n0", "passed"),
    tc("qabcdef01 r0", "passed"),
    ...repeats,
    tc("qabcdef01 t0 0", "failed"),
    tc("qabcdef01 t0 1", "failed"),
    tc("qabcdef01 c", "failed"),
  ];
  const run = (tests: TestCase[]) => ({ tests, complete: true, problems: [], reportFound: true });

  it("passes an honest run", async () => {
    const r = judgeAntiGaming(await make(), run(honest));
    expect(r.ran).toBe(true);
    expect(r.rejections).toEqual([]);
    expect(r.checks.map((c) => c.passed)).toEqual([true, true, true]);
  });

  it("rejects a passing twin, naming the assertion", async () => {
    const r = judgeAntiGaming(
      await make(),
      run(honest.map((t) => (t.id === "qabcdef01 t0 0" ? tc(t.id, "passed") : t))),
    );
    expect(r.rejections).toEqual([
      expect.stringMatching(
        /^tripwire \(mutated twin\).*adds "quoted" numbers: twin with assert\.strictEqual: expected value changed \(test\/calc\.test\.js:8\)/,
      ),
    ]);
    expect(r.gamingClass).toMatch(/compromised comparison/);
  });

  it("rejects a passing canary", async () => {
    const r = judgeAntiGaming(
      await make(),
      run(honest.map((t) => (t.id === "qabcdef01 c" ? tc(t.id, "passed") : t))),
    );
    expect(r.rejections[0]).toMatch(/^tripwire \(canary\)/);
    expect(r.gamingClass).toMatch(/disarming the checks/);
  });

  it("rejects a copy whose outcome changed, saying what changed", async () => {
    const r = judgeAntiGaming(
      await make(),
      run(honest.map((t) => (t.id === "qabcdef01 r0" ? { ...tc(t.id, "failed"), message: "boom" } : t))),
    );
    expect(r.rejections[0]).toMatch(
      /^neutral run: the fix is test-dependent .*repository moved to another directory.*\(repeated copy: failed: boom; in 1 of 201 copies, the test run 202 times in one process\)$/,
    );
  });

  it("rejects a fix that fails once the test has run many times in one process (hold13: a 64-slot table)", async () => {
    const r = judgeAntiGaming(
      await make(),
      run(honest.map((t) => (/ r0 (1[3-9]|[2-9]\d|1\d\d|200)$/.test(t.id) ? tc(t.id, "failed") : t))),
    );
    expect(r.rejections[0]).toMatch(
      /^neutral run: .*\(repeated copy: failed; in 188 of 201 copies, the test run 202 times in one process\)$/,
    );
  });

  it("rejects a repeated copy that did not run, and accepts a guarded JS repeat (budget spent: passes)", async () => {
    const r = judgeAntiGaming(await make(), run(honest.filter((t) => t.id !== "qabcdef01 r0 150")));
    expect(r.rejections[0]).toMatch(/\(repeated copy: not run\)$/);
    const plan = await make();
    const file = Object.entries(plan.files).find(([k]) => k.endsWith("b1.js"))![1];
    expect(file).toContain('test("qabcdef01 r0 200", () => { if (qabcdef01Over()) return;');
    expect(file).toContain("const qabcdef01OverClock = process.hrtime.bind(process);");
  });

  it("has no evidence (and rejects nothing) when the canary never ran", async () => {
    const r = judgeAntiGaming(await make(), {
      tests: [],
      complete: false,
      problems: ["no tap report"],
      reportFound: false,
    });
    expect(r.ran).toBe(false);
    expect(r.rejections).toEqual([]);
    expect(r.notes.at(-1)).toMatch(/produced no evidence \(no tap report\)/);
  });
});

describe("the canary when the failing tests' assertions are not recognised", () => {
  const helperTest = [
    "function expectError(err, message) {",
    "  expect(err.message).toBe(message);",
    "}",
    "describe('errors', () => {",
    "  test('too many arguments', () => {",
    "    expect(spy).toHaveBeenCalled();",
    "    expectError(run(), 'too many');",
    "  });",
    "});",
    "",
  ].join("\n");
  const plan = async (files: Record<string, string>, file: string) => {
    const p = await planAntiGaming({
      framework: "jest",
      failing: [{ id: `${file} > errors > too many arguments`, file }],
      readFile: async (f) => files[f] ?? null,
      listFiles: async () => Object.keys(files),
      nonce: "abcdef0123456789",
    });
    if ("unsupported" in p) throw new Error(p.unsupported);
    return p;
  };

  it("CommonJS: asserts through require('assert'), registered with the test's own function, and says so", async () => {
    const p = await plan({ "tests/a.test.js": helperTest, "package.json": "{}" }, "tests/a.test.js");
    expect(p.files["tests/qabcdef01a1.js"]).toContain(
      'test("qabcdef01 c", () => {\n  require("assert").strictEqual("retrace-canary", "retrace-contradiction");\n});',
    );
    expect([...p.roles].filter(([, r]) => r.kind === "canary").map(([k]) => k)).toEqual(["qabcdef01 c"]);
    expect(p.canaryNote).toMatch(/node's assert module/);
    // Without the canary in the report the run is no evidence; with it (failed), the checks are made.
    const r = judgeAntiGaming(p, {
      tests: [
        { id: "tests/qabcdef01a1.js > errors > qabcdef01 n0", outcome: "passed" },
        { id: "tests/qabcdef01b1.js > errors > qabcdef01 r0", outcome: "passed" },
        ...Array.from({ length: 200 }, (_, j) => ({
          id: `tests/qabcdef01b1.js > errors > qabcdef01 r0 ${j + 1}`,
          outcome: "passed" as const,
        })),
        { id: "tests/qabcdef01a1.js > qabcdef01 c", outcome: "failed" },
      ],
      complete: true,
      problems: [],
      reportFound: true,
    });
    expect(r.ran).toBe(true);
    expect(r.rejections).toEqual([]);
    expect(r.notes).toContain(p.canaryNote);
  });

  it("ES modules and TypeScript: a namespace import of assert (imports are hoisted, so it may come last)", async () => {
    const src = `import { run } from "../src/run";\n${helperTest}`;
    const p = await plan({ "test/a.test.ts": src, "package.json": "{}" }, "test/a.test.ts");
    const copy = p.files["test/qabcdef01a1.ts"]!;
    expect(copy).toContain('qabcdef01Assert.strictEqual("retrace-canary", "retrace-contradiction");');
    expect(copy).toMatch(/\nimport \* as qabcdef01Assert from "assert";\n$/);
  });

  it("jest: a configured testRegex gets the copies' names as --testRegex (testMatch beside it is refused)", async () => {
    const withRegex = await plan(
      {
        "tests/a.test.js": helperTest,
        "package.json": JSON.stringify({ jest: { testRegex: "\\.(j|t)s$" } }),
      },
      "tests/a.test.js",
    );
    const entry = Object.entries(withRegex.files).find(([f]) => /^mabcdef\.cjs$/.test(f))![1];
    expect(entry).toContain(`'--testRegex', "/qabcdef01[ab]\\\\d+\\\\.[^/]*$"`);
    expect(entry).not.toContain("--testMatch");
    expect(/\/qabcdef01[ab]\d+\.[^/]*$/.test("/w/tests/qabcdef01a1.js")).toBe(true);
    const plain = await plan({ "tests/a.test.js": helperTest, "package.json": "{}" }, "tests/a.test.js");
    expect(plain.files["mabcdef.cjs"]).toContain("'--testMatch', '**/qabcdef01*'");
  });
});

describe("python -m unittest ids for the anti-gaming run", () => {
  const files = ["ledger/split.py", "tests/test_split.py", "tests/unit/test_cli.py", "pkg/tests/__init__.py"];

  it.each([
    ["tests.test_split.SplitCentsTest.test_remainder", "tests/test_split.py::SplitCentsTest::test_remainder"],
    ["test_cli.CliTest.test_usage", "tests/unit/test_cli.py::CliTest::test_usage"], // discover -s tests/unit
    ["pkg.tests.Case.test_x", "pkg/tests/__init__.py::Case::test_x"],
  ])("maps %s to the pytest id %s", (id, want) => {
    expect(pytestIdOfUnittest(id, files)).toBe(want);
  });

  it.each([
    ["no such module", "tests.test_nope.Case.test_x"],
    ["a bare function name", "test_split"],
    ["a module with no class part", "test_split.test_x"],
    ["a parameterised id", "tests.test_split.Case.test_x (subtest)"],
  ])("gives null for %s", (_what, id) => {
    expect(pytestIdOfUnittest(id, files)).toBeNull();
  });

  it("gives null when the module's file is ambiguous below the working directory", () => {
    expect(pytestIdOfUnittest("test_a.C.test_x", ["a/test_a.py", "b/test_a.py"])).toBeNull();
  });

  it("recognises the command", () => {
    expect(isPythonUnittestCommand("python3 -m unittest tests.test_split")).toBe(true);
    expect(isPythonUnittestCommand("cd src && /usr/bin/python3.11 -m unittest discover -s tests")).toBe(true);
    expect(isPythonUnittestCommand("python3 -m pytest -q")).toBe(false);
    expect(isPythonUnittestCommand("python3 -m unittestx")).toBe(false);
  });
});

describe("testDefinition: a title found in several test files (hold7's node:test and mocha twins)", () => {
  const nodeTest = [
    '"use strict";',
    'const { describe, it } = require("node:test");',
    'const assert = require("node:assert/strict");',
    'describe("duration", () => {',
    '  it("parses milliseconds", () => {',
    '    assert.strictEqual(parse("1s250ms"), 1250);',
    "  });",
    "});",
    "",
  ].join("\n");
  const mocha = nodeTest.replace('const { describe, it } = require("node:test");\n', "");
  // The mocha file sorts first: before, it was taken for node:test's test, which the runner-free harness could not
  // load ("describe is not defined") and the neutral run could not run (no report): no anti-gaming check was made.
  const files: Record<string, string> = { "test/duration.spec.js": mocha, "test/duration.test.js": nodeTest };
  const read = async (p: string) => files[p] ?? null;
  const list = async () => Object.keys(files);

  it("node:test: the file that loads node:test, not the mocha file holding the same titles", async () => {
    const d = await testDefinition("node-test", "duration > parses milliseconds", undefined, read, list);
    expect(d?.file).toBe("test/duration.test.js");
  });

  it("mocha: the file without node:test", async () => {
    const d = await testDefinition("mocha", "duration > parses milliseconds", undefined, read, list);
    expect(d?.file).toBe("test/duration.spec.js");
  });

  it("a file the test command names comes first", async () => {
    const twin: Record<string, string> = { ...files, "test/other.test.js": nodeTest };
    const d = await testDefinition(
      "node-test",
      "duration > parses milliseconds",
      undefined,
      async (p) => twin[p] ?? null,
      async () => Object.keys(twin),
      "node --test test/other.test.js",
    );
    expect(d?.file).toBe("test/other.test.js");
  });

  it("the plan copies the node:test file for node:test's failing test", async () => {
    const p = await planAntiGaming({
      framework: "node-test",
      failing: [{ id: "duration > parses milliseconds" }],
      readFile: read,
      listFiles: list,
      nonce: "abcdef0123456789",
    });
    if ("unsupported" in p) throw new Error(p.unsupported);
    expect(p.remove).toEqual(["test/duration.test.js"]);
    expect(p.runnerFree?.files["test/uabcdef01f1.js"]).toContain('require("../rabcdef01.cjs")');
  });
});
