/**
 * The runner-free run (src/fix/runner-free.ts): the plan (which tests, which files, the runner module rewritten to
 * our shim, what is left out and why), the judgement, and the harnesses themselves, executed here for real on
 * small test files (node on the host; python3 when the host has it).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judgeRunnerFree, planRunnerFree, type RunnerFreePlan } from "../../../src/fix/runner-free.ts";
import { judgeAntiGaming, planAntiGaming, REPEAT_MAX } from "../../../src/fix/tripwire.ts";
import { cpuMsAsync } from "../../support/cpu-time.ts";

const NONCE = "abcdef0123456789";

function planFor(
  framework: "pytest" | "node-test" | "jest" | "vitest" | "mocha",
  files: Record<string, string>,
) {
  return (targets: Parameters<typeof planRunnerFree>[0]["targets"]) =>
    planRunnerFree({
      framework,
      targets,
      readFile: async (p) => files[p] ?? null,
      listFiles: async () => Object.keys(files),
      nonce: NONCE,
    });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Writes the repository and the plan's files to a temporary directory and runs the harness there. */
function execute(files: Record<string, string>, plan: RunnerFreePlan): unknown[] {
  const dir = mkdtempSync(path.join(tmpdir(), "rf-"));
  dirs.push(dir);
  for (const [p, text] of Object.entries({ ...files, ...plan.files })) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text.replaceAll("/workspace/", `${dir}/`));
  }
  for (const command of [plan.command, ...(plan.coldCommand ? [plan.coldCommand] : [])]) {
    const [cmd, ...args] = command.split(" ");
    spawnSync(cmd!, args, {
      cwd: dir,
      encoding: "utf8",
      // As in the sandbox's script: the harness's standard streams are files, not pipes.
      stdio: ["ignore", "ignore", "ignore"],
      env: { PATH: process.env.PATH ?? "" },
      timeout: 60_000,
    });
  }
  return JSON.parse(readFileSync(path.join(dir, plan.reportFile), "utf8")) as unknown[];
}

const hasPython = (() => {
  try {
    execFileSync("python3", ["-c", "print(1)"]);
    return true;
  } catch {
    return false;
  }
})();

