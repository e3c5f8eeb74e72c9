/**
 * The package a repository publishes, for a reproduction of one of its issues (ReproJobSpec.package): a report
 * filed there calls the package without importing it (`filesize(…)`, `tabulate(…)`). Read from the repository's
 * root manifest through the GitHub port — package.json `name`, pyproject.toml `[project]` (or `[tool.poetry]`)
 * `name`, setup.cfg `[metadata] name`, setup.py `name=` — else the repository's name. Only a valid npm/PyPI name
 * is returned; a manifest that cannot be read is skipped, never a reason for the job to fail.
 */
import { ReproJobSpec } from "../core/job.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";

/** The manifests read, in order: the first that names a package wins. */
export const MANIFESTS = ["package.json", "pyproject.toml", "setup.cfg", "setup.py"] as const;

const valid = (name: string | null | undefined): string | null =>
  name && ReproJobSpec.shape.package.safeParse(name).success ? name : null;

/** The `name = "…"` of a TOML/INI section (`[project]`), or null. */
function sectionName(text: string, section: RegExp, quoted: boolean): string | null {
  let inside = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      inside = section.test(header[1]!.trim());
      continue;
    }
    if (!inside) continue;
    const m = quoted
      ? /^name\s*=\s*(["'])([^"'\n]+)\1$/.exec(line)
      : /^name\s*=\s*["']?([^"'\s]+)["']?$/.exec(line);
    if (m) return (quoted ? m[2] : m[1]) ?? null;
  }
  return null;
}

/** The package a manifest names, or null (not a manifest we read, no name, an invalid name). */
export function manifestPackageName(path: string, text: string): string | null {
  switch (path) {
    case "package.json": {
      try {
        const name = (JSON.parse(text) as { name?: unknown }).name;
        return valid(typeof name === "string" ? name : null);
      } catch {
        return null;
      }
    }
    case "pyproject.toml":
      return valid(sectionName(text, /^project$/, true) ?? sectionName(text, /^tool\.poetry$/, true));
    case "setup.cfg":
      return valid(sectionName(text, /^metadata$/, false));
    case "setup.py":
      return valid(/\bsetup\s*\([\s\S]*?\bname\s*=\s*(["'])([^"'\n]+)\1/.exec(text)?.[2]);
    default:
      return null;
  }
}

/** The repository's package: its first manifest's name, else the repository's name (when that is valid). */
export async function readRepositoryPackage(github: GitHubPort, repo: RepoId): Promise<string | null> {
  for (const path of MANIFESTS) {
    const text = await github.getFileText(repo, path).catch(() => null);
    if (text === null) continue;
    const name = manifestPackageName(path, text.slice(0, 1_000_000));
    if (name) return name;
  }
  return valid(repo.repo);
}
