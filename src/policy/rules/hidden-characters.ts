/**
 * hidden-characters: a patch whose added lines or paths hold characters a reviewer cannot see or that make text
 * read otherwise than it is — bidi controls and isolates (Trojan Source, CVE-2021-42574: a comment that reads as
 * code, a string that reads as a condition), zero-width and invisible format characters (an identifier that looks
 * like another), Unicode tag characters (invisible text) — and paths with confusable names: a segment mixing Latin
 * with Cyrillic or Greek letters in one word (`src/іndex.js` beside `src/index.js`; `docs/документ.md` is no mix), or a
 * character that looks like `/` or `.`. Zero-width joiners between two non-ASCII characters are writing (Persian,
 * Indic scripts, emoji sequences) and allowed; touching ASCII they are hidden.
 * A model steered by a report or log can write any of them; a verified patch must read as it runs.
 */
import { BIDI, TAGS, ZERO_WIDTH } from "../../core/hidden-characters.ts";
import { fileSystemPath } from "../../core/repo-path.ts";
import type { Rule, Violation } from "../types.ts";

const HIDDEN = new RegExp(`[${BIDI}${ZERO_WIDTH}${TAGS}]`, "u");
/** Characters drawn like a path separator or a dot. */
const LOOKALIKE_SEPARATOR = /[\u2215\u2044\u29f8\uff0f\u2024\uff0e\u3002\u2027\uff3c\u29f5\u2216]/u;

const describe = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
/** Zero-width (non-)joiners: part of how Persian, Arabic and Indic words and emoji sequences are written. */
const JOINERS = new Set(["\u200c", "\u200d"]);

function hiddenIn(text: string): string | null {
  if (!HIDDEN.test(text)) return null;
  for (const m of text.matchAll(HIDDEN_ALL)) {
    const c = m[0];
    // A joiner between two non-ASCII characters writes a word or an emoji (`می‌خواهم`, a family emoji); one
    // touching ASCII (`ad\u200dmin`) makes an identifier or a word look like another.
    if (JOINERS.has(c)) {
      const before = text.codePointAt(m.index - 1) ?? 0;
      const after = text.codePointAt(m.index + 1) ?? 0;
      if (m.index > 0 && before >= 0x80 && after >= 0x80 && !HIDDEN.test(text[m.index + 1]!)) continue;
    }
    return describe(c);
  }
  return null;
}

/**
 * Cyrillic and Greek letters drawn like Latin ones in common fonts (Unicode's confusables, the unmistakable subset):
 * a word written only in these reads as a Latin word (`ехес` is Cyrillic `exec`, `ΤΟΚΕΝ` Greek `TOKEN`).
 */
const LATIN_LOOKALIKES = new Set(
  [
    // Cyrillic lower and upper case
    "а",
    "с",
    "е",
    "һ",
    "і",
    "ј",
    "ӏ",
    "о",
    "р",
    "ԛ",
    "ѕ",
    "ԁ",
    "ԝ",
    "х",
    "у",
    "ԍ",
    "ү",
    "А",
    "В",
    "С",
    "Е",
    "Н",
    "І",
    "Ј",
    "К",
    "М",
    "О",
    "Р",
    "Ѕ",
    "Т",
    "Х",
    "Ү",
    "Ԛ",
    "Ԝ",
    "Ӏ",
    // Greek lower and upper case
    "ο",
    "ν",
    "ι",
    "α",
    "κ",
    "τ",
    "υ",
    "Α",
    "Β",
    "Ε",
    "Ζ",
    "Η",
    "Ι",
    "Κ",
    "Μ",
    "Ν",
    "Ο",
    "Ρ",
    "Τ",
    "Υ",
    "Χ",
  ].map((c) => c),
);

/** Words of a line or a path segment: runs of letters, digits, `_` and `$` (identifiers, names, words of prose). */
const WORDS = /[\p{L}\p{M}\p{N}_$]+/gu;

/**
 * Why `word` reads as another, or null: it mixes Latin with Cyrillic or Greek letters (`іndex`, `аdmin`), or it is
 * written only in Cyrillic or Greek letters that are drawn like Latin ones, three or more (`ехес`, `ΤΟΚΕΝ`).
 * `документ`, `λ`, `счёт` and short words (`а`, `с`, `у` are Russian words) are writing, and allowed.
 */
function lookalikeWord(word: string, strictMix: boolean): string | null {
  const latin = /\p{Script=Latin}/u.test(word);
  const other = /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(word);
  if (!other) return null;
  const letters = [...word].filter((c) => /\p{L}/u.test(c));
  // In a path any mix is refused; in a line (`2πr`, `Δx`) only one whose other letters are drawn like Latin ones.
  if (latin && (strictMix || letters.every((c) => /\p{Script=Latin}/u.test(c) || LATIN_LOOKALIKES.has(c))))
    return `\`${word}\` mixes Latin with Cyrillic or Greek letters`;
  if (latin) return null;
  if (letters.length >= 3 && letters.every((c) => LATIN_LOOKALIKES.has(c)))
    return `\`${word}\` is written in Cyrillic or Greek letters drawn like Latin ones (it reads as \`${latinReading(word)}\`)`;
  return null;
}

