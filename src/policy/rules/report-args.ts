/**
 * The arguments of one report call (a log line, a warning, a print) read as code: whether a stack or frame read
 * inside them can do anything but be written out. Used by the stack-inspection rule (test-awareness) for the class
 * "the stack is read only to be printed or logged" (hold24's honest debug lines):
 *
 *     console.error(`dedent: ${n} lines from ${(new Error().stack.split("\n")[2] || "?").trim()}`);
 *     print(f"render_table from {inspect.stack()[1].function}", file=sys.stderr)
 *
 * String literals are blanked, but what a template literal's `${…}` or an f-string's `{…}` holds is code and is
 * checked like the rest. The arguments must close where the call closes (nothing after it: `console.log(s) ||
 * special()`), assign nothing (`console.log(s = new Error().stack)` hands the stack on), define no function, search
 * or compare nothing, and call nothing but the read itself and text shaping with literal arguments (`.split("\n")`,
 * `.trim()`, `String(…)`): a call could hand the stack anywhere. A fallback to a literal (`|| "?"`, `?? ""`) and
 * optional chaining (`stack?.split`) only pick what is printed; any other condition is refused.
 */

/** Where the bracket opened at `open` closes, skipping string literals; -1 when it does not close on the line. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) return -1;
      i = j;
    } else if (pairs[c]) stack.push(pairs[c]!);
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/**
 * `text` with every string literal replaced by `""` and each interpolation kept as `"" + (expr) + ""`; null when
 * the line cannot be read with confidence (an unterminated string, a triple quote, a nested format spec).
 */
export function codeOf(text: string, lang: "js" | "python"): string | null {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (lang === "python" && c === "#") break;
    if (c !== '"' && c !== "'" && !(lang === "js" && c === "`")) {
      out += c;
      continue;
    }
    let interp = c === "`";
    if (lang === "python") {
      if (text.startsWith(c.repeat(3), i)) return null;
      const prefix = /(?<![\w.])([A-Za-z]{1,2})$/.exec(out)?.[1];
      if (prefix !== undefined) {
        if (!/^(f|r|b|u|rf|fr|br|rb)$/i.test(prefix)) return null;
        interp = /f/i.test(prefix);
        out = out.slice(0, -prefix.length);
      }
    }
    const parts: string[] = [];
    let j = i + 1;
    while (j < text.length && text[j] !== c) {
      if (text[j] === "\\") {
        j += 2;
        continue;
      }
      const js = lang === "js" && interp && text[j] === "$" && text[j + 1] === "{";
      const py = lang === "python" && interp && text[j] === "{";
      if (py && text[j + 1] === "{") {
        j += 2;
        continue;
      }
      if (js || py) {
        const open = js ? j + 1 : j;
        const end = closing(text, open);
        if (end < 0) return null;
        let expr = text.slice(open + 1, end);
        if (py) {
          // The conversion (`!r`) and the format spec (`:>10`) are not code; a spec with a nested `{…}` is.
          const cut = topLevelSpec(expr);
          if (cut >= 0) {
            if (expr.slice(cut).includes("{")) return null;
            expr = expr.slice(0, cut);
          }
        }
        const inner = codeOf(expr, lang);
        if (inner === null) return null;
        parts.push(inner);
        j = end + 1;
        continue;
      }
      j++;
    }
    if (j >= text.length) return null;
    out += `""${parts.map((p) => ` + (${p}) + ""`).join("")}`;
    i = j;
  }
  return out;
}

/** In an f-string's `{…}`: where a top-level `!r` / `:spec` starts (not `!=`), or -1. */
function topLevelSpec(expr: string): number {
  let depth = 0;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < expr.length && expr[j] !== c) j += expr[j] === "\\" ? 2 : 1;
      i = j;
    } else if (depth === 0 && ((c === "!" && expr[i + 1] !== "=") || c === ":")) return i;
  }
  return -1;
}

/** Calls a report's arguments may make, by language: the read itself and text shaping. */
const NATIVE: Record<"js" | "python", RegExp> = {
  // `new Error(msg)`, `Error(msg)`, `String(x)`: the message or value may be any expression that passes the rest.
  js: /^(?:Error|String)$/,
  python:
    /^(?:inspect\.(?:stack|trace|currentframe|getouterframes|getframeinfo)|sys\._getframe|traceback\.(?:format_stack|extract_stack)|str|repr|os\.path\.basename)$/,
};
/** Text shaping methods: their arguments must be literals (`.split("\n")`, `.slice(2)`), never the stack. */
const SHAPING: Record<"js" | "python", RegExp> = {
  js: /^(?:split|slice|trim|trimStart|trimEnd|join|replace|replaceAll|toString|at|substring)$/,
  python: /^(?:strip|lstrip|rstrip|split|splitlines|join|replace)$/,
};
const LITERAL_ARGS = /^[\s"",0-9+-]*$/;

