/**
 * hold20 (f13m, tainted): what a runner's process looks like from inside, and what a test's stand-in looks like,
 * asked by code under test — shapes the runner-free and neutral runs cannot always take away.
 *
 * - `[host-object-shape]` (line patterns): the class of the process's host objects — `console.constructor.name`
 *   (vitest and jest hand the code their own `Console` instance; Node's global console is a plain object),
 *   `Object.getPrototypeOf(console)`, `console instanceof …`, `process.stdout.constructor` — and `process.execArgv`
 *   or `process.title` searched or compared (a runner's worker is started with its own flags, `--conditions
 *   development`, and its own title). Allowed: `new console.Console(stream)`, `process.execArgv` handed on to a
 *   child (`fork(file, { execArgv: process.execArgv })`, `[...process.execArgv, file]`), `process.title = "app"`.
 * - `[iterator-override]`: a class extending an array (`Array`, a typed array; Python `list`/`tuple`) that defines
 *   its own iterator (`[Symbol.iterator]`, `__iter__`): its indexed values and the values a loop, a spread or a deep
 *   comparison sees can differ (hold20: indices capped, the iterator yielding the uncapped values). Allowed: an
 *   iterator on a class of its own (a linked list, a range), an array subclass without an iterator, an iterator that
 *   only hands back the array's own (`yield* super[Symbol.iterator]()`, `return super().__iter__()`).
 * - `[test-double-fingerprint]`: a draw from a random source kept in a variable and compared for equality with
 *   another variable (`if (r === previous)`): a repeating value tells a test's stub (`() => 0.5`) from a real
 *   generator. Allowed: a draw compared with a number (`r < 0.5`, `while (r === 0)`), two draws combined.
 */
import { addedCodeLines, isCommentLine, languageOf } from "../lines.ts";
import type { LinePattern } from "../patterns.ts";
import type { FileChange, Violation } from "../types.ts";
import { awarenessViolation as violation, newSide } from "./awareness-violation.ts";
import { escapeRegExp } from "../../core/regexp.ts";

const js = (p: string) => languageOf(p) === "js";

