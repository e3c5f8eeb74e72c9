/**
 * The linear pre-scan before the markdown parser (issue 14): pathological nesting and delimiter runs cost time
 * bounded by the text, and a real report passes unchanged (the same string, so the same reading).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { boundMarkdown, MAX_DELIMITERS, MAX_NESTING } from "../../../src/repro/bound-markdown.ts";
import { readExpectations, readReport } from "../../../src/repro/context.ts";

const corpus = path.join(import.meta.dirname, "..", "..", "fixtures", "repro-real");
const N = 65_536;
const fill = (unit: string) => `# hostile\n\n${unit.repeat(Math.ceil(N / unit.length))}`.slice(0, N);

/** Host CPU of reading the report (as the pipeline's parse step, with a limit far above what it may take). */
function readCpu(markdown: string) {
  const start = process.cpuUsage();
  const read = readReport(markdown, 600_000);
  const used = process.cpuUsage(start);
  return { read, cpuMs: (used.user + used.system) / 1000 };
}

describe("boundMarkdown", () => {
  it("returns a report with nested lists and code blocks in them as it is, and reads it the same", () => {
    const markdown = readFileSync(
      path.join(import.meta.dirname, "..", "..", "fixtures", "bound-markdown", "nested-list-report.md"),
      "utf8",
    );
    expect(boundMarkdown(markdown)).toBe(markdown);
    const read = readReport(markdown);
    expect(read.unreadable).toBeNull();
    expect(read.report.blocks.map((b) => b.value)).toEqual(["Code\nMore Code", 'printf("Hello, World!");']);
  });

  it("leaves every bundled real report unchanged", () => {
    const ids = readdirSync(corpus, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(ids.length).toBeGreaterThan(300);
    const changed = ids
      .map((d) => path.join(corpus, d.name, "report.md"))
      .filter((f) => {
        const md = readFileSync(f, "utf8");
        return boundMarkdown(md) !== md;
      });
    expect(changed).toEqual([]);
  });

  it("escapes a paragraph's delimiters past the cap, keeping its text", () => {
    const para = "*a* ".repeat(MAX_DELIMITERS);
    const read = readReport(`# t\n\n${para}\n\nshort *b*\n`);
    expect(read.unreadable).toBeNull();
    expect(read.report.prose.other).toContain("*a* *a*"); // read as the literal characters
    expect(read.report.prose.other).not.toContain("*b*"); // a paragraph under the cap keeps its emphasis
  });

  it("keeps a fenced code block byte for byte, and cuts nesting past the cap", () => {
    const code = "```js\nconst x = [[[[*_*]]]] // " + "[*".repeat(500) + "\n```";
    expect(boundMarkdown(`${code}\n`)).toBe(`${code}\n`);
    const deep = `${"> ".repeat(MAX_NESTING + 5)}text`;
    expect(boundMarkdown(deep)).toBe(`${"> ".repeat(MAX_NESTING)}text`);
  });
});

describe("a hostile 65,536-character report costs bounded CPU", () => {
  // Before the pre-scan: `[*` 16 s and `*a_` 46 s of CPU per parse (two parses), `>` a stack overflow.
  for (const [name, markdown] of [
    ["[* repeated", fill("[*")],
    ["*a_ repeated", fill("*a_")],
    // A list item's fence ends with the item: the `[*` after it is prose to the parser, so it is to the pre-scan.
    ["[* after a fence in a list item", `- a\n  \`\`\`\n${fill("[*")}`.slice(0, N)],
    ["[* paragraphs under the cap", fill(`${"[*".repeat(MAX_DELIMITERS / 2)}\n\n`)],
  ] as const) {
    it(`${name}: refused unread, in linear time`, () => {
      const { read, cpuMs } = readCpu(markdown);
      expect(read.unreadable).toMatch(/emphasis or link delimiters/);
      expect(cpuMs).toBeLessThan(1_000);
    });
  }

  for (const [name, markdown] of [
    ["> repeated", fill(">")],
    ["quote+list nesting", fill("> - ")],
    ["<a  repeated", fill("<a ")],
    [
      "delimiters in words, escaped past each paragraph's cap",
      fill(`${"*a* ".repeat(70)}${"word ".repeat(1200)}\n\n`),
    ],
  ] as const) {
    it(`${name}: read`, () => {
      const { read, cpuMs } = readCpu(markdown);
      expect(read.unreadable).toBeNull();
      expect(readExpectations(read.report).unreadable).toBeNull();
      expect(cpuMs).toBeLessThan(4_000);
    });
  }

  it("a list nested 2,000 levels deep: read", () => {
    let nested = "# hostile\n\n";
    for (let i = 0; nested.length < N; i++) nested += `${"  ".repeat(i % 2000)}- x\n`;
    const { read, cpuMs } = readCpu(nested.slice(0, N));
    expect(read.unreadable).toBeNull();
    expect(cpuMs).toBeLessThan(4_000);
  });
});