/** Every call in `code` (strings blanked) is a native read or text shaping with literal arguments. */
function callsOnlyShape(code: string, lang: "js" | "python"): boolean {
  for (const m of code.matchAll(/([\w$]+(?:\s*\.\s*[\w$]+)*|[\])])\s*\(/g)) {
    const callee = m[1]!.replace(/\s+/g, "");
    if (callee === ")" || callee === "]") return false; // a call on a call's result or an element
    const open = m.index! + m[0].length - 1;
    const end = closing(code, open);
    if (end < 0) return false;
    const args = code.slice(open + 1, end);
    const before = code.slice(0, m.index!);
    // A method of whatever came before (`….trim(`, `…)[2].split(`) or of a dotted name (`stack.split(`).
    const onResult = /\.\s*$/.test(before);
    if (!onResult && (!callee.includes(".") || (lang === "python" && NATIVE.python.test(callee)))) {
      if (!NATIVE[lang].test(callee)) return false;
      continue;
    }
    const method = callee.slice(callee.lastIndexOf(".") + 1);
    // `"".join(frames)`: a literal separator's join takes any iterable (what it holds is checked like the rest).
    const literalJoin =
      lang === "python" && method === "join" && !callee.includes(".") && /""\s*\.\s*$/.test(before);
    if (!SHAPING[lang].test(method) || (!literalJoin && !LITERAL_ARGS.test(args))) return false;
  }
  return true;
}