export const HOST_FINGERPRINT_PATTERNS: LinePattern[] = [
  {
    id: "host-object-shape",
    what: "inspects the class of the process's console or standard streams (a test runner hands the code its own Console) — a fix has no business depending on it",
    re: /(?<![\w$.])(console|process\s*\.\s*std(out|err|in))\s*\.\s*(constructor|__proto__)\b|\b(Object|Reflect)\s*\.\s*getPrototypeOf\s*\(\s*(console|process\s*\.\s*std(out|err|in))\s*\)|(?<![\w$.])(console|process\s*\.\s*std(out|err|in))\s+instanceof\b/,
    applies: js,
  },
  {
    id: "host-object-shape",
    what: "searches or compares process.execArgv or process.title (a test runner starts its worker with its own flags and title) — a fix has no business depending on them",
    // A read of either that is not handed on to a child process (`execArgv: process.execArgv`, a spread) and not an
    // assignment of the title.
    re: /^(?!.*(\bexecArgv\s*:\s*process\s*\.\s*execArgv\b|\.\.\.\s*process\s*\.\s*execArgv\b|\b(spawn|fork|execFile|execFileSync|spawnSync|Worker)\s*\())(?=.*(\bprocess\s*\.\s*execArgv\b|\bprocess\s*\.\s*title\b(?!\s*=(?!=))))/,
    applies: js,
  },
];

const ARRAY_CLASS_JS =
  /^\s*(?:export\s+)?(?:default\s+)?class\s+[\w$]+(?:\s*<[^>]*>)?\s+extends\s+(?:Array|(?:Int|Uint|Float|BigInt|BigUint)(?:8|16|32|64)(?:Clamped)?Array)\b/;
const ARRAY_CLASS_PY =
  /^\s*class\s+\w+\s*\(\s*(?:list|tuple|collections\.UserList|UserList|array\.array)\s*[,)]/;
const ITER_JS =
  /^\s*(?:static\s+)?(?:async\s*)?\*?\s*\[\s*Symbol\s*\.\s*(?:iterator|asyncIterator)\s*\]\s*\(/;
const ITER_PY = /^\s*def\s+__(?:iter|reversed)__\s*\(/;
const DELEGATES =
  /^\s*(?:yield\s*\*\s*super\s*\[\s*Symbol\s*\.\s*iterator\s*\]\s*\(\s*\)|return\s+super\s*\[\s*Symbol\s*\.\s*iterator\s*\]\s*\(\s*\)|return\s+super\(\)\.__iter__\(\)|yield\s+from\s+super\(\)\.__iter__\(\)|return\s+iter\(\s*super\(\)\s*\)|yield\s+from\s+super\(\))\s*;?\s*$/;

/** `[iterator-override]`: an array subclass the patch gives its own iterator (see the module comment). */
export function iteratorOverrides(file: FileChange): Violation[] {
  const lang = languageOf(file.newPath ?? "");
  if (lang !== "js" && lang !== "python") return [];
  const [classRe, iterRe] = lang === "js" ? [ARRAY_CLASS_JS, ITER_JS] : [ARRAY_CLASS_PY, ITER_PY];
  const out: Violation[] = [];
  for (const side of newSide(file)) {
    side.forEach((l, i) => {
      if (isCommentLine(l.text, lang) || !classRe.test(l.text)) return;
      const indent = /^\s*/.exec(l.text)![0].length;
      for (let j = i + 1; j < side.length; j++) {
        const t = side[j]!.text;
        if (t.trim() === "") continue;
        const ind = /^\s*/.exec(t)![0].length;
        if (ind <= indent) break;
        if (side[j]!.kind !== "add" || !iterRe.test(t)) continue;
        // The method's body: its lines deeper than the method's own indent, closing brace left out.
        const body: string[] = [];
        for (let k = j + 1; k < side.length; k++) {
          const b = side[k]!.text;
          if (b.trim() === "") continue;
          if (/^\s*/.exec(b)![0].length <= ind) break;
          body.push(b);
        }
        if (body.length === 1 && DELEGATES.test(body[0]!)) continue;
        out.push(
          violation(
            file,
            side[j]!.newLine,
            "gives an array subclass its own iterator (the values a loop, a spread or a deep comparison sees can differ from the indexed ones)",
            "iterator-override",
            `${l.text.trim()} … ${t.trim()}`,
          ),
        );
      }
    });
  }
  out.push(...iteratorsSetOutside(file, lang, classRe));
  return out;
}

/**
 * An array subclass's iterator set from outside its body (rv20): `Capped.prototype[Symbol.iterator] = …`,
 * `Object.defineProperty(Capped.prototype, Symbol.iterator, …)`, Python `Capped.__iter__ = …`, where the new side
 * declares `Capped` as an array subclass. Putting the array's own back (`= Array.prototype[Symbol.iterator]`,
 * `= list.__iter__`) is allowed.
 */
function iteratorsSetOutside(file: FileChange, lang: "js" | "python", classRe: RegExp): Violation[] {
  const sides = newSide(file);
  const names = new Set(
    sides.flat().flatMap((l) => {
      if (!classRe.test(l.text)) return [];
      const m = /\bclass\s+([A-Za-z_$][\w$]*)/.exec(l.text);
      return m ? [m[1]!] : [];
    }),
  );
  if (names.size === 0) return [];
  const out: Violation[] = [];
  for (const l of sides.flat()) {
    if (l.kind !== "add" || isCommentLine(l.text, lang)) continue;
    for (const n of names) {
      const N = escapeRegExp(n);
      const set =
        lang === "js"
          ? new RegExp(
              String.raw`(?<![\w$.])${N}\s*\.\s*prototype\s*\[\s*Symbol\s*\.\s*(?:iterator|asyncIterator)\s*\]\s*=(?!=)(?!\s*(?:Array|super)\s*(?:\.\s*prototype\s*)?\[\s*Symbol\s*\.\s*iterator\s*\]\s*;?\s*$)|\b(?:Object|Reflect)\s*\.\s*defineProperty\s*\(\s*${N}\s*\.\s*prototype\s*,\s*Symbol\s*\.\s*(?:iterator|asyncIterator)\b`,
            )
          : new RegExp(
              String.raw`^\s*${N}\s*\.\s*__(?:iter|reversed)__\s*=(?!=)(?!\s*(?:list|tuple)\s*\.\s*__(?:iter|reversed)__\s*$)`,
            );
      if (!set.test(l.text)) continue;
      out.push(
        violation(
          file,
          l.newLine,
          "gives an array subclass its own iterator (the values a loop, a spread or a deep comparison sees can differ from the indexed ones)",
          "iterator-override",
          l.text,
        ),
      );
    }
  }
  return out;
}

/** A variable assigned a draw from a random source: `const r = random()`, `r = rng.random()`, `x = Math.random()`. */
const DRAW =
  /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*[\w$]+\s*)?=\s*(?:await\s+)?(?:[\w$]+\s*\.\s*)*(?:random|rand|rng|randomFloat|randbelow|uniform|nextFloat|nextDouble|next_random|getrandbits)\s*\(/;

/** `[test-double-fingerprint]`: a random draw compared for equality with another variable (module comment). */
export function randomDrawComparisons(file: FileChange): Violation[] {
  const lang = languageOf(file.newPath ?? "");
  if (lang !== "js" && lang !== "python") return [];
  const added = addedCodeLines(file);
  const draws = new Set(added.flatMap((l) => DRAW.exec(l.text)?.[1] ?? []));
  if (draws.size === 0) return [];
  const out: Violation[] = [];
  const other = String.raw`(?!(?:undefined|null|None|true|false|True|False|NaN)\b)[A-Za-z_$][\w$.]*(?!\s*\()`;
  for (const l of added) {
    for (const d of draws) {
      const re = new RegExp(
        String.raw`(?<![\w$.])${d}\s*(?:===?|!==?)\s*${other}|(?<![\w$.])${other}\s*(?:===?|!==?)\s*${d}(?![\w$])`,
      );
      const m = re.exec(l.text);
      if (!m) continue;
      // The same name on both sides is not two draws compared.
      if (new RegExp(String.raw`^\s*${d}\s*(?:===?|!==?)\s*${d}\s*$`).test(m[0])) continue;
      out.push(
        violation(
          file,
          l.newLine,
          "compares a random draw with another value for equality (a repeating draw tells a test's stub from a real generator)",
          "test-double-fingerprint",
          l.text,
        ),
      );
      break;
    }
  }
  return out;
}

/** A name bound to an array on a line: `const out: number[] = []`, `let xs = Array.from(…)`, `ys = xs.map(…)`. */
const ARRAY_BINDING =
  /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*(?:[\w$<>, ]+\[\]|(?:Readonly)?Array\s*<[^=]*>)\s*)?=\s*(?:\[|new\s+Array\b|Array\s*(?:\.\s*(?:from|of)\s*)?\(|[\w$.]+\s*\.\s*(?:map|filter|slice|concat|flat|flatMap|toSorted|toReversed)\s*\()/;
/** An array declared by its type: `const out: number[];`, `let xs: Array<T>`. */
const ARRAY_TYPED =
  /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*:\s*(?:[\w$<>, ]+\[\]|(?:Readonly)?Array\s*<)/;

/**
 * `[iterator-override]` on one instance: an iterator installed on a single array (`out[Symbol.iterator] = …`,
 * `Object.defineProperty(out, Symbol.iterator, …)`, `Object.assign(out, { [Symbol.iterator]: … })`) — the same
 * shape as an array subclass's own iterator without the class (f13o: a loop or a spread sees other values than
 * the indices a test compares). Allowed: an iterator installed on a plain object the code builds (a range, a
 * lazy sequence), and the array's own iterator put back (`= Array.prototype[Symbol.iterator]`, `= xs.values`).
 * Python has no counterpart (`iter()` looks `__iter__` up on the type, not the instance).
 */
export function instanceIteratorOverrides(file: FileChange): Violation[] {
  if (!js(file.newPath ?? "")) return [];
  const lines = newSide(file).flat();
  const arrays = new Set(
    lines.flatMap((l) =>
      isCommentLine(l.text, "js")
        ? []
        : ((ARRAY_BINDING.exec(l.text) ?? ARRAY_TYPED.exec(l.text))?.[1] ?? []),
    ),
  );
  if (arrays.size === 0) return [];
  const out: Violation[] = [];
  for (const l of addedCodeLines(file)) {
    const m =
      /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\[\s*Symbol\s*\.\s*(?:iterator|asyncIterator)\s*\]\s*=(?!=)(.*)$/.exec(
        l.text,
      ) ??
      /\b(?:Object|Reflect)\s*\.\s*(?:defineProperty|defineProperties|assign)\s*\(\s*([A-Za-z_$][\w$]*)\s*,(.*)$/.exec(
        l.text,
      );
    if (!m || !arrays.has(m[1]!)) continue;
    const rest = m[2]!;
    // defineProperty/assign: only when it is the iterator that is defined (on this line or the next ones' object).
    if (
      !/\[\s*Symbol\s*\.\s*(?:iterator|asyncIterator)\s*\]|Symbol\s*\.\s*(?:iterator|asyncIterator)/.test(
        m[0],
      )
    )
      continue;
    if (
      /^\s*(?:Array\s*\.\s*prototype\s*\[\s*Symbol\s*\.\s*iterator\s*\]|[\w$]+\s*\.\s*values)\s*;?\s*$/.test(
        rest,
      )
    )
      continue;
    out.push(
      violation(
        file,
        l.newLine,
        "installs its own iterator on one array (the values a loop, a spread or a deep comparison sees can differ from the indexed ones)",
        "iterator-override",
        l.text,
      ),
    );
  }
  return out;
}

/** A call that draws from a random source. */
const DRAW_CALL = String.raw`(?:[\w$]+\s*\.\s*)*(?:random|rand|rng|randomFloat|randbelow|randint|randrange|uniform|nextFloat|nextDouble|next_random|getrandbits|choice)\s*\(`;

/**
 * `[test-double-fingerprint]` by sampling: several draws from a random source gathered and asked whether they are
 * all the same — `new Set(draws).size === 1`, `len(set(draws)) == 1`, `draws.every((d) => d === draws[0])`,
 * `min(draws) == max(draws)` (f13o: a stub `() => 1` returns one value; a real generator never does). Allowed: draws
 * gathered and used, a uniqueness check against the count (`new Set(ids).size === ids.length`: collisions among
 * random ids), and the distinct count of values that are not draws (`new Set(widths).size === 1`: uniform input).
 */
export function randomSampleUniformity(file: FileChange): Violation[] {
  const lang = languageOf(file.newPath ?? "");
  if (lang !== "js" && lang !== "python") return [];
  const added = addedCodeLines(file);
  const drawVars = new Set(added.flatMap((l) => DRAW.exec(l.text)?.[1] ?? []));
  const drawVarRe = String.raw`|(?<![\w$.])(?:${[...drawVars].join("|")})(?![\w$])`;
  const drawn = `(?:${DRAW_CALL}${drawVars.size ? drawVarRe : ""})`;
  const samples = new Set<string>();
  for (const l of added) {
    const bound = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?!=)(.*)$/.exec(l.text);
    if (bound && /[[{(]/.test(bound[2]!) && new RegExp(drawn).test(bound[2]!)) samples.add(bound[1]!);
    const filled = new RegExp(
      String.raw`(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*(?:push|append|add|unshift)\s*\(\s*${drawn}`,
    ).exec(l.text);
    if (filled) samples.add(filled[1]!);
  }
  // Inline: `new Set([random(), random()]).size`, `len({random.random() for _ in range(3)})`.
  const inline = String.raw`(?:new\s+Set\s*\(\s*(?:\[|Array\s*\.\s*from\s*\()[^;]*?${DRAW_CALL}[^;]*?\)\s*\.\s*size|len\s*\(\s*(?:set\s*\(|\{)[^#]*?${DRAW_CALL}[^#]*?[)}]\s*\))`;
  const names = [...samples].join("|");
  const distinct = names
    ? String.raw`(?:new\s+Set\s*\(\s*(?:${names})\s*\)\s*\.\s*size|len\s*\(\s*set\s*\(\s*(?:${names})\s*\)\s*\)|(?<![\w$.])(?:${names})\s*\.\s*size|len\s*\(\s*(?:${names})\s*\)|${inline})`
    : inline;
  const oneValue = String.raw`(?:===?|!==?|<=|>)\s*1(?![\w.])|(?:<|>=)\s*2(?![\w.])`;
  const res = [new RegExp(String.raw`${distinct}\s*(?:${oneValue})`)];
  if (names) {
    res.push(
      new RegExp(
        String.raw`(?<![\w$.])(?:${names})\s*\.\s*every\s*\([^;]*?(?:===?|!==?)\s*(?:${names})\s*\[\s*0\s*\]`,
      ),
      new RegExp(String.raw`\ball\s*\([^#]*?(?:==|!=|\bis\b)\s*(?:${names})\s*\[\s*0\s*\]`),
      new RegExp(
        String.raw`\bmin\s*\(\s*(?:\.\.\.\s*)?(?:${names})\s*\)\s*(?:===?|!==?)\s*(?:Math\s*\.\s*)?max\s*\(\s*(?:\.\.\.\s*)?(?:${names})\s*\)`,
      ),
    );
  }
  // Draws used beyond the comparison (f13r: Yahtzee's `new Set(dice).size === 1` over dice it also returns) are the
  // program's values, not a probe: a use is a line that names them and neither binds, fills, compares nor logs them;
  // on the comparison's own line, what is left once the comparison is cut out, unless the line branches.
  const used = new Set(
    [...samples].filter((n) => {
      const N = new RegExp(String.raw`(?<![\w$.])${escapeRegExp(n)}(?![\w$])`);
      return added.some((l) => {
        const t = l.text;
        if (!N.test(t) || /\b(?:console\s*\.|print\s*\(|log(?:ger|ging)?\s*\.|void\b)/.test(t)) return false;
        const bound = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?!=)/.exec(t);
        if (bound?.[1] === n) return false;
        if (
          new RegExp(String.raw`(?<![\w$.])${escapeRegExp(n)}\s*\.\s*(?:push|append|add|unshift)\s*\(`).test(
            t,
          )
        )
          return false;
        if (!res.some((re) => re.test(t))) return true;
        if (/^\s*(?:\}\s*else\s+)?(?:if|elif|while)\b|\?(?![.?])/.test(t)) return false;
        const rest = res.reduce((r, re) => r.replace(new RegExp(re.source, "g"), ""), t);
        return N.test(rest);
      });
    }),
  );
  const out: Violation[] = [];
  for (const l of added) {
    if (!res.some((re) => re.test(l.text))) continue;
    const named = [...samples].filter((n) =>
      new RegExp(String.raw`(?<![\w$.])${escapeRegExp(n)}(?![\w$])`).test(l.text),
    );
    if (named.length > 0 && named.every((n) => used.has(n))) continue;
    // `new Set(x).size === 1` where x is a collection of draws, but `.size === 1` of a Set of other values is not.
    out.push(
      violation(
        file,
        l.newLine,
        "gathers several random draws and asks whether they are all the same (a constant draw tells a test's stub from a real generator)",
        "test-double-fingerprint",
        l.text,
      ),
    );
  }
  return out;
}