const READING: Record<string, string> = {
  а: "a",
  с: "c",
  е: "e",
  һ: "h",
  і: "i",
  ј: "j",
  ӏ: "l",
  о: "o",
  р: "p",
  ԛ: "q",
  ѕ: "s",
  ԁ: "d",
  ԝ: "w",
  х: "x",
  у: "y",
  ԍ: "G",
  ү: "y",
  А: "A",
  В: "B",
  С: "C",
  Е: "E",
  Н: "H",
  І: "I",
  Ј: "J",
  К: "K",
  М: "M",
  О: "O",
  Р: "P",
  Ѕ: "S",
  Т: "T",
  Х: "X",
  Ү: "Y",
  Ԛ: "Q",
  Ԝ: "W",
  Ӏ: "I",
  ο: "o",
  ν: "v",
  ι: "i",
  α: "a",
  κ: "k",
  τ: "t",
  υ: "u",
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
};

function latinReading(word: string): string {
  return [...word].map((c) => READING[c] ?? c).join("");
}

function lookalikeIn(text: string, strictMix = false): string | null {
  if (!/[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(text)) return null;
  for (const m of text.matchAll(WORDS)) {
    const why = lookalikeWord(m[0], strictMix);
    if (why) return why;
  }
  return null;
}

function confusablePath(p: string): string | null {
  const hidden = hiddenIn(p);
  if (hidden) return `a hidden character (${hidden})`;
  const sep = LOOKALIKE_SEPARATOR.exec(p);
  if (sep) return `a character drawn like a separator or a dot (${describe(sep[0])})`;
  // Word by word: `документ.md` and `λ-calculus.md` name files in a script of their own; `іndex.js` and `ехес.js`
  // read as Latin names they are not.
  const trailing = p.split("/").find((seg) => /[. ]$/.test(seg));
  if (trailing !== undefined)
    return `a name Windows reads without its trailing dots or spaces (\`${trailing}\` is \`${trailing.replace(/[. ]+$/, "")}\` there)`;
  const word = lookalikeIn(p, true);
  if (word) return `a name that reads as another: ${word}`;
  // A name NFKC folds to another (fullwidth `ｉｎｄｅｘ`, the ligature `ﬁ`) is drawn like that other name.
  if (p.normalize("NFC") !== p.normalize("NFKC"))
    return `a name drawn like another: \`${p}\` is \`${p.normalize("NFKC")}\` under compatibility folding (NFKC)`;
  return null;
}

/**
 * The name a file system may store `p` under: NFC (macOS stores NFD, git and Linux keep the bytes), case folded
 * (macOS and Windows ignore case), NFKC, each segment as NTFS and HFS+ read it (trailing dots and spaces cut,
 * ignorable code points dropped). Two different paths with one key are one file on some reviewer's machine.
 */
export function twinKey(p: string): string {
  return fileSystemPath(p.normalize("NFKC").toLowerCase());
}

export const hiddenCharacters: Rule = {
  id: "hidden-characters",
  enabled: () => true,
  check({ patch }) {
    const out: Violation[] = [];
    // Two paths of the patch that one file system stores as one file (`café`/`café`, `Util.js`/`util.js`).
    const byKey = new Map<string, string>();
    for (const file of patch.files) {
      if (file.status === "deleted") continue;
      const key = twinKey(file.path);
      const other = byKey.get(key);
      if (other !== undefined && other !== file.path)
        out.push({
          rule: "hidden-characters",
          file: file.path,
          line: null,
          message: `the path and ${JSON.stringify(other)} are one file where names are compared without case or Unicode normalisation (macOS, Windows): a reviewer sees two names, a checkout keeps one`,
        });
      else byKey.set(key, file.path);
    }
    for (const file of patch.files) {
      for (const p of new Set([file.path, file.oldPath].filter((x): x is string => typeof x === "string"))) {
        const why = confusablePath(p);
        if (why)
          out.push({ rule: "hidden-characters", file: p, line: null, message: `the path holds ${why}` });
      }
      for (const h of file.hunks) {
        for (const l of h.lines) {
          if (l.kind !== "add") continue;
          const c = hiddenIn(l.text);
          if (c) {
            out.push({
              rule: "hidden-characters",
              file: file.path,
              line: l.newLine,
              message: `an added line holds ${c}, a character a reviewer cannot see or that reorders the line`,
            });
            break;
          }
          const w = lookalikeIn(l.text);
          if (w) {
            out.push({
              rule: "hidden-characters",
              file: file.path,
              line: l.newLine,
              message: `an added line holds a word that reads as another: ${w}`,
            });
            break;
          }
        }
      }
    }
    return out;
  },
};
