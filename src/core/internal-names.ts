/**
 * Retrace's own files never show in text a user reads (PR bodies, comments, reports, verify output, model
 * feedback). Every file Retrace puts into a workspace is named `.retrace-<something>`: the per-run test report
 * (`.retrace-report-<nonce>.xml`, whose nonce must stay unguessable), the stdin file of a sandbox run, install
 * markers. Output that mentions one gets the mention removed where it is built:
 * - a line that only announces such a file (pytest's `--- generated xml file: … ---`, vitest's
 *   `JUNIT report written to …`, jest's `Test results written to: …`) is dropped: it exists only because
 *   Retrace asked for a report;
 * - any other mention (a traceback naming the file) keeps its line, with the path replaced by `<retrace file>`.
 */

/** A path (absolute or relative, any directory) whose file name is one of Retrace's `.retrace-*` files. */
const INTERNAL_PATH = /(?:[\w.~-]*\/)*\.retrace-[\w.-]+/g;
const HAS_INTERNAL = /\.retrace-[\w.-]/;
/** What a reporter says when it has written its file; such a line about one of Retrace's files is dropped. */
const ANNOUNCEMENT = /\b(?:generated|written to|wrote|saved to)\b/i;

/** `text` with every mention of a Retrace-internal file removed (see the module comment). */
export function scrubInternalNames(text: string): string {
  if (!text.includes(".retrace-")) return text;
  return text
    .split("\n")
    .filter((line) => !(HAS_INTERNAL.test(line) && ANNOUNCEMENT.test(line.replace(INTERNAL_PATH, ""))))
    .map((line) => line.replace(INTERNAL_PATH, "<retrace file>"))
    .join("\n");
}