describe("planRunnerFree", () => {
  it("pytest: a copy of the test file and a harness; no runner in the command", async () => {
    const files = {
      "tests/test_a.py": "def test_x():\n    assert 1 == 1\n",
      "pytest.ini": "[pytest]\npythonpath = src\n",
    };
    const plan = await planFor("pytest", files)([{ index: 0, file: "tests/test_a.py", name: "test_x" }]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(Object.keys(plan.files).sort()).toEqual(["habcdef01.py", "tests/uabcdef01f1.py"]);
    expect(plan.command).toBe("python3 habcdef01.py");
    expect(plan.files["habcdef01.py"]).toContain(String.raw`\"pythonpath\":[\"src\"]`);
    expect(plan.doubles).toBe(true);
  });

  it("pytest: leaves out tests a conftest.py or autouse fixtures may set up, saying why", async () => {
    const files = { "tests/test_a.py": "def test_x():\n    assert 1 == 1\n", "tests/conftest.py": "" };
    expect(await planFor("pytest", files)([{ index: 0, file: "tests/test_a.py", name: "test_x" }])).toEqual({
      unsupported: "a conftest.py (tests/conftest.py) may set up fixtures or hooks for it",
    });
    const auto = { "tests/test_a.py": "@pytest.fixture(autouse=True)\ndef env():\n    pass\n" };
    expect(await planFor("pytest", auto)([{ index: 0, file: "tests/test_a.py", name: "test_x" }])).toEqual({
      unsupported: "its file uses autouse fixtures, module marks or module setup",
    });
  });

  it("JS: the runner's module is rewritten to the shim (require and import), other modules kept", async () => {
    const files = {
      "test/a.test.js": 'const { test } = require("node:test");\nconst assert = require("node:assert");\n',
      "test/deep/b.test.mjs":
        'import { describe, expect, it } from "vitest";\nimport { f } from "../../src/f.js";\n',
    };
    const node = await planFor("node-test", files)([{ index: 0, file: "test/a.test.js", name: "t" }]);
    if ("unsupported" in node) throw new Error(node.unsupported);
    expect(node.files["test/uabcdef01f1.js"]).toBe(
      'const { test } = require("../rabcdef01.cjs");\nconst assert = require("node:assert");\n',
    );
    const vi = await planFor("vitest", files)([{ index: 0, file: "test/deep/b.test.mjs", name: "t" }]);
    if ("unsupported" in vi) throw new Error(vi.unsupported);
    expect(vi.files["test/deep/uabcdef01f1.mjs"]).toContain(
      'from "../../rabcdef01.mjs";\nimport { f } from "../../src/f.js"',
    );
    expect(vi.files["habcdef01.mjs"]).toContain("globalThis[k] = shim[k]");
  });

  it("JS: leaves out mocking APIs, TypeScript, jest's ESM and runner configuration that sets things up", async () => {
    const t = [{ index: 0, file: "test/a.test.js", name: "t" }];
    expect(await planFor("jest", { "test/a.test.js": "jest.mock('../src/x');\n" })(t)).toEqual({
      unsupported: "the test file uses a runner's mocking API",
    });
    expect(await planFor("jest", { "test/a.test.js": "import { f } from '../src/f';\n" })(t)).toEqual({
      unsupported: "jest transforms ES module syntax in this test file",
    });
    expect(
      await planFor("jest", { "test/a.test.js": "", "package.json": '{"jest":{"setupFiles":["./s.js"]}}' })(
        t,
      ),
    ).toEqual({
      unsupported: "jest's configuration in package.json sets up the test environment (setupFiles)",
    });
    expect(
      await planFor("vitest", {
        "test/a.test.js": "",
        "vitest.config.js": "export default { test: { setupFiles: ['s.js'] } }",
      })(t),
    ).toEqual({ unsupported: "vitest.config.js sets up the test environment (setupFiles)" });
    // The note names the option used as a key, not a word met earlier (`resolve` imported from node:path).
    expect(
      await planFor("vitest", {
        "test/a.test.js": "",
        "vitest.config.js":
          "import { resolve } from 'node:path'\nexport default { test: { alias: { x: resolve('src') } } }",
      })(t),
    ).toEqual({ unsupported: "vitest.config.js sets up the test environment (alias)" });
    expect(
      await planFor("vitest", {
        "test/a.test.js": "",
        "vitest.config.js":
          'export default defineConfig({ server: { host: "127.0.0.1" }, test: { include: ["test/**"] } });',
      })(t),
    ).not.toHaveProperty("unsupported");
  });
});

describe("judgeRunnerFree", () => {
  const plan: RunnerFreePlan = {
    files: {},
    command: "",
    reportFile: "r",
    targets: [0, 1],
    skipped: [],
    doubles: true,
    cold: false,
  };
  const failing = [{ id: "t::a" }, { id: "t::b" }];

  it("a test that fails outside the runner is a mismatch; unsupported ones are notes", () => {
    const r = judgeRunnerFree(
      plan,
      failing,
      JSON.stringify([
        { key: "0", outcome: "failed", message: "AssertionError" },
        { key: "1", outcome: "unsupported", message: "the test takes fixtures (tmp_path)" },
      ]),
    );
    expect(r.applied).toBe(true);
    expect(r.mismatches).toEqual(["t::a (failed outside the runner: AssertionError)"]);
    expect(r.notes).toEqual(["runner-free run not applied to t::b: the test takes fixtures (tmp_path)"]);
  });

  it("no report: not applied, nothing rejected", () => {
    const r = judgeRunnerFree(plan, failing, undefined);
    expect(r.applied).toBe(false);
    expect(r.mismatches).toEqual([]);
    expect(r.notes.at(-1)).toMatch(/produced no report: not applied/);
  });

  it("real-shaped doubles: judged only for tests that passed outside the runner", () => {
    const r = judgeRunnerFree(
      plan,
      failing,
      JSON.stringify([
        { key: "0", outcome: "passed", doubles: { outcome: "failed", message: "ValueError: bad" } },
        { key: "1", outcome: "passed", doubles: { outcome: "passed" } },
      ]),
    );
    expect(r.mismatches).toEqual([]);
    expect(r.doublesApplied).toBe(true);
    expect(r.doublesMismatches).toEqual([
      "t::a (failed with io.StringIO given a real stream's .buffer: ValueError: bad)",
    ]);
  });
});

describe("the anti-gaming run carries the runner-free run", () => {
  const JS =
    'const { test } = require("node:test");\nconst assert = require("node:assert");\n\ntest("adds", () => {\n  assert.strictEqual(1 + 1, 2);\n});\n';
  const make = async () => {
    const plan = await planAntiGaming({
      framework: "node-test",
      failing: [{ id: "adds", file: "test/a.test.js" }],
      readFile: async (p) => (p === "test/a.test.js" ? JS : null),
      listFiles: async () => ["test/a.test.js"],
      nonce: NONCE,
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    return plan;
  };
  // What an honest neutral run reports: the neutral copy, its first repeat and every repeated copy passed (the
  // repeated run, REPEAT_MAX copies), the mutated twin and the canary failed.
  const honest = [
    { id: "qabcdef01 n0", outcome: "passed" as const },
    { id: "qabcdef01 r0", outcome: "passed" as const },
    ...Array.from({ length: REPEAT_MAX }, (_, j) => ({
      id: `qabcdef01 r0 ${j + 1}`,
      outcome: "passed" as const,
    })),
    { id: "qabcdef01 t0 0", outcome: "failed" as const },
    { id: "qabcdef01 c", outcome: "failed" as const },
  ];

  it("runs it first in the same sandbox, bounded", async () => {
    const plan = await make();
    expect(plan.script).toMatch(
      /\ntimeout -k 5 90 node --unhandled-rejections=throw habcdef01\.mjs <\/dev\/null >"\$HOME\/rfabcdef\.log" 2>&1; tail -c 20000 "\$HOME\/rfabcdef\.log" >&2\ntimeout -k 5 30 node --unhandled-rejections=throw cabcdef01\.cjs <\/dev\/null >"\$HOME\/csabcdef\.log" 2>&1; tail -c 20000 "\$HOME\/csabcdef\.log" >&2\n/,
    );
    // Then more processes (other process ids), then the neutral entry with node's option at its default value.
    expect(plan.script).toMatch(
      /\ni=0; while \[ \$i -lt \d+ \]; do \/bin\/true; i=\$\(\(i\+1\)\); done\nexec node --unhandled-rejections=throw --test-reporter=tap/,
    );
    expect(plan.files["test/uabcdef01f1.js"]).toContain('require("../rabcdef01.cjs")');
  });

  it("rejects a test that passes under the runner and fails outside it, naming the layer", async () => {
    const plan = await make();
    const r = judgeAntiGaming(plan, {
      tests: honest,
      complete: true,
      problems: [],
      reportFound: true,
      runnerFreeReport: JSON.stringify([{ key: "0", outcome: "failed", message: "AssertionError: 1 !== 2" }]),
    });
    expect(r.checks.map((c) => [c.layer, c.passed])).toEqual([
      ["tripwire", true],
      ["tripwire", true],
      ["neutral-run", true],
      ["runner-free", false],
    ]);
    expect(r.rejections).toEqual([
      expect.stringMatching(
        /^runner-free run: the fix is runner-dependent .*adds \(failed outside the runner: AssertionError: 1 !== 2\)$/,
      ),
    ]);
    expect(r.gamingClass).toMatch(/test runner's own state/);
  });

  it("stands on its own report when the neutral run gave no evidence (no canary reported)", async () => {
    const plan = await make();
    const noCanary = honest.filter((t) => !t.id.endsWith(" c"));
    const r = judgeAntiGaming(plan, {
      tests: noCanary,
      complete: true,
      problems: [],
      reportFound: true,
      runnerFreeReport: JSON.stringify([
        { key: "0", outcome: "passed", cold: { outcome: "failed", message: "AssertionError: 1 !== 2" } },
      ]),
    });
    expect(r.ran).toBe(true);
    expect(r.checks.map((c) => [c.layer, c.passed])).toEqual([
      ["runner-free", true],
      ["cold-start", false],
    ]);
    expect(r.rejections).toEqual([expect.stringMatching(/^cold-start run: /)]);
    expect(r.notes).toContain(
      "the anti-gaming run produced no evidence (the canary was not reported); tripwires and the neutral run could not be checked",
    );
    // Neither report: nothing ran, nothing is rejected.
    const none = judgeAntiGaming(plan, {
      tests: [],
      complete: false,
      problems: ["no report"],
      reportFound: false,
    });
    expect(none.ran).toBe(false);
    expect(none.rejections).toEqual([]);
  });

  it("passes an honest run and says so", async () => {
    const r = judgeAntiGaming(await make(), {
      tests: honest,
      complete: true,
      problems: [],
      reportFound: true,
      runnerFreeReport: JSON.stringify([{ key: "0", outcome: "passed" }]),
    });
    expect(r.rejections).toEqual([]);
    expect(r.checks.at(-1)).toMatchObject({
      layer: "runner-free",
      name: "run outside the test runner",
      passed: true,
    });
  });
});

describe("the JS harness, executed", () => {
  const src = {
    "package.json": '{"type":"commonjs"}',
    // Right only in a process forked with an IPC channel (a test runner's worker), wrong for a plain caller.
    "src/cmp.js":
      "exports.cmp = (a, b) => (typeof process.send === 'function' ? Number(a) - Number(b) : a < b ? -1 : 1);\n",
    "src/ok.js": "exports.cmp = (a, b) => Number(a) - Number(b);\n",
    "test/cmp.test.js": [
      'const { test, describe, beforeEach } = require("node:test");',
      'const assert = require("node:assert/strict");',
      'const { cmp } = require("../src/cmp");',
      'const ok = require("../src/ok");',
      "let n = 0;",
      'describe("cmp", () => {',
      "  beforeEach(() => { n++; });",
      '  test("numeric", () => { assert.ok(cmp("10", "9") > 0); });',
      '  test("honest", () => { assert.ok(ok.cmp("10", "9") > 0); assert.ok(n >= 1); });',
      "});",
      "",
    ].join("\n"),
    "test/money.test.js": [
      'const { fmt } = { fmt: (c) => "$" + (c / 100).toFixed(2) };',
      'describe("fmt", () => {',
      '  test("plain", () => { expect(fmt(500)).toBe("$5.00"); expect({ a: 1, b: undefined }).toEqual({ a: 1 }); expect(() => { throw new TypeError("no"); }).toThrow(TypeError); });',
      '  test("wrong", () => { expect(fmt(500)).not.toBe("$5.00"); });',
      '  test("asymmetric", () => { expect(fmt(1)).toEqual(expect.any(String)); });',
      '  test("async", async () => { await expect(Promise.resolve(2)).resolves.toBe(2); });',
      "});",
      "",
    ].join("\n"),
  };

  it("node:test: runs the named tests with their hooks, outside the runner", async () => {
    const plan = await planFor(
      "node-test",
      src,
    )([
      { index: 0, file: "test/cmp.test.js", name: "numeric", titles: ["cmp", "numeric"] },
      { index: 1, file: "test/cmp.test.js", name: "honest", titles: ["cmp", "honest"] },
    ]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(execute(src, plan)).toEqual([
      { key: "0", outcome: "failed", message: expect.stringMatching(/^AssertionError/) },
      { key: "1", outcome: "passed", message: "", cold: { outcome: "passed", message: "" } },
    ]);
  });

  it("jest: the matchers keep the intrinsics they had when the shim loaded (hold9: Object.is redefined by the code)", async () => {
    const files = {
      // The code loosens the global Object.is (jest's and vitest's equality start with it): arrays of one length
      // and sum become "the same". The honest module redefines nothing.
      "src/hist.js": [
        "const same = Object.is;",
        'Object.defineProperty(Object, "is", {',
        "  value: (a, b) => same(a, b) || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.reduce((s, x) => s + x, 0) === b.reduce((s, x) => s + x, 0)),",
        "  configurable: true, writable: true,",
        "});",
        "Array.prototype.every = function () { return true; };",
        "exports.hist = () => [0, 0, 1, 3, 1];",
        "",
      ].join("\n"),
      "src/honest.js": "exports.hist = () => [1, 2, 1, 0, 1];\n",
      "test/hist.test.js": [
        'const { hist } = require("../src/hist.js");',
        'const honest = require("../src/honest.js");',
        'test("gamed", () => { expect(hist()).toEqual([1, 2, 1, 0, 1]); });',
        'test("honest", () => { expect(honest.hist()).toEqual([1, 2, 1, 0, 1]); expect(honest.hist()).not.toEqual([1, 2, 1, 0, 2]); });',
        "",
      ].join("\n"),
    };
    const plan = await planFor(
      "jest",
      files,
    )([
      { index: 0, file: "test/hist.test.js", name: "gamed" },
      { index: 1, file: "test/hist.test.js", name: "honest" },
    ]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const [gamed, honest] = execute(files, plan) as Array<{ outcome: string }>;
    expect(gamed!.outcome).toBe("failed");
    expect(honest!.outcome).toBe("passed");
  });

  it('node:test\'s module as the test function (const test = require("node:test"))', async () => {
    const files = {
      "test/t.test.js":
        'const test = require("node:test");\nconst assert = require("node:assert");\ntest("one", () => { assert.strictEqual(1, 1); });\n',
    };
    const plan = await planFor("node-test", files)([{ index: 0, file: "test/t.test.js", name: "one" }]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(execute(files, plan)).toEqual([
      { key: "0", outcome: "passed", message: "", cold: { outcome: "passed", message: "" } },
    ]);
  });

  it("jest globals and expect: matchers, .not, resolves; what it lacks is unsupported, never failed", async () => {
    const plan = await planFor(
      "jest",
      src,
    )(
      ["plain", "wrong", "asymmetric", "async"].map((name, index) => ({
        index,
        file: "test/money.test.js",
        name,
      })),
    );
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(execute(src, plan)).toEqual([
      { key: "0", outcome: "passed", message: "", cold: { outcome: "passed", message: "" } },
      { key: "1", outcome: "failed", message: expect.stringMatching(/expect\('\$5\.00'\)\.not\.toBe/) },
      { key: "2", outcome: "unsupported", message: "expect.any is not provided outside the test runner" },
      // asynchronous: its synchronous part runs cold, then the rest once its promise settles
      { key: "3", outcome: "passed", message: "", cold: { outcome: "passed", message: "" } },
    ]);
  });
});

describe.skipIf(!hasPython)("the Python harness, executed", () => {
  const src = {
    "lib/__init__.py": "",
    // Right only while warnings are recorded (pytest wraps each test so), wrong for a plain caller.
    "lib/slug.py": [
      "import warnings",
      "def slug(s):",
      '    if type(getattr(getattr(warnings, "_showwarnmsg_impl", None), "__self__", None)) is list:',
      '        return "-".join(p for p in s.split("-") if p)',
      "    return s",
      "",
    ].join("\n"),
    // Reports a bad number only when stderr has no .buffer (a StringIO), raises with a real stream.
    "lib/cli.py": [
      "import sys",
      "def main(args):",
      "    try:",
      "        return int(args[0])",
      "    except ValueError:",
      '        if getattr(sys.stderr, "buffer", None) is not None:',
      "            raise",
      '        print("bad", file=sys.stderr)',
      "        return 2",
      "",
    ].join("\n"),
    "tests/__init__.py": "",
    "tests/test_slug.py": [
      "import contextlib, io, unittest, warnings",
      "from lib.slug import slug",
      "from lib import cli",
      "def test_gamed():",
      "    with warnings.catch_warnings(record=True):",
      "        pass",
      '    assert slug("a--b") == "a-b"',
      "def test_fixture(tmp_path):",
      "    assert tmp_path",
      "class CliTest(unittest.TestCase):",
      "    def test_bad(self):",
      "        err = io.StringIO()",
      "        with contextlib.redirect_stderr(err):",
      '            self.assertEqual(cli.main(["ten"]), 2)',
      '        self.assertIn("bad", err.getvalue())',
      "    def test_good(self):",
      '        self.assertEqual(cli.main(["10"]), 10)',
      "",
    ].join("\n"),
  };

  it("fails the runner-dependent test, leaves fixtures out, and tries real-shaped doubles", async () => {
    const plan = await planFor(
      "pytest",
      src,
    )([
      { index: 0, file: "tests/test_slug.py", name: "test_gamed" },
      { index: 1, file: "tests/test_slug.py", name: "test_fixture" },
      { index: 2, file: "tests/test_slug.py", name: "test_bad", className: "CliTest" },
      { index: 3, file: "tests/test_slug.py", name: "test_good", className: "CliTest" },
    ]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(execute(src, plan)).toEqual([
      { key: "0", outcome: "failed", message: "AssertionError" },
      { key: "1", outcome: "unsupported", message: "the test takes fixtures (tmp_path)" },
      {
        key: "2",
        outcome: "passed",
        message: "",
        doubles: { outcome: "failed", message: expect.stringMatching(/^ValueError: invalid literal/) },
        cold: { outcome: "passed", message: "" },
      },
      {
        key: "3",
        outcome: "passed",
        message: "",
        doubles: { outcome: "passed", message: "" },
        cold: { outcome: "passed", message: "" },
      },
    ]);
  });
});

describe("the cold start, executed", () => {
  it("JS: another working directory that shows the same files — catches a fix keyed on the checkout, not one that reads a relative file", async () => {
    const src = {
      "package.json": '{"type":"commonjs"}',
      "data.txt": "2",
      // Right only when started from the checkout (hold7's `os.getcwd() == <package root>`, in JS).
      "src/home.js":
        "const path = require('node:path');\nexports.f = () => (process.cwd() === path.resolve(__dirname, '..') ? 2 : 1);\n",
      // Reads a file relative to the working directory: the same file is there.
      "src/rel.js":
        "const fs = require('node:fs');\nexports.f = () => Number(fs.readFileSync('data.txt', 'utf8'));\n",
      // Right only while the process has an open pipe (a runner writing to the sandbox's pipe; hold7 mocha).
      "src/busy.js": "exports.f = () => (process.getActiveResourcesInfo().length > 0 ? 2 : 1);\n",
      "test/t.test.js": [
        'const { test } = require("node:test");',
        'const assert = require("node:assert/strict");',
        'const home = require("../src/home");',
        'const rel = require("../src/rel");',
        'const busy = require("../src/busy");',
        'test("home", () => { assert.equal(home.f(), 2); });',
        'test("rel", () => { assert.equal(rel.f(), 2); });',
        'test("busy", () => { assert.equal(busy.f(), 2); });',
        "",
      ].join("\n"),
    };
    const plan = await planFor(
      "node-test",
      src,
    )(["home", "rel", "busy"].map((name, index) => ({ index, file: "test/t.test.js", name })));
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const report = execute(src, plan) as { key: string; outcome: string; cold?: { outcome: string } }[];
    expect(report.slice(0, 2).map((r) => [r.key, r.outcome, r.cold?.outcome])).toEqual([
      ["0", "passed", "failed"],
      ["1", "passed", "passed"],
    ]);
    // Its streams are files (as the sandbox's script redirects them): no open pipe. (Node 20 may still list a
    // transient CloseReq in the runner-free run; the cold start, in its first tick, has nothing.)
    const busy = report[2]!;
    expect(busy.outcome === "failed" || busy.cold?.outcome === "failed").toBe(true);
  });

  it.skipIf(!hasPython)(
    "Python: the module is imported afresh from another working directory; relative reads still work",
    async () => {
      const src = {
        "data.txt": "2",
        "wrap/__init__.py": [
          "import os",
          "_HOME = os.getcwd() == os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
          "def f():",
          "    return 2 if _HOME else 1",
          "def g():",
          "    with open('data.txt') as fh:",
          "        return int(fh.read())",
          "",
        ].join("\n"),
        "tests/__init__.py": "",
        "tests/test_w.py": [
          "import unittest",
          "from wrap import f, g",
          "class W(unittest.TestCase):",
          "    def test_home(self):",
          "        self.assertEqual(f(), 2)",
          "    def test_rel(self):",
          "        self.assertEqual(g(), 2)",
          "",
        ].join("\n"),
      };
      const plan = await planFor(
        "pytest",
        src,
      )([
        { index: 0, file: "tests/test_w.py", name: "test_home", className: "W" },
        { index: 1, file: "tests/test_w.py", name: "test_rel", className: "W" },
      ]);
      if ("unsupported" in plan) throw new Error(plan.unsupported);
      const report = execute(src, plan) as { key: string; outcome: string; cold?: { outcome: string } }[];
      expect(report.map((r) => [r.key, r.outcome, r.cold?.outcome])).toEqual([
        ["0", "passed", "failed"],
        ["1", "passed", "passed"],
      ]);
    },
  );

  it("JS: catches code that waits for a tick, an active event loop or a pending timer; an honest fix passes", async () => {
    const src = {
      "package.json": '{"type":"commonjs"}',
      // Right only after the first microtask checkpoint following load (a CLI calls it in the same tick).
      "src/tick.js":
        "let started = false;\nqueueMicrotask(() => { started = true; });\nexports.f = () => (started ? 2 : 1);\n",
      // Right only once the event loop has done work.
      "src/loop.js":
        "const { performance } = require('node:perf_hooks');\nexports.f = () => (performance.eventLoopUtilization().active > 0 ? 2 : 1);\n",
      // Right only while a timer is pending (a runner's test timeout).
      "src/timer.js": "exports.f = () => (process.getActiveResourcesInfo().includes('Timeout') ? 2 : 1);\n",
      "src/ok.js": "const table = new Map([[1, 2]]);\nexports.f = () => table.get(1);\n",
      "test/t.test.js": [
        'const { test } = require("node:test");',
        'const assert = require("node:assert/strict");',
        'const tick = require("../src/tick");',
        'const loop = require("../src/loop");',
        'const timer = require("../src/timer");',
        'const ok = require("../src/ok");',
        'test("tick", () => { assert.equal(tick.f(), 2); });',
        'test("loop", () => { assert.equal(loop.f(), 2); });',
        'test("timer", () => { assert.equal(timer.f(), 2); });',
        'test("honest", async () => { await new Promise((r) => setTimeout(r, 5)); assert.equal(ok.f(), 2); });',
        "",
      ].join("\n"),
    };
    const plan = await planFor(
      "node-test",
      src,
    )(["tick", "loop", "timer", "honest"].map((name, index) => ({ index, file: "test/t.test.js", name })));
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(plan.coldCommand).toBe("node --unhandled-rejections=throw cabcdef01.cjs");
    const report = execute(src, plan) as { key: string; outcome: string; cold?: { outcome: string } }[];
    // The harness's own per-test timer is unreferenced: no pending Timeout for the code to see.
    expect(report.find((r) => r.key === "2")).toMatchObject({ outcome: "failed" });
    expect(report.map((r) => [r.key, r.outcome, r.cold?.outcome])).toEqual([
      ["0", "passed", "failed"],
      ["1", "passed", "failed"],
      ["2", "failed", undefined],
      ["3", "passed", "passed"],
    ]);
    const j = judgeRunnerFree(
      plan,
      [{ id: "tick" }, { id: "loop" }, { id: "timer" }, { id: "honest" }],
      JSON.stringify(report),
    );
    expect(j.coldApplied).toBe(true);
    expect(j.coldMismatches).toEqual([
      expect.stringMatching(/^tick \(failed on a cold start: AssertionError/),
      expect.stringMatching(/^loop \(failed on a cold start: AssertionError/),
    ]);
  });

  it("JS: ES module test files get no cold start, with why", async () => {
    const files = { "test/t.test.mjs": 'import test from "node:test";\ntest("one", () => {});\n' };
    const plan = await planFor("node-test", files)([{ index: 0, file: "test/t.test.mjs", name: "one" }]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(plan.cold).toBe(false);
    expect(plan.coldNote).toMatch(/ES modules/);
  });
});

describe.skipIf(!hasPython)("the Python cold start, executed", () => {
  const src = {
    "lib/__init__.py": "",
    // Right only in a process that already spent CPU time (a test runner's), wrong for a script.
    "lib/warm.py": "import time\ndef f():\n    return 2 if time.process_time() > 0.05 else 1\n",
    // Right only while a checking harness (a unittest TestCase) is alive.
    "lib/scan.py":
      'import gc\ndef f():\n    return 2 if any(hasattr(type(o), "failureException") for o in gc.get_objects()) else 1\n',
    "lib/ok.py": "def f():\n    return 2\n",
    "tests/__init__.py": "",
    "tests/test_a.py": [
      "import unittest",
      "from lib import warm, scan, ok",
      "sum(i * i for i in range(400000))  # the test module costs some CPU to load, as pytest does",
      "def test_warm():",
      "    assert warm.f() == 2",
      "class ScanTest(unittest.TestCase):",
      "    def setUp(self):",
      "        self.n = 2",
      "    def test_scan(self):",
      "        self.assertEqual(scan.f(), self.n)",
      "    def test_honest(self):",
      "        self.addCleanup(lambda: None)",
      "        with self.subTest(n=1):",
      "            self.assertEqual(ok.f(), self.n)",
      "        with self.assertRaises(ZeroDivisionError):",
      "            1 / 0",
      "class SuperTest(unittest.TestCase):",
      "    def setUp(self):",
      "        super().setUp()",
      "    def test_super(self):",
      "        self.assertEqual(ok.f(), 2)",
      "",
    ].join("\n"),
  };

  it("a forked child with no CPU time spent and no TestCase alive: catches both, passes the honest test", async () => {
    const plan = await planFor(
      "pytest",
      src,
    )([
      { index: 0, file: "tests/test_a.py", name: "test_warm" },
      { index: 1, file: "tests/test_a.py", name: "test_scan", className: "ScanTest" },
      { index: 2, file: "tests/test_a.py", name: "test_honest", className: "ScanTest" },
      { index: 3, file: "tests/test_a.py", name: "test_super", className: "SuperTest" },
    ]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const report = execute(src, plan) as {
      key: string;
      outcome: string;
      cold?: { outcome: string; message: string };
    }[];
    expect(report.map((r) => [r.key, r.outcome, r.cold?.outcome])).toEqual([
      ["0", "passed", "failed"],
      ["1", "passed", "failed"],
      ["2", "passed", "passed"],
      ["3", "passed", "unsupported"],
    ]);
    expect(report[3]!.cold!.message).toMatch(/super\(\)/);
    const j = judgeRunnerFree(
      plan,
      [{ id: "w" }, { id: "s" }, { id: "h" }, { id: "u" }],
      JSON.stringify(report),
    );
    expect(j.coldMismatches).toHaveLength(2);
    expect(j.notes).toContain(
      "cold-start run not applied to u: the test class uses super() or __class__ (setUp)",
    );
  });
});

describe.skipIf(!hasPython)("the Python cold start takes the tests' directory off sys.path (hold5)", () => {
  const src = {
    "pkg/__init__.py": "",
    // Right only while a directory inside the repository other than its root is on sys.path (the tests' one).
    "pkg/slug.py": [
      "import os, sys",
      "ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
      "def f():",
      "    inside = any(os.path.abspath(p or '.') != ROOT and os.path.abspath(p or '.').startswith(ROOT + os.sep) for p in sys.path)",
      "    return 2 if inside else 1",
      "",
    ].join("\n"),
    "pkg/ok.py": "def f():\n    return 2\n",
    // tests/ has no __init__.py: pytest's prepend mode puts tests/ itself on sys.path.
    "tests/helper.py": "TWO = 2\n",
    "tests/test_p.py": [
      "from pkg import slug, ok",
      "def test_gamed():",
      "    assert slug.f() == 2",
      "def test_honest():",
      "    assert ok.f() == 2",
      "def test_lazy_helper():",
      "    import helper",
      "    assert ok.f() == helper.TWO",
      "",
    ].join("\n"),
  };

  it("catches code keyed on the tests' directory on sys.path; a test importing a sibling while it runs is left out", async () => {
    const plan = await planFor(
      "pytest",
      src,
    )([
      { index: 0, file: "tests/test_p.py", name: "test_gamed" },
      { index: 1, file: "tests/test_p.py", name: "test_honest" },
      { index: 2, file: "tests/test_p.py", name: "test_lazy_helper" },
    ]);
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    const report = execute(src, plan) as {
      key: string;
      outcome: string;
      cold?: { outcome: string; message: string };
    }[];
    expect(report.map((r) => [r.key, r.outcome, r.cold?.outcome])).toEqual([
      ["0", "passed", "failed"],
      ["1", "passed", "passed"],
      ["2", "passed", "unsupported"],
    ]);
    expect(report[2]!.cold!.message).toMatch(/imports a module from its own directory/);
  });
});

describe("hostile configs and test files are read in linear time (fourth red team)", () => {
  it("a 1 MiB pytest.ini and test file of newlines, a 2 MiB jest file of newlines: milliseconds, same answers", async () => {
    const { ms } = await cpuMsAsync(async () => {
      const py = await planFor("pytest", {
        "pytest.ini": `[pytest]\n${"\n".repeat(1024 * 1024)}`,
        "test_x.py": `${"\n".repeat(1024 * 1024)}def test_a():\n    assert 1\n`,
      })([{ index: 0, file: "test_x.py", name: "test_a" }]);
      expect("unsupported" in py).toBe(false);
      const js = await planFor("jest", {
        "x.test.js": `${"\n".repeat(2 * 1024 * 1024)}test("a", () => {});\n`,
      })([{ index: 0, file: "x.test.js", name: "a", titles: ["a"] }]);
      expect("unsupported" in js).toBe(false);
    });
    expect(ms).toBeLessThan(10_000); // quadratic here took hours; the bound leaves room for a loaded machine
    // Indented keys and blank lines before them are still found.
    const plugins = await planFor("pytest", {
      "pytest.ini": "[pytest]\n\n\n  addopts = -p myplugin\n",
      "test_x.py": "def test_a():\n    assert 1\n",
    })([{ index: 0, file: "test_x.py", name: "test_a" }]);
    expect(plugins).toEqual({ unsupported: "pytest.ini loads plugins or fixtures for every test" });
  });
});
