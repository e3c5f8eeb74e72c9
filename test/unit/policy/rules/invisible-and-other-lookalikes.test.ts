/**
 * hidden-characters, fourteenth red team: look-alike letters of scripts other than Cyrillic and Greek (Armenian,
 * Cherokee, Lisu, Coptic), Latin's own non-ASCII look-alikes (IPA, small capitals) and letters compatibility folding
 * makes ASCII (mathematical alphanumerics); letters that render as nothing (Hangul fillers, the soft hyphen, the
 * combining grapheme joiner, Khmer inherent vowels, the Mongolian vowel separator); controls inside an added line (a
 * lone CR, NEL); Windows device names. Writing in those scripts, Turkish, Korean, formulas with superscripts, CRLF line
 * endings and form feeds are not refused.
 */
import { describe, expect, it } from "vitest";
import { addLines, create, rulesOf } from "../helpers.ts";

const hidden = (patch: string) => rulesOf(patch).includes("hidden-characters");

describe("hidden-characters: look-alike letters of other scripts", () => {
  it.each([
    ["an Armenian `o` in a Latin name", "src/l\u0585gin.js"],
    ["an all-Cherokee `SECRET`", "config/\u13da\u13ac\u13df\u13a1\u13ac\u13a2.js"],
    ["a Coptic `o` in a Latin name", "src/l\u2c9fgin.js"],
    ["a Latin alpha beside ASCII letters", "src/\u0251dmin.js"],
    ["Windows' `con` device name", "src/con.js"],
    ["Windows' `LPT1` device name", "docs/LPT1.txt"],
  ])("refuses the path of %s", (_, p) => {
    expect(hidden(create(p, "module.exports = 1;\n"))).toBe(true);
  });
  it.each([
    ["an Armenian letter in an identifier", 'if (user.r\u0585le === "admin") grant();'],
    ["an all-Lisu `API`", "const \ua4ee\ua4d1\ua4f2 = process.env;"],
    ["small capitals reading `ADMIN`", 'if (role === "\u1d00\u1d05\u1d0d\u026a\u0274") grant();'],
    ["a mathematical bold `exec`", "const \u{1d41e}\u{1d431}\u{1d41e}\u{1d41c} = () => true;"],
  ])("refuses an added line with %s", (_, line) => {
    expect(hidden(addLines("src/auth.js", [line]))).toBe(true);
  });
  it.each([
    ["Turkish with a dotless i", "// k\u0131rm\u0131z\u0131 renk"],
    ["an Armenian word", "// \u0540\u0561\u0575\u0561\u057d\u057f\u0561\u0576"],
    ["a Cherokee word", "// \u13e3\u13b3\u13a9"],
    ["Korean", "// \ud55c\uad6d\uc5b4"],
    ["a superscript in a formula", "// O(n\u00b2) in the worst case"],
    ["an emoji with a variation selector", "const ok = '\u2764\ufe0f';"],
    ["ordinal indicators and the information emoji", "log('\u2139 1\u00aa vez, n\u00ba 2');"],
  ])("allows %s", (_, line) => {
    expect(hidden(addLines("src/i18n.js", [line]))).toBe(false);
  });
  it("allows a file named like a device only in part (`console.js`, `auxiliary.md`)", () => {
    expect(hidden(create("src/console.js", "module.exports = 1;\n"))).toBe(false);
    expect(hidden(create("docs/auxiliary.md", "text\n"))).toBe(false);
  });
});

describe("hidden-characters: letters that render as nothing, and controls inside a line", () => {
  it.each([
    ["a Hangul filler identifier", "const { timeout, \u3164 } = req.query;"],
    ["a halfwidth Hangul filler", "const ok = check(user) || \uffa0;"],
    ["a soft hyphen in a word", 'if (role === "ad\u00admin") grant();'],
    ["a combining grapheme joiner", 'if (role === "ad\u034fmin") grant();'],
    ["a Khmer inherent vowel", "const ok = check(user) && \u17b4;"],
    ["a Mongolian vowel separator", 'if (role === "ad\u180emin") grant();'],
    ["a CR inside the line", "module.exports = () => true;\r// module.exports = (u) => check(u);"],
    ["NEL", "const ok = true;\u0085const checked = check(user);"],
    ["an escape character", "console.log('\u001b[2K');"],
  ])("refuses an added line with %s", (_, line) => {
    expect(hidden(addLines("src/auth.js", [line]))).toBe(true);
  });
  it("allows a CRLF line ending and a form feed", () => {
    expect(hidden(addLines("src/a.c", ["int a = 1;\r"]))).toBe(false);
    expect(hidden(addLines("src/a.c", ["\f"]))).toBe(false);
  });
});

describe("hidden-characters: the braille blank and variation selectors after ASCII (wave 16)", () => {
  it.each([
    ["a braille blank before an operator", "if (ok\u2800|| true) allow();"],
    ["a braille blank inside a string key", 'const role = roles["admin\u2800"] ?? "admin";'],
    ["a variation selector after an identifier", "if (ok\ufe0f || isAdmin) allow();"],
    ["a variation selector after a quote", 'if (role === "admin"\ufe00) allow();'],
    ["a variation selector at a line's start", "\ufe0fallow();"],
  ])("refuses an added line with %s", (_, line) => {
    expect(hidden(addLines("src/auth.js", [line]))).toBe(true);
  });
  it.each([
    ["a keycap emoji", "log('1\ufe0f\u20e3 first');"],
    ["a heart emoji", "log('\u2764\ufe0f');"],
    ["a CJK variation sequence", "const name = '\u845b\udb40\udd00';"],
    ["braille patterns of a spinner", "const frames = ['\u280b', '\u2819', '\u2839'];"],
  ])("passes an added line with %s", (_, line) => {
    expect(hidden(addLines("src/ui.js", [line]))).toBe(false);
  });
});
