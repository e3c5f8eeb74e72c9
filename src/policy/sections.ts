/**
 * Which section of a manifest a changed line belongs to, from the hunk alone (the gate is pure: it never reads
 * the repository). JSON manifests are read by indentation (the enclosing `"key": {` lines in the context);
 * TOML manifests by the nearest `[table]` header and any open `key = [` array above the line.
 */
import type { DiffLine, FileChange } from "./types.ts";

export interface ChangedLineSite {
  line: DiffLine;
  /** The file's lines on the line's own side (old side for removals), up to and including the line. */
  before: string[];
}

/**
 * Every changed line with the lines visible above it on its side of the hunk. With `baseText` (the file before
 * the patch, when the caller knows it), the base file's lines above each hunk come first, so that a section
 * opened far above the hunk is still known.
 */
export function changedLineSites(file: FileChange, baseText?: string): ChangedLineSite[] {
  const out: ChangedLineSite[] = [];
  const baseLines = baseText === undefined ? null : baseText.split("\n");
  for (const h of file.hunks) {
    const above = baseLines === null ? [] : baseLines.slice(0, Math.max(0, h.oldStart - 1));
    const oldSide: string[] = [...above];
    const newSide: string[] = [...above];
    for (const l of h.lines) {
      if (l.kind !== "add") oldSide.push(l.text);
      if (l.kind !== "del") newSide.push(l.text);
      if (l.kind === "add") out.push({ line: l, before: [...newSide] });
      if (l.kind === "del") out.push({ line: l, before: [...oldSide] });
    }
  }
  return out;
}

/**
 * A JSON key as its reader sees it: escapes decoded (`"p\u0061ths"` is `paths` to TypeScript and `"\u006aest"` is
 * `jest` to Jest: red team 27). Text that is not a valid JSON string is kept as written.
 */
export function jsonKeyText(raw: string): string {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

const indentOf = (s: string) => (/^[ \t]*/.exec(s)?.[0] ?? "").replace(/\t/g, "    ").length;

/**
 * Keys enclosing the last line of `before`, innermost first, including the line's own key. `rootSeen` is true
 * when the scan reached the document's top-level `{` (so the outermost key is known to be top-level).
 */
export function jsonEnclosingKeys(before: string[]): { keys: string[]; rootSeen: boolean } {
  const target = before[before.length - 1] ?? "";
  const keys: string[] = [];
  const own = /^\s*"((?:[^"\\]|\\.)*)"\s*:/.exec(target);
  if (own) keys.push(jsonKeyText(own[1]!));
  let indent = indentOf(target);
  for (let j = before.length - 2; j >= 0 && indent > 0; j--) {
    const l = before[j]!;
    if (l.trim() === "") continue;
    const ind = indentOf(l);
    if (ind >= indent) continue;
    const opener = /^\s*"((?:[^"\\]|\\.)*)"\s*:\s*[{[]\s*$/.exec(l);
    if (opener) keys.push(jsonKeyText(opener[1]!));
    else if (ind === 0 && /^\s*[{[]\s*$/.test(l)) return { keys, rootSeen: true };
    indent = ind;
  }
  return { keys, rootSeen: false };
}

/** A value that looks like a dependency version or source (semver range, tag, URL, workspace/file/git spec). */
export function looksLikeVersionSpec(value: string): boolean {
  return /^(\^|~|[<>]=?|=|\*$|x$|\d|v\d|latest$|next$|beta$|canary$|workspace:|npm:|file:|link:|portal:|patch:|catalog:|git(\+\w+)?:|github:|gitlab:|bitbucket:|https?:\/\/)/.test(
    value.trim(),
  );
}

/** `"name": "value"` → value, for JSON entry lines. */
export function jsonStringValue(text: string): string | null {
  const m = /^\s*"(?:[^"\\]|\\.)*"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,?\s*$/.exec(text);
  return m ? m[1]! : null;
}

export interface TomlSite {
  /** The nearest `[table]` or `[[array.of.tables]]` header above (or on) the line; null when not visible. */
  table: string | null;
  /** The key of an open multi-line array (`key = [`) the line sits in, or the line's own `key =`. */
  key: string | null;
}

export function tomlSite(before: string[]): TomlSite {
  const target = before[before.length - 1] ?? "";
  const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
  const ownHeader = header.exec(target);
  if (ownHeader) return { table: unquoteToml(ownHeader[1]!), key: null };
  const ownKey = /^\s*([\w"'.-]+)\s*=/.exec(target);
  let key: string | null = ownKey ? unquoteToml(ownKey[1]!) : null;
  let arrayClosed = false;
  for (let j = before.length - 2; j >= 0; j--) {
    const l = before[j]!;
    const h = header.exec(l);
    if (h) return { table: unquoteToml(h[1]!), key };
    if (key === null && !arrayClosed) {
      if (/^\s*\]/.test(l)) arrayClosed = true;
      const opener = /^\s*([\w"'.-]+)\s*=\s*\[[^\]]*$/.exec(l);
      if (opener) key = unquoteToml(opener[1]!);
    }
  }
  return { table: null, key };
}

function unquoteToml(s: string): string {
  return s
    .split(".")
    .map((p) => p.trim().replace(/^["']|["']$/g, ""))
    .join(".");
}
