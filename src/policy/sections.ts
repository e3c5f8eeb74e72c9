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

/** Lines the site walkers have stepped through (base and hunk lines), since the process started: what their bound
 * is measured by. */
export const siteWalkStats = { steps: 0 };

/** A reader's state, carried forward one line at a time: `step` must not mutate `state` (sides fork from it). */
export interface LineFold<S> {
  start: S;
  step(state: S, text: string): S;
}

export interface FoldedSite<S> {
  line: DiffLine;
  /** What the lines above the line, on its own side, left (the base's lines above the hunk first, when known). */
  state: S;
}

/**
 * Every changed line with the state `fold` reaches over the lines above it: the shared, linear form of
 * `changedLineSites`. The base text is walked once (states kept per line, so hunks in any order cost nothing more),
 * and each hunk line once per side; a fold whose step is bounded (`MAX_SITE_DEPTH`) makes the whole read linear in
 * the patch and base text.
 */
export function foldChangedLines<S>(file: FileChange, fold: LineFold<S>, baseText?: string): FoldedSite<S>[] {
  const out: FoldedSite<S>[] = [];
  const base = baseText === undefined ? null : baseText.split("\n");
  const prefix: S[] = [fold.start];
  const stateAt = (n: number): S => {
    if (base === null) return fold.start;
    const end = Math.min(n, base.length);
    while (prefix.length <= end) {
      const i = prefix.length - 1;
      siteWalkStats.steps++;
      prefix.push(fold.step(prefix[i]!, base[i]!));
    }
    return prefix[end]!;
  };
  for (const h of file.hunks) {
    let oldSide = stateAt(Math.max(0, h.oldStart - 1));
    let newSide = oldSide;
    for (const l of h.lines) {
      if (l.kind === "add") out.push({ line: l, state: newSide });
      if (l.kind === "del") out.push({ line: l, state: oldSide });
      if (l.kind === "ctx" && oldSide === newSide) {
        siteWalkStats.steps++;
        oldSide = newSide = fold.step(oldSide, l.text);
        continue;
      }
      if (l.kind !== "add") {
        siteWalkStats.steps++;
        oldSide = fold.step(oldSide, l.text);
      }
      if (l.kind !== "del") {
        siteWalkStats.steps++;
        newSide = fold.step(newSide, l.text);
      }
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

/** A line of JSON that opens a level, kept while it encloses the lines below it (a persistent stack: forks share it). */
interface JsonLevel {
  indent: number;
  /** The key of a `"key": {` / `"key": [` line; null for any other line. */
  key: string | null;
  /** A top-level `{` or `[` line (the document's root). */
  root: boolean;
  depth: number;
  below: JsonLevel | null;
}

/** What the JSON lines above a line leave open: the nearest line of each smaller indentation, innermost first. */
export interface JsonState {
  top: JsonLevel | null;
  /** More levels than `MAX_SITE_DEPTH` were open: the file is too deep to judge line by line. */
  tooDeep: boolean;
}

/**
 * Levels of nesting (by indentation) the walkers keep, at most: each line costs at most this many steps, so a
 * reader's cost is linear in the patch and base text (red team 27: reading every line above each changed line was
 * quadratic). A manifest nested deeper is refused as too deep to judge.
 */
export const MAX_SITE_DEPTH = 256;

const JSON_OPENER = /^\s*"((?:[^"\\]|\\.)*)"\s*:\s*[{[]\s*$/;