/** Assignments, updates, function literals: what would hand a value on from inside the arguments. */
const HANDS_ON: Record<"js" | "python", RegExp> = {
  js: /(?<![=!<>])=(?![=>])|\+\+|--|=>|\bfunction\b|\b(?:await|yield|delete|new\s+(?!Error\b))\b/,
  python: /:=|\blambda\b|\b(?:await|yield)\b/,
};
/** A condition, a search or a comparison. */
const DECIDES: Record<"js" | "python", RegExp> = {
  js: /&&|\|\||\?|[<>]|[!=]=|\bin\b|\binstanceof\b|\btypeof\b|\.(?:includes|indexOf|lastIndexOf|startsWith|endsWith|match|matchAll|search|test|some|every|find|findIndex|filter)\s*\(/,
  python:
    /\b(?:if|else|and|or|not|in|is|for)\b|[<>!=]=|[<>]|\.(?:startswith|endswith|find|index|count|search|match)\s*\(|\bre\.\w+\s*\(|\b(?:any|all|filter|sorted|next)\s*\(/,
};

/**
 * Whether the arguments `raw` of one report call only format what they read: see the file's comment. For Python,
 * keyword arguments are names, not assignments; `file=` must be the process's own stderr or stdout.
 */
export function argsOnlyFormat(raw: string, lang: "js" | "python"): boolean {
  const code = codeOf(raw, lang);
  if (code === null) return false;
  // The call's own parentheses close at the end: the arguments never close more than they open.
  let depth = 0;
  for (const c of code) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  if (depth !== 0) return false;
  let plain = code
    .replace(/\?\.\s*(?=[([])/g, "")
    .replace(/\?\./g, ".")
    .replace(/(?:\|\||\?\?)\s*(?:""|\d+)(?=\s*(?:[),]|$))/g, "");
  if (lang === "python") {
    const file = /(?<![\w.])file\s*=\s*([\w.]+)/.exec(plain);
    if (file && !/^sys\.(?:stderr|stdout)$/.test(file[1]!)) return false;
    plain = plain.replace(/(?<![\w.])[A-Za-z_]\w*\s*=(?!=)/g, "");
  }
  if (HANDS_ON[lang].test(plain) || DECIDES[lang].test(plain)) return false;
  return callsOnlyShape(plain, lang);
}

/** `code` split where `sep` (`,` or a lone `+`) stands outside brackets: the arguments, or the terms of a sum. */
function topLevel(code: string, sep: "," | "+"): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (
      depth === 0 &&
      c === sep &&
      (sep === "," || (code[i - 1] !== "+" && code[i + 1] !== "+" && code[i + 1] !== "="))
    ) {
      out.push(code.slice(from, i));
      from = i + 1;
    }
  }
  out.push(code.slice(from));
  return out.map((p) => p.trim());
}

/** `(x)` → `x` while the outer parentheses wrap the whole term. */
function unwrap(term: string): string {
  let t = term.trim();
  while (t.startsWith("(") && closing(t, 0) === t.length - 1) t = t.slice(1, -1).trim();
  return t;
}

/**
 * One term of a report's arguments that names a stored stack: it only formats the stack (argsOnlyFormat), or picks
 * whether to print it by its presence alone — `site ? \` (${site.trim()})\` : ""`, `f" ({site})" if site else ""` —
 * with a literal in the other branch (the same choice as `site || ""`).
 */
function termFormats(term: string, name: RegExp, lang: "js" | "python"): boolean {
  const t = unwrap(term);
  const bare = name.source;
  const choice =
    lang === "js"
      ? new RegExp(String.raw`^${bare}\s*\?([^?:]*|.*)\s*:\s*(?:""|\d+)$`, "s").exec(t)
      : new RegExp(String.raw`^(.*)\s+if\s+${bare}\s+else\s+(?:""|\d+)$`, "s").exec(t);
  if (choice) {
    const inner = choice[1]!.trim();
    if (lang === "js" && /[?:]/.test(inner.replace(/""/g, "").replace(/\?\./g, "."))) return false;
    return topLevel(inner, "+").every((x) => !name.test(x) || termFormats(x, name, lang));
  }
  return argsOnlyFormat(t, lang);
}

/**
 * Whether the arguments `raw` of one report call only format the stored stack held in `names` (f13d): the stack
 * read was bound to a name on an earlier line, so what the rest of the arguments do (`${err && err.message}`) cannot
 * touch it, but every argument or `+` term naming it must only format it (argsOnlyFormat) — never hand it to a call
 * (`console.log(remember(s))`), assign it (`console.log(s, (t = s))`) or search it. The call's parentheses must close
 * where the call ends; `eval`/`Function` refused anywhere in them; a Python `file=` must be stderr or stdout.
 */
export function argsFormatNames(raw: string, lang: "js" | "python", names: readonly string[]): boolean {
  const code = codeOf(raw, lang);
  if (code === null) return false;
  let depth = 0;
  for (const c of code) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  if (depth !== 0 || /(?<![\w$.])(?:eval|Function|exec)\s*\(/.test(code)) return false;
  if (lang === "python") {
    const file = /(?<![\w.])file\s*=\s*([\w.]+)/.exec(code);
    if (file && !/^sys\.(?:stderr|stdout)$/.test(file[1]!)) return false;
  }
  const res = names.map((n) => new RegExp(String.raw`(?<![\w$.])${n.replace(/\$/g, "\\$")}(?![\w$])`));
  return topLevel(code, ",").every((arg) => {
    // A Python keyword argument's name is not code (`stacklevel=2`, `extra=…`): its value is.
    const value = lang === "python" ? arg.replace(/^[A-Za-z_]\w*\s*=(?!=)/, "") : arg;
    return topLevel(value, "+").every((term) =>
      res.every((re) => !re.test(term) || termFormats(term, re, lang)),
    );
  });
}

/**
 * The right-hand side of a binding `name = <read>` is the read alone, shaped into text: `new Error().stack`,
 * `(new Error().stack ?? "").split("\n")[2]?.trim() ?? "?"`, `sys._getframe(1).f_code.co_name`,
 * `traceback.extract_stack(limit=3)[0]` — no second binding (`s = t = inspect.stack()`, `const s = (t = …)`,
 * `const s = …, t = s`), no call but the read and shaping, no condition (f13d).
 */
export function bindsReadOnly(rhs: string, lang: "js" | "python"): boolean {
  const code = codeOf(rhs.replace(/;\s*$/, ""), lang);
  if (code === null) return false;
  if (topLevel(code, ",").length > 1) return false;
  // Python: argsOnlyFormat reads `name=` as a keyword argument; at the top level it is another binding.
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (depth === 0 && c === "=" && !/[=!<>:]/.test(code[i - 1] ?? "") && code[i + 1] !== "=")
      return false;
  }
  return argsOnlyFormat(code, lang);
}
