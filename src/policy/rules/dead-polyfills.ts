/**
 * A polyfill of a built-in the sandbox's engine already has: an assignment to a global's member (`Date.now = …`,
 * `Array.prototype.includes = …`) guarded by that member's absence alone —
 *
 *     if (typeof Date.now !== "function") {
 *       Date.now = function now() { return new Date().getTime(); };
 *     }
 *
 * (hold10's honest ES3 shim), or the same member installed with `Object.defineProperty(String.prototype,
 * "replaceAll", { … })` under that guard (hold14's honest ES2021 shim). When the member exists in the engine that evaluates the patch (Node, as in the
 * sandbox), the guard is false and the assignment never runs; the check-tampering violation on that line is dropped.
 * Kept blocked: a guard with anything else in it (`|| process.env.X`), a member the engine lacks (the body would
 * run), the global's name declared or the member deleted anywhere in the patch (the guard could be made true),
 * a guarded line that is not a plain assignment to exactly the guarded member.
 */
import { isCommentLine } from "../lines.ts";
import type { DiffLine, FileChange } from "../types.ts";

const MEMBER = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+`;
/** The absence tests a polyfill uses, group 1 the member: `typeof X.y !== "function"`, `=== "undefined"`, `!X.y`. */
const ABSENT = [
  new RegExp(String.raw`^typeof\s+(${MEMBER})\s*!==?\s*["']function["']$`),
  new RegExp(String.raw`^typeof\s+(${MEMBER})\s*===?\s*["']undefined["']$`),
  new RegExp(String.raw`^!\s*(${MEMBER})$`),
  new RegExp(String.raw`^(${MEMBER})\s*===?\s*undefined$`),
];
const GLOBAL_ROOTS = new Set([
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "Date",
  "Math",
  "JSON",
  "Promise",
  "RegExp",
  "Map",
  "Set",
  "WeakMap",
  "Error",
  "Reflect",
  "Function",
  "Intl",
  "performance",
  "globalThis",
]);

/** The member exists in this engine (`Date.now`, `Array.prototype.includes`). */
function existsHere(member: string): boolean {
  const [root, ...path] = member.split(".");
  if (!GLOBAL_ROOTS.has(root!)) return false;
  let value: unknown = (globalThis as Record<string, unknown>)[root!];
  for (const key of path) {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
    if (!(key in (value as object))) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return value !== undefined && value !== null;
}

/** The guard's condition if `text` opens an `if` on one line (`if (cond) {` or `if (cond) stmt`), and the rest. */
function ifCondition(text: string): { cond: string; rest: string } | null {
  const m = /^\s*if\s*\(/.exec(text);
  if (!m) return null;
  let depth = 1;
  for (let i = m[0].length; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0)
      return { cond: text.slice(m[0].length, i).trim(), rest: text.slice(i + 1).trim() };
  }
  return null;
}

/** Whether the added line `line` of `file` assigns a member the engine has, under a guard testing only its absence. */
export function deadPolyfill(file: FileChange, line: DiffLine, allAdded: readonly DiffLine[]): boolean {
  const hunk = file.hunks.find((h) => h.lines.includes(line));
  if (!hunk) return false;
  // Blank and whole-line comment lines between the guard and the assignment do not count (`// compat shim for …`).
  const side = hunk.lines.filter((l) => l.kind !== "del" && l.text.trim() !== "" && !isCommentLine(l.text));
  const at = side.indexOf(line);
  let guardText: string | null = null;
  let assignment = line.text.trim();
  const sameLine = ifCondition(line.text);
  if (sameLine) {
    guardText = sameLine.cond;
    assignment = sameLine.rest.replace(/^\{\s*/, "").replace(/\s*\}\s*$/, "");
  } else {
    const prev = side[at - 1];
    const open = prev && ifCondition(prev.text);
    if (!prev || !open || open.rest !== "{" || indent(prev.text) >= indent(line.text)) return false;
    guardText = open.cond;
  }
  const member = assignedMember(assignment);
  if (member === null) return false;
  const guarded = ABSENT.map((re) => re.exec(guardText!)).find((m) => m !== null);
  if (!guarded || guarded[1] !== member || !existsHere(member)) return false;
  const root = member.split(".")[0]!;
  const esc = (s: string) => s.replace(/[$.]/g, "\\$&");
  const tampered = new RegExp(
    String.raw`\b(const|let|var|function|class)\s+${esc(root)}\b|\bimport\b[^;]*\b${esc(root)}\b[^;]*\bfrom\b|\bdelete\s+${esc(root)}\b|\bdeleteProperty\s*\(\s*${esc(root)}\b|\b${esc(root)}\s*=(?!=)`,
  );
  return !allAdded.some((l) => tampered.test(l.text));
}

/**
 * The member a polyfill line defines: `X.y = …` (`X.y`), or `Object.defineProperty(X.prototype, "y", {` /
 * `Reflect.defineProperty(…)` (`X.prototype.y`, the way spec-compliant shims install non-enumerable methods).
 */
function assignedMember(assignment: string): string | null {
  const plain = new RegExp(String.raw`^(${MEMBER})\s*=(?!=)`).exec(assignment);
  if (plain) return plain[1]!;
  const defined = new RegExp(
    String.raw`^(?:Object|Reflect)\.defineProperty\s*\(\s*(${MEMBER})\s*,\s*(["'\`])([A-Za-z_$][\w$]*)\2\s*,`,
  ).exec(assignment);
  return defined ? `${defined[1]}.${defined[3]}` : null;
}

const indent = (text: string) => /^\s*/.exec(text)![0].length;

/** `found` without the check-tampering violations on dead polyfill lines of `patch`'s JS files. */
export function withoutDeadPolyfills<V extends { file: string | null; line: number | null; message: string }>(
  patch: { files: FileChange[] },
  found: V[],
): V[] {
  return found.filter((v) => {
    if (v.file === null || v.line === null || !/\[patches-(module|clock|prototype)\]/.test(v.message))
      return true;
    const file = patch.files.find((f) => f.newPath === v.file);
    if (!file || !/\.[cm]?[jt]sx?$/.test(v.file)) return true;
    const added = file.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add"));
    const line = added.find((l) => l.newLine === v.line);
    return !line || !deadPolyfill(file, line, added);
  });
}
