/**
 * `dart test` and `flutter test` with the expanded reporter (the default wherever output is not a terminal, as in CI;
 * `-r expanded`): progress lines `00:03 +4 ~1 -1: test/kettle_test.dart: Kettle pours half [E]` (`MM:SS`, passed,
 * `~`skipped, `-`failed, then the test's description: its file when several ran, a `[platform] ` prefix with
 * `--platform`), the error indented two spaces under a failing line (the message, then the stack: `test/kettle_test.dart
 * 14:5  main.<fn>.<fn>` in the terse form, `#1  main.<anonymous closure> (file:///…/test/x_test.dart:14:5)` raw), and
 * the last line `+5 ~1 -2: Some tests failed.` / `All tests passed!` as the counts. Flutter prints a widget test's
 * exception before its `[E]` line (`══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞══…`) and only `Test failed. See
 * exception logs above.` under it: that block is read as the failure's. A log cut after that box, before the `[E]`
 * line, still names the test: the box is printed only for an exception that fails the test the last progress line
 * started. The compact reporter (a terminal) prints the same progress lines padded with spaces.
 *
 * The id is `file > name` (docs/test-ids.md): the file the description names, else the `_test.dart` file of the
 * failure's stack, else the name alone; the name is Dart's full name (groups and test joined with spaces, as `--name`
 * takes it). `loading test/x_test.dart [E]` is the file's error (it did not compile or load), with no test id.
 * Failures are held until the last line, whose counts decide: none is kept when it says all passed.
 */
import { type FormatDefinition, own, type ParserSink, underTopDir } from "../parser.ts";

