/**
 * hidden-characters: a patch whose added lines or paths hold characters a reviewer cannot see or that make text
 * read otherwise than it is — bidi controls and isolates (Trojan Source, CVE-2021-42574: a comment that reads as
 * code, a string that reads as a condition), zero-width and invisible format characters (an identifier that looks
 * like another), Unicode tag characters (invisible text), every other format character, private-use characters and
 * noncharacters (wave 17) — and paths with confusable names: a segment mixing Latin
 * with Cyrillic or Greek letters in one word (`src/іndex.js` beside `src/index.js`; `docs/документ.md` is no mix), or a
 * character that looks like `/` or `.`. Zero-width joiners between two non-ASCII characters are writing (Persian,
 * Indic scripts, emoji sequences) and allowed; touching ASCII they are hidden.
 * A model steered by a report or log can write any of them; a verified patch must read as it runs.
 */
import { BIDI, BLANK_LETTERS, OTHER_INVISIBLE, TAGS, ZERO_WIDTH } from "../../core/hidden-characters.ts";
import { fileSystemPath } from "../../core/repo-path.ts";
import type { Rule, Violation } from "../types.ts";

const HIDDEN = new RegExp(`[${BIDI}${ZERO_WIDTH}${BLANK_LETTERS}${TAGS}${OTHER_INVISIBLE}]`, "u");
/**
 * Controls in an added line a reader does not see as themselves: C0 but tab and form feed, DEL and C1 (NEL, U+0085, is
 * a line break to some readers). A CR inside a line makes a terminal's `git diff` write the rest over what came before;
 * one CR at the end is a CRLF file's line ending.
 */
const LINE_CONTROL = /[\u0000-\u0008\u000b\u000d-\u001f\u007f-\u009f]/u;
/** Characters drawn like a path separator or a dot. */
const LOOKALIKE_SEPARATOR = /[\u2215\u2044\u29f8\uff0f\u2024\uff0e\u3002\u2027\uff3c\u29f5\u2216]/u;

const describe = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
/** Zero-width (non-)joiners: part of how Persian, Arabic and Indic words and emoji sequences are written. */
const JOINERS = new Set(["\u200c", "\u200d"]);

/**
 * A variation selector after an ASCII character or at a line's start: it selects a glyph of an emoji or a CJK or
 * math symbol, so after `ok` or `isAdmin` it changes nothing a reader sees and makes a second identifier or
 * string (`ok\ufe0f`, wave 16). A keycap (`1\ufe0f\u20e3`) is an emoji and stays.
 */
const VS_AFTER_ASCII = /(?:^|[\u0000-\u007f])[\ufe00-\ufe0f](?!\u20e3)/u;

