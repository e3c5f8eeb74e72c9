/**
 * A Python standard-library call stated in prose alone (issue 12, hold22 math-96520's shape): no code block, but a
 * sentence names the call, its argument and what it gives — "Calling math.sin() with 90 as the argument returns
 * 0.8939966636005579 rather than 1.0", "`statistics.median([1, 3])` gives `2.0`". A maintainer reproduces it by
 * writing the obvious two lines; this writes them: `import math` / `print(math.sin(90))`.
 *
 * Deterministic and narrow, every part tied by one sentence:
 * - the callee is `module.function` (one attribute, or `module.Class.method`-free: `os.path.x` counts as a module
 *   path) whose first part is a standard-library module;
 * - the arguments are literals only (numbers, quoted strings, True/False/None, lists or tuples of those), written
 *   inside the call's parentheses or after it ("with 90", "with 90 as the argument", "on `'a b'`", "for 2.5");
 * - the value follows a verb of outcome after the call (returns, gives, yields, prints, outputs, evaluates to,
 *   results in, comes out as); words of wanting before that verb ("should return", "I expect … to give") make the
 *   sentence the expected side, never a claim. "rather than / instead of / but expected V" gives the expected value.
 *
 * Never a sentence about the documentation, another Python version or the past, and only where the sentence calls
 * the value wrong ("but", "rather than", "instead of", "wrongly") or gives the value wanted (rv21 F1).
 *
 * Null when any part is missing or the report has code; npm packages are `prose-call.ts`'s. Pure.
 */
import type { Program } from "./complete.ts";
import { PYTHON_STDLIB_MODULE_NAMES } from "./python-stdlib.ts";
import type { ReportedBehaviour } from "./result.ts";

export interface PyProseCall {
  /** The module to import (`math`, `os.path`). */
  module: string;
  /** The call as Python source (`math.sin(90)`). */
  call: string;
  /** The value the report says the call gives. */
  claimed: string;
  /** The value the report wants, when it says one. */
  expected: string | null;
  /** The sentence it was read from. */
  sentence: string;
}

const STDLIB = new Set(PYTHON_STDLIB_MODULE_NAMES);
const SCALAR = String.raw`(?:-?\d+(?:\.\d+)?(?:e[-+]?\d+)?j?|'[^'\\\n]{0,80}'|"[^"\\\n]{0,80}"|True|False|None)`;
const LITERAL = String.raw`(?:${SCALAR}|\[(?:\s*${SCALAR}\s*(?:,\s*${SCALAR}\s*){0,20},?)?\]|\((?:\s*${SCALAR}\s*,(?:\s*${SCALAR}\s*,?){0,20})?\))`;
const ARGS = String.raw`(?:${LITERAL}(?:\s*,\s*${LITERAL}){0,5})?`;
const ARGS_ONLY = new RegExp(`^\\s*${ARGS}\\s*$`);
/** `module.function(…)` with `…` any text without parentheses of its own (checked below to be literals). */
const CALL =
  /(?<![\w.])([a-z_][a-z0-9_]{0,30}(?:\.[a-z_][a-z0-9_]{0,30}){0,2})\.([A-Za-z_]\w{0,40})\(([^()\n]{0,200})\)/g;
