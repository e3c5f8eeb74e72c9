/**
 * `swift test` (and `xcodebuild test`) output: XCTest's console lines and Swift Testing's event lines.
 *
 * XCTest (`xctest`): `Test Case '-[KettleTests.KettleTests testPour]' started.` on Apple platforms, `Test Case
 * 'KettleTests.testPour' started at 2024-05-02 10:11:12.345` with swift-corelibs-xctest (Linux, Windows); an assertion
 * prints `/path/Tests/KettleTests/KettleTests.swift:14: error: -[KettleTests.KettleTests testPour] : XCTAssertEqual
 * failed: ("499") is not equal to ("500") - ` while its test runs, and the test ends `Test Case '…' failed (0.002
 * seconds).`. Counts: `\t Executed 5 tests, with 1 failure (0 unexpected) in 0.01 (0.01) seconds` after each suite;
 * only the outermost suite's line is the run's. The id is `Class.method` (docs/test-ids.md): the Apple form's module
 * (`KettleTests.` inside `-[…]`) is dropped so that one test has one id on every platform of a CI matrix. An error line
 * is kept only for the test running when it is printed, and reported only when that test ends `failed`.
 *
 * xcodebuild closes a failed run with its `Failing tests:` list (`\tKettleTests:` then `\t\tKettleTests.testPour()`,
 * `\t-[KettleTests.KettleTests testPour]` before Xcode 10) and `** TEST FAILED **` right under it: a listed test no
 * `Test Case` line reported is a failure once that line closes the list. Xcode 10's parallel testing prints each
 * failure as `KettleTests.KettleTests`, `testPour, failed - message`, `path:line`: the place of the listed test.
 *
 * Swift Testing (`swift-testing`, Swift 6): `◇ Test pourHalf() started.`, `✔ Test boils() passed after 0.001 seconds.`,
 * `✘ Test pourHalf() recorded an issue at KettleTests.swift:14:5: Expectation failed: …` (`with 1 argument x → 2 at …`
 * for a parameterized test), `✘ Test pourHalf() failed after 0.002 seconds with 1 issue.`, and the count line `✘ Test
 * run with 3 tests failed after 0.01 seconds with 1 issue.` (macOS prints SF Symbols in place of `◇✔✘`: the words are
 * read, not the symbol). The id is the test's name as printed (`pourHalf()`, a display name without its quotes): the
 * lines do not name the suite. Its place is the file name the issue line prints (Swift Testing prints no directory).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const CASE = /^Test Case '([^']+)' (started|passed|failed|skipped)\b/;
const SUITE = /^Test Suite '[^']+' (started|passed|failed) at /;
const EXECUTED =
  /^\s*Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures? \((\d+) unexpected\) in /;
const ERROR_AT = ": error: ";
const PLACE = /^(.*?):(\d+)$/;
/** The test an assertion names, XCTest's way: `-[Module.Class testX] : ` or `Class.testX : `, then `XCT… failed`. */
const ORPHAN = /^(-\[[\w.]+ \w+\]|\w+\.test\w*) : XCT\w+ failed\b/;

/** `-[KettleTests.KettleTests testPour]` → `KettleTests.testPour`; `KettleTests.testPour` stays. */
function xctestId(name: string): string {
  const m = /^-\[(?:[\w.]+\.)?(\w+) (\w+)\]$/.exec(name);
  return m ? `${m[1]}.${m[2]}` : name;
}

/**
 * A SwiftPM package's file from its `Tests/` or `Sources/` directory on, when the path is still absolute after the
 * runner checkouts were mapped (a container's `/root/<pkg>/`, Termux's `/data/data/…/<pkg>/`): SwiftPM requires
 * those two directories at the package root, so what precedes them is the checkout.
 */
export function swiftPackagePath(p: string): string {
  if (!p.startsWith("/")) return p;
  const t = p.indexOf("/Tests/");
  const at = t >= 0 ? t : p.indexOf("/Sources/");
  return at >= 0 ? p.slice(at + 1) : p;
}

