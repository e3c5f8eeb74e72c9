/**
 * Writes src/repro/python-api-versions.ts: the CPython release that added each standard-library name and keyword
 * argument of 3.10 or later, read from typeshed's stdlib stubs as pyright ships them (`node_modules/pyright/dist/
 * typeshed-fallback/stdlib`, a pinned devDependency). typeshed writes every addition as a
 * `if sys.version_info >= (3, N):` guard (or the `else:` of a `< (3, N)` one), so a name or a keyword that exists
 * only under such guards is that release's; this replaces a hand-typed table that knew ten names (issue 12, hold27:
 * `warnings.warn(..., skip_file_prefixes=…)` stopped 3.11 with a TypeError that was read as the report's bug).
 * Run after bumping pyright: `node scripts/gen-python-api-versions.mjs` (test/unit/repro/python-api-versions.test.ts
 * fails while the file is stale).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The oldest release kept: older additions predate every sandbox Retrace runs. */
const OLDEST = 10;

/** The stub directory of the installed pyright, and its version. */
export function typeshedStdlib() {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("pyright/package.json");
  const { version } = JSON.parse(readFileSync(pkg, "utf8"));
  return { dir: path.join(path.dirname(pkg), "dist", "typeshed-fallback", "stdlib"), pyright: version };
}

function* stubFiles(dir, rel = "") {
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) yield* stubFiles(dir, r);
    else if (e.name.endsWith(".pyi")) yield r;
  }
}

/** The biome CLI of this repository, to format the written file as the rest of src/. */
function biomeBin() {
  return createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
}

const moduleOf = (rel) =>
  rel
    .replace(/\.pyi$/, "")
    .replace(/\/__init__$/, "")
    .replaceAll("/", ".");

/** Joins a statement's continuation lines (open brackets) into one logical line, keeping its indentation. */
function logicalLines(text) {
  const out = [];
  let buf = "";
  let depth = 0;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").replace(/^\s*#.*$/, "");
    if (!buf && !line.trim()) continue;
    buf = buf ? `${buf} ${line.trim()}` : line;
    for (const ch of line) {
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth--;
    }
    if (depth <= 0) {
      out.push(buf);
      buf = "";
      depth = 0;
    }
  }
  return out;
}

/** The text between a signature's opening parenthesis (just before `at`) and its matching closing one. */
function parameters(line, at) {
  let depth = 1;
  for (let i = at; i < line.length; i++) {
    if ("([{".includes(line[i])) depth++;
    else if (")]}".includes(line[i]) && --depth === 0) return line.slice(at, i);
  }
  return line.slice(at);
}

