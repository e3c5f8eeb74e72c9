/**
 * gocheck (gopkg.in/check.v1, the suite runner under `go test` that Docker/moby and juju used): each problem is a
 * report opened by its separator line of 70 dashes, then `FAIL: file_test.go:206: Suite.TestMethod` (or `PANIC:`),
 * the file and line of the method and the `Suite.Method` name gocheck gives it (what `-check.f` selects).
 *
 * The id is `Suite.Method`. The file is the base name within the package's directory, which the report does not
 * name, so the failure has no place. A `FAIL:` line is read only right under the separator: DejaGnu's and
 * automake's `FAIL: name` lines never have it, nor a `.go:N: Suite.Method` shape. A paste may cut the separator (the
 * report's line kept, the dashes above it not): without it the line is read only when its file is a Go test file
 * (`simple_test.go`), where gocheck suites live, and counts only with gocheck's own explanation lines under it
 * (`... obtained int = 4`).
 *
 * gocheck runs every suite inside one go test function (`func Test(t *testing.T) { check.TestingT(t) }`), which fails
 * when a suite's test did: go's `--- FAIL: Test (0.30s)` right under gocheck's count line (`OOPS: 34 passed, 1
 * PANICKED`) is that wrapper, the same failures again, not a test of its own. It is claimed here (so go never reads it)
 * only when a report above named a failure; with none read (a log cut above them) go's line is all that names one.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const SEPARATOR = /^-{70}$/;
const REPORT = /^(FAIL|PANIC): ([\w.-]+\.go):(\d+): ([A-Za-z_]\w*\.[A-Za-z_]\w*)$/;
/** gocheck's count line when something did not pass: `OOPS: 34 passed, 1 PANICKED`, `OOPS: 3 passed, 2 FAILED, 1 MISSED`. */
const OOPS = /^OOPS: .*\b\d+ (?:FAILED|PANICKED|FIXTURE-PANICKED|MISSED)\b/;
/** go's result line of a top-level test (no subtest, no indentation). */
const GO_WRAPPER = /^--- FAIL: \w+ \([\d.]+(?:s| seconds)\)$/;

export function createGocheckParser(sink: ParserSink) {
  let afterSeparator = false;
  let open: {
    id: string;
    kind: string;
    lines: string[];
    start: number;
    end: number;
    /** Opened without the separator above it: a failure only with gocheck's `... ` explanation lines. */
    loose: boolean;
  } | null = null;
  /** Reports that named a failure since gocheck's last count line, and whether go's wrapper line may come next. */
  let reported = 0;
  let wrapperNext = false;

  function flush(): void {
    if (!open) return;
    const o = open;
    open = null;
    if (o.loose && !o.lines.some((l) => /^\.\.\. \w/.test(l.trim()))) return;
    const message = o.lines
      .slice(1)
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^[\w.-]+\.go:\d+:$/.test(l));
    // gocheck prints the failing check's source, then its explanation on `... ` lines (`... obtained int = 1`).
    const explained = message.filter((l) => l.startsWith("... "));
    const shown = explained.length > 0 ? explained : message;
    sink.failure({
      category: "test",
      test: o.id,
      file: null,
      line: null,
      errorType: o.kind === "PANIC" ? "panic" : null,
      message: shown.slice(0, 20).join("\n") || `${o.id} failed`,
      stack: o.lines.join("\n"),
      start: o.start,
      end: o.end,
    });
    sink.test(o.id, "failed");
    reported++;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (wrapperNext) {
        wrapperNext = false;
        if (GO_WRAPPER.test(text)) return true;
      }
      if (text.startsWith("OOPS: ") || text.startsWith("OK: ")) {
        flush();
        wrapperNext = reported > 0 && OOPS.test(text);
        reported = 0;
        return false;
      }
      const sep = text.length === 70 && SEPARATOR.test(text);
      if (sep) {
        flush();
        afterSeparator = true;
        return false;
      }
      const was = afterSeparator;
      afterSeparator = false;
      if (was || text.startsWith("FAIL: ") || text.startsWith("PANIC: ")) {
        const r = REPORT.exec(text.trimEnd());
        if (r && (was || r[2]!.endsWith("_test.go"))) {
          flush();
          open = { id: r[4]!, kind: r[1]!, lines: [text], start: lineNo, end: lineNo, loose: !was };
          return true;
        }
      }
      if (open) {
        // The report runs until gocheck's next separator, its counts (`OOPS: …`) or go test's own lines.
        if (/^(?:OOPS|OK): |^--- (?:FAIL|PASS)|^(?:FAIL|ok)\s/.test(text) || open.lines.length >= 60) flush();
        else {
          open.lines.push(text);
          open.end = lineNo;
          return true;
        }
      }
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const gocheckFormat: FormatDefinition = {
  name: "gocheck",
  description: "gocheck (gopkg.in/check.v1) problem reports (`FAIL: x_test.go:206: Suite.TestMethod`)",
  create: createGocheckParser,
  wakesOn: [/^-{70}$/, /^(?:FAIL|PANIC): [\w.-]+_test\.go:\d+: /],
};
