/**
 * Shared helpers of the rules: which lines a patch really adds, what language a file is, glob matching.
 */
import { ConfigError } from "../core/errors.ts";
import { GlobError, globMatcher } from "../core/glob.ts";
import { normalizeForMatch } from "./git-path.ts";
import type { DiffLine, FileChange } from "./types.ts";

/**
 * Added lines that are new content: a line whose trimmed text was also removed from the same file is a move or
 * a re-indent, not something the patch introduces (each removed line excuses one added line).
 */
export function newlyAddedLines(file: FileChange): DiffLine[] {
  const removed = new Map<string, number>();
  for (const h of file.hunks) {
    for (const l of h.lines) {
      if (l.kind === "del") removed.set(l.text.trim(), (removed.get(l.text.trim()) ?? 0) + 1);
    }
  }
  const out: DiffLine[] = [];
  for (const h of file.hunks) {
    for (const l of h.lines) {
      if (l.kind !== "add") continue;
      const key = l.text.trim();
      const n = removed.get(key) ?? 0;
      if (n > 0) removed.set(key, n - 1);
      else out.push(l);
    }
  }
  return out;
}

export type Language =
  | "python"
  | "js"
  | "go"
  | "rust"
  | "java"
  | "ruby"
  | "csharp"
  | "php"
  | "shell"
  | "other";

const EXT_LANG: Record<string, Language> = {
  py: "python",
  pyi: "python",
  js: "js",
  jsx: "js",
  mjs: "js",
  cjs: "js",
  ts: "js",
  tsx: "js",
  mts: "js",
  cts: "js",
  vue: "js",
  svelte: "js",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "java",
  kts: "java",
  scala: "java",
  groovy: "java",
  rb: "ruby",
  cs: "csharp",
  php: "php",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  ksh: "shell",
};

export function languageOf(path: string): Language {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return "other";
  return EXT_LANG[base.slice(dot + 1).toLowerCase()] ?? "other";
}

/** Files whose lines are shell commands run by tools: where `|| true` and `exit 0` mask failures. */
export function isScriptFile(path: string): boolean {
  const base = (path.slice(path.lastIndexOf("/") + 1) || path).toLowerCase();
  return (
    languageOf(path) === "shell" ||
    base === "makefile" ||
    base === "gnumakefile" ||
    base.endsWith(".mk") ||
    base === "justfile" ||
    base === "dockerfile" ||
    base.endsWith(".dockerfile") ||
    base === "package.json" ||
    base === "composer.json" ||
    base === "tox.ini" ||
    base === "noxfile.py" ||
    base === "setup.cfg" ||
    base === "pytest.ini" ||
    base === "pyproject.toml" ||
    base === "taskfile.yml" ||
    base.endsWith(".yml") ||
    base.endsWith(".yaml") ||
    base.endsWith(".ps1") ||
    base.endsWith(".bat") ||
    base.endsWith(".cmd")
  );
}

/**
 * A line that is only a comment (the patterns that look for code should not fire on it). Given the file's language,
 * a JavaScript line that opens with a private class member (`#count = 0;`, `static #n = 1;`, `#reset() {`) is code
 * (f13o: hold21's per-instance count was read as a comment); without it, `#` opens a comment as in Python or shell.
 */
export function isCommentLine(text: string, lang?: Language): boolean {
  // `#[attr]` and `#!` are Rust attributes / shebangs, not comments; `--` would hide shell flags.
  if (!/^\s*(#(?![[!])|\/\/|\/\*|\*(\s|\/|$)|<!--)/.test(text)) return false;
  return !(lang === "js" && /^\s*(?:static\s+)?#[A-Za-z_$][\w$]*\s*(?:[=(;]|$)/.test(text));
}

/** Added lines of a file's new side, comment lines dropped (read in the file's language: a JS `#field` is code). */
export function addedCodeLines(file: FileChange): DiffLine[] {
  const lang = languageOf(file.newPath ?? file.oldPath ?? "");
  return file.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add" && !isCommentLine(l.text, lang)));
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const cache = new Map<string, (p: string) => boolean>();

/** Case-insensitive glob matching that sees dot files; the path is normalised first (`./`, `//`). */
export function matchesAny(globs: readonly string[], path: string): boolean {
  if (globs.length === 0) return false;
  const key = globs.join("\u0000");
  let m = cache.get(key);
  if (m === undefined) {
    try {
      m = globMatcher(globs, { dot: true, nocase: true });
    } catch (e) {
      if (!(e instanceof GlobError)) throw e;
      throw new ConfigError(
        `policy: ${e.message}`,
        "use plain globs (`*`, `**`, `?`, `[…]`, `{a,b}`) in the `policy:` section",
      );
    }
    cache.set(key, m);
  }
  return m(normalizeForMatch(path));
}

/** Every repository path a file section touches or names (old and new side, and every header spelling). */
export function touchedPaths(file: FileChange): string[] {
  const set = new Set<string>();
  if (file.oldPath !== null) set.add(file.oldPath);
  if (file.newPath !== null) set.add(file.newPath);
  for (const h of file.headerPaths) if (h.path !== null) set.add(h.path);
  return [...set];
}

export function truncate(s: string, max = 80): string {
  const t = s.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
