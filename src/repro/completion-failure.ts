/**
 * A run that stops on an import Retrace added to complete the code, not on the report's code (issue 12, hold17:
 * `import datetime` for `datetime.fromisoformat(…)` stopped on "module 'datetime' has no attribute
 * 'fromisoformat'"): a failure of our completion is never the report's behaviour, so no PARTIAL is drawn from it.
 * Pure: the runs, the program's source and the report's text in, the failure to name (or null) out.
 */

/** `AttributeError: module 'm' has no attribute 'x'` on every run, where `import m` is ours, not the report's. */
export function completionImportFailure(
  runs: { exception: { type: string; message: string } | null }[],
  code: string,
  reportText: string,
): string | null {
  if (runs.length === 0) return null;
  let first: string | null = null;
  for (const r of runs) {
    const ex = r.exception;
    const m =
      ex && /AttributeError$/.test(ex.type)
        ? /^module '([\w.]+)' has no attribute '(\w+)'/.exec(ex.message)
        : null;
    if (!m) return null;
    const mod = m[1]!;
    const escaped = mod.replace(/\./g, "\\.");
    // The program imports the module whole (our line), and the report never writes that import itself.
    if (!new RegExp(`^[ \\t]*import[ \\t]+${escaped}[ \\t]*$`, "m").test(code)) return null;
    if (new RegExp(`\\bimport[ \\t]+${escaped}\\b`).test(reportText)) return null;
    first ??= `AttributeError: module '${mod}' has no attribute '${m[2]}'`;
  }
  return first;
}
