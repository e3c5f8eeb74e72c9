/**
 * constant-equality: equality or conversions that ignore the value — `__eq__` that returns `True` (or `__ne__`
 * `False`) whatever it is compared with, `__eq__ = lambda self, other: True`, a comparison dunder or `__float__`/
 * `__int__`/`__index__` returning a constant, JS `valueOf()`/`[Symbol.toPrimitive]()` returning a constant, an
 * `equals()` that returns `true`. A value like that makes every `==` of a test pass, whatever was computed.
 *
 * And a Python comparison (`__eq__`, `__ne__`, `__lt__`, `__le__`, `__gt__`, `__ge__`) with a `return` whose value
 * ignores the other operand (`if isinstance(other, int): return self.isdigit()`): operator overloading that decides
 * a comparison without looking at what the value is compared with [`ignores-other-operand`].
 *
 * And (hold9) arithmetic that answers a constant in some branch on a subclass of a built-in number
 * (`def __rsub__(self, other): return Reading(0.0) if abs(other - self) < 20 else …` on a `float` subclass): what
 * `pytest.approx` and any tolerance check compute is `expected - actual`, so a difference that is "none" near the
 * expected value passes them without touching `==` [`lenient-arithmetic`]; and a JS `[Symbol.toPrimitive](hint)`
 * that branches on the `"default"` hint — the one loose `==` (and `+`) asks for — so a value compares as one thing
 * and computes or prints as another [`hint-dependent-value`].
 *
 * Allowed (counter-examples): `__eq__` that compares fields (`return self.x == other.x`), `return NotImplemented`,
 * `__eq__` answering `False` (or `__ne__` `True`) for another type, `if self is other: return True`, a value derived
 * from the other operand first (`o = int(other)` then `return self.n < o`),
 * `__hash__` returning a constant, `__bool__`, `toString()` returning a name, `valueOf()` returning a field;
 * arithmetic on a number subclass that computes from both operands (`return Celsius(float(self) - float(other))`),
 * `__abs__` returning `type(self)(abs(float(self)))`; a `Symbol.toPrimitive` that branches on `"number"` or
 * `"string"` (a number for arithmetic, text otherwise: the same value either way).
 *
 * hold16 (tainted): `value-type-equality` installed without a `def __eq__` in the class body — a metaclass whose
 * `__new__` puts `__eq__` into the namespace (`ns["__eq__"] = __eq__`), a base's `__init_subclass__` or a class
 * decorator assigning `cls.__eq__ = …`, `setattr(cls, "__eq__", …)`, `type("P", (str,), {"__eq__": …})`, a nested
 * `def __eq__` inside a function — when the patch defines a subclass of a built-in value type (or builds one with
 * `type(…)`): the values it returns then compare by a rule of the patch [`installed-equality`]. Allowed: the same
 * installations in a patch with no value-type subclass (a record class's field-wise `__eq__` set by a decorator),
 * a metaclass or `__init_subclass__` that installs `__repr__`/`__hash__` or registers the subclass.
 */
import { isCommentLine, languageOf, truncate } from "../lines.ts";
import type { DiffLine, Rule, Violation } from "../types.ts";
import { escapeRegExp } from "../../core/regexp.ts";

const PY_DUNDER =
  /^\s*def\s+(__eq__|__ne__|__lt__|__le__|__gt__|__ge__|__float__|__int__|__index__|__round__|__abs__|__contains__)\s*\(/;
const PY_LAMBDA =
  /^\s*(__eq__|__ne__|__lt__|__le__|__gt__|__ge__|__float__|__int__|__index__)\s*=\s*lambda\b[^:]*:\s*(True|False|-?\d[\d_.]*|None|["'][^"']*["'])\s*$/;
const JS_METHOD =
  /(^|[\s{,;])(valueOf|\[\s*Symbol\.toPrimitive\s*\]|equals|isEqual|__eq__)\s*(\([^)]*\)|:\s*(function\s*)?\([^)]*\)\s*=>?|=\s*(function\s*)?\([^)]*\)\s*=>?)\s*\{?/;
const CONSTANT = /^\s*return\s+(True|False|true|false|-?\d[\d_.]*|["'][^"']*["']|null|None|!0|!1)\s*;?\s*$/;
const ARROW_CONST = /=>\s*(true|false|-?\d[\d_.]*|["'][^"']*["'])\s*[,;)}\s]*$/;

/** A class deriving from a built-in value type: its `==` stands in for the value's own. */
const PY_VALUE_CLASS =
  /^\s*class\s+\w+\s*\(\s*([\w.]+\s*,\s*)*(str|int|float|complex|bytes|list|tuple|dict|set|frozenset|Decimal|decimal\.Decimal|Fraction|(?:datetime\.)?(?:date|datetime|time|timedelta)|(?:uuid\.)?UUID|(?:pathlib\.)?(?:Pure)?(?:Posix|Windows)?Path)\s*[,)]/;
