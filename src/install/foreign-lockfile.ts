/**
 * yarn's and pnpm's lockfiles, read for the versions they pin for a package's own dependencies. Retrace
 * installs with npm in its install container (one installer, one policy check, one cache); for a repository
 * that commits `yarn.lock` (classic v1 or berry) or `pnpm-lock.yaml`, the direct dependencies are pinned to the
 * lockfile's versions and npm resolves the rest from the registry — the repository's own tests then run
 * against the versions its lockfile chose for what it declares. Pure: text in, pins out.
 */
import semver from "semver";
import { parse as parseYaml } from "yaml";

export interface LockfilePins {
  /** Which lockfile format was read. */
  format: "yarn-classic" | "yarn-berry" | "pnpm" | "npm" | "unreadable";
  /** Dependency name → exact version the lockfile resolved for the package.json's range. */
  pins: Record<string, string>;
}

const DEP_FIELDS = ["dependencies", "devDependencies", "optionalDependencies"] as const;

type Manifest = Partial<Record<(typeof DEP_FIELDS)[number], Record<string, string>>>;

function declared(pkg: Manifest): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of DEP_FIELDS) {
    const deps = pkg[f];
    if (deps && typeof deps === "object")
      for (const [name, spec] of Object.entries(deps)) if (typeof spec === "string") out.set(name, spec);
  }
  return out;
}

function exact(version: unknown): string | null {
  if (typeof version !== "string") return null;
  // pnpm writes peer contexts after the version: `1.2.3(react@18.2.0)` (v6+), `1.2.3_react@18.2.0` (v5). Cut at
  // the first `(` or `_` by search: `/\(.*$/` restarts at every `(` of a run ending before a newline (a lockfile's
  // 200,000 `(` and a `\n` held the host for minutes), and no version is longer than semver's 256 characters.
  if (version.length > 1024) return null;
  const cut = [version.indexOf("("), version.indexOf("_")].filter((i) => i !== -1);
  const v = cut.length > 0 ? version.slice(0, Math.min(...cut)) : version;
  return semver.valid(v);
}

/** The header selectors of a yarn lockfile entry: `"a@^1", a@~1.2:` → [`a@^1`, `a@~1.2`]. */
function selectors(header: string): string[] {
  return header
    .replace(/:\s*$/, "")
    .split(/,\s*/)
    .map((x) => x.trim().replace(/^"|"$/g, ""));
}

function yarnPins(text: string, wanted: Map<string, string>, berry: boolean): Record<string, string> {
  const bySelector = new Map<string, string>();
  let current: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      current = selectors(line);
      continue;
    }
    const m = berry
      ? /^ {2}version: "?([^"\s]+)"?\s*$/.exec(line)
      : /^ {2}version "?([^"\s]+)"?\s*$/.exec(line);
    if (m?.[1]) for (const sel of current) bySelector.set(sel, m[1]);
  }
  const pins: Record<string, string> = {};
  for (const [name, range] of wanted) {
    const v = bySelector.get(`${name}@${range}`) ?? bySelector.get(`${name}@npm:${range}`);
    const version = exact(v);
    if (version !== null) pins[name] = version;
  }
  return pins;
}

/** Largest root section of a pnpm lockfile that is parsed as YAML (the root importer's dependency maps). */
const MAX_PNPM_ROOT_SECTION = 1024 * 1024;

/**
 * The part of a pnpm lockfile the pins come from, cut out line by line: the root importer (`importers:` →
 * `  .:`) of v6+ workspaces and the top-level dependency maps of single-package lockfiles. The rest
 * (`packages:`, `snapshots:`, other importers) can be tens of MiB, and the YAML parser costs about a second of
 * host CPU per MiB: it is never parsed.
 */
