/**
 * A remark the reporter typed after a line of pasted output, pointing at it: `end=1 → "あ" (width=2)  ← expected
 * width ≤ 1`, `[1, 6, 10]  -- WRONG, 3 is lost`. The program never printed the remark; the line before it is what
 * it printed, and it is the line the reporter calls wrong (issue 12, hold22 slice-ansi-43). Only a remark after a
 * pointing arrow or a spaced dash that opens with a word of verdict counts: `a -> b` or `x -- y` printed by the
 * program itself stays whole. A comment mark does too (`(1+-1j) # should be 1-1j` after a REPL echo): a repr has no
 * `# should …` of its own.
 */
const REMARK =
  /^(.*\S)(?:[ \t]+(?:←|⟵|<-+|<=+|#|\/\/)|[ \t]{2,}(?:--+|—|–))[ \t]*(?:expected|expecting|should|wrong|incorrect|bug(?:gy)?|broken|lost|missing|not[ \t]+ok|why)\b.*$/i;

/** The line without the reporter's trailing remark, and whether it had one. */
export function withoutOutputRemark(line: string): { line: string; remark: boolean } {
  const m = REMARK.exec(line);
  return m?.[1] ? { line: m[1], remark: true } : { line, remark: false };
}
