/**
 * The manifest readers' cost (issue 14, red team 27's Left): every changed line used to be read with a copy of every
 * line above it, so a package.json or setup.cfg with thousands of changed lines cost quadratic host CPU. The readers
 * now share one walker (`foldChangedLines`) whose work is counted in `siteWalkStats.steps`: these tests measure that
 * count, not wall time.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { jsonEnclosingKeys, MAX_SITE_DEPTH, siteWalkStats, tomlSite } from "../../../src/policy/sections.ts";
import { modify } from "./helpers.ts";

/** A manifest of `n` entries and a patch changing every tenth one (n/10 hunks), with the base known. */
function manifest(kind: "package.json" | "setup.cfg" | "pyproject.toml", n: number) {
  const entry = (i: number, v: string) =>
    kind === "package.json"
      ? `    "pkg-${i}": "^${v}.0.0",`
      : kind === "setup.cfg"
        ? `    pkg-${i}>=${v}.0`
        : `  "pkg-${i}>=${v}.0",`;
  const head =
    kind === "package.json"
      ? ["{", '  "name": "demo",', '  "devDependencies": {']
      : kind === "setup.cfg"
        ? ["[options]", "py_modules ="]
        : ["[project]", 'name = "x"', "dependencies = ["];
  const tail =
    kind === "package.json" ? ['    "last": "1.0.0"', "  }", "}"] : kind === "setup.cfg" ? [] : ["]"];
  const lines = (v: (i: number) => string) => [
    ...head,
    ...Array.from({ length: n }, (_, i) => entry(i, v(i))),
    ...tail,
  ];
  const before = `${lines(() => "1").join("\n")}\n`;
  const after = `${lines((i) => (i % 10 === 5 ? "2" : "1")).join("\n")}\n`;
  return { patch: modify(kind, before, after), before };
}

function stepsFor(kind: "package.json" | "setup.cfg" | "pyproject.toml", n: number) {
  const { patch, before } = manifest(kind, n);
  const start = siteWalkStats.steps;
  // Registry range changes refused, so that the package.json lines are judged (and reported) too.
  const result = evaluatePatch(
    patch,
    { dependencyChanges: { allowRegistryRanges: false } },
    { sourceFiles: { [kind]: before } },
  );
  return { steps: siteWalkStats.steps - start, result };
}

describe("manifest readers walk each line a bounded number of times", () => {
  it.each(["package.json", "setup.cfg", "pyproject.toml"] as const)(
    "%s: work grows linearly with the patch and base text",
    (kind) => {
      const small = stepsFor(kind, 2_000);
      const large = stepsFor(kind, 8_000);
      // Both are still judged: the changed lines are dependency lines.
      expect(small.result.violations.length).toBeGreaterThan(0);
      expect(large.result.violations.length).toBeGreaterThan(0);
      // Four times the text: about four times the work (a per-line copy of the lines above would be sixteen).
      expect(large.steps / small.steps).toBeLessThan(5);
      // Every reader together: a handful of steps per base or patch line, never hundreds.
      expect(large.steps).toBeLessThan(40 * 8_000);
    },
  );

  it("reads a section opened far above the hunk from the base (the walker forks the base's state per hunk)", () => {
    const { patch, before } = manifest("package.json", 3_000);
    const withScripts = before.replace('  "devDependencies": {', '  "scripts": {');
    const scriptPatch = modify(
      "package.json",
      withScripts,
      withScripts.replace('"pkg-2500": "^1.0.0"', '"pkg-2500": "exit 0"'),
    );
    const v = evaluatePatch(scriptPatch, {}, { sourceFiles: { "package.json": withScripts } }).violations;
    expect(v.map((x) => x.rule)).toContain("package-scripts");
    // Counter-example: the same edit of a top-level field far below is not a script line.
    const honest = modify("package.json", before, before.replace('"name": "demo"', '"name": "demo2"'));
    expect(
      evaluatePatch(honest, {}, { sourceFiles: { "package.json": before } }).violations.map((x) => x.rule),
    ).toEqual([]);
    expect(patch.length).toBeGreaterThan(0);
  });

  it("refuses JSON nested deeper than the walker keeps, and reads ordinary nesting", () => {
    const depth = MAX_SITE_DEPTH + 10;
    const open = Array.from({ length: depth }, (_, i) => `${" ".repeat(2 * (i + 1))}"k${i}": {`);
    const close = Array.from({ length: depth }, (_, i) => `${" ".repeat(2 * (depth - i))}}`);
    const deepBase = `${["{", ...open, `${" ".repeat(2 * depth + 2)}"v": 1`, ...close, "}"].join("\n")}\n`;
    const deep = modify("package.json", deepBase, deepBase.replace('"v": 1', '"v": 2'));
    const v = evaluatePatch(deep, {}, { sourceFiles: { "package.json": deepBase } }).violations;
    expect(v.map((x) => x.message).join("\n")).toMatch(/too deep to judge/);
    // Counter-example: ten levels are read as before (a nested config value, no rule's business).
    const shallowOpen = open.slice(0, 10);
    const shallowClose = Array.from({ length: 10 }, (_, i) => `${" ".repeat(2 * (10 - i))}}`);
    const shallowBase = `${["{", ...shallowOpen, `${" ".repeat(22)}"v": 1`, ...shallowClose, "}"].join("\n")}\n`;
    const shallow = modify("package.json", shallowBase, shallowBase.replace('"v": 1', '"v": 2'));
    expect(evaluatePatch(shallow, {}, { sourceFiles: { "package.json": shallowBase } }).violations).toEqual(
      [],
    );
  });

  it("keeps the readers' answers: enclosing keys and TOML sites as the backward scans gave them", () => {
    expect(jsonEnclosingKeys(["{", '  "scripts": {', '    "a": "b",', "", '    "test": "x"'])).toMatchObject({
      keys: ["test", "scripts"],
      rootSeen: true,
    });
    expect(jsonEnclosingKeys(['    "x": {', '      "a": 1', "    },", '    "y": "z"'])).toMatchObject({
      keys: ["y"],
      rootSeen: false,
    });
    expect(tomlSite(["[tool.pytest.ini_options]", "addopts = [", '  "-q",', '  "-x",'])).toEqual({
      table: "tool.pytest.ini_options",
      key: "addopts",
    });
    expect(tomlSite(["[a]", "x = [", "]", '  "y"'])).toEqual({ table: "a", key: null });
    expect(tomlSite(["[a]", "x = [", "[b]", "k = 1"])).toEqual({ table: "b", key: "k" });
  });
});
