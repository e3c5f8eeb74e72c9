/**
 * hidden-characters (twelfth red team): what a reviewer cannot see, or that reads otherwise than it runs, is refused in
 * added lines and paths; writing that needs those characters (Persian and Indic joiners, emoji sequences, file names in
 * one non-Latin script) is not.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines, create, rulesOf } from "../helpers.ts";

const hidden = (patch: string) => rulesOf(patch).includes("hidden-characters");

describe("hidden-characters: added lines", () => {
  it.each([
    [
      "a right-to-left override in a comment (Trojan Source)",
      "if (isAdmin) { /* \u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */",
    ],
    ["a zero-width space inside an identifier", "const is\u200bAdmin = true;"],
    ["a zero-width joiner between ASCII letters", "const ad\u200dmin = user;"],
    ["a tag character (invisible text)", "const note = 'ok\u{e0041}\u{e0042}';"],
    ["a byte-order mark inside a line", "const x = 1;\ufeff"],
  ])("refuses %s", (_, line) => {
    expect(hidden(addLines("src/auth.js", [line]))).toBe(true);
  });
  it.each([
    ["a Persian word written with its zero-width non-joiner", "const greeting = 'می\u200cخواهم';"],
    ["an emoji family sequence (zero-width joiners between emoji)", "const family = '👨\u200d👩\u200d👧';"],
    ["Arabic text with no control characters", "const label = 'مرحبا';"],
    ["plain accented Latin", "const city = 'Zürich';"],
  ])("allows %s", (_, line) => {
    expect(hidden(addLines("src/i18n.js", [line]))).toBe(false);
  });
});

describe("hidden-characters: paths", () => {
  it.each([
    ["a Cyrillic letter inside a Latin word", "src/\u0456ndex.js"],
    ["a fullwidth solidus drawn like a separator", ".github\uff0fworkflows\uff0fci.yml"],
    ["a zero-width space after the name", "package.json\u200b"],
    ["a right-to-left override reversing the extension", "src/\u202esj.gnp"],
  ])("refuses %s", (_, path) => {
    expect(hidden(create(path, "x\n"))).toBe(true);
  });
  it.each([
    [
      "a name in one Cyrillic word with a Latin extension",
      "docs/\u0434\u043e\u043a\u0443\u043c\u0435\u043d\u0442.md",
    ],
    ["a Greek word beside a Latin one", "notes/\u03bb-calculus.md"],
    ["accented Latin", "docs/caf\u00e9.md"],
  ])("allows %s", (_, path) => {
    expect(hidden(create(path, "x\n"))).toBe(false);
  });
});

describe("hidden-characters: a new file that folds onto a name of the tree (red team 22)", () => {
  const tree = ["src/auth.js", "src/caf\u00e9.js", "lib/index.js"];
  const twin = (patch: string) =>
    evaluatePatch(patch, {}, { treeFiles: tree }).violations.filter((v) => v.rule === "hidden-characters");
  it.each([
    ["a case twin of a file", "src/Auth.js"],
    ["a case twin of a directory", "SRC/login.js"],
    ["an NFD twin of an NFC file", "src/cafe\u0301.js"],
    ["a twin that Windows reads without its trailing dot", "lib/index.js."],
  ])("refuses %s, naming the tree's file", (_, name) => {
    const v = twin(create(name, "x\n"));
    expect(v.length).toBeGreaterThan(0);
    expect(v.map((x) => x.message).join(" ")).toMatch(/one name with the repository's/);
  });
  it.each([
    ["a new file beside the tree's", "src/login.js"],
    ["the tree's own file changed", "src/auth.js"],
  ])("allows %s", (_, name) => {
    expect(twin(create(name, "x\n")).filter((v) => /repository's/.test(v.message))).toEqual([]);
  });
  it("allows a case-only rename of a tree file (its old name leaves the tree)", () => {
    const patch =
      "diff --git a/src/auth.js b/src/Auth.js\nsimilarity index 100%\nrename from src/auth.js\nrename to src/Auth.js\n";
    expect(twin(patch)).toEqual([]);
  });
  it("without the tree's names, a lone new file is not compared", () => {
    expect(rulesOf(create("src/Auth.js", "x\n"))).not.toContain("hidden-characters");
  });
});
