/**
 * Actual and expected values stated in sentences: "I get `5000` but expected `1000`", "returns X instead of Y",
 * "yet it gives me 3.9473684210526314", "the result is true", "it should be 0.67", "Expected `2`, but I get:".
 * A value is inline code, a quoted string, a number or a literal (true, null, None, NaN, ...).
 */

export interface ProseClaims {
  actual: string[];
  expected: string[];
}

const VALUE = String.raw`(?:\x60([^\x60\n]{1,200})\x60|"([^"\n]{1,200})"|'([^'\n]{1,200})'|(-?\d[\d_]*(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.]*[A-Za-z])|\b(true|false|null|undefined|None|True|False|NaN|Infinity|Invalid Date)\b)`;
const ACTUAL_VERB = String.raw`(?:returns?(?:\s+back)?|returned(?:\s+back)?|gives?(?:\s+(?:me|back|us))?|gave(?:\s+(?:me|back|us))?|yields?|produces?|produced|prints?|printed|outputs?|logs?|logged|(?:I|we)\s+(?:get|got|see|saw|receive|received|obtain)|(?:get|got)|results?\s+(?:is|was|in)|evaluates?\s+to|comes?\s+(?:out|back)\s+as|shows?|displays?)`;
const EXPECTED_VERB = String.raw`(?:expected|expecting|expect(?:ed)?\s+(?:it\s+)?(?:to\s+(?:be|return|get|print|give|see)\s+)?|should\s+(?:be|return|give|print|output|get|show|equal|have\s+been)|ought\s+to\s+(?:be|return|give)|(?:the\s+)?(?:right|correct|expected)\s+(?:answer|result|value|output)\s+(?:is|would\s+be|should\s+be)|instead\s+of|rather\s+than|want(?:ed)?)`;

function claimValue(m: RegExpExecArray, from: number): string | null {
  for (let i = from; i < from + 5; i++) if (m[i] !== undefined) return m[i]!.trim();
  return null;
}

/** Claims in one piece of prose (paragraph text with inline code kept in backticks). */
export function proseClaims(text: string): ProseClaims {
  const actual: string[] = [];
  const expected: string[] = [];
  // "Expected: "x"" / "Actual:   "y"" on lines of their own.
  const labelled = new RegExp(
    `^\\s*[*_]*(expected(?:\\s+(?:result|output|behaviou?r))?|should\\s+be|wanted|actual(?:\\s+(?:result|output|behaviou?r))?|got|result|output|observed|received|current(?:\\s+behaviou?r)?)[*_]*\\s*:[*_]*\\s*${VALUE}\\s*$`,
    "i",
  );
  const rest: string[] = [];
  for (const line of text.split("\n")) {
    const m = labelled.exec(line);
    const v = m ? claimValue(m, 2) : null;
    if (m && v) (/^(expected|should|wanted)/i.test(m[1]!) ? expected : actual).push(v);
    else rest.push(line);
  }
  for (const sentence of rest.join("\n").split(/(?<=[.!?])\s+(?=[A-Z])|\n+/)) {
    // "X instead of Y" / "X rather than Y": both sides in one go.
    const insteadRe = new RegExp(
      `${VALUE}[^\\n]{0,40}?\\b(?:instead\\s+of|rather\\s+than)\\s+${VALUE}`,
      "gi",
    );
    let consumed = false;
    for (const m of sentence.matchAll(insteadRe)) {
      const a = claimValue(m as RegExpExecArray, 1);
      const e = claimValue(m as RegExpExecArray, 6);
      if (a && e) {
        actual.push(a);
        expected.push(e);
        consumed = true;
      }
    }
    if (consumed) continue;
    const expRe = new RegExp(
      `\\b${EXPECTED_VERB}\\s*:?\\s*(?:the\\s+(?:value|string|number|result)\\s+)?${VALUE}`,
      "gi",
    );
    const expSpans: [number, number][] = [];
    for (const m of sentence.matchAll(expRe)) {
      const v = claimValue(m as RegExpExecArray, 1);
      if (v) {
        expected.push(v);
        expSpans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
      }
    }
    const actRe = new RegExp(
      `\\b${ACTUAL_VERB}\\s*:?\\s*(?:the\\s+(?:value|string|number|result)\\s+)?${VALUE}`,
      "gi",
    );
    for (const m of sentence.matchAll(actRe)) {
      const start = m.index ?? 0;
      if (expSpans.some(([s, e]) => start >= s && start < e)) continue;
      // "should return X" was taken as expected above; "it returns X" after "should" in the same clause too.
      const before = sentence.slice(Math.max(0, start - 30), start);
      if (/\b(should|expect\w*|ought|want\w*|would)\s+(\w+\s+)?$/i.test(before)) continue;
      const v = claimValue(m as RegExpExecArray, 1);
      if (v) actual.push(v);
    }
  }
  return { actual: [...new Set(actual)], expected: [...new Set(expected)] };
}