const FAILING_TESTS = /^Failing tests:\s*$/;
const FAILING_ENTRY = /^\s*(?:(?:\w+\.)*(\w+)\.(\w+)\(\)|(-\[[\w.]+ \w+\]))\s*$/;
const FAILING_TARGET = /^\s*\w[\w .-]*:\s*$/;
const TEST_FAILED = /^\*\* TEST (?:EXECUTE )?FAILED \*\*\s*$/;
const PARALLEL_CLASS = /^\w+\.(\w+)$/;
const PARALLEL_FAILED = /^(\w+), failed - (.*)$/;

export function createXctestParser(sink: ParserSink) {
  const reportedIds = new Set<string>();
  /** xcodebuild's `Failing tests:` list under way. */
  let failingList: { id: string; text: string; lineNo: number }[] | null = null;
  /** Xcode 10's parallel report: the class line above, the failed method under it, then its place. */
  let parallelClass: string | null = null;
  let parallelFailed: { id: string; message: string; lineNo: number } | null = null;
  const parallelPlaces = new Map<string, { file: string; line: number; message: string; lineNo: number }>();

  let running: {
    name: string;
    errors: { file: string; line: number; message: string; lineNo: number }[];
    /** Opened by an assertion line, not a `started` line: the next assertion naming another test closes it. */
    orphan?: boolean;
  } | null = null;
  /** Whether this log showed a suite's `started` line: before one, a suite's end cannot be known as the outermost. */
  let sawSuiteStart = false;
  let depth = 0;
  let outermostEnded = false;

  function failed(
    name: string,
    errors: NonNullable<typeof running>["errors"],
    text: string,
    lineNo: number,
  ): void {
    const id = xctestId(name);
    reportedIds.add(id);
    const first = errors.find((e) => e.file !== "<unknown>") ?? errors[0];
    const xct = first ? /^(XCT\w+) failed\b/.exec(first.message) : null;
    sink.test(id, "failed", first && first.file !== "<unknown>" ? first.file : null);
    sink.failure({
      category: "test",
      test: id,
      file: first && first.file !== "<unknown>" ? first.file : null,
      line: first && first.file !== "<unknown>" ? first.line : null,
      errorType: xct ? xct[1]! : null,
      message: errors.map((e) => e.message).join("\n") || `${name} failed`,
      stack: [...errors.map((e) => `${e.file}:${e.line}: error: ${e.message}`), text]
        .filter((l) => l !== "")
        .join("\n"),
      start: errors[0]?.lineNo ?? lineNo,
      end: lineNo,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (failingList) {
        const e = FAILING_ENTRY.exec(text);
        if (e) {
          if (failingList.length < 5_000)
            failingList.push({ id: e[3] ? xctestId(e[3]) : `${e[1]}.${e[2]}`, text, lineNo });
          return true;
        }
        if (FAILING_TARGET.test(text)) return true;
        const list = failingList;
        failingList = null;
        if (TEST_FAILED.test(text)) {
          for (const f of list) {
            if (reportedIds.has(f.id)) continue;
            reportedIds.add(f.id);
            const at = parallelPlaces.get(f.id);
            sink.test(f.id, "failed", at?.file ?? null);
            sink.failure({
              category: "test",
              test: f.id,
              file: at?.file ?? null,
              line: at?.line ?? null,
              message: at?.message || `${f.id} failed`,
              stack: f.text.trim(),
              start: at?.lineNo ?? f.lineNo,
              end: f.lineNo,
            });
          }
          return true;
        }
      }
      if (FAILING_TESTS.test(text)) {
        failingList = [];
        return true;
      }
      if (parallelFailed) {
        const p = PLACE.exec(text);
        const f = parallelFailed;
        parallelFailed = null;
        if (p && /\.swift$|\.mm?$/.test(p[1]!) && parallelPlaces.size < 5_000)
          parallelPlaces.set(f.id, {
            file: own(swiftPackagePath(sink.path(p[1]!))),
            line: Number(p[2]),
            message: own(f.message),
            lineNo: f.lineNo,
          });
      }
      const pf = parallelClass ? PARALLEL_FAILED.exec(text) : null;
      if (pf) parallelFailed = { id: `${parallelClass}.${pf[1]}`, message: pf[2]!, lineNo };
      else parallelClass = text.length < 200 ? (PARALLEL_CLASS.exec(text)?.[1] ?? parallelClass) : null;
      const c0 = text.charCodeAt(0);
      if (c0 === 84 /* T */) {
        const c = CASE.exec(text);
        if (c) {
          const name = c[1]!;
          // An assertion-opened test whose own `failed` line never came (cut, or filtered): its assertion failed it.
          if (running?.orphan && running.name !== name && running.errors.length > 0)
            failed(running.name, running.errors, "", running.errors[running.errors.length - 1]!.lineNo);
          if (c[2] === "started") {
            running = { name: own(name), errors: [] };
            return true;
          }
          const id = xctestId(name);
          if (c[2] === "passed") sink.test(id, "passed");
          else if (c[2] === "skipped") sink.test(id, "skipped");
          else failed(name, running?.name === name ? running.errors : [], text, lineNo);
          running = null;
          return true;
        }
        const s = SUITE.exec(text);
        if (s) {
          // A log that opens inside a run (a paste) shows inner suites' ends before any start: their counts are
          // theirs, not the run's.
          if (s[1] === "started") {
            depth++;
            sawSuiteStart = true;
          } else depth = Math.max(0, depth - 1);
          outermostEnded = s[1] !== "started" && depth === 0 && sawSuiteStart;
          return true;
        }
      }
      if (outermostEnded && text.includes("Executed ")) {
        const e = EXECUTED.exec(text);
        if (e) {
          outermostEnded = false;
          const total = Number(e[1]);
          const skipped = Number(e[2] ?? 0);
          const failed = Number(e[3]);
          sink.summary({ passed: Math.max(0, total - skipped - failed), failed, skipped });
          return true;
        }
      }
      // An assertion of a test whose `started` line was cut away (a paste that opens inside it): its name is the
      // assertion's, and its `failed` line (or the log's end) closes it.
      // Linux XCTest run with its `Test Case` lines filtered away prints only these lines, one test after another.
      if ((!running || running.orphan) && text.includes(ERROR_AT)) {
        const at = text.indexOf(ERROR_AT);
        const rest = text.slice(at + ERROR_AT.length);
        const n = ORPHAN.exec(rest);
        if (n && n[1] !== running?.name && PLACE.test(text.slice(0, at))) {
          if (running && running.errors.length > 0)
            failed(running.name, running.errors, "", running.errors[running.errors.length - 1]!.lineNo);
          running = { name: own(n[1]!), errors: [], orphan: true };
        }
      }
      // An assertion of the running test: `path:line: error: <the test's name> : message`.
      if (running) {
        const at = text.indexOf(ERROR_AT);
        if (at > 0) {
          const rest = text.slice(at + ERROR_AT.length);
          const head = `${running.name} : `;
          const p = rest.startsWith(head) ? PLACE.exec(text.slice(0, at)) : null;
          if (p) {
            if (running.errors.length < 20)
              running.errors.push({
                file: p[1] === "<unknown>" ? "<unknown>" : own(swiftPackagePath(sink.path(p[1]!))),
                line: Number(p[2]),
                message: own(rest.slice(head.length).replace(/ - $/, "").trim()),
                lineNo,
              });
            return true;
          }
        }
      }
      return false;
    },
    end(): void {
      // A log cut while a test ran: an assertion it recorded already failed it.
      if (running && running.errors.length > 0)
        failed(running.name, running.errors, "", running.errors[running.errors.length - 1]!.lineNo);
      running = null;
    },
  };
}

/** The symbol (one code point, ◇ ✔ ✘ or an SF Symbol) and a space, then `Test `. */
const EVENT = /^(?:[\uD800-\uDBFF][\uDC00-\uDFFF]|[^\x00-\x7F\uD800-\uDFFF]) {1,2}Test /;
const RUN =
  /^Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed) after [\d.]+ seconds?(?: with (\d+) issues?)?\.$/;
