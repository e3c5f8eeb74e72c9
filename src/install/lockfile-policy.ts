/**
 * What an npm install may fetch: only what the configured registry serves, by default. Checked on the host,
 * before npm runs, over the whole lockfile (v1 `dependencies`, v2/v3 `packages`) and package.json:
 *
 * - registry entries: `resolved` absent (npm then asks the configured registry) or under the configured
 *   registry (or registry.npmjs.org, which npm rewrites to the configured registry), with an `integrity` hash
 *   and an exact `version`;
 * - git sources (`git+…`, `github:`, `git://`, ssh, scp-style `git@host:owner/repo`) only with
 *   `install.allowGit`;
 * - tarball URLs on any other host only with `install.allowRemote`;
 * - `file:` and `link:` sources only with `install.allowFile`; workspace packages (directories of the
 *   repository that package.json's `workspaces` lists, and links to them) are the repository's own code and
 *   allowed; nothing outside the repository ever is: entry paths, link targets and workspace globs that climb
 *   out with `..` or are absolute are refused whatever the configuration says.
 *
 * A spec is read the way npm reads it (`npm-package-arg`, npm's own parser), after the shapes npm's parser
 * does not name (scp-style git, `npm:` aliases of a URL, yarn/pnpm protocols): a spec that is neither a
 * registry version, range or tag nor a source named above is refused, never guessed to be harmless. The same
 * reading covers dependency sections, npm `overrides`, yarn `resolutions` and pnpm `pnpm.overrides`.
 *
 * Each problem names the entry and the setting that would allow it. Pure: no I/O.
 */
import npa from "npm-package-arg";
import { maxWorkspaceGlobs } from "../fix/dependencies.ts";
import { GlobError, globMatcher } from "../core/glob.ts";
import semver from "semver";

export interface SourcePolicy {
  /** `install.allowGit`. */
  allowGit: boolean;
  /** `install.allowRemote`. */
  allowRemote: boolean;
  /** `install.allowFile`. */
  allowFile: boolean;
}

export const REGISTRY_ONLY: SourcePolicy = { allowGit: false, allowRemote: false, allowFile: false };

export interface SourceProblem {
  /** The lockfile or package.json entry (`node_modules/foo`, `dependencies.bar`). */
  entry: string;
  reason: string;
  /** The setting that allows it, or null when nothing does. */
  field: string | null;
}

/**
 * A check lists at most this many problems, then stops: the install is refused either way, and a lockfile of
 * 300,000 bad entries would otherwise cost the host seconds of CPU and a 50 MB list nobody reads.
 */
export const MAX_PROBLEMS = 1_000;

/** Whether a check has found more problems than it lists (its loops stop then). */
export const overProblemCap = (out: readonly SourceProblem[]): boolean => out.length > MAX_PROBLEMS;

const STOPPED = new WeakSet<SourceProblem>();

/** The first MAX_PROBLEMS problems and, when there were more, a last one that says the check stopped there. */
export function capProblems(out: SourceProblem[], file: string): SourceProblem[] {
  if (!overProblemCap(out)) return out;
  const stop: SourceProblem = {
    entry: file,
    reason: `has more than ${MAX_PROBLEMS} problems; the check stopped listing them there (regenerate the lockfile from the configured registry)`,
    field: null,
  };
  STOPPED.add(stop);
  return [...out.slice(0, MAX_PROBLEMS), stop];
}

/**
 * A record's own entries, one at a time: a check that stops at the cap never lists all of a lockfile's keys
 * (`Object.entries` of 300,000 keys alone costs the host half a second).
 */
export function* entriesOf(r: Record<string, unknown>): Generator<[string, unknown]> {
  for (const k in r) if (Object.hasOwn(r, k)) yield [k, r[k]];
}

/** Whether a problem is the note `capProblems` adds, not a problem of an entry. */
export const isStopNote = (p: SourceProblem): boolean => STOPPED.has(p);

export function describeProblem(p: SourceProblem): string {
  if (isStopNote(p)) return `${p.entry}: ${p.reason}`;
  return `${p.entry}: ${p.reason} (${p.field ? `allowed only with ${p.field}: true` : "no setting allows this"})`;
}

const NPMJS = "https://registry.npmjs.org/";

export type Kind = "registry" | "git" | "remote" | "file" | "escape" | "workspace" | "unknown";

/** Registry base URLs: the configured one(s) — the operator's default and scoped registries. */
export type Registries = string | readonly string[];

