/**
 * dependency-changes: what a project depends on is not a fix. Blocks changed lines in the dependency sections
 * of package.json/composer.json, pyproject.toml, Cargo.toml and Pipfile, and any change to files that are
 * nothing but dependency lists (`wholeFiles`: requirements*.txt, go.mod, Gemfile, ...). The section is read
 * from the hunk; when it is not visible, a value that looks like a version counts as a dependency.
 *
 * One exception (`allowRegistryRanges`, on by default): a fix may need a package, or a newer release of one
 * (the upstream fix of mdast-util-to-markdown's phrasing bug imports mdast-util-phrasing and declares it).
 * In package.json's `dependencies`, `devDependencies`, `optionalDependencies` and `peerDependencies`, an entry
 * added with a plain semver range (`"mdast-util-phrasing": "^3.0.0"`), or an entry whose range changes (its old
 * line removed, the same name added in the same map), is allowed. It names a registry package, which the install
 * container fetches with install scripts off, and which runs only inside the sandbox; verification installs the
 * patched manifest before the patched runs (verify.md). Everything else stays blocked: git, URL, file, link,
 * `npm:` alias, `workspace:` and dist-tag specs (`latest`), a removed dependency, `overrides`/`resolutions`,
 * `packageManager`, composer.json, and the Python and Cargo manifests.
 */
import semver from "semver";
import { baseName, matchesAny, truncate } from "../lines.ts";
import {
  foldChangedLines,
  jsonFold,
  jsonSiteAt,
  MAX_SITE_DEPTH,
  jsonStringValue,
  looksLikeVersionSpec,
  tomlFold,
  tomlSiteAt,
} from "../sections.ts";
import type { FileChange, Rule, Violation } from "../types.ts";

export const JSON_DEPENDENCY_KEYS = new Set([
  // package.json
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
  "bundleDependencies",
  "bundledDependencies",
  "peerDependenciesMeta",
  "dependenciesMeta",
  "overrides",
  "resolutions",
  "packageManager",
  "pnpm",
  "workspaces",
  // composer.json
  "require",
  "require-dev",
  "conflict",
  "replace",
  "provide",
  "repositories",
]);

const TOML_DEPENDENCY_TABLE =
  /(^|\.)(dependencies|dev-dependencies|build-dependencies|optional-dependencies|dependency-groups|packages|dev-packages|source|sources)(\.|$)|^(patch|replace)(\.|$)|^build-system$|^tool\.uv$/;
const TOML_DEPENDENCY_KEY =
  /^(dependencies|optional-dependencies|dev-dependencies|requires|install_requires|requires-python|override-dependencies|constraint-dependencies)$/;

const JSON_MANIFESTS = new Set(["package.json", "composer.json"]);
const TOML_MANIFESTS = new Set(["pyproject.toml", "cargo.toml", "pipfile"]);

function violation(file: FileChange, line: number | null, message: string): Violation {
  return { rule: "dependency-changes", file: file.path, line, message };
}

