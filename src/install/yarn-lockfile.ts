/**
 * yarn's lockfile, read for what `yarn install --frozen-lockfile` would fetch: the entries of a classic (v1)
 * yarn.lock with their selectors (`leaf@^1.0.0`), `resolved` URL and integrity, checked against the same policy
 * as npm's and pnpm's lockfiles (`lockfile-policy.ts`: the configured registry only unless
 * `install.allowGit/allowRemote/allowFile`), and the copy handed to yarn with every registry tarball URL on the
 * virtual registry of the install session. Pure: no I/O.
 */
import semver from "semver";
import {
  capProblems,
  entriesOf,
  escapes,
  overProblemCap,
  type Kind,
  problemFor,
  type Registries,
  type SourcePolicy,
  type SourceProblem,
  sourceKind,
} from "./lockfile-policy.ts";

const LOCK = "yarn.lock";

/** One entry of a classic yarn.lock. */
export interface YarnClassicEntry {
  /** The header's selectors (`leaf@^1.0.0`, `"@ws/b@file:../b"`), unquoted. */
  selectors: string[];
  version: string | null;
  resolved: string | null;
  integrity: string | null;
  /** 1-based line of the header. */
  line: number;
}

/** Which yarn wrote the lockfile: classic (`# yarn lockfile v1`) or berry (`__metadata:`), or neither. */
export function yarnLockfileFormat(text: string): "classic" | "berry" | "unknown" {
  if (/^__metadata:/m.test(text)) return "berry";
  if (/^# yarn lockfile v1\s*$/m.test(text)) return "classic";
  return "unknown";
}

const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, "$1");

/** The entries of a classic yarn.lock (its top-level headers and their 2-space fields), in order. */
export function parseYarnClassic(text: string): YarnClassicEntry[] {
  const out: YarnClassicEntry[] = [];
  let cur: YarnClassicEntry | null = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || /^\s*#/.test(line)) continue;
    if (!/^\s/.test(line)) {
      cur = {
        selectors: line
          .replace(/:\s*$/, "")
          .split(/,\s*/)
          .map(unquote)
          .filter((s) => s !== ""),
        version: null,
        resolved: null,
        integrity: null,
        line: i + 1,
      };
      out.push(cur);
      continue;
    }
    if (!cur) continue;
    // Trimmed first: `(.+?)\s*$` restarted its whitespace run at every position of it (a line of 300,000
    // spaces held the host past 10 s of CPU).
    const m = /^ {2}(\w+)\s+(\S.*)$/.exec(line.trimEnd());
    if (!m) continue;
    const value = unquote(m[2]!);
    if (m[1] === "version") cur.version = value;
    else if (m[1] === "resolved") cur.resolved = value;
    else if (m[1] === "integrity") cur.integrity = value;
  }
  return out;
}

/** `name@spec` → [name, spec] (a scoped name keeps its leading `@`). */
function splitSelector(sel: string): [string, string] {
  const at = sel.indexOf("@", sel.startsWith("@") ? 1 : 0);
  return at < 0 ? [sel, ""] : [sel.slice(0, at), sel.slice(at + 1)];
}

