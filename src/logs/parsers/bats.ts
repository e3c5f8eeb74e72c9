/**
 * bats' pretty formatter (bats-core, and sstephenson's bats before it): ` ✓ title` for a passed test, ` ✗ title` for a
 * failed one, then, indented under it, the place bats gives, `(in test file test/x.bats, line 27)` (or, when the
 * failing command ran in a helper, `(from function \`assert_equal' in file test/helper.bash, line 5,` with
 * `in test file test/x.bats, line 27)` on the line below), then the failed command (`\`[ "$status" -eq 0 ]' failed`)
 * and the test's output; the run ends in `N tests, M failures`.
 *
 * A `✗` line counts only when bats' place line is right under it (a `✗` of another runner, xcpretty's or vows', has no
 * `in test file` line). The id is the title as printed (what `bats -f` selects); placed at the test file's line.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const CROSS = /^ ?✗ (\S.*?)\s*$/;
const FROM = /^\s+\((?:from function `[^']*' in file |in test file )/;
const IN_TEST_FILE = /\bin test file (\S.*?), line (\d+)\)?,?\s*$/;
const COUNT = /^(\d+) tests?, (\d+) failures?\b/;

export function createBatsParser(sink: ParserSink) {
  let pending: { title: string; lineNo: number } | null = null;
  let open: {
    title: string;
    start: number;
    end: number;
    file: string | null;
    line: number | null;
    lines: string[];
  } | null = null;

  function flush(): void {
    if (!open) return;
    sink.test(open.title, "failed", open.file);
    sink.failure({
      category: "test",
      test: open.title,
      file: open.file,
      line: open.line,
      message: open.lines.length > 0 ? open.lines.join("\n") : `bats test failed: ${open.title}`,
      start: open.start,
      end: open.end,
    });
    open = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (pending) {
        const p = pending;
        pending = null;
        if (FROM.test(text)) {
          open = { title: p.title, start: p.lineNo, end: lineNo, file: null, line: null, lines: [] };
          const m = IN_TEST_FILE.exec(text);
          if (m) {
            open.file = sink.path(m[1]!);
            open.line = Number(m[2]);
          }
          return true;
        }
      }
      if (open) {
        if (/^\s{2,}\S/.test(text)) {
          open.end = lineNo;
          if (open.file === null) {
            const m = IN_TEST_FILE.exec(text);
            if (m) {
              open.file = sink.path(m[1]!);
              open.line = Number(m[2]);
              return true;
            }
          }
          if (open.lines.length < 40) open.lines.push(own(text.trim()));
          return true;
        }
        flush();
      }
      const x = CROSS.exec(text);
      if (x) {
        pending = { title: own(x[1]!), lineNo };
        return false;
      }
      const c = COUNT.exec(text);
      if (c) {
        sink.summary({ failed: Number(c[2]), passed: Number(c[1]) - Number(c[2]) });
        return true;
      }
      return false;
    },
    end(): void {
      flush();
      pending = null;
    },
  };
}

export const batsFormat: FormatDefinition = {
  name: "bats",
  description: "bats' pretty formatter: ` ✗ title` with its `(in test file x.bats, line N)` line under it",
  create: createBatsParser,
  wakesOn: [/^ ?✗ /, /^\d+ tests?, \d+ failures?/],
};
