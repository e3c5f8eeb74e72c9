/**
 * The package of the repository, used by a report without an import (issue 12, hold5): a report filed
 * in `avoidwork/filesize.js` calls `filesize(…)`, one in `sindresorhus/pretty-bytes` `prettyBytes(…)`, a
 * superjson session `sj.serialize(…)`, a tabulate one `tabulate(…)`. The reader knows the package; the snippet
 * never says where the name comes from.
 *
 * JavaScript: the names the snippet uses as a call or a member base but never binds are bound at run time, on
 * `globalThis` (so a local binding the scan missed still wins, exactly as for any free identifier), each to what
 * the package gives under that name: its named export, else the module itself (its default export) when the
 * name is the package's own (camelCase of the name, a default import the report writes elsewhere) or when the
 * module has every member the snippet reads from it (`sj.serialize`, `sj.deserialize`). A name the package does
 * not give stays undefined, and the run fails as the report's code would (ReferenceError): a wrong guess never
 * prints the reported value. Two more places, each only when nothing else could be meant: a function of that
 * very name deeper in the export tree, found once there (`number_format(…)` for a library exporting
 * `php.strings.number_format`), and a package that is one anonymous function, for the only name the snippet
 * calls without a binding (`format(…)` for `module.exports = function (pattern, value) {…}`).
 *
 * Python: `from pkg import x` lines the report writes in another block, `import pkg` for `pkg.x`, and
 * `from pkg import pkg` for a call of the module's name (`tabulate(...)`); a wrong guess fails to import, visibly.
 */
import { NODE_BUILTINS, PYTHON_IMPORT_TO_PACKAGE } from "./known-modules.ts";
import { sameProduct } from "./versions.ts";

/** One free name to bind: the members the snippet reads from it, whether it is the package's own name. */
export interface FreeBinding {
  name: string;
  members: string[];
  /** Called as a function (`x(…)`), or only used as an object (`x.y`). */
  called: boolean;
  /** The package's own binding: camelCase of its name, or a default import the report writes elsewhere. */
  own: boolean;
}

const NOT_FREE = new Set(
  (
    "if for while switch catch function return typeof await new delete void throw yield import super with do " +
    "else in of instanceof case async require module exports __dirname __filename this arguments let const " +
    "var class extends static get set true false null undefined _echo"
  ).split(" "),
);

