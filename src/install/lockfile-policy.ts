/**
 * What an npm install may fetch: only what the configured registry serves, by default. Checked on the host,
 * before npm runs, over the whole lockfile (v1 `dependencies`, v2/v3 `packages`) and package.json:
 *
 * - registry entries: `resolved` absent (npm then asks the configured registry) or under the configured
 *   registry (or registry.npmjs.org, which npm rewrites to the configured registry), with an `integrity` hash;
 * - git sources (`git+…`, `github:`, `git://`, ssh) only with `install.allowGit`;
 * - tarball URLs on any other host only with `install.allowRemote`;
 * - `file:` and `link:` sources only with `install.allowFile`; workspace packages (directories of the
 *   repository the lockfile lists, and links to them) are the repository's own code and allowed; nothing
 *   outside the repository ever is: entry paths, link targets and workspace globs that climb out with `..` or
 *   are absolute are refused whatever the configuration says.
 *
 * Each problem names the entry and the setting that would allow it. Pure: no I/O.
 */

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

export function describeProblem(p: SourceProblem): string {
  return `${p.entry}: ${p.reason} (${p.field ? `allowed only with ${p.field}: true` : "no setting allows this"})`;
}

const NPMJS = "https://registry.npmjs.org/";

type Kind = "registry" | "git" | "remote" | "file" | "escape" | "alias-or-tag";

/** What kind of source a spec or `resolved` value names. */
export function sourceKind(spec: string, registry: string): Kind {
  const s = spec.trim();
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:|ssh:)/i.test(s)) return "git";
  if (s.startsWith("/") || s.startsWith("./") || s.startsWith("../") || s.startsWith("~"))
    return escapes(s) ? "escape" : "file";
  if (/^[\w-][\w.-]*\/[\w.-]+(#.*)?$/.test(s)) return "git"; // user/repo shorthand
  if (/^https?:\/\//i.test(s)) {
    if (!URL.canParse(s)) return "remote";
    if (/\.git(#|$)/.test(s)) return "git";
    const onRegistry = [registry, NPMJS].some((r) => s.startsWith(r.endsWith("/") ? r : `${r}/`));
    // The URL parser folds `..` away, so the raw text is checked: no dot segments, encoded or not.
    return onRegistry && !/\/\.{1,2}(\/|$)|%2e/i.test(s) ? "registry" : "remote";
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return "remote";
  if (/^(file|link):/i.test(s)) return escapes(s.replace(/^(file|link):/i, "")) ? "escape" : "file";
  if (/^npm:/.test(s)) return "alias-or-tag";
  return "registry";
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

function problemFor(entry: string, spec: string, kind: Kind, policy: SourcePolicy): SourceProblem | null {
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
    default:
      return null;
  }
}

const DEP_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The problems of package.json's dependency specs and workspace globs. */
export function checkPackageJson(pkg: unknown, registry: string, policy: SourcePolicy): SourceProblem[] {
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
  const ws = pkg.workspaces;
  const globs = Array.isArray(ws) ? ws : isRecord(ws) && Array.isArray(ws.packages) ? ws.packages : [];
  for (const g of globs) {
    if (typeof g !== "string") continue;
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
 * `requireIntegrity` (default true) refuses registry entries without an integrity hash.
 */
export function checkNpmLockfile(
  lock: unknown,
  registry: string,
  policy: SourcePolicy,
  options: { requireIntegrity?: boolean } = {},
): SourceProblem[] {
  const requireIntegrity = options.requireIntegrity ?? true;
  const out: SourceProblem[] = [];
  if (!isRecord(lock)) return [{ entry: "lockfile", reason: "is not a JSON object", field: null }];
  const packages = lock.packages;
  // A workspace package's own directory (`packages/a`): the repository's code, inside the root.
  const workspaceDirs = new Set(
    isRecord(packages) ? Object.keys(packages).filter((k) => k !== "" && !k.includes("node_modules/")) : [],
  );
  if (isRecord(packages)) {
    for (const [key, raw] of Object.entries(packages)) {
      if (key === "") continue;
      const entry = `lockfile packages[${JSON.stringify(key)}]`;
      if (escapes(key)) {
        out.push({ entry, reason: "entry path outside the repository", field: null });
        continue;
      }
      if (!isRecord(raw)) continue;
      const resolved = typeof raw.resolved === "string" ? raw.resolved : null;
      if (raw.link === true) {
        // A link entry's `resolved` is a path relative to the root (a workspace or file: directory).
        const target = resolved ?? "";
        const p = escapes(target)
          ? { entry, reason: `link to a path outside the repository ${JSON.stringify(target)}`, field: null }
          : workspaceDirs.has(target)
            ? null
            : problemFor(entry, `file:${target}`, "file", policy);
        if (p) out.push(p);
        continue;
      }
      if (!key.includes("node_modules/")) continue; // a workspace directory inside the root (checked above)
      if (raw.inBundle === true) continue; // comes inside its parent's tarball
      const kind = resolved ? sourceKind(resolved, registry) : "registry";
      const p = problemFor(entry, resolved ?? "", kind, policy);
      if (p) {
        out.push(p);
        continue;
      }
      if (kind === "registry" && requireIntegrity && typeof raw.integrity !== "string") {
        out.push({
          entry,
          reason:
            "registry entry without an integrity hash (regenerate the lockfile: `npm install --package-lock-only`)",
          field: null,
        });
      }
    }
  }
  // lockfileVersion 1 (and the compatibility section of 2): nested `dependencies`.
  const walk = (deps: unknown, prefix: string) => {
    if (!isRecord(deps)) return;
    for (const [name, raw] of Object.entries(deps)) {
      if (!isRecord(raw)) continue;
      const entry = `lockfile dependencies ${prefix}${name}`;
      const version = typeof raw.version === "string" ? raw.version : "";
      const resolved = typeof raw.resolved === "string" ? raw.resolved : null;
      if (!isRecord(packages)) {
        const spec = resolved ?? version;
        const kind = /^\d/.test(version) && !resolved ? "registry" : sourceKind(spec, registry);
        const p = problemFor(entry, spec, kind, policy);
        if (p) out.push(p);
        else if (
          kind === "registry" &&
          requireIntegrity &&
          raw.bundled !== true &&
          typeof raw.integrity !== "string"
        ) {
          out.push({ entry, reason: "registry entry without an integrity hash", field: null });
        }
      }
      walk(raw.dependencies, `${prefix}${name} > `);
    }
  };
  walk(lock.dependencies, "");
  return out;
}