const PASSED = /^Test (.+?)(?: with \d+ test cases?)? passed after [\d.]+ seconds?\.$/;
const FAILED = /^Test (.+?)(?: with \d+ test cases?)? failed after [\d.]+ seconds?(?: with \d+ issues?)?\.$/;
const ISSUE = " recorded an issue";
const ISSUE_PLACE = / at ([^\s:]+\.swift):(\d+):(\d+): /;

function unquote(name: string): string {
  return name.length > 1 && name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1) : name;
}

export function createSwiftTestingParser(sink: ParserSink) {
  const issues = new Map<
    string,
    { file: string; line: number; column: number; message: string; lineNo: number }[]
  >();
  const failedNames = new Set<string>();
  /** The issue a `↳ detail` line under it belongs to. */
  let last: { message: string } | null = null;

  return {
    line(text: string, lineNo: number): boolean {
      const m = EVENT.exec(text);
      if (!m) {
        const detail = last && /^\s*↳ /.test(text);
        if (detail && last!.message.length < 2_000) last!.message += `\n${text.trim().slice(2)}`;
        if (!detail) last = null;
        return Boolean(detail);
      }
      last = null;
      const body = text.slice(m[0].length - 5);
      const r = RUN.exec(body);
      if (r) {
        // The run line counts issues, not tests: the failed tests are those the run's lines said failed.
        const failed = r[2] === "failed" ? Math.max(1, failedNames.size) : 0;
        sink.summary({ passed: Math.max(0, Number(r[1]) - failed), failed });
        return true;
      }
      const i = body.indexOf(ISSUE);
      if (i > 5) {
        const name = unquote(body.slice(5, i));
        const place = ISSUE_PLACE.exec(body.slice(i));
        const colon = place ? i + place.index + place[0].length : body.indexOf(": ", i);
        const list = issues.get(name) ?? [];
        const issue = {
          file: place ? own(sink.path(place[1]!)) : "",
          line: place ? Number(place[2]) : 0,
          column: place ? Number(place[3]) : 0,
          message: own(colon > 0 ? body.slice(colon).replace(/^: /, "") : body),
          lineNo,
        };
        if (list.length < 20) list.push(issue);
        if (issues.size < 5_000) issues.set(own(name), list);
        last = issue;
        return true;
      }
      const f = FAILED.exec(body);
      if (f) {
        const name = unquote(f[1]!);
        const list = issues.get(name) ?? [];
        const first = list.find((x) => x.file !== "") ?? list[0];
        if (failedNames.size < 10_000) failedNames.add(own(name));
        sink.test(name, "failed", first?.file || null);
        sink.failure({
          category: "test",
          test: name,
          file: first?.file || null,
          line: first?.file ? first.line : null,
          column: first?.file ? first.column : null,
          errorType: null,
          message: list.map((x) => x.message).join("\n") || `${name} failed`,
          stack: text,
          start: list[0]?.lineNo ?? lineNo,
          end: lineNo,
        });
        return true;
      }
      const p = PASSED.exec(body);
      if (p) {
        sink.test(unquote(p[1]!), "passed");
        return true;
      }
      // `started`, `skipped`, suite and run-start events.
      return /^Test .* (?:started|skipped)\b/.test(body) || /^Test run started\.$/.test(body);
    },
    end(): void {},
  };
}

export const xctestFormat: FormatDefinition = {
  name: "xctest",
  description: "XCTest (swift test, xcodebuild): Test Case lines, assertion errors, Executed counts",
  create: createXctestParser,
};

export const swiftTestingFormat: FormatDefinition = {
  name: "swift-testing",
  description:
    "Swift Testing (swift test, Swift 6): Test … passed/failed/recorded an issue, the Test run line",
  create: createSwiftTestingParser,
};
