/**
 * Normalization before comparing reported and observed text: what differs between two machines
 * (paths, memory addresses, line numbers, timestamps, colours, object ids) is replaced by a placeholder.
 */

// An OSC sequence (`ESC ] … BEL`) stops at the next ESC: `[^\u0007]*` scanned the rest of the output from each of
// a run of unterminated ones (4 million `ESC ]` held the host past 50 s of CPU, ninth red team).
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*\u0007/g;

export interface NormalizeOptions {
  /**
   * Mask timestamps as `<time>` (the default). False keeps them as printed: where the timestamp is the whole
   * claim (a date library's output), masking it would erase the evidence.
   */
  times?: boolean;
}

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/g;
const CLOCK_TIME = /\b\d{2}:\d{2}:\d{2}(\.\d+)?\b/g;

/** What stands for one significant blank inside a quoted string once whitespace is collapsed (U+2423 OPEN BOX). */
const KEPT_BLANK = "\u2423";

/**
 * Blanks inside a quoted string are part of the value where they pad it or run two or more wide:
 * `'        foo         '` (`str.format("{:^20}", "foo")`) is not `'foo'`, and a padding bug is the whole claim
 * of its report (hold13-py-format-micropython1708 came back a false REPRODUCED when collapsing erased it). Such
 * blanks become KEPT_BLANK before runs are collapsed; a single blank between words stays a blank, so `Hello world`
 * written bare still meets `'Hello world'` printed as a repr. Linear: a span stops at the first quote of either kind.
 */
function keepQuotedPadding(line: string): string {
  if (!/['"]/.test(line) || !/[ \t]/.test(line)) return line;
  // A string literal as printers write one: opened after a start, blank or opening bracket/separator and closed
  // before an end, blank or closing bracket/separator — so the quote inside `'a2"'` never pairs with the next
  // string's opening quote.
  return line.replace(
    /(?<=^|[\s[({,:=])(['"])([^'"\n]*)\1(?=$|[\s\])},:;])/g,
    (_m, q: string, inner: string) => {
      const kept = inner
        .replace(/^[ \t]+|[ \t]+$/g, (b) => KEPT_BLANK.repeat(b.length))
        .replace(/[ \t]{2,}/g, (b) => KEPT_BLANK.repeat(b.length));
      return `${q}${kept}${q}`;
    },
  );
}

export function normalizeText(text: string, options: NormalizeOptions = {}): string {
  const unified = text.replace(ANSI, "").replace(/\r\n?/g, "\n");
  // Timestamps: ISO 8601 and "2024-01-02 03:04:05" (Python logging writes "03:04:05,123").
  const timed =
    options.times === false ? unified : unified.replace(ISO_TIME, "<time>").replace(CLOCK_TIME, "<time>");
  return (
    timed
      // Memory addresses and object ids.
      .replace(/\b0x[0-9a-fA-F]{4,}\b/g, "0x<addr>")
      .replace(/\bid=\d{5,}\b/g, "id=<id>")
      // File paths (POSIX and Windows), with their line and column suffixes; also paths whose root the reporter
      // redacted (`<cut>\Bot\index.js`, `<FOLDER_PATH>/node_modules/x`, `~/p/fork.py`).
      .replace(/(?:<[A-Za-z_][\w -]*>|~)(?:[\\/][^\\/\s"'<>:|,)]+)+/g, "<path>")
      .replace(/[A-Za-z]:\\(?:[^\\\s"'<>:|]+\\)*[^\\\s"'<>:|,)]+/g, "<path>")
      .replace(/(?<![\w.<])(?:file:\/\/)?(?:\/[\w.@+-]+){2,}/g, "<path>")
      .replace(/<path>(:\d+)+/g, "<path>")
      .replace(/\bline \d+\b/g, "line <n>")
      .replace(/\((?:<anonymous>|node:[\w/:]+):\d+:\d+\)/g, "(<loc>)")
      // Durations that change on every run.
      .replace(/\b\d+(\.\d+)?\s?(ms|µs|ns)\b/g, "<dur>")
      .split("\n")
      // Runs collapsed first: `/[ \t]+$/` on a long run that does not end the line is quadratic.
      .map((l) =>
        keepQuotedPadding(l)
          .replace(/[ \t]+/g, " ")
          .replace(/ $/, ""),
      )
      .join("\n")
      .trim()
  );
}

/** Lines of normalized text, blank lines dropped. */
export function normalizedLines(text: string, options: NormalizeOptions = {}): string[] {
  return normalizeText(text, options)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

/**
 * True when a reported line (or message) holds a timestamp and, once its volatile values are masked, nothing
 * but placeholders, punctuation and at most one short word (`"<time>"`, `Moment<<time>>`, `[Date: <time>]`):
 * the timestamp is then the claim itself (a date library's result), not the noise around one, and a masked
 * placeholder must never be the whole evidence. A logger's line (`<time> ERROR boom`) says more and stays masked.
 */
export function timeIsTheClaim(text: string): boolean {
  const masked = normalizeText(text);
  if (!masked.includes("<time>")) return false;
  const rest = masked.replace(/<[a-z]+>/g, " ");
  const words = rest.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words.length <= 1 && words.join("").length <= 10;
}

/**
 * Quotes are written differently by reporters and runtimes ('x' vs "x" vs ‘x’): compare without them. Letter case
 * is kept: `"A1b"` and `'A1B'` are different outputs (a case-changing library's whole claim).
 */
export function looseKey(text: string, options: NormalizeOptions = {}): string {
  return (
    normalizeText(text, options)
      // Node's printer names an anonymous function `[Function (anonymous)]` where Node < 12 (and browsers'
      // consoles) wrote `[Function]`: the same value.
      .replace(/\[Function \(anonymous\)\]/g, "[Function]")
      // `.5` and `0.5` are one number as reporters and runtimes write it.
      .replace(/(?<![\w.])(-?)\.(\d)/g, "$10.$2")
      .replace(/[‘’“”'"`]/g, "")
      .replace(/\s+/g, " ")
      .trim()
  );
}
