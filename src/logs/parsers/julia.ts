/**
 * Julia's `Test` standard library (`Pkg.test()`, `julia test/runtests.jl`): only its verdict. The summary table
 * (`Test Summary: | Pass  Fail  Total  Time` and a row per testset under it) and the error a failed top-level testset
 * throws (`Some tests did not pass: 3 passed, 1 failed, 0 errored, 0 broken.`) say whether the run failed; the
 * failures themselves (`Test Failed at /…/runtests.jl:5`) name a place, not a test, so none is reported: a red run
 * with no failure named is `unnamedFailuresIn` (the CLI says the run failed), never a failure made up.
 *
 * Julia prints a column only when some testset has a count for it, right-aligned under its label, and leaves a
 * testset's zero blank: the counts are read by the column each label ends at.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const HEAD = /^(\s*Test Summary: *\|)((?: +[A-Z][a-z]+)+) *$/;
const DID_NOT_PASS = /Some tests did not pass: (\d+) passed, (\d+) failed, (\d+) errored, (\d+) broken\.$/;

export function createJuliaParser(sink: ParserSink) {
  /** The labels of the table being read, with the column each ends at. */
  let head: { label: string; end: number }[] | null = null;
  /** A table's verdict was given: the error after it is the same run's. */
  let summarized = false;

  function row(text: string): void {
    const columns = head!;
    head = null;
    const bar = text.indexOf("|");
    if (bar < 0) return;
    const count = (label: string): number => {
      const c = columns.find((x) => x.label === label);
      if (!c || c.end > text.length) return 0;
      let i = c.end;
      while (i > bar && text.charCodeAt(i - 1) >= 48 && text.charCodeAt(i - 1) <= 57) i--;
      return i === c.end ? 0 : Number(text.slice(i, c.end));
    };
    const labels = new Set(columns.map((c) => c.label));
    // A Fail or Error column is printed only when a testset has one: the run failed even if this row's cell is blank.
    const failed = Math.max(count("Fail"), labels.has("Fail") ? 1 : 0);
    const error = labels.has("Error") ? Math.max(count("Error"), 1) : 0;
    sink.summary({ passed: count("Pass"), failed, skipped: count("Broken"), error });
    summarized = true;
  }

  return {
    line(text: string, _lineNo: number): boolean {
      if (head) {
        if (text.trim() === "") return true;
        row(text);
        return true;
      }
      if (text.includes("Test Summary:")) {
        const h = HEAD.exec(text);
        if (h) {
          const columns: { label: string; end: number }[] = [];
          const re = /[A-Z][a-z]+/g;
          const labels = h[2]!;
          for (let m = re.exec(labels); m; m = re.exec(labels))
            columns.push({ label: m[0], end: h[1]!.length + m.index + m[0].length });
          head = columns;
          return true;
        }
      }
      if (text.includes("Some tests did not pass: ")) {
        const d = DID_NOT_PASS.exec(text);
        if (d) {
          if (!summarized)
            sink.summary({
              passed: Number(d[1]),
              failed: Number(d[2]),
              error: Number(d[3]),
              skipped: Number(d[4]),
            });
          summarized = false;
          return true;
        }
      }
      return false;
    },
    end(): void {},
  };
}

export const juliaFormat: FormatDefinition = {
  name: "julia",
  description:
    "Julia's Test standard library (its summary table and 'Some tests did not pass'; the verdict only)",
  create: createJuliaParser,
};
