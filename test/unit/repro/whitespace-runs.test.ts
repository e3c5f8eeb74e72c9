/**
 * Found by the second red team (test/integration/attacks/redteam2-cases.json): a 65,536-character report whose
 * code block holds one long run of spaces that does not end the text cost the host 10 s of CPU (51 s wall),
 * all of it in `/\s+$/`, which from every start in the run scans to the run's end and fails. Trailing whitespace
 * is now cut with `trimEnd` (the same characters, linear), and normalisation collapses runs before trimming.
 */
import { describe, expect, it } from "vitest";
import { MAX_REPORT_CHARS } from "../../../src/repro/bounded.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { normalizeText } from "../../../src/repro/normalize.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const room = MAX_REPORT_CHARS - 200;
const reports: Array<[string, string]> = [
  ["spaces in Python code", `# bug\n\n\`\`\`python\nx = 1${" ".repeat(room)}\nraise KeyError(1)\n\`\`\`\n`],
  ["tabs in Python code", `# bug\n\n\`\`\`python\nx = 1${"\t".repeat(room)}\nraise KeyError(1)\n\`\`\`\n`],
  ["no-break spaces", `# bug\n\n\`\`\`python\nx = 1${"\u00a0".repeat(room)}\nraise KeyError(1)\n\`\`\`\n`],
  [
    "spaces in JavaScript code",
    `# bug\n\n\`\`\`js\nconst x = 1;${" ".repeat(room)}\nthrow new TypeError("x")\n\`\`\`\n`,
  ],
  [
    "spaces in the reported output",
    `# bug\n\n\`\`\`python\nraise KeyError(1)\n\`\`\`\n\nI get:\n\n\`\`\`\nKeyError: 1${" ".repeat(room - 60)}x\n\`\`\`\n`,
  ],
];

describe("host parsing of whitespace runs", () => {
  it.each(reports)("%s: parsed, completed and normalised in well under 2 s", (_name, markdown) => {
    expect(markdown.length).toBeLessThanOrEqual(MAX_REPORT_CHARS);
    const {
      value: { report, program },
      ms,
    } = cpuMs(() => {
      const report = parseReport(markdown);
      const program = completeProgram(report);
      for (const b of report.blocks) normalizeText(b.value);
      return { report, program };
    });
    expect(ms).toBeLessThan(2_000);
    expect(report.blocks.length).toBeGreaterThan(0);
    expect(program === null || typeof program === "object").toBe(true);
  });

  it("normalising keeps what it did: trailing blanks cut, inner runs one space", () => {
    expect(normalizeText("a  \t b \t \nc\t")).toBe("a b\nc");
  });
});
