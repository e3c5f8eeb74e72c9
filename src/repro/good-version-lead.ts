/**
 * One pasted output, labelled with a version the report places on the GOOD side of a regression: "3.11.5
 * regression … behaves differently since python 3.11.5" over "The output on python 3.11.4:" — the release before
 * the one the bug appeared in, so the block is how it worked, not the reported bug. A run that prints it shows the
 * behaviour the report calls right (NOT_REPRODUCED), never the claim.
 *
 * The bad release comes from the report's words ("since X", "X regression", "regression in X", "after upgrading
 * to X", "broken in X", "starting with X"); the lead's version is on the good side when it is older than that
 * release (same package or runtime: the same name, or one unnamed and the same major), or when the words say it
 * worked ("worked in Y", "Y was fine"). A lead naming the bad release, a version with no regression words, or two
 * versions at once is never taken. Pure.
 */
import { verdictFor, withoutHedges } from "./version-verdict.ts";

const VERSION = String.raw`(\d+\.\d+(?:\.\d+)*)`;
/** The word just before a version, when it names what the version is of (`python 3.11.4`, `foo@2.0.3`). */
const NAMED_VERSION = new RegExp(String.raw`(?:([A-Za-z][\w.\-/]*)\s*@?\s*)?\bv?${VERSION}(?![\w.])`, "g");
/** Words that stand before a version without naming anything. */
const NOT_A_NAME =
  /^(?:on|in|with|at|for|to|from|of|by|using|under|version|release|v|and|or|the|is|was|since|after|before|upgrading|updating|than|as)$/i;

interface Named {
  name: string | null;
  version: number[];
  text: string;
}

function nameOf(word: string | undefined): string | null {
  if (!word || NOT_A_NAME.test(word)) return null;
  const w = word.toLowerCase().replace(/@$/, "");
  if (/^(?:c?python\d?|py)$/.test(w)) return "python";
  if (/^node(?:\.?js)?$/.test(w)) return "node";
  return w;
}

function parts(v: string): number[] {
  return v.split(".").map(Number);
}

/** Versions written in `text`, each with the name just before it (null when none). */
function versionsIn(text: string): Named[] {
  return [...text.matchAll(NAMED_VERSION)].map((m) => ({
    name: nameOf(m[1]),
    version: parts(m[2]!),
    text: m[2]!,
  }));
}

/** -1 / 1 when `a` is older / newer than `b` at a place both write; 0 when equal or one is a prefix of the other. */
export function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

const NAME = String.raw`(?:(?:version|release)\s+)?(?:[A-Za-z][\w.\-/]*\s*@?\s*)?v?`;
/** Where the report says the bad behaviour began: the release named in these phrases. */
const REGRESSION_AT = [
  new RegExp(
    String.raw`\bsince\s+(?:(?:upgrading|updating|moving|switching|bumping)\s+(?:to\s+)?)?${NAME}${VERSION}`,
    "gi",
  ),
  new RegExp(
    String.raw`\bafter\s+(?:upgrading|updating|moving|switching|bumping)\s+(?:to\s+)?${NAME}${VERSION}`,
    "gi",
  ),
  new RegExp(String.raw`${VERSION}\s+regression\b`, "gi"),
  new RegExp(String.raw`\bregress(?:ion|ed)\s+(?:in|since|from|with|on)\s+${NAME}${VERSION}`, "gi"),
  new RegExp(
    String.raw`\b(?:broken|broke|breaks|fails|failing|changed)\s+(?:in|on|with|since|as\s+of)\s+${NAME}${VERSION}`,
    "gi",
  ),
  new RegExp(String.raw`\b(?:starting\s+(?:with|from|in)|as\s+of)\s+${NAME}${VERSION}`, "gi"),
];

/** The releases the report says the bug appeared in, with what they are of. */
export function regressionReleases(text: string): Named[] {
  const t = withoutHedges(text);
  const out: Named[] = [];
  for (const re of REGRESSION_AT)
    for (const m of t.matchAll(re)) {
      // The release is the phrase's last version; its name is the word just before it.
      const named = versionsIn(m[0]).pop();
      if (named && !out.some((o) => o.text === named.text)) out.push(named);
    }
  return out;
}

/** Same package or runtime: the same name, or one unnamed and the same major. */
function comparable(a: Named, b: Named): boolean {
  if (a.name && b.name) return a.name === b.name;
  return a.version[0] === b.version[0];
}

/**
 * The version the lead labels its block with, when the report places it on the good side: "3.11.4" for "The
 * output on python 3.11.4:" in a report of a "3.11.5 regression". Null otherwise.
 */
export function goodVersionLead(
  lead: string | null,
  reportText: string,
): { version: string; why: string } | null {
  if (!lead) return null;
  const line = (lead.trim().split("\n").pop() ?? "").replace(/[*_`]/g, "").trim();
  // A label introduces what follows: it ends with a colon, or is short. Contrast words make it the other side.
  if (!(/:\s*$/.test(line) || line.length <= 60)) return null;
  if (
    /\b(?:but|now|instead|however|whereas|while|wrong|incorrect|broken|bug(?:gy)?|unexpected|regress\w*)\b|n't\b/i.test(
      line,
    )
  )
    return null;
  const labelled = versionsIn(line);
  if (labelled.length !== 1) return null;
  const own = labelled[0]!;
  const said = verdictFor(own.text, reportText);
  if (said === "bad") return null;
  const releases = regressionReleases(reportText).filter((r) => comparable(own, r));
  // Never when the lead names a release at or after one the bug is said to have appeared in.
  // (`3.11` beside a bad `3.11.5` is neither before nor after it: not taken either.)
  if (releases.some((r) => compareVersions(own.version, r.version) >= 0)) return null;
  const before = releases.find((r) => compareVersions(own.version, r.version) < 0);
  if (before)
    return {
      version: own.text,
      why: `the report says the bug appeared in ${before.text}, and this output is labelled ${own.text}, an earlier release`,
    };
  if (said === "good") return { version: own.text, why: `the report says it worked in ${own.text}` };
  return null;
}