/** registry.yarnpkg.com is the npm registry under yarn's name: read as registry.npmjs.org. */
function asNpmjs(url: string): string {
  return url.replace(/^https?:\/\/registry\.yarnpkg\.com\//i, "https://registry.npmjs.org/");
}

/** The kind of source a `resolved` value names (the `#sha1` fragment of a tarball URL dropped). */
function resolvedKind(resolved: string, registry: Registries): Kind {
  const kind = sourceKind(asNpmjs(resolved.replace(/#[0-9a-f]{40}$/i, "")), registry);
  return kind === "unknown" && /^https?:/i.test(resolved) ? "remote" : kind;
}

/**
 * The problems of a classic yarn.lock: each entry's selectors (a git, tarball-URL, `file:`/`link:` spec needs
 * the matching `install.allow*`; a path out of the repository is refused) and its `resolved` URL (the
 * configured registry, registry.npmjs.org or registry.yarnpkg.com; anything else needs the matching
 * `install.allow*`), and a registry package with neither an integrity hash nor a sha1 fragment.
 */
export function checkYarnClassicLockfile(
  entries: readonly YarnClassicEntry[],
  registry: Registries,
  policy: SourcePolicy,
): SourceProblem[] {
  const out: SourceProblem[] = [];
  const push = (p: SourceProblem | null) => {
    if (p) out.push(p);
  };
  for (const e of entries) {
    if (overProblemCap(out)) break;
    const entry = `${LOCK} "${e.selectors.join(", ")}"`;
    if (e.selectors.length === 0) {
      out.push({ entry: `${LOCK} line ${e.line}`, reason: "an entry without a selector", field: null });
      continue;
    }
    let registryEntry = true;
    for (const sel of e.selectors) {
      const [name, spec] = splitSelector(sel);
      if (name === "" || spec === "") {
        out.push({ entry, reason: `unreadable selector ${JSON.stringify(sel)}`, field: null });
        registryEntry = false;
        continue;
      }
      const kind = sourceKind(asNpmjs(spec), registry);
      if (kind !== "registry") registryEntry = false;
      push(problemFor(entry, spec, kind === "workspace" ? "unknown" : kind, policy));
    }
    if (e.resolved === null) {
      if (registryEntry)
        out.push({ entry, reason: "a registry package without a resolved URL", field: null });
      continue;
    }
    const kind = resolvedKind(e.resolved, registry);
    push(problemFor(entry, e.resolved, kind === "workspace" ? "unknown" : kind, policy));
    if (kind === "registry" && e.integrity === null && !/#[0-9a-f]{40}$/i.test(e.resolved))
      out.push({ entry, reason: "a registry package without an integrity hash", field: null });
  }
  return capProblems(out, LOCK);
}

/**
 * The lockfile yarn is given: each `resolved` URL on a registry (`registries`: the configured ones, npmjs,
 * yarnpkg) moved to the virtual registry `virtualFor(registryUrl)` returns, so that yarn, which fetches the
 * lockfile's URLs as written, reaches the configured registry through the session's proxy. The cache key and
 * the policy check use the repository's own bytes.
 */
export function yarnLockfileOnVirtualRegistry(
  text: string,
  registries: readonly string[],
  virtualFor: (registryUrl: string) => string,
): string {
  const bases = [...registries, "https://registry.npmjs.org/", "https://registry.yarnpkg.com/"]
    .map((r) => (r.endsWith("/") ? r : `${r}/`))
    .sort((a, b) => b.length - a.length);
  return text.replace(/^( {2}resolved\s+")([^"]+)(")/gm, (whole, pre: string, url: string, post: string) => {
    const base = bases.find((b) => url.startsWith(b) || url.startsWith(b.replace(/^https:/, "http:")));
    if (!base) return whole;
    const rest = url.slice(url.startsWith(base) ? base.length : base.length - 1);
    if (/(^|\/)\.{1,2}(\/|$)|%2e/i.test(rest)) return whole;
    return `${pre}${virtualFor(base)}${rest}${post}`;
  });
}

const SYNC_FIELDS = ["dependencies", "devDependencies", "optionalDependencies"] as const;

/**
 * The dependencies of the workspace's package.json files (`file` → parsed manifest) that yarn.lock has no entry
 * for (`packages/a/package.json dependencies.leaf "1.0.0"`), a workspace package (by name, its version
 * satisfying the spec or a `workspace:` spec) excepted. yarn 1's `--frozen-lockfile` does not refuse these in a
 * workspace (it resolves them from the registry and installs what the lockfile does not say), so they are
 * found here, before yarn runs.
 */
export function yarnLockfileMissing(
  manifests: Record<string, unknown>,
  entries: readonly YarnClassicEntry[],
): string[] {
  const selectors = new Set(entries.flatMap((e) => e.selectors));
  const local = new Map<string, string>();
  for (const m of Object.values(manifests)) {
    const { name, version } = (m ?? {}) as { name?: unknown; version?: unknown };
    if (typeof name === "string") local.set(name, typeof version === "string" ? version : "");
  }
  const out: string[] = [];
  for (const [file, m] of Object.entries(manifests)) {
    for (const field of SYNC_FIELDS) {
      const deps = (m as Record<string, unknown> | null)?.[field];
      if (typeof deps !== "object" || deps === null || Array.isArray(deps)) continue;
      for (const [name, spec] of Object.entries(deps)) {
        if (typeof spec !== "string") continue;
        const own = local.get(name);
        if (
          own !== undefined &&
          (/^workspace:/.test(spec) || spec === "*" || spec === own || localSatisfies(own, spec))
        )
          continue;
        if (!selectors.has(`${name}@${spec}`)) out.push(`${file} ${field}.${name} ${JSON.stringify(spec)}`);
      }
    }
  }
  return out;
}

function localSatisfies(version: string, range: string): boolean {
  try {
    return semver.satisfies(version, range);
  } catch {
    return false;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `name@protocol:rest` (a berry locator or descriptor) → [name, range]. */
function splitLocator(locator: string): [string, string] {
  return splitSelector(locator);
}

/** The kind of source a berry resolution's range names (`npm:1.0.0`, `workspace:packages/a`, `patch:…`, …). */
function berryKind(range: string, registry: Registries, depth = 0): Kind {
  if (/^npm:/.test(range)) {
    const v = range.slice(4);
    // `npm:1.2.3` is a registry version; `npm:other@1.2.3` an alias, judged by its own range.
    return /^\d/.test(v)
      ? "registry"
      : depth < 3
        ? berryKind(splitLocator(v)[1], registry, depth + 1)
        : "unknown";
  }
  if (/^workspace:/.test(range)) return escapes(range.slice(10)) ? "escape" : "workspace";
  if (/^patch:/.test(range)) {
    // `patch:<inner locator, URL-encoded>#<patch path or builtin<…>>::<params>`
    const m = /^patch:([^#]+)#([^:]*(?:::.*)?)$/.exec(range);
    if (!m || depth >= 3) return "unknown";
    const inner = berryKind(splitLocator(decodeURIComponent(m[1]!))[1], registry, depth + 1);
    const patch = decodeURIComponent(m[2]!.replace(/::.*$/, ""));
    // yarn's own compatibility patches (`optional!builtin<compat/resolve>`) ship inside yarn itself.
    if (/^(optional!)?builtin<[\w/-]+>$/.test(patch)) return inner;
    if (inner !== "registry" && inner !== "file") return inner;
    return patch.split("&").some((p) => escapes(p.replace(/^optional!/, ""))) ? "escape" : "file";
  }
  if (/^exec:/.test(range)) return "unknown";
  if (/^(file|link|portal):/.test(range)) {
    const p = range.replace(/^(file|link|portal):/, "").replace(/::.*$/, "");
    return escapes(p) ? "escape" : "file";
  }
  return sourceKind(range.replace(/#commit=.*$/, ""), registry);
}

/**
 * The problems of a berry yarn.lock (YAML, `__metadata:`): each entry's `resolution` (an `npm:` version from the
 * configured registry with a `checksum`; a workspace inside the repository; yarn's builtin compatibility
 * patches of registry packages; anything else — git, a tarball URL, `file:`/`link:`/`portal:`, a patch file,
 * `exec:` — needs the matching `install.allow*`, or nothing allows it).
 */
export function checkYarnBerryLockfile(
  lock: unknown,
  registry: Registries,
  policy: SourcePolicy,
): SourceProblem[] {
  if (!isRecord(lock)) return [{ entry: LOCK, reason: "is not a YAML mapping", field: null }];
  const out: SourceProblem[] = [];
  for (const [key, value] of entriesOf(lock)) {
    if (overProblemCap(out)) break;
    if (key === "__metadata") continue;
    const entry = `${LOCK} "${key}"`;
    const resolution = isRecord(value) ? value.resolution : undefined;
    if (typeof resolution !== "string") {
      out.push({ entry, reason: "no resolution", field: null });
      continue;
    }
    const [name, range] = splitLocator(resolution);
    if (name === "" || range === "") {
      out.push({ entry, reason: `unreadable resolution ${JSON.stringify(resolution)}`, field: null });
      continue;
    }
    const kind = berryKind(range, registry);
    if (kind === "unknown") {
      out.push({
        entry,
        reason: `a resolution Retrace does not install ${JSON.stringify(resolution)}`,
        field: null,
      });
      continue;
    }
    const p = problemFor(entry, resolution, kind === "workspace" ? "registry" : kind, policy);
    if (p) out.push(p);
    else if (kind === "registry" && typeof (value as Record<string, unknown>).checksum !== "string")
      out.push({ entry, reason: "a registry package without a checksum", field: null });
  }
  return capProblems(out, LOCK);
}

/** The resolutions of a berry lockfile (for the hosts a git or remote source allowed by the policy needs). */
export function yarnBerryResolutions(lock: unknown): string[] {
  if (!isRecord(lock)) return [];
  return Object.values(lock)
    .map((v) => (isRecord(v) ? v.resolution : undefined))
    .filter((r): r is string => typeof r === "string");
}
