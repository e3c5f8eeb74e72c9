/**
 * sbt's test task and ScalaTest's reporter (`sbt test`, also ScalaTest under mill or Maven without sbt's prefix).
 *
 * sbt prints each line behind its level, `[info] ` or `[error] ` (some setups a clock before it, `[04-09 22:41:59.531]
 * [error] `), and ends a red test task with its summary: `[error] Failed: Total 540, Failed 2, Errors 0, Passed 538`,
 * then `[error] Failed tests:` (assertion failures) or `[error] Error during tests:` (a suite that errored) with one
 * indented fully qualified class per line (a tab or spaces), then `sbt.TestsFailedException: Tests unsuccessful`.
 * Those entries name suites, not tests: the class is the id (as Surefire's class-level entry), reported only when
 * the log names none of that suite's tests. An `Error during tests:` entry that is no class (a forked JVM's
 * `Running java with options …` line) names nothing.
 *
 * ScalaTest prints a tree per suite: the suite's simple name and a colon (`FooSpec:`), subjects (`A Stack`, nested two
 * spaces deeper in FunSpec/WordSpec), and tests as `- should pop values` (` *** FAILED ***` appended to a failed one),
 * each failed test's message indented under it with its place in parentheses (`(FooSpec.scala:18)`, no directory).
 * The id is ScalaTest's JUnit XML one: `Suite.` and the subjects and the test's text joined by spaces
 * (`FooSpec.A Stack should throw …`). Counts: `Tests: succeeded 150, failed 0, canceled 0, ignored 0, pending 0`.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

/** sbt's level prefix, optionally behind a clock; what follows is the tool's line. */
const LEVEL =
  /^(?:\[(?:\d{4}-)?\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?\] ?)?\[(info|error|warn|success)\](?: |$)/;
/**
 * junit-interface's line for a failed JUnit test (`[error] Test a.b.CartTest.addsTax failed: expected:<4> but
 * was:<3>, took 0.003 sec`): the id is JUnit's `classname.name`, what the JUnit XML names it.
 */
const JUNIT_FAILED =
  /^Test ((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:\[[^\]]*\])?) failed: (.*?)(?:, took [\d.]+ sec)?\s*$/;
const SBT_COUNTS =
  /^(?:Failed|Error|Passed): Total (\d+), Failed (\d+), Errors (\d+), Passed (\d+)(?:, Skipped (\d+))?/;
/** A scripted test's failure line (`x group / name`). */
const SCRIPTED_FAILED = /^x ([\w.-]+ \/ [\w.-]+)\s*$/;
const LIST_HEAD = /^(?:Failed tests|Error during tests):\s*$/;
const LIST_ENTRY = /^\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*$/;
const SCALATEST_COUNTS =
  /^Tests: succeeded (\d+), failed (\d+), canceled (\d+), ignored (\d+), pending (\d+)/;
const SUITE = /^([A-Za-z_$][\w$]*):$/;
const TEST = /^( *)- (.+?)( \*\*\* FAILED \*\*\*)?$/;
const PLACE = /\(([\w$.-]+\.scala):(\d+)\)\s*$/;
/** A compiler error under sbt: `[error] path/Foo.scala:15: not found: type Bar` (zinc adds the column: `:15:9:`). */
const COMPILE_ERROR = /^((?:[A-Za-z]:)?[^\s:]+\.(?:scala|java)):(\d+):(?:(\d+):)? (.+)$/;
/** sbt's line that the task failed on them: `[error] (core/test:compileIncremental) Compilation failed`. */
const COMPILE_FAILED = /^\((?:[^()\s]+\/|[^()]+ \/ )?[\w:]*compile\w*\) Compilation failed$/;
/**
 * sbt prints a subproject's path relative to its own working directory (`../core/src/test/scala/x/FooSpec.scala`):
 * a path that climbs out and then follows sbt's layout is taken without its leading `../`.
 */
const UP_TO_LAYOUT = /^(?:\.\.\/)+([^/]+(?:\/[^/]+)*?\/src\/(?:main|test|it)\/(?:scala|java)\/.+)$/;

