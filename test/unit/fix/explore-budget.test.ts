/**
 * Red team 30: the exploration tools' host work outside their caps. grep read every file whole before its
 * per-file limit or binary check skipped it, counted none of that, and re-listed and re-read the checkout on every
 * call (20 calls over 40 files of 7.5 MiB, 400 binary files of 900 KiB or 20,000 small files each passed 40 s of
 * CPU); an error answer echoed the model's input whole (a 200,000-character path). Now each file is read once per
 * job, every read counts toward a job-wide read budget, the file list is taken once, and every answer is capped.
 */
import { describe, expect, it } from "vitest";
import { Explorer, type RepoView } from "../../../src/fix/explore.ts";

/** A repository view that counts what is asked of it. */
function counted(files: Record<string, string>) {
  const reads = new Map<string, number>();
  let lists = 0;
  const repo: RepoView = {
    readFile: async (p) => {
      reads.set(p, (reads.get(p) ?? 0) + 1);
      return files[p] ?? null;
    },
    listFiles: async () => {
      lists++;
      return Object.keys(files);
    },
  };
  return { repo, reads, lists: () => lists };
}

const grep = (ex: Explorer, pattern: string, extra: Record<string, unknown> = {}) =>
  ex.run({ id: "g", name: "grep", input: { pattern, ...extra } });

describe("exploration tools' work (red team 30)", () => {
  it("reads a file skipped as too large or binary once per job, not once per call", async () => {
    const files: Record<string, string> = { "src/a.py": "def total():\n    return 1\n" };
    for (let i = 0; i < 5; i++) files[`gen/big${i}.txt`] = "x".repeat(1_100_000);
    for (let i = 0; i < 5; i++) files[`assets/b${i}.bin`] = `PNG\0${"y".repeat(1000)}`;
    const { repo, reads, lists } = counted(files);
    const ex = new Explorer(repo);
    for (let i = 0; i < 20; i++)
      expect((await grep(ex, "def total")).content).toBe("src/a.py:1: def total():");
    expect(Math.max(...reads.values())).toBe(1);
    expect(lists()).toBe(1);
  });

  it("stops reading new files when the job's read budget is spent, and says so", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`f${i}.txt`] = `${"z".repeat(5_000)}\nneedle ${i}\n`;
    const { repo, reads } = counted(files);
    const ex = new Explorer(repo, { maxReadChars: 25_000 });
    const first = await grep(ex, "needle");
    expect(first.content).toContain("f0.txt:2: needle 0");
    expect(first.content).toMatch(
      /\[5 file\(s\) not searched: this job's searches have read what they may of the repository \(25000 characters/,
    );
    expect(reads.size).toBe(5);
    // What was read is still searched; nothing more is read.
    const again = await grep(ex, "needle 3");
    expect(again.content).toMatch(/^f3\.txt:2: needle 3/);
    expect(reads.size).toBe(5);
  });

  it("counts every file read, however small, toward the budget", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`s/f${i}.txt`] = "a\n";
    const { repo, reads } = counted(files);
    const ex = new Explorer(repo, { maxReadChars: 10 * 1024 });
    await grep(ex, "b");
    expect(reads.size).toBe(10);
  });

  it("reads at most maxReadFiles files over the job", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`s/f${i}.txt`] = "a\n";
    const { repo, reads } = counted(files);
    const ex = new Explorer(repo, { maxReadFiles: 7 });
    expect((await grep(ex, "a")).content).toMatch(/\[93 file\(s\) not searched/);
    await grep(ex, "b");
    expect(reads.size).toBe(7);
  });

  it("caps every answer, an error echoing a 200,000-character path included", async () => {
    const ex = new Explorer(counted({ "a.txt": "one\n" }).repo, { maxChars: 500 });
    const long = `${"a/".repeat(100_000)}x`;
    for (const call of [
      { name: "read_file", input: { path: long } },
      { name: "grep", input: { pattern: "one", path: `../${long}` } },
      { name: "list_dir", input: { path: `/${long}` } },
      { name: "x".repeat(100_000), input: {} },
      { name: "grep", input: { pattern: "p".repeat(1_000_000) } },
    ]) {
      const r = await ex.run({ id: "c", ...call });
      expect(r.isError).toBe(true);
      expect(r.content.length).toBeLessThanOrEqual(500 + 40);
    }
  });

  // Counter-examples: what grep answered before, it answers now.
  it("finds every matching line with its number, one entry per line, the last line without a newline too", async () => {
    const ex = new Explorer(
      counted({
        "m.py": "total = 1\nx = total + total\n\n# no\ntotal",
        "n.py": "TOTAL\n",
      }).repo,
    );
    expect((await grep(ex, "total")).content).toBe(
      "m.py:1: total = 1\nm.py:2: x = total + total\nm.py:5: total",
    );
    expect((await grep(ex, "total", { ignore_case: true })).content).toBe(
      "m.py:1: total = 1\nm.py:2: x = total + total\nm.py:5: total\nn.py:1: TOTAL",
    );
  });

  it("keeps line numbers and text right when lower-casing changes a text's length", async () => {
    // U+0130 lower-cases to two code units.
    const ex = new Explorer(counted({ "t.txt": "\u0130stanbul\nTOTAL here\n" }).repo);
    expect((await grep(ex, "total", { ignore_case: true })).content).toBe("t.txt:2: TOTAL here");
    expect((await grep(ex, "\u0130stan")).content).toBe("t.txt:1: \u0130stanbul");
  });

  it("still caps the matches and the text one search scans", async () => {
    const lines = Array.from({ length: 80 }, (_, i) => `hit ${i}`).join("\n");
    const ex = new Explorer(counted({ "h.txt": lines, "i.txt": "hit\n" }).repo, { maxMatches: 3 });
    expect((await grep(ex, "hit")).content).toBe(
      "h.txt:1: hit 0\nh.txt:2: hit 1\nh.txt:3: hit 2\n[more than 3 matches; narrow the search]",
    );
    const small = new Explorer(counted({ "a.txt": "aaaa\n", "b.txt": "aaaa\n" }).repo, { maxScanChars: 6 });
    expect((await grep(small, "a")).content).toBe(
      "a.txt:1: aaaa\n[search stopped after 6 characters of text; pass a path to narrow it]",
    );
  });
});
