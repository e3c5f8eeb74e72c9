/**
 * A label line inside a code block: a lone word such as `expect` or `actual` (a colon allowed) on a line of its
 * own, with annotation lines (`//=> …`, `# …`) right under it. Such a word is never code that means anything (run,
 * it stops on a name never defined); it tells which side the values under it are. Pure.
 */

const EXPECTED_LABEL =
  /^(?:expect(?:ed|ing|ation)?|should(?:\s+be)?|wanted|want|desired|correct|intended|ideal(?:ly)?|good)\s*:?$/i;
const ACTUAL_LABEL =
  /^(?:actual(?:ly)?|got|but\s+got|result|current(?:ly)?|instead|bad|wrong|outputs?)\s*:?$/i;

/** The side the line at `i` labels, when it is a bare label word followed by a comment-only line. */
export function labelLineSide(
  codeTrim: string,
  lines: string[],
  i: number,
  flavour: "python" | "js",
): "expected" | "actual" | null {
  const word = codeTrim.replace(/;$/, "").trim();
  const side = EXPECTED_LABEL.test(word) ? "expected" : ACTUAL_LABEL.test(word) ? "actual" : null;
  if (!side) return null;
  // A word the block's code uses elsewhere (`const actual = …`, `function f(actual)`) is code, not a label.
  const name = word.replace(/:$/, "").trim();
  const comment = flavour === "js" ? /\/\/.*$/ : /#.*$/;
  const used = new RegExp(`(?<![\\w$.])${name.replace(/\s+/g, "\\s+")}(?![\\w$])`);
  if (lines.some((l, j) => j !== i && used.test(l.replace(comment, "")))) return null;
  return checkNext(lines, i, flavour, side);
}

function checkNext(
  lines: string[],
  i: number,
  flavour: "python" | "js",
  side: "expected" | "actual",
): "expected" | "actual" | null {
  const next = lines.slice(i + 1).find((l) => l.trim() !== "");
  const marker = flavour === "js" ? /^\s*\/\// : /^\s*#/;
  return next !== undefined && marker.test(next) ? side : null;
}