function pnpmRootSection(text: string): string {
  const out: string[] = [];
  let mode: "skip" | "importers" | "root" | "deps" = "skip";
  for (const line of text.split(/\r?\n/)) {
    if (/^\S/.test(line)) {
      const key = /^['"]?([^'":]+)['"]?\s*:/.exec(line)?.[1];
      mode =
        key === "importers"
          ? "importers"
          : (DEP_FIELDS as readonly string[]).includes(key ?? "")
            ? "deps"
            : "skip";
      if (mode !== "skip") out.push(line);
    } else if (mode === "deps") out.push(line);
    else if (mode === "importers" || mode === "root") {
      const importer = /^ {2}(['"]?)([^\s'"]+)\1:\s*$/.exec(line)?.[2];
      if (importer !== undefined) mode = importer === "." ? "root" : "importers";
      if (mode === "root") out.push(line);
    }
  }
  return out.join("\n");
}

function pnpmPins(text: string, wanted: Map<string, string>): Record<string, string> {
  let doc: Record<string, unknown>;
  try {
    const section = pnpmRootSection(text);
    if (section.length > MAX_PNPM_ROOT_SECTION) return {};
    doc = (parseYaml(section, { maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch {
    return {};
  }
  const importers = doc["importers"] as Record<string, Record<string, unknown>> | undefined;
  const root = (importers?.["."] ?? doc) as Record<string, unknown>;
  const pins: Record<string, string> = {};
  for (const f of DEP_FIELDS) {
    const deps = root[f] as Record<string, unknown> | undefined;
    if (!deps || typeof deps !== "object") continue;
    for (const [name, entry] of Object.entries(deps)) {
      if (!wanted.has(name)) continue;
      const version = exact(
        typeof entry === "object" && entry !== null ? (entry as { version?: unknown }).version : entry,
      );
      if (version !== null) pins[name] = version;
    }
  }
  return pins;
}

/** The versions `lockfile` (by its name and text) pins for the dependencies `pkg` declares. */
export function lockfilePins(lockfileName: string, text: string, pkg: unknown): LockfilePins {
  const wanted = declared((pkg ?? {}) as Manifest);
  if (lockfileName === "yarn.lock") {
    const berry = /^__metadata:/m.test(text);
    return { format: berry ? "yarn-berry" : "yarn-classic", pins: yarnPins(text, wanted, berry) };
  }
  if (lockfileName === "pnpm-lock.yaml") return { format: "pnpm", pins: pnpmPins(text, wanted) };
  if (lockfileName === "package-lock.json" || lockfileName === "npm-shrinkwrap.json")
    return { format: "npm", pins: npmPins(text, wanted) };
  return { format: "unreadable", pins: {} };
}

/**
 * package.json with each pinned dependency's range replaced by the exact version (registry ranges only; a
 * `workspace:`, git or file spec is left as written, for the policy to judge).
 */
export function pinnedPackageJson(packageJson: string, pins: Record<string, string>): string {
  return `${JSON.stringify(pinnedManifest(JSON.parse(packageJson), pins), null, 2)}\n`;
}

/** `pinnedPackageJson` on an already parsed package.json: a copy with the pins applied (`pkg` is untouched). */
export function pinnedManifest(pkg: unknown, pins: Record<string, string>): Record<string, unknown> {
  const out = structuredClone(pkg) as Manifest & Record<string, unknown>;
  for (const f of DEP_FIELDS) {
    const deps = out[f];
    if (!deps || typeof deps !== "object") continue;
    for (const [name, spec] of Object.entries(deps)) {
      const pin = pins[name];
      if (pin !== undefined && typeof spec === "string" && semver.validRange(spec) !== null) deps[name] = pin;
    }
  }
  return out;
}

/**
 * npm's lockfile (v2/v3 `packages`): the version installed at `node_modules/<name>` for each declared name whose
 * range it satisfies. Used when package.json no longer matches the lockfile (a patch gave a dependency a new
 * range, or added one): what still matches keeps the lockfile's version, the rest npm resolves.
 */
function npmPins(text: string, wanted: Map<string, string>): Record<string, string> {
  let packages: Record<string, { version?: unknown } | undefined>;
  try {
    packages = ((JSON.parse(text) as { packages?: unknown }).packages ?? {}) as typeof packages;
  } catch {
    return {};
  }
  const pins: Record<string, string> = {};
  for (const [name, range] of wanted) {
    const version = exact(packages[`node_modules/${name}`]?.version);
    if (version !== null && semver.validRange(range) !== null && semver.satisfies(version, range))
      pins[name] = version;
  }
  return pins;
}

/**
 * Whether package.json declares what npm's lockfile recorded for the root package (its `packages[""]` maps):
 * `npm ci` refuses a lockfile out of step with package.json. Lockfiles without a root entry (v1) count as in step.
 */
export function npmLockfileInSync(packageJson: string, lockfile: string): boolean {
  let pkg: Record<string, unknown>;
  let root: Record<string, unknown> | undefined;
  try {
    pkg = JSON.parse(packageJson) as Record<string, unknown>;
    const parsed = JSON.parse(lockfile) as { packages?: Record<string, Record<string, unknown>> };
    root = parsed.packages?.[""];
  } catch {
    return true;
  }
  if (root === undefined) return true;
  for (const field of [...DEP_FIELDS, "peerDependencies"]) {
    const a = (pkg[field] ?? {}) as Record<string, unknown>;
    const b = (root[field] ?? {}) as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (a[k] !== b[k]) return false;
  }
  return true;
}