const PROGRESS = /^(\d{2,}):(\d{2}) \+(\d+)(?: ~(\d+))?(?: -(\d+))?: (.*)$/;
const TERSE = /^\s*(\S+\.dart) (\d+):(\d+) {2,}\S/;
const RAW = /\((?:file:\/\/)?([^()\s]+\.dart):(\d+):(\d+)\)$/;
/** Where the stack starts: a terse frame (with or without its line), a raw `#n` frame. */
const STACK_LINE = /^(?:\S+\.dart \d+:\d+ {2,}|(?:package|dart):\S+ {2,}|#\d+ +)\S/;
/** The github reporter's result line: its outcome mark, the test (`[vm, kernel] ` and `file: ` before the name). */
const GITHUB =
  /^(?:::group::)?(\u2705|\u274c|\u274e) (.+?)(?: \((failed|skipped|failed after test completion)\))?$/;
const GITHUB_COUNT =
  /^(?:::error::|\u{1f389} )?(\d+) tests? passed(?:, (\d+) failed)?(?:, (\d+) skipped)?\.$/u;
const DART_ERROR = /^(\w*(?:Error|Exception|Failure))(?:: (.*))?$/;

interface Failed {
  desc: string;
  /** Read from the github reporter: kept only once its count line confirms the run. */
  github?: boolean;
  lines: string[];
  pre: string[];
  start: number;
  end: number;
}

function frameOf(line: string): { file: string; line: number; column: number } | null {
  const t = TERSE.exec(line);
  if (t) return { file: t[1]!, line: Number(t[2]), column: Number(t[3]) };
  const r = line.includes("(") ? RAW.exec(line) : null;
  return r ? { file: r[1]!, line: Number(r[2]), column: Number(r[3]) } : null;
}

export function createDartTestParser(sink: ParserSink) {
  const failures = new Map<string, Failed>();
  let open: Failed | null = null;
  /** Lines since the last progress line: Flutter's exception block comes before its test's `[E]` line. */
  let since: string[] = [];
  let seen = false;
  /** The test the last progress line started (no `[E]`, not the count line), and that line's number. */
  let running: { desc: string; lineNo: number } | null = null;
  let lastLine = 0;

  function place(f: Failed, file: string | null) {
    let first: { file: string; line: number; column: number } | null = null;
    for (const l of [...f.lines, ...f.pre]) {
      const fr = frameOf(l);
      if (!fr) continue;
      // A machine's absolute path (`file:///Users/me/app/test/x_test.dart`, not a CI checkout) from its `test/`
      // directory: `dart test` and `flutter test` run from the package's root and take tests from `test/`.
      const p = underTopDir(sink.path(fr.file), "test");
      if (/^(?:package|dart|org-dartlang[\w-]*):/.test(p) || p.startsWith("/")) continue;
      const at = { ...fr, file: p };
      if (file === null || p === file) return at;
      first ??= at;
    }
    return first;
  }

  function report(): void {
    for (const f of failures.values()) {
      let desc = f.desc.replace(/^\[[^\]]+\] /, "");
      const loading = /^loading (\S+\.dart)$/.exec(desc);
      const named = /^(\S+\.dart): (.+)$/.exec(desc);
      // The progress line's file, as a machine's absolute path from its `test/` directory too (as the frames' are).
      const printed = loading?.[1] ?? named?.[1];
      let file = printed === undefined ? null : underTopDir(sink.path(printed), "test");
      if (named) desc = named[2]!;
      const at = place(f, file);
      if (file === null && at && /_test\.dart$/.test(at.file)) file = at.file;
      const body = f.lines.map((l) => l.replace(/^ {2}/, ""));
      const stackAt = body.findIndex((l) => STACK_LINE.test(l) || frameOf(l) !== null);
      let message = (stackAt < 0 ? body : body.slice(0, stackAt)).filter((l) => l.trim() !== "");
      if (message.length === 0 || message[0]?.startsWith("Test failed. See exception logs above.")) {
        const h = f.pre.findIndex((l) => l.includes("EXCEPTION CAUGHT BY"));
        if (h >= 0) {
          const rest = f.pre.slice(h + 1);
          const stop = rest.findIndex((l) => /^When the exception was thrown|^═/.test(l));
          message = (stop < 0 ? rest : rest.slice(0, stop)).filter((l) => l.trim() !== "").slice(0, 12);
        }
      }
      const e = DART_ERROR.exec(message[0]?.trim() ?? "");
      const test = loading ? null : file ? `${file} > ${desc}` : desc;
      if (test !== null) sink.test(test, "failed", file);
      sink.failure({
        category: loading ? "build" : "test",
        test,
        file: at?.file ?? file,
        line: at?.line ?? null,
        column: at?.column ?? null,
        errorType: e
          ? e[1]!
          : /^Expected: /.test(message[0]?.trim() ?? "")
            ? "TestFailure"
            : (/^The following (\w*(?:Error|Exception|Failure)) object was thrown/.exec(
                message[0] ?? "",
              )?.[1] ?? null),
        message: (e?.[2] !== undefined ? [e[2], ...message.slice(1)] : message).join("\n").trim() || desc,
        stack: [...f.pre, ...f.lines].join("\n"),
        start: f.start,
        end: f.end,
      });
    }
    failures.clear();
  }

  /** Lines of the github reporter were seen: its count line closes the run. */
  let github = false;

  function githubLine(text: string, lineNo: number): boolean {
    const g = GITHUB.exec(text);
    if (g) {
      if (g[2] === "Passing tests" && g[1] === "\u2705") {
        github = true;
        open = null;
        return true;
      }
      // A result line without the reporter's markers around it is another tool's: the first needs its group or count.
      if (!github && !text.startsWith("::group::") && g[1] === "\u2705" && g[3] === undefined) return false;
      github = true;
      open = null;
      if (g[1] !== "\u274c") return true;
      const desc = g[2]!;
      const known = failures.get(desc);
      if (known) open = known;
      else if (failures.size < 1_000) {
        open = { desc: own(desc), github: true, lines: [], pre: [], start: lineNo, end: lineNo };
        failures.set(open.desc, open);
      }
      return true;
    }
    const c = GITHUB_COUNT.exec(text);
    if (c && github) {
      const failed = Number(c[2] ?? 0);
      sink.summary({ passed: Number(c[1]), failed, skipped: Number(c[3] ?? 0) });
      if (failed === 0) failures.clear();
      report();
      open = null;
      github = false;
      return true;
    }
    return false;
  }

  return {
    line(text: string, lineNo: number): boolean {
      lastLine = lineNo;
      const c0 = text.charCodeAt(0);
      if (
        c0 === 0x2705 ||
        c0 === 0x274c ||
        c0 === 0x274e ||
        c0 === 58 /* : */ ||
        c0 === 0xd83c ||
        (c0 >= 48 && c0 <= 57)
      ) {
        if (text === "::endgroup::") {
          open = null;
          return github;
        }
        if (githubLine(text, lineNo)) return true;
      }
      if (github && open) {
        // The github reporter prints a failure's error and stack as they are, up to the group's end (whose marker
        // an Actions log drops): the block runs to the next result line.
        if (open.lines.length < 200) open.lines.push(own(`  ${text}`));
        open.end = lineNo;
        return true;
      }
      const p = c0 >= 48 && c0 <= 57 ? PROGRESS.exec(text) : null;
      if (!p) {
        if (open && (text === "" || text.startsWith("  "))) {
          if (open.lines.length < 200) open.lines.push(own(text));
          open.end = lineNo;
          return true;
        }
        open = null;
        if (seen && since.length < 200) since.push(own(text));
        return false;
      }
      seen = true;
      open = null;
      const pre = since;
      since = [];
      // The compact reporter (a terminal) pads its progress line with spaces to clear the line before it.
      const message = p[6]!.trimEnd();
      running = null;
      if (
        message === "Some tests failed." ||
        message === "All tests passed!" ||
        message === "All tests skipped."
      ) {
        const failed = Number(p[5] ?? 0);
        sink.summary({ passed: Number(p[3]), failed, skipped: Number(p[4] ?? 0) });
        if (failed === 0) failures.clear();
        report();
        return true;
      }
      if (!message.endsWith(" [E]")) running = { desc: own(message), lineNo };
      if (message.endsWith(" [E]")) {
        const desc = message.slice(0, -4).replace(/ - did not complete$/, "");
        const known = failures.get(desc);
        if (known) {
          open = known;
        } else if (failures.size < 1_000) {
          open = { desc: own(desc), lines: [], pre: pre.slice(-120), start: lineNo, end: lineNo };
          failures.set(open.desc, open);
        }
      }
      return true;
    },
    end(): void {
      // A `❌ name (failed)` line with no github count line after it may be any tool's.
      for (const [k, f] of failures) if (f.github) failures.delete(k);
      // A log cut inside a test's failure, before its `[E]` line: flutter_test prints its EXCEPTION CAUGHT BY FLUTTER
      // TEST FRAMEWORK box only for an exception that fails the test it was thrown in, the one the last progress
      // line started.
      const box = since.findIndex((l) => l.includes("EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK"));
      if (running && box >= 0 && !failures.has(running.desc) && failures.size < 1_000)
        failures.set(running.desc, {
          desc: running.desc,
          lines: [],
          pre: since.slice(-120),
          start: running.lineNo,
          end: lastLine,
        });
      running = null;
      report();
    },
  };
}

export const dartTestFormat: FormatDefinition = {
  name: "dart-test",
  description:
    "dart test / flutter test, expanded reporter (progress lines with [E], the indented error, the last count line)",
  create: createDartTestParser,
};
