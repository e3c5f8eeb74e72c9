/**
 * Python test methods a test class inherits (a mixin or a shared contract class: `class TestX(Contract,
 * unittest.TestCase): pass`, the methods in `tests/contract.py`). The anti-gaming run copies the failing test's
 * definition into a neutral file; when the class only inherits it, there is nothing to copy in the class's own
 * file, and before this the whole anti-gaming run was "not made" and the verdict VERIFIED with a note (hold8's
 * py-queue: six gaming patches through). Here the inherited method is found in the base classes — in the same
 * file, or in the module a base is imported from — and its text is inlined into the class, with an import of the
 * defining module's names it uses, so the copy, its mutated twins and the runner-free run work as for a method
 * defined in place.
 *
 * Pure but for reading files through the port.
 */
import { escapeRegExp } from "../core/regexp.ts";
import { codeMask, locatePython, matchBracket, splitTopLevel } from "./tripwire-source.ts";

export interface InlinedMethod {
  /** The test file's source with the method inlined into the class (and the imports it needs). */
  source: string;
  /** Where the method was found (`file::Class`). */
  from: string;
}

interface ClassInfo {
  /** Line index of the `class` line. */
  line: number;
  indent: number;
  /** Indentation of the body's first statement. */
  bodyIndent: string;
  bases: string[];
  /** Offset just after the block's last line. */
  end: number;
}

function lineStarts(src: string): number[] {
  const starts: number[] = [];
  let off = 0;
  for (const l of src.split("\n")) {
    starts.push(off);
    off += l.length + 1;
  }
  return starts;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The class `name` defined in `src` (its bases as written, its block's end), or null. */
export function pythonClass(src: string, name: string): ClassInfo | null {
  const mask = codeMask(src, "python");
  const lines = src.split("\n");
  const starts = lineStarts(src);
  const re = new RegExp(`^(\\s*)class\\s+${escapeRegExp(name)}\\s*([(:])`);
  const k = lines.findIndex((l, i) => re.test(l) && mask[starts[i]! + indentOf(l)] === 1);
  if (k === -1) return null;
  const indent = indentOf(lines[k]!);
  const m = re.exec(lines[k]!)!;
  let bases: string[] = [];
  if (m[2] === "(") {
    const open = starts[k]! + m[0].length - 1;
    const close = matchBracket(src, mask, open);
    if (close === -1) return null;
    bases = splitTopLevel(src, mask, open + 1, close)
      .map(([a, b]) => src.slice(a, b).trim())
      .filter((b) => b !== "" && !b.includes("="));
  }
  let last = k;
  let bodyIndent = "";
  for (let j = k + 1; j < lines.length; j++) {
    const t = lines[j]!;
    if (t.trim() === "") continue;
    if (mask[starts[j]! + indentOf(t)] === 1 && indentOf(t) <= indent) break;
    if (bodyIndent === "" && mask[starts[j]! + indentOf(t)] === 1) bodyIndent = t.slice(0, indentOf(t));
    last = j;
  }
  if (bodyIndent === "") return null;
  return { line: k, indent, bodyIndent, bases, end: starts[last]! + lines[last]!.length };
}

/** Where a module-level name comes from: `from M import A as B` → B: { module: M, name: A }. */
function importedNames(src: string): Map<string, { module: string; name: string | null }> {
  const out = new Map<string, { module: string; name: string | null }>();
  const flat = src.replace(/\(([^()]*)\)/g, (_, inner: string) => inner.replace(/\s*\n\s*/g, " "));
  for (const line of flat.split("\n")) {
    const from = /^from\s+([.\w]+)\s+import\s+(.+?)\s*(#.*)?$/.exec(line);
    if (from) {
      for (const part of from[2]!.split(",")) {
        const [orig, alias] = part
          .trim()
          .split(/\s+as\s+/)
          .map((s) => s.trim());
        if (orig && /^\w+$/.test(orig)) out.set(alias ?? orig, { module: from[1]!, name: orig });
      }
      continue;
    }
    const imp = /^import\s+(.+?)\s*(#.*)?$/.exec(line);
    if (imp) {
      for (const part of imp[1]!.split(",")) {
        const [mod, alias] = part
          .trim()
          .split(/\s+as\s+/)
          .map((s) => s.trim());
        if (mod) out.set(alias ?? mod, { module: mod, name: null });
      }
    }
  }
  return out;
}

/** Names bound at the top level of a module (definitions, imports, assignments). */
function topLevelNames(src: string): Set<string> {
  const names = new Set<string>();
  for (const [k, v] of importedNames(src)) {
    if (v.name !== null || !k.includes(".")) names.add(k);
    else names.add(k.split(".")[0]!);
  }
  for (const m of src.matchAll(/^(?:async\s+def|def|class)\s+(\w+)/gm)) names.add(m[1]!);
  for (const m of src.matchAll(/^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=\n]*)?=(?!=)/gm))
    for (const n of m[1]!.split(",")) names.add(n.trim());
  return names;
}

function dirOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i === -1 ? "" : p.slice(0, i + 1);
}

/** The file a module name points to, from the importing file; with the dotted name to import it by. */
async function resolveModule(
  module: string,
  fromFile: string,
  readFile: (p: string) => Promise<string | null>,
): Promise<{ file: string; text: string; dotted: string } | null> {
  const candidates: { path: string; dotted: string }[] = [];
  if (module.startsWith(".")) {
    const dots = /^\.+/.exec(module)![0].length;
    let base = dirOf(fromFile);
    for (let i = 1; i < dots; i++) base = dirOf(base.replace(/\/$/, ""));
    const rest = module.slice(dots).replace(/\./g, "/");
    const stem = `${base}${rest}`.replace(/\/$/, "");
    const dotted = stem.replace(/\//g, ".");
    candidates.push({ path: `${stem}.py`, dotted }, { path: `${stem}/__init__.py`, dotted });
  } else {
    const rel = module.replace(/\./g, "/");
    // The repository root, the test file's own directory (pytest's prepend mode, no __init__.py) and src/.
    for (const root of ["", dirOf(fromFile), "src/"]) {
      const dotted = module;
      candidates.push({ path: `${root}${rel}.py`, dotted }, { path: `${root}${rel}/__init__.py`, dotted });
    }
  }
  for (const c of candidates) {
    const text = await readFile(c.path);
    if (text !== null) return { file: c.path, text, dotted: c.dotted };
  }
  return null;
}

/** Identifiers the method's code uses (not attributes, not in strings or comments). */
function usedNames(text: string): Set<string> {
  const mask = codeMask(text, "python");
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_]\w*/g)) {
    const i = m.index;
    if (mask[i] !== 1) continue;
    if (i > 0 && (text[i - 1] === "." || /\w/.test(text[i - 1]!))) continue;
    out.add(m[0]);
  }
  return out;
}