/** What kind of source a spec or `resolved` value names. */
export function sourceKind(spec: string, registry: Registries): Kind {
  const s = spec.trim();
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:|ssh:)/i.test(s)) return "git";
  // scp-style ssh (`git@host:owner/repo`, `user@host:path`): npm hands it to git.
  if (/^[^\s@/:]+@[^\s@/:]+:/.test(s)) return "git";
  // A path (`~/x` is one, `~1.2.3` is a range).
  if (s.startsWith("/") || s.startsWith("./") || s.startsWith("../") || s.startsWith("~/") || s === "~")
    return escapes(s) ? "escape" : "file";
  if (/^[\w-][\w.-]*\/[\w.-]+(#.*)?$/.test(s)) return "git"; // user/repo shorthand
  if (/^https?:\/\//i.test(s)) {
    if (!URL.canParse(s)) return "remote";
    if (/\.git(#|$)/.test(s)) return "git";
    const onRegistry = [...(typeof registry === "string" ? [registry] : registry), NPMJS].some((r) =>
      s.startsWith(r.endsWith("/") ? r : `${r}/`),
    );
    // The URL parser folds `..` away, so the raw text is checked: no dot segments, encoded or not.
    return onRegistry && !/\/\.{1,2}(\/|$)|%2e/i.test(s) ? "registry" : "remote";
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return "remote";
  if (/^(file|link|portal):/i.test(s))
    return escapes(s.replace(/^(file|link|portal):/i, "")) ? "escape" : "file";
  // yarn's `patch:<spec>#<patch file>`: a local file, plus the spec it patches.
  if (/^patch:/i.test(s)) {
    const m = /^patch:(.+)#([^#]*)$/i.exec(s);
    if (!m) return "unknown";
    if (escapes(decodeURIComponent(m[2]!).replace(/^~builtin<.*>$/, "."))) return "escape";
    const inner = sourceKind(decodeURIComponent(m[1]!).replace(/^(@?[^@]+)@/, ""), registry);
    return inner === "registry" ? "file" : inner;
  }
  // `npm:<name>@<spec>`: the alias's own spec decides (npm's parser only refuses a URL there).
  if (/^npm:/i.test(s)) {
    const m = /^npm:((?:@[^/@\s]+\/)?[^/@\s]+)(?:@(.*))?$/i.exec(s);
    if (!m) return "unknown";
    if (m[2] === undefined || m[2].trim() === "") return "registry";
    if (/^npm:/i.test(m[2].trim())) return "unknown";
    return sourceKind(m[2], registry);
  }
  // pnpm/yarn workspace protocol: a package of the repository itself (npm cannot install it; nothing fetched).
  if (/^workspace:/i.test(s))
    return /^workspace:(\*|\^|~|[\w.*^~<>=| -]+)$/i.test(s) ? "workspace" : "unknown";
  try {
    const r = npa.resolve("x", s, "/");
    switch (r.type) {
      case "version":
      case "range":
      case "tag":
        return "registry";
      case "git":
        return "git";
      case "remote":
        return "remote";
      case "file":
      case "directory":
        return escapes(s) ? "escape" : "file";
      default:
        return "unknown";
    }
  } catch {
    return "unknown";
  }
}

/** Whether a relative path climbs out of the root (or is absolute / home-relative). */
export function escapes(p: string): boolean {
  if (p.startsWith("/") || p.startsWith("~") || /^[A-Za-z]:[\\/]/.test(p)) return true;
  let depth = 0;
  for (const part of p.split(/[\\/]+/)) {
    if (part === "..") depth--;
    else if (part !== "." && part !== "") depth++;
    if (depth < 0) return true;
  }
  return false;
}

export function problemFor(
  entry: string,
  spec: string,
  kind: Kind,
  policy: SourcePolicy,
): SourceProblem | null {
  switch (kind) {
    case "git":
      return policy.allowGit
        ? null
        : { entry, reason: `git dependency ${JSON.stringify(spec)}`, field: "install.allowGit" };
    case "remote":
      return policy.allowRemote
        ? null
        : {
            entry,
            reason: `tarball from outside the configured registry ${JSON.stringify(spec)}`,
            field: "install.allowRemote",
          };
    case "file":
      return policy.allowFile
        ? null
        : { entry, reason: `local path dependency ${JSON.stringify(spec)}`, field: "install.allowFile" };
    case "escape":
      return { entry, reason: `path outside the repository ${JSON.stringify(spec)}`, field: null };
    case "unknown":
      return {
        entry,
        reason: `a source npm does not read as a registry version, git, tarball or path ${JSON.stringify(spec)}`,
        field: null,
      };
    default:
      return null;
  }
}

const DEP_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** package.json's workspace globs (`workspaces: [...]` or `workspaces: { packages: [...] }`). */
export function workspaceGlobs(pkg: unknown): string[] {
  if (!isRecord(pkg)) return [];
  const ws = pkg.workspaces;
  const globs = Array.isArray(ws) ? ws : isRecord(ws) && Array.isArray(ws.packages) ? ws.packages : [];
  return globs.filter((g): g is string => typeof g === "string");
}

/** The deepest nesting of lockfile `dependencies` and of `overrides` read; deeper is refused, never walked. */
export const MAX_NESTING = 100;
const TOO_DEEP = "\u0000too deep";

/**
 * The spec strings of an override map, with where they are: npm's `overrides` nest (`{ "a": { ".": "1",
 * "b": "2" } }`) and may refer to a root dependency's own spec (`"$a"`, checked as that dependency).
 */
function overrideSpecs(value: unknown, at: string, out: [string, string][], depth = 0): void {
  // Past the bound the rest is not skipped unchecked: the caller refuses it (TOO_DEEP).
  if (depth > MAX_NESTING) {
    out.push([at.slice(0, 200), TOO_DEEP]);
    return;
  }
  if (typeof value === "string") {
    if (!value.startsWith("$")) out.push([at, value]);
    return;
  }
  if (!isRecord(value)) return;
  for (const [k, v] of Object.entries(value)) overrideSpecs(v, `${at}.${k}`, out, depth + 1);
}

/** checkPackageJson for each workspace package's package.json (path → text), its problems named by that path. */
export function checkWorkspacePackageJsons(
  files: Record<string, string>,
  registry: Registries,
  policy: SourcePolicy,
): SourceProblem[] {
  return Object.entries(files).flatMap(([file, text]) => {
    let pkg: unknown;
    try {
      pkg = JSON.parse(text);
    } catch {
      return [{ entry: file, reason: "is not valid JSON", field: null }];
    }
    return checkPackageJson(pkg, registry, policy).map((p) => ({
      ...p,
      entry: p.entry.replace(/^package\.json/, file),
    }));
  });
}

/** The problems of package.json's dependency specs, overrides/resolutions and workspace globs. */
export function checkPackageJson(pkg: unknown, registry: Registries, policy: SourcePolicy): SourceProblem[] {
  const out: SourceProblem[] = [];
  if (!isRecord(pkg)) return [{ entry: "package.json", reason: "is not a JSON object", field: null }];
  for (const field of DEP_FIELDS) {
    const deps = pkg[field];
    if (!isRecord(deps)) continue;
    for (const [name, spec] of Object.entries(deps)) {
      if (typeof spec !== "string") continue;
      const p = problemFor(`package.json ${field}.${name}`, spec, sourceKind(spec, registry), policy);
      if (p) out.push(p);
    }
  }
  // npm `overrides`, yarn `resolutions`, pnpm `pnpm.overrides`: each replaces a spec anywhere in the tree.
  const overrides: [string, string][] = [];
  overrideSpecs(pkg.overrides, "overrides", overrides);
  overrideSpecs(pkg.resolutions, "resolutions", overrides);
  if (isRecord(pkg.pnpm)) overrideSpecs(pkg.pnpm.overrides, "pnpm.overrides", overrides);
  for (const [at, spec] of overrides) {
    if (spec === TOO_DEEP) {
      out.push({
        entry: `package.json ${at}…`,
        reason: `nests deeper than ${MAX_NESTING} levels`,
        field: null,
      });
      continue;
    }
    const p = problemFor(`package.json ${at}`, spec, sourceKind(spec, registry), policy);
    if (p) out.push(p);
  }
  const globs = workspaceGlobs(pkg);
  const maxGlobs = maxWorkspaceGlobs();
  if (globs.length > maxGlobs)
    out.push({
      entry: "package.json workspaces",
      reason: `${globs.length} workspace globs, more than the ${maxGlobs} Retrace matches (the operator's RETRACE_HOST_LIMITS workspaceGlobs; no repository setting allows more)`,
      field: null,
    });
  for (const g of globs.slice(0, maxGlobs)) {
    if (escapes(g)) {
      out.push({
        entry: `package.json workspaces ${JSON.stringify(g)}`,
        reason: "workspace glob outside the repository",
        field: null,
      });
    }
  }
  return out;
}

/**
 * The problems of an npm lockfile (`package-lock.json` / `npm-shrinkwrap.json`, any lockfileVersion).
 * `requireIntegrity` (default true) refuses registry entries without an integrity hash. `workspaces` are
 * package.json's workspace globs (default: the ones the lockfile's root entry records): a directory entry of
 * the lockfile is the repository's own workspace package only when one of them matches it.
 */
const SRI_BYTES: Record<string, number> = { sha512: 64, sha384: 48, sha256: 32, sha1: 20 };

/**
 * Whether an `integrity` value is one npm verifies: whitespace-separated `<algorithm>-<base64 digest>` hashes of the
 * algorithms npm (ssri) checks, each digest of its algorithm's length. npm ignores a hash it cannot parse, so
 * `""`, `md5-…`, `sha512-not base64!` or a 3-byte digest would install whatever the registry served unchecked.
 */
export function isCheckableIntegrity(value: string): boolean {
  const hashes = value.trim().split(/\s+/).filter(Boolean);
  return (
    hashes.length > 0 &&
    hashes.every((h) => {
      const m = /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/]+={0,2})(?:\?[\x21-\x7e]*)?$/.exec(h);
      return m !== null && Buffer.from(m[2]!, "base64").length === SRI_BYTES[m[1]!];
    })
  );
}

/** A field npm reads as a string or a boolean given as another JSON type (an array's String() is its element). */
function fieldTypeProblem(entry: string, raw: Record<string, unknown>): SourceProblem | null {
  for (const [field, type] of [
    ["resolved", "string"],
    ["integrity", "string"],
    ["version", "string"],
    ["link", "boolean"],
    ["inBundle", "boolean"],
  ] as const) {
    if (raw[field] !== undefined && typeof raw[field] !== type)
      return {
        entry,
        reason: `\`${field}\` is ${Array.isArray(raw[field]) ? "an array" : raw[field] === null ? "null" : `a ${typeof raw[field]}`}, not a ${type} (regenerate the lockfile: \`npm install --package-lock-only\`)`,
        field: null,
      };
  }
  return null;
}

export function checkNpmLockfile(
  lock: unknown,
  registry: Registries,
  policy: SourcePolicy,
  options: { requireIntegrity?: boolean; workspaces?: string[] } = {},
): SourceProblem[] {
  const requireIntegrity = options.requireIntegrity ?? true;
  const out: SourceProblem[] = [];
  if (!isRecord(lock)) return [{ entry: "lockfile", reason: "is not a JSON object", field: null }];
  const packages = isRecord(lock.packages) ? lock.packages : null;
  const globs = (options.workspaces ?? workspaceGlobs(packages?.[""]))
    .slice(0, maxWorkspaceGlobs())
    .filter((g) => !escapes(g))
    .map((g) => g.replace(/^\.\//, "").replace(/\/+$/, ""));
  let isWorkspaceGlob: (dir: string) => boolean = () => false;
  try {
    if (globs.length > 0) isWorkspaceGlob = globMatcher(globs, { dot: false });
  } catch (e) {
    if (!(e instanceof GlobError)) throw e;
    return [{ entry: "package.json workspaces", reason: e.message, field: null }];
  }
  // A workspace package's own directory (`packages/a`): the repository's code, inside the root.
  const isWorkspace = (dir: string) => !escapes(dir) && isWorkspaceGlob(dir.replace(/^\.\//, ""));
  if (packages) {
    for (const [key, raw] of entriesOf(packages)) {
      if (overProblemCap(out)) break;
      if (key === "") continue;
      const entry = `lockfile packages[${JSON.stringify(key)}]`;
      if (escapes(key)) {
        out.push({ entry, reason: "entry path outside the repository", field: null });
        continue;
      }
      if (!isRecord(raw)) continue;
      const typed = fieldTypeProblem(entry, raw);
      if (typed) {
        out.push(typed);
        continue;
      }
      const resolved = typeof raw.resolved === "string" ? raw.resolved : null;
      if (raw.link === true) {
        // A link entry's `resolved` is a path relative to the root (a workspace or file: directory).
        const target = resolved ?? "";
        const p = escapes(target)
          ? { entry, reason: `link to a path outside the repository ${JSON.stringify(target)}`, field: null }
          : isWorkspace(target) && isRecord(packages[target])
            ? null
            : problemFor(entry, `file:${target}`, "file", policy);
        if (p) out.push(p);
        continue;
      }
      if (!key.includes("node_modules/")) {
        // A directory of the repository: npm reads it where it is; it is never fetched from anywhere.
        if (resolved !== null) {
          out.push({
            entry,
            reason: `a directory of the repository with a source to fetch ${JSON.stringify(resolved)} (npm writes none for workspace or local packages)`,
            field: null,
          });
        } else if (!isWorkspace(key)) {
          const p = problemFor(entry, `file:${key}`, "file", policy);
          if (p)
            out.push({
              ...p,
              reason: `local package directory ${JSON.stringify(key)} that package.json's \`workspaces\` does not list`,
            });
        }
        continue;
      }
      // Inside a dependency's own bundle (`node_modules/a/node_modules/b`, `inBundle`): it comes in its parent's
      // tarball, which is checked; npm never fetches it. A top-level `inBundle` entry is the root's own bundle,
      // which npm fetches like any other entry, so it is checked like one.
      const parent = key.slice(0, key.lastIndexOf("/node_modules/"));
      if (
        raw.inBundle === true &&
        parent.includes("node_modules/") &&
        isRecord(packages[parent]) &&
        packages[parent].link !== true
      )
        continue;
      const kind = resolved ? sourceKind(resolved, registry) : "registry";
      const p = problemFor(entry, resolved ?? "", kind, policy);
      if (p) {
        out.push(p);
        continue;
      }
      // `version` is an exact version in every entry npm writes; anything else (a URL, a git spec, a range) is a
      // source npm may fetch when `resolved` is absent.
      if (
        raw.version !== undefined &&
        (typeof raw.version !== "string" || semver.valid(raw.version, { loose: true }) === null)
      ) {
        const v = String(raw.version);
        const vk = sourceKind(v, registry);
        out.push(
          (vk !== "registry" && vk !== "workspace" ? problemFor(entry, v, vk, policy) : null) ?? {
            entry,
            reason: `\`version\` is not an exact version ${JSON.stringify(v)}`,
            field: null,
          },
        );
        continue;
      }
      if (kind === "registry" && requireIntegrity && typeof raw.integrity !== "string") {
        out.push({
          entry,
          reason:
            "registry entry without an integrity hash (regenerate the lockfile: `npm install --package-lock-only`)",
          field: null,
        });
      } else if (typeof raw.integrity === "string" && !isCheckableIntegrity(raw.integrity)) {
        out.push({
          entry,
          reason: `an integrity value npm cannot check ${JSON.stringify(raw.integrity.slice(0, 60))} (sha512/sha384/sha256/sha1 hashes of their length; regenerate the lockfile)`,
          field: null,
        });
      }
    }
  }
  // lockfileVersion 1 (and the compatibility section of 2): nested `dependencies`.
  const walk = (deps: unknown, prefix: string, depth: number) => {
    if (!isRecord(deps)) return;
    if (depth > MAX_NESTING) {
      // No tree of node_modules nests this deep; walking it would only cost the host (20,000 levels overflowed
      // the stack).
      out.push({
        entry: `lockfile dependencies ${prefix.slice(0, 200)}…`,
        reason: `nests deeper than ${MAX_NESTING} levels (regenerate the lockfile: \`npm install --package-lock-only\`)`,
        field: null,
      });
      return;
    }
    for (const [name, raw] of entriesOf(deps)) {
      if (overProblemCap(out)) return;
      if (!isRecord(raw)) continue;
      const entry = `lockfile dependencies ${prefix}${name}`;
      const typed = fieldTypeProblem(entry, raw);
      if (typed) {
        out.push(typed);
        continue;
      }
      const version = typeof raw.version === "string" ? raw.version : "";
      const resolved = typeof raw.resolved === "string" ? raw.resolved : null;
      if (!isRecord(packages)) {
        const spec = resolved ?? version;
        const kind =
          !resolved && semver.valid(version, { loose: true }) !== null
            ? "registry"
            : sourceKind(spec, registry);
        const p = problemFor(entry, spec, kind, policy);
        if (p) out.push(p);
        else if (
          kind === "registry" &&
          requireIntegrity &&
          raw.bundled !== true &&
          typeof raw.integrity !== "string"
        ) {
          out.push({ entry, reason: "registry entry without an integrity hash", field: null });
        } else if (typeof raw.integrity === "string" && !isCheckableIntegrity(raw.integrity)) {
          out.push({ entry, reason: "an integrity value npm cannot check", field: null });
        }
      }
      walk(raw.dependencies, `${prefix}${name} > `, depth + 1);
    }
  };
  walk(lock.dependencies, "", 0);
  return capProblems(out, "lockfile");
}
