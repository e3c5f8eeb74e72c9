/**
 * Words introducing a pasted output or error as the behaviour that is RIGHT, not the one reported: "whereas
 * CPython 3.10 raises:", "CPython correctly gives:", "in 3.10 it works:", "expected (as in Node 16):", "it used
 * to print:". Such a block is the expected side of the report: never its claim, and a run that shows it shows the
 * behaviour the report asks for. Pure.
 *
 * Only the last clause of the lead decides (the one that introduces the block): "It works on Node 16, but Node 18
 * prints:" introduces Node 18's output, which is the claim. A clause is the right side when it says so
 * (correct, works, as expected, should, used to) and says nothing bad, or when it names the reference
 * implementation (CPython) while an earlier clause names another one (Brython, PyPy, …), which is the one reported.
 */
import { GOOD_LEAD_CLAUSE as GOOD_CLAUSE } from "./good-side-words.ts";
/** Python implementations other than CPython, as a side's label or a lead's words name them (here, not in two-versions.ts, which imports the parsed report: one place for the list without an import cycle). */
export const ALTERNATIVE_PYTHON =
  /^(?:pypy|brython|jython|ironpython|graalpy|micropython|rustpython|skulpt|pyodide|transcrypt)/i;

/** Clause boundaries: sentence and clause punctuation, and the words that set one side against the other. */
const CLAUSE_BREAK =
  /[.;!?](?=\s|$)|,|\b(?:whereas|while|but|though|although|however|unlike|in contrast|compared (?:to|with)|on the other hand)\b/gi;
/** Words that call it wrong (or only look good: "does not work", "should not"), which the good words must not carry. */
const BAD_CLAUSE =
  /\b(?:not|n't|never|no longer|unexpected(?:ly)?|wrong(?:ly)?|incorrect(?:ly)?|broken|bug(?:gy)?|fails?|failing|failed|regress\w*|crash\w*)\b|n't\b/i;
/** The reference Python, as a report names it beside another implementation. */
const REFERENCE_PYTHON = /\b(?:CPython|the reference implementation)\b/i;

/** The clause of `lead` that introduces the block (its last one), and the text before it. */
function lastClause(lead: string): { clause: string; before: string } {
  const text = lead.trim();
  let at = 0;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    const end = (m.index ?? 0) + m[0].length;
    // A break at the very end ("raises:" has none; "gives.") does not start a clause.
    if (text.slice(end).trim().replace(/:$/, "") !== "") at = end;
  }
  return { clause: text.slice(at), before: text.slice(0, at) };
}

/** Whether `lead` introduces its block as the right behaviour (the expected side), not the reported one. */
export function referenceLead(lead: string | null): boolean {
  if (!lead) return false;
  // "Minimal working example:" names code that runs (the reproducer), not code that behaves right.
  const text = lead
    .replace(/[*_`]/g, "")
    .replace(/\bworking\s+(?:example|snippet|code|sample|demo|repro\w*|test\s*case)\b/gi, "example")
    .trim();
  // A lead that is only the contrast, between the block it follows and this one ("`f` raises [block] rather than
  // [block]"): the block after it is what should have happened.
  if (/^(?:(?:and|but)\s+)?(?:rather\s+than|instead\s+of)\s*:?$/i.test(text)) return true;
  // A lead introduces what follows: it ends with a colon, or is short enough to be a label.
  if (text.length > 300 || !/:\s*$/.test(text)) return false;
  const { clause, before } = lastClause(text);
  if (BAD_CLAUSE.test(clause)) return false;
  if (GOOD_CLAUSE.test(clause)) return true;
  // "On Brython this finishes without any exception, whereas CPython 3.10 raises:": CPython is the reference.
  const alternativeBefore = before
    .split(/\s+/)
    .some((w) => ALTERNATIVE_PYTHON.test(w.replace(/^[^\w]+/, "")));
  return REFERENCE_PYTHON.test(clause) && !ALTERNATIVE_PYTHON.test(clause) && alternativeBefore;
}
