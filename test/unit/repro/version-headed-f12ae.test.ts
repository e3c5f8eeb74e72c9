/**
 * One statement copied under a comment per version, each copy annotated with what it gave there (issue 12, hold22
 * enum-100458): run once, a value per version; the report's words pick the claimed side. Code written for these
 * tests.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { mergeVersionHeaded } from "../../../src/repro/version-headed.ts";

const block = [
  "from enum import Enum",
  "class Color(int, Enum):",
  "    RED = 1",
  "",
  "# Python 3.10",
  'f"{Color.RED}"  # > 1',
  "",
  "# Python 3.11",
  'f"{Color.RED}"  # > Color.RED',
].join("\n");

describe("a statement copied per version", () => {
  it("is merged into one statement with a value per version", () => {
    expect(mergeVersionHeaded(block, "python")).toBe(
      [
        "from enum import Enum",
        "class Color(int, Enum):",
        "    RED = 1",
        "",
        'f"{Color.RED}"  # Python 3.10: 1  Python 3.11: Color.RED',
        "",
      ].join("\n"),
    );
    expect(mergeVersionHeaded("// node 16.20\nfmt(x) // => 'a'\n// node 20.1\nfmt(x) // => 'b'", "js")).toBe(
      "fmt(x)  // node 16.20: 'a'  node 20.1: 'b'",
    );
  });

  it("must not fire: different statements, the same value, one copy, labels that are no versions", () => {
    expect(mergeVersionHeaded("# Python 3.10\nf(1)  # > 1\n# Python 3.11\nf(2)  # > 2", "python")).toBeNull();
    expect(mergeVersionHeaded("# Python 3.10\nf(1)  # > 1\n# Python 3.11\nf(1)  # > 1", "python")).toBeNull();
    expect(mergeVersionHeaded("# Python 3.11\nf(1)  # > 1", "python")).toBeNull();
    expect(mergeVersionHeaded("# before\nf(1)  # > 1\n# after\nf(1)  # > 2", "python")).toBeNull();
  });

  it("the title naming a version makes its value the claim; no words, no claim", () => {
    const named = reportedExpectations(
      parseReport(`# Enum formatting changed in Python 3.11\n\n\`\`\`python\n${block}\n\`\`\`\n`),
    );
    expect(named.actual.output).toEqual(["Color.RED"]);
    expect(named.expectedOutput).toEqual(["1"]);
    const silent = reportedExpectations(parseReport(`# Enum formatting\n\n\`\`\`python\n${block}\n\`\`\`\n`));
    expect(silent.actual.output).not.toContain("Color.RED");
    expect(silent.actual.output).not.toContain("1");
  });
});
