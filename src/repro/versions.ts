/**
 * Versions a report mentions: `pkg@1.2.3`, `pkg==1.2.3`, "pkg version 1.2.3", "pkg v1.2.3",
 * pasted `npm ls` / `pip freeze` / `pip list` / `--version` output, and the runtime ("Python 3.11", "Node 18").
 */

export interface VersionMention {
  /** Package name as written (lower-cased for PyPI-style names). */
  name: string;
  version: string;
  /** How it was written: "@" (npm style), "==" (pip style), "word" ("version 1.2.3"), "listing" (pip list). */
  style: "@" | "==" | "word" | "listing";
}

export interface RuntimeMention {
  name: "python" | "node";
  version: string;
}

const VERSION = String.raw`v?(\d+\.\d+(?:\.\d+)?(?:[-+]\w+(?:\.\w+)*)?|\d+\.x)`;
// `pkg@5` (a whole release line) only with the `@`: "yargs@3 and yargs@5 behave the same".
const NPM_AT = new RegExp(
  String.raw`(?<![\w/@.-])((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(?:${VERSION}|v?(\d+)(?![\w]|\.\d))(?![\w]|\.\w)`, // a sentence's full stop may follow
  "gi",
);
const PIP_EQ = new RegExp(String.raw`(?<![\w.-])([A-Za-z0-9][\w.-]*)\s*===?\s*${VERSION}(?![\w.])`, "g");
const WORD =
  /(?<![\w.-])([A-Za-z][\w.-]*)(?:\s+version:?)?\s+(?:v|version\s+)?(\d+\.\d+(?:\.\d+)?(?:[-+][\w.]*\w)?)(?![\w]|\.\w)/gi; // a sentence's full stop may follow
const WORD_RANGE =
  /(?<![\w.-])([A-Za-z][\w.-]*)\s+version\s*:?[ \t]*(?:>=|\^|~)[ \t]*v?(\d+\.\d+(?:\.\d+)?(?:-[\w.]*\w)?)(?![\w]|\.\w)/gi;
const PIP_LIST_LINE = /^([A-Za-z0-9][\w.-]*)\s{2,}(\d[\w.+-]*)\s*$/;

const RUNTIME_NAMES: Record<string, RuntimeMention["name"]> = {
  python: "python",
  python3: "python",
  cpython: "python",
  py: "python",
  node: "node",
  nodejs: "node",
  "node.js": "node",
};

/** Words that precede a version number but are not package names. */
const NOT_PACKAGES = new Set([
  "version",
  "v",
  "release",
  "to",
  "from",
  "and",
  "or",
  "on",
  "in",
  "at",
  "with",
  "since",
  "before",
  "after",
  "than",
  "is",
  "was",
  "of",
  "the",
  "a",
  "an",
  "using",
  "upgrading",
  "downgrading",
  "line",
  "lines",
  "windows",
  "macos",
  "ubuntu",
  "debian",
  "linux",
  "ios",
  "android",
  "chrome",
  "firefox",
  "safari",
  "npm",
  "pip",
  "yarn",
  "pnpm",
  "x",
  "rc",
  "beta",
  "true",
  "false",
  "null",
  "undefined",
  "none",
  "os",
  "browser",
  "platform",
  "release",
]);

/** Every package version mention in a piece of text, in order, de-duplicated by name (first wins). */
const CDN_URL =
  /\bcdnjs\.cloudflare\.com\/ajax\/libs\/([\w.-]{1,100})\/(\d+\.\d+\.\d+(?:-[\w.]+)?)\/|\b(?:unpkg\.com|cdn\.jsdelivr\.net\/npm|esm\.sh(?:\/v\d+)?)\/((?:@[\w.-]{1,100}\/)?[\w.-]{1,100})@(\d+\.\d+\.\d+(?:-[\w.]+)?)(?![\w.])/g;

