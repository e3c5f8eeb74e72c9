/**
 * A fenced block after the report's code whose every line opens with the label a print of that code writes is the
 * code's output, whatever its fence (issue 12, hold21 htmlparser-140875's shape: a ```python block holding
 * `handle_data received: 'A'`). Reports written here.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const code = `${f}python\nimport textwrap\n\ndef show(s):\n    print(f"dedent gives: {textwrap.dedent(s)!r}")\n\nshow("  a")\n${f}`;

describe("a block of lines a print of the code writes", () => {
  it("is the code's output and the claim, not a second program", () => {
    const md = `# dedent\n\n${code}\n\n${f}python\ndedent gives: 'a'\n${f}\n`;
    const r = parseReport(md);
    expect(r.blocks.map((b) => b.kind)).toEqual(["code", "output"]);
    expect(reportedExpectations(r).actual.output).toEqual(["dedent gives: 'a'"]);
  });

  it("must not fire: code that calls the print's function, a label-only line, a short label", () => {
    const more = `${f}python\nshow("  b")\nprint("done")\n${f}`;
    expect(parseReport(`# dedent\n\n${code}\n\n${more}\n`).blocks.map((b) => b.kind)).toEqual([
      "code",
      "code",
    ]);
    const bare = `${f}python\ndedent gives:\n${f}`;
    expect(parseReport(`# dedent\n\n${code}\n\n${bare}\n`).blocks[1]?.kind).not.toBe("output");
    const short = `${f}python\nimport os\n\nprint(f"x: {os.sep}")\n${f}\n\n${f}python\nx: y = 1\n${f}\n`;
    expect(parseReport(`# t\n\n${short}`).blocks[1]?.kind).toBe("code");
  });
});
