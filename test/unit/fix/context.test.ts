import { describe, expect, it } from "vitest";
import { gatherContext, symbolsInMessage } from "../../../src/fix/context-gather.ts";
import { estimateTokens, packContext, renderPackedContext } from "../../../src/fix/context-pack.ts";
import { Explorer, type RepoView } from "../../../src/fix/explore.ts";
import { extractFrames, mapRunnerPath } from "../../../src/fix/failure.ts";
import { cpuMsAsync } from "../../support/cpu-time.ts";

function repoOf(files: Record<string, string>): RepoView {
  return {
    readFile: async (p) => files[p] ?? null,
    listFiles: async () => Object.keys(files),
  };
}

const files: Record<string, string> = {
  "src/pricing.py": "TAX = 0.2\n\n\ndef total_price(items):\n    return sum(items) * (1 - TAX)\n",
  "src/util.py": "def helper():\n    return 1\n",
  "tests/test_pricing.py":
    "from src.pricing import total_price\n\n\ndef test_total():\n    assert total_price([10, 10]) == 24\n",
  "big.py": `${"x = 1\n".repeat(5000)}def total_price_old():\n    pass\n`,
  "node_modules/lib/index.js": "function total_price() {}\n",
};

describe("runner path mapping", () => {
  const set = new Set(Object.keys(files));
  it("maps CI runner and sandbox paths to repository paths by suffix, never vendored code", () => {
    expect(mapRunnerPath("/home/runner/work/shop/shop/src/pricing.py", set)).toBe("src/pricing.py");
    expect(mapRunnerPath("/workspace/tests/test_pricing.py", set)).toBe("tests/test_pricing.py");
    expect(mapRunnerPath("./src/util.py", set)).toBe("src/util.py");
    expect(mapRunnerPath("/x/node_modules/lib/index.js", set)).toBeNull();
    expect(mapRunnerPath("/usr/lib/python3/os.py", set)).toBeNull();
  });
  it("extracts Python and JS frames", () => {
    const text =
      'File "/workspace/src/pricing.py", line 5, in total_price\n    at total (/home/runner/work/a/a/src/util.py:2:3)\n';
    expect(extractFrames(text, set)).toEqual([
      { file: "src/pricing.py", line: 5 },
      { file: "src/util.py", line: 2 },
    ]);
  });
});

describe("context gathering and packing", () => {
  it("names symbols from the error and finds their definitions", async () => {
    expect(
      symbolsInMessage("AssertionError: assert 16.0 == 24 where 16.0 = total_price([10, 10])"),
    ).toContain("total_price");
    const candidates = await gatherContext({
      repo: repoOf(files),
      failures: [
        {
          testId: "tests/test_pricing.py::test_total",
          message: "assert 16.0 == 24\n where 16.0 = total_price([10, 10])",
          excerpt: "",
          frames: [],
        },
      ],
      commitDiff: { label: "commit abc1234", diff: "-TAX = 0.1\n+TAX = 0.2\n" },
    });
    const kinds = candidates.map((c) => `${c.kind}:${c.path}`);
    expect(kinds).toContain("failing-test:tests/test_pricing.py");
    expect(kinds).toContain("symbol-definition:src/pricing.py");
    expect(kinds).toContain("commit-diff:commit abc1234");
    expect(kinds).not.toContain("symbol-definition:node_modules/lib/index.js");
    const def = candidates.find((c) => c.path === "src/pricing.py");
    expect(def?.focusLine).toBe(4);
  });

  it("packs by rank under the budget, cuts big files to a window and lists what was left out", async () => {
    const candidates = await gatherContext({
      repo: repoOf(files),
      failures: [
        {
          testId: "tests/test_pricing.py::test_total",
          message: "total_price_old failed",
          excerpt: "",
          frames: [],
        },
      ],
    });
    const packed = packContext(candidates, 400);
    expect(packed.tokens).toBeLessThanOrEqual(400);
    expect(packed.items[0]?.kind).toBe("failing-test");
    const big = packed.items.find((i) => i.path === "big.py");
    expect(big?.whole).toBe(false);
    expect(big?.text).toContain("def total_price_old");
    expect(packed.omitted.find((o) => o.path === "big.py")?.why).toMatch(/only lines \d+-\d+ of 5002/);
    const tiny = packContext(candidates, 30);
    expect(tiny.items).toEqual([]);
    expect(tiny.omitted.length).toBe(candidates.length);
    expect(renderPackedContext(tiny)).toContain("left out of this context");
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(() => packContext(candidates, 0)).toThrow(/positive integer/);
  });
});