export function createSbtParser(sink: ParserSink) {
  /** A scripted test's `x group / name` line, waiting for its cause line. */
  let scripted: { id: string; lineNo: number } | null = null;
  let suite: string | null = null;
  /** Subjects of the suite's tree by indentation (FlatSpec `A Stack`, FunSpec `describe` levels). */
  const subjects: { indent: number; text: string }[] = [];
  /** The failed test whose message lines are being read. */
  let open: {
    id: string;
    indent: number;
    message: string[];
    place: string | null;
    start: number;
    end: number;
  } | null = null;
  let inList = false;
  const listed: { name: string; lineNo: number; error: boolean }[] = [];
  let listError = false;
  /** Simple names of the suites whose failed tests this log named. */
  const suitesWithFailures = new Set<string>();
  /**
   * Compiler errors, waiting for sbt's `Compilation failed` that says the task failed on them (a warning-like line
   * of another tool is not one): then one build failure per file, at its first error, with no test id.
   */
  let compileErrors: {
    file: string;
    line: number;
    column: number | null;
    message: string;
    lineNo: number;
  }[] = [];

  function close(): void {
    if (!open) return;
    const o = open;
    open = null;
    const place = o.place ? PLACE.exec(o.place) : null;
    sink.test(o.id, "failed");
    sink.failure({
      category: "test",
      test: o.id,
      // ScalaTest prints the file's name without its directory: no place in the repository.
      file: null,
      line: null,
      errorType: null,
      message: o.message.join("\n") || `${o.id} failed`,
      stack: place ? `${place[1]}:${place[2]}` : null,
      start: o.start,
      end: o.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      let lv = LEVEL.exec(text);
      let rest = lv ? text.slice(lv[0].length) : text;
      // An sbt run inside another (a build that runs sbt as a process) prints the inner run's lines behind the outer
      // one's level (`[info] [error] Failed tests:`): the innermost level is the line's.
      for (let inner = lv ? LEVEL.exec(rest) : null; inner; inner = LEVEL.exec(rest)) {
        lv = inner;
        rest = rest.slice(inner[0].length);
      }
      // sbt's scripted plugin tests: `[error] x group / name` for a failed one, confirmed by scripted's own
      // `Cause of test exception:` line right under it (a bare `x …` line may be anything's).
      if (scripted) {
        const s = scripted;
        scripted = null;
        if (lv?.[1] === "error" && rest.trimStart().startsWith("Cause of test exception:")) {
          const message = rest.trim().replace(/^Cause of test exception:\s*/, "");
          sink.test(s.id, "failed");
          sink.failure({
            category: "test",
            test: s.id,
            message: message || s.id,
            start: s.lineNo,
            end: lineNo,
          });
          return true;
        }
      }
      if (lv?.[1] === "error" && rest.startsWith("x ")) {
        const x = SCRIPTED_FAILED.exec(rest);
        if (x) {
          scripted = { id: own(x[1]!), lineNo };
          return true;
        }
      }
      if (inList) {
        const e = lv?.[1] === "error" ? LIST_ENTRY.exec(rest) : null;
        if (e) {
          if (listed.length < 1_000) listed.push({ name: own(e[1]!), lineNo, error: listError });
          return true;
        }
        inList = false;
      }
      if (lv?.[1] === "error") {
        if (LIST_HEAD.test(rest)) {
          close();
          inList = true;
          listError = rest.startsWith("Error");
          return true;
        }
        const ce = rest.includes(":") ? COMPILE_ERROR.exec(rest) : null;
        if (ce) {
          if (compileErrors.length < 1_000)
            compileErrors.push({
              file: ce[1]!,
              line: Number(ce[2]),
              column: ce[3] ? Number(ce[3]) : null,
              message: own(ce[4]!),
              lineNo,
            });
          return true;
        }
        if (COMPILE_FAILED.test(rest)) {
          const seen = new Set<string>();
          for (const e of compileErrors) {
            const file = sink.path(UP_TO_LAYOUT.exec(e.file)?.[1] ?? e.file);
            if (seen.has(file)) continue;
            seen.add(file);
            sink.failure({
              category: "build",
              test: null,
              file,
              line: e.line,
              column: e.column,
              errorType: "compile",
              message: e.message,
              stack: null,
              start: e.lineNo,
              end: lineNo,
            });
          }
          compileErrors = [];
          return true;
        }
        const j = rest.startsWith("Test ") ? JUNIT_FAILED.exec(rest) : null;
        if (j) {
          close();
          const id = own(j[1]!);
          const cls = id.replace(/\[.*$/, "");
          suitesWithFailures.add(cls.slice(0, cls.lastIndexOf(".")).split(".").pop()!);
          sink.test(id, "failed");
          sink.failure({
            category: "test",
            test: id,
            file: null,
            line: null,
            errorType: null,
            message: own(j[2]!.trim()) || `${id} failed`,
            stack: null,
            start: lineNo,
            end: lineNo,
          });
          return true;
        }
        const c = SBT_COUNTS.exec(rest);
        if (c) {
          close();
          sink.summary({
            passed: Number(c[4]),
            failed: Number(c[2]),
            error: Number(c[3]),
            skipped: Number(c[5] ?? 0),
          });
          return true;
        }
      }
      if (lv && lv[1] !== "info") return false;
      // The failed test's message: lines indented deeper than its `- ` line.
      if (open) {
        const indent = rest.length - rest.trimStart().length;
        if (indent > open.indent && rest.trim() !== "") {
          if (open.message.length < 40) open.message.push(own(rest.trim()));
          if (PLACE.test(rest)) open.place = own(rest);
          open.end = lineNo;
          return true;
        }
        close();
      }
      const s = lv && rest.endsWith(":") ? SUITE.exec(rest) : null;
      if (s && lv) {
        suite = own(s[1]!);
        subjects.length = 0;
        return false;
      }
      const sc = rest.startsWith("Tests: ") ? SCALATEST_COUNTS.exec(rest) : null;
      if (sc) {
        suite = null;
        subjects.length = 0;
        sink.summary({
          passed: Number(sc[1]),
          failed: Number(sc[2]),
          skipped: Number(sc[4]) + Number(sc[5]),
        });
        return true;
      }
      const t = rest.includes("- ") ? TEST.exec(rest) : null;
      if (t && (t[3] || suite !== null)) {
        const indent = t[1]!.length;
        while (subjects.length > 0 && subjects[subjects.length - 1]!.indent > indent) subjects.pop();
        if (!t[3]) {
          const id = [...subjects.map((x) => x.text), t[2]!].join(" ");
          sink.test(suite ? `${suite}.${id}` : id, "passed");
          return true;
        }
        const name = [...subjects.map((x) => x.text), t[2]!].join(" ");
        if (suite) suitesWithFailures.add(suite);
        open = {
          id: own(suite ? `${suite}.${name}` : name),
          indent,
          message: [],
          place: null,
          start: lineNo,
          end: lineNo,
        };
        return true;
      }
      // A subject line of the suite's tree: only inside a tree (after its `Suite:` line), and not a sentence of
      // sbt's own (`Compiling 3 Scala sources …`, `Run completed in …`).
      if (
        suite !== null &&
        lv &&
        rest.trim() !== "" &&
        !/^(?:Run completed|Total number|Suites: |All tests passed|\*\*\* )/.test(rest)
      ) {
        const indent = rest.length - rest.trimStart().length;
        while (subjects.length > 0 && subjects[subjects.length - 1]!.indent >= indent) subjects.pop();
        if (subjects.length < 20) subjects.push({ indent, text: own(rest.trim()) });
      }
      return false;
    },
    end(): void {
      close();
      for (const l of listed) {
        const simple = l.name.slice(l.name.lastIndexOf(".") + 1);
        if (suitesWithFailures.has(simple)) continue;
        sink.test(l.name, l.error ? "error" : "failed");
        sink.failure({
          category: "test",
          test: l.name,
          file: null,
          line: null,
          errorType: null,
          message: l.error ? `${l.name}: error during tests` : `${l.name}: failed tests`,
          stack: null,
          start: l.lineNo,
          end: l.lineNo,
        });
      }
    },
  };
}

export const sbtFormat: FormatDefinition = {
  name: "sbt",
  description:
    "sbt test and ScalaTest: Failed tests / Error during tests lists, `- … *** FAILED ***` trees, counts",
  create: createSbtParser,
};
