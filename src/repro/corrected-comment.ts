/**
 * A bare comment after an expression (`f('hello, world!') // Hello, world!`) that the report's prose corrects
 * ("the output should be `Hello, World!`"): the same text but for letter case, spacing or quotes, and not equal
 * to it. That comment is what the expression gave, as the reporter saw it, written without an arrow; read as
 * the expression's result, so the run echoes it and the comparison has the reported value (issue 12, hold26).
 * A comment the prose states as the wanted value itself, a comment unlike every stated value (words about the
 * code), and a comment on a declaration or an assignment stay comments. Pure: a block's code and the prose's
 * expected values in, the code with an arrow written in (or null) out.
 */
import { type Flavour, splitComment } from "./annotations.ts";

const loose = (v: string) => v.toLowerCase().replace(/[\s'"`]+/g, "");

const NOT_EXPRESSION =
  /^\s*(?:const|let|var|function|class|def|import|from|return|if|for|while|print\s*\(|console\.)\b|^\s*[\w$.[\]'"]+\s*[-+*/%]?=(?![=>])/;

export function correctedComments(
  code: string,
  flavour: Flavour,
  expected: readonly string[],
): string | null {
  const wanted = expected.map((e) => e.trim()).filter((e) => e.length >= 2 && e.length <= 160);
  if (wanted.length === 0) return null;
  let changed = false;
  const lines = code.split("\n").map((line) => {
    const { code: stmt, comment } = splitComment(line, flavour);
    if (comment === null || stmt.trim() === "" || NOT_EXPRESSION.test(stmt)) return line;
    const t = comment.trim();
    if (t.length < 2 || /^(?:=+>|-+>|→|⇒)/.test(t)) return line;
    if (wanted.includes(t) || !wanted.some((w) => loose(w) === loose(t))) return line;
    changed = true;
    return `${stmt.trimEnd()} ${flavour === "python" ? "#" : "//"} => ${t}`;
  });
  return changed ? lines.join("\n") : null;
}
