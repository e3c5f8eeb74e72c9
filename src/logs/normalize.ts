/**
 * Turns one raw line of a CI log into the text parsers read: no CR, no GitHub Actions timestamp
 * prefix, no ANSI escapes, no workflow-command markers, and runner checkout paths made relative.
 */

export interface NormalizedLine {
  text: string;
  /** The line was an `##[error]` annotation (its text follows the marker). */
  ghError: boolean;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// CSI sequences (colours, cursor moves), OSC sequences (hyperlinks, titles) and lone ESC pairs.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const SKIPPED_COMMANDS = new Set([
  "group",
  "endgroup",
  "debug",
  "command",
  "section",
  "add-matcher",
  "remove-matcher",
]);

export function stripAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ANSI, "") : text;
}

/** Returns null for lines that carry no content (group markers, debug lines). */
export function normalizeLine(raw: string, mapPaths: (text: string) => string): NormalizedLine | null {
  let text = raw;
  if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length >= 20 && text.charCodeAt(4) === 45 && text.charCodeAt(10) === 84)
    text = text.replace(TIMESTAMP, "");
  text = stripAnsi(text);
  let ghError = false;
  if (text.startsWith("##[")) {
    const close = text.indexOf("]");
    const command = close > 3 ? text.slice(3, close) : "";
    if (SKIPPED_COMMANDS.has(command)) return null;
    if (command === "error") ghError = true;
    if (close > 3) text = text.slice(close + 1);
  }
  return { text: mapPaths(text), ghError };
}

export interface PathOptions {
  /** Absolute checkout directories whose prefix is removed (e.g. "/workspace" for the sandbox). */
  repoRoot?: string | readonly string[];
  /** "owner/name" or "name": restricts runner-path mapping to this repository's checkout. */
  repoName?: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A function that rewrites runner checkout paths inside a line to repo-relative ones:
 * `/home/runner/work/<repo>/<repo>/src/x.py` → `src/x.py`, likewise macOS (`/Users/runner/work`),
 * container jobs (`/__w/<repo>/<repo>`), Docker actions (`/github/workspace`), Windows (`D:\a\<repo>\<repo>\`)
 * and any `repoRoot` given.
 */
export function createPathMapper(options: PathOptions = {}): (text: string) => string {
  const name = options.repoName ? escapeRegExp(options.repoName.split("/").pop()!) : "[^/\\s\"'()]+";
  const wname = options.repoName ? escapeRegExp(options.repoName.split("/").pop()!) : "[^\\\\\\s\"'()]+";
  const parts = [
    `(?:/home/runner/work|/Users/runner/work|/__w)/${name}/[^/\\s"'()]+/`,
    "/github/workspace/",
    `\\b[A-Za-z]:\\\\a\\\\${wname}\\\\[^\\\\\\s"'()]+\\\\`,
  ];
  const roots =
    options.repoRoot === undefined
      ? []
      : typeof options.repoRoot === "string"
        ? [options.repoRoot]
        : options.repoRoot;
  for (const root of roots) {
    const r = root.replace(/[\\/]+$/, "");
    if (r) parts.push(`${escapeRegExp(r)}[\\\\/]`);
  }
  const re = new RegExp(parts.join("|"), "g");
  const needles = [
    "/work/",
    "/__w/",
    "/github/workspace/",
    ":\\a\\",
    ...roots.map((r) => r.replace(/[\\/]+$/, "")),
  ].filter((n) => n.length > 0);
  return (text) => {
    for (const n of needles) if (text.includes(n)) return text.replace(re, "");
    return text;
  };
}

/** A path from the log as a repo-relative path with forward slashes. */
export function cleanPath(p: string): string {
  let out = p.trim();
  if (/^[A-Za-z]:\\|\\/.test(out)) out = out.replace(/\\/g, "/");
  if (out.startsWith("./")) out = out.slice(2);
  return out;
}
