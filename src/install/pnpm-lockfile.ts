/**
 * pnpm's workspace files, read for what `pnpm install --frozen-lockfile` would fetch and link: the sources of
 * pnpm-lock.yaml checked against the same policy as npm lockfiles (`lockfile-policy.ts`: the configured
 * registry only unless `install.allowGit/allowRemote/allowFile`), the workspace package directories it lists
 * (its `importers`), and the `packageManager` field that names the pnpm release to run. Pure: no I/O.
 */
import path from "node:path";
import semver from "semver";
import {
  capProblems,
  entriesOf,
  escapes,
  overProblemCap,
  problemFor,
  type Registries,
  type SourcePolicy,
  type SourceProblem,
  sourceKind,
} from "./lockfile-policy.ts";

const LOCK = "pnpm-lock.yaml";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The `packageManager` field of package.json (`pnpm@11.5.2+sha512.<hex>`), read. */
export interface PackageManagerField {
  name: string;
  version: string;
  /** The tarball's sha512 in hex, when the field carries one (corepack's form). */
  sha512: string | null;
}

/** package.json's `packageManager`, or a reason it cannot be used (an exact release is required). */
export function readPackageManager(pkg: unknown): PackageManagerField | { problem: string } | null {
  const field = isRecord(pkg) ? pkg.packageManager : undefined;
  if (field === undefined) return null;
  if (typeof field !== "string") return { problem: "package.json packageManager is not a string" };
  const m = /^((?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*)@([^+\s]+)(?:\+(.+))?$/.exec(
    field.trim(),
  );
  if (!m || !semver.valid(m[2]!))
    return {
      problem: `package.json packageManager ${JSON.stringify(field)} is not <name>@<exact version> (a range or a URL is not installed)`,
    };
  const hash = m[3] ?? null;
  let sha512: string | null = null;
  if (hash !== null) {
    const h = /^sha512\.([0-9a-f]{128})$/i.exec(hash);
    if (h) sha512 = h[1]!.toLowerCase();
    else if (!/^sha(1|224|256|384)\.[0-9a-f]+$/i.test(hash))
      return { problem: `package.json packageManager ${JSON.stringify(field)}: unreadable hash` };
  }
  return { name: m[1]!, version: m[2]!, sha512 };
}

/** The workspace package directories pnpm-lock.yaml lists (`importers` other than `.`), checked relative paths. */
export function pnpmImporterDirs(lock: unknown): string[] {
  const importers = isRecord(lock) && isRecord(lock.importers) ? lock.importers : {};
  return Object.keys(importers).filter(
    (d) =>
      d !== "." &&
      d !== "" &&
      !escapes(d) &&
      !d.includes("\\") &&
      !d.split("/").some((p) => p === "node_modules" || p === "." || p === ".."),
  );
}

const IMPORTER_FIELDS = ["dependencies", "devDependencies", "optionalDependencies"] as const;

/**
 * The problems of a pnpm lockfile (lockfileVersion 5.x, 6.x, 9.x): each package's `resolution` (an integrity
 * hash from the registry; a `tarball` URL off the configured registry, a `git` repository or a `directory` need
 * the matching `install.allow*`), each importer's dependencies (a `link:` / `file:` path out of the repository is
 * refused; a link to another importer is a workspace package) and the lockfile's `overrides`.
 */
export function checkPnpmLockfile(
  lock: unknown,
  registry: Registries,
  policy: SourcePolicy,
): SourceProblem[] {
  if (!isRecord(lock)) return [{ entry: LOCK, reason: "is not a YAML mapping", field: null }];
  const out: SourceProblem[] = [];
  const push = (p: SourceProblem | null) => {
    if (p) out.push(p);
  };
  const importers = isRecord(lock.importers) ? lock.importers : { ".": lock };
  const importerDirs = new Set(["", ...pnpmImporterDirs(lock)]);
  for (const [dir, importer] of Object.entries(importers)) {
    if (dir !== "." && !importerDirs.has(dir)) {
      out.push({
        entry: `${LOCK} importers.${dir}`,
        reason: "a workspace directory outside the repository",
        field: null,
      });
      continue;
    }
    if (!isRecord(importer)) continue;
    for (const field of IMPORTER_FIELDS) {
      const deps = importer[field];
      if (!isRecord(deps)) continue;
      for (const [name, dep] of Object.entries(deps)) {
        const entry = `${LOCK} importers.${dir}.${field}.${name}`;
        const version = isRecord(dep) ? dep.version : dep;
        const specifier = isRecord(dep) ? dep.specifier : undefined;
        if (typeof specifier === "string" && !/^(workspace|catalog|link):/i.test(specifier))
          push(problemFor(entry, specifier, sourceKind(specifier, registry), policy));
        if (typeof version !== "string") continue;
        const local = /^(link|file):(.*)$/i.exec(version);
        if (local) {
          const target = path.posix.normalize(path.posix.join(dir === "." ? "" : dir, local[2]!));
          if (escapes(target) || path.posix.isAbsolute(local[2]!))
            out.push({
              entry,
              reason: `path outside the repository ${JSON.stringify(version)}`,
              field: null,
            });
          else if (local[1]!.toLowerCase() === "file" || !importerDirs.has(target === "." ? "" : target))
            push(problemFor(entry, version, "file", policy));
        } else if (!/^\d/.test(version))
          push(problemFor(entry, version, sourceKind(version, registry), policy));
      }
    }
  }
  const packages = isRecord(lock.packages) ? lock.packages : {};
  for (const [key, pkg] of entriesOf(packages)) {
    if (overProblemCap(out)) break;
    const entry = `${LOCK} packages.${key}`;
    const resolution = isRecord(pkg) ? pkg.resolution : undefined;
    if (!isRecord(resolution)) {
      out.push({ entry, reason: "no resolution", field: null });
      continue;
    }
    if (resolution.type === "git" || typeof resolution.repo === "string")
      push(problemFor(entry, `git ${String(resolution.repo)}#${String(resolution.commit)}`, "git", policy));
    else if (resolution.type === "directory") {
      const dir = String(resolution.directory ?? "");
      push(problemFor(entry, dir, escapes(dir) ? "escape" : "file", policy));
    } else if (resolution.type !== undefined)
      out.push({
        entry,
        reason: `a resolution of type ${JSON.stringify(resolution.type)} Retrace does not install`,
        field: null,
      });
    else if (typeof resolution.tarball === "string") {
      const kind = sourceKind(resolution.tarball, registry);
      push(
        problemFor(
          entry,
          resolution.tarball,
          kind === "registry" || kind === "git"
            ? kind
            : kind === "file" || kind === "escape"
              ? kind
              : "remote",
          policy,
        ),
      );
      if (kind === "registry" && typeof resolution.integrity !== "string")
        out.push({ entry, reason: "a registry package without an integrity hash", field: null });
    } else if (typeof resolution.integrity !== "string")
      out.push({ entry, reason: "a registry package without an integrity hash", field: null });
  }
  const overrides = isRecord(lock.overrides) ? lock.overrides : {};
  for (const [name, spec] of Object.entries(overrides))
    if (typeof spec === "string")
      push(problemFor(`${LOCK} overrides.${name}`, spec, sourceKind(spec, registry), policy));
  return capProblems(out, LOCK);
}

/** The problems of pnpm-workspace.yaml: package globs out of the repository. */
export function checkPnpmWorkspace(ws: unknown): SourceProblem[] {
  if (ws === null || ws === undefined) return [];
  if (!isRecord(ws)) return [{ entry: "pnpm-workspace.yaml", reason: "is not a YAML mapping", field: null }];
  const globs = Array.isArray(ws.packages) ? ws.packages : [];
  return globs
    .filter((g): g is string => typeof g === "string" && escapes(g.replace(/^!/, "")))
    .map((g) => ({
      entry: `pnpm-workspace.yaml packages ${JSON.stringify(g)}`,
      reason: "workspace glob outside the repository",
      field: null,
    }));
}
