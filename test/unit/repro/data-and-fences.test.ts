/**
 * Two report shapes from the hold5 misses (issue 12, rp12c), as general rules, on reports written here:
 * - only a data file and the traceback of loading it (`yaml.safe_load(open(...))`-like calls on a path): the
 *   traceback's first frame is the statement, the file shown before it is written beside the program;
 * - a JavaScript fence never closed, swallowing the report's `### Output` section: closed before the heading.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { closeRunawayFence, parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";
const TRACE = [
  "Traceback (most recent call last):",
  '  File "/home/u/check.py", line 2, in <module>',
  '    confparse.load("/home/u/settings.ini")',
  '  File "/venv/lib/python3.12/site-packages/confparse/core.py", line 40, in load',
  '    raise ValueError("bad key")',
  "ValueError: bad key",
].join("\n");

describe("a data file and the traceback of loading it", () => {
  const md = [
    "# settings with a dash fail",
    "",
    "Loading this settings file with confparse.load() fails:",
    "",
    f,
    "[main]",
    "my-key = 1",
    f,
    "",
    "The error:",
    "",
    f,
    TRACE,
    f,
    "",
    "With `my_key` instead it works:",
    "",
    f,
    "[main]",
    "my_key = 1",
    f,
    "",
  ].join("\n");

  it("runs the first frame's call on the file shown before the traceback, written under the path's own name", () => {
    const p = completeProgram(parseReport(md), null, "confparse")!;
    expect(p.language).toBe("python");
    expect(p.files["settings.ini"]).toBe("[main]\nmy-key = 1\n");
    expect(p.files[p.entry]).toMatch(/^import confparse$/m);
    expect(p.files[p.entry]).toMatch(/^confparse\.load\("settings\.ini"\)$/m);
    expect(p.completions[0]).toMatch(/`confparse\.load` reading `\/home\/u\/settings\.ini`/);
  });

  it("a block not introduced as a file, or no block before the traceback, is not taken", () => {
    const unlabelled = md.replace("Loading this settings file with confparse.load() fails:", "Here:");
    expect(completeProgram(parseReport(unlabelled), null, "confparse")).toBeNull();
    const after = md.slice(md.indexOf("The error:"));
    expect(completeProgram(parseReport(`# x\n\n${after}`), null, "confparse")).toBeNull();
  });
});

describe("a JavaScript fence never closed", () => {
  const md = [
    "# attributes lost",
    "",
    `${f}js`,
    "const out = parse('<a x=\"1\"/>');",
    "",
    "### Output",
    "{}",
    "### Expected",
    '{ "x": "1" }',
    "",
  ].join("\n");

  it("is closed before the first markdown heading, so the sections read as the report's", () => {
    const r = parseReport(md);
    // The data pasted unfenced under the Output and Expected headings is each section's output (rp12e).
    expect(r.blocks.map((b) => [b.kind, b.section, b.value])).toEqual([
      ["code", "other", "const out = parse('<a x=\"1\"/>');\n"],
      ["output", "actual", "{}"],
      ["output", "expected", '{ "x": "1" }'],
    ]);
  });

  it("a closed fence, or a Python one (`### comment` is Python), is left as written", () => {
    const closed = `${md.trimEnd()}\n${f}\n`;
    expect(closeRunawayFence(closed)).toBe(closed);
    const python = md.replace(`${f}js`, `${f}python`);
    expect(closeRunawayFence(python)).toBe(python);
  });
});

describe("a comment that names a variable's value (`// size is '1.47 Gb'`)", () => {
  it("echoes the variable there, the value being the reported one", async () => {
    const { annotate } = await import("../../../src/repro/annotations.ts");
    const a = annotate("var n = 5,\n    label = fmt(n);\n// label is '5 B'\n", "javascript");
    expect(a.code).toContain("// label is '5 B'\n_echo(label);");
    expect(a.checks).toEqual([
      expect.objectContaining({ code: "label", role: "actual", kind: "output", value: "'5 B'" }),
    ]);
  });

  it("not a name assigned above, not at the top level, or not a value: left alone", async () => {
    const { annotate } = await import("../../../src/repro/annotations.ts");
    for (const code of [
      "const n = fmt(5);\n// label is '5 B'\n",
      "function f() {\n  const label = fmt(5);\n  // label is '5 B'\n}\n",
      "const label = fmt(5);\n// label is what the docs describe for it\n",
    ]) {
      const a = annotate(code, "javascript");
      expect(a.checks, code).toEqual([]);
      expect(a.code, code).not.toContain("_echo(label)");
    }
    const py = annotate("size = fmt(5)\n# size is '5 B'\n", "python");
    expect(py.code).toContain("# size is '5 B'\n_echo(size)");
  });
});