/** The argument written after an empty call: "with 90 (as the argument)", "on 'x'", "for 2.5", "of -1". */
const AFTER_ARG = new RegExp(
  `^[\\x60*_]*\\s+(?:with|on|for|of|given|passing)\\s+(?:the\\s+(?:argument|value|input)\\s+)?[\\x60*_]*(${LITERAL})[\\x60*_]*(?:\\s+as\\s+(?:the\\s+|its\\s+)?(?:argument|input|parameter))?`,
);
const VALUE = String.raw`[\x60*_]*(${LITERAL}|-?(?:inf|nan)|[A-Za-z_]\w*(?:\([^()\n]{0,60}\))?)[\x60*_]*`;
const OUTCOME = new RegExp(
  String.raw`^[^.!?\n]{0,80}?\b(returns?|returned|gives?(?:\s+(?:me|back))?|gave(?:\s+me)?|yields?|prints?|printed|outputs?|evaluates\s+to|results\s+in|comes?\s+out\s+as|produces?|is)\s+(?:the\s+value\s+)?${VALUE}`,
  "i",
);
const WANTING = /\b(?:should|shouldn['’]?t|expect\w*|ought|want\w*|supposed|would|hope\w*|need\w*)\b/i;
const GOOD =
  /\b(?:rightly|correctly|properly|as\s+(?:it\s+should|expected|documented)|which\s+is\s+(?:right|correct|fine))\b/i;
/** A sentence about documented behaviour, not this run's ("The documentation says `math.isqrt(17)` returns 4"). */
const DOCUMENTED =
  /\b(?:docs?|documentation|documented|docstring|according\s+to|the\s+manual|PEP\s*\d+|spec(?:ification)?)\b/i;
/** A Python version named around the call ("on Python 3.9", "In Python 2", "but `2` on 3.12"): another run's value. */
const VERSION =
  /\b(?:c?python|py)\s*v?[23](?:\.\d+)*\b|\b(?:on|in|under|since|before|after|until|from|with)\s+(?:version\s+|v)?[23]\.\d{1,2}(?:\.\d+)?\b/i;
/** A value from before ("returned", "used to give", "previously"): the past, not what the call gives now. */
const PAST = /^(?:returned|gave(?:\s+me)?|printed)$/i;
const PAST_WORDS = /\b(?:used\s+to|previously|formerly|originally|in\s+the\s+past)\b/i;
/** Words saying the stated value is the wrong one; without them (or an expected value) it may be the right one. */
const WRONG_MARK = /\b(?:but|yet|rather\s+than|instead\s+of|wrongly|incorrectly|erroneously)\b/i;
const EXPECTED_AFTER = new RegExp(
  String.raw`^\s*[,;]?\s*(?:\(?\s*)?(?:rather\s+than|instead\s+of|(?:but|while|whereas)\s+(?:I\s+)?expected|(?:but|while|whereas)\s+(?:it\s+)?should\s+(?:be|return|give))\s+${VALUE}`,
  "i",
);

/** A quoted string's text, as `print` shows it; anything else as written. */
function unquote(v: string): string {
  const q = /^(['"])(.*)\1$/.exec(v);
  return q ? q[2]! : v;
}

/** The call a report's prose states, or null. Only for a report with no code to run. */
export function readPyProseCall(prose: string): PyProseCall | null {
  const text = prose.replace(/\r\n?/g, "\n");
  for (const sentence of text.split(/(?<=[.!?])\s+(?=[A-Z`*_])|\n{2,}/)) {
    for (const m of sentence.matchAll(CALL)) {
      const module = m[1]!;
      if (!STDLIB.has(module.split(".")[0]!)) continue;
      let args = m[3]!.trim();
      let rest = sentence.slice((m.index ?? 0) + m[0].length);
      if (args === "") {
        const after = AFTER_ARG.exec(rest);
        if (after) {
          args = after[1]!;
          rest = rest.slice(after[0].length);
        }
      }
      if (args === "" || !ARGS_ONLY.test(args)) continue;
      const before = sentence.slice(0, m.index ?? 0);
      const r = rest.replace(/^[\x60*_]+/, "");
      const out = OUTCOME.exec(r);
      if (!out) continue;
      const verbPart = out[0].slice(0, out[0].length - out[2]!.length);
      if (WANTING.test(`${before.slice(-120)} ${verbPart}`)) continue;
      // "os.path.exists("") rightly returns False, yet …": the value called right is the good side, not the claim.
      if (
        GOOD.test(verbPart) ||
        GOOD.test(r.slice(out.index + out[0].length, out.index + out[0].length + 40))
      )
        continue;
      // "is" alone is a verb of outcome only before a literal ("… math.sin(90) is 0.89"), never "is called".
      if (/^is$/i.test(out[1]!) && !new RegExp(`^${LITERAL}$`).test(out[2]!)) continue;
      const claimed = unquote(out[2]!);
      if (claimed === "") continue;
      // Documented behaviour, another Python's or the past's value: not what this call gives here (rv21 F1).
      if (DOCUMENTED.test(sentence) || VERSION.test(`${before} ${rest}`)) continue;
      if (PAST.test(out[1]!.trim()) || PAST_WORDS.test(`${before.slice(-120)} ${verbPart}`)) continue;
      const exp = EXPECTED_AFTER.exec(r.slice(out.index + out[0].length));
      // The value must be called wrong, or the value wanted given: a bare "returns 'b'" may be the right answer.
      if (!exp && !WRONG_MARK.test(sentence)) continue;
      return {
        module,
        call: `${module}.${m[2]!}(${args})`,
        claimed,
        expected: exp ? unquote(exp[1]!) : null,
        sentence: sentence.trim(),
      };
    }
  }
  return null;
}

/** The program and the claim for `call`: import the module, print what the call gives. */
export function pyProseCallProgram(call: PyProseCall): { program: Program; actual: ReportedBehaviour } {
  const code = [
    "# Retrace wrote this program from the report's prose: the report has no code that runs.",
    `import ${call.module}`,
    `print(${call.call})`,
    "",
  ].join("\n");
  return {
    program: {
      language: "python",
      runtime: "python",
      files: { "reproduction.py": code },
      entry: "reproduction.py",
      moduleFormat: null,
      completions: [
        `the report has no code that runs: Retrace wrote the call from the report's prose ("${call.sentence.slice(0, 160)}") and printed what \`${call.call}\` gives`,
      ],
      dependencies: [],
      ecosystem: "pypi",
      placeholders: [],
    },
    actual: {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: [call.claimed],
      source: `the report's prose (\`${call.call}\` stated to give \`${call.claimed}\`)`,
    },
  };
}

/**
 * The prose call of a Python report with no code that runs: its program, claim and expected value, or null. Only
 * where the report is a Python one (its runtime, a CPython template, pip), so an npm report's `os.platform()` or
 * `string.x(…)` in prose is never read as Python.
 */
export function pyProseCallFor(
  report: { runtime: { name: string } | null; proseWithCode: string; title: string },
  markdown: string,
): { program: Program; actual: ReportedBehaviour; expectedOutput: string[] } | null {
  if (report.runtime?.name !== "python" && !/\b(?:c?python[23]?|pip3?|pypi)\b/i.test(markdown)) return null;
  const call = readPyProseCall(report.proseWithCode);
  if (!call) return null;
  return { ...pyProseCallProgram(call), expectedOutput: call.expected !== null ? [call.expected] : [] };
}
