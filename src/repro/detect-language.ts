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
  return FENCE_ALIASES[key] ?? null;
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