function hiddenIn(text: string): string | null {
  const vs = VS_AFTER_ASCII.exec(text);
  if (vs) return describe(vs[0].slice(-1));
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

/**
 * Letters of other scripts, and Latin's own non-ASCII letters, drawn like ASCII Latin ones in common fonts (Unicode's
 * confusables, the unmistakable subset): Armenian, Cherokee, Lisu and Coptic, IPA and small capitals. Dotless `ı`
 * is left out: it is Turkish writing.
 */
const OTHER_READING: Record<string, string> = {
  // Armenian
  "\u0585": "o",
  "\u057d": "u",
  "\u0570": "h",
  "\u0578": "n",
  "\u0581": "g",
  "\u0566": "q",
  "\u0555": "O",
  "\u054d": "U",
  "\u054f": "S",
  "\u053c": "L",
  // Cherokee
  "\u13aa": "A",
  "\u13f4": "B",
  "\u13df": "C",
  "\u13a0": "D",
  "\u13ac": "E",
  "\u13c0": "G",
  "\u13bb": "H",
  "\u13ab": "J",
  "\u13e6": "K",
  "\u13de": "L",
  "\u13b7": "M",
  "\u13e2": "P",
  "\u13a1": "R",
  "\u13da": "S",
  "\u13a2": "T",
  "\u13d9": "V",
  "\u13b3": "W",
  "\u13c3": "Z",
  // Lisu
  "\ua4ee": "A",
  "\ua4d0": "B",
  "\ua4da": "C",
  "\ua4d3": "D",
  "\ua4f0": "E",
  "\ua4dd": "F",
  "\ua4d6": "G",
  "\ua4e7": "H",
  "\ua4f2": "I",
  "\ua4d9": "J",
  "\ua4d7": "K",
  "\ua4e1": "L",
  "\ua4df": "M",
  "\ua4e0": "N",
  "\ua4f3": "O",
  "\ua4d1": "P",
  "\ua4e3": "R",
  "\ua4e2": "S",
  "\ua4d4": "T",
  "\ua4f4": "U",
  "\ua4e6": "V",
  "\ua4ea": "W",
  "\ua4eb": "X",
  "\ua4ec": "Y",
  "\ua4dc": "Z",
  // Coptic
  "\u2c9f": "o",
  "\u2ca3": "p",
  "\u2ca5": "c",
  "\u2cad": "x",
  "\u2c9e": "O",
  "\u2ca2": "P",
  "\u2ca4": "C",
  "\u2cac": "X",
  // Latin: IPA and small capitals
  "\u0251": "a",
  "\u0261": "g",
  "\u0269": "i",
  "\u1d00": "A",
  "\u0299": "B",
  "\u1d04": "C",
  "\u1d05": "D",
  "\u1d07": "E",
  "\u0262": "G",
  "\u029c": "H",
  "\u026a": "I",
  "\u1d0a": "J",
  "\u1d0b": "K",
  "\u029f": "L",
  "\u1d0d": "M",
  "\u0274": "N",
  "\u1d0f": "O",
  "\u1d18": "P",
  "\u0280": "R",
  "\ua731": "S",
  "\u1d1b": "T",
  "\u1d1c": "U",
  "\u1d20": "V",
  "\u1d21": "W",
  "\u028f": "Y",
  "\u1d22": "Z",
};
for (const c of Object.keys(OTHER_READING)) LATIN_LOOKALIKES.add(c);

/** Scripts whose letters, mixed into a Latin path segment, make a name read as another. */
const OTHER_SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\p{Script=Lisu}\p{Script=Coptic}]/u;
const SCRIPT_NAMES = ["Cyrillic", "Greek", "Armenian", "Cherokee", "Lisu", "Coptic"] as const;

function scriptsOf(word: string): string {
  const found = SCRIPT_NAMES.filter((n) => new RegExp(`\\p{Script=${n}}`, "u").test(word));
  // Wave 13's words for the two it named; the others by name.
  if (found.every((n) => n === "Cyrillic" || n === "Greek")) return "Cyrillic or Greek";
  return found.join(" or ");
}

/** Words of a line or a path segment: runs of letters, digits, `_` and `$` (identifiers, names, words of prose). */
const WORDS = /[\p{L}\p{M}\p{N}_$]+/gu;

const ASCII_LETTER = /[A-Za-z]/;
const NOT_LOOKALIKE_FOLDS = new Set(["\u00aa", "\u00ba", "\u2139"]);

/**
 * Why `word` reads as another, or null: it mixes Latin with letters of another script (`іndex`, `аdmin`, `lօgin`), or
 * ASCII letters with Latin ones drawn like them (`ɑdmin`); it is written only in letters drawn like Latin ones, three
 * or more (`ехес`, `ΤΟΚΕΝ`, `ᏚᎬᏟᎡᎬᎢ`, `ᴀᴅᴍɪɴ`); or compatibility folding makes it an ASCII word (`𝐞𝐱𝐞𝐜` is `exec`).
 * `документ`, `λ`, `счёт`, `kırmızı` and short words (`а`, `с`, `у` are Russian words) are writing, and allowed.
 */
