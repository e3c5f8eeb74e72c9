/**
 * Which side of a regression the report's words put a version label on ("3.12 worked", "broken since 4.2"), and
 * the text without the reporter's hedges. Shared by two-versions.ts and good-version-lead.ts; it imports neither,
 * so parse-report.ts can use the lead rule without an import cycle. Pure.
 */
import { escapeRegExp } from "../core/regexp.ts";
import { GOOD_BEFORE, GOOD_AFTER_LABEL as GOOD_AFTER, GOOD_LEAD_WORDS } from "./good-side-words.ts";

const BAD =
  /\b(ought to be (?:patched|fixed|changed)|should be (?:patched|fixed|changed)|needs? (?:a )?fix|broken|regress\w*|wrong|incorrect|bug(?:gy)?|fails?|failing|since upgrading|after upgrading|crash\w*|not work\w*|doesn'?t work)\b|\bsince\s+(?:python\s*|node(?:\.js)?\s*|v(?:ersion)?\s*)?\d/i;
/**
 * Words saying a behaviour went away ("stopped raising", "no longer raises", "does not raise … any more"): the
 * versions named with them are the regression's, the bad side.
 */
export const REGRESSED =
  /\b(?:stopped|ceased) (?:\w+ing)\b|\bno longer\b|\b(?:does|do|did|is|are|will|would)\s*(?:n'?t|not)\b[^.\n]{0,160}?\bany ?more\b/i;

/** How a side's label can be written in prose: `python3.12` is also "3.12", "Python 3.12". */
export function labelPattern(label: string): RegExp {
  const version = /^(?:python|pypy|node(?:js)?)\s*v?(\d+(?:\.\d+)+)$/i.exec(label)?.[1];
  // `left-pad@1.3.0` is also "left-pad 1.3.0", "left-pad v1.3.0".
  const pkg = /^((?:@[\w.-]+\/)?[A-Za-z][\w.-]*)@(\d+(?:\.\d+)+[\w.-]*)$/.exec(label);
  const alternatives = [
    escapeRegExp(label),
    ...(version ? [escapeRegExp(version)] : []),
    ...(pkg ? [`${escapeRegExp(pkg[1]!)}\\s+v?${escapeRegExp(pkg[2]!)}`] : []),
  ];
  return new RegExp(`(?<![\\w.])(?:${alternatives.join("|")})(?![\\w]|\\.\\d)`, "gi");
}

export function verdictFor(label: string, text: string): "bad" | "good" | null {
  if (!label) return null;
  const re = labelPattern(label);
  let bad = 0;
  let good = 0;
  for (const clause of text.split(
    /[.;!?](?=\s|$)|\n|,\s*(?:so|but|and|while|whereas)\b|\b(?:whereas|while)\b/,
  )) {
    for (const m of clause.matchAll(re)) {
      const before = clause.slice(0, m.index ?? 0);
      const after = clause.slice((m.index ?? 0) + m[0].length);
      if (GOOD_BEFORE.test(before) || GOOD_AFTER.test(after)) good++;
      else if (BAD.test(clause) || REGRESSED.test(clause)) bad++;
    }
  }
  return bad > good ? "bad" : good > bad ? "good" : null;
}

/**
 * What the words introducing one transcript say of it: "(behaves as expected)", "works fine", "correct" →
 * good; "(rather unexpected)", "wrong", "broken", "buggy" → bad; null when they say neither or both.
 */
export function leadVerdict(lead: string): "bad" | "good" | null {
  const text = withoutHedges(lead.toLowerCase());
  const bad =
    /\b(?:unexpected(?:ly)?|not (?:as )?expected|wrong|incorrect|broken|bug(?:gy)?|fails?|failing|regress\w*|not work\w*|doesn'?t work)\b/.test(
      text,
    ) || REGRESSED.test(text);
  const good = !bad && GOOD_LEAD_WORDS.test(text);
  return bad ? "bad" : good ? "good" : null;
}

/**
 * The text without what the reporter says they are unsure of ("I'm not sure this is a regression, but …"): a
 * word under a hedge says nothing of either side.
 */
export function withoutHedges(text: string): string {
  return text.replace(
    /\b(?:not\s+(?:sure|certain)|unsure|(?:do\s*n[o']?t|don't)\s+know|no\s+idea|wonder(?:ing)?)\b(?:\s+(?:if|whether|that))?[^,.;:!?\n]*/gi,
    " ",
  );
}
