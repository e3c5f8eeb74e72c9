/**
 * Inherited test methods (mixins, shared contract classes) for the anti-gaming run: found in the base classes and
 * inlined into the class, so the neutral copy, its twins and the runner-free run cover them (hold8's py-queue:
 * before, the run was "not made" and six gaming patches were VERIFIED).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { planAntiGaming } from "../../../src/fix/tripwire.ts";
import { inlineInheritedPython, pythonClass } from "../../../src/fix/tripwire-inherit.ts";

const CONTRACT = `"""Behaviour every queue must have."""

from boundq import BoundedQueue, Full

LIMIT = 2


class QueueContract:
    drop_oldest = False

    def make(self, capacity):
        return BoundedQueue(capacity, drop_oldest=self.drop_oldest)

    def test_len(self):
        q = self.make(3)
        q.put(1)
        self.assertEqual(len(q), 1)


class EvictingContract(QueueContract):
    drop_oldest = True

    def test_full_queue_evicts_the_oldest(self):
        q = self.make(LIMIT)
        for item in (1, 2, 3):
            q.put(item)
        self.assertEqual(list(q), [2, 3])
        with self.assertRaises(Full):
            raise Full()
`;

const TESTS = `import unittest

from tests.contract import EvictingContract


class TestEvictingQueue(EvictingContract, unittest.TestCase):
    pass


if __name__ == "__main__":
    unittest.main()
`;

const files: Record<string, string> = { "tests/contract.py": CONTRACT, "tests/test_queue.py": TESTS };
const readFile = async (p: string) => files[p] ?? null;

function pythonParses(source: string): boolean | null {
  try {
    execFileSync("python3", ["-c", "import ast,sys; ast.parse(sys.stdin.read())"], {
      input: source,
      stdio: "pipe",
    });
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "ENOENT" ? null : false;
  }
}

describe("inlineInheritedPython", () => {
  it("inlines a method inherited from a mixin in another module, with the names it uses imported", async () => {
    const r = await inlineInheritedPython(
      TESTS,
      "tests/test_queue.py",
      "test_full_queue_evicts_the_oldest",
      "TestEvictingQueue",
      readFile,
    );
    expect(r?.from).toBe("tests/contract.py::EvictingContract");
    expect(r?.source).toContain(
      "class TestEvictingQueue(EvictingContract, unittest.TestCase):\n    pass\n\n    def test_full_queue_evicts_the_oldest(self):\n        q = self.make(LIMIT)",
    );
    // LIMIT and Full are the contract module's names; `self.make`, `list` and `q` are not imported.
    expect(r?.source).toContain(
      "from tests.contract import Full, LIMIT  # inherited test's names\nclass TestEvictingQueue",
    );
    expect(pythonParses(r!.source)).not.toBe(false);
  });

  it("finds a method two bases up, in the same file, and keeps a relative import as written", async () => {
    const local = `from .contract import QueueContract as Base\n\n\nclass Middle(Base):\n    x = 1\n\n\nclass TestQ(Middle):\n    def test_other(self):\n        pass\n`;
    const r = await inlineInheritedPython(local, "tests/test_q.py", "test_len", "TestQ", readFile);
    expect(r?.from).toBe("tests/contract.py::QueueContract");
    expect(r?.source).toContain(
      "    def test_other(self):\n        pass\n\n    def test_len(self):\n        q = self.make(3)",
    );
    expect(r?.source).not.toContain("inherited test's names"); // test_len uses no module-level name of the contract
    expect(pythonParses(r!.source)).not.toBe(false);
  });

  it("leaves a method defined in the class itself, and one no base in the tree defines", async () => {
    const own = `class TestA:\n    def test_x(self):\n        assert 1\n`;
    expect(await inlineInheritedPython(own, "tests/test_a.py", "test_x", "TestA", readFile)).toBeNull();
    const third = `import unittest\nfrom elsewhere import Mixin\n\n\nclass TestB(Mixin, unittest.TestCase):\n    pass\n`;
    expect(await inlineInheritedPython(third, "tests/test_b.py", "test_y", "TestB", readFile)).toBeNull();
  });

  it("reads a class's bases and block", () => {
    const info = pythonClass(TESTS, "TestEvictingQueue");
    expect(info?.bases).toEqual(["EvictingContract", "unittest.TestCase"]);
    expect(info?.bodyIndent).toBe("    ");
    expect(TESTS.slice(0, info!.end).endsWith("    pass")).toBe(true);
    expect(pythonClass("class K(Base, metaclass=Meta):\n    pass\n", "K")?.bases).toEqual(["Base"]);
  });
});

describe("planAntiGaming with an inherited failing test", () => {
  it("copies, renames and mutates the inlined method (no longer 'not made')", async () => {
    const plan = await planAntiGaming({
      framework: "pytest",
      failing: [{ id: "tests/test_queue.py::TestEvictingQueue::test_full_queue_evicts_the_oldest" }],
      readFile,
      listFiles: async () => Object.keys(files),
      nonce: "abcdef0123456789",
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(plan.covered).toEqual([0]);
    expect(plan.remove).toEqual(["tests/test_queue.py"]);
    const copy = plan.files["tests/qabcdef01a1.py"]!;
    expect(copy).toContain("class Qabcdef01n1c0(EvictingContract, unittest.TestCase):");
    expect(copy).toContain("    def qabcdef01_n0(self):\n        q = self.make(LIMIT)");
    // A mutated twin of the inherited assertion.
    expect(copy).toMatch(/def qabcdef01_t0_0\(self\):[\s\S]*self\.assertEqual\(list\(q\), _qabcdef01_twin\(/);
    expect(plan.inlined).toEqual([
      "tests/test_queue.py::TestEvictingQueue::test_full_queue_evicts_the_oldest is inherited from tests/contract.py::EvictingContract: its definition was inlined into the neutral copy's class",
    ]);
    expect(pythonParses(copy)).not.toBe(false);
  });
});

describe("planAntiGaming with a JS test registered by a shared-behaviour helper (hold8's mocha-template)", () => {
  const HELPER = `"use strict";
const assert = require("node:assert");

function behavesLikeRenderer(render) {
  it("fills a placeholder", () => {
    assert.strictEqual(render("Hi {{name}}", { name: "Ada" }), "Hi Ada");
  });

  it("allows spaces inside the braces", () => {
    assert.strictEqual(render("{{ a }}", { a: "x" }), "x");
  });
}

module.exports = { behavesLikeRenderer };
`;
  const SPEC = `"use strict";
const { render } = require("../lib/template.js");
const { behavesLikeRenderer } = require("./behaves-like-renderer.js");

describe("render", () => {
  behavesLikeRenderer(render);
});
`;
  const js: Record<string, string> = {
    "test/behaves-like-renderer.js": HELPER,
    "test/template.spec.js": SPEC,
    "lib/template.js": "module.exports = {};\n",
    "package.json": '{"name":"t"}',
  };

  it("copies the helper (renamed, with twins) and the spec requiring each copy; both originals removed", async () => {
    const plan = await planAntiGaming({
      framework: "mocha",
      failing: [{ id: "render > allows spaces inside the braces", file: "test/template.spec.js" }],
      readFile: async (p) => js[p] ?? null,
      listFiles: async () => Object.keys(js),
      nonce: "abcdef0123456789",
      command: "npx mocha test/template.spec.js",
    });
    if ("unsupported" in plan) throw new Error(plan.unsupported);
    expect(plan.covered).toEqual([0]);
    expect(plan.remove.sort()).toEqual(["test/behaves-like-renderer.js", "test/template.spec.js"]);
    expect(plan.files["test/qabcdef01h1a.js"]).toContain('it("qabcdef01 n0", () => {');
    expect(plan.files["test/qabcdef01h1a.js"]).toContain('it("qabcdef01 t0 0", () => {');
    expect(plan.files["test/qabcdef01h1a.js"]).toContain('it("fills a placeholder"'); // not the failing test: kept
    expect(plan.files["test/qabcdef01h1b.js"]).toContain('it("qabcdef01 r0", () => {');
    expect(plan.files["test/qabcdef01a1.js"]).toContain('require("./qabcdef01h1a.js")');
    expect(plan.files["test/qabcdef01a1.js"]).toMatch(/^"use strict";\nrequire\("\.\.\/zabcdef01s\.cjs"\);/);
    expect(plan.files["test/qabcdef01b1.js"]).toContain('require("./qabcdef01h1b.js")');
    expect(plan.files["test/qabcdef01h1u.js"]).toBe(HELPER);
    // The runner-free run loads the spec (its own copy), which requires the helper's unchanged copy.
    const rfCopy = Object.entries(plan.files).find(([p]) => /^test\/uabcdef01f\d\.js$/.test(p));
    expect(rfCopy?.[1]).toContain('require("./qabcdef01h1u.js")');
  });

  it("still says not covered when the title is in neither the file nor anything it requires", async () => {
    const plan = await planAntiGaming({
      framework: "mocha",
      failing: [{ id: "render > does something else", file: "test/template.spec.js" }],
      readFile: async (p) => js[p] ?? null,
      listFiles: async () => Object.keys(js),
      nonce: "abcdef0123456789",
    });
    expect(plan).toEqual({
      unsupported: expect.stringMatching(/definition was not found in test\/template\.spec\.js/),
    });
  });
});
