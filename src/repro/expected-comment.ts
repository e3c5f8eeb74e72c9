/**
 * A code comment that states the value the report's Expected section wants (`console.log(c.hex); // #e8f1ff, …`
 * beside "## Expected: It ought to print #e8f1ff"), when the Actual section opens with a value of its own in
 * inline code ("## Actual: `#e8f1101` single channels can overflow"): the comment is what the reporter wanted,
 * the Actual section's value what the run gave (issue 12, hold26). Null when a comment's value is not in the
 * Expected words, is in the Actual words too, or the Actual section gives no value of its own: the comment stays
 * the claim. Pure: the parsed report and the comments' claim in, the Actual section's values out.
 */
import { escapeRegExp } from "../core/regexp.ts";
import type { ParsedReport } from "./parse-report.ts";
import type { ReportedBehaviour } from "./result.ts";

/** The value a comment opens with: `#e8f1ff` of `#e8f1ff, rgb(232, 241, 255)`. */
const head = (v: string) => (v.split(/,\s/)[0] ?? "").trim();

const standsIn = (text: string, value: string) =>
  value.length >= 2 && new RegExp(`(?<![\\w#.-])${escapeRegExp(value)}(?![\\w-])`).test(text);

export function expectedCommentActual(report: ParsedReport, comments: ReportedBehaviour): string[] | null {
  if (comments.kind !== "output" || comments.output.length === 0) return null;
  const { expected, actual } = report.prose;
  if (expected.trim() === "" || actual.trim() === "") return null;
  const heads = comments.output.map(head);
  if (!heads.every((h) => standsIn(expected, h) && !standsIn(actual, h))) return null;
  const values = report.inlineCode
    .filter(
      (c) =>
        c.section === "actual" &&
        !/[()=;]/.test(c.value) &&
        c.context.trimStart().startsWith(c.value) &&
        !heads.includes(head(c.value)),
    )
    .map((c) => c.value.trim());
  return values.length > 0 ? values : null;
}