export const jsonFold: LineFold<JsonState> = {
  start: { top: null, tooDeep: false },
  step(state, text) {
    if (state.tooDeep || text.trim() === "") return state;
    const indent = indentOf(text);
    let top = state.top;
    while (top !== null && top.indent >= indent) {
      siteWalkStats.steps++;
      top = top.below;
    }
    const depth = (top?.depth ?? 0) + 1;
    if (depth > MAX_SITE_DEPTH) return { top: null, tooDeep: true };
    const opener = JSON_OPENER.exec(text);
    const root = indent === 0 && /^\s*[{[]\s*$/.test(text);
    return {
      top: { indent, key: opener ? jsonKeyText(opener[1]!) : null, root, depth, below: top },
      tooDeep: false,
    };
  },
};

export interface JsonSite {
  /** Keys enclosing the line, innermost first, including the line's own key. */
  keys: string[];
  /** The scan reached the document's top-level `{` (so the outermost key is known to be top-level). */
  rootSeen: boolean;
  tooDeep: boolean;
}

/** The JSON site of `text` given the state the lines above it left. */
export function jsonSiteAt(state: JsonState, text: string): JsonSite {
  const keys: string[] = [];
  const own = /^\s*"((?:[^"\\]|\\.)*)"\s*:/.exec(text);
  if (own) keys.push(jsonKeyText(own[1]!));
  let indent = indentOf(text);
  for (let l = state.top; l !== null && indent > 0; l = l.below) {
    siteWalkStats.steps++;
    if (l.indent >= indent) continue;
    if (l.key !== null) keys.push(l.key);
    else if (l.root) return { keys, rootSeen: true, tooDeep: state.tooDeep };
    indent = l.indent;
  }
  return { keys, rootSeen: false, tooDeep: state.tooDeep };
}

/**
 * Keys enclosing the last line of `before`, innermost first, including the line's own key. `rootSeen` is true
 * when the scan reached the document's top-level `{` (so the outermost key is known to be top-level).
 */
export function jsonEnclosingKeys(before: string[]): JsonSite {
  let state = jsonFold.start;
  for (let j = 0; j < before.length - 1; j++) state = jsonFold.step(state, before[j]!);
  return jsonSiteAt(state, before[before.length - 1] ?? "");
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

const TOML_HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const TOML_OWN_KEY = /^\s*([\w"'.-]+)\s*=/;
const TOML_ARRAY_OPENER = /^\s*([\w"'.-]+)\s*=\s*\[[^\]]*$/;

/** What the TOML/INI lines above a line leave open: the table, an open `key = [` array, the last unindented line. */
export interface TomlState {
  table: string | null;
  arrayKey: string | null;
  /** The nearest line above that starts in column one (an INI continuation line's key). */
  unindented: string | null;
}

export const tomlFold: LineFold<TomlState> = {
  start: { table: null, arrayKey: null, unindented: null },
  step(state, text) {
    const unindented = /^\S/.test(text) ? text : state.unindented;
    const h = TOML_HEADER.exec(text);
    if (h) return { table: unquoteToml(h[1]!), arrayKey: null, unindented };
    if (/^\s*\]/.test(text)) return { table: state.table, arrayKey: null, unindented };
    const opener = TOML_ARRAY_OPENER.exec(text);
    if (opener) return { table: state.table, arrayKey: unquoteToml(opener[1]!), unindented };
    return unindented === state.unindented ? state : { ...state, unindented };
  },
};

/** The TOML site of `text` given the state the lines above it left. */
export function tomlSiteAt(state: TomlState, text: string): TomlSite {
  const ownHeader = TOML_HEADER.exec(text);
  if (ownHeader) return { table: unquoteToml(ownHeader[1]!), key: null };
  const ownKey = TOML_OWN_KEY.exec(text);
  return { table: state.table, key: ownKey ? unquoteToml(ownKey[1]!) : state.arrayKey };
}

export function tomlSite(before: string[]): TomlSite {
  let state = tomlFold.start;
  for (let j = 0; j < before.length - 1; j++) state = tomlFold.step(state, before[j]!);
  return tomlSiteAt(state, before[before.length - 1] ?? "");
}

function unquoteToml(s: string): string {
  return s
    .split(".")
    .map((p) => p.trim().replace(/^["']|["']$/g, ""))
    .join(".");
}