function lookalikeWord(word: string, strictMix: boolean): string | null {
  const folded = word.normalize("NFKC");
  // A letter folding to ASCII letters (`𝐞`, `ｅ`, `ﬁ`); a superscript digit (`n²`) is no letter and stays, and so do
  // the ordinal indicators (`1ª`, `nº`) and the information source emoji (`ℹ`), which read as what they are.
  const foldsToLatin = [...word].some(
    (c) =>
      c > "\x7f" &&
      !NOT_LOOKALIKE_FOLDS.has(c) &&
      /\p{L}/u.test(c) &&
      /^[A-Za-z]+$/.test(c.normalize("NFKC")),
  );
  if (foldsToLatin && /^[\x21-\x7e]+$/.test(folded))
    return `\`${word}\` is drawn like \`${folded}\` (compatibility folding, NFKC)`;
  const letters = [...word].filter((c) => /\p{L}/u.test(c));
  const other = OTHER_SCRIPT.test(word);
  const confusable = letters.some((c) => LATIN_LOOKALIKES.has(c));
  if (!other && !confusable) return null;
  const latin = /\p{Script=Latin}/u.test(word);
  const readsLatin = letters.every((c) => ASCII_LETTER.test(c) || LATIN_LOOKALIKES.has(c));
  // In a path any mix is refused; in a line (`2πr`, `Δx`) only one whose other letters are drawn like Latin ones.
  if (latin && other && (strictMix || readsLatin))
    return `\`${word}\` mixes Latin with ${scriptsOf(word)} letters`;
  if (letters.some((c) => ASCII_LETTER.test(c)) && readsLatin)
    return `\`${word}\` mixes ASCII letters with letters drawn like them (it reads as \`${latinReading(word)}\`)`;
  if (letters.length >= 3 && letters.every((c) => LATIN_LOOKALIKES.has(c)))
    return `\`${word}\` is written in ${other ? scriptsOf(word) : "non-ASCII Latin"} letters drawn like Latin ones (it reads as \`${latinReading(word)}\`)`;
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
  return [...word].map((c) => READING[c] ?? OTHER_READING[c] ?? c).join("");
}

function lookalikeIn(text: string, strictMix = false): string | null {
  if (!/[^\x00-\x7f]/.test(text)) return null;
  for (const m of text.matchAll(WORDS)) {
    const why = lookalikeWord(m[0], strictMix);
    if (why) return why;
  }
  return null;
}

/** Windows' reserved device names, with any extension (`con.js`, `AUX`, `com1.txt`, `lpt²`). */
const WINDOWS_DEVICE =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)(\..*)?$/i;

/**
 * More combining marks on one letter than any writing system stacks (Vietnamese two, pointed and cantillated Hebrew
 * or Sanskrit in Tibetan four or five): "Zalgo" text, drawn over the lines above and below it, so a reviewer cannot
 * read them or what they cover (wave 20).
 */
const STACKED_MARKS = /\p{M}{6,}/u;

/**
 * Characters Unicode declares the same as another single character (a singleton canonical decomposition: NFC
 * replaces them): U+037E GREEK QUESTION MARK is `;`, U+0387 is `·`, U+212A KELVIN SIGN is `K`, U+2126 OHM SIGN is `Ω`,
 * the CJK compatibility ideographs. They are drawn as that character and are another code point to a compiler, a
 * file system and `grep` (`allow()\u037e` ends a statement to the eye and is a syntax error, or an identifier
 * character, to the language). No text needs them: every editor that normalizes removes them (twenty-first red team).
 */
let singletons: RegExp | null = null;
function singletonIn(text: string): string | null {
  if (singletons === null) {
    let cls = "";
    for (const [from, to] of [
      [0x80, 0x2fff],
      [0xf900, 0xfaff],
      [0x2f800, 0x2fa1f],
    ] as const)
      for (let c = from; c <= to; c++) {
        const ch = String.fromCodePoint(c);
        const nfc = ch.normalize("NFC");
        if (nfc !== ch && [...nfc].length === 1) cls += `\\u{${c.toString(16)}}`;
      }
    singletons = new RegExp(`[${cls}]`, "u");
  }
  const m = singletons.exec(text);
  return m ? m[0] : null;
}

/** U+FFFD: the mark a lossy decode leaves of bytes that are not UTF-8 — a name other than the file's (wave 20). */
const REPLACEMENT = "\ufffd";

