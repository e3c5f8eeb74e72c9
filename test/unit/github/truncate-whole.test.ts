/**
 * Caps on what Retrace writes to GitHub that cut inside a surrogate pair or leave a code fence open (red team 32,
 * comment-cap-cuts-surrogate-and-fence): the 65,000-unit cap left a lone high surrogate in a comment and a check-run
 * summary, and a comment cut inside a fence put Retrace's truncation note inside the code block.
 */
import { describe, expect, it } from "vitest";
import { sliceWhole, truncate } from "../../../src/github/octokit-port.ts";

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("caps that cut whole characters and close fences", () => {
  it("never leaves half a surrogate pair", () => {
    const emoji = "\u{1F600}";
    for (const lead of ["", "x"]) {
      const t = truncate(`${lead}${emoji.repeat(40_000)}`, 65_000);
      expect(LONE.test(t)).toBe(false);
      expect(t.length).toBeLessThanOrEqual(65_000);
      expect(t.endsWith("(truncated by Retrace)")).toBe(true);
    }
    expect(sliceWhole(emoji.repeat(200), 255)).toHaveLength(254);
    expect(sliceWhole(`x${emoji.repeat(200)}`, 255)).toHaveLength(255);
    expect(LONE.test(sliceWhole(`x${emoji.repeat(200)}`, 255))).toBe(false);
  });

  it("closes a fence the cut leaves open, before the note", () => {
    for (const opener of ["```text", "~~~~", "  ````"]) {
      const t = truncate(`Output:\n\n${opener}\n${"log line\n".repeat(9_000)}`, 65_000);
      expect(t.length).toBeLessThanOrEqual(65_000);
      const run = opener.trim().match(/^[`~]+/)![0];
      expect(t).toMatch(new RegExp(`\\n${run}\\n\\n… \\(truncated by Retrace\\)$`));
    }
  });

  it("counter-examples: text under the cap unchanged; a closed fence and plain text cut as before", () => {
    const short = "```\ncode\n```\n\u{1F600} done";
    expect(truncate(short, 65_000)).toBe(short);
    expect(sliceWhole("abc", 255)).toBe("abc");
    const plain = "a".repeat(70_000);
    expect(truncate(plain, 65_000)).toBe(`${"a".repeat(64_960)}\n\n… (truncated by Retrace)`);
    const closed = `\`\`\`\ncode\n\`\`\`\n${"b".repeat(70_000)}`;
    expect(truncate(closed, 65_000)).toBe(`${closed.slice(0, 64_960)}\n\n… (truncated by Retrace)`);
    // Inline backticks on an opener line are not a fence (CommonMark): no closing run is added.
    const inline = `\`\`\` a \` b\n${"c".repeat(70_000)}`;
    expect(truncate(inline, 65_000)).toBe(`${inline.slice(0, 64_960)}\n\n… (truncated by Retrace)`);
  });
});