/** Parameter names of functions and arrows, and catch bindings (a scan, good enough for snippets). */
export function jsParameterNames(scan: string): Set<string> {
  const names = new Set<string>();
  const add = (list: string) => {
    for (const p of list.split(",")) {
      const n = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(p)?.[1];
      if (n) names.add(n);
    }
  };
  for (const m of scan.matchAll(/\bfunction\*?\s*[\w$]*\s*\(([^()]*)\)/g)) add(m[1]!);
  for (const m of scan.matchAll(/\(([^()]*)\)\s*(?::\s*[\w$<>[\]|, ]+)?\s*=>/g)) add(m[1]!);
  for (const m of scan.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*=>/g)) names.add(m[1]!);
  for (const m of scan.matchAll(/\bcatch\s*\(\s*([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
  // Method shorthand and class methods: `name(a, b) {`.
  for (const m of scan.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*\s*\(([^()]*)\)\s*\{/g)) add(m[1]!);
  return names;
}

/**
 * Names assigned at the start of an unindented line without a declaration (`x = sj.serialize(…)` typed at a
 * REPL prompt), each never declared anywhere in the snippet.
 */
export function jsUndeclaredAssignments(scan: string, bound: Set<string>): string[] {
  const out: string[] = [];
  for (const m of scan.matchAll(/^(?:_echo\()?([A-Za-z_$][\w$]*)\s*=(?![=>])/gm)) {
    const n = m[1]!;
    if (bound.has(n) || NOT_FREE.has(n) || out.includes(n)) continue;
    if (new RegExp(`\\b(?:let|const|var)\\b[^;]*(?<![\\w$.])${n.replace(/\$/g, "\\$")}\\b`).test(scan))
      continue;
    out.push(n);
  }
  return out;
}

/** Default-import names the report gives the package anywhere (`import sj from 'superjson'`, a `require`). */
export function jsDefaultAliases(texts: string[], pkg: string): Set<string> {
  const names = new Set<string>();
  const spec = pkg.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const res = [
    new RegExp(`\\bimport\\s+([A-Za-z_$][\\w$]*)\\s*(?:,\\s*\\{[^}]*\\})?\\s*from\\s*['"]${spec}['"]`, "g"),
    new RegExp(`\\bimport\\s+\\*\\s+as\\s+([A-Za-z_$][\\w$]*)\\s+from\\s*['"]${spec}['"]`, "g"),
    new RegExp(
      `\\b(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*require\\(\\s*['"]${spec}['"]\\s*\\)`,
      "g",
    ),
  ];
  for (const t of texts) for (const re of res) for (const m of t.matchAll(re)) names.add(m[1]!);
  return names;
}

/**
 * The snippet's free names that may be the package's binding: used as a call (`x(…)`, `new X(…)`, a TypeScript
 * `x<T>(…)`) or as a member base (`x.y`), and bound nowhere in the snippet, nor a global of the runtime.
 */
export function jsFreeBindings(
  scan: string,
  bound: Set<string>,
  pkg: string,
  aliases: Set<string> = new Set(),
): FreeBinding[] {
  const params = jsParameterNames(scan);
  const found = new Map<string, FreeBinding>();
  const re =
    /(?<![\w$.]|\.\s)([A-Za-z_$][\w$]*)\s*(?:<[^<>()=;\n]*(?:<[^<>()=;\n]*>[^<>()=;\n]*)*>\s*)?(\(|\.\s*([A-Za-z_$][\w$]*))/g;
  for (const m of scan.matchAll(re)) {
    const name = m[1]!;
    if (NOT_FREE.has(name) || bound.has(name) || params.has(name) || name in globalThis) continue;
    if (NODE_BUILTINS.has(name)) continue;
    // A method or function defined here (`name(a) {`), not a call.
    if (
      m[2] === "(" &&
      new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}\\s*\\([^()]*\\)\\s*\\{`).test(scan)
    )
      continue;
    const entry = found.get(name) ?? {
      name,
      members: [],
      called: false,
      own: sameProduct(name, pkg) || aliases.has(name),
    };
    if (m[2] === "(") entry.called = true;
    else if (m[3] && !entry.members.includes(m[3])) entry.members.push(m[3]);
    found.set(name, entry);
  }
  // A function called by a word of the package's name (`stringify(…)` for json-stable-stringify, `hash(…)` for
  // object-hash): the package's conventional binding, as its README writes it. Only for a call: a word used as
  // data (`object.x`) is the reporter's own value, and the binder still binds only a function to a call.
  for (const entry of found.values())
    if (!entry.own && entry.called && nameWordOf(entry.name, pkg)) entry.own = true;
  return [...found.values()];
}

/**
 * Whether `name` is one word of the package's name (`hash` of `object-hash`, `stringify` of
 * `json-stable-stringify`, `lru` of `@scope/tiny-lru`), written as it stands there, three letters or more.
 */
export function nameWordOf(name: string, pkg: string): boolean {
  if (!/^[a-z][a-z0-9]{2,}$/.test(name)) return false;
  const words = pkg
    .replace(/^@[\w.-]+\//, "")
    .replace(/\.js$/i, "")
    .split(/[-_.]+/);
  return words.length > 1 && words.includes(name);
}

/** Every use of `name.member` in the scan is a call (`name.member(…)`). */
export function onlyCalled(scan: string, name: string, member: string): boolean {
  const esc = (t: string) => t.replace(/\$/g, "\\$");
  const uses = [
    ...scan.matchAll(
      new RegExp(`(?<![\\w$.])${esc(name)}\\s*\\.\\s*${esc(member)}(?![\\w$])(\\s*\\()?`, "g"),
    ),
  ];
  return uses.length > 0 && uses.every((u) => u[1] !== undefined);
}

/**
 * `name.member` when every run stopped on `TypeError: name.member is not a function` for a name the binder was
 * told to bind on a release lacking its members (marked in `code`): the report's name for the package, calling
 * what no release tried here has. Null otherwise.
 */
export function lackingOwnMember(
  code: string,
  runs: { exception?: { type: string; message: string } | null }[],
): string | null {
  const calls = runs.map((r) =>
    r.exception?.type === "TypeError"
      ? /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*) is not a function\b/.exec(r.exception.message)
      : null,
  );
  const first = calls[0];
  if (!first || calls.some((c) => !c || c[0] !== first[0])) return null;
  const mark = `[${JSON.stringify(first[1])},`;
  const line = code.split("\n").find((l) => l.startsWith("_bindPackage(_repositoryPackage, "));
  if (!line) return null;
  const at = line.indexOf(mark);
  if (at < 0 || !/^[^\]]*\][^\]]*?,true,false,true\]/.test(line.slice(at + 1))) return null;
  return `${first[1]}.${first[2]}`;
}

/** Source of the run-time binder (plain JS, valid in a script and a module). */
export const JS_BIND_PACKAGE = [
  "// The package of the issue's repository, bound to the names the snippet uses without an import: its named",
  "// export, else the module (its default export) when the name is the package's own, names an object the",
  "// snippet reads members of, or is the exported function's own name; either only when it has what the",
  "// snippet uses (a function for a call, every member read). A name it does not give stays undefined, as in",
  "// the report.",
  "function _nestedExport(roots, name, fits) {",
  "  const found = new Set();",
  "  const seen = new Set();",
  "  const plain = (o) => {",
  '    if (o == null || typeof o !== "object" || Array.isArray(o)) return false;',
  "    const p = Object.getPrototypeOf(o);",
  "    // Plain data: no prototype, or an Object.prototype (of any realm), whose own prototype is null.",
  "    return p === null || Object.getPrototypeOf(p) === null;",
  "  };",
  "  const walk = (o, depth) => {",
  "    if (depth > 3 || seen.size > 500 || seen.has(o)) return;",
  "    seen.add(o);",
  "    for (const k of Object.keys(o)) {",
  "      let v;",
  "      try { v = o[k]; } catch { continue; }",
  "      if (k === name && depth > 0 && fits(v)) found.add(v);",
  "      else if (plain(v)) walk(v, depth + 1);",
  "    }",
  "  };",
  "  for (const r of roots) if (plain(r)) walk(r, 0);",
  "  return found.size === 1 ? [...found][0] : undefined;",
  "}",
  "function _bindPackage(m, wanted) {",
  "  const lone = wanted.filter((w) => w[3] && w[1].length === 0).length === 1;",
  "  const main = m != null && m.default != null ? m.default : m;",
  "  // A CommonJS module transpiled from an ES module (`__esModule`): its default export is `.default`.",
  "  const inner = main != null && main.__esModule && main.default != null ? main.default : main;",
  "  const has = (v, k) =>",
  '    v != null && (typeof v === "object" || typeof v === "function") && k in v &&',
  "    !(k in Object.prototype) && !(k in Function.prototype);",
  "  for (const [name, members, own, called, onlyCalls] of wanted) {",
  "    const fits = (v) =>",
  '      v != null && (!called || typeof v === "function") && members.every((k) => has(v, k));',
  "    const named = [m, main, inner].filter((v) => has(v, name)).map((v) => v[name]);",
  "    // A default export that is a function of that very name (`export default function prettyMilliseconds`).",
  "    const whole = own || members.length > 0",
  "      ? [inner, main, m]",
  '      : [inner, main, m].filter((v) => typeof v === "function" && v.name === name);',

  "    // A function of that very name deeper in the export tree (`locutus.php.strings.number_format`): only",
  "    // when exactly one value of that name is found there (`c.string.strlen` and `php.strings.strlen` are two).",
  "    // The package's one anonymous function (`module.exports = function (pattern, value) {…}`) for the only",
  "    // name the snippet calls without a binding: what else could the report be calling.",
  "    const value =",
  "      [...named, ...whole].find(fits) ??",
  "      _nestedExport([m, main, inner], name, fits) ??",
  "      (called && !own && members.length === 0 && lone",
  '        ? [inner, main, m].find((v) => typeof v === "function" && (v.name === "" || v.name === "default"))',
  "        : undefined) ??",
  "      // The package's own name whose members this release lacks, each only ever called: bound to the module",
  "      // all the same, so the call fails naming the missing API (`TypeError: dotProp.get is not a function`,",
  "      // dot-prop 7 renamed `get`), not as a name never defined. A missing member read as a value would print",
  "      // `undefined` where the report's release printed something: not bound then.",
  "      (own && onlyCalls === true",
  '        ? [inner, main, m].find((v) => v != null && (typeof v === "object" || typeof v === "function"))',
  "        : undefined);",
  "    if (value !== undefined && !(name in globalThis))",
  "      Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });",
  "  }",
  "}",
].join("\n");

/** The lines that import the package and bind the names, in the program's module format. */
export function jsBindingLines(
  pkg: string,
  bindings: FreeBinding[],
  format: "esm" | "cjs",
  scan = "",
): string[] {
  // The package's own name read only through member calls: marked, so a release lacking those members still
  // binds it and the call names what is missing.
  const wanted = JSON.stringify(
    bindings.map((b) =>
      b.own && !b.called && b.members.length > 0 && b.members.every((k) => onlyCalled(scan, b.name, k))
        ? [b.name, b.members, b.own, b.called, true]
        : [b.name, b.members, b.own, b.called],
    ),
  );
  const load =
    format === "esm"
      ? `import * as _repositoryPackage from ${JSON.stringify(pkg)};`
      : `const _repositoryPackage = require(${JSON.stringify(pkg)});`;
  return [load, JS_BIND_PACKAGE, `_bindPackage(_repositoryPackage, ${wanted});`];
}

/** A script that needs CommonJS (its own `module.exports`, `__dirname`, …) and so cannot run as a module. */
export function needsCommonJs(scan: string): boolean {
  return /(?<![\w$.])(?:module\.exports|exports\.[\w$]+\s*=|__dirname|__filename|require\.(?:resolve|cache|main))\b|\bwith\s*\(/.test(
    scan,
  );
}

// ---------------------------------------------------------------- Python

/** The module a PyPI package is imported as: `python-dateutil` → `dateutil`, `PyYAML` → `yaml`, `tomlkit`. */
export function pythonImportName(pkg: string): string {
  const norm = pkg.toLowerCase().replace(/[-_.]+/g, "-");
  for (const [mod, p] of Object.entries(PYTHON_IMPORT_TO_PACKAGE)) if (p === norm) return mod;
  return norm.replace(/^python-/, "").replace(/-/g, "_");
}

/**
 * Import lines for the package's names the Python snippet uses but never binds: the report's own `from pkg
 * import x` / `import pkg.sub as x` lines (from any block or inline code) for a free `x`; `import pkg` for
 * `pkg.x`; `from pkg import pkg` for `pkg(…)` (a module named after its main function: tabulate).
 */
export function pythonPackageImports(
  scan: string,
  bound: Set<string>,
  pkg: string,
  texts: string[],
): string[] {
  const mod = pythonImportName(pkg);
  const lines: string[] = [];
  const free = (name: string) => !bound.has(name) && new RegExp(`(?<![\\w.])${name}\\s*[.(\\[]`).test(scan);
  const modRe = mod.replace(/\./g, "\\.");
  const reportLines = texts
    .flatMap((t) => t.split("\n"))
    .map((l) => l.trim().replace(/^(?:>>>|In \[\d+\]:)\s*/, ""));
  for (const l of reportLines) {
    const from = new RegExp(`^from\\s+(${modRe}(?:\\.\\w+)*)\\s+import\\s+([\\w, ]+?)\\s*$`).exec(l);
    if (from) {
      const names = from[2]!
        .split(",")
        .map((n) => n.trim())
        .filter((n) => /^\w+(?:\s+as\s+\w+)?$/.test(n))
        .filter((n) => free(n.split(/\s+as\s+/).pop()!));
      if (names.length > 0) {
        const line = `from ${from[1]} import ${names.join(", ")}`;
        if (!lines.includes(line)) lines.push(line);
        for (const n of names) bound.add(n.split(/\s+as\s+/).pop()!);
      }
      continue;
    }
    const as = new RegExp(`^import\\s+(${modRe}(?:\\.\\w+)*)\\s+as\\s+(\\w+)\\s*$`).exec(l);
    if (as && free(as[2]!)) {
      lines.push(`import ${as[1]} as ${as[2]}`);
      bound.add(as[2]!);
    }
  }
  if (!bound.has(mod) && /^\w+$/.test(mod)) {
    const called = new RegExp(`(?<![\\w.])${mod}\\s*\\(`).test(scan);
    const member = new RegExp(`(?<![\\w.])${mod}\\s*\\.\\s*\\w`).test(scan);
    if (member) lines.push(`import ${mod}`);
    else if (called) lines.push(`from ${mod} import ${mod}`);
  }
  return lines;
}
