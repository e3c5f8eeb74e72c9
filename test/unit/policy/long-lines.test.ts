/**
 * The gate's line caps: an added line past `policy.sizeCaps.maxLineLength` is refused, and one past Retrace's own
 * MAX_GATED_LINE_LENGTH is refused whatever the policy allows, before the per-line rules run. Those rules' patterns
 * are bounded, not linear: red team 14's 1 MiB line of `require(` spun for minutes in a fresh-clone CI run, and the
 * lines below (each the opener of a pattern that was quadratic: a regex literal's class, nested `\s*`, open `.*`)
 * stay cheap at the largest line the gate reads.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch, MAX_GATED_CHANGED_LINES, MAX_GATED_LINE_LENGTH } from "../../../src/policy/index.ts";
import { cpuMs } from "../../support/cpu-time.ts";

function patchAdding(file: string, line: string): string {
  return `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1,1 +1,2 @@\n x\n+${line}\n`;
}
const fill = (opener: string, length: number) =>
  opener.repeat(Math.ceil(length / opener.length)).slice(0, length);

describe("line caps", () => {
  it("refuses a line past policy.sizeCaps.maxLineLength, naming the setting", () => {
    const r = evaluatePatch(patchAdding("src/a.js", "x".repeat(1001)), {});
    expect(r.allowed).toBe(false);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]!.message).toMatch(
      /1001 characters long; the limit is 1000 \(policy\.sizeCaps\.maxLineLength\)/,
    );
  });

  it("refuses a line past Retrace's own cap when size caps are off or set higher", () => {
    const line = `const x = ${"1".repeat(MAX_GATED_LINE_LENGTH)};`;
    for (const config of [{ sizeCaps: { enabled: false } }, { sizeCaps: { maxLineLength: 100_000 } }]) {
      const r = evaluatePatch(patchAdding("src/a.js", line), config);
      expect(r.allowed).toBe(false);
      expect(r.violations.map((v) => v.message)).toEqual([
        expect.stringMatching(
          /the limit is 10000 \(the most Retrace gates, whatever policy\.sizeCaps allows\)/,
        ),
      ]);
    }
  });

  it("counter-example: a long but benign line under both caps is read by the rules and allowed", () => {
    const line = `const table = [${"1, ".repeat(3000)}];`;
    expect(line.length).toBeLessThan(MAX_GATED_LINE_LENGTH);
    expect(evaluatePatch(patchAdding("src/a.js", line), { sizeCaps: { enabled: false } })).toEqual({
      allowed: true,
      violations: [],
    });
  });

  const openers = [
    "require(",
    "import(",
    "/[",
    " ",
    "def f(",
    "function(",
    "if ",
    "def f(x: ",
    "import.meta ",
    "x.",
    "K.has(",
    "(crc(a) == ",
  ];
  it.each(openers)("a line of %j at the largest gated length costs little host CPU", (opener) => {
    for (const file of ["src/a.js", "src/a.py"]) {
      const { ms } = cpuMs(() =>
        evaluatePatch(patchAdding(file, fill(opener, MAX_GATED_LINE_LENGTH)), {
          sizeCaps: { enabled: false },
        }),
      );
      // Measured 5–60 ms each at load 3; quadratic patterns took 0.2–1.5 s on these lines.
      expect(ms, `${opener} in ${file}`).toBeLessThan(400);
    }
  });
});

describe("changed-line caps", () => {
  const patchOf = (lines: string[]) =>
    `diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,1 +1,${lines.length + 1} @@\n x\n${lines.map((l) => `+${l}`).join("\n")}\n`;
  // A line the special-casing rule refuses on its own: a checksum of the input compared with a constant.
  const gaming = "if (crc32(row) === 60128) return 'a | b';";

  it("a patch past policy.sizeCaps.maxChangedLines is refused by size caps alone, before the other rules run", () => {
    const r = evaluatePatch(
      patchOf([gaming, ...Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`)]),
      {},
    );
    expect(r.allowed).toBe(false);
    expect(r.violations.map((v) => v.message)).toEqual([
      expect.stringMatching(
        /the patch changes 401 lines; the limit is 400 \(policy\.sizeCaps\.maxChangedLines\)/,
      ),
    ]);
  });

  it("counter-example: under the cap the rules run and name the gaming line", () => {
    const r = evaluatePatch(patchOf([gaming, "const v = 1;"]), {});
    expect(r.allowed).toBe(false);
    expect(new Set(r.violations.map((v) => v.rule))).toEqual(new Set(["special-casing"]));
  });

  it("past Retrace's own cap the patch is refused whatever policy.sizeCaps allows", () => {
    const lines = Array.from({ length: MAX_GATED_CHANGED_LINES + 1 }, () => "x;");
    for (const config of [{ sizeCaps: { enabled: false } }, { sizeCaps: { maxChangedLines: 10_000_000 } }]) {
      const r = evaluatePatch(patchOf(lines), config);
      expect(r.allowed).toBe(false);
      expect(r.violations.map((v) => v.message)).toEqual([
        `the patch changes ${MAX_GATED_CHANGED_LINES + 1} lines; Retrace gates at most ${MAX_GATED_CHANGED_LINES} in one patch (whatever policy.sizeCaps allows)`,
      ]);
    }
  });
});
