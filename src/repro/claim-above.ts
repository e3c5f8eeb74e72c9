/**
 * A comment line written over the statement it describes, stating both sides: "should returns true, but returns
 * false", "should be 3 but is 4". The statement right under it is the call whose value is claimed (annotations.ts
 * echoes it); only literal values count (true/false/null/undefined, numbers, quoted strings, brackets), so a
 * sentence about something else is never a claim. Pure; imports nothing, so annotations.ts can use it.
 */

const CLAIM =
  /^(?:it\s+|this\s+|that\s+)?should\s+(?:be|returns?|give|gives|print|prints|equal|equals|output|outputs|evaluate\s+to)\s+(.+?)\s*,?\s+but\s+(?:it\s+|this\s+)?(?:returns?|returned|gives?|gave|prints?|printed|is|was|got|gets|outputs?|evaluates\s+to)\s+(.+?)\s*[.!]?$/i;

const LITERAL =
  /^(?:true|false|null|undefined|NaN|-?Infinity|None|True|False|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|"[^"]*"|'[^']*'|`[^`]*`|\[.*\]|\{.*\})$/;

/** Both values of such a comment, when the next line is a statement; else null. */
export function claimAbove(
  comment: string,
  nextLine: string | undefined,
): { actual: string; expected: string } | null {
  const next = (nextLine ?? "").trim();
  if (next === "" || /^(?:\/\/|#|\/\*)/.test(next)) return null;
  const m = CLAIM.exec(comment.trim());
  if (!m) return null;
  const expected = m[1]!.trim();
  const actual = m[2]!.trim();
  if (!LITERAL.test(expected) || !LITERAL.test(actual) || expected === actual) return null;
  return { actual, expected };
}