describe("exploration tools", () => {
  it("reads ranges, greps, lists, refuses escaping paths and stops at its call limit", async () => {
    const ex = new Explorer(repoOf(files), { maxCalls: 5 });
    const r1 = await ex.run({
      id: "1",
      name: "read_file",
      input: { path: "src/pricing.py", start_line: 4, end_line: 5 },
    });
    expect(r1).toEqual({
      isError: false,
      content:
        "src/pricing.py (lines 4-5 of 6)\n    4| def total_price(items):\n    5|     return sum(items) * (1 - TAX)",
    });
    const r2 = await ex.run({ id: "2", name: "grep", input: { pattern: "def ", path: "src" } });
    expect(r2.content).toBe("src/pricing.py:4: def total_price(items):\nsrc/util.py:1: def helper():");
    const r3 = await ex.run({ id: "3", name: "list_dir", input: { path: "." } });
    expect(r3.content.split("\n")).toEqual(["big.py", "node_modules/", "src/", "tests/"]);
    const r4 = await ex.run({ id: "4", name: "read_file", input: { path: "../../etc/passwd" } });
    expect(r4.isError).toBe(true);
    expect(r4.content).toContain("inside the repository");
    // The pattern is literal: "(" is a character to find, not a broken group.
    const r5 = await ex.run({ id: "5", name: "grep", input: { pattern: "(items)", path: "src" } });
    expect(r5).toEqual({
      isError: false,
      content:
        "src/pricing.py:4: def total_price(items):\nsrc/pricing.py:5:     return sum(items) * (1 - TAX)",
    });
    const r6 = await ex.run({ id: "6", name: "list_dir", input: { path: "src" } });
    expect(r6).toEqual({
      isError: true,
      content: "exploration limit reached (5 calls); answer with what you have.",
    });
  });

  it("greps literally: a catastrophic regex is just text, answered at once", async () => {
    const repo = repoOf({ "long.txt": `${"a".repeat(40)}!\n`, "re.txt": "x = /^(a+)+$/\n" });
    const ex = new Explorer(repo);
    const { value: r, ms } = await cpuMsAsync(() =>
      ex.run({ id: "1", name: "grep", input: { pattern: "^(a+)+$" } }),
    );
    expect(ms).toBeLessThan(1_000);
    expect(r).toEqual({ isError: false, content: "re.txt:1: x = /^(a+)+$/" });
    const none = await ex.run({ id: "2", name: "grep", input: { pattern: "def \\w+\\(" } });
    expect(none.isError).toBe(false);
    expect(none.content).toMatch(
      /^no matches \(the pattern is matched literally, not as a regular expression/,
    );
  });

  it("greps case-insensitively on request, and caps the text one search scans", async () => {
    const repo = repoOf({ "a.py": "TOTAL = 1\n", "b.py": "total = 2\n", "c.py": "Total = 3\n" });
    const exact = await new Explorer(repo).run({ id: "1", name: "grep", input: { pattern: "total" } });
    expect(exact.content).toBe("b.py:1: total = 2");
    const any = await new Explorer(repo).run({
      id: "2",
      name: "grep",
      input: { pattern: "total", ignore_case: true },
    });
    expect(any.content).toBe("a.py:1: TOTAL = 1\nb.py:1: total = 2\nc.py:1: Total = 3");
    const capped = await new Explorer(repo, { maxScanChars: 15 }).run({
      id: "3",
      name: "grep",
      input: { pattern: "=", ignore_case: true },
    });
    expect(capped.content).toBe(
      "a.py:1: TOTAL = 1\n[search stopped after 15 characters of text; pass a path to narrow it]",
    );
  });
});
