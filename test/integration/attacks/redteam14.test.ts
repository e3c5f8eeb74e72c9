/**
 * The fourteenth red team's inputs (issue 14, host-side steps; `redteam14-cases.json`, first try and after in
 * `redteam14-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam14-step.ts`) — the policy gate and the one patch applier on look-alike letters of Armenian, Cherokee,
 * Lisu, Coptic, Latin's IPA and small capitals and mathematical alphanumerics, on letters that render as nothing
 * (Hangul fillers, the soft hyphen, the combining grapheme joiner, Khmer vowels, the Mongolian vowel separator), on
 * controls inside a line (a lone CR, NEL), on path spellings another tool or OS reads as an existing file, on loose
 * hunk context and on huge lines; the commit message and PR title from a model's summary and a log's test ids — with
 * a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or
 * refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "fourteenth red team: hostile inputs to the host-side steps",
  n: 14,
});
