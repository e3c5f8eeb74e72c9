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

/**
 * A path (absolute or relative, any directory) whose file name is one of Retrace's `.retrace-*` files: what
 * `/(?:[\w.~-]*\/)*\.retrace-[\w.-]+/g` matches, found without that pattern, which is quadratic in a run of
 * path characters (a test's 80 KB line of `a/a/…` held the host 50 s). Within a maximal run of path
 * characters, from position `s`: when a name (`.retrace-` and a name character) sits at `s` or after a `/`,
 * the match runs from `s` to the end of the last such name (the pattern's greedy directories backtrack to
 * it); otherwise it is the first name alone. Then again from the match's end.
 */
const PATH_RUN = /[\w.~/-]+/g;
const NAME_CHAR = /[\w.-]/;
const MARK = ".retrace-";
const HAS_INTERNAL = /\.retrace-[\w.-]/;

function replaceInternalPaths(line: string, by: string): string {
  if (!HAS_INTERNAL.test(line)) return line;
  return line.replace(PATH_RUN, (run) => {
    const named = (i: number) => run.startsWith(MARK, i) && NAME_CHAR.test(run[i + MARK.length] ?? "");
    const nameEnd = (i: number) => {
      let end = i + MARK.length;
      while (end < run.length && NAME_CHAR.test(run[end]!)) end++;
      return end;
    };
    let afterSlash = -1; // the last name that follows a `/`
    for (let i = run.lastIndexOf(MARK); i > 0; i = run.lastIndexOf(MARK, i - 1)) {
      if (run[i - 1] === "/" && named(i)) {
        afterSlash = i;
        break;
      }
    }
    let out = "";
    let s = 0;
    let next = 0; // where the forward search for a first name resumes
    while (s < run.length) {
      let start: number;
      let last: number;
      if (afterSlash >= s) [start, last] = [s, afterSlash];
      else if (named(s)) [start, last] = [s, s];
      else {
        let i = run.indexOf(MARK, Math.max(s, next));
        while (i !== -1 && !named(i)) i = run.indexOf(MARK, i + 1);
        if (i === -1) break;
        next = i + 1;
        [start, last] = [i, i];
      }
      const end = nameEnd(last);
      out += run.slice(s, start) + by;
      s = end;
    }
    return out + run.slice(s);
  });
}

/** What a reporter says when it has written its file; such a line about one of Retrace's files is dropped. */
const ANNOUNCEMENT = /\b(?:generated|written to|wrote|saved to)\b/i;

/** `text` with every mention of a Retrace-internal file removed (see the module comment). */
export function scrubInternalNames(text: string): string {
  if (!text.includes(".retrace-")) return text;
  return text
    .split("\n")
    .filter((line) => !(HAS_INTERNAL.test(line) && ANNOUNCEMENT.test(replaceInternalPaths(line, ""))))
    .map((line) => replaceInternalPaths(line, "<retrace file>"))
    .join("\n");
}