function confusablePath(p: string): string | null {
  const hidden = hiddenIn(p);
  if (hidden) return `a hidden character (${hidden})`;
  if (p.includes(REPLACEMENT))
    return "U+FFFD, which stands for bytes that are not UTF-8: the file written would not be the file named";
  if (STACKED_MARKS.test(p))
    return "a letter with more combining marks stacked on it than any script writes, drawn over the text around it";
  const twin = singletonIn(p);
  if (twin)
    return `${describe(twin)}, which Unicode declares the same as ${describe(twin.normalize("NFC"))} and is drawn as it`;
  const sep = LOOKALIKE_SEPARATOR.exec(p);
  if (sep) return `a character drawn like a separator or a dot (${describe(sep[0])})`;
  // Word by word: `документ.md` and `λ-calculus.md` name files in a script of their own; `іndex.js` and `ехес.js`
  // read as Latin names they are not.
  const trailing = p.split("/").find((seg) => /[. ]$/.test(seg) && seg !== "." && seg !== "..");
  if (trailing !== undefined)
    return `a name Windows reads without its trailing dots or spaces (\`${trailing}\` is \`${trailing.replace(/[. ]+$/, "")}\` there)`;
  const device = p.split("/").find((seg) => WINDOWS_DEVICE.test(seg.replace(/[. ]+$/, "")));
  if (device !== undefined)
    return `a name Windows reserves for a device (\`${device}\`): a checkout there fails or writes to the device`;
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

/** Why an added line must not land (the first reason found), or null: each reason names what a reviewer would miss. */
function addedLineReason(text: string): string | null {
  const c = hiddenIn(text);
  if (c) return `holds ${c}, a character a reviewer cannot see or that reorders the line`;
  const ctl = LINE_CONTROL.exec(text.replace(/\r$/, ""));
  if (ctl)
    return `holds the control character ${describe(ctl[0])}, which a reader does not see as itself (a CR inside a line hides what comes before it in a terminal)`;
  if (STACKED_MARKS.test(text))
    return "stacks more combining marks on one letter than any script writes: they are drawn over the lines around it, hiding what they cover";
  const twin = singletonIn(text);
  if (twin)
    return `holds ${describe(twin)}, which Unicode declares the same as ${describe(twin.normalize("NFC"))} and is drawn as it, but is another character to the language`;
  const w = lookalikeIn(text);
  if (w) return `holds a word that reads as another: ${w}`;
  return null;
}

/**
 * Files the patch creates (or renames to) whose name, or one of whose directories, folds onto a different name
 * already in the tree (`src/Auth.js` beside `src/auth.js`; `SRC/x.js` beside `src/`): one file or directory on
 * macOS and Windows, two to a reviewer. The applier refuses them too; the gate says so before any verdict.
 */
function treeTwins(
  files: readonly { path: string; oldPath?: string | null; status: string }[],
  treeFiles: readonly string[],
): Violation[] {
  const tree = new Set(treeFiles);
  const keys = new Map<string, string>();
  for (const f of treeFiles) {
    const segs = f.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const name = segs.slice(0, i).join("/");
      const key = twinKey(name);
      if (!keys.has(key)) keys.set(key, name);
    }
  }
  const out: Violation[] = [];
  for (const file of files) {
    if (file.status === "deleted" || tree.has(file.path)) continue;
    const segs = file.path.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const name = segs.slice(0, i).join("/");
      const other = keys.get(twinKey(name));
      if (other === undefined || other === name) continue;
      // A rename of `src/auth.js` to `src/Auth.js` replaces the file: its old name leaves the tree.
      if (file.oldPath === other) continue;
      out.push({
        rule: "hidden-characters",
        file: file.path,
        line: null,
        message: `the path ${i === segs.length ? "is" : `puts ${JSON.stringify(name)}, which is`} one name with the repository's ${JSON.stringify(other)} where names are compared without case or Unicode normalisation (macOS, Windows): a reviewer sees two, a checkout keeps one`,
      });
      break;
    }
  }
  return out;
}

export const hiddenCharacters: Rule = {
  id: "hidden-characters",
  enabled: () => true,
  check({ patch, treeFiles }) {
    const out: Violation[] = [];
    if (treeFiles) out.push(...treeTwins(patch.files, treeFiles));
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
          const why = addedLineReason(l.text);
          if (why) {
            out.push({
              rule: "hidden-characters",
              file: file.path,
              line: l.newLine,
              message: `an added line ${why}`,
            });
            break;
          }
        }
      }
    }
    return out;
  },
};
