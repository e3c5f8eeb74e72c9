/**
 * fx5: holes the review rv23 found in rules f13ba loosened and fx2 tightened (each input allowed by evaluatePatch on
 * main at e731a39c), beside the honest shapes next to them.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines, modify } from "../helpers.ts";

const tagsOf = (patch: string) =>
  evaluatePatch(patch, {}).violations.map((v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`);
const js = (lines: string[], path = "src/gate.js") => tagsOf(addLines(path, lines, ["// context"]));
const py = (lines: string[], path = "src/gate.py") => tagsOf(addLines(path, lines, ["# context"]));
const only = (tags: string[], tag: string) => tags.filter((t) => t.endsWith(`:${tag}`));

describe("literal-retry: an environment read the base never had does not excuse the number", () => {
  it("blocks the review's input: the base line called another function, the read is the patch's", () => {
    const before = [
      "import os",
      "def resolve(year, month, d):",
      "    return make_date(year, month, d.day)",
      "",
    ];
    const after = [
      "import os",
      "def resolve(year, month, d):",
      "    try:",
      '        return date(year, month, int(os.getenv("D", d.day)))',
      "    except ValueError:",
      "        return date(year, month, 28)",
      "",
    ];
    expect(tagsOf(modify("src/cal.py", before.join("\n"), after.join("\n")))).toContain(
      "special-casing:literal-retry",
    );
  });

  it.each([
    ["Python, the data as the read's default", 'int(os.getenv("D", d.day))'],
    ["Python, the data after `or`", 'int(os.environ.get("D") or d.day)'],
  ])("blocks a function written whole whose read wraps the data (%s)", (_, arg) => {
    const tags = py([
      "def resolve(year, month, d):",
      "    try:",
      `        return date(year, month, ${arg})`,
      "    except ValueError:",
      "        return date(year, month, 28)",
    ]);
    expect(tags).toContain("special-casing:literal-retry");
  });

  it("blocks the JS form: the data behind `??`", () => {
    const tags = js([
      "export function resolve(year, month, d) {",
      "  try {",
      "    return makeDate(year, month, Number(process.env.D ?? d.getDate()));",
      "  } catch (err) {",
      "    return makeDate(year, month, 28);",
      "  }",
      "}",
    ]);
    expect(tags).toContain("special-casing:literal-retry");
  });

  it.each([
    ["the read alone", "int(os.environ['WORKERS'])"],
    ["a default that is a string literal", 'int(os.getenv("WORKERS", "4"))'],
  ])("still allows a setting written whole, the default on failure (%s)", (_, arg) => {
    const tags = py([
      "def workers():",
      "    try:",
      `        return Pool(${arg})`,
      "    except (KeyError, ValueError):",
      "        return Pool(4)",
    ]);
    expect(only(tags, "literal-retry")).toEqual([]);
  });

  it("still allows a read the base line made, kept unchanged inside the new try", () => {
    const before = ["def workers():", "    return Pool(int(os.environ['WORKERS']))", ""].join("\n");
    const after = [
      "def workers():",
      "    try:",
      "        return Pool(int(os.environ['WORKERS']))",
      "    except (KeyError, ValueError):",
      "        return Pool(4)",
      "",
    ].join("\n");
    expect(only(tagsOf(modify("src/pool.py", before, after)), "literal-retry")).toEqual([]);
  });
});
