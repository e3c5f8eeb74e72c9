/**
 * A sentence that leads in to an unquoted array or object literal closing its line: "I expected to get [1, 2]",
 * "What I actually got was ["b", "a"]", "The result I see is { a: 1 }". The lead names its side by its words: what
 * was wanted ("expected", "should", "wanted", "correct") or what the reporter saw in the first person ("I get", "I
 * actually got", "the output is"). A lead that says neither ("The input is [3, 1, 2]", "I sort [3, 1, 2]") or says
 * both states no claim; the literal must hold at least two items (a lone `[x]` is too loose to read in prose).
 */

/** What was wanted. */
const WANTED = /\b(?:expect\w*|should|ought|wants?|wanted|desired|correct|supposed|intended|would\s+like)\b/i;
/** What was seen, in the first person or of the run. */
const SEEN =
  /\b(?:(?:I|we)\s+(?:(?:actually|now|still|instead)\s+)?(?:get|got|see|saw|receive|received|obtain|obtained)|(?:the\s+)?(?:actual\s+)?(?:output|result)\s+(?:I\s+(?:get|got|see|saw)\s+)?(?:is|was))\b/i;
/**
 * The lead (no bracket, brace or backtick in it), then the literal alone up to the line's end. The lead starts on a
 * character its prefix cannot take, so a long run of blanks or quote marks is split one way only (linear).
 */
const LINE =
  /^[ \t>*_]*([^[\]{}`\n \t>*_][^[\]{}`\n]{2,79}?)[ \t]*:?[ \t]*(\[[^\n]{1,400}\]|\{[^\n]{1,400}\})[ \t]*[.!]?[ \t]*$/;
/** The longest line a lead and its literal can make, with room for a quote or list prefix. */
const MAX_LINE = 600;

export interface LeadLiteralClaims {
  actual: string[];
  expected: string[];
}

/** Brackets and braces balance, and close the literal where it ends. */
function balanced(literal: string): boolean {
  let depth = 0;
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i]!;
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth < 0 || (depth === 0 && i < literal.length - 1)) return false;
    }
  }
  return depth === 0;
}

export function leadLiteralClaims(prose: string): LeadLiteralClaims {
  const actual: string[] = [];
  const expected: string[] = [];
  for (const line of prose.split("\n")) {
    if (line.length > MAX_LINE) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const [lead, literal] = [m[1]!, m[2]!];
    if (!balanced(literal) || !literal.includes(",")) continue;
    const wanted = WANTED.test(lead);
    const seen = SEEN.test(lead);
    if (wanted === seen) continue;
    (wanted ? expected : actual).push(literal);
  }
  return { actual, expected };
}
