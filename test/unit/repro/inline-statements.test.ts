/**
 * The language of code pasted without a fence or in inline spans, read from all of it (issue 12, hold6 classes):
 * statements typed one per line, each in backticks of its own, are one program whose language the import line
 * decides; an unlabelled block's signs are read outside its string literals. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { detectLanguage } from "../../../src/repro/detect-language.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { inlineStatementLines } from "../../../src/repro/plain-code.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const f = "```";
const programOf = (md: string, pkg?: string) => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation, pkg);
};

describe("statements one per line, each in its own backticks", () => {
  it("make one program, Python by its import line, with the assignment the call needs", () => {
    const md = [
      "# capitalised words lose their separator",
      "",
      "`from titlecase import titlecase`",
      "`words='hello wörld'`",
      "`titlecase(words)`",
      "",
      "Out: 'Hello Wörld!'",
      "",
      "**I expected 'Hello Wörld'**",
    ].join("\n");
    const p = programOf(md);
    expect(p?.language).toBe("python");
    const code = p ? p.files[p.entry]! : "";
    expect(code).toMatch(/from titlecase import titlecase/);
    expect(code).toMatch(/words='hello wörld'/);
    expect(code).toMatch(/titlecase\(words\)/);
  });

  it("JavaScript lines stay JavaScript", () => {
    expect(inlineStatementLines("`const ms = require('ms')`\n`ms('1h')`")).toBe(
      "const ms = require('ms')\nms('1h')",
    );
    const p = programOf("# bug\n\n`const ms = require('ms')`\n`console.log(ms('1h'))`\n\nprints 3600000\n");
    expect(p?.language).toBe("javascript");
  });

  it("does not take a sentence with code spans in it, a single span, or spans that are not statements", () => {
    expect(inlineStatementLines("Calling `f(x)` returns\n`None` here")).toBeNull();
    expect(inlineStatementLines("`f(x)`")).toBeNull();
    expect(inlineStatementLines("`--verbose`\n`--quiet`")).toBeNull();
    expect(inlineStatementLines("`README.md`\n`package.json`")).toBeNull();
    // names and values only: no call or import among them
    expect(inlineStatementLines("`x = 1`\n`y = 2`")).toBeNull();
  });

  it("is linear on a long paragraph of spans", () => {
    const raw = Array.from({ length: 200 }, (_, i) => `\`v${i} = f(${i})\``).join("\n");
    const { ms } = cpuMs(() => {
      expect(inlineStatementLines(raw)?.split("\n")).toHaveLength(200);
      expect(inlineStatementLines(`${raw}\n\`x = f(1)\``)).toBeNull(); // over 200 lines: not a pasted snippet
      expect(inlineStatementLines(`${"` ".repeat(30_000)}\n\`f(1)\``)).toBeNull();
    });
    expect(ms).toBeLessThan(500);
  });
});

describe("an unlabelled block's signs are read outside its strings", () => {
  it("a Python call whose string holds `===` is Python", () => {
    expect(detectLanguage("SpecifierSet('===1.a1', prereleases=True).contains(\"1.a1\")")).toBe("python");
    const p = programOf(
      `# bug\n\n${f}\nRange('>=1.0', strict=True).admits("1.0")\n${f}\n\nIt returns \`False\`.\n`,
    );
    expect(p?.language).toBe("python");
  });

  it("JavaScript whose strings hold Python words stays JavaScript; quotes still count where a sign needs them", () => {
    expect(detectLanguage("const s = 'True or None';\nconsole.log(s === 'x');")).toBe("javascript");
    expect(detectLanguage("const x = require('None');\nx.run();")).toBe("javascript");
    expect(detectLanguage('name = "x"\nprint(f"{name} is None")')).toBe("python");
  });
});

describe("the repository's package imported by its module name", () => {
  const md = "# bug\n\n`from titlecase_kit import titlecase`\n`titlecase('a b')`\n\nOut: 'A b'\n";
  it("is that package (python-titlecase-kit), not the index's package of the module's name", () => {
    expect(programOf(md, "python-titlecase-kit")?.dependencies).toEqual(["python-titlecase-kit"]);
  });
  it("another module stays what it is named, and without --package the module's name is the package", () => {
    expect(programOf(md, "other-pkg")?.dependencies).toEqual(["titlecase_kit"]);
    expect(programOf(md)?.dependencies).toEqual(["titlecase_kit"]);
  });
});

describe("a paragraph that says what the reporter hoped for", () => {
  it("is the expected value, not the reported one", () => {
    const report = parseReport(
      "# bug\n\n`from titlecase_kit import titlecase`\n`titlecase('a b')`\n\nOut: 'A b'\n\n**what I hope to get: 'A B'**\n",
    );
    const r = reportedExpectations(report);
    expect(JSON.stringify(r)).not.toMatch(/"reported[^}]*A B/);
    expect(report.prose.expected).toMatch(/A B/);
  });
});
