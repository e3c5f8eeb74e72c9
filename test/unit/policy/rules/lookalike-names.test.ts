/**
 * hidden-characters, thirteenth red team: words written wholly in Cyrillic or Greek letters drawn like Latin ones
 * (`ехес`, `ΤΟΚΕΝ`) and mixed-script words in added lines read as names they are not; two paths of one patch that a
 * file system stores as one file (NFC/NFD, case, NFKC, trailing dots) read as two. Writing in those scripts is not
 * refused: Russian words with letters of their own, short words, Greek formulas.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch, MAX_GATED_FILES } from "../../../../src/policy/index.ts";
import { addLines, create, rulesOf } from "../helpers.ts";

const hidden = (patch: string) => rulesOf(patch).includes("hidden-characters");

describe("hidden-characters: look-alike words", () => {
  it.each([
    ["an all-Cyrillic `exec` file name", "lib/\u0435\u0445\u0435\u0441.js"],
    ["an all-Greek `TOKEN` file name", "config/\u03a4\u039f\u039a\u0395\u039d.js"],
    ["an all-Cyrillic directory", "\u0455\u0441\u0440/a.js"],
    ["a fullwidth Latin name (NFKC `index`)", "src/\uff49\uff4e\uff44\uff45\uff58.js"],
    ["a ligature (NFKC `file`)", "src/\ufb01le.js"],
    ["a trailing dot Windows drops", "src/index.js."],
  ])("refuses the path of %s", (_, p) => {
    expect(hidden(create(p, "module.exports = 1;\n"))).toBe(true);
  });
  it.each([
    ["an all-Cyrillic identifier", "const \u0430\u0441\u0441\u0435\u0455\u0455 = () => true;"],
    ["a Cyrillic letter in a string", 'if (role === "\u0430dmin") grant();'],
    ["a Greek omicron in an identifier", "const all\u03bfwed = true;"],
  ])("refuses an added line with %s", (_, line) => {
    expect(hidden(addLines("src/auth.js", [line]))).toBe(true);
  });
  it.each([
    [
      "a Russian word with letters of its own",
      "// \u0441\u0447\u0451\u0442 \u0434\u043e\u043a\u0443\u043c\u0435\u043d\u0442\u0430",
    ],
    ["short Russian words (`\u0430`, `\u0441`)", "// \u0430 \u0441 \u043d\u0438\u043c"],
    ["a Greek formula", "const area = '\u03c0r\u00b2'; // \u03bb-calculus"],
  ])("allows %s", (_, line) => {
    expect(hidden(addLines("src/i18n.js", [line]))).toBe(false);
  });
  it("allows a file named in one script of its own", () => {
    expect(hidden(create("docs/\u0434\u043e\u043a\u0443\u043c\u0435\u043d\u0442.md", "x\n"))).toBe(false);
  });
});

describe("hidden-characters: two paths that are one file", () => {
  it.each([
    ["NFC and NFD", "src/caf\u00e9.js", "src/cafe\u0301.js"],
    ["letter case", "src/Util.js", "src/util.js"],
  ])("refuses a patch creating both spellings (%s)", (_, a, b) => {
    expect(hidden(create(a, "1\n") + create(b, "2\n"))).toBe(true);
  });
  it("allows two different names", () => {
    expect(hidden(create("src/util.js", "1\n") + create("src/utils.js", "2\n"))).toBe(false);
  });
});

describe("size-caps: the gate's own file bound", () => {
  it("refuses a patch past the file cap with the size-caps reasons only, even when the repository raises maxFiles", () => {
    let p = "";
    for (let i = 0; i <= MAX_GATED_FILES; i++) p += create(`f/x${i}.json`, "{}\n");
    const g = evaluatePatch(p, { sizeCaps: { maxFiles: 100_000, maxChangedLines: 100_000 } });
    expect(g.allowed).toBe(false);
    expect(new Set(g.violations.map((v) => v.rule))).toEqual(new Set(["size-caps"]));
    expect(g.violations.at(-1)!.message).toContain(`at most ${MAX_GATED_FILES}`);
  });
});