/** `"name": "^1.2.3"` anywhere in a line: a dependency as package.json lists it. */
const MANIFEST_ENTRY =
  /(?<![\w"])"((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)"[ \t]*:[ \t]*"[\^~=v]*(\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)"/g;
/** package.json fields that hold a version of no dependency. */
const MANIFEST_FIELDS = new Set(["version", "node", "npm", "engines", "packagemanager"]);

export function findVersionMentions(text: string): VersionMention[] {
  const found: VersionMention[] = [];
  const seen = new Set<string>();
  const partial = (v: string) => !/^v?\d+\.\d+\.\d+/.test(v);
  const major = (v: string) => Number.parseInt(v.replace(/^v/, ""), 10);
  const add = (name: string, version: string, style: VersionMention["style"]) => {
    const key = name.toLowerCase();
    if (RUNTIME_NAMES[key] || NOT_PACKAGES.has(key)) return;
    if (seen.has(key)) {
      // "yargs@3 and yargs@5 behave the same": of two release lines, the newer one is run.
      const earlier = found.find((f) => f.name.toLowerCase() === key);
      if (earlier && partial(earlier.version) && partial(version) && major(version) > major(earlier.version))
        earlier.version = version.replace(/^v/, "");
      return;
    }
    seen.add(key);
    found.push({ name, version: version.replace(/^v/, ""), style });
  };
  // A CDN address names the package and the release the page loads: cdnjs's `/ajax/libs/<name>/<version>/`,
  // unpkg's, jsDelivr's and esm.sh's `<name>@<version>`. Used only for a package the code needs (pinDependencies).
  for (const m of text.matchAll(CDN_URL)) {
    const name = m[1] ?? m[3];
    const version = m[2] ?? m[4];
    if (name && version) add(name, version, "@");
  }
  for (const m of text.matchAll(NPM_AT)) if (m[1] && (m[2] ?? m[3])) add(m[1], (m[2] ?? m[3])!, "@");
  for (const m of text.matchAll(PIP_EQ)) if (m[1] && m[2]) add(m[1], m[2], "==");
  for (const line of text.split("\n")) {
    const m = PIP_LIST_LINE.exec(line.trim());
    if (m?.[1] && m[2]) add(m[1], m[2], "listing");
    // "- semver: 7.5.0", `"lodash": "^4.13.1"` (environment lists, package.json; after a "Version :" label too):
    // the version the range names.
    const kv =
      /^[\s*-]*(?:[Vv]ersion\s*:\s*)?"?((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)"?\s*:\s*"?[\^~=v]*(\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)"?,?\s*$/.exec(
        line,
      );
    if (kv?.[1] && kv[2]) add(kv[1], kv[2], "listing");
    // The same dependency line quoted inside a sentence ("with  "jsondiffpatch": "^0.4.1""): name and range both
    // in double quotes, as a manifest writes them; a manifest's own fields (`"version": "1.0.0"`) name no package.
    for (const q of line.matchAll(MANIFEST_ENTRY))
      if (q[1] && q[2] && !MANIFEST_FIELDS.has(q[1].toLowerCase())) add(q[1], q[2], "listing");
  }
  // "i18next version: >=19.0.0" (an environment list): the lowest release of the range is the one the reporter
  // names, the release the behaviour appeared in; the latest may well have changed it.
  // `$ grep version node_modules/minimatch/package.json` (or `cat`) over `"version": "2.0.1",`: the installed
  // release of the package whose manifest the command reads.
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const manifest = /\bnode_modules\/((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)\/package\.json\b/i.exec(line);
    if (!manifest?.[1]) return;
    for (const next of lines.slice(i, i + 4)) {
      const v = /^\s*"version"\s*:\s*"v?(\d+\.\d+\.\d+(?:-[\w.]+)?)"/.exec(
        next.replace(/^.*package\.json:/, ""),
      );
      if (v?.[1]) {
        add(manifest[1], v[1], "listing");
        return;
      }
    }
  });
  for (const m of text.matchAll(WORD_RANGE)) if (m[1] && m[2]) add(m[1], m[2], "word");
  for (const m of text.matchAll(WORD)) {
    const name = m[1];
    const version = m[2];
    if (!name || !version) continue;
    // "a wrong result. Version 0.3.7": a word that ends a sentence is not the name of what follows (and no
    // package name ends in a dot); the version there stands alone, as findBareVersions reads it.
    if (/[.-]$/.test(name)) continue;
    // "I upgraded to 2.0" or a sentence-initial capitalized word is not a package; a capitalized name counts
    // only with the word "version" or a `v` before the number ("Lodash version: 4.17.11", "Day.js v1.10.5",
    // an issue template's "Axios Version" heading over "1.7.7"): a product's name as people write it, matched
    // to the package it names by `sameProduct`, never installed by that spelling.
    if (name !== name.toLowerCase() && !/^[a-z]/.test(name) && !/\sversion\b|\sv\d/i.test(m[0])) continue;
    // At a sentence's end only a full x.y.z counts: "gives me 3.9473684210526314." is a number, not a release.
    if (text[(m.index ?? 0) + m[0].length] === "." && !/^\d+\.\d+\.\d+/.test(version)) continue;
    add(name, version, "word");
  }
  return found;
}

/** An operating system or a browser named just before a version: that version is theirs. */
const OTHER_PRODUCT =
  /\b(?:windows|win(?:7|8|10|11)|mac\s?os|os\s?x|darwin|ubuntu|debian|fedora|centos|linux|kernel|ios|android|chrome|chromium|firefox|safari|edge)\b[^\n]{0,40}$/i;

/** A runtime or package manager named right before "version" ("Node Version: v12.3.1"): the version is its. */
const RUNTIME_BEFORE = /(?<![\w.-])(?:node(?:\.?js)?|python\d?(?:\.\d+)?|cpython|npm|yarn|pnpm|pip\d?)\s*$/i;

/** A bare "version 1.2.3" / "v1.2.3" with no package name next to it (attached to the only dependency, if any). */
export function findBareVersions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    // "version 1.2", "Version: 1.2", "my version is `1.6.10`". Each optional part is one run followed by a
    // literal, so a long run of spaces after "version" costs linear time (`\s*:?\s+` was quadratic in it).
    /(?<![\w-])(?:version|ver\.?|release)(?:\s+(?:is|was))?(?:\s*[:=])?\s+v?(\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?)(?!\.?\d)/gi,
  )) {
    // A number that goes on (`Version 10.0.18362.356`, an OS build) is no package's release; nor one the words
    // before it give to an operating system or a browser ("Microsoft Windows [Version 10.0.19045]").
    const before =
      text
        .slice(Math.max(0, (m.index ?? 0) - 60), m.index ?? 0)
        .split("\n")
        .pop() ?? "";
    if (m[1] && !OTHER_PRODUCT.test(before) && !RUNTIME_BEFORE.test(before)) out.push(m[1]);
  }
  // A version alone on its line ("v6.12.0 (the latest right now)", "v.0.5.1"), as answers to "Which version?"
  // are written.
  for (const m of text.matchAll(
    /^[ \t]*(?:v\.?[ \t]?)?(\d+\.\d+\.\d+(?:-[\w.]+)?)(?:[ \t]*\([^)\n]*\))?[ \t]*$/gm,
  )) {
    if (m[1] && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/**
 * A release number in running prose with no name beside it, as a reporter of the package's own repository
 * writes it: "I'm on 1.10.0", "running 2.3.1", "tested with 4.0.2", "on v7.0.0". Only whole x.y.z releases (a
 * two-part number there is as often a runtime's). Tied to a package only by the caller (`pinDependencies`:
 * the repository's package, when the report names no other).
 */
export function findProseVersions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    // "the 2.0.0-alpha.11 release", "on the 1.2.3 version": a full release the words call one.
    /(?<![\w-])(?:(?:on|using|running|with|against|tried|installed|have)\s+(?:the\s+)?v?(\d+\.\d+\.\d+(?:-[\w.]+)?)|the\s+v?(\d+\.\d+\.\d+(?:-[\w.]+)?)(?=\s+(?:release|version)\b))(?![\w.]|\.\d)/gi,
  )) {
    const v = m[1] ?? m[2];
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** The runtime the report names: "Python 3.11.4", "python3.9", "Node 18", "Node.js v20.1.0", a bare `v18.19.0` line. */
export function findRuntimeMention(text: string): RuntimeMention | null {
  const re =
    /(?<![\w-])(python3?|cpython|node(?:\.js|js)?)(?:\s+version)?\s*:?\s*v?(\d+(?:\.\d+){0,2}(?:\.x)?)(?![\w])/gi;
  for (const m of text.matchAll(re)) {
    const name = RUNTIME_NAMES[(m[1] ?? "").toLowerCase()];
    if (name && m[2]) return { name, version: m[2] };
  }
  // `node --version` output pasted alone.
  const nodeOnly = /^[ \t]*v(\d+\.\d+\.\d+)\s*$/m.exec(text);
  if (nodeOnly?.[1] && /node\s+(-v|--version)/i.test(text)) return { name: "node", version: nodeOnly[1] };
  return null;
}

/**
 * A product's name as people write it and a package's name are the same product: "Day.js" and `dayjs`,
 * "Moment.js" and `moment`, "Lodash" and `lodash`, "Validator.js" and `validator` (case, punctuation and a
 * trailing "js" aside).
 */
export function sameProduct(written: string, pkg: string): boolean {
  const loose = (n: string) =>
    n
      .toLowerCase()
      .replace(/^@[\w.-]+\//, "")
      .replace(/[^a-z0-9]/g, "")
      .replace(/(?<=.)js$/, "");
  return loose(written) !== "" && loose(written) === loose(pkg);
}
