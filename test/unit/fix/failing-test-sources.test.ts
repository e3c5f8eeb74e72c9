/**
 * The failing tests' sources the gate's second pass compares the patch with (special-casing): `python -m unittest`
 * TestCases are found as pytest finds them (hold10: with no source, a catalogue of the test's ISBN was VERIFIED).
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/core/ports/workspace.ts";
import type { TestCommand, TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { failingTestSources } from "../../../src/fix/verify.ts";

const TEST = `import unittest

from isbnlib import is_isbn10


class TestIsbn(unittest.TestCase):
    def test_plain(self):
        self.assertTrue(is_isbn10("0306406152"))

    def test_x_check_digit(self):
        self.assertTrue(is_isbn10("0-8044-2957-X"))


if __name__ == "__main__":
    unittest.main()
`;

const workspace = {
  root: "/nowhere",
  readFile: async (p: string) => {
    if (p === "tests/test_isbn.py") return TEST;
    throw new Error(`no ${p}`);
  },
  listFiles: async () => ["tests/__init__.py", "tests/test_isbn.py", "isbnlib/check.py"],
} as unknown as Workspace;

const base = (id: string): TestRunResult =>
  ({
    tests: [
      { id, outcome: "failed" },
      { id: "x", outcome: "passed" },
    ],
  }) as unknown as TestRunResult;

describe("failingTestSources", () => {
  it.each([
    "test_x_check_digit (tests.test_isbn.TestIsbn.test_x_check_digit)",
    "tests.test_isbn.TestIsbn.test_x_check_digit",
  ])("finds a `python -m unittest` test's method by its unittest id: %s", async (id) => {
    const command: TestCommand = {
      framework: "unknown",
      command: "python3 -m unittest tests.test_isbn",
      detectedBy: "--test",
    };
    const found = await failingTestSources(workspace, command, [base(id)]);
    expect(found).toHaveLength(1);
    expect(found[0]!.id).toBe(id);
    expect(found[0]!.file).toBe("tests/test_isbn.py");
    expect(found[0]!.body).toContain('is_isbn10("0-8044-2957-X")');
    expect(found[0]!.body).not.toContain("0306406152"); // the method, not the class or the file
    expect(found[0]!.body).not.toContain("__main__");
  });

  it("has none for another unknown command", async () => {
    const command: TestCommand = { framework: "unknown", command: "make check", detectedBy: "--test" };
    expect(await failingTestSources(workspace, command, [base("tests.test_isbn")])).toEqual([]);
  });
});
