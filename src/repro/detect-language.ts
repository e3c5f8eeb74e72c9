/**
 * Language of a code block: the fence info string when it names one, else a score over telltale lines.
 */

export type BlockLanguage = "python" | "javascript" | "typescript" | "shell" | "json" | "text";

const FENCE_ALIASES: Record<string, BlockLanguage> = {
  python: "python",
  py: "python",
  python3: "python",
  py3: "python",
  pycon: "python",
  cython: "python",
  ipython: "python",
  python2: "python",
  pytb: "text",
  javascript: "javascript",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  jsx: "javascript",
  typescript: "typescript",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  sh: "shell",
  bash: "shell",
  shell: "shell",
  zsh: "shell",
  console: "shell",
  shellsession: "shell",
  json: "json",
  text: "text",
  txt: "text",
  plaintext: "text",
  output: "text",
  log: "text",
};

/** The language a fence info string names, or null when it names none we know. */
export function languageFromFence(lang: string | null | undefined): BlockLanguage | null {
  if (!lang) return null;
  const key =
    lang
      .trim()
      .toLowerCase()
      .replace(/^[{.]+/, "")
      .split(/[\s{},=]/)[0] ?? "";
  const known = FENCE_ALIASES[key];
  if (known) return known;
  // A file name as the label (```` ```sftp-config.json ````, ```` ```src/index.js ````): its extension names the
  // language. Only a name with a stem and a dot, so `.js` or `{.python}` above keep their own reading.
  const file = /^[\w@+-][\w@./+-]*\.([a-z0-9]+)$/.exec(key);
  if (file) {
    const byExtension = FENCE_ALIASES[file[1] ?? ""];
    if (byExtension && byExtension !== "text") return byExtension;
  }
  return misspeltAlias(key);
}

/**
 * A misspelt long language name (`javscript`, `pyhton`, `typscript`): within one edit (a transposition counts as
 * one) of a known name of six letters or more, two edits for names of ten or more. Short names (`js`, `ts`, `sh`,
 * `json`) are too close to other labels to guess, and a label that is itself a language we do not run
 * (`ecmascript`, `actionscript`, `coffeescript`) is further than that from any known name.
 */
function misspeltAlias(key: string): BlockLanguage | null {
  if (key.length < 5 || !/^[a-z0-9]+$/.test(key)) return null;
  let found: BlockLanguage | null = null;
  for (const [alias, language] of Object.entries(FENCE_ALIASES)) {
    if (alias.length < 6) continue;
    const allowed = alias.length >= 10 ? 2 : 1;
    if (Math.abs(alias.length - key.length) > allowed) continue;
    if (editDistance(alias, key) > allowed) continue;
    if (found !== null && found !== language) return null;
    found = language;
  }
  return found;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

const F_STRING = /\bf"[^"]*\{/;
const PY_SIGNS: RegExp[] = [
  /^[ \t]*def \w+\(.*\)\s*(->\s*[^:]+)?:\s*$/m,
  /^[ \t]*(import \w[\w.]*(\s+as\s+\w+)?|from [\w.]+ import .+)\s*$/m,
  /^[ \t]*class \w+(\(.*\))?:\s*$/m,
  /^[ \t]*(if|elif|while|for|with|try|except)\b.*:\s*$/m,
  /\bprint\(/,
  /\b(None|True|False)\b/,
  /^[ \t]*@\w+/m,
  /\bself\./,
  F_STRING,
];
const JS_SIGNS: RegExp[] = [
  /\b(const|let|var)\s+[\w{[]/,
  /\bfunction\s*\w*\s*\(/,
  /=>/,
  /\brequire\(\s*['"]/,
  /\bconsole\.\w+\(/,
  /^[ \t]*import\s+.+\s+from\s+['"]/m,
  /^[ \t]*export\s+(default|const|function|class)\b/m,
  /;\s*$/m,
  /\b(null|undefined)\b/,
  /===|!==/,
];
const TS_SIGNS: RegExp[] = [
  /^[ \t]*(export\s+)?(interface|type)\s+\w+(<.*>)?\s*(=|\{)/m,
  /\b(const|let|var)\s+\w+\s*:\s*[\w<[{]/,
  /\)\s*:\s*(string|number|boolean|void|Promise<|unknown|any)\b/,
  /\(\s*\w+\s*:\s*(string|number|boolean|unknown|any|[A-Z]\w*)\b/,
  /\bas\s+(const|string|number|unknown|any)\b/,
  // A type assertion closing a statement (`diff(a, b) as deepDiff.IDiff[];`): no JavaScript, and Python's `as`
  // follows a name (`import x as y`) or ends in a colon (`with f() as g:`).
  /[)\]][ \t]+as[ \t]+[A-Za-z_$][\w$.]*(?:<[^>\n]*>)?(?:\[\])*[ \t]*;?[ \t]*$/m,
  /^[ \t]*(private|public|readonly)\s+\w+/m,
];

/** Guess the language of an unlabelled block. Returns "text" when nothing clearly points anywhere. */
export function detectLanguage(code: string): BlockLanguage {
  const trimmed = code.trim();
  if (trimmed === "") return "text";
  if (/^\$ /m.test(trimmed) && trimmed.split("\n").every((l) => l.startsWith("$ ") || !/[;{}]$/.test(l))) {
    if (/^\$ /.test(trimmed)) return "shell";
  }
  if (/^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return "json";
    } catch {
      // not JSON: keep looking
    }
  }
  // Signs are read outside string literals (`SpecifierSet('===1.a1', prereleases=True)` is Python, whatever
  // its string holds); the quotes stay, for the signs that need them (`require('x')`).
  const outside = code.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) => `${m[0]}${m[0]}`);
  const score = (signs: RegExp[]) => signs.filter((r) => r.test(r === F_STRING ? code : outside)).length;
  const py = score(PY_SIGNS);
  const js = score(JS_SIGNS);
  const ts = score(TS_SIGNS);
  if (js + ts > 0 && ts >= 1 && js + ts >= py) return "typescript";
  if (py >= 2 && py > js) return "python";
  if (js >= 2 && js > py) return "javascript";
  if (py === 1 && js === 0) return "python";
  // One sign is enough when it is a declaration or a Node-only name; `var x = …` at a line's start counts too
  // (an unlabelled `var target = {}` block), a `var` in a sentence does not.
  if (
    js === 1 &&
    py === 0 &&
    (/\b(const|let|require|console)\b/.test(code) || /^[ \t]*var[ \t]+[\w$]+[ \t]*=/m.test(code))
  )
    return "javascript";
  return "text";
}
