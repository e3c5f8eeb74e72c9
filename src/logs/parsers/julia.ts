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
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEAD = /^(\s*Test Summary: *\|)((?: +[A-Z][a-z]+)+) *$/;
/** `Test Failed at /…/runtests.jl:5`, `Error During Test at …:5` (behind the testset's `name: `): where a `@test` failed. */
const FAILED_AT = /(?:^|: )(?:Test Failed|Error During Test) at (.+?):(\d+)\s*$/;
/** A backtrace frame's place: `   @ Main C:\…\runtests.jl:27 [inlined]`, `   @ ~/.julia/…/x.jl:8`. */
const FRAME_AT = /^\s*@ (?:[\w.]+ )?(.+?):(\d+)(?: \[inlined\])?\s*$/;
/** A package's checkout in a Julia depot (`~/.julia/packages/Name/slug/`, `~/.julia/dev/Name/`): its root. */
const DEPOT = /[\\/]\.julia[\\/](?:packages[\\/][^\\/]+[\\/][^\\/]+|dev[\\/][^\\/]+)[\\/](.+)$/;

/**
 * A place in the package: a path under a depot's package checkout made relative to it, a relative path kept (the CI
 * checkout already removed); Julia's own files (`share/julia/stdlib/…`, Base's `./boot.jl`) and other absolute
 * paths are none.
 */
function packagePlace(path: string, line: string): { file: string; line: number } | null {
  const d = DEPOT.exec(path);
  const file = d ? d[1]!.replace(/\\/g, "/") : path;
  if (/^(?:\.{1,2}[\\/]|[\\/~]|[A-Za-z]:|none$|REPL\[)/.test(file) || /share[\\/]julia[\\/]/.test(file))
    return null;
  return { file, line: Number(line) };
}

const DID_NOT_PASS = /Some tests did not pass: (\d+) passed, (\d+) failed, (\d+) errored, (\d+) broken\.$/;

export function createJuliaParser(sink: ParserSink) {
  /** The labels of the table being read, with the column each ends at. */
  let head: { label: string; end: number }[] | null = null;
  /** A table's verdict was given: the error after it is the same run's. */
  let summarized = false;
  /** The column of the first row's `|`: every row of the table puts its bar there. */
  let bars = -1;
  let reported = 0;
  /** Where the last failure above the table was: its `Test Failed at` line, else its backtrace's first own frame. */
  let place: { file: string; line: number } | null = null;
  let placeFromLine = false;

  /** The rows of the table being read: each testset's name, depth and whether it counts a failure or an error. */
  let rows: { name: string; depth: number; failed: boolean; start: number }[] = [];

  function cell(columns: { label: string; end: number }[], text: string, bar: number, label: string): number {
    const c = columns.find((x) => x.label === label);
    if (!c || c.end > text.length) return 0;
    let i = c.end;
    while (i > bar && text.charCodeAt(i - 1) >= 48 && text.charCodeAt(i - 1) <= 57) i--;
    return i === c.end ? 0 : Number(text.slice(i, c.end));
  }

  function row(text: string, lineNo: number): boolean {
    const columns = head!;
    const bar = text.indexOf("|");
    if (bar < 0 || (rows.length > 0 && bar !== bars)) return false;
    bars = bar;
    const count = (label: string) => cell(columns, text, bar, label);
    const name = text.slice(0, bar).trimEnd();
    const depth = name.length - name.trimStart().length;
    rows.push({ name: name.trim(), depth, failed: count("Fail") + count("Error") > 0, start: lineNo });
    if (rows.length > 1) return true;
    const labels = new Set(columns.map((c) => c.label));
    // A Fail or Error column is printed only when a testset has one: the run failed even if this row's cell is blank.
    const failed = Math.max(count("Fail"), labels.has("Fail") ? 1 : 0);
    const error = labels.has("Error") ? Math.max(count("Error"), 1) : 0;
    sink.summary({ passed: count("Pass"), failed, skipped: count("Broken"), error });
    summarized = true;
    return true;
  }

  /**
   * The table's failing leaves: a testset that counts a failure or an error and shows no nested testset (Julia
   * prints the testsets under a failing one, so a failing row with none under it failed by its own tests). A
   * failing testset with nested ones is an aggregate: its own failures name no test.
   */
  function closeTable(): void {
    const r = rows;
    rows = [];
    head = null;
    const leaves = r.filter((x, k) => x.failed && !(r[k + 1] && r[k + 1]!.depth > x.depth)).length;
    // One failing leaf: the failure above the table is its; with several, which is whose the table does not say.
    const at = leaves === 1 ? place : null;
    place = null;
    placeFromLine = false;
    const path: { name: string; depth: number }[] = [];
    for (let k = 0; k < r.length; k++) {
      const x = r[k]!;
      while (path.length > 0 && path[path.length - 1]!.depth >= x.depth) path.pop();
      path.push(x);
      const next = r[k + 1];
      if (!x.failed || (next && next.depth > x.depth) || reported >= 10_000) continue;
      reported++;
      const test = own(path.map((p) => p.name).join("/"));
      sink.test(test, "failed");
      sink.failure({
        category: "test",
        test,
        file: at?.file ?? null,
        line: at?.line ?? null,
        message: `testset ${test} failed`,
        start: x.start,
        end: x.start,
      });
    }
  }
  return {
    line(text: string, lineNo: number): boolean {
      if (head) {
        if (rows.length === 0 && text.trim() === "") return true;
        if (row(text, lineNo)) return true;
        const first = rows.length === 0;
        closeTable();
        // The line under the head is its row, read or not (the original reader's rule).
        if (first) return true;
      }
      if (text.includes("Test Failed at ") || text.includes("Error During Test at ")) {
        const f = FAILED_AT.exec(text);
        if (f) {
          place = packagePlace(f[1]!, f[2]!);
          placeFromLine = place !== null;
        }
        return false;
      }
      if (!placeFromLine && !place && text.includes("@ ")) {
        const f = FRAME_AT.exec(text);
        if (f) place = packagePlace(f[1]!, f[2]!);
        return false;
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
    end(): void {
      if (head) closeTable();
    },
  };
}

export const juliaFormat: FormatDefinition = {
  name: "julia",
  description:
    "Julia's Test standard library (its summary table and 'Some tests did not pass'; the verdict only)",
  create: createJuliaParser,
};
