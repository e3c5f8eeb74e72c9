/**
 * Turns one raw line of a CI log into the text parsers read: no CR, no GitHub Actions timestamp
 * prefix, no ANSI escapes, no workflow-command markers, and runner checkout paths made relative.
 */

export interface NormalizedLine {
  text: string;
  /** The line was an `##[error]` annotation (its text follows the marker). */
  ghError: boolean;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/;
const DART_GROUP = /^(?:\u2705|\u274c|\u274e) \S/;
const SKIPPED_COMMANDS = new Set([
  "group",
  "endgroup",
  "debug",
  "command",
  "section",
  "add-matcher",
  "remove-matcher",
]);

/** Removes ANSI escape sequences: CSI (colours, cursor moves), OSC (hyperlinks, titles) and two-byte escapes. */
export function stripAnsi(text: string): string {
  let esc = text.indexOf("\u001b");
  if (esc === -1) return text;
  // A hand-written scanner: several times faster than a global regex replace on colour-heavy logs.
  let out = "";
  let from = 0;
  const n = text.length;
  while (esc !== -1) {
    out += text.slice(from, esc);
    let i = esc + 1;
    const kind = text.charCodeAt(i);
    if (kind === 0x5b) {
      // CSI: ESC [ parameters (0x30-0x3f)* intermediates (0x20-0x2f)* final (0x40-0x7e)
      i++;
      while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
      while (i < n && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
      if (i < n && text.charCodeAt(i) >= 0x40 && text.charCodeAt(i) <= 0x7e) i++;
    } else if (kind === 0x5d) {
      // OSC: ESC ] … BEL or ESC \
      const bel = text.indexOf("\u0007", i);
      const st = text.indexOf("\u001b\\", i);
      if (bel !== -1 && (st === -1 || bel < st)) i = bel + 1;
      else if (st !== -1) i = st + 2;
      else i = n;
    } else if (kind >= 0x40 && kind <= 0x5f) {
      i++;
    }
    from = i;
    esc = text.indexOf("\u001b", from);
  }
  return out + text.slice(from);
}

/** Removes an ISO-8601 UTC timestamp (`2024-05-01T10:00:00.123Z `) that opens a line. */
export function stripTimestamp(text: string): string {
  if (text.length >= 20 && text.charCodeAt(4) === 45 && text.charCodeAt(10) === 84 && TIMESTAMP.test(text)) {
    // test() then slice: no match array, one new string.
    const z = text.indexOf("Z", 19);
    return text.slice(text.charCodeAt(z + 1) === 32 ? z + 2 : z + 1);
  }
  return text;
}

/**
 * A log pasted into an issue as inline code: each line in its own backticks (`` `[ERROR] … <<< FAILURE!`  ``, the two
 * trailing spaces a markdown line break), or one span over several lines (a first line opening with a backtick, a
 * last line closing with one). A backtick that opens or closes a line and is the line's only other backtick (or
 * its only one) is markdown's, not the log's: removed with the spaces after a closing one. A fence (```` ``` ````)
 * and a line quoting code in the middle (`` run `npm ci` first ``) are left alone.
 */
export function stripInlineCode(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  const opens = text.charCodeAt(0) === 96 && text.charCodeAt(1) !== 96;
  const closes = end > 0 && text.charCodeAt(end - 1) === 96 && text.charCodeAt(end - 2) !== 96;
  const inner = text.indexOf("`", opens ? 1 : 0);
  if (opens && closes && end - 1 > 0 && inner === end - 1) return text.slice(1, end - 1);
  if (opens && inner === -1) return text.slice(1);
  if (closes && !opens && inner === end - 1) return text.slice(0, end - 1);
  return text;
}

/** Returns null for lines that carry no content (group markers, debug lines). */
export function normalizeLine(raw: string, mapPaths: (text: string) => string): NormalizedLine | null {
  const flags = { ghError: false };
  const text = normalizeText(raw, mapPaths, flags);
  return text === null ? null : { text, ghError: flags.ghError };
}

/**
 * `normalizeLine` without a new object per line: the text, or null, and whether the line was an `##[error]`
 * annotation in `flags.ghError` (the engine keeps one `flags` for every line of a log).
 */
export function normalizeText(
  raw: string,
  mapPaths: (text: string) => string,
  flags: { ghError: boolean },
): string | null {
  let text = raw;
  if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
  // A carriage return inside a line overwrites what came before it, as on a terminal: progress bars, and
  // GitLab's `section_start:…:name\r\e[0K` markers, leave only the text after the last one.
  // indexOf first: a fast scan, where lastIndexOf is a slow runtime call on every line of a log that has none.
  if (text.indexOf("\r") !== -1) text = text.slice(text.lastIndexOf("\r") + 1);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = stripAnsi(stripTimestamp(text));
  const c0 = text.charCodeAt(0);
  if (c0 === 96 || text.charCodeAt(text.length - 1) === 96 || text.endsWith("` ") || text.endsWith("`  "))
    text = stripInlineCode(text);
  flags.ghError = false;
  if (text.startsWith("##[")) {
    const close = text.indexOf("]");
    const command = close > 3 ? text.slice(3, close) : "";
    // `dart test`'s github reporter (its default inside Actions) titles a test's group with its outcome and name
    // (`##[group]❌ test/x_test.dart: adds (failed)`): that title is the test's result line, kept.
    if (SKIPPED_COMMANDS.has(command) && !(command === "group" && DART_GROUP.test(text.slice(close + 1))))
      return null;
    if (command === "error") flags.ghError = true;
    if (close > 3) text = text.slice(close + 1);
  }
  return mapPaths(text);
}

const BUILT_NEEDLE = /\/(?:BUILD\/|work-py|home\/(?:travis|circleci)\/|var\/tmp\/portage\/|_work\/)/;
/**
 * Any of BUILT_NEEDLE's shapes or of the fixed needles below: a line with a `/` but none of these (a test path,
 * a URL) is left after one scan instead of one per needle.
 */
const ANY_NEEDLE =
  /\/(?:BUILD\/|work-py|home\/(?:travis|circleci)\/|work\/|__w\/|github\/workspace\/|builds\/|workspace\/|_work\/)|:\\a\\/;

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
  const seg = "[^/\\s\"'()]+";
  const parts = [
    `(?:/home/runner/work|/Users/runner/work|/__w)/${name}/[^/\\s"'()]+/`,
    "/github/workspace/",
    // GitLab runners check out to /builds/<namespace>/<project> (nested groups add levels: with a repoName
    // any depth is matched; without, the common two levels).
    // Not inside a longer path, but a JSON escape (`"\t/builds/…"` in go test -json output) may precede it.
    `(?<!(?<!\\\\)[\\w.-])${options.repoName ? `/builds/(?:${seg}/)*?${name}/` : `/builds/${seg}/${seg}/`}`,
    // Jenkins workspaces: /var/lib/jenkins/workspace/<job>, the Docker image's /var/jenkins_home, agents' /home/jenkins[/agent].
    `(?:/var/lib/jenkins|/var/jenkins_home|/home/jenkins(?:/agent)?)/workspace/${seg}/`,
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
    "/builds/",
    "/workspace/",
    ":\\a\\",
    ...roots.map((r) => r.replace(/[\\/]+$/, "")),
  ].filter((n) => n.length > 0);
  // Package builds unpack the released tree and test it there: rpmbuild and OBS (`…/BUILD/<name>-<version>/`),
  // FreeBSD ports (`…/work-py39/<name>-<version>/`). Apart, and only on lines that name such a directory:
  // the absolute part before it has no fixed shape, so the pattern is costly to try at every slash.
  // Travis (/home/travis/build/<owner>/<repo>) and CircleCI (~/project, or ~/repo in its 2.0 templates) likewise;
  // Gentoo's portage builds a package in /var/tmp/portage/<category>/<name>-<version>/work/<name>-<version>/.
  // A self-hosted GitHub Actions runner checks out to `<its directory>/_work/<repo>/<repo>/`, wherever it is installed
  // (`/home/ci/actions-runner/`, inside AWS CodeBuild's `/codebuild/output/src123/src/actions-runner/`).
  const built = new RegExp(
    `(?<![\\w.-])(?:(?:/${seg})+?/_work/${name}/${seg}/|(?:/${seg})+?/(?:BUILD|work-py\\d+)/${seg}-\\d[\\w.]*/|/var/tmp/portage/${seg}/${seg}/work/${seg}/|/home/travis/build/${seg}/${name}/|/home/circleci/(?:project|repo)/)`,
    "g",
  );
  // Every needle holds a separator: a line with neither `/` nor `\` (most of a log) is left at once.
  const gated = needles.every((n) => n.includes("/") || n.includes("\\"));
  // Without repoRoot the needles are fixed: one regex scan says whether any of them is there.
  const fixed = roots.length === 0;
  return (text) => {
    if (gated && text.indexOf("/") === -1 && text.indexOf("\\") === -1) return text;
    if (fixed && !ANY_NEEDLE.test(text)) return text;
    if (BUILT_NEEDLE.test(text)) text = text.replace(built, "");
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
