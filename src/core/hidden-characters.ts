/**
 * The characters that make text read otherwise than it is, as regular-expression class bodies (no brackets), shared by
 * every place that shows outside text to a person: the terminal (src/core/terminal-text.ts), the markdown Retrace
 * writes to GitHub (src/report/markdown.ts) and the policy gate's `hidden-characters` rule. Each place takes the
 * groups it must: a terminal acts on controls, GitHub renders zero-width and tag characters invisibly, a patch may
 * hold any of them. Pure.
 */

/** C0 controls but tab and newline, DEL, and C1 controls: a terminal acts on them instead of showing them. */
export const CONTROLS = "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f";

/** DEL and C1 controls: the controls JSON.stringify leaves raw (it escapes C0 itself). */
export const CONTROLS_JSON_KEEPS = "\\u007f-\\u009f";

/** Bidi marks, embeddings, overrides and isolates, and the Arabic letter mark: a line shown in another order (Trojan Source). */
export const BIDI = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";

/** Line and paragraph separators: a line break most readers do not see as one. */
export const SEPARATORS = "\\u2028\\u2029";

/** Zero-width spaces and joiners, invisible operators and the BOM: characters nobody sees. */
export const ZERO_WIDTH = "\\u200b-\\u200d\\u2060-\\u2064\\ufeff";

/** Unicode tag characters (invisible text); astral: use with the `u` flag. */
export const TAGS = "\\u{e0000}-\\u{e007f}";

/**
 * Letters and marks that render as nothing or as a blank in GitHub's UI and common fonts: Hangul fillers (U+115F,
 * U+1160, U+3164, U+FFA0; JavaScript and Python read them as identifier letters, the "invisible identifier"
 * backdoor), the soft hyphen, the combining grapheme joiner, Khmer's inherent vowels and the Mongolian vowel
 * separator; and the braille blank (U+2800, a symbol every font draws as a space: `if (ok⠀|| true)`, wave 16). Not
 * format characters, so a zero-width class misses them.
 */
export const BLANK_LETTERS = "\\u00ad\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u2800\\u3164\\uffa0";

/**
 * Every other format character (general category Cf: U+1D173–U+1D17A musical beams, U+FFF9–U+FFFB interlinear
 * annotation, U+206A–U+206F, U+1BCA0–U+1BCA3, the Arabic number signs), private-use characters (Co: a font draws
 * them as nothing, a box or an icon) and noncharacters: none of them is writing a reader sees as itself, so
 * `roles["admin𝅳"]` reads as `roles["admin"]` (wave 17). And the unassigned code points Unicode reserves as
 * default-ignorable (U+2065, U+FFF0–U+FFF8, U+E0080–U+E00FF, U+E01F0–U+E0FFF: general category Cn, so `\p{Cf}` misses
 * them, and a conforming renderer draws them as nothing; wave 18). Astral: use with the `u` flag.
 */
export const OTHER_INVISIBLE = `\\p{Cf}\\p{Co}\\u2065\\ufff0-\\ufff8\\u{e0080}-\\u{e00ff}\\u{e01f0}-\\u{e0fff}\\ufdd0-\\ufdef\\ufffe\\uffff${Array.from(
  { length: 16 },
  (_, i) => `\\u{${(i + 1).toString(16)}fffe}\\u{${(i + 1).toString(16)}ffff}`,
).join("")}`;
