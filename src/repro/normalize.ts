/**
 * Normalization before comparing reported and observed text: what differs between two machines
 * (paths, memory addresses, line numbers, timestamps, colours, object ids) is replaced by a placeholder.
 */

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

export function normalizeText(text: string): string {
  return (
    text
      .replace(ANSI, "")
      .replace(/\r\n?/g, "\n")
      // Timestamps: ISO 8601 and "2024-01-02 03:04:05".
      .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/g, "<time>")
      .replace(/\b\d{2}:\d{2}:\d{2}(\.\d+)?\b/g, "<time>")
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
      .map((l) => l.replace(/[ \t]+/g, " ").replace(/ $/, ""))
      .join("\n")
      .trim()
  );
}

/** Lines of normalized text, blank lines dropped. */
export function normalizedLines(text: string): string[] {
  return normalizeText(text)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

/** Quotes are written differently by reporters and runtimes ('x' vs "x" vs ‘x’): compare without them. */
export function looseKey(text: string): string {
  return normalizeText(text)
    .replace(/[‘’“”'"`]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}