interface Found {
  text: string;
  file: string;
  className: string;
  dotted: string | null;
  methodStart: number;
  methodEnd: number;
}

async function findInBases(
  src: string,
  file: string,
  dotted: string | null,
  className: string,
  name: string,
  readFile: (p: string) => Promise<string | null>,
  depth: number,
): Promise<Found | null> {
  if (depth > 6) return null;
  const info = pythonClass(src, className);
  if (!info) return null;
  const imports = importedNames(src);
  for (const base of info.bases) {
    let text = src;
    let where = file;
    let mod = dotted;
    let cls = base;
    if (!/^\w+$/.test(base)) {
      // `module.Class`: the module imported as `module` (or `a.b` for `import a.b`).
      const dot = base.lastIndexOf(".");
      const target = imports.get(base.slice(0, dot));
      if (!target || target.name !== null) continue;
      const r = await resolveModule(target.module, file, readFile);
      if (!r) continue;
      [text, where, mod, cls] = [r.text, r.file, depth === 0 ? target.module : r.dotted, base.slice(dot + 1)];
    } else if (!pythonClass(src, base)) {
      const target = imports.get(base);
      if (!target || target.name === null) continue;
      const r = await resolveModule(target.module, file, readFile);
      if (!r) continue;
      // From the test file itself, the module as it is written there (a relative import works from the copy,
      // which lies in the same directory); deeper, the name derived from the path.
      [text, where, mod, cls] = [r.text, r.file, depth === 0 ? target.module : r.dotted, target.name];
    }
    const loc = locatePython(text, name, cls);
    if (loc) {
      return { text, file: where, className: cls, dotted: mod, methodStart: loc.start, methodEnd: loc.end };
    }
    const deeper = await findInBases(text, where, mod, cls, name, readFile, depth + 1);
    if (deeper) return deeper;
  }
  return null;
}

/**
 * The source of `file` with the test method `name`, which `className` inherits, inlined into that class; null when
 * the class defines it itself, or the method is not found in its bases (the anti-gaming run then says the test
 * is not covered).
 */
export async function inlineInheritedPython(
  src: string,
  file: string,
  name: string,
  className: string,
  readFile: (p: string) => Promise<string | null>,
): Promise<InlinedMethod | null> {
  if (locatePython(src, name, className)) return null;
  const info = pythonClass(src, className);
  if (!info) return null;
  const found = await findInBases(src, file, null, className, name, readFile, 0);
  if (!found) return null;
  const method = found.text.slice(found.methodStart, found.methodEnd);
  const lines = method.split("\n");
  const from = indentOf(lines[0]!);
  const body = lines
    .map((l) =>
      l.trim() === "" ? "" : info.bodyIndent + (indentOf(l) >= from ? l.slice(from) : l.trimStart()),
    )
    .join("\n");
  let out = `${src.slice(0, info.end)}\n\n${body}\n${src.slice(info.end)}`;
  if (found.file !== file && found.dotted && info.indent === 0) {
    // The defining module's names the method uses (a helper, a class under test), unless this file binds them.
    const mine = topLevelNames(src);
    const theirs = topLevelNames(found.text);
    const need = [...usedNames(method)]
      .filter((n) => theirs.has(n) && !mine.has(n) && n !== className)
      .sort();
    if (need.length > 0) {
      const at = lineStarts(out)[info.line]!;
      out = `${out.slice(0, at)}from ${found.dotted} import ${need.join(", ")}  # inherited test's names\n${out.slice(at)}`;
    }
  }
  return { source: out, from: `${found.file}::${found.className}` };
}
