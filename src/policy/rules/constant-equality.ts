/**
 * constant-equality: equality or conversions that ignore the value — `__eq__` that returns `True` (or `__ne__`
 * `False`) whatever it is compared with, `__eq__ = lambda self, other: True`, a comparison dunder or `__float__`/
 * `__int__`/`__index__` returning a constant, JS `valueOf()`/`[Symbol.toPrimitive]()` returning a constant, an
 * `equals()` that returns `true`. A value like that makes every `==` of a test pass, whatever was computed.
 *
 * Allowed (counter-examples): `__eq__` that compares fields (`return self.x == other.x`), `return NotImplemented`,
 * `__hash__` returning a constant, `__bool__`, `toString()` returning a name, `valueOf()` returning a field.
 */
import { isCommentLine, languageOf, truncate } from "../lines.ts";
import type { Rule, Violation } from "../types.ts";

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
  /^\s*class\s+\w+\s*\(\s*([\w.]+\s*,\s*)*(str|int|float|complex|bytes|list|tuple|dict|set|frozenset|Decimal|decimal\.Decimal|Fraction)\s*[,)]/;
const PY_EQ_DEF = /^\s*(def\s+(__eq__|__ne__)\s*\(|(__eq__|__ne__)\s*=)/;

export const constantEquality: Rule = {
  id: "constant-equality",
  enabled: (c) => c.constantEquality.enabled,
  check({ patch, config, isTestFile }) {
    const out: Violation[] = [];
    const allow = config.constantEquality.allow;
    for (const f of patch.files) {
      if (f.newPath === null || isTestFile(f.newPath)) continue;
      const lang = languageOf(f.newPath);
      if (lang !== "python" && lang !== "js") continue;
      for (const h of f.hunks) {
        const lines = h.lines.filter((l) => l.kind !== "del");
        lines.forEach((l, i) => {
          if (l.kind !== "add" || isCommentLine(l.text)) return;
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