/** The keyword names a signature's parameter list takes, or "any" when it has `**kwargs`. */
function keywordsOf(params) {
  const parts = [];
  let depth = 0;
  let cur = "";
  for (const ch of params) {
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  const slash = parts.indexOf("/");
  const names = [];
  for (const [i, p] of parts.entries()) {
    if (p.startsWith("**")) return "any";
    if (p === "/" || p === "*" || p.startsWith("*")) continue;
    if (slash !== -1 && i < slash) continue;
    const name = /^(\w+)/.exec(p)?.[1];
    // typeshed's older convention for positional-only parameters: a name starting with two underscores.
    if (!name || (name.startsWith("__") && !name.endsWith("__")) || name === "self" || name === "cls")
      continue;
    names.push(name);
  }
  return names;
}

const GE = /^if sys\.version_info >= \(3, (\d+)\):$/;
const LT = /^if sys\.version_info < \(3, (\d+)\):$/;
const ELIF_GE = /^elif sys\.version_info >= \(3, (\d+)\):$/;

/**
 * Every definition site of the stubs: its qualified name (`module.name`, `module.Class.name`), the release its
 * guards put it at (0 when unguarded), and for a function the keywords it takes.
 */
function definitions(dir) {
  const sites = [];
  const reexports = [];
  for (const rel of stubFiles(dir)) {
    const mod = moduleOf(rel);
    const lines = logicalLines(readFileSync(path.join(dir, rel), "utf8"));
    // The open blocks: { indent, since, owner } — `since` the release a >= guard (or a < guard's else) sets.
    const stack = [];
    // The last if/elif opened at each indentation ({ ge } or { lt }), for the `else:` that follows it.
    const lastIf = new Map();
    for (const line of lines) {
      const indent = /^\s*/.exec(line)[0].length;
      const s = line.trim();
      while (stack.length && stack.at(-1).indent >= indent) stack.pop();
      const since = Math.max(0, ...stack.map((b) => b.since));
      const owner = stack.findLast((b) => b.owner)?.owner ?? mod;
      const ge = GE.exec(s) ?? ELIF_GE.exec(s);
      const lt = LT.exec(s);
      const cls = /^class (\w+)\b.*:/.exec(s);
      const def = /^(?:async )?def (\w+)\(/.exec(s);
      const assigned = /^(\w+)\s*(?::|=)/.exec(s);
      const from = /^from ([\w.]+) import (.+)$/.exec(s);
      if (ge) {
        stack.push({ indent, since: Number(ge[1]) });
        lastIf.set(indent, { ge: Number(ge[1]) });
      } else if (lt) {
        stack.push({ indent, since: 0 });
        lastIf.set(indent, { lt: Number(lt[1]) });
      } else if (s === "else:") {
        // The else of `>= (3, N)` holds the older definitions; the else of `< (3, N)` the newer ones.
        stack.push({ indent, since: lastIf.get(indent)?.lt ?? 0 });
        lastIf.delete(indent);
      } else if (/^(?:el)?if\b.*:$/.test(s)) {
        stack.push({ indent, since: 0 });
        lastIf.delete(indent);
      } else if (cls) {
        sites.push({ name: `${owner}.${cls[1]}`, since });
        stack.push({ indent, since: 0, owner: `${owner}.${cls[1]}` });
      } else if (def) {
        sites.push({ name: `${owner}.${def[1]}`, since, keywords: keywordsOf(parameters(s, def[0].length)) });
        stack.push({ indent, since: 0, def: true });
      } else if (assigned && !stack.some((b) => b.def)) {
        sites.push({ name: `${owner}.${assigned[1]}`, since });
      } else if (from && owner === mod) {
        for (const part of from[2].replace(/[()]/g, "").split(",")) {
          const [orig, alias] = part.trim().split(/\s+as\s+/);
          if (orig && orig !== "*")
            reexports.push({ name: `${mod}.${alias ?? orig}`, from: `${from[1]}.${orig}`, since });
        }
      }
    }
  }
  return { sites, reexports };
}

const release = (n) => `3.${n}`;

export function generate(dir) {
  const { sites, reexports } = definitions(dir);
  /** Each qualified name's first release (the lowest over its sites; 0 = always there). */
  const first = new Map();
  for (const s of sites) first.set(s.name, Math.min(first.get(s.name) ?? Number.POSITIVE_INFINITY, s.since));
  for (let pass = 0; pass < 3; pass++)
    for (const r of reexports) {
      const from = first.get(r.from);
      if (from === undefined) continue;
      const at = Math.max(from, r.since);
      first.set(r.name, Math.min(first.get(r.name) ?? Number.POSITIVE_INFINITY, at));
    }
  // A member of a name the same release added says nothing more (`itertools.batched.__next__`), nor does a dunder.
  const kept = (name, n) => {
    if (n < OLDEST || /\.__\w+__$/.test(name)) return false;
    const owner = name.slice(0, name.lastIndexOf("."));
    return !((first.get(owner) ?? 0) >= n);
  };
  const names = {};
  for (const [name, n] of [...first].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    if (kept(name, n)) names[release(n)] = [...(names[release(n)] ?? []), name];
  /** Keywords a release added to a function that older releases already had. */
  const keywords = {};
  const bySite = new Map();
  for (const s of sites) if (s.keywords) bySite.set(s.name, [...(bySite.get(s.name) ?? []), s]);
  for (const [name, list] of [...bySite].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const fn = first.get(name) ?? 0;
    const kw = new Map();
    for (const s of list) {
      if (s.keywords === "any") continue;
      for (const k of s.keywords) kw.set(k, Math.min(kw.get(k) ?? Number.POSITIVE_INFINITY, s.since));
    }
    // A site taking any keyword (`**kwargs`) at an older release makes every keyword that old.
    const anyAt = Math.min(...list.filter((s) => s.keywords === "any").map((s) => s.since));
    for (const [k, n] of kw) {
      const at = Math.min(n, anyAt);
      const owner = name.slice(0, name.lastIndexOf("."));
      if (at >= OLDEST && at > fn && !((first.get(owner) ?? 0) >= at))
        keywords[name] = { ...keywords[name], [k]: release(at) };
    }
  }
  const modules = {};
  for (const line of readFileSync(path.join(dir, "VERSIONS"), "utf8").split("\n")) {
    const m = /^([\w.]+):\s*3\.(\d+)-/.exec(line);
    if (m && Number(m[2]) >= OLDEST) modules[m[1]] = release(Number(m[2]));
  }
  return { names, keywords, modules };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { dir, pyright } = typeshedStdlib();
  const { names, keywords, modules } = generate(dir);
  const out = fileURLToPath(new URL("../src/repro/python-api-versions.ts", import.meta.url));
  const wrap = (list) => {
    const lines = [];
    let line = "";
    for (const w of list) {
      if (line && line.length + w.length > 100) {
        lines.push(line.trimEnd());
        line = "";
      }
      line += `${w} `;
    }
    if (line) lines.push(line.trimEnd());
    return lines.map((l) => `    "${l}",`).join("\n");
  };
  const byRelease = Object.keys(names)
    .sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)))
    .map((r) => `  "${r}": [\n${wrap(names[r])}\n  ].join(" "),`)
    .join("\n");
  const kwLines = Object.entries(keywords)
    .map(
      ([f, ks]) =>
        `  ${JSON.stringify(f)}: ${JSON.stringify(ks).replaceAll(",", ", ").replaceAll(":", ": ")},`,
    )
    .join("\n");
  writeFileSync(
    out,
    `// Generated by scripts/gen-python-api-versions.mjs from typeshed's stdlib stubs in pyright ${pyright}: do not edit by hand.
/**
 * The standard-library names each release added (\`module.name\`, \`module.Class.name\`; 3.${OLDEST} or later), space-separated.
 * A member of a class the same release added is not listed again.
 */
export const PYTHON_NAMES_BY_RELEASE: Readonly<Record<string, string>> = {
${byRelease}
};
/** Keyword arguments a release added to a function older releases had (\`module.function\` → keyword → release). */
export const PYTHON_KEYWORD_SINCE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
${kwLines}
};
/** Standard-library modules a release added (typeshed's VERSIONS), 3.${OLDEST} or later. */
export const PYTHON_MODULE_SINCE: Readonly<Record<string, string>> = ${JSON.stringify(modules).replaceAll(",", ", ").replaceAll(":", ": ")};
`,
  );
  execFileSync(process.execPath, [biomeBin(), "format", "--write", out], { stdio: "ignore" });
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), out)}: ${Object.values(names).flat().length} names, ${Object.keys(keywords).length} functions with newer keywords, ${Object.keys(modules).length} modules\n`,
  );
}