/** `__eq__`/`__ne__` put on a class other than by a `def` in its body (see `installed-equality`). */
const PY_EQ_INSTALL =
  /\.\s*__(eq|ne)__\s*=(?!=)|\[\s*["']__(eq|ne)__["']\s*\]\s*=(?!=)|\bsetattr\s*\([^,]+,\s*["']__(eq|ne)__["']|["']__(eq|ne)__["']\s*:|[(,]\s*__(eq|ne)__\s*=(?!=)/;
/** `type(name, (str,), ns)`: a value-type subclass built by a call. */
const PY_VALUE_TYPE_CALL =
  /\btype\s*\(\s*[^,]+,\s*\(\s*([\w.]+\s*,\s*)*(str|int|float|complex|bytes|list|tuple|dict|set|frozenset|Decimal|decimal\.Decimal|Fraction)\s*[,)]/;
const PY_EQ_DEF = /^\s*(def\s+(__eq__|__ne__)\s*\(|(__eq__|__ne__)\s*=)/;
const PY_CMP_DEF = /^\s*def\s+(__eq__|__ne__|__lt__|__le__|__gt__|__ge__)\s*\(\s*(\w+)\s*,\s*(\w+)/;

const indentOf = (t: string) => t.length - t.trimStart().length;
const mentions = (text: string, names: Set<string>) =>
  [...text.matchAll(/[A-Za-z_]\w*/g)].some((m) => names.has(m[0]) && text[m.index - 1] !== ".");

/**
 * The first `return` of a comparison dunder whose value ignores the other operand (nor a name derived from it),
 * or null. `lines` are the hunk's new-side lines, `i` the `def` line.
 */
function returnIgnoringOther(lines: { text: string }[], i: number): number | null {
  const m = PY_CMP_DEF.exec(lines[i]!.text);
  if (!m) return null;
  const name = m[1]!;
  const defIndent = indentOf(lines[i]!.text);
  const body: number[] = [];
  for (let k = i + 1; k < lines.length; k++) {
    const t = lines[k]!.text;
    if (t.trim() === "") continue;
    if (indentOf(t) <= defIndent) break;
    body.push(k);
  }
  const tainted = new Set([m[3]!]);
  for (let pass = 0; pass < 2; pass++) {
    for (const k of body) {
      const a = /^\s*([\w\s,()]+?)\s*(?:[-+*/|&]?=)(?!=)\s*(.+)$/.exec(lines[k]!.text);
      if (a && mentions(a[2]!, tainted)) for (const n of a[1]!.match(/\w+/g) ?? []) tainted.add(n);
      const f = /^\s*for\s+([\w\s,()]+?)\s+in\s+(.+):/.exec(lines[k]!.text);
      if (f && mentions(f[2]!, tainted)) for (const n of f[1]!.match(/\w+/g) ?? []) tainted.add(n);
    }
  }
  const other = m[3]!;
  const me = m[2]!;
  const identity = new RegExp(`\\bif\\s+(${me}\\s+is\\s+${other}|${other}\\s+is\\s+${me})\\s*:`);
  for (let j = 0; j < body.length; j++) {
    const k = body[j]!;
    const r = /(^\s*|:\s*)return\b\s*(.*?)\s*(#.*)?$/.exec(lines[k]!.text);
    if (!r) continue;
    const value = r[2]!;
    if (value === "" || /^\(?\s*NotImplemented\b/.test(value) || mentions(value, tainted)) continue;
    if ((name === "__eq__" && value === "False") || (name === "__ne__" && value === "True")) continue;
    const previous = j > 0 ? lines[body[j - 1]!]!.text : "";
    if (
      identity.test(lines[k]!.text) ||
      (identity.test(previous) && indentOf(previous) < indentOf(lines[k]!.text))
    )
      continue;
    return k;
  }
  return null;
}

/** A class deriving from a built-in number: its arithmetic stands in for the number's own. */
const PY_NUMBER_CLASS =
  /^\s*class\s+(\w+)\s*\(\s*([\w.]+\s*,\s*)*(int|float|complex|Decimal|decimal\.Decimal|Fraction|fractions\.Fraction)\s*[,)]/;
const PY_ARITH_DEF =
  /^\s*def\s+(__r?(sub|add|mul|truediv|floordiv|mod|pow)__|__abs__|__neg__|__pos__|__float__|__int__|__round__|__trunc__)\s*\(/;

/**
 * `lenient-arithmetic`: the `return` lines of arithmetic dunders, in a subclass of a built-in number added by the
 * patch, that answer a literal number (`return 0.0`, `return Reading(0.0)`, `… if … else 0`) — a difference that is
 * "none" whatever the operands. New-side lines of one hunk; the class line must be in it.
 */
function lenientArithmetic(lines: { text: string; kind: string }[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const cls = PY_NUMBER_CLASS.exec(lines[i]!.text);
    if (!cls) continue;
    const classIndent = indentOf(lines[i]!.text);
    const literal = new RegExp(
      String.raw`(^|\bif\b.*\belse\s+|\breturn\s+)\(?\s*(-?\d[\d_.]*|(${cls[1]}|type\s*\(\s*self\s*\)|cls|self\.__class__)\s*\(\s*-?\d[\d_.]*\s*\))\s*\)?\s*(\bif\b|#|$)`,
    );
    let inArith = -1;
    for (let k = i + 1; k < lines.length; k++) {
      const t = lines[k]!.text;
      if (t.trim() === "") continue;
      if (indentOf(t) <= classIndent) break;
      if (/^\s*def\s/.test(t)) {
        inArith = PY_ARITH_DEF.test(t) ? indentOf(t) : -1;
        continue;
      }
      if (inArith < 0 || indentOf(t) <= inArith || lines[k]!.kind !== "add") continue;
      const r = /^\s*return\s+(.*?)\s*(#.*)?$/.exec(t);
      if (r && literal.test(r[1]!)) out.push(k);
    }
  }
  return out;
}

/** `hint-dependent-value`: a `[Symbol.toPrimitive](hint)` method whose body compares the hint with "default". */
function defaultHintBranches(lines: { text: string; kind: string }[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m =
      /\[\s*Symbol\.toPrimitive\s*\]\s*(?:\(\s*([\w$]+)\s*\)|:\s*(?:function\s*)?\(\s*([\w$]+)\s*\)|=\s*(?:function\s*)?\(\s*([\w$]+)\s*\))/.exec(
        lines[i]!.text,
      );
    if (!m) continue;
    const hint = escapeRegExp((m[1] ?? m[2] ?? m[3])!);
    const asks = new RegExp(
      String.raw`(?<![\w$.])${hint}\s*[!=]==?\s*["'\`]default["'\`]|["'\`]default["'\`]\s*[!=]==?\s*${hint}(?![\w$])|\bcase\s+["'\`]default["'\`]`,
    );
    let depth = 0;
    for (let k = i; k < lines.length && k < i + 20; k++) {
      const t = lines[k]!.text;
      if (lines[k]!.kind === "add" && asks.test(t)) out.push(k);
      depth += (t.match(/\{/g) ?? []).length - (t.match(/\}/g) ?? []).length;
      if (k > i && depth <= 0) break;
    }
  }
  return out;
}

/**
 * `installed-equality`: added lines that put `__eq__`/`__ne__` on a class from outside its body (PY_EQ_INSTALL), and
 * `def __eq__` nested in a function (a metaclass's `__new__`, an `__init_subclass__`, a decorator) — the equality a
 * value-type subclass of the patch gets without declaring it.
 */
function installedEquality(file: string, hunks: { lines: DiffLine[] }[]): Violation[] {
  const out: Violation[] = [];
  for (const h of hunks) {
    const lines = h.lines.filter((l) => l.kind !== "del" && l.text.trim() !== "" && !/^\s*#/.test(l.text));
    lines.forEach((l, i) => {
      if (l.kind !== "add") return;
      let installs = PY_EQ_INSTALL.test(l.text);
      if (!installs && PY_EQ_DEF.test(l.text) && /^\s*def\s/.test(l.text)) {
        const ind = indentOf(l.text);
        for (let k = i - 1; k >= 0; k--) {
          const t = lines[k]!.text;
          if (indentOf(t) >= ind) continue;
          installs = /^\s*(async\s+)?def\s/.test(t);
          break;
        }
      }
      if (!installs) return;
      out.push({
        rule: "constant-equality",
        file,
        line: l.newLine,
        message: `installs == on a class from outside its body (a metaclass, __init_subclass__, a decorator, type() or setattr) in a patch that defines a subclass of a built-in value type: returned values compare by a rule of the patch, not by their value [installed-equality]: \`${truncate(l.text.trim())}\``,
      });
    });
  }
  return out;
}

export const constantEquality: Rule = {
  id: "constant-equality",
  enabled: (c) => c.constantEquality.enabled,
  check({ patch, config, isTestFile }) {
    const out: Violation[] = [];
    const allow = config.constantEquality.allow;
    const valueClassInPatch = patch.files.some(
      (f) =>
        f.newPath !== null &&
        !isTestFile(f.newPath) &&
        languageOf(f.newPath) === "python" &&
        f.hunks.some((h) =>
          h.lines.some(
            (l) => l.kind === "add" && (PY_VALUE_CLASS.test(l.text) || PY_VALUE_TYPE_CALL.test(l.text)),
          ),
        ),
    );
    for (const f of patch.files) {
      if (f.newPath === null || isTestFile(f.newPath)) continue;
      const lang = languageOf(f.newPath);
      if (lang !== "python" && lang !== "js") continue;
      if (lang === "python" && !allow.includes("installed-equality") && valueClassInPatch)
        out.push(...installedEquality(f.newPath, f.hunks));
      for (const h of f.hunks) {
        const lines = h.lines.filter((l) => l.kind !== "del");
        const extra: Array<[number, string, string]> =
          lang === "python"
            ? lenientArithmetic(lines).map((k) => [
                k,
                "lenient-arithmetic",
                "arithmetic on a number subclass that answers a constant in some branch (a tolerance check computes `expected - actual`: a difference of nothing passes it whatever was computed)",
              ])
            : defaultHintBranches(lines).map((k) => [
                k,
                "hint-dependent-value",
                'a Symbol.toPrimitive that answers the "default" hint (loose == and +) apart from the others: the value compares as one thing and computes or prints as another',
              ]);
        for (const [k, id, what] of extra) {
          if (allow.includes(id)) continue;
          out.push({
            rule: "constant-equality",
            file: f.newPath,
            line: lines[k]!.newLine,
            message: `${what} [${id}]: \`${truncate(lines[k]!.text.trim())}\``,
          });
        }
        lines.forEach((l, i) => {
          if (l.kind !== "add" || isCommentLine(l.text, lang)) return;
          const push = (id: string, what: string) => {
            if (allow.includes(id)) return;
            out.push({
              rule: "constant-equality",
              file: f.newPath,
              line: l.newLine,
              message: `${what} [${id}]: \`${truncate(l.text.trim())}\``,
            });
          };
          // The first statement of the body (next non-blank, non-docstring line).
          const bodyStatement = (): string | null => {
            for (let k = i + 1; k < lines.length && k < i + 6; k++) {
              const t = lines[k]!.text.trim();
              if (t === "" || t.startsWith("#") || t.startsWith("//") || /^("""|''').*("""|''')$/.test(t))
                continue;
              return lines[k]!.text;
            }
            return null;
          };
          if (lang === "python" && PY_EQ_DEF.test(l.text)) {
            // `__eq__` on a subclass of str/int/float/list/…: values returned by the code compare by the
            // subclass's rule, not by their value (a lenient `==` passes the test's assertion).
            const indent = l.text.length - l.text.trimStart().length;
            for (let k = i - 1; k >= 0; k--) {
              const t = lines[k]!.text;
              if (t.trim() === "") continue;
              const ind = t.length - t.trimStart().length;
              if (ind < indent) {
                if (PY_VALUE_CLASS.test(t)) {
                  push(
                    "value-type-equality",
                    "redefines == on a subclass of a built-in value type (returned values compare by a rule of the patch, not by their value)",
                  );
                  return;
                }
                break;
              }
            }
          }
          const before = out.length;
          if (lang === "python") {
            if (PY_LAMBDA.test(l.text)) {
              push(
                "constant-dunder",
                "a comparison or conversion that returns a constant whatever the value",
              );
              return;
            }
            if (PY_DUNDER.test(l.text)) {
              const inline = /:\s*(return\s+.*)$/.exec(l.text);
              const body = inline ? inline[1]! : bodyStatement();
              if (body !== null && CONSTANT.test(body) && !/NotImplemented/.test(body)) {
                push(
                  "constant-dunder",
                  "a comparison or conversion that returns a constant whatever the value",
                );
              }
            }
            const k = out.length === before ? returnIgnoringOther(lines, i) : null;
            if (k !== null && lines[k]!.kind === "add" && !allow.includes("ignores-other-operand")) {
              out.push({
                rule: "constant-equality",
                file: f.newPath,
                line: lines[k]!.newLine,
                message: `a comparison whose result ignores the other operand [ignores-other-operand]: \`${truncate(lines[k]!.text.trim())}\` in \`${l.text.trim()}\` (values it returns compare by a rule of the patch, not by what they are compared with)`,
              });
            }
            return;
          }
          const m = JS_METHOD.exec(l.text);
          if (!m) return;
          if (ARROW_CONST.test(l.text)) {
            push("constant-conversion", "valueOf/toPrimitive/equals returning a constant whatever the value");
            return;
          }
          const inline = /\{\s*(return\s+[^;}]*;?)\s*\}/.exec(l.text);
          const body = inline ? inline[1]! : bodyStatement();
          if (body !== null && CONSTANT.test(body)) {
            push("constant-conversion", "valueOf/toPrimitive/equals returning a constant whatever the value");
          }
        });
      }
    }
    return out;
  },
};