/** The maps of package.json whose registry entries a patch may add or re-range (`allowRegistryRanges`). */
const REGISTRY_MAPS = new Set([
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
]);
const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** A registry version range: semver syntax with a version number in it (no tag, `*`, protocol or path). */
export function isRegistryRange(value: string): boolean {
  const v = value.trim();
  return /\d/.test(v) && !/[:/\\@#]/.test(v) && semver.validRange(v) !== null;
}

/** `map/name` of a changed package.json line that is a registry dependency entry directly in a registry map. */
function registryEntry(keys: string[], text: string): string | null {
  if (keys.length !== 2 || !REGISTRY_MAPS.has(keys[1]!)) return null;
  const name = keys[0]!;
  const value = jsonStringValue(text);
  if (value === null || !NPM_NAME.test(name) || !isRegistryRange(value)) return null;
  return `${keys[1]}/${name}`;
}

function checkJson(
  file: FileChange,
  allowRegistry: boolean,
  sourceFiles: Readonly<Record<string, string>> | undefined,
): Violation[] {
  const out: Violation[] = [];
  const isPackageJson = [file.oldPath, file.newPath].some(
    (p) => p !== null && baseName(p) === "package.json",
  );
  // The base file, when the caller gave it: a section opened above the hunk's context is then known.
  const base = file.oldPath === null ? undefined : sourceFiles?.[file.oldPath];
  const sites = foldChangedLines(file, jsonFold, base).map((s) => ({
    line: s.line,
    site: jsonSiteAt(s.state, s.line.text),
  }));
  const deep = sites.find((s) => s.site.tooDeep);
  if (deep !== undefined)
    return [
      violation(file, null, `nests more than ${MAX_SITE_DEPTH} levels deep: too deep to judge line by line`),
    ];
  // Registry entries the patch adds, by map/name: a removed line is a range change only when its entry is re-added.
  const added = new Set<string>();
  if (allowRegistry && isPackageJson)
    for (const site of sites) {
      if (site.line.kind !== "add") continue;
      const entry = registryEntry(site.site.keys, site.line.text);
      if (entry !== null) added.add(entry);
    }
  for (const site of sites) {
    const { line } = site;
    const where = line.kind === "add" ? line.newLine : line.oldLine;
    const verb = line.kind === "add" ? "adds" : "removes";
    if (allowRegistry && isPackageJson) {
      const entry = registryEntry(site.site.keys, line.text);
      if (entry !== null && (line.kind === "add" || added.has(entry))) continue;
    }
    const inline =
      /"(dependencies|devDependencies|peerDependencies|optionalDependencies|overrides|resolutions|require|require-dev)"\s*:/.exec(
        line.text,
      );
    const { keys } = site.site;
    const depKey = keys.find((k) => JSON_DEPENDENCY_KEYS.has(k)) ?? inline?.[1];
    if (depKey !== undefined) {
      out.push(violation(file, where, `${verb} a line in \`${depKey}\`: \`${truncate(line.text)}\``));
      continue;
    }
    // The line's place is known when a key encloses it, or when the scan reached the document's `{` (from the hunk or
    // the base text): a key directly under it is a top-level field — the package's own `"name": "x"`, `"main"` — never
    // a dependency entry, which sits in one of the maps above (f14c item 4).
    const enclosingVisible = keys.length > (/^\s*"/.test(line.text) ? 1 : 0) || site.site.rootSeen;
    const value = jsonStringValue(line.text);
    if (
      !enclosingVisible &&
      value !== null &&
      looksLikeVersionSpec(value) &&
      !/^\s*"version"\s*:/.test(line.text)
    ) {
      out.push(
        violation(
          file,
          where,
          `${verb} what looks like a dependency version (its section is not visible in the hunk): \`${truncate(line.text)}\``,
        ),
      );
    }
  }
  return out;
}

function checkToml(file: FileChange): Violation[] {
  const out: Violation[] = [];
  for (const site of foldChangedLines(file, tomlFold)) {
    const { line } = site;
    if (line.text.trim() === "" || /^\s*#/.test(line.text)) continue;
    const where = line.kind === "add" ? line.newLine : line.oldLine;
    const verb = line.kind === "add" ? "adds" : "removes";
    const { table, key } = tomlSiteAt(site.state, line.text);
    const inTable = table !== null && TOML_DEPENDENCY_TABLE.test(table);
    const inKey = key !== null && TOML_DEPENDENCY_KEY.test(key.split(".").pop()!);
    if (inTable || inKey) {
      const what = inTable ? `[${table}]` : `${table === null ? "" : `[${table}] `}${key}`;
      out.push(violation(file, where, `${verb} a line in ${what}: \`${truncate(line.text)}\``));
      continue;
    }
    if (table === null) {
      // Section not visible: requirement strings ("pkg>=1.0") and `name = "^1.2"` entries are dependencies.
      const requirement =
        /^\s*["'][A-Za-z0-9][\w.-]*(\[[\w,.-]+\])?\s*(==|>=|<=|~=|!=|>|<|@)[^"']*["']\s*,?\s*$/.test(
          line.text,
        );
      const pinned = /^\s*[\w-]+\s*=\s*(["'](\^|~|[<>=]|\d|\*)|\{\s*(version|git|path)\s*=)/.test(line.text);
      if (requirement || pinned) {
        out.push(
          violation(
            file,
            where,
            `${verb} what looks like a dependency (its table is not visible in the hunk): \`${truncate(line.text)}\``,
          ),
        );
      }
    }
  }
  return out;
}

export const dependencyChanges: Rule = {
  id: "dependency-changes",
  enabled: (c) => c.dependencyChanges.enabled,
  check({ patch, config, sourceFiles }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const paths = [file.oldPath, file.newPath].filter((p): p is string => p !== null);
      const whole = paths.find((p) => matchesAny(config.dependencyChanges.wholeFiles, p));
      if (whole !== undefined) {
        out.push(violation(file, null, `\`${baseName(whole)}\` is a dependency list; it may not be changed`));
        continue;
      }
      const names = new Set(paths.map((p) => baseName(p).toLowerCase()));
      if ([...names].some((n) => JSON_MANIFESTS.has(n)))
        out.push(...checkJson(file, config.dependencyChanges.allowRegistryRanges, sourceFiles));
      else if ([...names].some((n) => TOML_MANIFESTS.has(n))) out.push(...checkToml(file));
    }
    return out;
  },
};
