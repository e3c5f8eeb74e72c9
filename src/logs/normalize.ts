/**
 * Turns one raw line of a CI log into the text parsers read: no CR, no GitHub Actions timestamp
 * prefix, no ANSI escapes, no workflow-command markers, and runner checkout paths made relative.
 */
import { escapeRegExp } from "../core/regexp.ts";

export interface NormalizedLine {
  text: string;
  /** The line was an `##[error]` annotation (its text follows the marker). */
  ghError: boolean;
}

/**
 * Characters no test name or message is written with, that hide or split text where a maintainer reads it: C0
 * controls but the tab (a NUL inside a name read `test_ok\0PASSED` as one test id, red team 22), DEL, NEL and the
 * Unicode line and paragraph separators. Each becomes U+FFFD: visible, and never the name of a real test.
 */
const HIDING = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029]/g;

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

/**
 * A colour escape a log viewer or a copy printed in caret notation, its ESC as the two characters `^[` (`^[[31m`,
 * `^[[1;41m`): only the complete SGR form, `^[[` digits and `;`, then `m`, so a `^[` of other text is kept.
 */
const CARET_SGR = /\^\[\[[\d;]*m/g;

/** Removes colour escapes printed in caret notation (see CARET_SGR). */
export function stripCaretColours(text: string): string {
  if (text.indexOf("^[[") === -1) return text;
  return text.replace(CARET_SGR, "");
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
  text = stripCaretColours(stripAnsi(stripTimestamp(text)));
  HIDING.lastIndex = 0;
  if (HIDING.test(text)) text = text.replace(HIDING, "\ufffd");
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

/** What a checkout root's pattern is built from: the repository's directory name and any path segment. */
export interface RootNames {
  /** The repository's directory name between `/` (`--repo-name`'s last part), or any segment without one. */
  name: string;
  /** Likewise between `\`. */
  wname: string;
  /** Any one path segment between `/`. */
  seg: string;
  /** Any one path segment between `\`. */
  wseg: string;
  /** A repository name was given: patterns that can tell the checkout from its neighbours do. */
  named: boolean;
}

/**
 * Where a CI checks the repository out: the absolute prefix removed from paths in its logs, so a location reads
 * `src/x.py` whatever runner printed it. Each root is data: the CI, a path it prints, the fixed text every such
 * prefix holds (a line holding none of a root's needles is not matched against it) and the prefix as a pattern.
 */
export interface CheckoutRoot {
  ci: string;
  /** A path as the CI prints it; the part before the repository's own files is removed. */
  example: string;
  needles: readonly string[];
  pattern: (n: RootNames) => string;
  /** Removed in a first pass with ANCHORED_ROOTS, before the others look at what is left. */
  early?: boolean;
}

/**
 * A path's first `/`, not inside a longer path (`/opt/builds/…`, `x/home/travis/…`): the `/` first and the look
 * behind it after, so a scan tries the look only where a `/` is.
 */
const START = String.raw`/(?<![\w.-]/)`;

/** Checkout roots at a fixed absolute directory, tried in this order at each place in a line. */
export const CHECKOUT_ROOTS: readonly CheckoutRoot[] = [
  {
    ci: "GitHub Actions (Linux, macOS, container jobs)",
    example: "/home/runner/work/calc/calc/src/x.py",
    needles: ["/work/", "/__w/"],
    // Vitest abbreviates the runner's home as `~` (`~/work/calc/calc/web/src/x.test.ts`).
    pattern: (n) =>
      `(?:(?:/home/runner/work|/Users/runner/work|/__w)|(?<![\\w.-])~/work)/${n.name}/${n.seg}/`,
  },
  {
    ci: "GitHub Actions (Docker actions)",
    example: "/github/workspace/src/x.py",
    needles: ["/github/workspace/"],
    pattern: () => "/github/workspace/",
  },
  {
    // Nested groups add levels: with a repository name any depth (GitLab allows 20 levels of subgroups) before
    // the project's own directory, without one the common two. Not inside a longer path (Buildkite's
    // `…/buildkite-agent/builds/`), but a JSON escape (`"\t/builds/…"` in go test -json output) may precede it.
    ci: "GitLab CI",
    example: "/builds/acme/backend/calc/src/x.py",
    needles: ["/builds/"],
    pattern: (n) =>
      `(?<!(?<!\\\\)[\\w.-])${n.named ? `/builds/(?:${n.seg}/){0,20}?${n.name}/` : `/builds/${n.seg}/${n.seg}/`}`,
  },
  {
    ci: "Jenkins (Debian package, the Docker image's /var/jenkins_home, agents' /home/jenkins[/agent])",
    example: "/var/lib/jenkins/workspace/calc-job/src/x.py",
    needles: ["/workspace/"],
    pattern: (n) => `(?:/var/lib/jenkins|/var/jenkins_home|/home/jenkins(?:/agent)?)/workspace/${n.seg}/`,
  },
  {
    ci: "Jenkins on Windows",
    example: "C:\\ProgramData\\Jenkins\\.jenkins\\workspace\\calc-job\\src\\x.cs",
    needles: ["\\workspace\\"],
    pattern: (n) =>
      String.raw`\b[A-Za-z]:\\(?:ProgramData\\Jenkins\\\.jenkins|Jenkins|jenkins)\\workspace\\${n.wseg}\\`,
  },
  {
    ci: "GitHub Actions (Windows)",
    example: "D:\\a\\calc\\calc\\src\\x.ts",
    needles: [":\\a\\"],
    pattern: (n) => String.raw`\b[A-Za-z]:\\a\\${n.wname}\\${n.wseg}\\`,
  },
  {
    // Azure Pipelines checks the repository out to `$(Agent.BuildDirectory)\s`, the build directory numbered.
    ci: "Azure Pipelines (hosted Windows)",
    example: "D:\\a\\1\\s\\src\\x.cs",
    needles: [":\\a\\"],
    pattern: () => String.raw`\b[A-Za-z]:\\a\\\d+\\s\\`,
  },
  {
    ci: "Azure Pipelines (hosted Linux and macOS)",
    example: "/home/vsts/work/1/s/src/x.py",
    needles: ["/work/"],
    pattern: () => `${START}(?:home/vsts|home/runner|Users/runner)/work/\\d+/s/`,
  },
  {
    // AppVeyor clones to C:\projects\<project slug> (its Linux and macOS images: ~/projects/<slug>).
    ci: "AppVeyor",
    example: "C:\\projects\\kestrelhttpserver\\test\\HttpsTests.cs",
    needles: [":\\projects\\", "/appveyor/projects/"],
    pattern: (n) =>
      String.raw`\b[Cc]:\\projects\\${n.wname}\\|${START}(?:home/appveyor|Users/appveyor)/projects/${n.name}/`,
  },
  {
    ci: "Travis CI",
    example: "/home/travis/build/acme/calc/src/x.py",
    early: true,
    needles: ["/travis/build/", "\\travis\\build\\"],
    pattern: (n) =>
      String.raw`${START}(?:home/travis|Users/travis)/build/${n.seg}/${n.name}/|\b[Cc]:\\Users\\travis\\build\\${n.wseg}\\${n.wname}\\`,
  },
  {
    // CircleCI's working directory is ~/project (~/repo in its 2.0 templates): the image's user's home, root's in
    // an image that runs as root, `distiller` on macOS; `~/project/` as its own steps print it.
    ci: "CircleCI",
    example: "/home/circleci/project/src/x.py",
    early: true,
    needles: ["/home/circleci/", "/root/project/", "/distiller/project/", "~/project/"],
    pattern: () =>
      `${START}(?:home/circleci/(?:project|repo)|root/project|Users/distiller/project)/|(?<![\\w.-])~/project/`,
  },
  {
    // Buildkite's agent checks out to <builds path>/<agent name>/<organization>/<pipeline>.
    ci: "Buildkite",
    example: "/var/lib/buildkite-agent/builds/agent-1/acme/calc/src/x.py",
    needles: ["/builds/", "\\builds\\"],
    pattern: (n) =>
      String.raw`${START}(?:var/lib/buildkite-agent|buildkite|Users/${n.seg}/\.buildkite-agent)/builds/${n.seg}/${n.seg}/${n.name}/|\b[A-Za-z]:\\buildkite-agent\\builds\\${n.wseg}\\${n.wseg}\\${n.wname}\\`,
  },
  {
    ci: "Bitbucket Pipelines",
    example: "/opt/atlassian/pipelines/agent/build/src/x.py",
    needles: ["/pipelines/agent/build/"],
    pattern: () => `${START}opt/atlassian/pipelines/agent/build/`,
  },
  {
    ci: "Drone",
    example: "/drone/src/tests/x.php",
    needles: ["/drone/src/"],
    pattern: () => `${START}drone/src/`,
  },
  {
    // Gentoo's portage builds a package in /var/tmp/portage/<category>/<name>-<version>/work/<name>-<version>/.
    ci: "Gentoo portage",
    example: "/var/tmp/portage/dev-python/calc-1.0/work/calc-1.0/tests/x.py",
    early: true,
    needles: ["/var/tmp/portage/"],
    pattern: (n) => `${START}var/tmp/portage/${n.seg}/${n.seg}/work/${n.seg}/`,
  },
];

/**
 * Checkout roots under a directory of no fixed shape (any absolute path before an anchor): a self-hosted GitHub
 * Actions runner's `<its directory>/_work/<repo>/<repo>/` wherever it is installed (`/home/ci/actions-runner/`,
 * inside AWS CodeBuild's `/codebuild/output/src123/src/actions-runner/`), a self-hosted Azure Pipelines agent's
 * `<agent>/_work/1/s/`, and package builds, which unpack the released tree and test it there: rpmbuild and OBS
 * (`…/BUILD/<name>-<version>/`), FreeBSD ports (`…/work-py39/<name>-<version>/`). `anchor` is the part from the
 * anchor's `/` on; the absolute path before it (one or more segments, not inside a longer path) is found by a
 * scan, not by the pattern: trying `(?:/seg)+?` at every slash is quadratic on a line of many short segments.
 */
export const ANCHORED_ROOTS: readonly {
  ci: string;
  example: string;
  needle: string;
  anchor: (n: RootNames) => string;
}[] = [
  {
    ci: "GitHub Actions and Azure Pipelines (self-hosted)",
    example: "/home/ci/actions-runner/_work/calc/calc/src/x.py",
    needle: "/_work/",
    anchor: (n) => `/_work/(?:${n.name}/${n.seg}|\\d+/s)/`,
  },
  {
    ci: "rpmbuild, OBS, FreeBSD ports",
    example: "/home/abuild/rpmbuild/BUILD/calc-1.0/tests/x.py",
    needle: "/BUILD/",
    anchor: (n) => `/(?:BUILD|work-py\\d+)/${n.seg}/`,
  },
];

/**
 * One alternation of fixed strings as a trie (`w(?:ork/|orkspace/)` → `w(?:ork(?:/|space/))`): a scan tries one
 * branch per character instead of every string at every place. A string that is a prefix of another ends there (a
 * gate only asks whether one is present).
 */
function trieSource(strings: readonly string[]): string {
  if (strings.some((x) => x.length === 0)) return "";
  const heads = new Map<string, string[]>();
  for (const x of strings) {
    const rest = heads.get(x[0]!) ?? [];
    rest.push(x.slice(1));
    heads.set(x[0]!, rest);
  }
  const branches = [...heads].map(([c, rest]) => escapeRegExp(c) + trieSource(rest));
  return branches.length === 1 ? branches[0]! : `(?:${branches.join("|")})`;
}

/** The version ending a package build's directory (`calc-1.0`): checked apart, on that one segment. */
const VERSIONED = /-\d[\w.]*\/$/;
const ANCHOR_NEEDLE = /\/(?:_work\/|BUILD\/|work-py)/;
/**
 * Any root's needle, cut to start at its first separator (`~/project/` as `/project/`, `:\a\` as `\a\`): a line
 * with a `/` or `\` but none of these (a test path, a URL) is left after one scan. Two gates, one per separator,
 * each opening with its one character, so the scan looks for that character first; a line is scanned only for the
 * separators it holds.
 */
const [SLASH_NEEDLE, BACKSLASH_NEEDLE] = (() => {
  const all = [
    ...new Set([
      ...CHECKOUT_ROOTS.flatMap((r) => r.needles),
      ...ANCHORED_ROOTS.map((r) => r.needle),
      "/work-py",
    ]),
  ];
  const gate = (sep: string) => {
    const tails = new Set<string>();
    for (const n of all) {
      const at = n.search(/[\\/]/);
      if (n[at] === sep) tails.add(n.slice(at + 1));
    }
    return new RegExp(`${escapeRegExp(sep)}${trieSource([...tails])}`);
  };
  return [gate("/"), gate("\\")];
})();

export interface PathOptions {
  /** Absolute checkout directories whose prefix is removed (e.g. "/workspace" for the sandbox). */
  repoRoot?: string | readonly string[];
  /** "owner/name" or "name": restricts runner-path mapping to this repository's checkout. */
  repoName?: string;
}

/** A character that ends a path segment as the patterns read one (`seg`): `/`, white space (`\s`), a quote, a parenthesis. */
function isSegmentEnd(c: number): boolean {
  if (c === 47 || c === 34 || c === 39 || c === 40 || c === 41 || c === 32 || (c >= 9 && c <= 13))
    return true;
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `[\w.-]`: a character a path's start may not follow. */
function isWordish(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45
  );
}

/**
 * Removes, in one pass, every absolute path prefix that ends at one of `anchor`'s matches: for each anchor (left to
 * right), the leftmost `/` of the unbroken run of `/segment`s right before it that does not follow `[\w.-]`. The run's
 * state is carried forward as the scan goes, so each character is looked at a bounded number of times.
 */
function removeAnchored(text: string, anchor: RegExp, versioned: boolean): string {
  anchor.lastIndex = 0;
  let out = "";
  let kept = 0; // text before this is in `out` (or removed)
  let pos = 0; // the run state below describes text[kept or earlier .. pos)
  let inRun = false; // text[pos-1] is inside a run of /segments (a `/` or a segment character after one)
  let runStart = -1; // the leftmost valid start of the current run, or -1
  let m: RegExpExecArray | null = anchor.exec(text);
  while (m) {
    const p = m.index;
    // Advance the run state over text[pos, p).
    for (; pos < p; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 47) {
        const prev = pos > kept ? text.charCodeAt(pos - 1) : -1;
        const valid = pos === 0 || !isWordish(text.charCodeAt(pos - 1));
        if (!inRun || prev === 47) {
          // A new run: after a segment end, at the start, or after an empty segment (`//`).
          inRun = true;
          runStart = valid && pos >= kept ? pos : -1;
        } else if (runStart === -1 && valid) runStart = pos;
      } else if (isSegmentEnd(c)) {
        inRun = false;
        runStart = -1;
      }
      // Any other character is a segment's: text before a run's first `/` (`abc` of `abc/x`) opens no run.
    }
    const before = p > 0 ? text.charCodeAt(p - 1) : -1;
    const ok =
      inRun && runStart !== -1 && runStart < p && before !== 47 && (!versioned || VERSIONED.test(m[0]));
    if (ok) {
      out += text.slice(kept, runStart);
      kept = p + m[0].length;
      pos = kept;
      inRun = false;
      runStart = -1;
      anchor.lastIndex = kept;
    } else anchor.lastIndex = p + 1;
    m = anchor.exec(text);
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * A function that rewrites runner checkout paths inside a line to repo-relative ones:
 * `/home/runner/work/<repo>/<repo>/src/x.py` → `src/x.py`, likewise every root of CHECKOUT_ROOTS and
 * ANCHORED_ROOTS, and any `repoRoot` given.
 */
export function createPathMapper(options: PathOptions = {}): (text: string) => string {
  const last = options.repoName ? escapeRegExp(options.repoName.split("/").pop()!) : null;
  const names: RootNames = {
    name: last ?? "[^/\\s\"'()]+",
    wname: last ?? "[^\\\\\\s\"'()]+",
    seg: "[^/\\s\"'()]+",
    wseg: "[^\\\\\\s\"'()]+",
    named: last !== null,
  };
  const parts = CHECKOUT_ROOTS.filter((r) => !r.early).map((r) => r.pattern(names));
  const earlyRoots = CHECKOUT_ROOTS.filter((r) => r.early);
  const early = new RegExp(earlyRoots.map((r) => r.pattern(names)).join("|"), "g");
  const earlyNeedle = new RegExp(earlyRoots.flatMap((r) => r.needles.map(escapeRegExp)).join("|"));
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
    ...new Set(CHECKOUT_ROOTS.filter((r) => !r.early).flatMap((r) => r.needles)),
    ...roots.map((r) => r.replace(/[\\/]+$/, "")),
  ].filter((n) => n.length > 0);
  const work = new RegExp(ANCHORED_ROOTS[0]!.anchor(names), "g");
  const build = new RegExp(ANCHORED_ROOTS[1]!.anchor(names), "g");
  // Every needle holds a separator: a line with neither `/` nor `\` (most of a log) is left at once.
  const gated = needles.every((n) => n.includes("/") || n.includes("\\"));
  // Without repoRoot the needles are fixed: one regex scan says whether any of them is there.
  const fixed = roots.length === 0;
  return (text) => {
    const slash = text.indexOf("/") !== -1;
    if (gated && !slash && text.indexOf("\\") === -1) return text;
    // A backslash is looked for only on a line whose slashes (if any) hold no needle.
    if (
      fixed &&
      !(slash && SLASH_NEEDLE.test(text)) &&
      !(text.indexOf("\\") !== -1 && BACKSLASH_NEEDLE.test(text))
    )
      return text;
    if (ANCHOR_NEEDLE.test(text)) {
      if (text.includes("/_work/")) text = removeAnchored(text, work, false);
      if (text.includes("/BUILD/") || text.includes("/work-py")) text = removeAnchored(text, build, true);
    }
    if (earlyNeedle.test(text)) text = text.replace(early, "");
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
